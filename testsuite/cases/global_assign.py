"""Functions that rebind module globals (`global x; x = ...`), as older
Python programs (pystone, Shed Skin's examples) do.  RPython refuses them;
rpy3 keeps each assigned global in one prebuilt instance per module, so it
is read and written like an attribute; the names no function assigns stay
constants.  Each case starts by setting the globals it uses, since the
backends do not share one process."""

COUNT = 0
TOTAL = 0.0
BEST = None
NAME = "start"
HANDLER = None
UNSET_AT_IMPORT_TOUCHED = 0
TABLE = [0] * 4


class Item:
    def __init__(self, v):
        self.v = v


def _double(x):
    return 2 * x


def _negate(x):
    return -x


def _bump(k):
    global COUNT, TOTAL, BEST
    COUNT += k
    TOTAL = TOTAL + k / 2
    if BEST is None or k > BEST.v:
        BEST = Item(k)


def counters(n):
    global COUNT, TOTAL, BEST
    COUNT = 0
    TOTAL = 0.0
    BEST = None
    for i in range(n):
        _bump(i * 3 % 7)
    best = -1 if BEST is None else BEST.v
    return (COUNT, TOTAL, best)


def _set_name(s):
    global NAME
    NAME = s


def names(a, b):
    _set_name(a)
    first = NAME
    _set_name(first + b)
    return first + "/" + NAME


def _choose(k):
    global HANDLER
    HANDLER = _double if k % 2 == 0 else _negate


def handlers(k, x):
    _choose(k)
    return HANDLER(x)


class Counter:
    def step(self):
        global UNSET_AT_IMPORT_TOUCHED
        UNSET_AT_IMPORT_TOUCHED = UNSET_AT_IMPORT_TOUCHED + 1
        return UNSET_AT_IMPORT_TOUCHED


def method_assigns(n):
    global UNSET_AT_IMPORT_TOUCHED
    UNSET_AT_IMPORT_TOUCHED = 0
    c = Counter()
    r = 0
    for _ in range(n):
        r = c.step()
    return r


def rebind_list(n):
    global TABLE
    TABLE = [0] * 4
    for i in range(n):
        TABLE[i % 4] += i
    old = TABLE
    TABLE = TABLE + [n]
    return (old, TABLE)


CASES = [
    (counters, [0]),
    (counters, [10]),
    (names, ["a", "b"]),
    (names, ["", "xyz"]),
    (handlers, [2, 21]),
    (handlers, [3, 21]),
    (method_assigns, [5]),
    (rebind_list, [9]),
]
