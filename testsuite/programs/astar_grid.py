# rpy3-args: 70
"""A* and uniform-cost search on a generated weighted grid with walls,
plus jump-free path reconstruction and ASCII rendering.

Source: written for rpy3's own test suite (2026-11), not a port; it tries rpy3 on a program written the way a Python programmer who knows RPython's rules writes one. Unchanged since it was written.
"""
import sys
import heapq
import random
import math


class Grid:
    def __init__(self, w, h, seed):
        self.w = w
        self.h = h
        rnd = random.Random(seed)
        self.cost = [[1 + rnd.randint(0, 4) for _ in range(w)] for _ in range(h)]
        self.wall = [[rnd.random() < 0.22 for _ in range(w)] for _ in range(h)]
        self.wall[0][0] = False
        self.wall[h - 1][w - 1] = False

    def in_bounds(self, pos):
        x, y = pos
        return 0 <= x < self.w and 0 <= y < self.h

    def passable(self, pos):
        x, y = pos
        return not self.wall[y][x]

    def neighbors(self, pos, diagonal):
        x, y = pos
        steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
        if diagonal:
            steps = steps + [(1, 1), (1, -1), (-1, 1), (-1, -1)]
        for dx, dy in steps:
            nxt = (x + dx, y + dy)
            if self.in_bounds(nxt) and self.passable(nxt):
                yield nxt

    def step_cost(self, a, b):
        x, y = b
        base = float(self.cost[y][x])
        if a[0] != b[0] and a[1] != b[1]:
            return base * math.sqrt(2.0)
        return base


def manhattan(a, b):
    return float(abs(a[0] - b[0]) + abs(a[1] - b[1]))


def octile(a, b):
    dx = abs(a[0] - b[0])
    dy = abs(a[1] - b[1])
    return float(max(dx, dy)) + (math.sqrt(2.0) - 1.0) * min(dx, dy)


def zero(a, b):
    return 0.0


class SearchResult:
    def __init__(self, path, cost, expanded):
        self.path = path
        self.cost = cost
        self.expanded = expanded

    def __str__(self):
        if not self.path:
            return "no path (expanded %d)" % self.expanded
        return "len=%d cost=%.3f expanded=%d" % (len(self.path), self.cost, self.expanded)


def search(grid, start, goal, heuristic, diagonal):
    counter = 0
    frontier = [(heuristic(start, goal), counter, start)]
    came_from = {start: start}
    g = {start: 0.0}
    closed = set()
    expanded = 0
    while frontier:
        _, _, cur = heapq.heappop(frontier)
        if cur in closed:
            continue
        closed.add(cur)
        expanded += 1
        if cur == goal:
            break
        for nb in grid.neighbors(cur, diagonal):
            ng = g[cur] + grid.step_cost(cur, nb)
            if nb not in g or ng < g[nb]:
                g[nb] = ng
                came_from[nb] = cur
                counter += 1
                heapq.heappush(frontier, (ng + heuristic(nb, goal), counter, nb))
    if goal not in came_from:
        return SearchResult([], 0.0, expanded)
    path = [goal]
    while path[-1] != start:
        path.append(came_from[path[-1]])
    path.reverse()
    return SearchResult(path, g[goal], expanded)


def render(grid, path, limit):
    on_path = set(path)
    lines = []
    for y in range(min(grid.h, limit)):
        row = []
        for x in range(min(grid.w, limit)):
            if (x, y) in on_path:
                row.append("*")
            elif grid.wall[y][x]:
                row.append("#")
            else:
                row.append(".:-=+"[grid.cost[y][x] - 1])
        lines.append("".join(row))
    return "\n".join(lines)


def main(argv):
    size = int(argv[1]) if len(argv) > 1 else 40
    grid = Grid(size, size, 7)
    start = (0, 0)
    goal = (size - 1, size - 1)
    results = {}
    for name, h, diag in [("ucs4", zero, False), ("astar4", manhattan, False),
                          ("ucs8", zero, True), ("astar8", octile, True)]:
        r = search(grid, start, goal, h, diag)
        results[name] = r
        print("%-7s %s" % (name, r))
    same4 = abs(results["ucs4"].cost - results["astar4"].cost) < 1e-9
    same8 = abs(results["ucs8"].cost - results["astar8"].cost) < 1e-9
    print("optimal agree:", same4, same8)
    print(render(grid, results["astar8"].path, 24))
    # many random queries on a smaller grid
    small = Grid(size // 2, size // 2, 99)
    rnd = random.Random(5)
    total = 0.0
    unreachable = 0
    for q in range(size // 2):
        a = (rnd.randrange(small.w), rnd.randrange(small.h))
        b = (rnd.randrange(small.w), rnd.randrange(small.h))
        if not small.passable(a) or not small.passable(b):
            continue
        r = search(small, a, b, octile, True)
        if r.path:
            total += r.cost
        else:
            unreachable += 1
    print("query total cost %.4f unreachable %d" % (total, unreachable))
    print("repr of cost:", repr(round(total, 3)), "floor", math.floor(total))
    return 0


def entry_point(argv):
    return main(argv)


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    sys.exit(entry_point(sys.argv))
