"""`Translation(f, argtypes)`: one RPython function taken through rpy3's
phases from Python, as PyPy's `rpython.translator.interactive.Translation`:

    t = Translation(f, [int])
    t.annotate()                 # 'int+' (the result's annotation)
    t.rtype()                    # the entry's low-level function type
    f_c = t.compile(backend="c") # a callable running the compiled code
    f_c(10)

Argument types are `int`, `float`, `bool`, `str`, `bytes`, a list of one
type (`[int]`: a list of ints) or a tuple of types (`(int, str)`).

A compiled function is built as `rpy3 check --backend c` builds a case
file: the arguments of a call are laid out as data of the program, so each
distinct argument tuple is one executable, built on its first call (genc
and `cc` at -O0: a fraction of a second for a small function) and run as
a child process on every call; its result comes back as a Python value
and an exception that escapes is raised again (its class, not its
message).  The program's printed output is written to `sys.stdout`.
"""

import os
import shutil
import sys
import tempfile
import weakref

COMPILED_BACKENDS = ("c", "native", "c-gcstress", "native-gcstress")


def _native():
    try:
        from rpy3 import _native as native
    except ImportError:
        try:
            import _native as native  # inside the rpy3 binary
        except ImportError:
            raise ImportError(
                "rpy3's native extension is not built: run `pip install .` in the "
                "rpy3 checkout (it uses maturin), or run through the `rpy3` binary"
            ) from None
    return native


def example_of(argtype):
    """A value of `argtype`, whose type the annotator takes as the argument's
    (an int item of a list is negative: the annotator would take a list of
    non-negative ints as such)."""
    simple = {int: -1, float: -0.5, bool: False, str: "", bytes: b""}
    if isinstance(argtype, type) and argtype in simple:
        return simple[argtype]
    if isinstance(argtype, list) and len(argtype) == 1:
        return [example_of(argtype[0])]
    if isinstance(argtype, tuple):
        return tuple(example_of(t) for t in argtype)
    raise TypeError(
        f"unsupported argument type {argtype!r}: expected int, float, bool, str, "
        "bytes, [T] (a list of T) or a tuple of types"
    )


def conform(value, argtype):
    """`value` as an argument of type `argtype` (an int passes as a float),
    or TypeError."""
    if argtype is float and type(value) is int:
        return float(value)
    if isinstance(argtype, type):
        # bool is an int to Python, not to the annotator
        if type(value) is argtype:
            return value
    elif isinstance(argtype, list) and type(value) is list:
        return [conform(v, argtype[0]) for v in value]
    elif isinstance(argtype, tuple) and type(value) is tuple and len(value) == len(argtype):
        return tuple(conform(v, t) for v, t in zip(value, argtype))
    raise TypeError(f"{value!r} is not a value of the argument type {argtype!r}")


class Translation:
    """`f` translated for arguments of types `argtypes`."""

    def __init__(self, f, argtypes):
        self.entry = f
        self.argtypes = list(argtypes)
        examples = [example_of(t) for t in self.argtypes]
        self._translation = _native().Translation(f, examples)

    def annotate(self):
        """Flows and annotates every function `f` reaches; the annotation
        of `f`'s result, as text (`'int'`).  A program that is not RPython
        raises RuntimeError with rpy3's diagnostic."""
        return self._translation.annotate()

    def rtype(self):
        """Annotates if needed and turns the program into low-level graphs;
        the low-level type of `f`, as text."""
        return self._translation.rtype()

    def compile(self, backend="c"):
        """A callable running `f` compiled by the C backend (`"c"`) or the
        native backend (`"native"`).  Translation errors are raised here."""
        if backend not in COMPILED_BACKENDS:
            raise ValueError(
                f"unknown backend {backend!r} (expected one of {', '.join(COMPILED_BACKENDS)})"
            )
        self.rtype()
        return CompiledFunction(self.entry, self.argtypes, backend)

    def view(self, path=None):
        """Writes the annotated flow graphs and the low-level graphs of the
        translation as text into one file (`path`, by default a new file
        in the temporary directory) and returns its path."""
        text = (
            "# annotated flow graphs\n\n"
            + self._translation.graphs_text("annotate")
            + "\n# low-level graphs\n\n"
            + self._translation.graphs_text("rtype")
        )
        if path is None:
            fd, path = tempfile.mkstemp(prefix=f"rpy3-{self.entry.__name__}-", suffix=".txt")
            os.close(fd)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path


class CompiledFunction:
    """`f` compiled by a backend; calling it runs the executable."""

    def __init__(self, f, argtypes, backend):
        self.entry = f
        self.argtypes = list(argtypes)
        self.backend = backend
        # the first call of every executable: its arguments' types are the
        # annotations of the function's (the others are only laid out)
        self._examples = [example_of(t) for t in self.argtypes]
        self._dir = tempfile.mkdtemp(prefix="rpy3-compiled-")
        weakref.finalize(self, shutil.rmtree, self._dir, True)
        # (argument types, repr) -> (executable, its number for the call)
        self._built = {}

    def __repr__(self):
        return f"<{self.entry.__name__} compiled by rpy3's {self.backend} backend>"

    def _key(self, args):
        return tuple((type(a).__name__, repr(a)) for a in args)

    def prebuild(self, calls):
        """Builds one executable for all the argument tuples `calls`, so
        calling with any of them later runs without another build."""
        calls = [self._conform(args) for args in calls]
        todo = [args for args in calls if self._key(args) not in self._built]
        if not todo:
            return
        exe = os.path.join(self._dir, f"exe{len(self._built)}")
        numbers = _native().build_cases(self.entry, [self._examples] + todo, self.backend, exe)
        for args, number in zip(todo, numbers[1:]):
            self._built[self._key(args)] = (exe, number)

    def _conform(self, args):
        if len(args) != len(self.argtypes):
            raise TypeError(
                f"{self.entry.__name__} was translated for {len(self.argtypes)} "
                f"arguments, called with {len(args)}"
            )
        return [conform(a, t) for a, t in zip(args, self.argtypes)]

    def __call__(self, *args):
        args = self._conform(args)
        self.prebuild([args])
        exe, number = self._built[self._key(args)]
        printed, raised, value = _native().run_case(self.entry, exe, number)
        if printed:
            sys.stdout.write(printed.decode("utf-8", "surrogateescape"))
        if raised:
            raise new_exception(value)
        return value


def argtype_of(value):
    """The argument type (as `Translation` takes them) of `value`."""
    if isinstance(value, list):
        if not value:
            raise TypeError("cannot tell the item type of an empty list argument")
        return [argtype_of(value[0])]
    if isinstance(value, tuple):
        return tuple(argtype_of(v) for v in value)
    return type(value)


# compiled functions by (function, backend, argument types): one build per
# distinct call, shared by every call_compiled of the process
_compiled = {}


def call_compiled(f, args, backend):
    """`f(*args)` compiled by `backend` for arguments of the types of
    `args` (`interpret(f, args, backend="c")`)."""
    argtypes = [argtype_of(a) for a in args]
    key = (f, backend, repr(argtypes))
    compiled = _compiled.get(key)
    if compiled is None:
        compiled = Translation(f, argtypes).compile(backend=backend)
        _compiled[key] = compiled
    return compiled(*args)


def new_exception(cls):
    """An instance of the exception class `cls` (its arguments are not
    known: only the class comes back from a compiled program)."""
    try:
        return cls()
    except TypeError:
        return cls.__new__(cls)
