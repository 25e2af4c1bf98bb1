#!/usr/bin/env python3
"""The native backend against the C backend on ../shared/bench, for
BENCHMARKS.md.

For each program, in one run: `rpy3 translate --backend c` (genc + cc -O2)
and `rpy3 translate --backend native` (Cranelift at speed + link), their
code generation plus compile/link times, then both executables at the
same n (wall time, best of --runs), checking they print the same
checksum.  Prints a Markdown table.

    python3 scripts/bench_native.py [--rpy3 target/release/rpy3] [--runs 1]
        [--only NAME,...] [--n NAME=N,...]

Machines here are noisy: compare the ratios of one run.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "..", "shared", "bench")
PROGRAMS = ["richards", "pystone", "nbody", "fannkuch", "spectral_norm",
            "binary_trees", "nqueens", "bytecode_vm", "wordfreq", "raytrace"]


def default_n(path):
    with open(path) as f:
        m = re.search(r"^DEFAULT_N\s*=\s*(\d+)", f.read(), re.M)
    return int(m.group(1))


def translate(rpy3, src, exe, backend):
    """The phase times of `rpy3 translate`, or an error string."""
    t = subprocess.run([rpy3, "translate", src, "--backend", backend, "-o", exe],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if t.returncode != 0:
        return "translation failed: " + t.stderr.strip()[:200]
    return {m.group(1): float(m.group(2)) for m in
            re.finditer(r"^\[translate\]\s+(.+?)\s+([\d.]+) s$", t.stdout, re.M)}


def run(exe, n, runs):
    best = None
    for _ in range(runs):
        start = time.perf_counter()
        out = subprocess.run([exe, str(n)], stdout=subprocess.PIPE, check=True).stdout
        wall = time.perf_counter() - start
        if best is None or wall < best[1]:
            best = (out, wall)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rpy3", default=os.path.join(ROOT, "target", "release", "rpy3"))
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--only", default="")
    ap.add_argument("--n", default="", help="NAME=N,... instead of DEFAULT_N")
    args = ap.parse_args()
    only = [x for x in args.only.split(",") if x]
    ns = dict(kv.split("=") for kv in args.n.split(",") if kv)
    print("| program | n | genc+cc s | native+link s | build speed-up | C exe s "
          "| native exe s | native/C time |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in PROGRAMS:
            if only and name not in only:
                continue
            src = os.path.join(BENCH, name + ".py")
            n = int(ns.get(name, default_n(src)))
            exes, builds = {}, {}
            failed = None
            for backend in ("c", "native"):
                exe = os.path.join(tmp, "%s-%s" % (name, backend))
                ph = translate(args.rpy3, src, exe, backend)
                if isinstance(ph, str):
                    failed = "%s: %s" % (backend, ph)
                    break
                exes[backend] = exe
                builds[backend] = (ph.get("genc", 0) + ph.get("cc", 0) if backend == "c"
                                   else ph.get("native", 0) + ph.get("link", 0))
            if failed:
                print("| %s | %d | %s |" % (name, n, failed))
                continue
            c_out, c_wall = run(exes["c"], n, args.runs)
            n_out, n_wall = run(exes["native"], n, args.runs)
            if c_out != n_out:
                print("| %s | %d | DIFFERENT OUTPUT: %r vs %r |" % (name, n, n_out, c_out))
                continue
            print("| %s | %d | %.3f | %.3f | %.1fx | %.2f | %.2f | %.2fx |" % (
                name, n, builds["c"], builds["native"], builds["c"] / builds["native"],
                c_wall, n_wall, n_wall / c_wall))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
