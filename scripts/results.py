#!/usr/bin/python3
"""The published tables, made from the committed data.

Every Markdown file of the project may hold generated blocks:

    <!-- results:NAME begin -->
    ...made by this script from results/.../*.json...
    <!-- results:NAME end -->

    /usr/bin/python3 scripts/results.py            rewrite every block from the data
    /usr/bin/python3 scripts/results.py --check    exit 1 if a block differs from what the data
                                                   gives, a block has no generator, a data file
                                                   lacks its record (commit, dirty, device, driver,
                                                   date_utc, command) or came from a dirty build,
                                                   or README.md's Results section holds a figure
                                                   outside a block
    /usr/bin/python3 scripts/results.py --print NAME   one block to stdout

The data files come from scripts/gpu/record.sh (one part per GPU-machine call); the programs
write the record themselves (tools/provenance). Debian's python3 only: no numpy, no matplotlib.
"""
import argparse
import difflib
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"(<!-- results:([a-z0-9-]+) begin -->\n)(.*?)(<!-- results:\2 end -->)", re.S)
RECORD_KEYS = ("commit", "dirty", "device", "driver", "date_utc", "command")
GPU = "h200"  # the GPU machine the current figures come from


class DataError(Exception):
    pass


class Data:
    """Loads data files once, checks each one's record, remembers which a block used."""

    def __init__(self):
        self.cache = {}
        self.used = []

    def json(self, rel):
        if rel not in self.cache:
            path = ROOT / rel
            if not path.is_file():
                raise DataError(f"{rel}: no such data file")
            doc = json.loads(path.read_text())
            rec = doc.get("record")
            if not isinstance(rec, dict) or any(k not in rec for k in RECORD_KEYS):
                raise DataError(f"{rel}: no record of {', '.join(RECORD_KEYS)}")
            if not re.fullmatch(r"[0-9a-f]{40}", str(rec["commit"])):
                raise DataError(f"{rel}: record's commit {rec['commit']!r} is not a commit")
            if rec["dirty"] is not False:
                raise DataError(f"{rel}: measured by a build of uncommitted sources")
            self.cache[rel] = doc
        if rel not in self.used:
            self.used.append(rel)
        return self.cache[rel]

    def record(self, rel):
        return self.json(rel)["record"]


# ------------------------------------------------------------------------------- formatting
def ms(x, digits=4):
    return f"{x:.{digits}f}"


def us(x_ms):
    v = x_ms * 1000.0
    return f"{v:.1f}" if v < 100 else f"{v:.0f}"


def ratio(x):
    return f"{x:.2f}x"


def pct(x):
    return f"{x:.0f} %"


def pow2(n):
    lg = n.bit_length() - 1
    return f"2^{lg}" if n == 1 << lg else str(n)


def table(header, rows, align=None):
    align = align or ["---"] + ["---:"] * (len(header) - 1)
    out = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out) + "\n"


def source_line(data, rels):
    """Device, driver, commit, date and command of the files a table came from."""
    lines = []
    for rel in rels:
        r = data.record(rel)
        # As a user would type it: the program by name, not the pack's or the work folder's path.
        cmd = re.sub(r"\S*/(\.gpu-[a-z0-9-]+)(?=[\s/]|$)", r"\1", r["command"])
        cmd = re.sub(r"^\.gpu-[a-z0-9-]+/(rt/run )?", "", cmd)
        cmd = re.sub(r"(?<=\s)/tmp/tmp\.\w+/", "", cmd)
        lines.append(f"`{Path(rel).name}`: {r['device']}, driver {r['driver']}, "
                     f"commit {r['commit'][:7]}, {r['date_utc'][:10]}: `{cmd}`")
    parts = sorted({PART.get(rel.split("/")[1], rel.split("/")[1]) for rel in rels})
    again = ", ".join(f"`scripts/gpu/record.sh {p}`" for p in parts)
    return ("\n" + "".join(f"- {l}\n" for l in lines)
            + f"- Measured again by {again} (results/README.md).\n")


# The record.sh part that writes each results/ folder's data.
PART = {"demo": "soak"}


# ------------------------------------------------------------------------------- scan
SCAN = f"results/scan/scanbench_{GPU}.json"


def scan_rows(data):
    d = data.json(SCAN)
    by = {}
    for r in d["results"]:
        by[(r["type"], r["variant"], r["n"])] = r
    return d, by


