# rpy3-args: 9
"""N-queens three ways (bitmask counting, backtracking with generator of
solutions, symmetry classes) plus a small graph-colouring constraint solver
with forward checking.

Source: written for rpy3's own test suite (2026-11), not a port; it tries rpy3 on a program written the way a Python programmer who knows RPython's rules writes one. Unchanged since it was written.
"""
import sys


def count_bitmask(n):
    full = (1 << n) - 1
    count = 0
    stack = [(0, 0, 0)]
    while stack:
        cols, d1, d2 = stack.pop()
        if cols == full:
            count += 1
            continue
        avail = full & ~(cols | d1 | d2)
        while avail:
            bit = avail & -avail
            avail ^= bit
            stack.append((cols | bit, ((d1 | bit) << 1) & full, (d2 | bit) >> 1))
    return count


def solutions(n):
    placement = [0] * n
    used_cols = [False] * n
    used_d1 = [False] * (2 * n)
    used_d2 = [False] * (2 * n)

    def place(row):
        if row == n:
            yield list(placement)
            return
        for c in range(n):
            if used_cols[c] or used_d1[row + c] or used_d2[row - c + n]:
                continue
            used_cols[c] = used_d1[row + c] = used_d2[row - c + n] = True
            placement[row] = c
            for s in place(row + 1):
                yield s
            used_cols[c] = used_d1[row + c] = used_d2[row - c + n] = False

    return place(0)


def rotate(sol):
    n = len(sol)
    out = [0] * n
    for r, c in enumerate(sol):
        out[c] = n - 1 - r
    return out


def mirror(sol):
    n = len(sol)
    return [n - 1 - c for c in sol]


def canonical(sol):
    forms = []
    cur = sol
    for _ in range(4):
        forms.append(tuple(cur))
        forms.append(tuple(mirror(cur)))
        cur = rotate(cur)
    return min(forms)


def board_str(sol):
    n = len(sol)
    rows = []
    for c in sol:
        rows.append(" ".join(["Q" if i == c else "." for i in range(n)]))
    return "\n".join(rows)


class Unsatisfiable(Exception):
    pass


class ColoringProblem:
    def __init__(self, nodes, edges, colors):
        self.nodes = nodes
        self.neighbors = {}
        for v in nodes:
            self.neighbors[v] = []
        for a, b in edges:
            self.neighbors[a].append(b)
            self.neighbors[b].append(a)
        self.colors = colors
        self.nodes_tried = 0

    def solve(self):
        domains = {}
        for v in self.nodes:
            domains[v] = list(self.colors)
        assignment = {}
        result = self._search(assignment, domains)
        if result is None:
            raise Unsatisfiable("no %d-colouring" % len(self.colors))
        return result

    def _pick(self, assignment, domains):
        best = -1
        best_key = (0, 0)
        for v in self.nodes:
            if v in assignment:
                continue
            key = (len(domains[v]), -len(self.neighbors[v]))
            if best < 0 or key < best_key:
                best = v
                best_key = key
        return best

    def _search(self, assignment, domains):
        if len(assignment) == len(self.nodes):
            return dict(assignment)
        v = self._pick(assignment, domains)
        for color in domains[v]:
            self.nodes_tried += 1
            pruned = []
            ok = True
            for nb in self.neighbors[v]:
                if nb not in assignment and color in domains[nb]:
                    domains[nb].remove(color)
                    pruned.append(nb)
                    if not domains[nb]:
                        ok = False
            if ok:
                assignment[v] = color
                res = self._search(assignment, domains)
                if res is not None:
                    return res
                del assignment[v]
            for nb in pruned:
                domains[nb].append(color)
        return None


def queens_graph(n):
    nodes = list(range(n * n))
    edges = []
    for a in nodes:
        for b in nodes:
            if a < b:
                ra, ca = divmod(a, n)
                rb, cb = divmod(b, n)
                if abs(ra - rb) <= 1 and abs(ca - cb) <= 1:
                    edges.append((a, b))
    return nodes, edges


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 8
    for k in range(1, n + 1):
        print("n=%2d solutions=%d" % (k, count_bitmask(k)))
    sols = list(solutions(n))
    classes = {}
    for s in sols:
        key = canonical(s)
        classes[key] = classes.get(key, 0) + 1
    print("generator found %d, %d distinct up to symmetry" % (len(sols), len(classes)))
    sizes = sorted(classes.values())
    print("class sizes histogram:", [(sz, sizes.count(sz)) for sz in sorted(set(sizes))])
    first = min(classes.keys())
    print(board_str(list(first)))
    gen = solutions(6)
    print("first two 6-queens:", next(gen), next(gen))
    # king's graph colouring: needs 4 colours
    nodes, edges = queens_graph(n // 2 + 2)
    for k in (3, 4):
        prob = ColoringProblem(nodes, edges, ["red", "green", "blue", "gold"][:k])
        try:
            sol = prob.solve()
            used = sorted(set(sol.values()))
            print("%d colours: ok, used %s, tried %d" % (k, used, prob.nodes_tried))
            grid = [sol[v][0] for v in nodes]
            w = n // 2 + 2
            for r in range(w):
                print("   " + "".join(grid[r * w:(r + 1) * w]))
        except Unsatisfiable as e:
            print("%d colours: %s after %d tries" % (k, e, prob.nodes_tried))
    return 0


def entry_point(argv):
    return main(argv)


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    sys.exit(entry_point(sys.argv))
