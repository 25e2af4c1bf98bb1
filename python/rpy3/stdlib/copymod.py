"""`copy.copy` and `copy.deepcopy`, written in RPython, for the values
programs copy most: lists, dicts and sets (a deep copy copies the
containers inside them, at any depth), and the immutable values (numbers,
strings, tuples of them, None), which are their own copies.  Copying an
instance of the program's classes is refused: rpy3 cannot list its
fields in Python (give the class a `copy()` method)."""

from rpy3.rlib.objectmodel import specialize


def _copying_an_instance(x):
    raise TypeError("copying an instance")


# refused by the annotator when a copy reaches it (not when flowing: each
# specialisation flows this branch, which only instances reach)
_copying_an_instance._rpy3_refused_ = (
    "copy.copy() and copy.deepcopy() of an instance are not supported by rpy3 "
    "(give the class a copy() method)")


@specialize.argtype(0)
def copy(x):
    """copy.copy(x)"""
    if isinstance(x, list):
        return x[:]
    if isinstance(x, dict):
        return x.copy()
    if isinstance(x, set):
        return set(x)
    # the immutable values are their own copies (each test is decided
    # when translating: x has one type per specialisation)
    if x is None:
        return x
    if isinstance(x, int):
        return x
    if isinstance(x, float):
        return x
    if isinstance(x, str):
        return x
    if isinstance(x, bytes):
        return x
    if isinstance(x, tuple):
        return x
    return _copying_an_instance(x)


@specialize.argtype(0)
def deepcopy(x):
    """copy.deepcopy(x) (what the copies hold is not shared: a structure
    that holds one list twice gets two copies of it)"""
    if isinstance(x, list):
        out = []
        for item in x:
            out.append(deepcopy(item))
        return out
    if isinstance(x, dict):
        d = {}
        for k, v in x.items():
            d[deepcopy(k)] = deepcopy(v)
        return d
    if isinstance(x, set):
        s = set()
        for item in x:
            s.add(item)
        return s
    # the immutable values are their own copies (each test is decided
    # when translating: x has one type per specialisation)
    if x is None:
        return x
    if isinstance(x, int):
        return x
    if isinstance(x, float):
        return x
    if isinstance(x, str):
        return x
    if isinstance(x, bytes):
        return x
    if isinstance(x, tuple):
        return x
    return _copying_an_instance(x)
