"""Object-model helpers for RPython programs (the counterpart of
``rpython.rlib.objectmodel``).

Hints
    ``specialize.argtype(*n)``, ``specialize.arg(*n)``,
    ``specialize.arg_or_var(*n)``, ``specialize.memo()``,
    ``specialize.call_location()``, ``specialize.ll()`` and
    ``specialize.ll_and_arg(*n)`` return decorators that record the hint on
    the function as a string, exactly as PyPy does::

        func._annspecialcase_ == "specialize:argtype(0,1)"
        func._annspecialcase_ == "specialize:arg(0)"
        func._annspecialcase_ == "specialize:memo"
        func._annspecialcase_ == "specialize:call_location"

    and return the function itself, unchanged.  ``always_inline``,
    ``dont_inline`` and ``not_rpython`` set ``func._always_inline_ = True``,
    ``func._dont_inline_ = True`` and ``func._not_rpython_ = True``.

The ``_rpy3_translated_`` convention
    Any function in ``rpy3.rlib`` may carry an attribute
    ``_rpy3_translated_``: a callable taking the same arguments that gives
    the function's *translated* behaviour.  When rpy3's graph interpreter
    runs a program with translated semantics and meets a call to such a
    function, it calls ``func._rpy3_translated_(*args)`` instead of
    ``func(*args)``.  The function itself keeps its CPython behaviour.  For
    example ``we_are_translated()`` returns False under CPython while
    ``we_are_translated._rpy3_translated_()`` returns True.
"""

__all__ = [
    "specialize", "we_are_translated", "compute_hash",
    "compute_identity_hash", "instantiate", "r_dict", "always_inline",
    "dont_inline", "try_inline", "not_rpython",
]


# ____________________________________________________________
# specialize

class _Specialize(object):
    """Decorator factories attaching ``_annspecialcase_`` to functions."""

    @staticmethod
    def _hint(text):
        def decorated_func(func):
            func._annspecialcase_ = text
            return func
        return decorated_func

    @staticmethod
    def _wrap(args):
        return "(" + ",".join([repr(arg) for arg in args]) + ")"

    def memo(self):
        """Specialize on the values of all arguments, which must be
        constants or frozen prebuilt objects; each call is replaced by its
        precomputed result (or a look-up among the precomputed results)."""
        return self._hint("specialize:memo")

    def arg(self, *args):
        """One copy of the function per combination of the constant values
        of the arguments at the given positions."""
        return self._hint("specialize:arg" + self._wrap(args))

    def arg_or_var(self, *args):
        """Like arg(), but also allow a non-constant argument (one more,
        general, copy)."""
        return self._hint("specialize:arg_or_var" + self._wrap(args))

    def argtype(self, *args):
        """One copy of the function per combination of the types of the
        arguments at the given positions."""
        return self._hint("specialize:argtype" + self._wrap(args))

    def ll(self):
        """Like argtype() on every argument, by low-level type."""
        return self._hint("specialize:ll")

    def ll_and_arg(self, *args):
        """ll() combined with arg(*args)."""
        return self._hint("specialize:ll_and_arg" + self._wrap(args))

    def call_location(self):
        """One copy of the function per call site."""
        return self._hint("specialize:call_location")


specialize = _Specialize()


# ____________________________________________________________
# function flags

def always_inline(func):
    """Mark the function to be inlined by the backend optimizations,
    whatever its size."""
    func._always_inline_ = True
    return func


def dont_inline(func):
    """Mark the function never to be inlined by the backend
    optimizations."""
    func._dont_inline_ = True
    return func


def try_inline(func):
    """Ask the backend inliner to try to inline the function, whatever its
    size."""
    func._always_inline_ = "try"
    return func


def not_rpython(func):
    """Mark the function as not RPython: translation fails if it is
    reached."""
    func._not_rpython_ = True
    return func


# ____________________________________________________________
# we_are_translated

def we_are_translated():
    """False when running on CPython, True in the translated program."""
    return False


def _we_are_translated_translated():
    return True


we_are_translated._rpy3_translated_ = _we_are_translated_translated


# ____________________________________________________________
# instantiate

def instantiate(cls, nonmovable=False):
    """Create an instance of 'cls' without calling its __init__."""
    if issubclass(cls, BaseException):
        return cls.__new__(cls)
    return object.__new__(cls)


def copy_instance(x):
    """A new instance of the class of 'x' holding the same attribute values
    (its __init__ is not called): what copy.copy() makes of an instance of
    a class without __copy__.  Translated, the class is read at run time
    and every field of its instances is copied."""
    new = instantiate(type(x))
    if hasattr(x, "__dict__"):
        new.__dict__.update(x.__dict__)
    for klass in type(x).__mro__:
        for name in klass.__dict__.get("__slots__", ()):
            if hasattr(x, name):
                setattr(new, name, getattr(x, name))
    return new


def deepcopy_fields(x, fn, memo):
    """Replaces every attribute value v of the instance 'x' by fn(v, memo):
    the step of copy.deepcopy() after copy_instance().  Translated, fn is
    called on each field of the class of 'x', read at run time."""
    names = list(getattr(x, "__dict__", {}))
    for klass in type(x).__mro__:
        for name in klass.__dict__.get("__slots__", ()):
            if hasattr(x, name):
                names.append(name)
    for name in names:
        setattr(x, name, fn(getattr(x, name), memo))


# ____________________________________________________________
# hashing

_MASK = (1 << 64) - 1
_TEST = 1 << 63


def _intmask(n):
    n &= _MASK
    if n >= _TEST:
        n -= 1 << 64
    return n


