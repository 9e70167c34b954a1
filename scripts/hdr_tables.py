#!/usr/bin/python3
"""results/dof and results/frame: the HDR pipeline's tables from one scripts/gpu/hdr.sh run.

  /usr/bin/python3 scripts/hdr_tables.py DIR [--ldr-before results/dof] [--figures OUT]

DIR holds what hdr.sh returned: highlights.json (+ highlights_sheet.png), hdr_near-blur.json
(+ _sheet.png), ldr_{default,near-blur,focus8}.json, frame_{cuda,gl}_{hdr,ldr}.json. Prints
markdown: every method on the highlights view and the HDR near-blur view (tone-mapped PSNR/SSIM,
highlight energy error, log-luminance PSNR, DoF time), the LDR table re-measured in the same run
against the committed LDR reports in --ldr-before (VIEW.json), and the GPU frame of both pipelines
on both backends. With --figures, writes highlights.jpg and hdr_near-blur.jpg there
(scripts/dof_compare.py's figure). Needs Debian's numpy and matplotlib (/usr/bin/python3).
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dof_compare  # noqa: E402

LDR_VIEWS = ["default", "near-blur", "focus8"]


def load(path):
    with open(path) as f:
        return json.load(f)


def fmt(v, digits):
    return dof_compare.fmt(v, digits)


def pct(v):
    return "n/a" if v is None else f"{100.0 * v:+.2f} %"


def hdr_table(report, title):
    h = report["hdr"]
    lines = [f"### {title}", "",
             f"{report['width']}x{report['height']}, {report['device']} ({report['sat_backend']}); "
             f"focus {report['focus']}, aperture {report['aperture']} px, max radius "
             f"{report['max_radius']} px, {report['reference_samples']} lens samples; tone mapper "
             f"{h['tone_mapper']}, auto exposure {'on' if h['auto_exposure'] else 'off'}, highlight "
             f"intensity {h['highlight']}; tables: {h['fraction_bits']} fraction bits, limit "
             f"{h['limit_radiance']:.1f}, {h['clamped_pixels']} pixels clamped.", "",
             "| method | DoF pass | DoF ms | PSNR dB | SSIM | edge PSNR dB | highlight energy "
             "| log-luminance PSNR dB |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    runs = dof_compare.method_runs(report)
    for r in runs:
        q = r["quality"]
        lines.append(f"| {r['dof']} | {r['dof_pass']} | {r['dof_ms']:.3f} | "
                     f"{fmt(q['psnr_db'], 2)} | {fmt(q['ssim'], 4)} | {fmt(q['edge_psnr_db'], 2)} | "
                     f"{pct(q['highlight_energy_signed'])} | {fmt(q['log_luminance_psnr_db'], 2)} |")
    if runs:
        q = runs[0]["quality"]
        lines += ["", f"Highlight pixels (reference luminance > 1): {q['highlight_pixels']}; "
                  f"exposure {q['exposure_ev']:+.2f} EV; reference {q['reference_ms']:.1f} ms."]
    return "\n".join(lines) + "\n"


def ldr_compare(before_dir, run_dir):
    lines = ["| view | method | PSNR before | PSNR now | change dB | edge PSNR before | now |",
             "|---|---|---:|---:|---:|---:|---:|"]
    worst = None
    for view in LDR_VIEWS:
        before_path = os.path.join(before_dir, view + ".json")
        now_path = os.path.join(run_dir, f"ldr_{view}.json")
        if not (os.path.exists(before_path) and os.path.exists(now_path)):
            continue
        before = {r["dof"]: r["quality"] for r in dof_compare.method_runs(load(before_path))}
        for r in dof_compare.method_runs(load(now_path)):
            b = before.get(r["dof"])
            if not b:
                continue
            q = r["quality"]
            d = q["psnr_db"] - b["psnr_db"]
            worst = d if worst is None else min(worst, d)
            lines.append(f"| {view} | {r['dof']} | {b['psnr_db']:.2f} | {q['psnr_db']:.2f} | "
                         f"{d:+.2f} | {b['edge_psnr_db']:.2f} | {q['edge_psnr_db']:.2f} |")
    lines.append("")
    lines.append("Largest loss: " + ("n/a" if worst is None else f"{-min(worst, 0.0):.2f} dB"))
    return "\n".join(lines) + "\n"


def frame_table(run_dir):
    lines = ["| backend | pipeline | scene | SAT | DoF | tone map | interop | GPU frame | "
             "frame interval |", "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for b in ("cuda", "gl"):
        for p in ("hdr", "ldr"):
            path = os.path.join(run_dir, f"frame_{b}_{p}.json")
            if not os.path.exists(path):
                continue
            r = load(path)["runs"][0]
            lines.append(f"| {b} | {p} | {r['scene_gl_ms']:.3f} | {r['sat_total_ms']:.4f} | "
                         f"{r['dof_ms']:.4f} | {r.get('tonemap_gl_ms', 0):.4f} | "
                         f"{r['interop_ms']:.3f} | **{r['frame_gpu_ms']:.3f}** | "
                         f"{r['frame_interval_ms']:.3f} |")
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("dir")
    p.add_argument("--ldr-before", default="results/dof")
    p.add_argument("--figures", default=None)
    a = p.parse_args()
    out = []
    for name, title in (("highlights", "highlights: focus 12, the wall's bulbs far behind it, "
                         "one in front (HDR)"),
                        ("hdr_near-blur", "near-blur: focus 30, the red teapot in front (HDR)")):
        path = os.path.join(a.dir, name + ".json")
        if not os.path.exists(path):
            continue
        rep = load(path)
        out.append(hdr_table(rep, title))
        sheet = os.path.join(a.dir, name + "_sheet.png")
        if a.figures and os.path.exists(sheet):
            ext = ".jpg" if dof_compare.have_pillow() else ".png"
            dof_compare.figure(os.path.join(a.figures, name + ext), sheet, title, rep)
    out.append("### LDR (paper) views re-measured in the same run\n\n" +
               ldr_compare(a.ldr_before, a.dir))
    out.append("### GPU frame, 1920x1080, fused SAT, medians of 300 frames\n\n" + frame_table(a.dir))
    print("\n".join(out))


if __name__ == "__main__":
    main()
