"""tiny1: PyPy's smallest toy interpreter (a '+'/'-' accumulator machine)
with its stand-alone target.

Source: pypy/pypy, rpython/jit/tl/tiny1.py (the interpreter) and
rpython/jit/tl/targettiny1.py (the entry point).
Licence: MIT (PyPy's LICENSE).

Changes made for rpy3:
- the two files are joined into one module;
- `from rpython.rlib.jit import hint` is replaced by a local `hint` that
  returns its argument (there is no JIT here);
- `highleveljitinfo` (from rpython.jit.backend.hlinfo) is replaced by a local
  prebuilt instance of a small class with the `sys_executable` attribute;
- `from __future__ import print_function` dropped; the unused
  `AnnotatorPolicy` import and the pytest function `test_simple` dropped;
- `target(driver, args)` became `target(*args)`; the `__main__` block added.
"""

# rpy3-args: +-++-+++--+ 100 10
# rpy3-args: ++-+ 7 -3


def hint(x, concrete=False):
    return x


class HighLevelJitInfo(object):
    sys_executable = None


highleveljitinfo = HighLevelJitInfo()


def ll_plus_minus(s, x, y):
    acc = x
    pc = 0
    while pc < len(s):
        op = s[pc]
        hint(op, concrete=True)
        if op == '+':
            acc += y
        elif op == '-':
            acc -= y
        pc += 1
    return acc


def entry_point(args):
    """Main entry point of the stand-alone executable:
    takes a list of strings and returns the exit code.
    """
    # store args[0] in a place where the JIT log can find it (used by
    # viewcode.py to know the executable whose symbols it should display)
    highleveljitinfo.sys_executable = args[0]
    if len(args) < 4:
        print("Usage: %s bytecode x y" % (args[0],))
        return 2
    bytecode = args[1]
    x = int(args[2])
    y = int(args[3])
    res = ll_plus_minus(bytecode, x, y)
    print(res)
    return 0


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    import sys
    sys.exit(entry_point(sys.argv))
