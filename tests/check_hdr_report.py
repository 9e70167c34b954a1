#!/usr/bin/python3
"""The HDR pipeline's report (scandof --headless --report, HDR is the default):

  check_hdr_report.py REPORT.json MAX_ENERGY_ERROR [MIN_LOG_PSNR]

- the report names the HDR pipeline and its fixed point (fraction bits 0..24, a limit above 1)
  and no pixel was clamped;
- every scored run has the radiance scores: a highlight mask of more than 0 pixels (the bulbs
  brighter than white), its relative energy error at most MAX_ENERGY_ERROR (e.g. 0.05) for the
  best run, log-luminance PSNR above MIN_LOG_PSNR (default 20 dB) for every run;
- a --verify in the same run passed (HDR tables equal sat_gold_hdr of the radiance frame).
"""
import json
import sys


def main():
    if len(sys.argv) not in (3, 4):
        raise SystemExit(__doc__)
    rep = json.load(open(sys.argv[1]))
    max_err = float(sys.argv[2])
    min_log = float(sys.argv[3]) if len(sys.argv) == 4 else 20.0
    ok = True

    def fail(msg):
        nonlocal ok
        ok = False
        print("FAIL:", msg)

    if rep.get("pipeline") != "hdr":
        fail(f"pipeline {rep.get('pipeline')!r}, want 'hdr'")
    h = rep.get("hdr", {})
    if not (0 <= h.get("fraction_bits", -1) <= 24 and h.get("limit_radiance", 0) > 1):
        fail(f"fixed point missing or odd: {h}")
    if h.get("clamped_pixels", -1) != 0:
        fail(f"clamped pixels: {h.get('clamped_pixels')}")
    best = None
    for r in rep.get("runs", []):
        q = r.get("quality")
        if not q:
            continue
        name = r.get("dof", r.get("variant"))
        e, px, lp = q.get("highlight_energy_error"), q.get("highlight_pixels", 0), q.get(
            "log_luminance_psnr_db")
        print(f"{name}: highlight energy error {e}, {px} px, log-luminance PSNR {lp} dB, "
              f"exposure {q.get('exposure_ev')} EV, PSNR {q.get('psnr_db')} dB")
        if px <= 0 or e is None:
            fail(f"{name}: no highlight pixels scored")
            continue
        if lp is None or lp < min_log:
            fail(f"{name}: log-luminance PSNR {lp} below {min_log}")
        best = e if best is None else min(best, e)
    if best is None:
        fail("no scored run")
    elif best > max_err:
        fail(f"best highlight energy error {best:.4f} above {max_err}")
    v = rep.get("verify")
    if v is not None and not v.get("ok"):
        fail(f"verify: {v.get('message')}")
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
