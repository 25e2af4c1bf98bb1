# rpy3-args: 300
"""A make-like build system: parses a rule file, topologically sorts targets
(Kahn and DFS with cycle detection), simulates timestamps and rebuilds, and
computes a union-find Kruskal MST over a module-distance graph.

Source: written for rpy3's own test suite (2026-11), not a port; it tries rpy3 on a program written the way a Python programmer who knows RPython's rules writes one. Changed after it was written, to get past a construct rpy3 then refused: counts are summed from the lists' lengths (not `chain.from_iterable`/`chain(*lists)`).
"""
import sys
from collections import deque, defaultdict
from itertools import combinations, chain, groupby


RULES = """
# target : deps | command
app: main.o util.o net.o libcore.a | link
main.o: main.c util.h config.h | cc
util.o: util.c util.h | cc
net.o: net.c net.h util.h | cc
libcore.a: core1.o core2.o | ar
core1.o: core1.c core.h | cc
core2.o: core2.c core.h config.h | cc
config.h: config.in | configure
docs: app README | doc
test: app testdata | runtests
"""


class BuildError(Exception):
    pass


class CycleError(BuildError):
    def __init__(self, cycle):
        BuildError.__init__(self, "cycle: " + " -> ".join(cycle))
        self.cycle = cycle


class Rule:
    def __init__(self, target, deps, command):
        self.target = target
        self.deps = deps
        self.command = command

    def __repr__(self):
        return "Rule(%r, %r, %r)" % (self.target, self.deps, self.command)


def parse_rules(text):
    rules = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        head, sep, command = line.partition("|")
        if not sep:
            raise BuildError("line %d: missing command" % lineno)
        target, colon, deps = head.partition(":")
        if not colon:
            raise BuildError("line %d: missing ':'" % lineno)
        target = target.strip()
        if target in rules:
            raise BuildError("line %d: duplicate target %s" % (lineno, target))
        rules[target] = Rule(target, deps.split(), command.strip())
    return rules


def all_nodes(rules):
    nodes = set(rules.keys())
    for r in rules.values():
        nodes.update(r.deps)
    return sorted(nodes)


def kahn_order(rules):
    nodes = all_nodes(rules)
    indeg = {n: 0 for n in nodes}
    users = defaultdict(list)
    for r in rules.values():
        for d in r.deps:
            indeg[r.target] += 1
            users[d].append(r.target)
    ready = deque(sorted([n for n in nodes if indeg[n] == 0]))
    order = []
    while ready:
        n = ready.popleft()
        order.append(n)
        for u in sorted(users[n]):
            indeg[u] -= 1
            if indeg[u] == 0:
                ready.append(u)
    if len(order) != len(nodes):
        stuck = [n for n in nodes if indeg[n] > 0]
        raise BuildError("unsortable: " + ",".join(stuck))
    return order


def dfs_order(rules, goal):
    WHITE, GREY, BLACK = 0, 1, 2
    color = {}
    order = []
    path = []

    def visit(n):
        c = color.get(n, WHITE)
        if c == BLACK:
            return
        if c == GREY:
            i = path.index(n)
            raise CycleError(path[i:] + [n])
        color[n] = GREY
        path.append(n)
        rule = rules.get(n)
        if rule is not None:
            for d in rule.deps:
                visit(d)
        path.pop()
        color[n] = BLACK
        order.append(n)

    visit(goal)
    return order


class Builder:
    def __init__(self, rules, stamps):
        self.rules = rules
        self.stamps = stamps
        self.clock = max(stamps.values()) + 1
        self.ran = []

    def build(self, goal):
        for n in dfs_order(self.rules, goal):
            rule = self.rules.get(n)
            if rule is None:
                if n not in self.stamps:
                    raise BuildError("no rule to make %s" % n)
                continue
            newest = max([self.stamps[d] for d in rule.deps]) if rule.deps else 0
            mine = self.stamps.get(n, -1)
            if mine < newest:
                self.stamps[n] = self.clock
                self.clock += 1
                self.ran.append("%s(%s)" % (rule.command, n))
        return list(self.ran)


class DisjointSet:
    def __init__(self, n):
        self.parent = list(range(n))
        self.rank = [0] * n
        self.sets = n

    def find(self, x):
        root = x
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[x] != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        if self.rank[ra] < self.rank[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        if self.rank[ra] == self.rank[rb]:
            self.rank[ra] += 1
        self.sets -= 1
        return True


def kruskal(n, edges):
    ds = DisjointSet(n)
    tree = []
    total = 0
    for w, a, b in sorted(edges):
        if ds.union(a, b):
            tree.append((a, b, w))
            total += w
    return total, tree, ds.sets


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 100
    rules = parse_rules(RULES)
    print("targets:", sorted(rules))
    order = kahn_order(rules)
    print("kahn:", " ".join(order))
    print("dfs(app):", " ".join(dfs_order(rules, "app")))
    sources = [x for x in all_nodes(rules) if x not in rules]
    stamps = {s: i + 1 for i, s in enumerate(sources)}
    b = Builder(rules, stamps)
    print("first build:", b.build("test"))
    b.ran = []
    print("no-op build:", b.build("test"))
    b.ran = []
    b.stamps["config.in"] = b.clock
    b.clock += 1
    print("after touching config.in:", b.build("docs"))
    bad = dict(rules)
    bad["config.in"] = Rule("config.in", ["app"], "weird")
    try:
        dfs_order(bad, "test")
    except CycleError as e:
        print("error:", e, "len", len(e.cycle))
    try:
        kahn_order(bad)
    except BuildError as e:
        print("error:", e)
    for txt in ["a b | c", "x: y", "a: b | c\na: d | e"]:
        try:
            parse_rules(txt)
        except BuildError as e:
            print("parse error:", e)
    missing = dict(rules)
    del missing["config.h"]
    try:
        Builder(missing, {"main.c": 1}).build("main.o")
    except BuildError as e:
        print("error:", e)
    # group targets by command with itertools.groupby
    by_cmd = sorted(rules.values(), key=lambda r: r.command)
    for cmd, grp in groupby(by_cmd, key=lambda r: r.command):
        print("  %-10s %s" % (cmd, sorted([r.target for r in grp])))
    print("all deps:", sum([len(r.deps) for r in rules.values()]))
    # MST over pseudo-random module distances
    pts = []
    x = 17
    for i in range(n):
        x = (x * 69069 + 1) & 0xFFFFFFFF
        pts.append(((x >> 8) % 1000, (x >> 20) % 1000))
    edges = []
    for i, j in combinations(range(n), 2):
        (ax, ay), (bx, by) = pts[i], pts[j]
        d = (ax - bx) * (ax - bx) + (ay - by) * (ay - by)
        if d < 40000:
            edges.append((d, i, j))
    total, tree, comps = kruskal(n, edges)
    print("mst: %d edges considered, %d used, weight %d, components %d" % (len(edges), len(tree), total, comps))
    print("heaviest tree edges:", sorted(tree, key=lambda t: -t[2])[:3])
    return 0


def entry_point(argv):
    return main(argv)


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    sys.exit(entry_point(sys.argv))
