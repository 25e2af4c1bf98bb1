"""Properties of the program's classes.

RPython has none.  rpy3 reads `x.name` where `name` is a property of x's
class as a call of its getter, and `x.name = v` as a call of its setter:
so that those calls dispatch like methods (a subclass may override the
property), the getter and setter are exposed on the class defining the
property as the methods `_rpy3_get_<name>` and `_rpy3_set_<name>`, which
the annotator calls.
"""

GET = "_rpy3_get_"
SET = "_rpy3_set_"


def expose(cls):
    """Adds the getter and setter methods of the properties `cls` itself
    defines (once)."""
    d = cls.__dict__
    for name, value in list(d.items()):
        if isinstance(value, property):
            if value.fget is not None and GET + name not in d:
                setattr(cls, GET + name, value.fget)
            if value.fset is not None and SET + name not in d:
                setattr(cls, SET + name, value.fset)


def find(cls, name):
    """The property `name` of `cls` (or of a base class), or None when the
    class finds something else (or nothing) under that name first."""
    for k in cls.__mro__:
        if name in k.__dict__:
            v = k.__dict__[name]
            return v if isinstance(v, property) else None
    return None
