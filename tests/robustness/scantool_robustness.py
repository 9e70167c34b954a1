#!/usr/bin/python3
"""Robustness suite for scantool: drives the CLI as a hostile user would.

    scantool_robustness.py SCANTOOL WORKDIR [-k SUBSTRING] [-v]

Every case asserts the exit status (0 ok, 1 failed run, 2 wrong arguments), a message that names
the problem, no crash (signal, abort, escaped exception), and that no existing file was damaged:
the inputs and a pre-existing output are hashed before and after, and no temporary file is left
behind. Results that have a numpy answer (thresholds, NaN scans, generated ranges, sorts and
partitions of awkward values through tests/scantool_oracle.py) are checked against numpy. Needs /usr/bin/python3 with numpy; no GPU (the CLI falls back to the CPU; on a GPU
machine the default path runs on the GPU and must agree all the same).
"""
import argparse
import glob
import hashlib
import math
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import time

import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument("tool")
ap.add_argument("workdir")
ap.add_argument("-k", default="", help="run only cases whose name contains this")
ap.add_argument("-v", action="store_true")
args = ap.parse_args()

TOOL = os.path.abspath(args.tool)
W = os.path.abspath(args.workdir)
shutil.rmtree(W, ignore_errors=True)
os.makedirs(W)
os.chdir(W)

CRASH = re.compile(r"terminate called|Segmentation|Aborted|core dumped|what\(\)|AddressSanitizer")
failures = []
count = 0


