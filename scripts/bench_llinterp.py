#!/usr/bin/env python3
"""The llinterp against CPython on ../shared/bench, for BENCHMARKS.md.

For each row of the table of issue 11: the whole process
`rpy3 run FILE.py FUNC N --backend llinterp` (translation included) against
`python3 -c` importing the same file and calling the same function, run in
pairs (llinterp then CPython) --runs times; both must print the same
result.  Reports the median wall time and CPU time (user + system) of
each and the ratios of the medians (on a shared machine the CPU times
move less), the median of the ratios over the table, then the peak RSS of
binary_trees.run(N) under both (--mem-n, 16 by default).

    python3 scripts/bench_llinterp.py [--rpy3 target/release/rpy3] [--runs 3]
        [--only NAME,...] [--mem-n 16] [--no-mem] [--scale K]

--scale K multiplies every n by K (to check that time grows linearly).
Machines here are noisy: compare the ratios of one run.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "..", "shared", "bench")

# (label, file, function, n): the table of issue 11
TABLE = [
    ("bytecode_vm", "bytecode_vm", "run", 8000),
    ("fannkuch", "fannkuch", "run", 8),
    ("nbody", "nbody", "run", 100000),
    ("nqueens", "nqueens", "run", 200),
    ("pystone", "pystone", "run", 200000),
    ("raytrace", "raytrace", "run", 30),
    ("richards", "richards", "run", 30),
    ("spectral_norm", "spectral_norm", "run", 150),
    ("wordfreq", "wordfreq", "run", 20000),
    ("llinterp_speed.list_dict", "llinterp_speed", "list_dict", 200000),
    ("llinterp_speed.linked_list", "llinterp_speed", "linked_list", 200000),
    ("llinterp_speed.int_loop", "llinterp_speed", "int_loop", 2000000),
]


def llinterp_argv(rpy3, module, func, n):
    return [rpy3, "run", os.path.join(BENCH, module + ".py"), func, str(n),
            "--backend", "llinterp"]


def cpython_argv(module, func, n):
    code = ("import sys; sys.path.insert(0, %r); import %s as m; print(m.%s(%d))"
            % (BENCH, module, func, n))
    return [sys.executable, "-c", code]


def timed(argv):
    """(stdout, wall seconds, CPU seconds: user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(argv, stdout=subprocess.PIPE, check=True).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out.strip(), wall, cpu


def peak_rss(argv):
    """(stdout, wall seconds, peak RSS KiB) through /usr/bin/time."""
    with tempfile.NamedTemporaryFile("r") as f:
        start = time.perf_counter()
        out = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", f.name] + argv,
                             stdout=subprocess.PIPE, check=True).stdout
        wall = time.perf_counter() - start
        rss = int(f.read().strip().splitlines()[-1])
    return out.strip(), wall, rss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rpy3", default=os.path.join(ROOT, "target", "release", "rpy3"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", default="")
    ap.add_argument("--scale", type=int, default=1)
    ap.add_argument("--mem-n", type=int, default=16)
    ap.add_argument("--no-mem", action="store_true")
    args = ap.parse_args()
    only = [x for x in args.only.split(",") if x]
    print("| program (n) | llinterp median s | CPython median s | llinterp / CPython "
          "| llinterp CPU s | CPython CPU s | llinterp / CPython CPU |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    ratios, cpu_ratios = [], []
    failed = False
    for label, module, func, n in TABLE:
        if only and label not in only and module not in only:
            continue
        n *= args.scale
        ll, cp, ll_cpu, cp_cpu = [], [], [], []
        for _ in range(args.runs):
            out_ll, t_ll, c_ll = timed(llinterp_argv(args.rpy3, module, func, n))
            out_cp, t_cp, c_cp = timed(cpython_argv(module, func, n))
            ll_cpu.append(c_ll)
            cp_cpu.append(c_cp)
            if out_ll != out_cp:
                print("%s: llinterp printed %r, CPython %r" % (label, out_ll, out_cp),
                      file=sys.stderr)
                failed = True
            ll.append(t_ll)
            cp.append(t_cp)
        ratio = statistics.median(ll) / statistics.median(cp)
        cpu_ratio = statistics.median(ll_cpu) / statistics.median(cp_cpu)
        ratios.append(ratio)
        cpu_ratios.append(cpu_ratio)
        print("| %s (%d) | %.3f | %.3f | %.2fx | %.3f | %.3f | %.2fx |" % (
            label, n, statistics.median(ll), statistics.median(cp), ratio,
            statistics.median(ll_cpu), statistics.median(cp_cpu), cpu_ratio))
        sys.stdout.flush()
    if ratios:
        print()
        print("median llinterp / CPython over the table: %.2fx (CPU time %.2fx); "
              "worst: %.2fx (CPU time %.2fx)"
              % (statistics.median(ratios), statistics.median(cpu_ratios),
                 max(ratios), max(cpu_ratios)))
    if not args.no_mem:
        n = args.mem_n
        out_ll, t_ll, rss_ll = peak_rss(llinterp_argv(args.rpy3, "binary_trees", "run", n))
        out_cp, t_cp, rss_cp = peak_rss(cpython_argv("binary_trees", "run", n))
        if out_ll != out_cp:
            print("binary_trees: llinterp printed %r, CPython %r" % (out_ll, out_cp),
                  file=sys.stderr)
            failed = True
        print()
        print("binary_trees.run(%d): llinterp %.2f s, peak RSS %.0f MiB; "
              "CPython %.2f s, peak RSS %.0f MiB; RSS ratio %.2fx"
              % (n, t_ll, rss_ll / 1024, t_cp, rss_cp / 1024, rss_ll / rss_cp))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