def gen_scan(data):
    _, by = scan_rows(data)
    rows = []
    for t in ("int32", "float"):
        for lg in (10, 13, 14, 16, 20, 24, 26, 28):
            n = 1 << lg
            sp, cub, cp = (by.get((t, v, n)) for v in ("single-pass", "cub-direct", "memcpy"))
            if not (sp and cub and cp):
                continue
            rows.append([t, pow2(n), us(sp["median_ms"]), us(cub["median_ms"]), us(cp["median_ms"]),
                         pct(100 * cp["median_ms"] / sp["median_ms"]),
                         ratio(cub["median_ms"] / sp["median_ms"])])
    return (table(["type", "n", "single-pass us", "cub::DeviceScan us", "cudaMemcpy us",
                   "% of copy", "vs CUB"], rows) + source_line(data, [SCAN]))


def gen_scan_variants(data):
    _, by = scan_rows(data)
    rows = []
    n = 1 << 28
    for v in ("naive", "work-efficient", "conflict-free", "optimized", "warp-shuffle",
              "single-pass", "cub-direct"):
        cells = [v if v != "cub-direct" else "cub::DeviceScan"]
        for t in ("int32", "float"):
            r, cp = by.get((t, v, n)), by.get((t, "memcpy", n))
            cells += [ms(r["median_ms"], 3), pct(100 * cp["median_ms"] / r["median_ms"])] if r and cp \
                else ["-", "-"]
        rows.append(cells)
    return (table(["variant (2^28, exclusive sum)", "int32 ms", "int32 % of copy", "float ms",
                   "float % of copy"], rows) + source_line(data, [SCAN]))


def gen_scan_table2(data):
    d = data.json(SCAN)
    t = d["table2"]
    rows = []
    for r in t["rows"]:
        gpu = {k: v for k, v in r["gpu_ms"].items() if k != "memcpy" and v}
        best = min(gpu, key=gpu.get)
        rows.append([f"{r['n']:,}", f"{r['cpu_seq_ms']:.4g}", f"{gpu[best]:.4g}", best,
                     f"{r['cpu_seq_ms'] / gpu[best]:.1f}x",
                     f"{r['paper_cpu_ms'] / r['paper_gpu_ms']:.2f}x"])
    return (table(["n (float, exclusive)", "CPU, one core, ms", "GPU, best variant, ms",
                   "variant", "GPU speed-up", "the paper's (8800 GTX)"], rows,
                  ["---"] + ["---:"] * 2 + ["---"] + ["---:"] * 2)
            + f"\nThe paper's columns: {t['paper_hardware']}.\n" + source_line(data, [SCAN]))


def gen_scan_paper(data):
    _, by = scan_rows(data)

    def t(v, lg):
        return by[("float", v, 1 << lg)]["median_ms"]

    cp28 = t("memcpy", 28)
    rows = [
        ["work-efficient beats naive (fewer adds)",
         f"work-efficient runs at {t('naive', 24) / t('work-efficient', 24):.2f}x naive's speed "
         f"at 2^24 ({ms(t('work-efficient', 24))} against {ms(t('naive', 24))} ms): a tree level "
         "costs a barrier and a shared-memory round trip, not adds"],
        ["padding avoids bank conflicts (Figure 39-8)",
         f"conflict-free {t('work-efficient', 24) / t('conflict-free', 24):.2f}x work-efficient "
         f"at 2^24, {t('work-efficient', 28) / t('conflict-free', 28):.2f}x at 2^28"],
        ["8 items a thread and unrolling: more than twice as fast",
         f"optimized {t('conflict-free', 24) / t('optimized', 24):.2f}x conflict-free at 2^24, "
         f"{t('conflict-free', 28) / t('optimized', 28):.2f}x at 2^28, at "
         f"{pct(100 * cp28 / t('optimized', 28))} of a copy: a three-phase scan moves each "
         "element 4 times against a copy's 2, so 50 % is its bound"],
        ["one pass over the data (decoupled look-back, after the paper)",
         f"single-pass {pct(100 * cp28 / t('single-pass', 28))} of a copy at 2^28, "
         f"{t('cub-direct', 28) / t('single-pass', 28):.2f}x cub::DeviceScan"],
    ]
    return (table(["the paper's claim", "measured (float)"], rows, ["---", "---"])
            + source_line(data, [SCAN]))


