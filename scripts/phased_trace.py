#!/usr/bin/python3
"""Reads glsatbench --trace-phased output (phased_trace_WxH.csv): how many workgroups each SM held
at once, and where each phase's workgroups spent their cycles.

  /usr/bin/python3 scripts/phased_trace.py results/sat/gl/session19/trace/phased_trace_1920x1080.csv

Columns: run, ticket, phase (0 reduce, 1 small scans, 2 tile scans), sm, ck0..ck7: the SM's cycle
counter (low 32 bits) at the workgroup's start (0), before its phase's wait (1), after it (2), at
its end (3), and marks 4-7 (sat_fused_phased.comp). The SMs' counters are not synchronised, so
each SM's times count from its first workgroup's start (the dispatch reaches every SM within
about a microsecond).
"""
import sys

import numpy as np

PHASES = ("reduce", "small scans", "tile scans", "one-pass tiles")


def main(path):
    d = np.genfromtxt(path, delimiter=",", names=True, dtype=np.int64)
    for run in sorted(set(d["run"].tolist())):
        r = d[d["run"] == run]
        held, rows = [], []
        for sm in sorted(set(r["sm"].tolist())):
            x = r[r["sm"] == sm]
            ck = np.stack([(x["ck%d" % k] - x["ck0"].min()) & 0xFFFFFFFF for k in range(8)], 1)
            events = sorted([(a, 1) for a in ck[:, 0]] + [(b, -1) for b in ck[:, 3]])
            now = most = 0
            for _, step in events:
                now += step
                most = max(most, now)
            held.append(most)
            rows += [(p, c[0], c[3], c[2] - c[1]) for p, c in zip(x["phase"], ck.astype(np.int64))]
        print("run %d: workgroups an SM held at once: %s" % (run, sorted(set(held))))
        if not rows:
            continue
        a = np.array(rows)
        for p, name in enumerate(PHASES):
            m = a[:, 0] == p
            if m.any():
                print("  %-11s %4d workgroups: start %6d .. %6d, end %6d .. %6d (median %6d), "
                      "median wait %5d cycles" % (name, m.sum(), a[m, 1].min(), a[m, 1].max(),
                                                  a[m, 2].min(), a[m, 2].max(), np.median(a[m, 2]),
                                                  np.median(a[m, 3])))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
