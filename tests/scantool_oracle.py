#!/usr/bin/python3
"""The expected result of one scantool run, computed with numpy from the same input files, and
compared with what scantool wrote. An oracle that shares no code with scantool or the library:
scantool's CPU path is the library's reference, so comparing it with itself (or with the --cpu
run) proves nothing.

    scantool_oracle.py [--tool-output FILE] -- SUBCOMMAND [OPTIONS] IN.npy OUT.npy

The arguments after -- are the ones scantool ran with (run from the same directory). It reads the
subcommand's options as scantool does (--algo, --cpu, --verify, --time and --reps do not change the
answer) and checks:
  scan     exclusive/inclusive sum, min or max: np.cumsum / np.minimum.accumulate /
           np.maximum.accumulate in the array's dtype (integer sums wrap as numpy's do)
  compact  the kept elements in order (--keep, --less-than, --not-equal, --flags), or with
           --partition the kept ones then the others, each in input order; the printed count
  sort     a stable argsort by bits [B, E) of the order-preserving key image; --values permuted
           alike
Exact for everything but float sums that the GPU computed (the tool output says where it ran):
those are held to a rounding bound of the sequential float64 sum, as in numpy_roundtrip.py.
Exit status 0 when the files match, 1 with the first differences otherwise, 2 on bad usage.
"""
import sys

import numpy as np


def fail(msg):
    print("oracle: " + msg)
    sys.exit(1)


def parse(argv):
    """scantool's command line: (subcommand, {option: value or True}, [positionals])."""
    if not argv:
        print("oracle: no scantool arguments after --", file=sys.stderr)
        sys.exit(2)
    takes_value = {"--algo", "--op", "--reps", "--keep", "--less-than", "--not-equal", "--flags",
                   "--paper-scan", "--begin-bit", "--end-bit", "--values", "--values-out"}
    opts, pos = {}, []
    it = iter(argv[1:])
    for a in it:
        if a.startswith("--"):
            name, eq, value = a.partition("=")
            if name in takes_value:
                opts[name] = value if eq else next(it)
            else:
                opts[name] = True
        else:
            pos.append(a)
    if len(pos) != 2:
        print("oracle: expected IN.npy OUT.npy, got %r" % pos, file=sys.stderr)
        sys.exit(2)
    return argv[0], opts, pos


