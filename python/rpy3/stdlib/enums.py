"""`enum.Enum` classes, in RPython: an Enum class of the program stands for
a plain class made here, with the same name and the program's own methods,
whose members are prebuilt instances holding `name` and `value` (and the
attributes the Enum's `__init__` set); `str()`, `repr()`, `hash()` and
identity are CPython's.  Calling the class (`Color(1)`) looks a member up
by value (ValueError when none has it), and iterating over the class goes
over its members in definition order.

`replacement(obj)` gives the stand-in of an Enum class or member;
`lookup(cls)` the function that calls of the class become; `members(cls)`
the tuple of the members."""

import enum
import types

# id(class) -> (class, stand-in)
_classes = {}
# id(member) -> (member, stand-in)
_members = {}
# id(class) -> (class, lookup function)
_lookups = {}
_name_lookups = {}

# what an Enum class holds that is the enum machinery's, not the program's
_MACHINERY = frozenset(["__new__", "__init__", "_generate_next_value_", "_missing_",
                        "__dict__", "__weakref__", "__module__", "__qualname__",
                        "__doc__", "_member_names_", "_member_map_",
                        "_value2member_map_", "_unhashable_values_",
                        "_member_type_", "_value_repr_", "_new_member_",
                        "_use_args_", "__init_subclass__", "__format__",
                        "__reduce_ex__", "__deepcopy__", "__copy__", "__dir__",
                        "__getnewargs__"])


def is_enum_class(obj):
    return (isinstance(obj, type) and issubclass(obj, enum.Enum)
            and obj is not enum.Enum and not issubclass(obj, enum.Flag)
            and len(obj.__members__) > 0)


def _own_methods(cls):
    d = {}
    for k in reversed(cls.__mro__):
        if k in (object, enum.Enum) or not isinstance(k, type) or not issubclass(k, enum.Enum):
            continue
        for name, v in k.__dict__.items():
            if name in _MACHINERY:
                continue
            if isinstance(v, (types.FunctionType, staticmethod, classmethod, property)):
                d[name] = v
    return d


def standin_hash_name(obj):
    """The name whose hash is the hash of `obj`, an Enum member or its
    stand-in whose class keeps the stand-in's `__hash__` (hash(self.name)),
    or None for any other object."""
    if isinstance(obj, enum.Enum) and is_enum_class(type(obj)):
        obj = replacement_member(obj)
    cls = type(obj)
    if not getattr(cls, "_rpy3_enum_", False):
        return None
    h = cls.__dict__.get("__hash__")
    if h is None or getattr(h, "_rpy3_enum_hash_", False) is not True:
        return None
    return obj.name


def _standin_class(cls):
    qual = cls.__name__
    ns = {}
    src = (
        "class %s(object):\n"
        "    def __str__(self):\n"
        "        return %r + self.name\n"
        "    def __repr__(self):\n"
        "        return '<%s.' + self.name + ': ' + repr(self.value) + '>'\n"
        "    def __hash__(self):\n"
        "        return hash(self.name)\n" % (qual, qual + ".", qual))
    exec(compile(src, "<enum %s>" % qual, "exec"), ns)
    standin = ns[qual]
    standin.__hash__._rpy3_enum_hash_ = True
    for name, v in _own_methods(cls).items():
        setattr(standin, name, v)
    standin.__module__ = cls.__module__
    standin.__qualname__ = cls.__qualname__
    standin._rpy3_enum_ = True
    return standin


def replacement_class(cls):
    entry = _classes.get(id(cls))
    if entry is not None and entry[0] is cls:
        return entry[1]
    if not is_enum_class(cls):
        return None
    standin = _standin_class(cls)
    _classes[id(cls)] = (cls, standin)
    # the members, also as class attributes of the stand-in
    for m in cls:
        setattr(standin, m._name_, replacement_member(m))
    return standin


def replacement_member(m):
    entry = _members.get(id(m))
    if entry is not None and entry[0] is m:
        return entry[1]
    standin = replacement_class(type(m))
    inst = standin.__new__(standin)
    _members[id(m)] = (m, inst)
    inst.name = m._name_
    inst.value = m._value_
    for k, v in m.__dict__.items():
        if not k.startswith("_"):
            setattr(inst, k, v)
    return inst


def replacement(obj):
    """The stand-in of an Enum class or member, or None."""
    if isinstance(obj, type):
        return replacement_class(obj)
    if isinstance(obj, enum.Enum) and is_enum_class(type(obj)):
        return replacement_member(obj)
    return None


def members(cls):
    """The members of Enum class `cls`, in definition order."""
    return tuple(cls)


def lookup(cls):
    """The function a call of Enum class `cls` becomes: the member of a
    value."""
    entry = _lookups.get(id(cls))
    if entry is not None and entry[0] is cls:
        return entry[1]
    all_members = members(cls)
    message = " is not a valid " + cls.__qualname__

    def lookup_member(value):
        for m in all_members:
            if m.value == value:
                return m
        raise ValueError(repr(value) + message)

    lookup_member.__qualname__ = cls.__qualname__ + ".__call__"
    _lookups[id(cls)] = (cls, lookup_member)
    return lookup_member


def lookup_name(cls):
    """The function `cls[name]` becomes for Enum class `cls`: its member of
    that name, KeyError (of the name) when none has it."""
    entry = _name_lookups.get(id(cls))
    if entry is not None and entry[0] is cls:
        return entry[1]
    all_members = members(cls)

    def lookup_member_name(name):
        for m in all_members:
            if m.name == name:
                return m
        raise KeyError(name)

    lookup_member_name.__qualname__ = cls.__qualname__ + ".__getitem__"
    _name_lookups[id(cls)] = (cls, lookup_member_name)
    return lookup_member_name
