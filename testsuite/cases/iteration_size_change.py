"""Changing the size of a dict or set while iterating over it raises
RuntimeError with CPython's message (it ran away, growing the dict)."""


def dict_grow(n):
    d = {i: i for i in range(n)}
    try:
        for k in d:
            d[k + 100] = 1
    except RuntimeError as e:
        return str(e)
    return str(len(d))


def set_grow(n):
    s = {1, 2, n}
    try:
        for x in s:
            s.add(x + 10)
    except RuntimeError as e:
        return str(e)
    return "ok"


def dict_update_values(n):
    d = {i: i for i in range(n)}
    for k in d:
        d[k] = k * 2
    for v in d.values():
        pass
    return sorted(d.items())


CASES = [(dict_grow, [3]), (dict_grow, [0]), (set_grow, [3]), (dict_update_values, [4])]
