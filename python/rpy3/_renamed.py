"""Classes that only rename a built-in container type.

RPython does not allow subclassing built-in types.  A subclass of `list`,
`dict` or `set` that adds nothing (`class OrderedCollection(list): pass`)
is that type under another name: rpy3 translates calling it as calling
the built-in type.  Telling its instances from the built-in type's
(`isinstance(x, OrderedCollection)`) is refused: they are the same at run
time.
"""

_BOOKKEEPING = frozenset(["__module__", "__qualname__", "__doc__", "__dict__",
                          "__weakref__"])
_RENAMABLE = (list, dict, set)


def renamed_builtin(cls):
    """The built-in type `cls` only renames, or None."""
    if not isinstance(cls, type) or cls in _RENAMABLE:
        return None
    if len(cls.__bases__) != 1 or cls.__bases__[0] not in _RENAMABLE:
        return None
    if any(name not in _BOOKKEEPING for name in cls.__dict__):
        return None
    return cls.__bases__[0]


def mentions_renamed(obj):
    """Whether `obj` (the class argument of isinstance: a class or a
    tuple of them) names a class that only renames a built-in type."""
    if isinstance(obj, tuple):
        return any(mentions_renamed(o) for o in obj)
    return renamed_builtin(obj) is not None
