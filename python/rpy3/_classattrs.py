"""Class attributes that the program assigns through the class (`C.x = v`,
`C.x += 1`, `module.C.x = v`).

RPython treats class attributes as constants.  rpy3 also accepts programs
that assign them: the functions and methods of the program's modules are
scanned for `STORE_ATTR` whose object is a class named by a global (or by
a global module's attribute).  Each such attribute of a class lives in one
prebuilt instance made for that class (its "holder"), initialised with the
value the attribute has when first needed; the flow space reads and writes
`C.x` as an attribute of the holder, so the later stages see an ordinary
prebuilt instance whose attribute changes.  `D.x` for a subclass `D` that
does not assign `x` itself reads the holder of the class it inherits `x`
from, as Python looks `x` up along the MRO.  Attributes no code assigns
stay constants.
"""

import dis
import sys
import types

# id(class) -> _ClassAttrs (the class is kept alive by it)
_classes = {}
# the code objects already scanned, by id (kept alive here: a program
# checked after another must not find its code's id taken)
_scanned = {}
# the modules already scanned, by id (kept alive likewise)
_modules = {}
# (id(class), name) pairs a lookup has answered "a constant" for, with
# the class (kept alive likewise)
_constants = {}


class _ClassAttrs:
    """The assigned attributes of one class and the instance holding them."""

    def __init__(self, cls):
        self.cls = cls
        self.names = set()
        self.cell = None

    def holder(self):
        if self.cell is None:
            owner = self.cls
            names = self.names

            def __setattr__(cell, name, value):
                # untranslated (the flow backend runs the graphs on real
                # objects), the class itself changes too, so reads through
                # instances see the value
                object.__setattr__(cell, name, value)
                setattr(owner, name, value)

            def __getattribute__(cell, name):
                # untranslated, the class itself is read: a class method
                # assigns it through `cls` without the holder
                if name in names:
                    return getattr(owner, name)
                return object.__getattribute__(cell, name)

            holder_cls = type(
                "classattrs",
                (object,),
                {
                    "__module__": self.cls.__module__,
                    "__qualname__": "<class attributes of %s>" % self.cls.__qualname__,
                    "__setattr__": __setattr__,
                    "__getattribute__": __getattribute__,
                },
            )
            cell = holder_cls()
            for name in sorted(self.names):
                if hasattr(self.cls, name):
                    object.__setattr__(cell, name, getattr(self.cls, name))
            self.cell = cell
        return self.cell


def _resolve(code, ins_list, i, globals_dict, cls_param=None):
    """The object the instructions before index `i` load: a global, or an
    attribute chain from a global, or the class a class method's first
    parameter `cls_param` (name, class) stands for (None if not such a
    chain)."""
    names = []
    j = i
    while j >= 0 and ins_list[j].opname in ("LOAD_ATTR", "LOAD_METHOD"):
        names.append(ins_list[j].argval)
        j -= 1
    if (j >= 0 and cls_param is not None and ins_list[j].opname == "LOAD_FAST"
            and ins_list[j].argval == cls_param[0]):
        obj = cls_param[1]
        for n in reversed(names):
            obj = getattr(obj, n, None)
        return obj
    if j < 0 or ins_list[j].opname not in ("LOAD_GLOBAL", "LOAD_NAME"):
        return None
    base = ins_list[j].argval
    if base in globals_dict:
        obj = globals_dict[base]
    else:
        import builtins
        obj = getattr(builtins, base, None)
    for n in reversed(names):
        if obj is None:
            return None
        obj = getattr(obj, n, None)
    return obj


def _record(obj, name):
    if not isinstance(obj, type) or obj.__module__ == "builtins":
        return
    entry = _classes.get(id(obj))
    if entry is None or entry.cls is not obj:
        entry = _ClassAttrs(obj)
        _classes[id(obj)] = entry
    entry.names.add(name)


def _scan_code(code, globals_dict, cls_param=None):
    if id(code) in _scanned:
        return
    _scanned[id(code)] = code
    if cls_param is not None and cls_param[0] in code.co_cellvars:
        # (a cls captured by nested functions is not read by LOAD_FAST)
        cls_param = None
    ins_list = list(dis.get_instructions(code))
    for i, ins in enumerate(ins_list):
        if ins.opname != "STORE_ATTR" or i == 0:
            continue
        prev = ins_list[i - 1]
        if prev.opname == "SWAP" and prev.argval == 2:
            # C.x op= v: LOAD_GLOBAL C; COPY 1; LOAD_ATTR x; ...; SWAP 2;
            # STORE_ATTR x
            k = i - 2
            while k >= 2 and not (
                ins_list[k].opname == "LOAD_ATTR"
                and ins_list[k].argval == ins.argval
                and ins_list[k - 1].opname == "COPY"
                and ins_list[k - 1].argval == 1
            ):
                k -= 1
            if k < 2:
                continue
            obj = _resolve(code, ins_list, k - 2, globals_dict, cls_param)
        else:
            obj = _resolve(code, ins_list, i - 1, globals_dict, cls_param)
        if obj is not None:
            _record(obj, ins.argval)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _scan_code(const, globals_dict)


