"""Module globals that functions assign (`global x; x = ...`).

RPython treats module globals as constants.  rpy3 also accepts programs
whose functions rebind globals: for each module, the names some function
of the module assigns (`STORE_GLOBAL`/`DELETE_GLOBAL` anywhere in its
functions, methods and nested code) live in one prebuilt instance of a
class made for the module, initialised with the values the names have
once the module is imported.  The flow space reads and writes such a
name as an attribute of that instance, so the later stages see an
ordinary prebuilt instance whose attributes change, and every backend
shares one object.  Names no function assigns stay constants.
"""

import dis
import types

# id(globals dict) -> _ModuleGlobals (the dict is kept alive by it)
_modules = {}


class _ModuleGlobals:
    """The assigned names of one module and the instance holding them."""

    def __init__(self, globals_dict):
        self.globals = globals_dict
        self.names = set()
        self.scanned = set()
        self.cell = None
        # names a lookup has answered "a constant" for
        self.constants = set()
        self._scan_module()

    def _scan_code(self, code):
        if id(code) in self.scanned:
            return
        self.scanned.add(id(code))
        for ins in dis.get_instructions(code):
            if ins.opname in ("STORE_GLOBAL", "DELETE_GLOBAL"):
                self.names.add(ins.argval)
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                self._scan_code(const)

    def _scan_value(self, value, seen):
        if id(value) in seen:
            return
        seen.add(id(value))
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if isinstance(value, property):
            for f in (value.fget, value.fset, value.fdel):
                if f is not None:
                    self._scan_value(f, seen)
            return
        func = getattr(value, "__func__", value)  # bound methods
        if isinstance(func, types.FunctionType):
            if func.__globals__ is self.globals:
                self._scan_code(func.__code__)
            return
        if isinstance(value, type) and value.__module__ == self.globals.get("__name__"):
            for member in list(vars(value).values()):
                self._scan_value(member, seen)

    def _scan_module(self):
        seen = set()
        for value in list(self.globals.values()):
            self._scan_value(value, seen)

    def holder(self):
        """The prebuilt instance holding the assigned names."""
        if self.cell is None:
            modname = self.globals.get("__name__", "?")
            cls = type(
                "globals",
                (object,),
                {"__module__": modname, "__qualname__": "<module globals>"},
            )
            cell = cls()
            for name in sorted(self.names):
                if name in self.globals:
                    setattr(cell, name, self.globals[name])
            self.cell = cell
        return self.cell


def _module(globals_dict):
    m = _modules.get(id(globals_dict))
    if m is None or m.globals is not globals_dict:
        m = _ModuleGlobals(globals_dict)
        _modules[id(globals_dict)] = m
    return m


def holder_for(globals_dict, code, name):
    """The instance holding the global `name` of the module whose globals
    are `globals_dict` if some function assigns it (`code`, the function
    being flowed, is scanned too), else None."""
    m = _module(globals_dict)
    if code is not None and id(code) not in m.scanned:
        before = set(m.names)
        m._scan_code(code)
        if m.cell is not None or m.names & m.constants:
            # too late: loads of these names may already be constants (an
            # assignment then is refused)
            m.names = before
    if name in m.names:
        return m.holder()
    m.constants.add(name)
    return None
