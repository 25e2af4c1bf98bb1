"""Nested functions that capture variables and are used as values
(`sorted(xs, key=lambda x: d[x])`, `callbacks.append(lambda: self.go(n))`).

RPython has no closures.  rpy3 turns such a value into an instance of a
class made for the nested function: it holds the values of the captured
variables, and its `__call__` calls the nested function (which the flow
space lifts to take its free variables as keyword-only parameters) with
them.  The later stages see an ordinary instance with a `__call__`;
under CPython (the flow backend runs rpy3's own helpers natively) that
`__call__` calls the function with its variables in real cells.  The
closure classes taking the same number of parameters share a base class,
so one variable may hold any of them.

Python's closures share the variable itself (a cell), not its value, so
the copy is exact only when the variable cannot change while the value
lives: `capture_problem` says when it could, and the flow space then
refuses the program instead of giving another answer than CPython.
"""

import dis
import types

# id(nested function) -> (function, class)
_classes = {}

# number of parameters -> the base class of the closures taking that many
_bases = {}

# backward jumps: the loops of a code object
_LOOP_JUMPS = frozenset([
    "JUMP_BACKWARD",
    "JUMP_BACKWARD_NO_INTERRUPT",
    "POP_JUMP_BACKWARD_IF_FALSE",
    "POP_JUMP_BACKWARD_IF_TRUE",
    "POP_JUMP_BACKWARD_IF_NONE",
    "POP_JUMP_BACKWARD_IF_NOT_NONE",
])


def _stores(code, name):
    """Whether `code` (or code nested in it) rebinds free variable `name`
    (`nonlocal name; name = ...`)."""
    if name in code.co_freevars:
        for ins in dis.get_instructions(code):
            if ins.opname in ("STORE_DEREF", "DELETE_DEREF") and ins.argval == name:
                return True
    for c in code.co_consts:
        if isinstance(c, types.CodeType) and _stores(c, name):
            return True
    return False


def capture_problem(outer_code, inner_code, offset):
    """Why the values of the variables `inner_code` captures, copied when
    the instruction at `offset` of `outer_code` runs, could differ from
    what the nested function reads at a later call; None when they
    cannot: each variable is bound only before that instruction, never in
    a loop that also runs it, and no nested function assigns it."""
    loops = []
    binds = {}
    for ins in dis.get_instructions(outer_code):
        if ins.opname in _LOOP_JUMPS:
            loops.append((ins.argval, ins.offset))
        elif ins.opname in ("STORE_DEREF", "DELETE_DEREF"):
            binds.setdefault(ins.argval, []).append(ins.offset)
    from rpy3._cells import boxed_names
    boxed = boxed_names(outer_code)
    for name in inner_code.co_freevars:
        if name in boxed:
            # (a variable nested functions assign lives in a box: the
            # closure captures the box, which never changes)
            continue
        for c in outer_code.co_consts:
            if isinstance(c, types.CodeType) and _stores(c, name):
                return "'%s' is assigned by a nested function (nonlocal)" % name
        for at in binds.get(name, ()):
            if at > offset:
                return "'%s' may be assigned after the closure is made" % name
            for start, end in loops:
                if start <= at <= end and start <= offset <= end:
                    return ("'%s' is assigned in a loop that also makes the "
                            "closure" % name)
    return None


def _base(nparams):
    """The base class of every closure taking `nparams` parameters, so
    that a variable may hold any of them (`[make_adder(1), make_scaler(2)]`):
    its `__call__` is overridden by each."""
    cls = _bases.get(nparams)
    if cls is None:
        params = ["a%d" % i for i in range(nparams)]
        source = ("class Closure%d(object):\n"
                  "    def __call__(self%s):\n"
                  "        raise NotImplementedError\n"
                  % (nparams, "".join(", " + p for p in params)))
        ns = {"__name__": __name__}
        exec(compile(source, "<closures>", "exec"), ns)
        cls = ns["Closure%d" % nparams]
        cls._rpy3_closure_base_ = nparams
        _bases[nparams] = cls
    return cls


def call_native(func, values, *args):
    """Calls the lifted nested function `func` under CPython, its free
    variables in real cells holding `values` (what a closure instance's
    `__call__` does when not translated: the lifted function takes them as
    keyword arguments only in flow graphs)."""
    cells = tuple(types.CellType(v) for v in values)
    f = types.FunctionType(func.__code__, func.__globals__, func.__name__,
                           func.__defaults__, cells)
    return f(*args)


