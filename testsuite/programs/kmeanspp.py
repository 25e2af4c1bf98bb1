"""kmeanspp: k-means++ clustering of random points in a disc (Lloyd
iterations after k-means++ seeding), printed as an EPS picture.

Source: shedskin/shedskin, examples/kmeanspp/kmeanspp.py (after
http://rosettacode.org/wiki/K-means%2B%2B_clustering).
Licence: not stated in the file (Shed Skin's LICENSE: examples are
"licensed as indicated for each example"; Rosetta Code content is under the
GNU FDL 1.2).

Changes made for rpy3:
- `from random import random, choice, seed` replaced by local functions of
  those names drawing from a prebuilt instance of a small 32-bit xorshift
  generator class (so the points differ from CPython's);
- `from copy import copy` replaced by a local `copy(point)` returning a new
  Point with the same x, y and group;
- `import time` dropped; main()'s benchmark loop (10 x 20 clusterings of
  6000 points into 20 clusters, seeds 0..19, timed, printing the EPS only
  when i == 319, which it never reached) became main(npoints, k, count):
  `count` clusterings (seeds 0..count-1) of npoints points into k clusters,
  printing the EPS of the last one; `entry_point(argv)` reads the three
  numbers from argv (the module-level `main()` call is gone).
"""

# rpy3-args: 2000 8 1
# rpy3-args: 500 5 3
# rpy3-stress-args: 500 5 3

# http://rosettacode.org/wiki/K-means%2B%2B_clustering

from math import pi, sin, cos

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


def choice(seq):
    return seq[int(_rng.random() * len(seq))]


def seed(n):
    _rng.seed(n)


def copy(point):
    """Local stand-in for copy.copy on a Point."""
    return Point(point.x, point.y, point.group)

FLOAT_MAX = 1e100


class Point:
    __slots__ = ["x", "y", "group"]
    def __init__(self, x=0.0, y=0.0, group=0):
        self.x, self.y, self.group = x, y, group


def generate_points(npoints, radius):
    points = [Point() for _ in range(npoints)]

    # note: this is not a uniform 2-d distribution
    for p in points:
        r = random() * radius
        ang = random() * 2 * pi
        p.x = r * cos(ang)
        p.y = r * sin(ang)

    return points

def sqr_distance_2D(a, b):
    return (a.x - b.x) ** 2  +  (a.y - b.y) ** 2

def nearest_cluster_center(point, cluster_centers):
    """Distance and index of the closest cluster center"""

    min_index = point.group
    min_dist = FLOAT_MAX

    for i, cc in enumerate(cluster_centers):
        d = sqr_distance_2D(cc, point)
        if min_dist > d:
            min_dist = d
            min_index = i

    return (min_index, min_dist)


def kpp(points, cluster_centers):
    cluster_centers[0] = copy(choice(points))
    d = [0.0 for _ in range(len(points))]

    for i in range(1, len(cluster_centers)):
        sum = 0
        for j, p in enumerate(points):
            d[j] = nearest_cluster_center(p, cluster_centers[:i])[1]
            sum += d[j]

        sum *= random()

        for j, di in enumerate(d):
            sum -= di
            if sum > 0:
                continue
            cluster_centers[i] = copy(points[j])
            break

    for p in points:
        p.group = nearest_cluster_center(p, cluster_centers)[0]


def lloyd(points, nclusters):
    cluster_centers = [Point() for _ in range(nclusters)]

    # call k++ init
    kpp(points, cluster_centers)

    lenpts10 = len(points) >> 10

    changed = 0
    while True:
        # group element for centroids are used as counters
        for cc in cluster_centers:
            cc.x = 0
            cc.y = 0
            cc.group = 0

        for p in points:
            cluster_centers[p.group].group += 1
            cluster_centers[p.group].x += p.x
            cluster_centers[p.group].y += p.y

        for cc in cluster_centers:
            cc.x /= cc.group
            cc.y /= cc.group

        # find closest centroid of each PointPtr
        changed = 0
        for p in points:
            min_i = nearest_cluster_center(p, cluster_centers)[0]
            if min_i != p.group:
                changed += 1
                p.group = min_i

        # stop when 99.9% of points are good
        if changed <= lenpts10:
            break

    for i, cc in enumerate(cluster_centers):
        cc.group = i

    return cluster_centers

class Color:
    def __init__(self, r, g, b):
        self.r = r 
        self.g = g 
        self.b = b 

def print_eps(points, cluster_centers, W=400, H=400):
    colors = []
    for i in range(len(cluster_centers)):
        colors.append(Color((3 * (i + 1) % 11) / 11.0,
                            (7 * i % 11) / 11.0,
                            (9 * i % 11) / 11.0))

    max_x = max_y = -FLOAT_MAX
    min_x = min_y = FLOAT_MAX

    for p in points:
        if max_x < p.x: max_x = p.x
        if min_x > p.x: min_x = p.x
        if max_y < p.y: max_y = p.y
        if min_y > p.y: min_y = p.y

    scale = min(W / (max_x - min_x),
                H / (max_y - min_y))
    cx = (max_x + min_x) / 2
    cy = (max_y + min_y) / 2

    print("%%!PS-Adobe-3.0\n%%%%BoundingBox: -5 -5 %d %d" % (W + 10, H + 10))

    print(("/l {rlineto} def /m {rmoveto} def\n" +
           "/c { .25 sub exch .25 sub exch .5 0 360 arc fill } def\n" +
           "/s { moveto -2 0 m 2 2 l 2 -2 l -2 -2 l closepath " +
           "   gsave 1 setgray fill grestore gsave 3 setlinewidth" +
           " 1 setgray stroke grestore 0 setgray stroke }def"))

    for i, cc in enumerate(cluster_centers):
        print(("%g %g %g setrgbcolor" %
               (colors[i].r, colors[i].g, colors[i].b)))

        for p in points:
            if p.group != i:
                continue

        print(("\n0 setgray %g %g s" % ((cc.x - cx) * scale + W / 2,
                                        (cc.y - cy) * scale + H / 2)))

    print("\n%%%%EOF")


def main(npoints, k, count):
    for i in range(count):
        seed(i)

        points = generate_points(npoints, 10)
        cluster_centers = lloyd(points, k)
        if i == count - 1:
            print_eps(points, cluster_centers)


def entry_point(argv):
    npoints = 6000
    k = 20
    count = 1
    if len(argv) > 1:
        npoints = int(argv[1])
    if len(argv) > 2:
        k = int(argv[2])
    if len(argv) > 3:
        count = int(argv[3])
    main(npoints, k, count)
    return 0


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    import sys
    sys.exit(entry_point(sys.argv))
