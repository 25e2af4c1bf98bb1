"""tiny3: PyPy's toy word-based stack interpreter (the 'hotpath' version)
with its stand-alone target.

Source: pypy/pypy, rpython/jit/tl/tiny3_hotpath.py (the interpreter) and
rpython/jit/tl/targettiny3hotpath.py (the entry point).
Licence: MIT (PyPy's LICENSE).

Changes made for rpy3:
- the two files are joined into one module (the target's `tiny3.` prefixes
  dropped);
- `promote`, `hint`, `JitDriver` (rpython.rlib.jit), `set_user_param` and
  `highleveljitinfo` (rpython.jit.backend.hlinfo) are replaced by local
  stand-ins that do nothing (there is no JIT here; `promote` and `hint`
  return their argument and are specialized on its type, as RPython's
  are); `specialize` comes from
  rpy3.rlib.objectmodel instead of rpython.rlib.objectmodel (found through
  the checkout's python/ directory when plain CPython lacks it);
- the pytest functions (test_main, test_factorial, ...) dropped; the program
  texts they used (FACTORIAL, FIBONACCI, FIBONACCI_SINGLE) are kept as
  module constants but not used;
- `from __future__ import print_function` dropped; `target(driver, args)`
  became `target(*args)`; the `__main__` block calls `sys.exit()` on the
  result.

Original docstring:

An interpreter for a strange word-based language: the program is a list
of space-separated words.  Most words push themselves on a stack; some
words have another action.  The result is the space-separated words
from the stack.

    6 7 ADD              => '13'              'ADD' is a special word
    7 * 5 = 7 5 MUL      => '7 * 5 = 35'      '*' and '=' are not special words
    3.8                  => 3.8

Arithmetic on integers and floats automatically casts arguments
to floats (always).

    3.8 1 ADD            => 4.8

Input arguments can be passed on the command-line, and used as #1, #2, etc.:

    #1 1 ADD             => one more than the argument on the command-line,
                            or if it was not an integer, concatenates '+1'

You can store back into an (existing) argument index with ->#N:

    #1 5 ADD ->#1

Braces { } delimitate a loop.  Don't forget spaces around each one.
The '}' pops an integer value off the stack and loops if it is not zero:

    { #1 #1 1 SUB ->#1 #1 }    => when called with 5, gives '5 4 3 2 1'

"""

# rpy3-args: "The factorial of #1 is 1 { #1 MUL #1 1 SUB ->#1 #1 }" 20
# rpy3-args: "#2 { #3 #1 ADD ->#3 #2 1 SUB ->#2 #2 } #3 #4 MUL" 0.1 3000 0 2

try:
    from rpy3.rlib.objectmodel import specialize
except ImportError:     # plain CPython: rpy3's pure-Python rlib is in python/
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "..", "..", "python"))
    from rpy3.rlib.objectmodel import specialize


# ---- local stand-ins for rpython.rlib.jit (there is no JIT here) ----
@specialize.argtype(0)
def promote(x):
    return x


@specialize.argtype(0)
def hint(x, concrete=False, deepfreeze=False):
    return x


class JitDriver(object):
    def jit_merge_point(self, args=None, loops=None, stack=None,
                        bytecode=None, pos=None):
        pass

    def can_enter_jit(self, args=None, loops=None, stack=None,
                      bytecode=None, pos=None):
        pass


class HighLevelJitInfo(object):
    sys_executable = None


highleveljitinfo = HighLevelJitInfo()


def set_user_param(driver, text):
    pass
# ---------------------------------------------------------------------

#
# See pypy/doc/jit.txt for a higher-level overview of the JIT techniques
# detailed in the following comments.
#


class Box:
    # Although all words are in theory strings, we use two subclasses
    # to represent the strings differently from the words known to be integers.
    # This is an optimization that is essential for the JIT and merely
    # useful for the basic interpreter.
    pass

class IntBox(Box):
    _immutable_ = True
    def __init__(self, intval):
        self.intval = intval
    def as_int(self):
        return self.intval
    def as_float(self):
        return myfloat(self.intval)
    def as_str(self):
        return str(self.intval)

