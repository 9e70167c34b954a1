#!/usr/bin/python3
"""Checks a headless demo report (scandof --headless --report FILE): every top-level field present
with its type and a plausible value, no field this script does not know (a new field arrives with
its check), every run's fields and stage times; then what the command line asked for.

  check_demo_report.py REPORT.json [KEY=VALUE ...]

KEY=VALUE pairs are what the run asked for:
  backend=cuda|gl|cpu      sat_backend names that backend ("CUDA on", "GL compute on", "CPU")
  runs=A,B,...             the runs' "variant" fields, in order
  dofs=M/S,...             the runs' "dof" fields, in order
  dof_passes=P,...         the runs' "dof_pass" fields, in order
  thin_lens=1              aperture = the thin lens's blur radius at infinity, computed here
                           from the lens block, focus (m) and width
  focus_of=FILE            focus equals that of another report (relative 1e-4)
  focus_lt=FILE            focus is nearer than that of another report
  pull=F0,SPEED,N,FILE     focus is where autofocus's pull (even in dioptres, 1 - e^(-SPEED t)
                           of the gap) gets from F0 towards FILE's focus in N frames of 1/60 s
  FIELD=VALUE              a field equals VALUE (parsed as JSON, else a string); FIELD may
                           name a nested one: lens.f_number
Exit status 0 when every check passes.
"""
import json
import math
import re
import sys

NUM = (int, float)
# name: (types, plausible(value, report) or None, required)
TOP = {
    "tool": (str, lambda v, r: v == "scandof --headless", True),
    "device": (str, lambda v, r: len(v) > 0, True),
    "sat_backend": (str, lambda v, r: v.startswith(("CUDA on ", "GL compute on ", "CPU fallback")),
                    True),
    # What a user can do to get CUDA (a CUDA device beside a window's GL elsewhere); optional.
    "sat_backend_hint": (str, lambda v, r: "__NV_PRIME_RENDER_OFFLOAD=1" in v, False),
    "gl": (str, lambda v, r: len(v) > 0, True),
    "width": (int, lambda v, r: 1 <= v <= 16384, True),
    "height": (int, lambda v, r: 1 <= v <= 16384, True),
    "frames": (int, lambda v, r: v >= 1, True),
    "focus": (NUM, lambda v, r: v > 0, True),
    "aperture": (NUM, lambda v, r: v >= 0, True),
    "max_radius": (NUM, lambda v, r: v >= 0, True),
    "pipeline": (str, lambda v, r: v in ("hdr", "ldr"), True),
    "hdr": (dict, lambda v, r: r["pipeline"] == "hdr" and set(v) == {
        "tone_mapper", "auto_exposure", "exposure_ev", "highlight", "fraction_bits",
        "limit_radiance", "clamped_pixels", "bokeh_threshold"} and v["tone_mapper"] in ("aces", "agx", "reinhard")
        and 0 <= v["fraction_bits"] <= 24 and v["limit_radiance"] > 0
        and v["clamped_pixels"] >= 0, False),
    "format": (str, lambda v, r: v in ("u32", "f32"), True),
    "method": (str, lambda v, r: v in ("paper", "fused", "fused-two-pass", "fused-one-pass",
                                       "fused-resident"), True),
    "dof": (str, lambda v, r: v.split("/")[0] in ("gather", "spread", "layered")
            and v.split("/")[-1] in ("box", "octagon", "disc"), True),
    "disc_boxes": (int, lambda v, r: 1 <= v <= 8, True),
    "layers": (int, lambda v, r: 2 <= v <= 8, True),
    "physical": (bool, None, True),
    "lens": (dict, lambda v, r: r["physical"] and set(v) == {"focal_length_mm", "f_number",
                                                             "sensor_width_mm", "scene_unit"}
             and all(isinstance(v[k], NUM) and v[k] > 0
                     for k in ("focal_length_mm", "f_number", "sensor_width_mm")), False),
    "msaa": (int, lambda v, r: 1 <= v <= 16, True),
    "anisotropy": (NUM, lambda v, r: v >= 1, True),
    "scene_shading": (str, lambda v, r: v in ("deferred planes", "forward"), True),
    "scene_shading_asked": (str, lambda v, r: v in ("auto", "deferred", "forward"), True),
    "reference_samples": (int, lambda v, r: 1 <= v <= 65536, True),
    "reference_clamped": (bool, None, True),
    "quality_note": (str, lambda v, r: "reference" in v, True),
    "reference_png": (str, lambda v, r: v.endswith(".png"), False),
    "float32_max_box_error": (NUM, lambda v, r: 0 <= v < 1, False),
    "verify": (dict, lambda v, r: set(v) == {"ok", "message"} and isinstance(v["ok"], bool)
               and isinstance(v["message"], str), False),
    "note": (str, lambda v, r: "median" in v, True),
    "primitives_note": (str, None, False),
    "primitives": (list, None, False),
    "runs": (list, lambda v, r: len(v) >= 1, True),
    # Where the figures came from (tools/provenance): scripts/results.py refuses data without it.
    "record": (dict, lambda v, r: list(v) == ["commit", "dirty", "device", "driver", "date_utc",
                                              "command"]
               and (v["commit"] == "unknown" or re.fullmatch(r"[0-9a-f]{40}", v["commit"]))
               and isinstance(v["dirty"], bool) and v["device"] == r["device"]
               and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", v["date_utc"])
               and "scandof" in v["command"] and "--headless" in v["command"], True),
}
DOF_PASSES = {"fragment": "dof_fragment_ms", "compute (GL)": "dof_compute_ms",
              "compute (CUDA)": "dof_compute_ms", "cpu": "dof_cpu_ms"}