# ------------------------------------------------------------------------------- compaction
COMPACT = f"results/compact/compactbench_{GPU}.json"


def gen_compact(data):
    d = data.json(COMPACT)
    by = {(r["type"], r["impl"], r["selectivity"], r["n"]): r for r in d["rows"]}
    rows = []
    for t in ("int32", "float"):
        for sel in (0.01, 0.5, 0.99):
            for lg in (16, 20, 24, 26, 28):
                n = 1 << lg
                sp = by.get((t, "single-pass", sel, n))
                cub = by.get((t, "cub::DeviceSelect::If", sel, n))
                cp = by.get((t, "cudaMemcpy D2D", sel, n)) or by.get((t, "cudaMemcpy D2D", 1.0, n))
                if not (sp and cub):
                    continue
                if sel != 0.5 and lg not in (24, 28):
                    continue
                rows.append([t, f"{sel * 100:.0f} %", pow2(n), ms(sp["median_ms"]),
                             ms(cub["median_ms"]), ms(cp["median_ms"]) if cp else "-",
                             ratio(cub["median_ms"] / sp["median_ms"])])
    return (table(["type", "kept", "n", "single pass ms", "cub::DeviceSelect::If ms",
                   "cudaMemcpy ms", "vs CUB"], rows) + source_line(data, [COMPACT]))


def gen_compact_variants(data):
    d = data.json(COMPACT)
    by = {(r["impl"], r["n"]): r for r in d["rows"] if r["type"] == "int32" and r["selectivity"] == 0.5}
    rows = []
    for impl, name in (("single-pass", "single pass (the default)"),
                       ("reduce-then-scan", "reduce-then-scan (the book section's)"),
                       ("paper/optimized", "the paper's: flags, optimized scan, scatter")):
        cells = [name]
        for lg in (20, 24, 28):
            r, cub = by.get((impl, 1 << lg)), by.get(("cub::DeviceSelect::If", 1 << lg))
            cells += [f"{ms(r['median_ms'])} ({ratio(cub['median_ms'] / r['median_ms'])})"
                      if r and cub else "-"]
        rows.append(cells)
    return (table(["int32, half kept: ms (CUB / it)", "2^20", "2^24", "2^28"], rows)
            + source_line(data, [COMPACT]))


# ------------------------------------------------------------------------------- sort
SORT_U = f"results/sort/sortbench_uniform_{GPU}.json"
SORT_S = f"results/sort/sortbench_skewed_{GPU}.json"


def sort_table(data, rel, dists, sizes, impls=("lsd",)):
    d = data.json(rel)
    rows = []
    for r in sorted(d["rows"], key=lambda r: impls.index(r["impl"]) if r["impl"] in impls else 0):
        if r["impl"] not in impls or r["dist"] not in dists or r["n"] not in sizes:
            continue
        cubs = [c for c in d["rows"] if c["keys"] == r["keys"] and c["dist"] == r["dist"]
                and c["n"] == r["n"] and c["impl"].startswith("cub::")]
        best = min(cubs, key=lambda c: c["median_ms"]) if cubs else None
        lo, hi = r.get("vs_cub_range", [r["vs_cub"], r["vs_cub"]])
        rows.append([r["keys"], "onesweep" if r["impl"] == "lsd" else "split (the chapter's)",
                     r["dist"], pow2(r["n"]), ms(r["median_ms"], 3),
                     f"{ms(best['median_ms'], 3)} ({best['impl'].split('(')[-1].rstrip(')')})"
                     if best else "-", ratio(r["vs_cub"]), f"{lo:.2f}-{hi:.2f}"])
    return table(["keys", "sort", "distribution", "n", "ms", "CUB's faster call, ms",
                  "vs CUB", "by layout"], rows, ["---", "---", "---"] + ["---:"] * 5)


def gen_sort(data):
    return (sort_table(data, SORT_U, ("uniform",), {1 << 20, 1 << 24, 1 << 26, 1 << 28},
                       ("lsd", "split"))
            + source_line(data, [SORT_U]))


def gen_sort_skewed(data):
    return (sort_table(data, SORT_S, ("equal", "few", "sorted"), {1 << 24, 1 << 28})
            + source_line(data, [SORT_S]))


# ------------------------------------------------------------------------------- SAT
SAT = f"results/sat/satbench_{GPU}.json"
GLSAT = f"results/sat/glsatbench_{GPU}.json"


