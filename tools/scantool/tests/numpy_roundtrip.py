#!/usr/bin/env python3
"""Cross-checks scantool against numpy: files numpy writes (all dtypes, format versions 1.0, 2.0
and 3.0) go through `scantool scan`, and numpy reads the results back and compares them with its
own cumsum / minimum.accumulate / maximum.accumulate. Integers must match exactly; floats exactly
on the CPU path (both add sequentially) and within a rounding bound on the GPU. Also checks that
numpy reads `scantool gen` output and that files scantool cannot take are refused with a message.

usage: numpy_roundtrip.py SCANTOOL WORKDIR [--quick]
"""
import os
import shutil
import subprocess
import sys

import numpy as np

# The scan oracle of the CLI tests (tests/scantool_oracle.py): one numpy reference for both.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "tests"))
from scantool_oracle import scan_reference as reference  # noqa: E402

TOOL = sys.argv[1]
WORK = sys.argv[2]
QUICK = "--quick" in sys.argv
failures = []


def run(*args):
    p = subprocess.run([TOOL, *args], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def save(path, a, version):
    with open(path, "wb") as f:
        np.lib.format.write_array(f, a, version=version)


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    rng = np.random.default_rng(20071)
    sizes = [1, 7, 1000, 65537] if QUICK else [1, 2, 31, 1000, 4097, 65537, 1 << 20 | 3]
    dtypes = ["<i4", "<u4", "<i8", "<f4", "<f8"]
    versions = [(1, 0), (2, 0), (3, 0)]
    used_gpu = False
    case = 0
    for dt in dtypes:
        dt = np.dtype(dt)
        for n in sizes:
            if dt.kind == "f":
                a = rng.uniform(-1, 1, n).astype(dt)
            elif dt.kind == "u":
                a = rng.integers(1, 2**32 - 1, n, dtype=np.uint64).astype(dt)
            else:
                # Full range: sums overflow and must wrap exactly as numpy's do.
                info = np.iinfo(dt)
                a = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
            version = versions[case % 3]
            case += 1
            src = os.path.join(WORK, f"in_{dt.str[1:]}_{n}.npy")
            save(src, a, version)
            for op in ["sum", "min", "max"]:
                for inclusive in [False, True]:
                    for cpu in [False, True]:
                        dst = os.path.join(WORK, "out.npy")
                        args = ["scan", "--op", op, "--inclusive" if inclusive else "--exclusive"]
                        if cpu:
                            args.append("--cpu")
                        rc, msg = run(*args, src, dst)
                        label = f"{dt} n={n} v{version[0]} {op} {'inc' if inclusive else 'exc'}" + (
                            " --cpu" if cpu else "")
                        check(rc == 0, f"{label}: exit {rc}: {msg}")
                        if rc:
                            continue
                        on_cpu = cpu or "computed on the CPU" in msg
                        used_gpu |= not on_cpu
                        b = np.load(dst)
                        check(b.dtype == dt and b.shape == a.shape,
                              f"{label}: got {b.dtype} {b.shape}")
                        ref = reference(a, op, inclusive)
                        if dt.kind != "f" or op != "sum" or on_cpu:
                            ok = np.array_equal(b, ref)
                        else:
                            # GPU float sums add in another order than numpy's sequential
                            # cumsum: compare with a float64 sum instead, within a few ulps of
                            # the running sum of magnitudes per tree level.
                            ref64 = reference(a.astype(np.float64), op, inclusive)
                            mag = reference(np.abs(a.astype(np.float64)), op, inclusive)
                            eps = np.finfo(dt).eps
                            tol = (4 * np.log2(max(n, 2)) + 8) * eps * mag + np.finfo(dt).tiny
                            ok = bool(np.all(np.abs(b.astype(np.float64) - ref64) <= tol))
                        if not ok:
                            bad = np.nonzero(b != ref)[0]
                            check(False, f"{label}: {len(bad)} wrong, first at {bad[:5]}: "
                                         f"{b[bad[:5]]} vs {ref[bad[:5]]}")
    print("GPU path exercised" if used_gpu else "CPU path only (no CUDA device)")

    # gen output reads back in numpy with the asked dtype and shape.
    for name, shape in [("int32", "1001"), ("uint32", "17"), ("int64", "5"), ("float32", "2^10"),
                        ("float64", "3"), ("uint8", "4x6")]:
        dst = os.path.join(WORK, f"gen_{name}.npy")
        rc, msg = run("gen", "--dtype", name, "--shape", shape, "--seed", "9", dst)
        check(rc == 0, f"gen {name}: {msg}")
        g = np.load(dst)
        want = tuple(int(eval(s.replace("^", "**"))) for s in shape.split("x"))
        check(g.dtype == np.dtype(name) and g.shape == want, f"gen {name}: {g.dtype} {g.shape}")
    g = np.load(os.path.join(WORK, "gen_float32.npy"))
    check(bool(np.all((g >= 0) & (g < 1))), "gen float32 uniform outside [0, 1)")

    # Files scantool must refuse, each with a message naming the problem.
    bad = {
        "big_endian.npy": (np.arange(5, dtype=">i4"), "big-endian"),
        "int16.npy": (np.arange(5, dtype="<i2"), "'<i2' \\(int16\\)"),
        "complex.npy": (np.arange(5, dtype="<c8"), "complex64"),
        "fortran.npy": (np.asfortranarray(np.ones((3, 4), dtype="<f4")), "Fortran"),
        "two_d.npy": (np.ones((3, 4), dtype="<i4"), "1-D"),
    }
    import re
    for fname, (arr, pattern) in bad.items():
        path = os.path.join(WORK, fname)
        np.save(path, arr)
        rc, msg = run("scan", path, os.path.join(WORK, "never.npy"))
        check(rc == 1 and re.search(pattern, msg) is not None,
              f"{fname}: expected exit 1 and /{pattern}/, got {rc}: {msg}")
        check("terminate called" not in msg, f"{fname}: crashed")
    np.savez(os.path.join(WORK, "archive.npz"), a=np.ones(3))
    rc, msg = run("scan", os.path.join(WORK, "archive.npz"), os.path.join(WORK, "never.npy"))
    check(rc == 1 and "not a .npy file" in msg, f"npz: {rc}: {msg}")

    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("all numpy cross-checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