def describe_mismatch(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return "got %s %s, expected %s %s" % (got.dtype, got.shape, want.dtype, want.shape)
    eq = got == want
    if got.dtype.kind == "f":
        eq |= np.isnan(got) & np.isnan(want)
    bad = np.nonzero(~eq)[0]
    return "%d of %d elements differ, first at %s: got %s, expected %s" % (
        len(bad), got.size, bad[:5].tolist(), got[bad[:5]].tolist(), want[bad[:5]].tolist())


def same(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    return bool(np.array_equal(got, want, equal_nan=got.dtype.kind == "f"))


# --- scan -----------------------------------------------------------------------------------------
def identity(op, dt):
    if op == "sum":
        return dt.type(0)
    if dt.kind == "f":
        return dt.type(np.inf if op == "min" else -np.inf)
    info = np.iinfo(dt)
    return dt.type(info.max if op == "min" else info.min)


def scan_reference(a, op, inclusive):
    with np.errstate(over="ignore", invalid="ignore"):
        if op == "sum":
            inc = np.cumsum(a, dtype=a.dtype)
        elif op == "min":
            inc = np.minimum.accumulate(a)
        else:
            inc = np.maximum.accumulate(a)
    if inclusive:
        return inc
    out = np.empty_like(a)
    if a.size:
        out[0] = identity(op, a.dtype)
        out[1:] = inc[:-1]
    return out


def check_scan(opts, a, got, on_gpu):
    op = opts.get("--op", "sum")
    inclusive = "--inclusive" in opts
    want = scan_reference(a, op, inclusive)
    if a.dtype.kind == "f" and op == "sum" and on_gpu:
        # Another order of additions: within a few ulps of the running sum of magnitudes per
        # level of a scan tree, around the float64 sum.
        if got.dtype != a.dtype or got.shape != a.shape:
            return describe_mismatch(got, want)
        ref64 = scan_reference(a.astype(np.float64), op, inclusive)
        mag = scan_reference(np.abs(a.astype(np.float64)), op, inclusive)
        tol = (4 * np.log2(max(a.size, 2)) + 8) * np.finfo(a.dtype).eps * mag + np.finfo(a.dtype).tiny
        bad = np.nonzero(~(np.abs(got.astype(np.float64) - ref64) <= tol))[0]
        if bad.size:
            return "%d float sums outside the rounding bound, first at %s" % (bad.size, bad[:5].tolist())
        return None
    return None if same(got, want) else describe_mismatch(got, want)


# --- compact ------------------------------------------------------------------------------------
def threshold(text, dt):
    """The threshold as numpy compares it with an array of dtype dt: Python's exact int / float
    comparison, except that a decimal within float32's range is rounded to float32 first."""
    try:
        return int(text)
    except ValueError:
        v = float(text)
    if dt == np.float32 and np.isfinite(v) and abs(v) <= float(np.finfo(np.float32).max):
        v = float(np.float32(v))
    return v


def keep_mask(opts, a, flags):
    if flags is not None:
        return flags != 0
    if "--keep" in opts:
        t = opts["--keep"]
    elif "--less-than" in opts:
        t = "<" + opts["--less-than"]
    else:
        t = "!=" + opts["--not-equal"]
    xs = a.tolist()  # Python numbers: exact comparisons, as numpy makes them with a Python scalar
    if t == "nonzero":
        return np.array([x != 0 for x in xs], dtype=bool)
    if t in ("odd", "even"):
        odd = np.array([x % 2 != 0 for x in xs], dtype=bool)
        return odd if t == "odd" else ~odd
    for sym, fn in (("<=", lambda x, v: x <= v), (">=", lambda x, v: x >= v),
                    ("==", lambda x, v: x == v), ("!=", lambda x, v: x != v),
                    ("<", lambda x, v: x < v), (">", lambda x, v: x > v)):
        if t.startswith(sym):
            v = threshold(t[len(sym):], a.dtype)
            return np.array([fn(x, v) for x in xs], dtype=bool)
    print("oracle: unknown test %r" % t, file=sys.stderr)
    sys.exit(2)


def check_compact(opts, a, got, tool_output):
    flags = np.load(opts["--flags"]) if "--flags" in opts else None
    mask = keep_mask(opts, a, flags)
    kept = a[mask]
    want = np.concatenate([kept, a[~mask]]) if "--partition" in opts else kept
    if not same(got, want):
        return describe_mismatch(got, want)
    if tool_output is not None:
        lines = [ln.strip() for ln in tool_output.splitlines()]
        if str(kept.size) not in lines:
            return "the printed count is not %d (output: %r)" % (kept.size, tool_output[-300:])
    return None


# --- sort ---------------------------------------------------------------------------------------
def key_image(k):
    """The order-preserving unsigned image of each key (sort.hpp's RadixTraits)."""
    if k.dtype == np.uint32:
        return k.astype(np.uint64)
    bits = k.view(np.uint32).astype(np.uint64)
    if k.dtype == np.int32:
        return bits ^ 0x80000000
    if k.dtype == np.float32:
        return np.where(bits >> 31 == 1, bits ^ 0xFFFFFFFF, bits ^ 0x80000000)
    print("oracle: no key image for %s" % k.dtype, file=sys.stderr)
    sys.exit(2)


def check_sort(opts, keys, got):
    begin = int(opts.get("--begin-bit", 0))
    end = int(opts.get("--end-bit", 32))
    digits = (key_image(keys) >> np.uint64(begin)) & np.uint64((1 << (end - begin)) - 1)
    perm = np.argsort(digits, kind="stable")
    want = keys[perm]
    # Bit for bit: a sort moves keys, it never computes one (-0.0 and NaN payloads included).
    if got.dtype != want.dtype or got.shape != want.shape or \
            not np.array_equal(got.view(np.uint32), want.view(np.uint32)):
        return "keys: " + describe_mismatch(got, want)
    if "--values" in opts:
        vals = np.load(opts["--values"])
        vgot = np.load(opts["--values-out"])
        if not same(vgot, vals[perm]):
            return "values: " + describe_mismatch(vgot, vals[perm])
    return None


def main():
    args = sys.argv[1:]
    tool_output = None
    if args[:1] == ["--tool-output"]:
        with open(args[1], encoding="utf-8", errors="replace") as f:
            tool_output = f.read()
        args = args[2:]
    if args[:1] != ["--"]:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sub, opts, (in_path, out_path) = parse(args[1:])
    a = np.load(in_path)
    got = np.load(out_path)
    # Where the run went: --cpu, or the tool said it fell back; otherwise a GPU computed it.
    on_gpu = "--cpu" not in opts and (tool_output is None or "computed on the CPU" not in tool_output)
    if sub == "scan":
        problem = check_scan(opts, a, got, on_gpu)
    elif sub == "compact":
        problem = check_compact(opts, a, got, tool_output)
    elif sub == "sort":
        problem = check_sort(opts, a, got)
    else:
        print("oracle: no oracle for 'scantool %s'" % sub, file=sys.stderr)
        sys.exit(2)
    if problem:
        fail("scantool %s: %s" % (" ".join(args[1:]), problem))
    print("oracle: %s of %d %s elements matches numpy%s" % (
        sub, a.size, a.dtype, " (GPU result)" if on_gpu else ""))


if __name__ == "__main__":
    main()
