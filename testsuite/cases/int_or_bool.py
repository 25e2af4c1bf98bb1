"""A bool that meets an int stays a bool where it is one: `return False`
in a function that otherwise returns ints, `[0] * n` lists that get
`True` stored, `x = n > 2` later rebound to an int.  It computes as an
int everywhere, and shows (str, repr, %, f-strings, format, containers),
tests (isinstance, `is`) and returns as CPython's bool."""


def find(items, x):
    for i in range(len(items)):
        if items[i] == x:
            return i
    return False


def find_it(n):
    items = [3, 1, 4, 1, 5]
    r = find(items, n)
    return (r, str(r), isinstance(r, bool), r is False, r == 0)


def flags(n):
    l = [0] * n
    for i in range(0, n, 3):
        l[i] = True
    total = 0
    for v in l:
        total += v
    return (l, total, str(l), l.count(True), l.index(True), sorted(l), max(l), min(l))


def rebound(n):
    x = n > 2
    if n > 5:
        x = n
    d = {x: "seen"}
    return (x, x + 1, x * 2.5, -x, abs(x), x == 1, x < 3, bool(x), round(x),
            hash(x), "%s|%d|%r|%x" % (x, x, x, x), f"{x}:{x:3d}:{x!r}",
            format(x, ""), str((x, [x])), max(x, 0), min(0, x), d.get(1, "no"),
            x is True, x is not False, isinstance(x, bool), isinstance(x, int))


def kinds(n):
    values = [1, True, n, False, n > 1]
    return ([str(v) for v in values], [v + 0 for v in values],
            [isinstance(v, bool) for v in values], values)


def tally(words):
    seen = {}
    for w in words.split():
        if w in seen:
            seen[w] = seen[w] + 1
        else:
            seen[w] = True
    return sorted(seen.items())


def pick(n):
    best = False
    for i in range(n):
        if i * i > n:
            best = i
            break
    if best:
        return "found %s" % best
    return "none: %s" % best


CASES = [
    (find_it, [4]),
    (find_it, [3]),
    (find_it, [9]),
    (flags, [7]),
    (flags, [1]),
    (rebound, [1]),
    (rebound, [3]),
    (rebound, [9]),
    (kinds, [0]),
    (kinds, [5]),
    (tally, ["a b a c b a"]),
    (tally, [""]),
    (pick, [10]),
    (pick, [0]),
]
