#!/usr/bin/env python3
"""Compiles every GL SAT shader variant with glslangValidator (OpenGL GLSL, no driver needed).

Also fails where the one pass's look-back could again end a wait without its flag
(cut_short_reachable). Covers what Mesa llvmpipe cannot run: the GL_KHR_shader_subgroup variants (HAVE_SUBGROUP,
FUSED_SUBGROUP) that NVIDIA/AMD drivers take. Composes each source as the shader loader does
(glsat/src/util.cpp: the #version line, the defines, shared.h, the file with its #include lines
expanded; the shaders enable the subgroup extensions themselves).

  check_glsat_shaders.py SHADER_DIR [GLSLANG_VALIDATOR]
"""
import itertools
import subprocess
import sys
import tempfile


def compose(d, main, common, defines):
    """The source as glsat/src/util.cpp's loader builds it: #version, the defines, shared.h, then the
    file with each `#include "x"` line replaced by that file (the shaders include `common`)."""
    version, body = open(f"{d}/{main}").read().split("\n", 1)
    out = version + "\n" + "".join(f"#define {x}\n" for x in defines)
    out += open(f"{d}/shared.h").read() + "\n"
    for line in body.split("\n"):
        if line.lstrip().startswith('#include "'):
            out += open(f"{d}/{line.split(chr(34))[1]}").read() + "\n"
        else:
            out += line + "\n"
    return out


def cut_short_reachable(d):
    """The one pass's look-back must have no wait that can end without its flag and go on as if
    it had come (what llvmpipe's loop cap once did to an unbounded poll): every poll is bounded by
    the invocation's budget, and every call of poll_flag that sees nothing has the tile computed
    (help_late). Returns what is wrong, one line each."""
    src = open(f"{d}/sat_fused_single.comp").read()
    builder = open(f"{d}/../src/sat_builder.cpp").read()
    bad = [f"{name} is back" for name in ("SOFTWARE_WAIT", "wait_flag", "waits_cut_short")
           if name in src or name in builder]
    if "min(u_polls, g_polls_left)" not in src or "SAT_LOOKBACK_POLL_BUDGET" not in src:
        bad.append("poll_flag is no longer bounded by the invocation's poll budget")
    lines = src.split("\n")
    calls = [i for i, line in enumerate(lines)
             if "poll_flag(" in line and not line.lstrip().startswith(("uint poll_flag", "//"))]
    if not calls:
        bad.append("no call of poll_flag found")
    for i in calls:
        if not any("help_late(" in line and "st == 0u" in line for line in lines[i:i + 20]):
            bad.append(f"sat_fused_single.comp:{i + 1}: a poll whose timeout does not ask for help")
    return bad


def main():
    d = sys.argv[1]
    cut = cut_short_reachable(d)
    for line in cut:
        print(f"FAILED the one pass's look-back: {line}")
    tool = sys.argv[2] if len(sys.argv) > 2 else "glslangValidator"
    jobs = []
    scans = [["SCAN_NAIVE"], ["SCAN_BLELLOCH"], ["SCAN_CONFLICT_FREE"], ["SCAN_SUBGROUP"],
             ["SCAN_SUBGROUP", "HAVE_SUBGROUP"]]
    fmts = [[], ["SAT_F32"]]
    pixels = [[], ["PIXELS_RGBA8"], ["PIXELS_GATHER"]]
    for fmt, px, scan, lines, p in itertools.product(fmts, pixels, scans,
                                                     ["LINES_ROWS", "LINES_COLUMNS"],
                                                     ["PASS_BLOCKS", "PASS_SUMS", "PASS_ADD"]):
        jobs.append(("sat_lines.comp", "sat_block_scan.glsl", fmt + px + scan + [lines, p]))
    for fmt, px, sg in itertools.product(fmts, pixels, [[], ["FUSED_SUBGROUP"]]):
        for comp in ("sat_fused_reduce.comp", "sat_fused_scan.comp", "sat_fused_single.comp"):
            jobs.append((comp, "sat_fused_common.glsl", fmt + px + sg))
    # RGBA16F pixels (sat_hdr.glsl): the paper's row pass from the pixels in both formats, the
    # fused path into uint32 tables (float tables of RGBA16F take the paper's pipeline).
    for fmt, scan in itertools.product(fmts, scans):
        jobs.append(("sat_lines.comp", "sat_block_scan.glsl",
                     fmt + scan + ["PIXELS_RGBA16F", "LINES_ROWS", "PASS_BLOCKS"]))
    # Float radiance through the subgroup scan: exclusive team scans, no subtraction.
    for px, scan, lines, p in itertools.product([[], ["PIXELS_RGBA16F"]], scans[3:],
                                                ["LINES_ROWS", "LINES_COLUMNS"],
                                                ["PASS_BLOCKS", "PASS_SUMS", "PASS_ADD"]):
        if px and (lines, p) != ("LINES_ROWS", "PASS_BLOCKS"):
            continue
        jobs.append(("sat_lines.comp", "sat_block_scan.glsl",
                     ["SAT_F32"] + px + scan + ["SCAN_NO_SUBTRACT", lines, p]))
    # Raw halves through the rgba16f image (mutable textures) or by gathers from an rg32ui view.
    for px, sg in itertools.product([["PIXELS_RGBA16F"], ["PIXELS_RGBA16F", "PIXELS_GATHER"]],
                                    [[], ["FUSED_SUBGROUP"]]):
        for comp in ("sat_fused_reduce.comp", "sat_fused_scan.comp", "sat_fused_single.comp"):
            jobs.append((comp, "sat_fused_common.glsl", px + sg))
    jobs.append(("sat_fused_aux.comp", "", []))
    # glsatbench's copy floor: image loads only (packed r32ui or rgba8), one format.
    for px, sg in itertools.product(pixels[:2], [[], ["FUSED_SUBGROUP"]]):
        jobs.append(("sat_floor.comp", "sat_fused_common.glsl", px + sg))
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for m, c, defines in jobs:
            path = f"{tmp}/x.comp"
            with open(path, "w") as f:
                f.write(compose(d, m, c, defines))
            r = subprocess.run([tool, path], capture_output=True, text=True)
            if r.returncode:
                bad += 1
                print(f"FAILED {m} {' '.join(defines)}\n{r.stdout}{r.stderr}")
    print(f"{len(jobs)} shader variants compiled, {bad} failed")
    print("the one pass's look-back: " + ("a wait can be cut short" if cut else
                                          "every poll bounded, every timeout falls back"))
    return 1 if bad or cut else 0


if __name__ == "__main__":
    sys.exit(main())