COMMON_STAGES = ["scene_gl_ms", "tonemap_gl_ms", "sat_total_ms", "interop_ms", "sat_ms", "frame_gpu_ms",
                 "frame_gpu_all_ms", "frame_cpu_ms", "frame_interval_ms"]
CPU_STAGES = ["readback_ms", "cpu_sat_ms", "upload_ms"]
GPU_STAGES = ["interop_map_host_ms", "interop_unmap_host_ms", "interop_map_unmap_host_ms",
              "interop_map_stream_ms", "interop_unmap_stream_ms", "deinterleave_ms",
              "row_scan_ms", "transpose_ms", "column_scan_ms", "transpose_back_ms"]
QUALITY = {"psnr_db", "ssim", "edge_psnr_db", "edge_ssim", "reference_samples", "dof_pass",
           "reference_ms", "reference_render_ms", "edge_pixels", "edge_radius_px", "lens_radius"}
# The radiance scores an HDR run adds to its quality.
QUALITY_HDR = {"exposure_ev", "highlight_energy_error", "highlight_energy_signed",
               "highlight_pixels", "log_luminance_psnr_db"}


def check_top(r, fail):
    for k in r:
        if k not in TOP:
            fail.append(f"unknown top-level field {k!r}: add its check here")
    for k, (types, plausible, required) in TOP.items():
        if k not in r:
            if required:
                fail.append(f"missing field {k!r}")
            continue
        v = r[k]
        if not isinstance(v, types) or (types in (int, NUM) and isinstance(v, bool)):
            fail.append(f"{k}: {v!r} is not of type {types}")
        elif plausible and not plausible(v, r):
            fail.append(f"{k}: implausible value {v!r}")
    if r.get("physical") and "lens" not in r:
        fail.append("physical camera without its lens block")


def check_run(i, run, r, fail):
    cpu = r.get("sat_backend", "").startswith("CPU")
    where = f"runs[{i}] ({run.get('variant')})"
    for k, t in (("variant", str), ("frames", int), ("dof_pass", str), ("dof_ms", NUM)):
        if not isinstance(run.get(k), t):
            fail.append(f"{where}: {k} missing or not {t}")
    # The last measured frame has no successor to time its interval by, so it is dropped.
    if run.get("frames") != r.get("frames", 0) - 1:
        fail.append(f"{where}: frames {run.get('frames')}, want {r.get('frames', 0) - 1}")
    dof_key = DOF_PASSES.get(run.get("dof_pass"))
    if dof_key is None:
        fail.append(f"{where}: dof_pass {run.get('dof_pass')!r} unknown")
        return
    stages = COMMON_STAGES + (CPU_STAGES if cpu else GPU_STAGES) + [dof_key]
    for k in stages:
        v = run.get(k)
        if not isinstance(v, NUM) or not math.isfinite(v) or v < 0:
            fail.append(f"{where}: stage {k} = {v!r}, want a time >= 0")
    other = set(DOF_PASSES.values()) - {dof_key}
    extra = set(run) - set(stages) - {"variant", "frames", "dof_pass", "dof", "dof_ms",
                                      "dof_message", "quality"}
    if extra:
        fail.append(f"{where}: unknown fields {sorted(extra)}")
    if other & set(run):
        fail.append(f"{where}: DoF stage keys {sorted(other & set(run))} beside {dof_key}")
    if run.get("dof_ms") != run.get(dof_key):
        fail.append(f"{where}: dof_ms {run.get('dof_ms')} is not {dof_key} {run.get(dof_key)}")
    if "quality" in run:
        q = run["quality"]
        want_q = QUALITY | (QUALITY_HDR if r.get("pipeline") == "hdr" else set())
        if set(q) != want_q:
            fail.append(f"{where}: quality fields {sorted(q)}, want {sorted(want_q)}")
        elif q["reference_samples"] != r.get("reference_samples"):
            fail.append(f"{where}: quality.reference_samples {q['reference_samples']}")


