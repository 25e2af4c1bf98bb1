"""Small features real programs use: `int.bit_count()`, a global that is a
function or None tested for truth, `lst += tup`."""


def popcounts(n):
    return [x.bit_count() for x in (n, -n, 0, 255, n * 12345)]


def debug(s):
    return len(s)


DEBUG = None


def set_debug(on):
    global DEBUG
    DEBUG = debug if on else None


def step(on, x):
    set_debug(on)
    if DEBUG:
        return DEBUG("step %d" % x)
    if not DEBUG:
        return -x
    return 0


def pairs(n):
    out = []
    for i in range(n):
        out += (i, i * i)
    out += ()
    return out


CASES = [
    (popcounts, [7]),
    (popcounts, [1000]),
    (step, [True, 3]),
    (step, [False, 3]),
    (pairs, [0]),
    (pairs, [3]),
]