def sat_lookup(data):
    s = data.json(SAT)
    g = data.json(GLSAT)
    # The paper's pipeline has one row per scan variant; the fused methods name none ("-").
    cuda = {(r["width"], r["method"] if r["scan"] in ("-", "work-efficient") else None,
             r["format"], r["pixels"]): r for r in s["results"]}
    floors = {r["width"]: r for r in s["memcpy_floors"]}
    gl = {(r["width"], r["variant"], r["format"], r["pixels"]): r for r in g["results"]}
    return cuda, floors, gl


def gen_sat(data):
    cuda, floors, gl = sat_lookup(data)
    rows = []
    for w, h in ((1920, 1080), (3840, 2160)):
        for pixels in ("rgba8", "rgba16f"):
            planar = cuda.get((w, "fused", "u32", pixels))
            inter = cuda.get((w, "fused interleaved", "u32", pixels))
            paper = cuda.get((w, "paper", "u32", pixels))
            one = gl.get((w, "fused-1pass", "u32", pixels))
            f = floors.get(w, {})
            floor = f.get("memcpy_16B_per_px_ms" if pixels == "rgba8" else "memcpy_20B_per_px_ms")
            if not inter:
                continue
            rows.append([f"{w}x{h}", pixels, ms(paper["total_ms"]) if paper else "-",
                         ms(planar["total_ms"]) if planar else "-", ms(inter["total_ms"]),
                         ms(one["single_median_ms"]) if one else "-",
                         ratio(one["single_median_ms"] / inter["total_ms"]) if one else "-",
                         ms(floor) if floor else "-"])
    return (table(["size", "frame", "CUDA paper pipeline (work-efficient)", "CUDA fused planar",
                   "CUDA fused interleaved", "GL one pass", "GL / CUDA interleaved",
                   "memcpy of the bytes"], rows,
                  ["---", "---"] + ["---:"] * 6)
            + "\nuint32 tables of RGB, ms: CUDA per-call medians, GL single-build medians.\n"
            + source_line(data, [SAT, GLSAT]))


# Table 39-1 of the chapter: the 8800 GTX's whole SAT pipeline (float, RGB), ms.
PAPER_TABLE_39_1 = {512: 1.64, 1024: 3.50}


def gen_sat_table39(data):
    s = data.json(SAT)
    by = {(r["width"], r["method"], r["scan"], r["format"], r["pixels"]): r for r in s["results"]}
    rows = []
    for w, paper_ms in sorted(PAPER_TABLE_39_1.items()):
        cells = [f"{w}x{w}", ms(paper_ms, 2)]
        for method, scan in (("paper", "optimized"), ("paper", "cub"), ("fused", "-")):
            r = by.get((w, method, scan, "f32", "rgba8"))
            cells.append(f"{ms(r['total_ms'])} ({paper_ms / r['total_ms']:.0f}x)" if r else "-")
        rows.append(cells)
    return (table(["size (RGB, float tables)", "8800 GTX (the paper)", "paper pipeline, optimized scan",
                   "paper pipeline, CUB's block scan", "fused"], rows)
            + source_line(data, [SAT]))


# ------------------------------------------------------------------------------- frame
def frame_file(kind, backend, size):
    return f"results/frame/frame_{kind}_{backend}_{size}_{GPU}.json"


def frame_run(data, rel):
    d = data.json(rel)
    return d, d["runs"][0]


def gen_frame(data):
    rows = []
    rels = []
    for kind, size, what in (("default", "1080p", "the default (HDR, paper SAT pipeline, "
                                                   "work-efficient scan, gather/octagon + bokeh)"),
                             ("default", "4k", "the default at 3840x2160"),
                             ("fused", "1080p", "`--method fused`"),
                             ("ldr", "1080p", "`--ldr` (the paper's 8-bit pipeline)"),
                             ("fragment", "1080p", "`--dof-pass fragment` (the paper's DoF shader)")):
        cells = [what]
        for backend in ("cuda", "gl"):
            rel = frame_file(kind, backend, size)
            rels.append(rel)
            _, r = frame_run(data, rel)
            cells += [ms(r["frame_gpu_ms"], 3), ms(r["sat_ms"], 3), ms(r["dof_ms"], 3)]
        rows.append(cells)
    _, cuda = frame_run(data, frame_file("default", "cuda", "1080p"))
    _, gl = frame_run(data, frame_file("default", "gl", "1080p"))
    verdict = "; ".join(
        f"{name} {ms(r['frame_gpu_ms'], 3)} ms against {budget} ms: "
        + ("met" if r["frame_gpu_ms"] <= budget else "missed")
        for name, r, budget in (("CUDA", cuda, FRAME_BUDGET_MS["cuda"]),
                                ("GL", gl, FRAME_BUDGET_MS["gl"])))
    return (table(["configuration", "CUDA frame", "CUDA SAT", "CUDA DoF", "GL frame", "GL SAT",
                   "GL DoF"], rows, ["---"] + ["---:"] * 6)
            + "\nGPU ms from scene start to DoF end, medians of the report's frames (1920x1080 "
              f"unless named). The default's 1080p budgets: {verdict}.\n"
            + source_line(data, rels))


