# rpy3-args: 120
"""Game of Life variants on a torus: rule strings (B3/S23, HighLife,
Seeds, Day&Night), generators for neighbourhoods and generations, cycle
detection with frozensets, population statistics via itertools.

Source: written for rpy3's own test suite (2026-11), not a port; it tries rpy3 on a program written the way a Python programmer who knows RPython's rules writes one. Unchanged since it was written (printing a tuple that may be None first crashed rpy3; it works now).
"""
import sys
from itertools import product, islice, count, accumulate


class Rule:
    def __init__(self, spec):
        self.spec = spec
        born, _, survive = spec.partition("/")
        if not born.startswith("B") or not survive.startswith("S"):
            raise ValueError("bad rule " + spec)
        self.born = frozenset([int(c) for c in born[1:]])
        self.survive = frozenset([int(c) for c in survive[1:]])

    def next_state(self, alive, n):
        return n in self.survive if alive else n in self.born

    def __str__(self):
        return "Rule(%s)" % self.spec


class Torus:
    OFFSETS = [(dx, dy) for dx, dy in product((-1, 0, 1), repeat=2) if (dx, dy) != (0, 0)]

    def __init__(self, w, h, cells):
        self.w = w
        self.h = h
        self.cells = set(cells)

    def wrap(self, x, y):
        return (x % self.w, y % self.h)

    def neighbours(self, cell):
        x, y = cell
        for dx, dy in Torus.OFFSETS:
            yield self.wrap(x + dx, y + dy)

    def live_count(self, cell):
        return sum(1 for nb in self.neighbours(cell) if nb in self.cells)

    def step(self, rule):
        candidates = set()
        for c in self.cells:
            candidates.add(c)
            candidates.update(self.neighbours(c))
        new = set()
        for c in candidates:
            if rule.next_state(c in self.cells, self.live_count(c)):
                new.add(c)
        return Torus(self.w, self.h, new)

    def __len__(self):
        return len(self.cells)

    def __eq__(self, other):
        return self.cells == other.cells

    def key(self):
        return frozenset(self.cells)

    def bbox(self):
        if not self.cells:
            return None
        xs = [x for x, _ in self.cells]
        ys = [y for _, y in self.cells]
        return (min(xs), min(ys), max(xs), max(ys))

    def render(self):
        rows = []
        for y in range(self.h):
            rows.append("".join(["O" if (x, y) in self.cells else "." for x in range(self.w)]))
        return rows


def generations(board, rule):
    cur = board
    while True:
        yield cur
        cur = cur.step(rule)


def find_cycle(board, rule, limit):
    seen = {}
    for gen, b in zip(count(), generations(board, rule)):
        k = b.key()
        if k in seen:
            return seen[k], gen - seen[k]
        seen[k] = gen
        if gen >= limit:
            break
    return -1, 0


def parse_pattern(rows, ox, oy):
    cells = []
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch in "O#*":
                cells.append((x + ox, y + oy))
    return cells


GLIDER = [".O.", "..O", "OOO"]
BLINKER = ["OOO"]
RPENT = [".OO", "OO.", ".O."]
REPLICATOR = ["..OOO", ".O..O", "O...O", "O..O.", "OOO.."]


def lcg_soup(w, h, density, seed):
    x = seed
    cells = []
    for yy in range(h):
        for xx in range(w):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            if (x >> 16) % 100 < density:
                cells.append((xx, yy))
    return cells


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 60
    life = Rule("B3/S23")
    high = Rule("B36/S23")
    seeds = Rule("B2/S")
    daynight = Rule("B3678/S34678")
    try:
        Rule("3/23")
    except ValueError as e:
        print("error:", e)
    g = Torus(8, 8, parse_pattern(GLIDER, 1, 1))
    for i, b in enumerate(islice(generations(g, life), 0, 5)):
        print("gen", i, "pop", len(b), "bbox", b.bbox())
    start, period = find_cycle(g, life, 100)
    print("glider on 8x8 torus: cycle starts", start, "period", period)
    print("blinker:", find_cycle(Torus(5, 5, parse_pattern(BLINKER, 1, 2)), life, 10))
    big = Torus(32, 32, parse_pattern(RPENT, 15, 15))
    pops = [len(b) for b in islice(generations(big, life), n)]
    print("r-pentomino pops: first", pops[:10], "last", pops[-3:])
    print("max pop %d at gen %d" % (max(pops), pops.index(max(pops))))
    print("running max tail:", list(accumulate(pops, max))[-3:])
    deltas = [b - a for a, b in zip(pops, pops[1:])]
    print("growth steps:", sum(1 for d in deltas if d > 0), "shrink steps:", sum(1 for d in deltas if d < 0))
    rep = Torus(24, 24, parse_pattern(REPLICATOR, 10, 10))
    for b in islice(generations(rep, high), 12, 13):
        print("highlife replicator gen 12 pop", len(b))
        for row in b.render()[6:18]:
            print("   " + row[6:18])
    for rule in (life, seeds, daynight):
        b = Torus(20, 20, lcg_soup(20, 20, 35, 99))
        final = None
        for b2 in islice(generations(b, rule), n // 3):
            final = b2
        assert final is not None
        cs, cp = find_cycle(final, rule, 40)
        print("%-20s soup pop %3d -> %3d; cycle %s" % (rule, len(b), len(final), (cs, cp)))
    empty = Torus(4, 4, [])
    bb = empty.bbox()
    print("empty bbox:", bb, "step equal:", empty.step(life) == empty)
    return 0


def entry_point(argv):
    return main(argv)


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    sys.exit(entry_point(sys.argv))
