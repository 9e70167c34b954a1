#!/usr/bin/env python3
"""Checks a soak report made with --soak-vary: the report names what varied, and the samples'
configuration labels (backend/method/variant/dof/view/msaa/pipeline/format) differ only in the
fields that dimension owns; a soak without size has no resizes, one without extras no lens
references, primitives runs or screenshots.

usage: check_soak_vary.py REPORT.json VARY    (VARY as given to --soak-vary, e.g. view)"""
import json
import sys

# Fields of Soak::config_label, split at '/', and the --soak-vary name that changes each.
FIELDS = {0: "backend", 1: "sat", 2: "sat", 3: "dof", 4: "view", 5: "msaa", 6: "pipeline",
          7: "sat"}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path, vary = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as f:
        soak = json.load(f)["soak"]
    names = set(vary.split(","))
    if "all" in names:
        names = set(FIELDS.values()) | {"size", "extras"}
    bad = []
    if soak.get("vary") != vary:
        bad.append(f"report says vary={soak.get('vary')!r}, asked {vary!r}")
    labels = [s["config"].split("/") for s in soak["samples"]]
    if len(labels) < 4:
        bad.append(f"only {len(labels)} samples")
    changed = set()
    for lab in labels[1:]:
        if len(lab) != len(labels[0]):
            bad.append(f"label {'/'.join(lab)} has another shape than {'/'.join(labels[0])}")
            continue
        changed |= {FIELDS.get(i, "?") for i, (a, b) in enumerate(zip(labels[0], lab)) if a != b}
    if changed - names:
        bad.append(f"fields of {sorted(changed - names)} changed, only {sorted(names)} may")
    if not changed & names and "size" not in names and "extras" not in names:
        bad.append(f"nothing of {sorted(names)} changed over {len(labels)} samples")
    if "size" not in names and soak["resizes"] != 0:
        bad.append(f"{soak['resizes']} resizes without size in --soak-vary")
    if "extras" not in names:
        for k in ("references", "primitive_runs", "screenshots"):
            if soak[k] != 0:
                bad.append(f"{soak[k]} {k} without extras in --soak-vary")
    if bad:
        print("FAIL (" + "; ".join(bad) + ")")
        return 1
    print(f"ok: {len(labels)} samples, changed {sorted(changed) or 'nothing'} "
          f"(allowed {sorted(names)}), {soak['resizes']} resizes, {soak['references']} references")
    return 0


if __name__ == "__main__":
    sys.exit(main())
