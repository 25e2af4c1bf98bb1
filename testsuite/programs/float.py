"""float: an artificial floating-point benchmark (points from sin/cos,
normalized, then the componentwise maximum), originally used by Factor.

Source: python/pyperformance,
pyperformance/data-files/benchmarks/bm_float/run_benchmark.py.
Licence: MIT (pyperformance's COPYING).

Changes made for rpy3:
- `import pyperf` and the pyperf runner dropped: `entry_point(argv)` calls
  benchmark(n) `loops` times (n and loops from argv, n defaulting to POINTS)
  and prints the repr of the last resulting Point (the original printed
  nothing).

Original docstring:

Artificial, floating point-heavy benchmark originally used by Factor.
"""

# rpy3-args: 60000
# rpy3-args: 3000 4
# rpy3-stress-args: 3000 4

from math import sin, cos, sqrt


POINTS = 100000


class Point(object):
    __slots__ = ('x', 'y', 'z')

    def __init__(self, i):
        self.x = x = sin(i)
        self.y = cos(i) * 3
        self.z = (x * x) / 2

    def __repr__(self):
        return "<Point: x=%s, y=%s, z=%s>" % (self.x, self.y, self.z)

    def normalize(self):
        x = self.x
        y = self.y
        z = self.z
        norm = sqrt(x * x + y * y + z * z)
        self.x /= norm
        self.y /= norm
        self.z /= norm

    def maximize(self, other):
        self.x = self.x if self.x > other.x else other.x
        self.y = self.y if self.y > other.y else other.y
        self.z = self.z if self.z > other.z else other.z
        return self


def maximize(points):
    next = points[0]
    for p in points[1:]:
        next = next.maximize(p)
    return next


def benchmark(n):
    points = [None] * n
    for i in range(n):
        points[i] = Point(i)
    for p in points:
        p.normalize()
    return maximize(points)


def entry_point(argv):
    points = POINTS
    loops = 1
    if len(argv) > 1:
        points = int(argv[1])
    if len(argv) > 2:
        loops = int(argv[2])
    result = benchmark(points)
    for i in range(loops - 1):
        result = benchmark(points)
    print(repr(result))
    return 0


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    import sys
    sys.exit(entry_point(sys.argv))