class FloatBox(Box):
    _immutable_ = True
    def __init__(self, floatval):
        self.floatval = floatval
    def as_int(self):
        return int(self.floatval)
    def as_float(self):
        return self.floatval
    def as_str(self):
        return str(self.floatval)

# consider if we need both
def func_add_int(ix, iy): return ix + iy
def func_sub_int(ix, iy): return ix - iy
def func_mul_int(ix, iy): return ix * iy

def func_add_float(fx, fy): return fx + fy
def func_sub_float(fx, fy): return fx - fy
def func_mul_float(fx, fy): return fx * fy

def op2(stack, func_int, func_float):
    # Operate on the top two stack items.  The promotion hints force the
    # class of each arguments (IntBox or FloatBox) to turn into a compile-time
    # constant if they weren't already.  The effect we seek is to make the
    # calls to as_int() direct calls at compile-time, instead of indirect
    # ones.  The JIT compiler cannot look into indirect calls, but it
    # can analyze and inline the code in directly-called functions.
    stack, y = stack.pop()
    promote(y.__class__)
    stack, x = stack.pop()
    promote(x.__class__)
    if isinstance(x, IntBox) and isinstance(y, IntBox):
        z = IntBox(func_int(x.as_int(), y.as_int()))
    else:
        z = FloatBox(func_float(x.as_float(), y.as_float()))
    stack = Stack(z, stack)
    return stack

class Stack(object):
    def __init__(self, value, next=None):
        self.next = next
        self.value = value

    def pop(self):
        return self.next, self.value

def empty_stack():
    return None

class TinyJitDriver(JitDriver):
    reds = ['args', 'loops', 'stack']
    greens = ['bytecode', 'pos']

    def compute_invariants(self, reds, bytecode, pos):
        # Some of the information that we maintain only really depends on
        # bytecode and pos: the whole 'loops' list has this property.
        # By being a bit careful we could also put len(args) in the
        # invariants, but although it doesn't make much sense it is a
        # priori possible for the same bytecode to be run with
        # different len(args).
        return reds.loops

    def on_enter_jit(self, invariants, reds, bytecode, pos):
        # Now some strange code that makes a copy of the 'args' list in
        # a complicated way...  this is a workaround forcing the whole 'args'
        # list to be virtual.  It is a way to tell the JIT compiler that it
        # doesn't have to worry about the 'args' list being unpredictably
        # modified.
        oldloops = invariants
        oldargs = reds.args
        argcount = promote(len(oldargs))
        args = []
        n = 0
        while n < argcount:
            hint(n, concrete=True)
            args.append(oldargs[n])
            n += 1
        reds.args = args
        # turn the green 'loops' from 'invariants' into a virtual list
        oldloops = hint(oldloops, deepfreeze=True)
        argcount = len(oldloops)
        loops = []
        n = 0
        while n < argcount:
            hint(n, concrete=True)
            loops.append(oldloops[n])
            n += 1
        reds.loops = loops

tinyjitdriver = TinyJitDriver()

