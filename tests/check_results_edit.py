#!/usr/bin/python3
"""scripts/results.py --check must fail on a hand-edited figure and on data without its record.

    check_results_edit.py SOURCE_DIR

Copies the record (scripts/results.py, the Markdown files, results/) into a temporary tree, then
in turn: changes one digit of a figure in README.md's generated table, and strips the record from
one data file; --check must exit 1 each time, naming what is wrong. The untouched copy must pass.
"""
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

src = Path(sys.argv[1])


def copy_tree(dst):
    (dst / "scripts").mkdir(parents=True)
    shutil.copy(src / "scripts/results.py", dst / "scripts/results.py")
    for md in list(src.glob("*.md")) + list(src.glob("app/*.md")):
        (dst / md.relative_to(src)).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(md, dst / md.relative_to(src))
    shutil.copytree(src / "results", dst / "results")


def check(dst):
    p = subprocess.run(["/usr/bin/python3", str(dst / "scripts/results.py"), "--check"],
                       capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


failures = 0
with tempfile.TemporaryDirectory() as t:
    base = Path(t) / "base"
    copy_tree(base)
    rc, out = check(base)
    if rc != 0:
        print(f"FAIL: the untouched record does not pass --check:\n{out}")
        failures += 1

    edited = Path(t) / "edited"
    copy_tree(edited)
    readme = edited / "README.md"
    text = readme.read_text()
    m = re.search(r"<!-- results:headline begin -->.*?(\d)\.(\d)", text, re.S)
    if not m:
        print("FAIL: README.md's headline table has no figure to edit")
        failures += 1
    else:
        i = m.start(2)
        digit = "1" if text[i] != "1" else "2"
        readme.write_text(text[:i] + digit + text[i + 1:])
        rc, out = check(edited)
        if rc != 1 or "README.md" not in out:
            print(f"FAIL: a hand-edited figure passed --check (rc {rc}):\n{out}")
            failures += 1
        else:
            print("ok: a hand-edited figure in README.md fails --check")

    stripped = Path(t) / "stripped"
    copy_tree(stripped)
    data = sorted((stripped / "results/scan").glob("scanbench_*.json"))
    if not data:
        print("FAIL: no results/scan/scanbench_*.json to strip")
        failures += 1
    else:
        text = data[0].read_text()
        data[0].write_text(re.sub(r'"record": \{[^{}]*\}, ', "", text, count=1))
        rc, out = check(stripped)
        if rc != 1 or "no record" not in out:
            print(f"FAIL: data without its record passed --check (rc {rc}):\n{out}")
            failures += 1
        else:
            print(f"ok: {data[0].name} without its record fails --check")
sys.exit(1 if failures else 0)