def closure_class(func, ndefaults=0):
    """The class whose instances stand for the nested function `func`
    (lifted: its free variables are keyword-only parameters) used as a
    value: `Cls(*values of func.__code__.co_freevars, *defaults)`, where
    the last `ndefaults` positional parameters have defaults computed at
    run time (`lambda x, i=i: ...`): the instance holds them and always
    passes them."""
    key = (id(func), ndefaults)
    entry = _classes.get(key)
    if entry is not None and entry[0] is func:
        return entry[1]
    code = func.__code__
    if code.co_flags & (_VARARGS | _VARKEYWORDS) or code.co_kwonlyargcount:
        raise ValueError("a closure with *args, **kwargs or keyword-only "
                         "parameters used as a value")
    params = list(code.co_varnames[:code.co_argcount])
    passed = params[:len(params) - ndefaults]
    defaulted = params[len(params) - ndefaults:]
    free = list(code.co_freevars)
    defaults = func.__defaults__ or ()
    from rpy3.rlib.objectmodel import we_are_translated
    ns = {"_func": func, "_we_are_translated": we_are_translated,
          "_call_native": call_native, "_Base": _base(len(passed))}
    sig = []
    first_default = len(passed) - len(defaults)
    for i, p in enumerate(passed):
        if i >= first_default:
            ns["_d%d" % i] = defaults[i - first_default]
            sig.append("%s=_d%d" % (p, i))
        else:
            sig.append(p)
    cfields = ["c%d" % k for k in range(len(free))]
    dfields = ["d%d" % k for k in range(ndefaults)]
    fields = cfields + dfields
    name = "Closure_" + "".join(ch if ch.isalnum() else "_" for ch in code.co_qualname)
    lines = ["class %s(_Base):" % name]
    lines.append("    def __init__(self%s):" % "".join(", " + f for f in fields))
    for f in fields:
        lines.append("        self.%s = %s" % (f, f))
    if not fields:
        lines.append("        pass")
    call_args = (passed + ["%s=self.%s" % (p, f) for p, f in zip(defaulted, dfields)]
                 + ["%s=self.%s" % (v, f) for v, f in zip(free, cfields)])
    native_args = passed + ["self.%s" % f for f in dfields]
    lines.append("    def __call__(self%s):" % "".join(", " + s for s in sig))
    lines.append("        if _we_are_translated():")
    lines.append("            return _func(%s)" % ", ".join(call_args))
    lines.append("        return _call_native(_func, (%s), %s)" % (
        "".join("self.%s, " % f for f in cfields), ", ".join(native_args)))
    source = "\n".join(lines) + "\n"
    exec(compile(source, "<closure of %s>" % code.co_qualname, "exec"), ns)
    cls = ns[name]
    cls.__qualname__ = "<closure %s>" % code.co_qualname
    cls.__module__ = func.__module__
    _classes[key] = (func, cls)
    return cls


_VARARGS = 0x04
_VARKEYWORDS = 0x08


# id(function) -> (function, its wrapper instance)
_wrappers = {}


def closure_params(cls):
    """The number of parameters of the closures `cls` (a class) is the
    base of, or None when it is no closure class."""
    for k in getattr(cls, "__mro__", ()):
        n = k.__dict__.get("_rpy3_closure_base_")
        if n is not None:
            return n
    return None


def function_wrapper(func, nparams):
    """A plain function where a closure taking `nparams` parameters may be
    (one variable holding either): a prebuilt instance of a closure class
    whose `__call__` calls `func`; None when `func` cannot be one (another
    number of parameters, *args, keyword-only parameters)."""
    entry = _wrappers.get(id(func))
    if entry is not None and entry[0] is func:
        return entry[1]
    code = getattr(func, "__code__", None)
    if (code is None or code.co_argcount != nparams or code.co_kwonlyargcount
            or code.co_flags & (_VARARGS | _VARKEYWORDS)):
        return None
    params = ["a%d" % i for i in range(nparams)]
    name = "Function_" + "".join(ch if ch.isalnum() else "_" for ch in code.co_qualname)
    source = ("class %s(_Base):\n"
              "    def __call__(self%s):\n"
              "        return _func(%s)\n"
              % (name, "".join(", " + p for p in params), ", ".join(params)))
    ns = {"_func": func, "_Base": _base(nparams), "__name__": __name__}
    exec(compile(source, "<function %s as a closure>" % code.co_qualname, "exec"), ns)
    cls = ns[name]
    cls.__qualname__ = "<function %s as a closure>" % code.co_qualname
    cls.__module__ = func.__module__
    inst = cls()
    _wrappers[id(func)] = (func, inst)
    return inst


def existing_wrapper(func):
    """The wrapper `function_wrapper` made for `func`, or None."""
    entry = _wrappers.get(id(func))
    if entry is not None and entry[0] is func:
        return entry[1]
    return None