# The 1080p frame budgets the demo is held to (GPU ms, scene start to DoF end).
FRAME_BUDGET_MS = {"cuda": 1.2, "gl": 1.0}


def gen_frame_stages(data):
    keys = (("scene", "scene_gl_ms"), ("GL<->CUDA switch", "interop_ms"), ("SAT", "sat_ms"),
            ("DoF", "dof_ms"), ("tone map", "tonemap_gl_ms"), ("frame GPU", "frame_gpu_ms"),
            ("all GPU work", "frame_gpu_all_ms"), ("frame interval (host)", "frame_interval_ms"))
    runs = {}
    for backend in ("cuda", "gl"):
        for size in ("1080p", "4k"):
            _, runs[(backend, size)] = frame_run(data, frame_file("default", backend, size))
    rows = [[name] + [ms(runs[(b, sz)].get(k, 0.0), 3) for b in ("cuda", "gl") for sz in ("1080p", "4k")]
            for name, k in keys]
    rels = [frame_file("default", b, sz) for b in ("cuda", "gl") for sz in ("1080p", "4k")]
    return (table(["the default, ms", "CUDA 1080p", "CUDA 4K", "GL 1080p", "GL 4K"], rows)
            + source_line(data, rels))


# ------------------------------------------------------------------------------- DoF, soak
DOF_VIEWS = ("near-blur", "highlights", "default", "focus8")


def dof_file(view):
    return f"results/dof/dof_{view}_{GPU}.json"


def gen_dof(data):
    """Every method against the lens reference at the four views, the default configuration."""
    per_view = {}
    order = []
    for view in DOF_VIEWS:
        d = data.json(dof_file(view))
        per_view[view] = {}
        for r in d["runs"]:
            q = r.get("quality")
            if not q or r["dof"] in per_view[view]:
                continue
            per_view[view][r["dof"]] = r
            if r["dof"] not in order:
                order.append(r["dof"])
    paper = {}
    for view in DOF_VIEWS:
        d = data.json(dof_file(view).replace("dof_", "dof_paper_"))
        paper[view] = next(r for r in d["runs"] if r.get("quality"))
    per_view_paper = "the paper's gather/box (offset 0, no bokeh split)"
    for view in DOF_VIEWS:
        per_view[view][per_view_paper] = paper[view]
    order.append(per_view_paper)
    default = data.json(dof_file(DOF_VIEWS[0]))["dof"]
    rows = []
    for method in order:
        cells = [f"**{method}** (the default)" if method == default else method]
        for view in DOF_VIEWS:
            r = per_view[view].get(method)
            cells.append(f"{r['quality']['psnr_db']:.2f} / {r['quality']['edge_psnr_db']:.2f}"
                         if r else "-")
        r = per_view["near-blur"].get(method)
        cells.append(ms(r["dof_ms"], 3) if r else "-")
        e = per_view["highlights"].get(method)
        cells.append(f"{100 * e['quality']['highlight_energy_signed']:+.1f} %"
                     if e and "highlight_energy_signed" in e["quality"] else "-")
        rows.append(cells)
    return (table(["method/shape"] + [f"{v}: dB whole / edge band" for v in DOF_VIEWS]
                  + ["DoF ms (near-blur)", "highlight energy (highlights)"], rows)
            + "\nPSNR of the tone-mapped 1920x1080 frame against a 256-sample lens reference of "
              "the same HDR frame, over the whole frame and the band around depth edges.\n"
            + source_line(data, [dof_file(v) for v in DOF_VIEWS]
                          + [dof_file(v).replace("dof_", "dof_paper_") for v in DOF_VIEWS]))


