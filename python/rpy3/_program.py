"""Whole programs as rpy3 runs them, for CPython: finding the entry point
of a target file and running it with `argv`, so that `python3 -m
rpy3._program TARGET.py ARG...` behaves exactly like `rpy3 run TARGET.py
-- ARG...` (the reference of program checks).

A target defines `target(*args)` returning `(entry_point, None)` (as
RPython's targets do; it is called with `None` for the driver and `[]`
for the arguments when it takes them), or `entry_point(argv)` itself.
`entry_point`'s result is the exit status; an exception escaping it
prints `Fatal error: Name: message` on stderr and exits with status 1.
"""
import importlib.util
import inspect
import os
import sys


def load(path, name="__rpy3_program__"):
    """Imports the file at `path` as a module named `name` (never
    `__main__`, so its script part does not run)."""
    directory = os.path.dirname(os.path.abspath(path))
    if directory not in sys.path:
        sys.path.insert(0, directory)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError("cannot import %s" % path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def find_entry_point(module):
    """The entry point of a target module, or LookupError."""
    target = getattr(module, "target", None)
    if callable(target):
        try:
            params = [
                p for p in inspect.signature(target).parameters.values()
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                and p.default is p.empty
            ]
        except (TypeError, ValueError):
            params = []
        args = [None, []][:len(params)] + [None] * max(0, len(params) - 2)
        result = target(*args)
        entry = result[0] if isinstance(result, tuple) else result
        if callable(entry):
            return entry
        raise LookupError("target() of %s did not return (entry_point, None)"
                          % getattr(module, "__file__", "the program"))
    entry = getattr(module, "entry_point", None)
    if callable(entry):
        return entry
    raise LookupError("%s defines neither target() nor entry_point(argv)"
                      % getattr(module, "__file__", "the program"))


def fatal_error_line(exc):
    """The line printed when `exc` escapes the entry point."""
    name = type(exc).__name__
    message = str(exc)
    if message:
        return "Fatal error: %s: %s" % (name, message)
    return "Fatal error: %s" % name


def exit_status(status):
    """The process exit status for `entry_point`'s result."""
    if status is None:
        return 0
    return int(status) & 0xFF


def main(argv):
    """Runs the program `argv[0]` with `argv`; returns the exit status."""
    entry = find_entry_point(load(argv[0]))
    # `sys.argv` is the program's command line, as in a translated program
    sys.argv = list(argv)
    try:
        status = entry(list(argv))
    except SystemExit:
        raise
    except Exception as e:
        sys.stdout.flush()
        sys.stderr.write(fatal_error_line(e) + "\n")
        return 1
    return exit_status(status)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.stderr.write("usage: python3 -m rpy3._program TARGET.py [ARG...]\n")
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