def compute_identity_hash(x):
    """The identity hash of an instance (``object.__hash__``), which a
    class cannot override."""
    if x is None:
        raise TypeError("compute_identity_hash(None)")
    return object.__hash__(x)


def compute_hash(x):
    """RPython's replacement for hash(x) on immutable values: str and bytes
    hash by content, ints by value (wrapped to a signed machine word),
    floats by value (0 for NaN), tuples by combining their items' hashes,
    None is 0, and any other object by identity (``object.__hash__``,
    ignoring a __hash__ the class may define).  The numbers differ between
    CPython and the translated program; only equalities are meaningful."""
    if isinstance(x, (str, bytes)):
        return hash(x)
    if isinstance(x, int):
        return _intmask(int(x))
    if isinstance(x, float):
        if x != x:
            return 0
        return hash(x)
    if isinstance(x, tuple):
        h = 0x345678
        for item in x:
            h = _intmask((1000003 * h) ^ compute_hash(item))
        return h
    if x is None:
        return 0
    return object.__hash__(x)


# ____________________________________________________________
# r_dict

class _r_dictkey(object):
    """A key of an r_dict: hashes and compares with the dict's functions."""

    __slots__ = ("dic", "key", "hash")

    def __init__(self, dic, key):
        self.dic = dic
        self.key = key
        h = dic.key_hash(key)
        if not isinstance(h, int):
            raise TypeError("r_dict key_hash() must return an int, not %s"
                            % type(h).__name__)
        self.hash = _intmask(int(h))

    def __eq__(self, other):
        if not isinstance(other, _r_dictkey):
            return NotImplemented
        return bool(self.dic.key_eq(self.key, other.key))

    def __ne__(self, other):
        if not isinstance(other, _r_dictkey):
            return NotImplemented
        return not self.dic.key_eq(self.key, other.key)

    def __hash__(self):
        return self.hash

    def __repr__(self):
        return repr(self.key)


class r_dict(object):
    """A dict whose keys are compared with ``key_eq(a, b)`` and hashed with
    ``key_hash(k)`` instead of == and hash().  Insertion-ordered.  As in
    RPython, keys(), values() and items() return lists."""

    def __init__(self, key_eq, key_hash, force_non_null=False,
                 simple_hash_eq=False):
        self._dict = {}
        self.key_eq = key_eq
        self.key_hash = key_hash
        self.force_non_null = force_non_null
        self.simple_hash_eq = simple_hash_eq

    def __getitem__(self, key):
        dk = _r_dictkey(self, key)
        try:
            return self._dict[dk]
        except KeyError as e:
            if e.args and e.args[0] is dk:
                raise KeyError(key) from None
            raise

    def __setitem__(self, key, value):
        self._dict[_r_dictkey(self, key)] = value

    def __delitem__(self, key):
        dk = _r_dictkey(self, key)
        try:
            del self._dict[dk]
        except KeyError as e:
            if e.args and e.args[0] is dk:
                raise KeyError(key) from None
            raise

    def __contains__(self, key):
        return _r_dictkey(self, key) in self._dict

    def __len__(self):
        return len(self._dict)

    def __bool__(self):
        return len(self._dict) != 0

    def __iter__(self):
        for dk in self._dict:
            yield dk.key

    def get(self, key, default=None):
        return self._dict.get(_r_dictkey(self, key), default)

    def setdefault(self, key, default=None):
        return self._dict.setdefault(_r_dictkey(self, key), default)

    def pop(self, key, *default):
        if len(default) > 1:
            raise TypeError("pop expected at most 2 arguments, got %d"
                            % (1 + len(default)))
        dk = _r_dictkey(self, key)
        if dk in self._dict:
            return self._dict.pop(dk)
        if default:
            return default[0]
        raise KeyError(key)

    def popitem(self):
        if not self._dict:
            raise KeyError("popitem(): r_dict is empty")
        dk, value = self._dict.popitem()
        return (dk.key, value)

    def clear(self):
        self._dict.clear()

    def copy(self):
        result = r_dict(self.key_eq, self.key_hash,
                        force_non_null=self.force_non_null,
                        simple_hash_eq=self.simple_hash_eq)
        result.update(self)
        return result

    def update(self, other):
        for key, value in other.items():
            self[key] = value

    def keys(self):
        return [dk.key for dk in self._dict]

    def values(self):
        return list(self._dict.values())

    def items(self):
        return [(dk.key, value) for dk, value in self._dict.items()]

    def iterkeys(self):
        return iter(self)

    def itervalues(self):
        return iter(self.values())

    def iteritems(self):
        return iter(self.items())

    def __repr__(self):
        return "r_dict({%s})" % ", ".join(
            ["%r: %r" % (dk.key, value) for dk, value in self._dict.items()])

    __hash__ = None


def deepcopy_items(t, fn, memo):
    """The tuple of fn(item, memo) for the items of the tuple 't' (of a
    length known when translating: each item may have its own type)."""
    return tuple([fn(item, memo) for item in t])


def is_fixed_tuple(t):
    """Whether 't' is a tuple of a length known when translating (a
    constant of the annotator); untranslated, every tuple is."""
    return isinstance(t, tuple)


def is_atomic(x):
    """Whether 'x' is a value copy.copy() and copy.deepcopy() return as it
    is: None, a number, a str or bytes (maybe None), a function or a class
    (a constant of the annotator, from the type of 'x')."""
    import types
    return x is None or isinstance(x, (int, float, str, bytes, type,
                                       types.FunctionType))
