#!/usr/bin/env python3
"""The table of scripts/gpu/before_after.sh: every median after / before, per benchmark.

  scripts/gpu/before_after.py DIR      (DIR: the unpacked before-after folder)

Rows are matched on their non-timing columns; for each benchmark it prints the rows compared,
the median of after / before, the worst (slowest after) row and how many rows lie within 2 %.
The headless frames: median frame_gpu_ms of each run, both rounds.
"""
import csv
import glob
import json
import os
import statistics
import sys

TIME = {'scanbench.csv': 'median_ms', 'sortbench.csv': 'median_ms', 'sat/satbench.csv': 'total_ms',
        'glsat/glsatbench.csv': 'single_median_ms'}
DROP = {'median_ms', 'min_ms', 'max_ms', 'reps', 'gb_per_s', 'gelem_per_s', 'vs_cub', 'pct_memcpy',
        'ms_range', 'gkeys_s', 'gb_s', 'vs_cub_range', 'check', 'note', 'sets', 'device',
        'single_p10_ms', 'single_p90_ms', 'stream_ms', 'rows_ms', 'columns_ms', 'aux_ms',
        'cpu_issue_ms', 'gbps_fused_bytes', 'verified', 'graph_ms', 'stages_total_ms', 'total_ms',
        'single_median_ms', 'deinterleave_ms', 'row_scan_ms', 'transpose_ms', 'column_scan_ms',
        'transpose_back_ms', 'bytes'}


def rows(path, col):
    out = {}
    with open(path) as f:
        for r in csv.DictReader(f):
            try:
                out[tuple((k, v) for k, v in r.items() if k not in DROP)] = float(r[col])
            except (KeyError, ValueError):
                pass
    return out


def main(d):
    print(open(os.path.join(d, 'gpu.txt')).read().strip())
    print(f"{'benchmark':<26}{'rows':>6}{'median a/b':>12}{'worst a/b':>11}{'within 2%':>11}  worst row")
    for name, col in TIME.items():
        b, a = os.path.join(d, 'before/r1', name), os.path.join(d, 'after/r1', name)
        if not (os.path.exists(b) and os.path.exists(a)):
            print(f'{name:<26} missing')
            continue
        rb, ra = rows(b, col), rows(a, col)
        ratios = {k: ra[k] / rb[k] for k in rb if k in ra and rb[k] > 0}
        if not ratios:
            print(f'{name:<26} no rows matched')
            continue
        worst = max(ratios, key=ratios.get)
        within = sum(1 for r in ratios.values() if r <= 1.02)
        label = ' '.join(v for _, v in worst)
        print(f'{name:<26}{len(ratios):>6}{statistics.median(ratios.values()):>12.4f}'
              f'{ratios[worst]:>11.4f}{within:>8}/{len(ratios):<3} {label}')
    print('headless frame, median frame_gpu_ms (before r1, r2 | after r1, r2):')
    for run in ('cuda_default', 'cuda_fused', 'gl_default', 'gl_fused'):
        v = {}
        for side in ('before', 'after'):
            for r in ('r1', 'r2'):
                p = os.path.join(d, side, r, f'frame_{run}.json')
                try:
                    v[side, r] = json.load(open(p))['runs'][0]['frame_gpu_ms']
                except (OSError, KeyError, IndexError, ValueError):
                    v[side, r] = float('nan')
        b = statistics.mean([v['before', 'r1'], v['before', 'r2']])
        a = statistics.mean([v['after', 'r1'], v['after', 'r2']])
        print(f"  {run:<13} {v['before', 'r1']:.4f} {v['before', 'r2']:.4f} | {v['after', 'r1']:.4f} "
              f"{v['after', 'r2']:.4f}   after / before {a / b:.4f}")
    p = os.path.join(d, 'images.txt')
    if os.path.exists(p):
        print(open(p).read().strip())


if __name__ == '__main__':
    main(sys.argv[1] if len(sys.argv) > 1 else 'before-after')
