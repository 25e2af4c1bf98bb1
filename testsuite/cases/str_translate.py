"""`str.translate` with tables from code points to code points, strs or
None (deleted), and `str.maketrans(x, y[, z])`."""


def maketrans_two(n):
    t = str.maketrans("abc", "xyz")
    return "aabbcc d".translate(t)


def maketrans_three(n):
    t = str.maketrans("ab", "xy", "c" * n)
    return "abcabc".translate(t)


def table_of_strs(n):
    return "hello".translate({ord("l"): "L!" * n, ord("o"): ""})


def table_deleting(n):
    return "a-b-c".translate({45: None, 97: 65 + n})


def maketrans_unequal(n):
    try:
        return str(str.maketrans("ab", "x" * n))
    except ValueError as e:
        return str(e)


CASES = [
    (maketrans_two, [0]),
    (maketrans_three, [1]),
    (maketrans_three, [0]),
    (table_of_strs, [2]),
    (table_deleting, [1]),
    (maketrans_unequal, [1]),
]
