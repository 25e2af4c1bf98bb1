"""The low-level type system ("lltype") of the ll dialect.

Low-level helpers are written in Python against these types.  Under CPython
they run directly on the emulated objects defined here (``malloc`` returns a
``_ptr`` whose fields and items are type-checked on every access); the same
functions are also flowed, annotated and rtyped by the Rust pipeline, which
reads the *type objects* below.  Their attribute names are a contract:

    Primitive      ._name   ("Signed", "Unsigned", "SignedLongLong",
                             "UnsignedLongLong", "Float", "Char", "UniChar",
                             "Bool", "Void")
    Struct/GcStruct ._name ._names ._flds ._gckind ._arrayfld ._hints
                    ._resolved (always True)
    Array/GcArray  .OF ._gckind ._hints
    Ptr            .TO
    FuncType       .ARGS (tuple) .RESULT
    (Gc)ForwardReference ._gckind ._resolved (False until .become())

``_gckind`` is "gc" or "raw".  Types are immutable and hashable.  Primitive,
Ptr, Array and FuncType compare structurally; every Struct/GcStruct
definition is a distinct type (compared by identity).  As in PyPy,
``fwd.become(S)`` turns the forward reference object itself into a struct
equal to ``S`` (same class, shared attribute dict); before that, hashing it
(or a Ptr to it) raises TypeError.

The reference for behaviour is PyPy's rpython/rtyper/lltypesystem/lltype.py;
this is a much smaller subset (no opaque types, no fixed-size arrays, no
prebuilt function pointers, no interior-pointer distinction, no free()).
"""

from rpy3.rlib.rarithmetic import r_uint

_SMIN, _SMAX, _UMOD = -2 ** 63, 2 ** 63 - 1, 2 ** 64


class LowLevelType:
    """Base of all low-level types.  Instances are immutable after __init__."""

    def __setattr__(self, name, value):
        raise AttributeError("%r is immutable (cannot set %r)" % (self, name))

    def _set(self, **attrs):
        self.__dict__.update(attrs)

    def __repr__(self):
        return self._short()


class ContainerType(LowLevelType):
    """Types of things a pointer can point to and malloc can allocate."""


# ---------------------------------------------------------------- primitives

_PRIM_DEFAULTS = {
    "Signed": 0, "Unsigned": r_uint(0), "SignedLongLong": 0,
    "UnsignedLongLong": r_uint(0), "Float": 0.0, "Char": "\x00",
    "UniChar": "\x00", "Bool": False, "Void": None,
}


class Primitive(LowLevelType):
    def __init__(self, name):
        if name not in _PRIM_DEFAULTS:
            raise TypeError("unknown primitive type %r" % (name,))
        self._set(_name=name)

    def __eq__(self, other):
        return type(other) is Primitive and other._name == self._name

    def __hash__(self):
        return hash(("Primitive", self._name))

    def _short(self):
        return self._name


Signed = Primitive("Signed")
Unsigned = Primitive("Unsigned")
SignedLongLong = Primitive("SignedLongLong")
UnsignedLongLong = Primitive("UnsignedLongLong")
Float = Primitive("Float")
Char = Primitive("Char")
UniChar = Primitive("UniChar")
Bool = Primitive("Bool")
Void = Primitive("Void")


# ------------------------------------------------------------------- structs