def thin_lens_aperture(r):
    # Blur radius (px) of a point at infinity: the lens (f, N) focused at z_f puts the sensor at
    # v_f = f z_f / (z_f - f); light from infinity converges at f, so the cone of diameter f / N
    # is cut by the sensor in a circle of diameter (f / N) (v_f - f) / f.
    lens = r["lens"]
    f = lens["focal_length_mm"]
    z_f = r["focus"] * 1000.0
    v_f = f * z_f / (z_f - f)
    blur_mm = (f / lens["f_number"]) * (v_f - f) / f
    return 0.5 * blur_mm * r["width"] / lens["sensor_width_mm"]


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    path = sys.argv[1]
    with open(path) as f:
        r = json.load(f)
    fail = []
    check_top(r, fail)
    for i, run in enumerate(r.get("runs", [])):
        check_run(i, run, r, fail)
    runs = r.get("runs", [])
    for arg in sys.argv[2:]:
        key, _, want = arg.partition("=")
        if key == "backend":
            prefix = {"cuda": "CUDA on ", "gl": "GL compute on ", "cpu": "CPU fallback"}[want]
            if not r.get("sat_backend", "").startswith(prefix):
                fail.append(f"sat_backend {r.get('sat_backend')!r} is not {want}")
        elif key in ("runs", "dofs", "dof_passes"):
            field = {"runs": "variant", "dofs": "dof", "dof_passes": "dof_pass"}[key]
            got = [run.get(field) for run in runs]
            if got != want.split(","):
                fail.append(f"runs' {field}: {got}, want {want.split(',')}")
        elif key in ("focus_of", "focus_lt", "pull"):
            parts = want.split(",")
            with open(parts[-1]) as f:
                other = json.load(f)["focus"]
            got = r.get("focus")
            if key == "focus_of":
                ok, expect = abs(got - other) <= 1e-4 * other, f"{other} of {parts[-1]}"
            elif key == "focus_lt":
                ok, expect = got < other, f"< {other} of {parts[-1]}"
            else:
                f0, speed, n = float(parts[0]), float(parts[1]), int(parts[2])
                k = 1.0 - math.exp(-speed * n / 60.0)
                pulled = 1.0 / (1.0 / f0 + k * (1.0 / other - 1.0 / f0))
                ok, expect = abs(got - pulled) <= 1e-4 * pulled, f"{pulled:.6f} (pulled)"
            if not ok:
                fail.append(f"focus {got}, want {expect}")
            else:
                print(f"focus {got:.6f}: {expect}")
        elif key == "thin_lens":
            if "lens" not in r:
                fail.append("thin_lens: no lens block")
            else:
                a = thin_lens_aperture(r)
                if abs(r["aperture"] - a) > 1e-4 * a + 1e-6:
                    fail.append(f"aperture {r['aperture']} px, the thin lens gives {a:.6f}")
                else:
                    print(f"aperture {r['aperture']:.6f} px = the thin lens's {a:.6f}")
        else:
            try:
                value = json.loads(want)
            except ValueError:
                value = want
            got = r
            for part in key.split("."):
                got = got.get(part) if isinstance(got, dict) else None
            if isinstance(value, float) or isinstance(got, float):
                same = isinstance(got, NUM) and abs(got - value) <= 1e-6 * max(1.0, abs(value))
            else:
                same = got == value
            if not same:
                fail.append(f"{key}: {got!r}, want {value!r}")
    print(f"{path}: {len(r)} fields, {len(runs)} runs, backend {r.get('sat_backend')!r}")
    for f in fail:
        print("FAIL: " + f)
    if not fail:
        print("OK")
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
