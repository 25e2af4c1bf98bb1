"""generators: recursive generators (`yield from`) traversing a balanced
binary tree built from a range.

Source: python/pyperformance,
pyperformance/data-files/benchmarks/bm_generators/run_benchmark.py.
Licence: MIT (pyperformance's COPYING).

Changes made for rpy3:
- `from collections.abc import Iterator` dropped (it is only named in
  annotations, which `from __future__ import annotations` leaves
  unevaluated);
- `import pyperf` dropped: bench_generators(loops) became
  bench_generators(loops, n): the tree is built from range(n) instead of
  range(100000), the loop is no longer timed (the `pyperf.perf_counter()`
  calls and the returned duration removed), and at the end it prints the
  small test tree's values and n with the sum of the big tree's values
  (the original printed nothing);
- the pyperf `__main__` block replaced by `entry_point(argv)` reading loops
  and n from argv.

Original docstring:

Benchmark recursive generators implemented in python
by traversing a binary tree.

Author: Kumar Aditya
"""

# rpy3-args: 5 20000
# rpy3-args: 1 1000
# rpy3-stress-args: 1 1000

from __future__ import annotations



class Tree:
    def __init__(self, left: Tree | None, value: int, right: Tree | None) -> None:
        self.left = left
        self.value = value
        self.right = right

    def __iter__(self) -> Iterator[int]:
        if self.left:
            yield from self.left
        yield self.value
        if self.right:
            yield from self.right


def tree(input: range) -> Tree | None:
    n = len(input)
    if n == 0:
        return None
    i = n // 2
    return Tree(tree(input[:i]), input[i], tree(input[i + 1:]))

def bench_generators(loops: int, n: int) -> None:
    assert list(tree(range(10))) == list(range(10))
    range_it = range(loops)
    iterable = tree(range(n))
    for _ in range_it:
        for _ in iterable:
            pass
    print(list(tree(range(10))))
    print(n, sum(iterable))

def entry_point(argv):
    loops = 1
    n = 100000
    if len(argv) > 1:
        loops = int(argv[1])
    if len(argv) > 2:
        n = int(argv[2])
    bench_generators(loops, n)
    return 0


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    import sys
    sys.exit(entry_point(sys.argv))