class Struct(ContainerType):
    """Struct(name, (fieldname, TYPE), ..., hints=None): a raw structure.

    Fields may be primitives, pointers, inlined raw Structs, and (last field
    only) an inlined raw Array, which makes the struct variable-sized.
    ``_arrayfld`` names that last field (an Array or a varsize substruct)."""

    _kind = "raw"

    def __init__(self, name, *fields, hints=None):
        what = "%s %r" % (type(self).__name__, name)
        if not isinstance(name, str):
            raise TypeError("%s: the name must be a str" % (what,))
        names, flds = [], {}
        for i, field in enumerate(fields):
            if not (isinstance(field, tuple) and len(field) == 2):
                raise TypeError("%s: field %d must be a (name, TYPE) pair, "
                                "got %r" % (what, i, field))
            fname, T = field
            if not isinstance(fname, str) or not fname.isidentifier():
                raise TypeError("%s: bad field name %r" % (what, fname))
            if fname in flds:
                raise TypeError("%s: duplicate field %r" % (what, fname))
            if fname in _RESERVED or fname.startswith("__"):
                raise TypeError("%s: field name %r is reserved" % (what, fname))
            self._check_field(what, fname, T, i, len(fields))
            names.append(fname)
            flds[fname] = T
        arrayfld = None
        if names:
            last = flds[names[-1]]
            if isinstance(last, Array) or (isinstance(last, Struct) and
                                           last._arrayfld is not None):
                arrayfld = names[-1]
        self._set(_name=name, _names=tuple(names), _flds=flds,
                  _gckind=self._kind, _arrayfld=arrayfld,
                  _hints=dict(hints or {}), _resolved=True, _ident=object())

    def _check_field(self, what, fname, T, i, n):
        where = "%s field %r" % (what, fname)
        if not isinstance(T, LowLevelType):
            raise TypeError("%s: %r is not a low-level type" % (where, T))
        if isinstance(T, ForwardReference):
            raise TypeError("%s: cannot inline %r (become() not called yet)"
                            % (where, T))
        if isinstance(T, FuncType):
            raise TypeError("%s: cannot inline %r; use Ptr(FuncType)"
                            % (where, T))
        if isinstance(T, Array):
            if T._gckind == "gc":
                raise TypeError("%s: cannot inline %r; use Ptr(GcArray)"
                                % (where, T))
            if i != n - 1:
                raise TypeError("%s: an inlined %r must be the last field"
                                % (where, T))
        if isinstance(T, Struct):
            if T._gckind == "gc":
                if self._kind != "gc":
                    raise TypeError("%s: a raw Struct cannot inline %r"
                                    % (where, T))
                if i != 0:
                    raise TypeError("%s: a GcStruct may inline a GcStruct "
                                    "(its parent) only as first field" % where)
            if T._arrayfld is not None and i != n - 1:
                raise TypeError("%s: the varsize %r must be the last field"
                                % (where, T))

    def __getattr__(self, name):
        # S.field is the type of that field (as in PyPy's lltype)
        flds = self.__dict__.get("_flds")
        if flds is not None and name in flds:
            return flds[name]
        raise AttributeError("%s has no field %r" % (self._short(), name))

    def __eq__(self, other):
        return type(other) is type(self) and other._ident is self._ident

    def __hash__(self):
        return hash(self._ident)

    def _short(self):
        return "%s %s" % (type(self).__name__, self._name)

    def __repr__(self):
        fields = ", ".join("%s: %s" % (n, self._flds[n]._short())
                           for n in self._names)
        return "<%s {%s}>" % (self._short(), fields)


class GcStruct(Struct):
    """A garbage-collected structure.  Its first field may be an inlined
    GcStruct, its parent: pointers cast up and down along that chain."""

    _kind = "gc"


def _parent_type(S):
    """The parent of struct type S (its first field, if that is an inlined
    struct of the same gc kind), or None."""
    if isinstance(S, Struct) and S._names:
        F = S._flds[S._names[0]]
        if isinstance(F, Struct) and F._gckind == S._gckind:
            return F
    return None


# -------------------------------------------------------------------- arrays

class Array(ContainerType):
    """Array(OF): a raw array, only ever inlined as the last field of a
    struct (or malloc'ed with flavor='raw').  Items are primitives, pointers
    or fixed-size raw Structs."""

    _kind = "raw"

    def __init__(self, OF, hints=None):
        what = "%s of %r" % (type(self).__name__, OF)
        if not isinstance(OF, LowLevelType):
            raise TypeError("%s: item type is not a low-level type" % what)
        if isinstance(OF, (ForwardReference, FuncType, Array)):
            raise TypeError("%s: cannot have items of that type" % what)
        if isinstance(OF, Struct) and (OF._gckind == "gc" or
                                       OF._arrayfld is not None):
            raise TypeError("%s: items may only be fixed-size raw Structs"
                            % what)
        self._set(OF=OF, _gckind=self._kind, _hints=dict(hints or {}))

    def __eq__(self, other):
        return (type(other) is type(self) and other.OF == self.OF
                and other._hints == self._hints)

    def __hash__(self):
        return hash((type(self).__name__, self.OF))

    def _short(self):
        return "%s(%s)" % (type(self).__name__, self.OF._short())


class GcArray(Array):
    """A garbage-collected array, allocated alone: malloc(GcArray(OF), n)."""

    _kind = "gc"


