#!/usr/bin/env python3
"""Benchmarks of the C backend on ../shared/bench, for BENCHMARKS.md.

For each program: `rpy3 translate` (its phase times), the executable at the
program's DEFAULT_N (wall time and peak RSS, best of --runs), and the same
program under CPython 3.11 (once, unless --no-cpython), checking that both
print the same checksum.  Prints a Markdown table.

    python3 scripts/bench_c.py [--rpy3 target/release/rpy3] [--runs 3]
        [--only NAME,...] [--no-cpython] [--cpython-n NAME=N,...]

Machines here are noisy: compare the ratios of one run.
"""

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "..", "shared", "bench")
PROGRAMS = ["richards", "pystone", "nbody", "fannkuch", "spectral_norm",
            "binary_trees", "nqueens", "bytecode_vm", "wordfreq", "raytrace"]


def run_with_time(argv):
    """(stdout, wall seconds, peak RSS KiB) through /usr/bin/time."""
    with tempfile.NamedTemporaryFile("r") as f:
        start = time.perf_counter()
        out = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", f.name] + argv,
                             stdout=subprocess.PIPE, check=True).stdout
        wall = time.perf_counter() - start
        rss = int(f.read().strip().splitlines()[-1])
    return out, wall, rss


def default_n(path):
    with open(path) as f:
        m = re.search(r"^DEFAULT_N\s*=\s*(\d+)", f.read(), re.M)
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rpy3", default=os.path.join(ROOT, "target", "release", "rpy3"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", default="")
    ap.add_argument("--no-cpython", action="store_true")
    ap.add_argument("--n", default="", help="NAME=N,... instead of DEFAULT_N")
    args = ap.parse_args()
    only = [x for x in args.only.split(",") if x]
    ns = dict(kv.split("=") for kv in args.n.split(",") if kv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in PROGRAMS:
            if only and name not in only:
                continue
            src = os.path.join(BENCH, name + ".py")
            n = int(ns.get(name, default_n(src)))
            exe = os.path.join(tmp, name)
            t = subprocess.run([args.rpy3, "translate", src, "-o", exe],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
            if t.returncode != 0:
                rows.append((name, n, "translation failed: " + t.stderr.strip()[:200]))
                continue
            phases = {}
            for m in re.finditer(r"^\[translate\]\s+(.+?)\s+([\d.]+) s$", t.stdout, re.M):
                name = m.group(1)
                # the preparation passes and the verifier after each
                if name.startswith("transform ") or (
                        name.startswith("verify after ") and name != "verify after rtype"):
                    name = "prepare"
                phases[name] = phases.get(name, 0.0) + float(m.group(2))
            best = None
            for _ in range(args.runs):
                out, wall, rss = run_with_time([exe, str(n)])
                if best is None or wall < best[1]:
                    best = (out, wall, rss)
            cpy = None
            if not args.no_cpython:
                cpy = run_with_time([sys.executable, src, str(n)])
                if cpy[0] != best[0]:
                    rows.append((name, n, "DIFFERENT OUTPUT: %r vs CPython %r"
                                 % (best[0], cpy[0])))
                    continue
            rows.append((name, n, phases, best, cpy))
            print("done", name, file=sys.stderr)
    print("| program | n | load+annotate s | rtype s | prepare s | genc s | cc s "
          "| exe s | exe peak RSS MiB | CPython s | CPython peak RSS MiB | speed-up |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        if len(row) == 3:
            print("| %s | %d | %s |" % row)
            continue
        name, n, ph, (out, wall, rss), cpy = row
        c_wall = "%.1f" % cpy[1] if cpy else "-"
        c_rss = "%.0f" % (cpy[2] / 1024) if cpy else "-"
        speed = "%.0fx" % (cpy[1] / wall) if cpy else "-"
        print("| %s | %d | %.2f | %.2f | %.3f | %.3f | %.2f | %.2f | %.0f | %s | %s | %s |" % (
            name, n, ph.get("load", 0) + ph.get("annotate", 0), ph.get("rtype", 0),
            ph.get("prepare", 0), ph.get("genc", 0), ph.get("cc", 0), wall, rss / 1024,
            c_wall, c_rss, speed))


if __name__ == "__main__":
    main()
