#!/usr/bin/python3
"""Every depth-of-field method against the lens reference at three fixed views, run locally.

The published DoF table is made by scripts/results.py from `scripts/gpu/record.sh dof`; this
script is for looking at the images of any machine (its tables are not the record).

For each view (--view-preset default | near-blur | focus8: the default camera and a still scene,
the start focus, 30 with the red teapot blurred in front, and 8) runs

  scandof --headless --size WxH --frames F --view-preset VIEW --all-methods --reference N \
          --report OUT/VIEW/report.json --method-images OUT/VIEW/images [EXTRA...]

then makes OUT/VIEW.jpg (sharp frame, reference, then each method beside its error map) and
OUT/methods.md (one table per view: PSNR, SSIM over the whole frame and the edge band, DoF time per
method, device named). --no-run re-makes the figures and tables from existing reports: OUT/VIEW/
(report.json, images/) or OUT/VIEW.json + OUT/VIEW_sheet.png (a report and a --method-sheet of the same run).

  /usr/bin/python3 scripts/dof_compare.py --binary build/release/app/scandof \
      --size 1920x1080 --samples 256 --out build/dof_compare
  /usr/bin/python3 scripts/dof_compare.py --binary build/nocuda/app/scandof \
      --size 480x270 --samples 64 --frames 3 --out build/dof_cpu   # CPU fallback, small

Needs Debian's matplotlib and numpy (/usr/bin/python3).
"""
import argparse
import json
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.image as mpimg  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

VIEWS = [
    ("default", "default view: the start focus"),
    ("near-blur", "focus 30: the red teapot blurred in front"),
    ("focus8", "focus 8"),
]


def run_view(args, view, out):
    os.makedirs(os.path.join(out, "images"), exist_ok=True)
    cmd = [args.binary, "--headless", "--size", args.size, "--frames", str(args.frames),
           "--view-preset", view, "--all-methods", "--reference", str(args.samples),
           # the committed tables' shapes: the paper's (the demo's default offset is 0.5;
           # pass --dof-radius-offset 0.5 after the options to override)
           "--dof-radius-offset", "0",
           "--report", os.path.join(out, "report.json"),
           "--method-images", os.path.join(out, "images")] + args.extra
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)


def fmt(v, digits):
    if v is None:
        return "n/a"
    return "inf" if v >= 999 else f"{v:.{digits}f}"


def method_runs(report):
    # --all-methods runs first; the chosen configuration's run repeats one of them at the end.
    seen, runs = set(), []
    for r in report["runs"]:
        if "quality" in r and r["dof"] not in seen:
            seen.add(r["dof"])
            runs.append(r)
    return runs