# --------------------------------------------------- pointers and functions

class Ptr(LowLevelType):
    def __init__(self, TO):
        if not isinstance(TO, (ContainerType, FuncType)):
            raise TypeError("Ptr(%r): can only point to a struct, array, "
                            "function type or forward reference" % (TO,))
        self._set(TO=TO)

    def __eq__(self, other):
        return type(other) is Ptr and other.TO == self.TO

    def __hash__(self):
        return hash(("Ptr", self.TO))

    def _short(self):
        return "Ptr(%s)" % (self.TO._short(),)


class FuncType(LowLevelType):
    def __init__(self, ARGS, RESULT):
        ARGS = tuple(ARGS)
        for T in ARGS + (RESULT,):
            if not isinstance(T, (Primitive, Ptr)):
                raise TypeError("FuncType: arguments and result must be "
                                "primitives or pointers, got %r" % (T,))
        self._set(ARGS=ARGS, RESULT=RESULT)

    def __eq__(self, other):
        return (type(other) is FuncType and other.ARGS == self.ARGS
                and other.RESULT == self.RESULT)

    def __hash__(self):
        return hash(("FuncType", self.ARGS, self.RESULT))

    def _short(self):
        return "Func(%s -> %s)" % (", ".join(T._short() for T in self.ARGS),
                                   self.RESULT._short())


class ForwardReference(ContainerType):
    """A placeholder for a raw struct or array type defined later, for
    recursive types.  ``fwd.become(real)`` turns this very object into a type
    equal to ``real``, so pointers built earlier as Ptr(fwd) stay valid."""

    _kind = "raw"

    def __init__(self):
        self._set(_gckind=self._kind, _resolved=False)

    def become(self, real):
        if not isinstance(real, (Struct, Array)):
            raise TypeError("%r.become(%r): can only become a struct or array"
                            % (self, real))
        if real._gckind != self._gckind:
            raise TypeError("%r.become(%r): wrong gc kind, use %s"
                            % (self, real, "GcForwardReference"
                               if real._gckind == "gc" else "ForwardReference"))
        object.__setattr__(self, "__class__", type(real))
        object.__setattr__(self, "__dict__", real.__dict__)

    def __eq__(self, other):
        return self is other

    def __hash__(self):
        raise TypeError("%r is not hashable before become()" % (self,))

    def _short(self):
        return "%s@%x" % (type(self).__name__, id(self))


class GcForwardReference(ForwardReference):
    _kind = "gc"


# ========================================================= runtime emulation

def _zero(T, n=None, parent=None, index=None):
    """A fresh zero value (or zeroed container object) of type T."""
    if isinstance(T, Struct):
        return _struct(T, n, parent, index)
    if isinstance(T, Array):
        return _array(T, n, parent, index)
    if isinstance(T, Ptr):
        return _ptr(T, None)
    return _PRIM_DEFAULTS[T._name]


class _struct:
    """A struct object: field values, inlined substructures as nested
    _structs; _parent/_parentindex link an inlined object to its container."""

    __slots__ = ("_TYPE", "_values", "_parent", "_parentindex")

    def __init__(self, T, n, parent, index):
        self._TYPE, self._parent, self._parentindex = T, parent, index
        self._values = {name: _zero(T._flds[name],
                                    n if name == T._arrayfld else None,
                                    self, name)
                        for name in T._names}


class _array:
    __slots__ = ("_TYPE", "items", "_parent", "_parentindex")

    def __init__(self, T, n, parent, index):
        self._TYPE, self._parent, self._parentindex = T, parent, index
        self.items = [_zero(T.OF, None, self, i) for i in range(n)]


def _up_link(obj):
    """The object of which obj is the parent part, or None."""
    up = obj._parent
    if (isinstance(obj, _struct) and up is not None and
            _parent_type(up._TYPE) is not None and
            obj._parentindex == up._TYPE._names[0]):
        return up
    return None


def _outermost(obj):
    """The whole object that obj is the (grand)parent part of (or obj)."""
    while obj is not None and _up_link(obj) is not None:
        obj = _up_link(obj)
    return obj


