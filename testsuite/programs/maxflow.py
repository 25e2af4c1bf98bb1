# rpy3-args: 60
"""Max-flow (Edmonds-Karp) and min-cost flow (successive shortest paths with
Bellman-Ford) on generated networks; also min cut extraction.

Source: written for rpy3's own test suite (2026-11), not a port; it tries rpy3 on a program written the way a Python programmer who knows RPython's rules writes one. Changed after it was written, to get past a construct rpy3 then refused: the random generator is a 31-bit LCG (a 64-bit mask does not fit a machine word).
"""
import sys
from collections import deque

INF = 1 << 60


class Edge:
    __slots__ = ("to", "cap", "cost", "rev", "flow")

    def __init__(self, to, cap, cost, rev):
        self.to = to
        self.cap = cap
        self.cost = cost
        self.rev = rev
        self.flow = 0

    @property
    def residual(self):
        return self.cap - self.flow


class FlowNetwork:
    def __init__(self, n):
        self.n = n
        self.adj = [[] for _ in range(n)]
        self.edge_count = 0

    def add_edge(self, u, v, cap, cost=0):
        fwd = Edge(v, cap, cost, len(self.adj[v]))
        back = Edge(u, 0, -cost, len(self.adj[u]))
        self.adj[u].append(fwd)
        self.adj[v].append(back)
        self.edge_count += 1

    def reset(self):
        for lst in self.adj:
            for e in lst:
                e.flow = 0

    def bfs_path(self, s, t):
        parent = [None] * self.n
        parent_edge = [-1] * self.n
        seen = [False] * self.n
        seen[s] = True
        q = deque([s])
        while q:
            u = q.popleft()
            for idx, e in enumerate(self.adj[u]):
                if not seen[e.to] and e.residual > 0:
                    seen[e.to] = True
                    parent[e.to] = u
                    parent_edge[e.to] = idx
                    if e.to == t:
                        return parent, parent_edge
                    q.append(e.to)
        return None

    def max_flow(self, s, t):
        total = 0
        augmentations = 0
        while True:
            found = self.bfs_path(s, t)
            if found is None:
                break
            parent, parent_edge = found
            # bottleneck
            push = INF
            v = t
            while v != s:
                u = parent[v]
                assert u is not None
                push = min(push, self.adj[u][parent_edge[v]].residual)
                v = u
            v = t
            while v != s:
                u = parent[v]
                assert u is not None
                e = self.adj[u][parent_edge[v]]
                e.flow += push
                self.adj[v][e.rev].flow -= push
                v = u
            total += push
            augmentations += 1
        return total, augmentations

    def min_cut(self, s):
        seen = set([s])
        stack = [s]
        while stack:
            u = stack.pop()
            for e in self.adj[u]:
                if e.residual > 0 and e.to not in seen:
                    seen.add(e.to)
                    stack.append(e.to)
        cut = []
        for u in sorted(seen):
            for e in self.adj[u]:
                if e.cap > 0 and e.to not in seen:
                    cut.append((u, e.to, e.cap))
        return cut

    def min_cost_flow(self, s, t, want):
        flow = 0
        cost = 0
        while flow < want:
            dist = [INF] * self.n
            in_queue = [False] * self.n
            prev = [(-1, -1)] * self.n
            dist[s] = 0
            q = deque()
            q.append(s)
            while q:
                u = q.popleft()
                in_queue[u] = False
                for i, e in enumerate(self.adj[u]):
                    if e.residual > 0 and dist[u] + e.cost < dist[e.to]:
                        dist[e.to] = dist[u] + e.cost
                        prev[e.to] = (u, i)
                        if not in_queue[e.to]:
                            in_queue[e.to] = True
                            q.append(e.to)
            if dist[t] == INF:
                break
            push = want - flow
            v = t
            while v != s:
                u, i = prev[v]
                push = min(push, self.adj[u][i].residual)
                v = u
            v = t
            while v != s:
                u, i = prev[v]
                e = self.adj[u][i]
                e.flow += push
                self.adj[v][e.rev].flow -= push
                v = u
            flow += push
            cost += push * dist[t]
        return flow, cost


class LCG:
    def __init__(self, seed):
        self.state = seed

    def next(self, bound):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % bound


def layered_network(layers, width, rng):
    n = layers * width + 2
    net = FlowNetwork(n)
    s = n - 2
    t = n - 1
    for j in range(width):
        net.add_edge(s, j, 10 + rng.next(40), rng.next(5))
        net.add_edge((layers - 1) * width + j, t, 10 + rng.next(40), rng.next(5))
    for layer in range(layers - 1):
        for j in range(width):
            u = layer * width + j
            for k in range(3):
                v = (layer + 1) * width + rng.next(width)
                net.add_edge(u, v, 1 + rng.next(25), 1 + rng.next(9))
    return net, s, t


def bipartite_matching(left, right, pairs):
    net = FlowNetwork(left + right + 2)
    s = left + right
    t = s + 1
    for i in range(left):
        net.add_edge(s, i, 1)
    for j in range(right):
        net.add_edge(left + j, t, 1)
    for (i, j) in pairs:
        net.add_edge(i, left + j, 1)
    flow, _ = net.max_flow(s, t)
    match = []
    for i in range(left):
        for e in net.adj[i]:
            if e.cap == 1 and e.flow == 1:
                match.append((i, e.to - left))
    return flow, match


def main(argv):
    size = int(argv[1]) if len(argv) > 1 else 30
    rng = LCG(2024)
    # classic CLRS example
    clrs = FlowNetwork(6)
    for u, v, c in [(0, 1, 16), (0, 2, 13), (1, 2, 10), (2, 1, 4), (1, 3, 12),
                    (3, 2, 9), (2, 4, 14), (4, 3, 7), (3, 5, 20), (4, 5, 4)]:
        clrs.add_edge(u, v, c)
    f, aug = clrs.max_flow(0, 5)
    print("CLRS max flow:", f, "augmenting paths:", aug)
    print("min cut:", clrs.min_cut(0))
    for layers in (3, 5, size // 10 + 2):
        net, s, t = layered_network(layers, size // 3 + 2, rng)
        f, aug = net.max_flow(s, t)
        cut = net.min_cut(s)
        cut_cap = sum([c for _, _, c in cut])
        net.reset()
        half = f // 2
        mf, mc = net.min_cost_flow(s, t, half)
        print("layers=%d edges=%d maxflow=%d aug=%d cut=%d(%d edges) mcf(%d)=%d cost=%d" % (
            layers, net.edge_count, f, aug, cut_cap, len(cut), half, mf, mc))
        assert cut_cap == f
    pairs = []
    for i in range(size):
        for k in range(2):
            pairs.append((i, rng.next(size)))
    flow, match = bipartite_matching(size, size, pairs)
    print("matching size %d of %d" % (flow, size))
    print("first pairs:", match[:8])
    return 0


def entry_point(argv):
    return main(argv)


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    sys.exit(entry_point(sys.argv))