SOAK = f"results/demo/soak_1080p_{GPU}.json"


def gen_soak(data):
    d = data.json(SOAK)
    so = d["soak"]
    v = so["verdict"]
    rows = [
        ["frames, seconds", f"{so['frames']:,} in {so['seconds']:.0f} s"],
        ["switches (backend, method, variant, DoF, pipeline), resizes", f"{so['switches']}, {so['resizes']}"],
        ["verifies (failed)", f"{so['verifies']} ({so['verify_failures']})"],
        ["lens references, primitive runs, screenshots", f"{so['references']}, {so['primitive_runs']}, {so['screenshots']}"],
        ["memory flat (limit 1 % drift)", "yes" if v["flat"] else "**no**"],
        ["drift: RSS, heap, CUDA device memory", f"{100 * v['rss_drift']:.2f} %, {100 * v['heap_drift']:.2f} %, "
                                                  f"{100 * v['cuda_drift']:.2f} %"],
    ]
    return table(["soak at 1920x1080", "measured"], rows, ["---", "---"]) + source_line(data, [SOAK])


# ------------------------------------------------------------------------------- README
def gen_headline(data):
    _, by = scan_rows(data)
    cuda, floors, gl = sat_lookup(data)
    rows = []

    def scan_row(t, lg):
        n = 1 << lg
        sp, cub, cp = (by[(t, v, n)] for v in ("single-pass", "cub-direct", "memcpy"))
        return sp, cub, cp

    sp, cub, cp = scan_row("int32", 28)
    rows.append([f"single-pass scan, int32, 2^28", f"{ms(sp['median_ms'], 3)} ms, "
                 f"{pct(100 * cp['median_ms'] / sp['median_ms'])} of copy, "
                 f"{ratio(cub['median_ms'] / sp['median_ms'])} CUB", SCAN])
    small = [scan_row("int32", lg) for lg in range(10, 17)]
    lo = min(s["median_ms"] for s, _, _ in small)
    hi = max(s["median_ms"] for s, _, _ in small)
    vs = [c["median_ms"] / s["median_ms"] for s, c, _ in small]
    rows.append(["single-pass scan, int32, 2^10..2^16", f"{us(lo)}-{us(hi)} us, "
                 f"{min(vs):.2f}-{max(vs):.2f}x CUB", SCAN])
    c = data.json(COMPACT)
    cb = {(r["impl"], r["n"]): r for r in c["rows"] if r["type"] == "int32" and r["selectivity"] == 0.5}
    spc, cubc = cb[("single-pass", 1 << 28)], cb[("cub::DeviceSelect::If", 1 << 28)]
    rows.append(["compaction, int32, half kept, 2^28", f"{ms(spc['median_ms'], 3)} ms, "
                 f"{ratio(cubc['median_ms'] / spc['median_ms'])} CUB", COMPACT])
    su = data.json(SORT_U)
    for keys in ("uint32", "pairs"):
        r = next(r for r in su["rows"] if r["impl"] == "lsd" and r["keys"] == keys
                 and r["n"] == 1 << 28)
        rows.append([f"radix sort, {keys}, 2^28, six layouts", f"{ms(r['median_ms'], 2)} ms, "
                     f"{ratio(r['vs_cub'])} CUB", SORT_U])
    inter = cuda[(1920, "fused interleaved", "u32", "rgba8")]
    one = gl[(1920, "fused-1pass", "u32", "rgba8")]
    rows.append(["SAT 1080p RGBA8, CUDA fused / GL one pass", f"{ms(inter['total_ms'])} / "
                 f"{ms(one['single_median_ms'])} ms", SAT])
    for backend, name in (("cuda", "CUDA"), ("gl", "GL")):
        _, r = frame_run(data, frame_file("default", backend, "1080p"))
        rows.append([f"demo frame 1080p, default configuration, {name} backend",
                     f"{ms(r['frame_gpu_ms'], 3)} ms GPU", frame_file("default", backend, "1080p")])
    dof = {r["dof"]: r for r in data.json(dof_file("near-blur"))["runs"] if r.get("quality")}
    paper = next(r for r in data.json(dof_file("near-blur").replace("dof_", "dof_paper_"))["runs"]
                 if r.get("quality"))
    default = dof[data.json(dof_file("near-blur"))["dof"]]
    rows.append(["DoF against a 256-sample lens, 1080p near-blur: default / the paper's gather/box",
                 f"{default['quality']['psnr_db']:.1f} / {paper['quality']['psnr_db']:.1f} dB, "
                 f"{ms(default['dof_ms'], 2)} / {ms(paper['dof_ms'], 2)} ms", dof_file("near-blur")])
    so = data.json(SOAK)["soak"]
    rows.append(["soak, 1080p, every setting switched", f"{so['frames']:,} frames, {so['verifies']} "
                 f"verifies, {so['verify_failures']} failed, memory "
                 f"{'flat' if so['verdict']['flat'] else 'NOT flat'}", SOAK])
    dev = data.record(SCAN)["device"]
    rows = [[w, m, f"[`{Path(f).name}`]({f})"] for w, m, f in rows]
    return (table(["what", f"{dev}", "data"], rows, ["---", "---", "---"]))


