"""dijkstra2: bidirectional Dijkstra search on an n x n grid graph with
random edge weights 1..3.

Source: shedskin/shedskin, examples/dijkstra2/dijkstra2.py (mostly copied
from NetworkX).
Licence: LGPL 2.1 or later (NetworkX's, as the original docstring below
says).

Changes made for rpy3:
- `import heapq` replaced by a local prebuilt instance `heapq` of a small
  class with heappush and heappop, implemented with the same
  sift-down/sift-up algorithm as CPython's heapq;
- `import random` replaced by a local prebuilt instance `random` of a small
  32-bit xorshift generator class with `seed` and `randint` (so
  the weights differ from CPython's);
- `import time` dropped; the `__main__` benchmark loop (10 x 5 searches on
  a 200 x 200 grid, timed) became `entry_point(argv)`: it runs `count`
  searches (seeds 0..count-1) on an n x n grid, n and count from argv, and
  prints 'wt' and the path weight for each, as the original did.

Original docstring:

bidirectional dijkstra/search algorithm, mostly copied from NetworkX:

http://networkx.lanl.gov/

NetworkX is free software; you can redistribute it and/or modify it under the terms of the LGPL (GNU Lesser General Public License) as published by the Free Software Foundation; either version 2.1 of the License, or (at your option) any later version. Please see the license for more information.

"""

# rpy3-args: 40 3
# rpy3-args: 80
# rpy3-stress-args: 10 1

import sys


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


random = _Random()


class _Heapq(object):
    """Local stand-in for the heapq module (heappush, heappop), with the
    same sift-down/sift-up algorithm."""

    def heappush(self, heap, item):
        heap.append(item)
        self._siftdown(heap, 0, len(heap) - 1)

    def heappop(self, heap):
        lastelt = heap.pop()
        if heap:
            returnitem = heap[0]
            heap[0] = lastelt
            self._siftup(heap, 0)
            return returnitem
        return lastelt

    def _siftdown(self, heap, startpos, pos):
        newitem = heap[pos]
        while pos > startpos:
            parentpos = (pos - 1) >> 1
            parent = heap[parentpos]
            if newitem < parent:
                heap[pos] = parent
                pos = parentpos
                continue
            break
        heap[pos] = newitem

    def _siftup(self, heap, pos):
        endpos = len(heap)
        startpos = pos
        newitem = heap[pos]
        childpos = 2 * pos + 1
        while childpos < endpos:
            rightpos = childpos + 1
            if rightpos < endpos and not heap[childpos] < heap[rightpos]:
                childpos = rightpos
            heap[pos] = heap[childpos]
            pos = childpos
            childpos = 2 * pos + 1
        heap[pos] = newitem
        self._siftdown(heap, startpos, pos)


heapq = _Heapq()

class Graph:
    def __init__(self):
        self.vertices = {}

    def add_edge(self, a, b, weight):
        for id_ in (a, b):
            if id_ not in self.vertices:
                self.vertices[id_] = Vertex(id_)
        va, vb = self.vertices[a], self.vertices[b]
        va.neighs.append((vb, weight))
        vb.neighs.append((va, weight))


class Vertex:
    def __init__(self, id_):
        self.id_ = id_
        self.neighs = []

#    def __repr__(self):
#        return repr(self.id_)

    def __lt__(self, other):
        return self.id_ < other.id_


def bidirectional_dijkstra(G, source_id, target_id):
    source, target = G.vertices[source_id], G.vertices[target_id]
    if source == target: return (0.0, [source])
    #Init:   Forward             Backward
    dists =  [{},                {}]# dictionary of final distances
    paths =  [{source:[source]}, {target:[target]}] # dictionary of paths
    fringe = [[],                []] #heap of (distance, node) tuples for extracting next node to expand
    seen =   [{source:0.0},        {target:0.0} ]#dictionary of distances to nodes seen
    #initialize fringe heap
    heapq.heappush(fringe[0], (0.0, source))
    heapq.heappush(fringe[1], (0.0, target))
    #variables to hold shortest discovered path
    #finaldist = 1e30000
    finalpath = []
    dir = 1
    while fringe[0] and fringe[1]:
        # choose direction
        # dir == 0 is forward direction and dir == 1 is back
        dir = 1-dir
        # extract closest to expand
        (dist, v) = heapq.heappop(fringe[dir])
        if v in dists[dir]:
            # Shortest path to v has already been found
            continue
        # update distance
        dists[dir][v] = dist #equal to seen[dir][v]
        if v in dists[1-dir]:
            # if we have scanned v in both directions we are done
            # we have now discovered the shortest path
            return (finaldist,finalpath)
        for w, weight in v.neighs:
            vwLength = dists[dir][v] + weight
            if w in dists[dir]:
                pass
            elif w not in seen[dir] or vwLength < seen[dir][w]:
                # relaxing
                seen[dir][w] = vwLength
                heapq.heappush(fringe[dir], (vwLength,w))
                paths[dir][w] = paths[dir][v]+[w]
                if w in seen[0] and w in seen[1]:
                    #see if this path is better than than the already
                    #discovered shortest path
                    totaldist = seen[0][w] + seen[1][w]
                    if finalpath == [] or finaldist > totaldist:
                        finaldist = totaldist
                        revpath = paths[1][w][:]
                        revpath.reverse()
                        finalpath = paths[0][w] + revpath[1:]
    return None

def make_graph(n):
    G = Graph()
    dirs = [(-1,0), (1,0), (0,1), (0,-1)]
    for u in range(n):
        for v in range(n):
            for dir in dirs:
                x, y = u+dir[0], v+dir[1]
                if 0 <= x < n and 0 <= y < n:
                    G.add_edge((u,v), (x, y), random.randint(1,3))
    return G

def entry_point(argv):
    n = 200
    count = 1
    if len(argv) > 1:
        n = int(argv[1])
    if len(argv) > 2:
        count = int(argv[2])
    for d in range(count):
        random.seed(d)
        G = make_graph(n)
        wt, nodes = bidirectional_dijkstra(G, (0,0), (n-1,n-1))
        print('wt', wt)
    return 0


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    sys.exit(entry_point(sys.argv))