def _enforce(T, v, where):
    """Check that v is a value of low-level type T; return it normalised
    (Unsigned values become r_uint, Signed values plain int)."""
    if isinstance(T, Ptr):
        if isinstance(v, _ptr) and v._TYPE == T:
            return v
    elif T._name in ("Signed", "SignedLongLong"):
        if isinstance(v, int) and not isinstance(v, (bool, r_uint)):
            if not _SMIN <= v <= _SMAX:
                raise TypeError("%s: %d does not fit in %s" % (where, v, T))
            return int(v)
    elif T._name in ("Unsigned", "UnsignedLongLong"):
        if isinstance(v, int) and not isinstance(v, bool):
            if not 0 <= v < _UMOD:
                raise TypeError("%s: %d does not fit in %s" % (where, v, T))
            return r_uint(v)
    elif T._name == "Float":
        if isinstance(v, float):
            return v
    elif T._name == "Bool":
        if isinstance(v, bool):
            return v
    elif T._name in ("Char", "UniChar"):
        if isinstance(v, str) and len(v) == 1 and (
                T._name == "UniChar" or ord(v) < 256):
            return v
    elif v is None:  # Void
        return v
    raise TypeError("%s: expected %s, got %s %r"
                    % (where, T._short(), type(v).__name__, v))


def _check_index(A, obj, i):
    if not isinstance(i, int) or isinstance(i, bool):
        raise TypeError("%s index must be an int, got %r" % (A._short(), i))
    if not 0 <= i < len(obj.items):
        raise IndexError("%s index %d out of bounds (length %d)"
                         % (A._short(), i, len(obj.items)))
    return int(i)


def _field_path(S, name):
    """(first-field names to walk through, struct type holding `name`)."""
    path, T = [], S
    while name not in T._flds:
        P = _parent_type(T)
        if P is None:
            raise AttributeError("%s has no field %r" % (S._short(), name))
        path.append(T._names[0])
        T = P
    return path, T


class _ptr:
    """A typed pointer to an emulated object (``_obj``), or null.

    ``p.field``/``p.field = v`` on structs (fields of parent structs are
    reachable directly), ``p[i]``/``p[i] = v``/``len(p)`` on arrays.  A field
    or item that is an inlined container reads as an interior _ptr to it."""

    __slots__ = ("_TYPE", "_obj")

    def __init__(self, PTRTYPE, obj):
        object.__setattr__(self, "_TYPE", PTRTYPE)
        object.__setattr__(self, "_obj", obj)

    @property
    def _T(self):
        return self._TYPE.TO

    def _nonnull(self, what):
        if self._obj is None:
            raise RuntimeError("null pointer: cannot %s through a null %s"
                               % (what, self._TYPE._short()))
        return self._obj

    def _struct_field(self, name, what):
        S = self._TYPE.TO
        if not isinstance(S, Struct):
            raise AttributeError("%s has no field %r (not a struct)"
                                 % (S._short(), name))
        path, T = _field_path(S, name)
        obj = self._nonnull("%s field %r of %s" % (what, name, S._short()))
        for f in path:
            obj = obj._values[f]
        return obj, T

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        obj, T = self._struct_field(name, "read")
        FT, v = T._flds[name], obj._values[name]
        return _ptr(Ptr(FT), v) if isinstance(FT, ContainerType) else v

    def __setattr__(self, name, value):
        if name in _RESERVED:
            raise AttributeError("_ptr.%s is read-only" % (name,))
        obj, T = self._struct_field(name, "write")
        FT = T._flds[name]
        where = "%s field %r" % (T._short(), name)
        if isinstance(FT, ContainerType):
            raise TypeError("%s is an inlined %s; assign to its fields or "
                            "items instead" % (where, FT._short()))
        obj._values[name] = _enforce(FT, value, where)

    def _array_obj(self, what):
        A = self._TYPE.TO
        if not isinstance(A, Array):
            raise TypeError("cannot %s a %s (not an array)"
                            % (what, self._TYPE._short()))
        return A, self._nonnull(what)

    def __getitem__(self, i):
        A, obj = self._array_obj("index")
        v = obj.items[_check_index(A, obj, i)]
        return _ptr(Ptr(A.OF), v) if isinstance(A.OF, ContainerType) else v

    def __setitem__(self, i, value):
        A, obj = self._array_obj("index")
        where = "%s item %r" % (A._short(), i)
        if isinstance(A.OF, ContainerType):
            raise TypeError("%s is an inlined %s; assign to its fields "
                            "instead" % (where, A.OF._short()))
        i = _check_index(A, obj, i)
        obj.items[i] = _enforce(A.OF, value, where)

    def __len__(self):
        return len(self._array_obj("take len() of")[1].items)

    def __bool__(self):
        return self._obj is not None

    def __copy__(self):           # a pointer is an immutable value
        return self

    def __deepcopy__(self, memo):
        return self

    def __eq__(self, other):
        if not isinstance(other, _ptr):
            return NotImplemented
        if _cast_kind(self._TYPE.TO, other._TYPE.TO) is None:
            raise TypeError("comparing pointers of unrelated types %s and %s"
                            % (self._TYPE._short(), other._TYPE._short()))
        return _outermost(self._obj) is _outermost(other._obj)

    def __hash__(self):
        return hash(id(_outermost(self._obj)))

    def __repr__(self):
        if self._obj is None:
            return "<null %s>" % (self._TYPE._short(),)
        return "<%s to 0x%x>" % (self._TYPE._short(), id(self._obj))


