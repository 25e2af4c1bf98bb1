"""`copy.copy` and `copy.deepcopy`, written in RPython: lists, dicts,
sets, tuples, the immutable values (numbers, strings, None), which are
their own copies, and instances of the program's classes (a new instance
of the same class, its __init__ not called, holding the same attribute
values, or their deep copies).

A deep copy copies each list, dict, set and instance it reaches once.
CPython's memo makes an object reached twice (or a cycle) come out as one
copy reached twice; rpy3 cannot type such a memo, so a deep copy that
reaches a mutable object a second time raises NotImplementedError rather
than give two copies where CPython gives one."""

from rpy3.rlib.objectmodel import (specialize, copy_instance,
                                   deepcopy_fields, deepcopy_items,
                                   is_fixed_tuple, is_atomic)


@specialize.argtype(0)
def copy(x):
    """copy.copy(x)"""
    # the immutable values are their own copies (decided when
    # translating: x has one type per specialisation)
    if is_atomic(x):
        return x
    if x is None:
        return x
    if isinstance(x, list):
        return x[:]
    if isinstance(x, dict):
        return x.copy()
    if isinstance(x, set):
        return set(x)
    if isinstance(x, tuple):
        return x
    return copy_instance(x)


@specialize.argtype(0)
def deepcopy(x):
    """copy.deepcopy(x)"""
    memo = {}
    return _deepcopy(x, memo)


@specialize.argtype(0)
def _reached(x, memo):
    key = id(x)
    if key in memo:
        raise NotImplementedError(
            "rpy3: copy.deepcopy() reached the same object twice (a shared "
            "or cyclic structure); CPython's deep copy would share its copy")
    memo[key] = None


@specialize.argtype(0)
def _deepcopy(x, memo):
    if is_atomic(x):
        return x
    if x is None:
        return x
    if isinstance(x, list):
        _reached(x, memo)
        out = []
        for item in x:
            out.append(_deepcopy(item, memo))
        return out
    if isinstance(x, dict):
        _reached(x, memo)
        d = {}
        for k, v in x.items():
            d[_deepcopy(k, memo)] = _deepcopy(v, memo)
        return d
    if isinstance(x, set):
        _reached(x, memo)
        s = set()
        for item in x:
            s.add(item)
        return s
    if isinstance(x, tuple):
        if is_fixed_tuple(x):
            return deepcopy_items(x, _deepcopy, memo)
        return tuple([_deepcopy(item, memo) for item in x])
    _reached(x, memo)
    new = copy_instance(x)
    deepcopy_fields(new, _deepcopy, memo)
    return new
