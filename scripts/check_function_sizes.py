#!/usr/bin/env python3
"""Lists the functions of app/, glsat/ and kernels/ longer than a limit (default 150 lines).

  scripts/check_function_sizes.py [--limit N] [DIR ...]    exit 1 if any is longer

The tree's style (clang-format, namespaces not indented) puts every function body that is not
inside a class at column 0: a definition is a line at column 0 that does not start a type,
namespace or preprocessor line and whose braces open a block closed by a '}' at column 0. Bodies
inside a class body are counted with the class (there are no long ones). Comments and strings are
stripped before braces are counted.
"""
import argparse
import os
import re
import sys

EXTS = ('.cpp', '.hpp', '.cu', '.cuh', '.h', '.c')
NOT_FUNC = re.compile(r'^(namespace|class|struct|union|enum|template\s*<[^>]*>\s*(class|struct)|extern\s+"C"|#|//|/\*|typedef|using)\b')


def strip(text):
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"'(\\.|[^'\\\n])'", "''", text)


def functions(path):
    lines = strip(open(path, encoding='utf-8', errors='replace').read()).split('\n')
    i = 0
    while i < len(lines):
        line = lines[i]
        if line and not line[0].isspace() and not NOT_FUNC.match(line) and '(' in line:
            # The signature runs to the line holding the body's '{' (or ends in ';': a declaration).
            j = i
            while j < len(lines) and '{' not in lines[j] and ';' not in lines[j]:
                j += 1
            if j < len(lines) and '{' in lines[j] and ';' not in lines[j].split('{')[0]:
                depth, k = 0, j
                while k < len(lines):
                    depth += lines[k].count('{') - lines[k].count('}')
                    if depth <= 0:
                        break
                    k += 1
                name = re.findall(r'([\w:~<>]+)\s*\(', line)
                yield (name[0] if name else line.strip()[:40]), i + 1, k - i + 1
                i = k + 1
                continue
        i += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--limit', type=int, default=150)
    ap.add_argument('dirs', nargs='*', default=['app', 'glsat', 'kernels'])
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    long_ = []
    for d in a.dirs:
        for base, _, files in os.walk(os.path.join(root, d)):
            if '/tests' in base[len(root):]:
                continue
            for f in sorted(files):
                if f.endswith(EXTS):
                    p = os.path.join(base, f)
                    for name, start, n in functions(p):
                        if n > a.limit:
                            long_.append((n, os.path.relpath(p, root), start, name))
    for n, p, start, name in sorted(long_, reverse=True):
        print(f'{p}:{start}: {name}: {n} lines (limit {a.limit})')
    if long_:
        return 1
    print(f'no function over {a.limit} lines in {", ".join(a.dirs)}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
