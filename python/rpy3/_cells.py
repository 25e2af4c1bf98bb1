"""Variables that nested functions assign (`nonlocal x; x += 1`, and the
`:=` of a comprehension, which binds in the enclosing function).

rpy3 passes the variables a nested function reads as values when it is
called; a variable that a nested function also assigns must instead be
shared.  Such a variable lives in a box: an instance of a class made for
that variable alone (so that each box's `value` has its own type), which
the owning function creates where CPython makes the cell (`MAKE_CELL`),
and which every function reading or assigning the variable reads and
writes through `box.value`.  The flow space asks `boxed_slots(code)`
which of a code object's variables are boxed and `box_class(code, name)`
for the class of one.

Which variables are boxed is decided by the owner: a cell variable of a
code object is boxed when a code object nested in it (at any depth,
through the functions that pass it on) stores to it.  The owner is
flowed before its nested functions (they only exist through it), so its
decision is recorded for them here.
"""

import dis
import types

# id(code) -> (code, frozenset of boxed names among its cell and free
# variables); the codes are kept alive here, so their ids stay theirs
_boxed = {}
# (id(owner code), name) -> (owner code, class)
_classes = {}


def _nested(code):
    """The code objects defined directly in `code`."""
    return [c for c in code.co_consts if isinstance(c, types.CodeType)]


def _stores(code, name):
    """Whether `code` or a code nested in it where `name` is free assigns
    (or deletes) `name`."""
    for ins in dis.get_instructions(code):
        if ins.opname in ("STORE_DEREF", "DELETE_DEREF") and ins.argval == name:
            return True
    return any(name in c.co_freevars and _stores(c, name) for c in _nested(code))


def _record(code, names):
    entry = _boxed.get(id(code))
    if entry is not None and entry[0] is code:
        names = entry[1] | names
    _boxed[id(code)] = (code, frozenset(names))


def _decide(code):
    """Decides for the cell variables of owner `code` and records the
    decision for the codes nested in it."""
    boxed = set()
    for name in code.co_cellvars:
        if any(name in c.co_freevars and _stores(c, name) for c in _nested(code)):
            boxed.add(name)
    _record(code, boxed)

    def down(c, names):
        here = {n for n in names if n in c.co_freevars}
        if here:
            _record(c, here)
        for inner in _nested(c):
            down(inner, here)

    for c in _nested(code):
        down(c, boxed)


def boxed_names(code):
    """The names of the boxed cell and free variables of `code`."""
    entry = _boxed.get(id(code))
    if entry is None or entry[0] is not code:
        _decide(code)
        entry = _boxed[id(code)]
    own = {n for n in entry[1] if n in code.co_cellvars}
    if not own and code.co_cellvars:
        # (decided as a nested code first: decide its own cells now)
        _decide(code)
        entry = _boxed[id(code)]
    # a free variable the code itself assigns is boxed whatever its owner
    # was seen to do (the owner decides the same)
    free = {n for n in code.co_freevars if _stores(code, n)}
    return entry[1] | free


def box_class(code, name):
    """The class of the box of variable `name` of owner `code`."""
    entry = _classes.get((id(code), name))
    if entry is not None and entry[0] is code:
        return entry[1]
    cls = type("cell " + name, (object,), {"__slots__": ("value",)})
    cls.__qualname__ = "%s.<cell %s>" % (code.co_qualname, name)
    cls.__module__ = __name__
    _classes[(id(code), name)] = (code, cls)
    return cls


# id(cell) -> (cell, box)
_prebuilt = {}


def prebuilt_box(cell):
    """The box standing for a real closure's cell (a function made at
    import time whose free variable a nested function assigns): one
    prebuilt box per cell, holding its current value."""
    entry = _prebuilt.get(id(cell))
    if entry is not None and entry[0] is cell:
        return entry[1]
    cls = type("cell", (object,), {})
    cls.__module__ = __name__
    box = cls()
    try:
        box.value = cell.cell_contents
    except ValueError:
        pass
    _prebuilt[id(cell)] = (cell, box)
    return box