_RESERVED = frozenset(["_TYPE", "_obj", "_T"] +
                      [n for n in vars(_ptr) if not n.startswith("__")])


# ---------------------------------------------------------------- operations

def malloc(T, n=None, flavor="gc", zero=True):
    """A pointer to a fresh, zero-filled object of type T (a struct or an
    array).  Arrays and varsize structs need the length n.  flavor is 'gc'
    for GcStruct/GcArray and 'raw' for Struct/Array.  Memory is always
    zeroed (``zero`` is accepted for compatibility)."""
    if not isinstance(T, (Struct, Array)):
        raise TypeError("malloc: cannot allocate %r (not a struct or array "
                        "type, or a forward reference not resolved)" % (T,))
    if flavor not in ("gc", "raw") or (flavor == "gc") != (T._gckind == "gc"):
        raise TypeError("malloc: %s needs flavor=%r, not %r"
                        % (T._short(), T._gckind, flavor))
    if isinstance(T, Array) or T._arrayfld is not None:
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError("malloc: %s is variable-sized, the length n is "
                            "required (got %r)" % (T._short(), n))
        if n < 0:
            raise ValueError("malloc: negative length %d for %s"
                             % (n, T._short()))
        n = int(n)
    elif n is not None:
        raise TypeError("malloc: %s is fixed-size, no length allowed"
                        % (T._short(),))
    return _ptr(Ptr(T), _zero(T, n))


def nullptr(T):
    """The null pointer of type Ptr(T)."""
    return _ptr(Ptr(T), None)


def _case_mapped(mapped, k):
    if 0 <= k < len(mapped):
        return ord(mapped[k])
    return -1


def unichar_upper(c, k):
    """Code point `k` of the full upper-case mapping of the UniChar `c`
    (which may be several characters long: 'ß' is 'SS'), or -1 past its
    end: the `unichar_upper` operation."""
    return _case_mapped(c.upper(), k)


def unichar_lower(c, k):
    """Code point `k` of the full lower-case mapping of `c` (without the
    context of a final sigma), or -1 past its end: `unichar_lower`."""
    return _case_mapped(c.lower(), k)


def unichar_title(c, k):
    """Code point `k` of the full title-case mapping of `c`, or -1 past
    its end: `unichar_title`."""
    return _case_mapped(c.title(), k)


def unichar_casefold(c, k):
    """Code point `k` of the full case folding of `c`, or -1 past its
    end: `unichar_casefold`."""
    return _case_mapped(c.casefold(), k)


def _cast_kind(FROM, TO):
    """'same', 'up' (TO is an ancestor of FROM), 'down' or None."""
    if FROM == TO:
        return "same"
    for A, B, kind in ((FROM, TO, "up"), (TO, FROM, "down")):
        P = _parent_type(A)
        while P is not None:
            if P == B:
                return kind
            P = _parent_type(P)
    return None