def _scan_value(value, globals_dict, seen, owner=None):
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, classmethod) and owner is not None:
        # `cls.x = v` in a class method of `owner`: assigned through
        # `owner` (called through a subclass, Python would set the
        # subclass's own attribute: refused then, see `store_holder`)
        func = value.__func__
        if isinstance(func, types.FunctionType) and func.__globals__ is globals_dict:
            code = func.__code__
            if code.co_argcount >= 1:
                _scan_code(code, globals_dict, (code.co_varnames[0], owner))
        return
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    if isinstance(value, property):
        for f in (value.fget, value.fset, value.fdel):
            if f is not None:
                _scan_value(f, globals_dict, seen)
        return
    func = getattr(value, "__func__", value)
    if isinstance(func, types.FunctionType):
        if func.__globals__ is globals_dict:
            _scan_code(func.__code__, globals_dict)
        return
    if isinstance(value, type) and value.__module__ == globals_dict.get("__name__"):
        for member in list(vars(value).values()):
            _scan_value(member, globals_dict, seen, value)


def _is_program_module(module):
    name = getattr(module, "__name__", "")
    if name == "rpy3" or name.startswith("rpy3."):
        return name.startswith("rpy3.stdlib")
    path = getattr(module, "__file__", None)
    if not path:
        return False
    prefixes = [p for p in (sys.prefix, sys.base_prefix, sys.exec_prefix) if p]
    return not any(path.startswith(p) for p in prefixes)


def _scan_modules():
    for module in list(sys.modules.values()):
        if module is None or id(module) in _modules:
            continue
        _modules[id(module)] = module
        if not _is_program_module(module):
            continue
        globals_dict = getattr(module, "__dict__", None)
        if not isinstance(globals_dict, dict):
            continue
        seen = set()
        for value in list(globals_dict.values()):
            _scan_value(value, globals_dict, seen)


def _owner(cls, name):
    """The class along the MRO of `cls` whose `name` a lookup finds, and
    whether the program assigns it there."""
    for k in getattr(cls, "__mro__", (cls,)):
        entry = _classes.get(id(k))
        if entry is not None and entry.cls is k and name in entry.names:
            return k, True
        if name in vars(k):
            return k, False
    return None, False


def holder_for(cls, name, code=None, globals_dict=None):
    """The instance holding `cls.name` when the program assigns it (to
    `cls` or to the class `cls` inherits it from), else None.  `code`
    (with its module's `globals_dict`), the function being flowed, is
    scanned too."""
    _scan_modules()
    if code is not None and globals_dict is not None and id(code) not in _scanned:
        before = {k: set(v.names) for k, v in _classes.items()}
        _scan_code(code, globals_dict)
        # an attribute first found now but already read as a constant:
        # forget it (the store is then refused)
        for k, v in list(_classes.items()):
            for n in list(v.names):
                if n not in before.get(k, ()) and (k, n) in _constants:
                    v.names.discard(n)
    owner, assigned = _owner(cls, name)
    if owner is None or not assigned:
        k = owner if owner is not None else cls
        _constants[(id(k), name)] = k
        return None
    return _classes[id(owner)].holder()


def store_holder(cls, name, code=None, globals_dict=None):
    """The instance holding `cls.name` for an assignment to it (the class
    itself: Python sets the attribute on `cls`), else None."""
    _scan_modules()
    if code is not None and globals_dict is not None:
        holder_for(cls, name, code, globals_dict)
    entry = _classes.get(id(cls))
    if entry is None or entry.cls is not cls or name not in entry.names:
        return None
    return entry.holder()


def assigned_in_hierarchy(cls, name):
    """Whether the program assigns `name` through `cls`, a class of its MRO
    or one of its subclasses (instances of `cls` then cannot read `name`
    as a constant default)."""
    _scan_modules()
    for entry in _classes.values():
        if name in entry.names and (
            issubclass(entry.cls, cls) or issubclass(cls, entry.cls)
        ):
            return True
    return False