GENERATORS = {
    "scan": gen_scan,
    "scan-variants": gen_scan_variants,
    "scan-table2": gen_scan_table2,
    "scan-paper": gen_scan_paper,
    "compact": gen_compact,
    "compact-variants": gen_compact_variants,
    "sort": gen_sort,
    "sort-skewed": gen_sort_skewed,
    "sat": gen_sat,
    "sat-table39": gen_sat_table39,
    "frame": gen_frame,
    "frame-stages": gen_frame_stages,
    "dof": gen_dof,
    "soak": gen_soak,
    "headline": gen_headline,
}


# ------------------------------------------------------------------------------- driver
def markdown_files():
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "*.md"], capture_output=True,
                             text=True, check=True).stdout.split()
        files = [ROOT / f for f in out]
    except (OSError, subprocess.CalledProcessError):
        files = list(ROOT.glob("*.md")) + list(ROOT.glob("app/*.md")) + list(ROOT.glob("results/**/*.md"))
    return sorted(f for f in files if f.is_file() and "third_party" not in f.parts)


def render(text, data, errors, rel):
    def sub(m):
        name = m.group(2)
        gen = GENERATORS.get(name)
        if gen is None:
            errors.append(f"{rel}: block '{name}' has no generator")
            return m.group(0)
        try:
            body = gen(data)
        except (DataError, KeyError, StopIteration, TypeError, ValueError) as e:
            errors.append(f"{rel}: block '{name}': {type(e).__name__}: {e}")
            return m.group(0)
        return m.group(1) + body + m.group(4)

    return BLOCK.sub(sub, text)


def figures_outside_blocks(text):
    """Lines of README.md's Results section with a figure (a decimal number) outside a block."""
    sec = re.search(r"^## Results.*?(?=^## |\Z)", text, re.S | re.M)
    if not sec:
        return ["README.md has no '## Results' section"]
    body = BLOCK.sub("", sec.group(0))
    return [l for l in body.splitlines() if re.search(r"\d\.\d", l)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--print", metavar="NAME", dest="print_name")
    a = ap.parse_args()
    data = Data()
    if a.print_name:
        if a.print_name not in GENERATORS:
            sys.exit(f"results.py: no block '{a.print_name}' ({', '.join(GENERATORS)})")
        print(GENERATORS[a.print_name](data), end="")
        return 0
    errors, changed = [], []
    for path in markdown_files():
        rel = str(path.relative_to(ROOT))
        text = path.read_text()
        new = render(text, data, errors, rel)
        if rel == "README.md":
            errors += [f"README.md: a figure outside a generated block: {l.strip()[:100]}"
                       for l in figures_outside_blocks(new)]
        if new != text:
            changed.append(rel)
            if a.check:
                sys.stdout.writelines(difflib.unified_diff(
                    text.splitlines(True), new.splitlines(True), f"{rel} (committed)",
                    f"{rel} (from the data)", n=1))
            else:
                path.write_text(new)
    for e in errors:
        print(f"results.py: {e}", file=sys.stderr)
    if a.check:
        for rel in changed:
            print(f"results.py: {rel}: a table differs from what its data gives "
                  f"(run /usr/bin/python3 scripts/results.py)", file=sys.stderr)
        if not errors and not changed:
            print(f"results.py: every table matches its data ({len(data.used)} data files)")
        return 1 if errors or changed else 0
    for rel in changed:
        print(f"wrote {rel}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
