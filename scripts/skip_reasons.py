#!/usr/bin/python3
"""Why the skipped cases of a CTest run skipped, from its JUnit file (ctest --output-junit):
one line per reason with its count, so a summary's "skipped M" can be read as "M cases that need
hardware this machine lacks". Reasons: no CUDA device (the GPU suites' and scantool's own
messages), a GL feature the driver lacks (GL_KHR_shader_subgroup and the like, which NVIDIA's
driver offers), or anything else, listed by name: a skip that is neither is worth a look.

usage: scripts/skip_reasons.py RUN.xml
"""
import sys
import xml.etree.ElementTree as ET

GPU = ("GPU test skipped", "no CUDA device")  # tests/gpu_skip.hpp; scantool's cases
GL = ("GL_KHR_shader_subgroup",)


def main(path):
    counts = {"need a CUDA device": 0, "need a GL feature of a GPU driver": 0}
    other = []
    for tc in ET.parse(path).getroot().iter("testcase"):
        if tc.find("skipped") is None:
            continue
        out = tc.findtext("system-out") or ""
        if any(m in out for m in GPU):
            counts["need a CUDA device"] += 1
        elif any(m in out for m in GL):
            counts["need a GL feature of a GPU driver"] += 1
        else:
            other.append(tc.attrib.get("name", "?"))
    parts = [f"{n} {why}" for why, n in counts.items() if n]
    if other:
        parts.append(f"{len(other)} for other reasons: {', '.join(other)}")
    print("skipped: " + ("; ".join(parts) if parts else "none"))
    return 1 if other else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