def sheet_tiles(path, report, count):
    """The tiles of a --method-sheet PNG: two per row, each the frame reduced by the app's factor."""
    sheet = mpimg.imread(path)
    k = -(-report["width"] // 480)  # ceil, as scandof's kSheetTileW
    tw, th = report["width"] // k, report["height"] // k
    return [sheet[(i // 2) * th:(i // 2 + 1) * th, (i % 2) * tw:(i % 2 + 1) * tw]
            for i in range(count)]


def figure(out_png, images, title, report):
    """images: a folder of --method-images PNGs, or a --method-sheet PNG."""
    runs = method_runs(report)
    if os.path.isdir(images):
        def img(name):
            return mpimg.imread(os.path.join(images, name))
        pics = [img("sharp.png"), img("reference.png")]
        for r in runs:
            base = r["dof"].replace("/", "_")
            pics += [img(base + ".png"), img(base + "_error.png")]
    else:
        pics = sheet_tiles(images, report, 2 + 2 * len(runs))
    tiles = [("sharp frame", pics[0]),
             (f"lens reference ({report['reference_samples']} samples)", pics[1])]
    for i, r in enumerate(runs):
        q = r["quality"]
        tiles.append((f"{r['dof']}  ({r['dof_pass']}, {r['dof_ms']:.3f} ms)", pics[2 + 2 * i]))
        tiles.append((f"error: PSNR {fmt(q['psnr_db'], 2)} dB, SSIM {fmt(q['ssim'], 3)}; edge "
                      f"{fmt(q['edge_psnr_db'], 2)} dB, {fmt(q['edge_ssim'], 3)}",
                      pics[3 + 2 * i]))
    cols = 2
    rows = (len(tiles) + cols - 1) // cols
    h, w = tiles[0][1].shape[:2]
    tile_w = 4.8
    fig, axes = plt.subplots(rows, cols, figsize=(tile_w * cols, rows * (tile_w * h / w + 0.35)))
    for ax in axes.flat:
        ax.axis("off")
    for ax, (label, im) in zip(axes.flat, tiles):
        ax.imshow(im, interpolation="lanczos" if w > 800 else "nearest")
        ax.set_title(label, fontsize=9)
    fig.suptitle(f"{title} — {report['width']}x{report['height']}, {report['device']}\nerror maps: "
                 f"0 .. 0.1 RMS per pixel (legend bar bottom left)", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.98))
    fig.savefig(out_png, dpi=100, **({"pil_kwargs": {"quality": 90}} if out_png.endswith(".jpg")
                                      else {}))
    plt.close(fig)


def table(report, title):
    lines = [f"### {title}", "",
             f"{report['width']}x{report['height']}, device: {report['device']} "
             f"({report['sat_backend']}); focus {report['focus']}, aperture {report['aperture']} px, "
             f"max radius {report['max_radius']} px, {report['reference_samples']} lens samples, "
             f"reference {'clamped at max radius' if report['reference_clamped'] else 'unclamped'}"
             f", layers K = {report['layers']}, disc k = {report['disc_boxes']}.", "",
             "| method | DoF pass | DoF ms | PSNR dB | SSIM | edge PSNR dB | edge SSIM |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for r in method_runs(report):
        q = r["quality"]
        lines.append(f"| {r['dof']} | {r['dof_pass']} | {r['dof_ms']:.3f} | "
                     f"{fmt(q['psnr_db'], 2)} | {fmt(q['ssim'], 4)} | "
                     f"{fmt(q['edge_psnr_db'], 2)} | {fmt(q['edge_ssim'], 4)} |")
    runs = method_runs(report)
    if runs and "reference_ms" in runs[0]["quality"]:
        q0 = runs[0]["quality"]
        gl = (f", of which GL {q0['reference_render_ms']:.1f} ms"
              if "reference_render_ms" in q0 else "")
        lines += ["", f"Reference: {q0['reference_ms']:.1f} ms (render + read back, "
                  f"host wall time{gl}), lens radius {runs[0]['quality']['lens_radius']:.4g} m; edge "
                  f"band {runs[0]['quality']['edge_pixels']} pixels (radius "
                  f"{runs[0]['quality']['edge_radius_px']:.1f} px)."]
    return "\n".join(lines) + "\n"


def have_pillow():
    try:
        import PIL  # noqa: F401
        return True
    except ImportError:
        return False


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--binary", default="build/release/app/scandof")
    p.add_argument("--size", default="1920x1080")
    p.add_argument("--samples", type=int, default=256)
    p.add_argument("--frames", type=int, default=30)
    p.add_argument("--out", default="build/dof_compare")
    p.add_argument("--no-run", action="store_true", help="only re-make figures and tables")
    p.add_argument("extra", nargs="*", help="more scandof flags (after --)")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    md = ["# Depth of field against a lens reference", "",
          "Made by `scripts/dof_compare.py` (command line in its docstring). Every method x shape "
          "of `scandof --all-methods`, scored against the accumulation-buffer lens reference. ",
          ""]
    for view, title in VIEWS:
        d = os.path.join(args.out, view)
        if not args.no_run:
            run_view(args, view, d)
        # A local run: VIEW/report.json + VIEW/images/; a sheet run: VIEW.json +
        # VIEW_sheet.png (a GPU machine returns few files).
        if os.path.exists(os.path.join(d, "report.json")):
            report_path, images = os.path.join(d, "report.json"), os.path.join(d, "images")
        else:
            report_path = os.path.join(args.out, view + ".json")
            images = os.path.join(args.out, view + "_sheet.png")
        with open(report_path) as f:
            report = json.load(f)
        # JPEG (noisy textures make PNG figures ~4 MB each); PNG where Pillow is missing.
        ext = ".jpg" if have_pillow() else ".png"
        figure(os.path.join(args.out, view + ext), images, title, report)
        md += [table(report, f"{view}: {title}"), f"![{view}]({view}{ext})", ""]
        if view == VIEWS[0][0]:
            md.insert(4, report["quality_note"] + ".\n")
    with open(os.path.join(args.out, "methods.md"), "w") as f:
        f.write("\n".join(md))
    print(f"written: {args.out}/methods.md and one figure per view", file=sys.stderr)


if __name__ == "__main__":
    main()