def digest(path):
    if not os.path.lexists(path):
        return None
    if os.path.isdir(path):
        return "dir"
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def run(argv, stdin=None):
    p = subprocess.run([TOOL] + argv, input=stdin, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    out = p.stdout.decode(errors="replace")
    return p.returncode, out + p.stderr.decode(errors="replace"), out


def case(name, argv, rc, pattern=None, protect=(), stdin=None, check=None):
    """Runs scantool argv; asserts rc, the message regex, no crash, protected files unchanged."""
    global count
    if args.k and args.k not in name:
        return None
    count += 1
    before = {p: digest(p) for p in protect}
    code, out, stdout = run(argv, stdin)
    problems = []
    if code < 0:
        problems.append("killed by signal %d" % -code)
    if CRASH.search(out):
        problems.append("crashed or leaked an exception")
    if rc is not None and code != rc:
        problems.append("exit status %d, expected %d" % (code, rc))
    if pattern and not re.search(pattern, out, re.S):
        problems.append("message does not match /%s/" % pattern)
    for p, d in before.items():
        if digest(p) != d:
            problems.append("%s was changed" % p)
    leftovers = glob.glob(os.path.join(W, "**", ".*.tmp-*"), recursive=True)
    if leftovers:
        problems.append("temporary files left: %s" % leftovers)
        for f in leftovers:
            os.unlink(f)
    if check and not problems:
        try:
            msg = check(stdout)
            if msg:
                problems.append(msg)
        except Exception as e:  # a check that cannot even load the output is a failure
            problems.append("check raised %r" % e)
    if problems:
        failures.append(name)
        print("FAIL %s: scantool %s\n  %s\n  output: %s" %
              (name, " ".join(argv), "; ".join(problems), out.strip()[:600]))
    elif args.v:
        print("ok   %s" % name)
    return code, out


def sentinel(path, text=b"precious, must survive\n"):
    with open(path, "wb") as f:
        f.write(text)
    return path


# --- inputs -----------------------------------------------------------------------------------
rng = np.random.default_rng(5)
np.save("valid.npy", np.arange(10, dtype=np.int32) - 3)
np.save("valid_f32.npy", rng.standard_normal(1000).astype(np.float32))
np.save("valid_u32.npy", rng.integers(0, 2**32, 1000, dtype=np.uint32))
np.save("flags.npy", (np.arange(10) % 3 == 0).astype(np.uint8))
np.save("vals.npy", np.arange(10, dtype=np.uint32))
VALID = open("valid.npy", "rb").read()
HEADER_LEN = 10 + int.from_bytes(VALID[8:10], "little")

# --- files: every truncation point of a valid .npy ---------------------------------------------
for cut in range(len(VALID)):
    with open("trunc.npy", "wb") as f:
        f.write(VALID[:cut])
    sentinel("out.npy")
    case("truncated_at_%d" % cut, ["scan", "trunc.npy", "out.npy"], 1,
         r"trunc\.npy: (not a \.npy file|truncated)", protect=["trunc.npy", "out.npy"])
# The same through a pipe (no size known up front) at a few points.
for cut in (0, 5, 9, 40, HEADER_LEN, HEADER_LEN + 3, len(VALID) - 1):
    sentinel("out.npy")
    case("truncated_pipe_at_%d" % cut, ["scan", "/dev/stdin", "out.npy"], 1,
         r"/dev/stdin: (not a \.npy file|truncated)", protect=["out.npy"], stdin=VALID[:cut])

# A 150-byte stream whose header claims 6 GiB: refused quickly, without committing the claim.
claim = np.lib.format.header_data_from_array_1_0(np.zeros(1, np.float64))
claim["shape"] = (805306368,)
import io
buf = io.BytesIO()
np.lib.format.write_array_header_1_0(buf, claim)
huge = buf.getvalue() + b"\x01" * (150 - len(buf.getvalue()))
with open("huge_claim.npy", "wb") as f:
    f.write(huge)
t0 = time.time()
rss0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
case("huge_claim_pipe", ["scan", "/dev/stdin", "out.npy"], 1, r"truncated.*6442450944",
     protect=["out.npy"], stdin=huge)
case("huge_claim_file", ["scan", "huge_claim.npy", "out.npy"], 1, r"huge_claim\.npy: truncated",
     protect=["out.npy"])
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB, the largest child so far
if time.time() - t0 > 10 or rss > 256 * 1024:
    failures.append("huge_claim_cost")
    print("FAIL huge_claim_cost: %.1f s, max RSS %d MiB" % (time.time() - t0, rss // 1024))

# Random bytes after a valid header: shorter than the data (truncated), longer (trailing bytes),
# exactly as long (a valid file of random values).
random.seed(7)
for n in (0, 1, 39, 40, 41, 1000):
    with open("rand_tail.npy", "wb") as f:
        f.write(VALID[:HEADER_LEN] + bytes(random.getrandbits(8) for _ in range(n)))
    sentinel("out.npy")
    if n == 40:
        case("random_data_%d" % n, ["scan", "rand_tail.npy", "out.npy"], 0,
             protect=["rand_tail.npy"])
    else:
        case("random_data_%d" % n, ["scan", "rand_tail.npy", "out.npy"], 1,
             r"rand_tail\.npy: (truncated|\d+ unexpected bytes after the data)",
             protect=["rand_tail.npy", "out.npy"])
# Random bytes where the header should be (magic kept).
for n in (5, 50, 118):
    junk = bytes(random.getrandbits(8) for _ in range(n))
    with open("rand_head.npy", "wb") as f:
        f.write(VALID[:10] + junk + VALID[10 + n:])
    sentinel("out.npy")
    case("random_header_%d" % n, ["scan", "rand_head.npy", "out.npy"], 1,
         r"rand_head\.npy: .*(header does not parse|unsupported|truncated|not supported|"
         r"unexpected bytes)", protect=["rand_head.npy", "out.npy"])
with open("notnpy.npy", "wb") as f:
    f.write(b"hello world, not an array\n")
case("not_npy", ["scan", "notnpy.npy", "out.npy"], 1, r"notnpy\.npy: not a \.npy file")
case("empty_file", ["scan", "/dev/null", "out.npy"], 1, r"/dev/null: not a \.npy file \(it is empty\)")
case("missing_input", ["scan", "nope.npy", "out.npy"], 1, r"nope\.npy: cannot open.*No such file")
case("input_is_directory", ["scan", W, "out.npy"], 1, r"cannot read: it is a directory")

# Each unsupported dtype, for every subcommand that reads arrays.
unsupported = {
    "int8": np.arange(4, dtype=np.int8), "int16": np.arange(4, dtype=np.int16),
    "uint16": np.arange(4, dtype=np.uint16), "uint64": np.arange(4, dtype=np.uint64),
    "float16": np.arange(4, dtype=np.float16), "complex64": np.arange(4, dtype=np.complex64),
    "complex128": np.arange(4, dtype=np.complex128), "bool": np.ones(4, dtype=bool),
    "bigendian": np.arange(4, dtype=">i4"), "unicode": np.array(["ab", "c"]),
    "bytes": np.array([b"ab", b"c"]), "datetime": np.arange(4).astype("datetime64[D]"),
    "structured": np.zeros(4, dtype=[("a", "<i4"), ("b", "<f8")]),
    "object": np.array([1, "x", None], dtype=object),
    "fortran": np.asfortranarray(np.arange(6, dtype=np.int32).reshape(2, 3)),
}
for name, arr in unsupported.items():
    np.save("bad_%s.npy" % name, arr, allow_pickle=True)
    pattern = r"bad_%s\.npy: .*(unsupported dtype|big-endian|structured dtype|Fortran-order)" % name
    for sub in (["scan"], ["compact", "--keep", "nonzero"], ["sort"]):
        sentinel("out.npy")
        case("dtype_%s_%s" % (name, sub[0]), sub + ["bad_%s.npy" % name, "out.npy"], 1, pattern,
             protect=["bad_%s.npy" % name, "out.npy"])
    case("dtype_%s_compare" % name, ["compare", "bad_%s.npy" % name, "valid.npy"], 1, pattern)
# Supported by the reader, not by the command.
np.save("u8.npy", np.arange(4, dtype=np.uint8))
np.save("f64.npy", np.arange(4, dtype=np.float64))
np.save("i64.npy", np.arange(4, dtype=np.int64))
np.save("img.npy", np.zeros((3, 5), np.int32))
case("scan_uint8", ["scan", "u8.npy", "out.npy"], 1, r"u8\.npy: dtype uint8 .*cannot be scanned")
case("compact_uint8", ["compact", "--keep", ">0", "u8.npy", "out.npy"], 1, r"u8\.npy: unsupported dtype for compact")
case("sort_float64", ["sort", "f64.npy", "out.npy"], 1, r"f64\.npy: sort supports uint32, int32, float32 keys, not float64")
case("sort_int64", ["sort", "i64.npy", "out.npy"], 1, r"i64\.npy: sort supports .* not int64")
case("scan_2d", ["scan", "img.npy", "out.npy"], 1, r"img\.npy: scan needs a 1-D array.*\(3, 5\)")
case("compact_2d", ["compact", "--keep", ">0", "img.npy", "out.npy"], 1, r"img\.npy: compact needs a 1-D array")
case("sort_2d", ["sort", "img.npy", "out.npy"], 1, r"img\.npy: sort needs a 1-D array")
# A structured dtype of thousands of fields: the message stays short.
many = np.zeros(1, dtype=[("field_%d" % i, "<i4") for i in range(3000)])
np.save("many_fields.npy", many)
code_out = case("structured_message_short", ["scan", "many_fields.npy", "out.npy"], 1,
                r"structured dtype .*characters\)")
if code_out and len(code_out[1]) > 2000:
    failures.append("structured_message_length")
    print("FAIL structured_message_length: %d characters" % len(code_out[1]))
# Companion arrays of the wrong kind.
np.save("flags_short.npy", np.ones(3, np.uint8))
np.save("flags_i32.npy", np.ones(10, np.int32))
case("flags_wrong_length", ["compact", "--flags", "flags_short.npy", "valid.npy", "out.npy"], 1,
     r"flags_short\.npy: flags must be 1-D uint8 with as many elements as valid\.npy \(10\)")
case("flags_wrong_dtype", ["compact", "--flags", "flags_i32.npy", "valid.npy", "out.npy"], 1,
     r"flags_i32\.npy: flags must be 1-D uint8")
np.save("keys_u32.npy", np.arange(10, dtype=np.uint32)[::-1].copy())
case("values_wrong_dtype", ["sort", "--values", "flags_i32.npy", "--values-out", "vo.npy",
                            "keys_u32.npy", "out.npy"], 1, r"flags_i32\.npy: values must be 1-D uint32")

# --- numbers: each numeric option at its limits, past them, NaN, inf, garbage -----------------
GARBAGE = ["nan", "inf", "-inf", "abc", "", "1e3x", "0x10", " 5", "--"]


def option_cases(tag, before, opt, after, good, bad, pattern):
    for v in good:
        sentinel("out.npy")
        case("%s_ok_%s" % (tag, v), before + [opt, v] + after, 0)
    for v in bad:
        sentinel("out.npy")
        # An empty value: CLI11 takes the next word as the value, so a file name goes missing.
        case("%s_bad_%r" % (tag, v), before + ["%s=%s" % (opt, v)] + after, 2,
             pattern if v else pattern + "|is required", protect=["out.npy"])


np.save("keys.npy", rng.integers(-1000, 1000, 1000, dtype=np.int32))
REPS_BAD = ["0", "-1", "100001", "4294967297", "2^70", "1.5"] + GARBAGE
for sub in (["scan"], ["compact", "--keep", ">0"], ["sort"]):
    option_cases("%s_reps" % sub[0], sub + ["--time"], "--reps", ["keys.npy", "out.npy"],
                 ["1", "100"], REPS_BAD, r"--reps")
option_cases("sort_begin_bit", ["sort"], "--begin-bit", ["keys.npy", "out.npy"], ["0", "16", "32"],
             ["-1", "33", "4294967296", "4294967304", "2^5x"] + GARBAGE, r"--begin-bit")
option_cases("sort_end_bit", ["sort"], "--end-bit", ["keys.npy", "out.npy"], ["32", "8"],
             ["33", "4294967304", "18446744073709551616", "-8"] + GARBAGE, r"--end-bit")
case("sort_end_before_begin", ["sort", "--begin-bit", "9", "--end-bit", "8", "keys.npy", "out.npy"], 2,
     r"--begin-bit 9 exceeds --end-bit 8")
option_cases("gen_n", ["gen"], "--n", ["g.npy"], ["0", "1", "2^10", "1000"],
             ["-1", "1.5", "2^64", "18446744073709551616", "1e3"] + GARBAGE, r"--n")
option_cases("gen_seed", ["gen"], "--seed", ["g.npy"], ["0", "18446744073709551615"],
             ["18446744073709551616", "-1", "1.5", "2^64"] + GARBAGE, r"--seed")
option_cases("gen_shape", ["gen"], "--shape", ["g.npy"], ["3x4", "0x5", "7", "2^3x2"],
             ["3x", "x4", "3x4x5", "axb", "-3x4", "nanx3"], r"--shape")
option_cases("compare_rtol", ["compare"], "--rtol", ["valid.npy", "valid.npy"], ["0", "1e-5", "1e300"],
             ["-1", "-0.5", "1e999"] + GARBAGE, r"--rtol")
option_cases("compare_atol", ["compare"], "--atol", ["valid.npy", "valid.npy"], ["0", "3"],
             ["-1", "1e999"] + GARBAGE, r"--atol")
option_cases("compare_show", ["compare"], "--show", ["valid.npy", "valid.npy"], ["0", "1000000"],
             ["-1", "2.5"] + GARBAGE, r"--show")
# gen --n 2^62: refused before anything is written; an existing file stays.
sentinel("g.npy")
case("gen_n_2^62", ["gen", "--n", "2^62", "g.npy"], 2, r"needs more than 2\^64 bytes", protect=["g.npy"])
case("gen_shape_overflow", ["gen", "--shape", "2^40x2^40", "g.npy"], 2, r"shape .* (too many|needs more)",
     protect=["g.npy"])
case("gen_n_beyond_memory", ["gen", "--dtype", "int64", "--n", "2^58", "g.npy"], 1,
     r"more than this machine's .* bytes of memory", protect=["g.npy"])

# gen --low/--high per dtype: the exact limits pass (and the values land in range), one past fails.
limits = {
    "int32": (-2**31, 2**31 - 1), "uint32": (0, 2**32 - 1), "int64": (-2**63, 2**63 - 1),
    "uint8": (0, 255),
}
for dt, (lo, hi) in limits.items():
    def in_range(out, lo=lo, hi=hi, dt=dt):
        a = np.load("g.npy")
        if a.dtype != np.dtype(dt) or a.size != 1000:
            return "wrong dtype/size %s %d" % (a.dtype, a.size)
        if int(a.min()) < lo or int(a.max()) > hi:
            return "values outside [%d, %d]" % (lo, hi)
        return None
    case("gen_%s_full_range" % dt, ["gen", "--dtype", dt, "--low", str(lo), "--high", str(hi), "g.npy"], 0,
         check=in_range)
    case("gen_%s_top" % dt, ["gen", "--dtype", dt, "--low", str(hi - 2), "--high", str(hi), "g.npy"], 0,
         check=lambda out, hi=hi: None if int(np.load("g.npy").min()) >= hi - 2 else "below low")
    sentinel("g.npy")
    for v in (str(lo - 1), str(hi + 1), "2.5", "1e30") + tuple(GARBAGE[:4]):
        for opt in ("--low", "--high"):
            other = ["--high", str(hi)] if opt == "--low" else ["--low", str(lo)]
            case("gen_%s_%s_%s" % (dt, opt, v), ["gen", "--dtype", dt, opt + "=" + v] + other + ["g.npy"], 2,
                 r"--low|--high", protect=["g.npy"])
for dt, top in (("float32", float(np.finfo(np.float32).max)), ("float64", float(np.finfo(np.float64).max))):
    case("gen_%s_near_max" % dt, ["gen", "--dtype", dt, "--low", "1e30", "--high", repr(top * 0.5), "g.npy"], 0,
         check=lambda out: None if np.isfinite(np.load("g.npy")).all() else "non-finite values")
    sentinel("g.npy")
    for v in ("1e300" if dt == "float32" else "1e309", "-1e39" if dt == "float32" else "-1e400") + tuple(GARBAGE[:3]):
        case("gen_%s_low_%s" % (dt, v), ["gen", "--dtype", dt, "--low=" + v, "g.npy"], 2,
             r"--low", protect=["g.npy"])
    case("gen_%s_range_overflow" % dt, ["gen", "--dtype", dt, "--low", repr(-top), "--high", repr(top), "g.npy"],
         2 if dt == "float64" else 0, r"overflows" if dt == "float64" else None)
case("gen_low_above_high", ["gen", "--low", "5", "--high", "4", "g.npy"], 2, r"--low must not exceed --high")
case("gen_bad_dtype", ["gen", "--dtype", "int16", "g.npy"], 2, r"--dtype: unsupported dtype 'int16'")
case("gen_bad_dist", ["gen", "--dist", "cauchy", "g.npy"], 2, r"unknown --dist 'cauchy'")

# --- compact thresholds: numpy's answer (exact comparison) for every dtype x test x value -------
special = np.array([0, 1, -1, 2, 3, 127, 255, 2**31 - 1, 2**31, 2**32 - 1], dtype=np.float64)
arrays = {
    "int32": np.concatenate([rng.integers(-2**31, 2**31, 500, dtype=np.int32),
                             np.array([-2**31, 2**31 - 1, 0, 2, 3, -1], np.int32)]),
    "uint32": np.concatenate([rng.integers(0, 2**32, 500, dtype=np.uint32),
                              np.array([0, 2**32 - 1, 2, 3], np.uint32)]),
    "int64": np.concatenate([rng.integers(-2**63, 2**63 - 1, 500, dtype=np.int64),
                             np.array([-2**63, 2**63 - 1, 0, 2, 3, -1, 2**53 + 1], np.int64)]),
    "float32": np.concatenate([(rng.standard_normal(500) * 1e3).astype(np.float32),
                               np.array([np.nan, np.inf, -np.inf, 0.1, -0.0, 3e9, 3.4e38, 2.5],
                                        np.float32)]),
    "float64": np.concatenate([rng.standard_normal(500) * 1e3,
                               np.array([np.nan, np.inf, -np.inf, 0.1, -0.0, 3e9, 1e300, 2.5])]),
}
VALUES = ["3000000000", "-3000000000", "-1", "0", "2.5", "-2.5", "0.1", "1e300", "-1e300",
          "9223372036854775807", "9223372036854775808", "-9223372036854775809",
          "18446744073709551616", "4294967295", "nan", "inf", "-inf", "3e9", "-0"]
OPS = {"<": lambda x, v: x < v, "<=": lambda x, v: x <= v, ">": lambda x, v: x > v,
       ">=": lambda x, v: x >= v, "==": lambda x, v: x == v, "!=": lambda x, v: x != v}


def threshold_value(text, dt):
    """The threshold as numpy compares it with an array of dtype dt: Python's exact int/float
    comparison, except that a decimal that fits float32 is rounded to float32 first."""
    try:
        return int(text)
    except ValueError:
        v = float(text)
    if dt == "float32" and math.isfinite(v) and abs(v) <= float(np.finfo(np.float32).max):
        v = float(np.float32(v))
    return v


for dt, arr in arrays.items():
    np.save("t_%s.npy" % dt, arr)
    xs = [int(x) if arr.dtype.kind in "iu" else float(x) for x in arr]
    for op, fn in OPS.items():
        for text in VALUES:
            v = threshold_value(text, dt)
            want = np.array([x for x in xs if fn(x, v)], dtype=arr.dtype)

            def check(out, want=want):
                got = np.load("out.npy")
                if got.dtype != want.dtype or got.shape != want.shape or not \
                        np.array_equal(got, want, equal_nan=want.dtype.kind == "f"):
                    return "kept %d, numpy keeps %d" % (got.size, want.size)
                if out.strip().splitlines()[-1] != str(want.size):
                    return "printed count %r" % out.strip().splitlines()[-1]
                return None
            case("keep_%s_%s%s" % (dt, op, text), ["compact", "--keep", op + text, "t_%s.npy" % dt, "out.npy"],
                 0, check=check)
case("keep_garbage", ["compact", "--keep", ">abc", "valid.npy", "out.npy"], 2,
     r"cannot parse the test value 'abc' as a number")
case("keep_empty_value", ["compact", "--keep", ">", "valid.npy", "out.npy"], 2, r"needs a value")
case("less_than_garbage", ["compact", "--less-than", "1.5.5", "valid.npy", "out.npy"], 2,
     r"cannot parse the test value '1\.5\.5'")
case("keep_two_tests", ["compact", "--keep", ">0", "--not-equal", "1", "valid.npy", "out.npy"], 2,
     r"exactly one of")
case("keep_odd_float", ["compact", "--keep", "odd", "f64.npy", "out.npy"], 2, r"odd/even need an integer dtype")

# --- sort and partition of awkward values: numpy's answer (tests/scantool_oracle.py) ------------
# NaNs of both signs, signed zeros, infinities, subnormals and the integer extremes; with --cpu and
# on the default path (the GPU where there is one), so neither is only compared with the other.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import scantool_oracle as oracle  # noqa: E402

f32_bits = np.array([0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001], np.uint32).view(np.float32)
f32_odd = np.concatenate([f32_bits, np.array(
    [np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, 1e-45, -1e-45, 3.4e38, -3.4e38], np.float32)])
awkward = {
    "float32": np.concatenate([np.tile(f32_odd, 40), (rng.standard_normal(3000) * 1e3)
                               .astype(np.float32)]),
    "int32": np.concatenate([np.tile(np.array([-2**31, 2**31 - 1, 0, -1, 1], np.int32), 40),
                             rng.integers(-2**31, 2**31, 3000, dtype=np.int32)]),
    "uint32": np.concatenate([np.tile(np.array([0, 2**32 - 1, 2**31, 1], np.uint32), 40),
                              rng.integers(0, 2**32, 3000, dtype=np.uint32)]),
}
for dt, arr in awkward.items():
    arr = arr[rng.permutation(arr.size)]
    np.save("aw_%s.npy" % dt, arr)
    np.save("aw_vals_%s.npy" % dt, np.arange(arr.size, dtype=np.uint32))
    for bits in ([], ["--begin-bit", "16"], ["--end-bit", "8"], ["--begin-bit", "31", "--end-bit", "32"]):
        for cpu in ([], ["--cpu"]):
            argv = ["sort"] + cpu + bits + ["--values", "aw_vals_%s.npy" % dt, "--values-out", "aw_vo.npy",
                                           "aw_%s.npy" % dt, "out.npy"]
            case("sort_awkward_%s%s%s" % (dt, "".join(bits), "_cpu" if cpu else ""), argv, 0,
                 check=lambda out, argv=argv: oracle.check_sort(oracle.parse(argv)[1],
                                                                np.load(argv[-2]), np.load("out.npy")))
with np.errstate(invalid="ignore"):  # the signalling NaNs turn quiet in float64
    np.save("aw_f64.npy", np.concatenate([awkward["float32"].astype(np.float64), [np.nan, -0.0, 0.0]]))
np.save("aw_i64.npy", np.concatenate([awkward["int32"].astype(np.int64), [-2**63, 2**63 - 1, 2**53 + 1]]))
for src, tests in (("aw_f64.npy", ["nonzero", "<0", ">=-0", "!=nan"]), ("aw_i64.npy", ["odd", "even", "nonzero"]),
                   ("aw_uint32.npy", ["odd", ">2147483647"])):
    np.save("aw_flags.npy", (np.load(src) != 0).astype(np.uint8) * rng.integers(0, 2, np.load(src).size,
                                                                               dtype=np.uint8))
    for t in tests + ["flags"]:
        for mode in ([], ["--partition"]):
            for cpu in ([], ["--cpu"]):
                test = ["--flags", "aw_flags.npy"] if t == "flags" else ["--keep", t]
                argv = ["compact"] + cpu + mode + test + [src, "out.npy"]
                case("compact_awkward_%s_%s%s%s" % (src[3:-4], t, "_partition" if mode else "",
                                                    "_cpu" if cpu else ""), argv, 0,
                     check=lambda out, argv=argv: oracle.check_compact(oracle.parse(argv)[1],
                                                                       np.load(argv[-2]), np.load("out.npy"), out))

# --- compare: infinities match only themselves; NaN only NaN -------------------------------------
for name, a, b, rc in [("one_vs_inf", [1.0], [np.inf], 1), ("inf_vs_one", [np.inf], [1.0], 1),
                       ("minf_vs_inf", [-np.inf], [np.inf], 1), ("inf_vs_inf", [np.inf], [np.inf], 0),
                       ("nan_vs_nan", [np.nan], [np.nan], 0), ("nan_vs_one", [np.nan], [1.0], 1),
                       ("one_vs_nan", [1.0], [np.nan], 1), ("zero_signs", [-0.0], [0.0], 0),
                       ("huge_vs_inf", [1e38], [np.inf], 1)]:
    for dt in ("float32", "float64"):
        np.save("ca.npy", np.array(a, dt))
        np.save("cb.npy", np.array(b, dt))
        case("compare_%s_%s" % (name, dt), ["compare", "--rtol", "1e-5", "--atol", "1e-3", "ca.npy", "cb.npy"],
             rc, r"%d of 1 elements differ" % (0 if rc == 0 else 1))
np.save("ca.npy", np.zeros(3, np.int32))
np.save("cb.npy", np.zeros(4, np.int32))
case("compare_shape_mismatch", ["compare", "ca.npy", "cb.npy"], 1, r"ca\.npy is int32 \(3,\), cb\.npy is int32 \(4,\)")

# --- scan: NaN propagates in min/max (np.minimum.accumulate), -0.0 sums documented ---------------
for dt in ("float32", "float64"):
    for data in ([np.nan, 3, 1, 5], [3, np.nan, 1, 5], [3, 1, 5, np.nan], [np.inf, np.nan, -np.inf],
                 list(rng.standard_normal(3000)) + [np.nan] + list(rng.standard_normal(3000))):
        a = np.array(data, dt)
        np.save("nan_in.npy", a)
        for op, ufunc in (("min", np.minimum), ("max", np.maximum)):
            incl = ufunc.accumulate(a)
            ident = np.array([np.inf if op == "min" else -np.inf], dt)
            excl = np.concatenate([ident, incl[:-1]])
            for kind, want in (("inclusive", incl), ("exclusive", excl)):
                for cpu in ([], ["--cpu"]):
                    def check(out, want=want):
                        got = np.load("out.npy")
                        return None if np.array_equal(got, want, equal_nan=True) else \
                            "got %s, numpy %s" % (got[:6], want[:6])
                    case("nan_%s_%s_%s_%d%s" % (op, kind, dt, len(data), "_cpu" if cpu else ""),
                         ["scan", "--op", op, "--" + kind] + cpu + ["nan_in.npy", "out.npy"], 0,
                         check=check)
    np.save("negzero.npy", np.array([-0.0, -0.0, -0.0], dt))
    case("negzero_inclusive_sum_%s" % dt, ["scan", "--inclusive", "negzero.npy", "out.npy"], 0,
         check=lambda out: None if (np.load("out.npy") == 0).all() else "not zero")
case("scan_help_nan", ["scan", "--help"], 0, r"NaN in min/max scans propagates.*Sums of -0\.0 give \+0\.0")
case("compare_help_nan", ["compare", "--help"], 0, r"NaN matches NaN.*infinity matches only the same")

# --- outputs: /dev/full, under a regular file, a directory, the input itself --------------------
os.makedirs("adir", exist_ok=True)
sentinel("regular")
OUTPUT_CASES = [
    ("devfull", "/dev/full", 1, r"cannot write /dev/full: write failed \(No space left on device\)"),
    ("under_file", "regular/x.npy", 1, r"cannot write regular/x\.npy: .*Not a directory"),
    ("no_folder", "missing_dir/x.npy", 1, r"cannot write missing_dir/x\.npy: .*No such file"),
    ("directory", "adir", 1, r"cannot write adir: it is a directory"),
]
COMMANDS = {
    "scan": ["scan", "valid.npy"], "compact": ["compact", "--keep", ">0", "valid.npy"],
    "sort": ["sort", "keys_u32.npy"], "gen": ["gen", "--n", "10"],
}
for cname, pre in COMMANDS.items():
    for tag, out, rc, pattern in OUTPUT_CASES:
        case("out_%s_%s" % (cname, tag), pre + [out], rc, pattern,
             protect=["valid.npy", "keys_u32.npy", "regular"])
    for tag, out, rc, pattern in OUTPUT_CASES[:2]:
        case("cpu_out_%s_%s" % (cname, tag), pre[:1] + (["--cpu"] if cname != "gen" else []) + pre[1:] + [out],
             rc, pattern, protect=["valid.npy", "keys_u32.npy", "regular"])
for cname, pre in list(COMMANDS.items())[:3]:
    inp = pre[-1]
    case("out_is_input_%s" % cname, pre + [inp], 2, r"OUT\.npy '.*' is the input", protect=[inp])
    case("out_is_input_spelled_%s" % cname, pre + ["./" + inp], 2, r"is the input", protect=[inp])
    os.link(inp, "hardlink_" + inp) if not os.path.exists("hardlink_" + inp) else None
    case("out_is_input_hardlink_%s" % cname, pre + ["hardlink_" + inp], 2, r"is the input", protect=[inp])
case("out_is_flags", ["compact", "--flags", "flags.npy", "valid.npy", "flags.npy"], 2, r"is the input",
     protect=["flags.npy"])
# sort with values: OUT and --values-out together or not at all.
sentinel("sorted.npy")
case("values_out_is_out", ["sort", "--values", "vals.npy", "--values-out", "sorted.npy", "keys_u32.npy",
                           "sorted.npy"], 2, r"--values-out 'sorted\.npy' is also OUT\.npy", protect=["sorted.npy"])
case("values_out_is_values", ["sort", "--values", "vals.npy", "--values-out", "vals.npy", "keys_u32.npy",
                              "s.npy"], 2, r"is the input", protect=["vals.npy"])
for tag, out, rc, pattern in OUTPUT_CASES:
    sentinel("sorted.npy")
    case("values_out_%s" % tag, ["sort", "--values", "vals.npy", "--values-out", out, "keys_u32.npy", "sorted.npy"],
         rc, pattern, protect=["sorted.npy", "vals.npy", "keys_u32.npy"])
sentinel("vout.npy")
case("values_ok_then_out_fails", ["sort", "--values", "vals.npy", "--values-out", "vout.npy", "keys_u32.npy",
                                  "regular/x.npy"], 1, r"Not a directory", protect=["vout.npy"])
case("values_together", ["sort", "--values", "vals.npy", "--values-out", "vout.npy", "keys_u32.npy",
                         "sorted.npy"], 0,
     check=lambda out: None if (np.load("sorted.npy") == np.arange(10)).all() and
     (np.load("vout.npy") == np.arange(10)[::-1]).all() else "wrong sort")
case("values_without_out", ["sort", "--values", "vals.npy", "keys_u32.npy", "s.npy"], 2,
     r"--values and --values-out go together")
# A successful write keeps an existing file's mode and leaves no temporary behind.
sentinel("mode.npy")
os.chmod("mode.npy", 0o640)
case("keeps_mode", ["scan", "valid.npy", "mode.npy"], 0,
     check=lambda out: None if (os.stat("mode.npy").st_mode & 0o777) == 0o640 else "mode changed")

# --- arguments: unknown, missing, extra -------------------------------------------------------
case("no_arguments", [], 2, r"Usage: scantool")
case("unknown_command", ["frobnicate"], 2, r"unknown command 'frobnicate'")
case("unknown_option", ["scan", "--bogus", "valid.npy", "out.npy"], 2, r"--bogus.*Usage: scantool scan")
case("missing_output", ["scan", "valid.npy"], 2, r"OUT\.npy is required")
case("extra_argument", ["scan", "valid.npy", "out.npy", "more.npy"], 2, r"more\.npy")
case("flag_with_garbage", ["scan", "--cpu=abc", "valid.npy", "out.npy"], 2, r"--cpu")
case("inclusive_exclusive", ["scan", "--inclusive", "--exclusive", "valid.npy", "out.npy"], 2,
     r"exclude each other")
case("bad_algo", ["scan", "--algo", "nope", "valid.npy", "out.npy"], 2, r"nope")
case("bad_op", ["scan", "--op", "mul", "valid.npy", "out.npy"], 2, r"unknown --op 'mul'")
case("split_with_bits", ["sort", "--algo", "split", "--end-bit", "8", "keys.npy", "out.npy"], 2,
     r"--algo split sorts keys only")
for sub in ("", "scan", "gen", "compare", "compact", "sort"):
    case("help_%s" % (sub or "main"), ([sub] if sub else []) + ["--help"], 0,
         r"Errors and exit codes:.*\n  2  wrong arguments")
case("help_alias", ["help", "sort"], 0, r"Usage: scantool sort")

print("scantool robustness: %d cases, %d failure(s)" % (count, len(failures)))
sys.exit(1 if failures else 0)
