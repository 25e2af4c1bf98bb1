"""voronoi: a textual Voronoi diagram of random points (an ASCII picture
shaded by the ratio of the distances to the two closest points).

Source: shedskin/shedskin, examples/voronoi/voronoi.py (modified from code by
abhishek@ocf.berkeley.edu).
Licence: not stated in the file (Shed Skin's LICENSE: examples are
"licensed as indicated for each example").

Changes made for rpy3:
- `from random import random, seed` replaced by local functions of those
  names drawing from a prebuilt instance of a small 32-bit xorshift
  generator class (so the points differ from CPython's);
- `import time` dropped; the `__main__` benchmark loop (10 x 500 screens,
  timed) became `entry_point(argv)`: it draws `count` screens (seeds
  0..count-1) of `npoints` points and `rows` x `cols` characters, all from
  argv, and prints the last screen as the original did.
"""

# rpy3-args: 4 10 40 80
# rpy3-args: 1 25 30 100

# Textual Voronoi code modified from: <abhishek@ocf.berkeley.edu>
# http://www.ocf.berkeley.edu/~Eabhishek/

from math import sqrt

class _Random(object):
    """Local stand-in for the random module: Marsaglia's 32-bit xorshift
    generator, seeded through a multiplicative hash and a few warm-up
    steps."""

    def __init__(self):
        self.state = 0
        self.seed(0)

    def seed(self, n):
        self.state = ((n & 0x7fffffff) * 1103515245 + 12345) & 0xffffffff
        if self.state == 0:
            self.state = 12345
        for i in range(8):
            self.next32()

    def next32(self):
        x = self.state
        x ^= (x << 13) & 0xffffffff
        x ^= x >> 17
        x ^= (x << 5) & 0xffffffff
        self.state = x
        return x

    def random(self):
        return self.next32() / 4294967296.0

    def randint(self, a, b):
        return a + int(self.random() * (b - a + 1))


_rng = _Random()


def random():
    return _rng.random()


def seed(n):
    _rng.seed(n)

def generateRandomPoints(npoints=6):
    """Generate a few random points v1...vn"""
#    print(npoints, "points x,y:")
    points = []
    for i in range(npoints):
        xrand, yrand = random(), random()
#        print(xrand, yrand)
        for xoff in range(-1, 2):
            for yoff in range(-1, 2):
                points.append( (xrand + xoff, yrand + yoff) )
    return points


def closest(x,y,points):
    """Function to find the closest of the vi."""
    best,good = 99.0*99.0, 99.0*99.0
    for px, py in points:
        dist = (x-px)*(x-px) + (y-py)*(y-py)
        if dist < best:
            best, good = dist, best
        elif dist < good:
            good = dist
    return sqrt(best) / sqrt(good)


def generateScreen(points, rows=40, cols=80):
    yfact = 1.0 / cols
    xfact = 1.0 / rows
    screen = []
    chars = " -.,+*$&#~~"
    for i in range(rows):
        x = i*xfact
        line = [ chars[int(10*closest(x, j*yfact, points))] for j in range(cols) ]
        screen.extend( line )
        screen.append("\n")
    return "".join(screen)


def entry_point(argv):
    count = 1
    npoints = 10
    rows = 40
    cols = 80
    if len(argv) > 1:
        count = int(argv[1])
    if len(argv) > 2:
        npoints = int(argv[2])
    if len(argv) > 3:
        rows = int(argv[3])
    if len(argv) > 4:
        cols = int(argv[4])
    screen = ""
    for n in range(count):
        seed(n)
        points = generateRandomPoints(npoints)
        screen = generateScreen(points, rows, cols)
    print(screen)
    return 0


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    import sys
    sys.exit(entry_point(sys.argv))
