"""What `object` gives a class of the program that defines no `__str__`
or `__repr__` while some of its subclasses do: `str(x)` of an instance
known only as the base class then dispatches on its class like any
method.  The base class gets these two (its own instances show as
`<Name object>`: CPython shows an address there, which no program can
rely on)."""


def default_repr(self):
    return "<%s object>" % type(self).__name__


def default_str(self):
    return repr(self)


def install(cls):
    """Gives `cls` the defaults it lacks (its MRO, but for `object`,
    defines neither)."""
    if "__repr__" not in cls.__dict__:
        cls.__repr__ = default_repr
    if "__str__" not in cls.__dict__:
        cls.__str__ = default_str
