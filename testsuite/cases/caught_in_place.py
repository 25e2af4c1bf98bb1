"""Exceptions raised by built-in operations written directly in a `try`
block are caught there (the operation's helper raises, not the reads and
allocations after it); the text of an OSError made with one argument."""


def popitem_empty(n):
    d = {}
    if n > 5:
        d[n] = n
    try:
        k, v = d.popitem()
        return k + v
    except KeyError:
        return -1


def set_pop_empty(n):
    s = set()
    if n > 5:
        s.add(n)
    try:
        return s.pop()
    except KeyError:
        return -1


def partition_empty(sep):
    try:
        a, b, c = "a b".partition(sep)
        return a + "|" + c
    except ValueError as e:
        return "ValueError: " + str(e)


def bytearray_range(v):
    b = bytearray(b"abc")
    try:
        b[0] = v
        return b[0]
    except ValueError:
        return -1


def os_error_text(n):
    try:
        raise OSError("disk %d" % n)
    except OSError as e:
        return str(e)


CASES = [
    (popitem_empty, [0]),
    (popitem_empty, [7]),
    (set_pop_empty, [0]),
    (set_pop_empty, [9]),
    (partition_empty, [""]),
    (partition_empty, [" "]),
    (bytearray_range, [256]),
    (bytearray_range, [65]),
    (os_error_text, [3]),
]