def interpret(bytecode, args):
    """The interpreter's entry point and portal function.
    """
    loops = []
    stack = empty_stack()
    pos = 0
    while True:
        tinyjitdriver.jit_merge_point(args=args, loops=loops, stack=stack,
                                      bytecode=bytecode, pos=pos)
        bytecode = hint(bytecode, deepfreeze=True)
        if pos >= len(bytecode):
            break
        opcode = bytecode[pos]
        hint(opcode, concrete=True)    # same as in tiny1.py
        pos += 1
        if   opcode == 'ADD':
            stack = op2(stack, func_add_int, func_add_float)
        elif opcode == 'SUB':
            stack = op2(stack, func_sub_int, func_sub_float)
        elif opcode == 'MUL':
            stack = op2(stack, func_mul_int, func_mul_float)
        elif opcode[0] == '#':
            n = myint(opcode, start=1)
            stack = Stack(args[n-1], stack)
        elif opcode.startswith('->#'):
            n = myint(opcode, start=3)
            if n > len(args):
                raise IndexError
            stack, args[n-1] = stack.pop()
        elif opcode == '{':
            loops.append(pos)
        elif opcode == '}':
            stack, flag = stack.pop()
            if flag.as_int() == 0:
                loops.pop()
            else:
                pos = loops[-1]
                # A common problem when interpreting loops or jumps: the 'pos'
                # above is read out of a list, so the hint-annotator thinks
                # it must be red (not a compile-time constant).  But the
                # hint(opcode, concrete=True) in the next iteration of the
                # loop requires all variables the 'opcode' depends on to be
                # green, including this 'pos'.  We promote 'pos' to a green
                # here, as early as possible.  Note that in practice the 'pos'
                # read out of the 'loops' list will be a compile-time constant
                # because it was pushed as a compile-time constant by the '{'
                # case above into 'loops', which is a virtual list, so the
                # promotion below is just a way to make the colors match.
                pos = promote(pos)
                tinyjitdriver.can_enter_jit(args=args, loops=loops, stack=stack,
                                            bytecode=bytecode, pos=pos)
        else:
            try:
                try:
                    v = IntBox(int(opcode))
                except ValueError:
                    v = FloatBox(myfloat(opcode))
                stack = Stack(v, stack)
            except ValueError:
                pass # ignore rest
    return stack


def repr(stack):
    # this bit moved out of the portal function because JIT'ing it is not
    # very useful, and the JIT generator is confused by the 'for' right now...
    lst = []
    while stack:
        stack, x = stack.pop()
        lst.append(x.as_str())
    lst.reverse()
    return ' '.join(lst)


# ------------------------------
# Pure workaround code!  It will eventually be unnecessary.
# For now, myint(s, n) is a JIT-friendly way to spell int(s[n:]).
# We don't support negative numbers, though.
def myint_internal(s, start=0):
    if start >= len(s):
        return -1
    res = 0
    while start < len(s):
        c = s[start]
        n = ord(c) - ord('0')
        if not (0 <= n <= 9):
            return -1
        res = res * 10 + n
        start += 1
    return res
def myint(s, start=0):
    n = myint_internal(s, start)
    if n < 0:
        raise ValueError
    return n

@specialize.argtype(0)
def myfloat(i):
    return float(i)
# ------------------------------


FACTORIAL = """The factorial of #1 is
                  1 { #1 MUL #1 1 SUB ->#1 #1 }""".split()

FIBONACCI = """Fibonacci numbers:
                  { #1 #2 #1 #2 ADD ->#2 ->#1 #3 1 SUB ->#3 #3 }""".split()

FIBONACCI_SINGLE = """#3 1 SUB ->#3 { #2 #1 #2 ADD ->#2 ->#1 #3 1 SUB ->#3 #3 } #1""".split()


def help(err="Invalid command line arguments."):
    print(err)
    print(highleveljitinfo.sys_executable, end=" ")
    print("[-j param=value,...]", end=" ")
    print("'tiny3 program string' arg0 [arg1 [arg2 [...]]]")
    return 1

def entry_point(args):
    """Main entry point of the stand-alone executable:
    takes a list of strings and returns the exit code.
    """
    # store args[0] in a place where the JIT log can find it (used by
    # viewcode.py to know the executable whose symbols it should display)
    highleveljitinfo.sys_executable = args.pop(0)
    if len(args) < 1:
        return help()
    if args[0] == '-j':
        if len(args) < 3:
            return help()
        try:
            set_user_param(tinyjitdriver, args[1])
        except ValueError:
            return help("Bad argument to -j.")
        args = args[2:]
    bytecode = [s for s in args[0].split(' ') if s != '']
    real_args = []
    for arg in args[1:]:
        try:
            real_args.append(IntBox(int(arg)))
        except ValueError:
            real_args.append(FloatBox(myfloat(arg)))
    res = interpret(bytecode, real_args)
    print(repr(res))
    return 0

def target(*args):
    return entry_point, None

if __name__ == "__main__":
    import sys
    sys.exit(entry_point(sys.argv))