def cast_pointer(PTRTYPE, ptr):
    """Cast ptr up or down its chain of parent structs to PTRTYPE.  A downcast
    checks that the object really is an instance; null stays null."""
    if not isinstance(PTRTYPE, Ptr) or not isinstance(ptr, _ptr):
        raise TypeError("cast_pointer(%r, %r): expects a Ptr type and a "
                        "pointer" % (PTRTYPE, ptr))
    TO = PTRTYPE.TO
    kind = _cast_kind(ptr._TYPE.TO, TO)
    if kind is None:
        raise TypeError("cast_pointer: cannot cast %s to %s (unrelated types)"
                        % (ptr._TYPE._short(), PTRTYPE._short()))
    obj = ptr._obj
    if obj is not None and kind == "up":
        while obj._TYPE != TO:
            obj = obj._values[obj._TYPE._names[0]]
    elif obj is not None and kind == "down":
        while obj._TYPE != TO:
            up = _up_link(obj)
            if up is None:
                raise TypeError("cast_pointer: the object is a %s, not an "
                                "instance of %s" % (
                                    _outermost(ptr._obj)._TYPE._short(),
                                    TO._short()))
            obj = up
    return _ptr(PTRTYPE, obj)


def typeOf(val):
    """The low-level type of a value."""
    if isinstance(val, (_ptr, _struct, _array)):
        return val._TYPE
    if val is None:
        return Void
    if isinstance(val, bool):
        return Bool
    if isinstance(val, r_uint):
        return Unsigned
    if isinstance(val, int):
        if not _SMIN <= val <= _SMAX:
            raise OverflowError("typeOf: %d does not fit in Signed" % (val,))
        return Signed
    if isinstance(val, float):
        return Float
    if isinstance(val, str) and len(val) == 1:
        return UniChar
    raise TypeError("typeOf: %r (%s) has no low-level type"
                    % (val, type(val).__name__))


# The property flags of `unichar_props`: bit values, named after the str
# method each answers for a one-character string (CASED and
# CASE_IGNORABLE are Unicode's derived properties, which str.lower() uses
# for the final sigma).
UNICHAR_FLAGS = [
    ("ISALPHA", 1), ("ISDECIMAL", 2), ("ISDIGIT", 4), ("ISNUMERIC", 8),
    ("ISSPACE", 16), ("ISLOWER", 32), ("ISUPPER", 64), ("ISTITLE", 128),
    ("ISPRINTABLE", 256), ("CASED", 512), ("CASE_IGNORABLE", 1024),
]


def _final_sigma_after(prefix):
    return (prefix + "\u03a3").lower()[-1] == "\u03c2"


def _unichar_flags(c):
    import unicodedata
    f = 0
    for bit, test in ((1, c.isalpha()), (2, c.isdecimal()), (4, c.isdigit()),
                      (8, c.isnumeric()), (16, c.isspace()), (32, c.islower()),
                      (64, c.isupper()),
                      (128, unicodedata.category(c) == "Lt"),
                      (256, c.isprintable())):
        if test:
            f |= bit
    # Σ lowers to ς after a cased letter, skipping case-ignorables: a
    # case-ignorable c is skipped (final after "A" + c, not after c alone)
    after_alone = _final_sigma_after(c)
    after_cased = _final_sigma_after("A" + c)
    if after_cased and not after_alone:
        f |= 1024
    if c.islower() or c.isupper() or unicodedata.category(c) == "Lt":
        f |= 512
    return f


def unichar_props(c):
    """The property flags (UNICHAR_FLAGS) of the UniChar `c`: the
    `unichar_props` operation."""
    return _unichar_flags(c)


def float_format_char(x, spec, k):
    """Code point `k` of the magnitude of the Float `x` formatted by `spec`
    (a presentation code in the low byte, the precision plus one in bits
    8..40, the alternate form in bit 40; code 'r' is repr() and 'h' a
    precision without a type), or -1 past the end: `float_format_char`."""
    code = chr(spec & 0xff)
    p = (spec >> 8) & 0xffffffff
    alternate = "#" if (spec >> 40) & 1 else ""
    x = abs(x)
    if code == "r":
        s = format(x, alternate)
    elif code == "h":
        s = format(x, alternate + ".%d" % (p - 1))
    else:
        s = format(x, alternate + (".%d" % (p - 1) if p else "") + code)
    return ord(s[k]) if 0 <= k < len(s) else -1


def str_to_float(s):
    """The float the ASCII text in string s means (decimal, inf, nan);
    ValueError if it is not one (the str_to_float operation)."""
    text = "".join(s.chars[i] for i in range(len(s.chars)))
    if not text.isascii() or "_" in text or text != text.strip():
        raise ValueError("not a float: %r" % (text,))
    return float(text)
