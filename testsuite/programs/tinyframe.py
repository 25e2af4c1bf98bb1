"""tinyframe: PyPy's toy register-machine interpreter with frame
introspection and first-class (composable) functions, with its target.

Source: pypy/pypy, rpython/jit/tl/tinyframe/tinyframe.py (the interpreter),
rpython/jit/tl/tinyframe/support.py (its quicksort),
rpython/jit/tl/tinyframe/targettinyframe.py (the entry point) and the two
example programs rpython/jit/tl/tinyframe/examples/loop.tf and simple.tf.
Licence: MIT (PyPy's LICENSE).

Changes made for rpy3:
- the files are joined into one module; support.py's functions are pasted
  in place of `from rpython.jit.tl.tinyframe.support import sort`;
- `JitDriver`, `hint`, `dont_look_inside` (rpython.rlib.jit) are replaced by
  local stand-ins that do nothing (there is no JIT here);
  `unrolling_iterable` is imported from rpy3.rlib.unroll when that exists,
  else replaced by a local iterable class (which CPython can run but which
  RPython would not unroll);
- files are not read: `open_file_as_stream` is a local stand-in that returns
  the text of the example program of that name (loop.tf, simple.tf), pasted
  into the EXAMPLES dict; two more programs taken from the test file
  rpython/jit/tl/tinyframe/test/test_tinyframe.py (test_function_combination
  and test_print) are added to that dict as combine.tf and print.tf;
- `values = self.functions.values()` became
  `values = list(self.functions.values())` (Python 3 dict views cannot be
  sorted in place);
- `from __future__ import print_function` dropped, the `jitpolicy` hook of
  the target (needs rpython.jit.codewriter) dropped, `entry_point` and
  `target` of the target file added, and the `__main__` block now calls
  `entry_point` (the original printed the docstring without arguments).

Original docstring:

Run tinyframe.py <input file> [int value reg0] [int value reg1] ...

Interpreter for a tiny interpreter with frame introspection. Supports
integer values and function values. The machine is
register based with untyped registers.

Opcodes:
ADD r1 r2 => r3 # integer addition or function combination,
                 # depending on argument types
                 # if r1 has a function f and r2 has a function g
                 # the result will be a function lambda arg : f(g(arg))
                 # this is also a way to achieve indirect call
INTROSPECT r1 => r2 # frame introspection - load a register with number
                    # pointed by r1 (must be int) to r2
PRINT r # print a register
CALL r1 r2 => r3 # call a function in register one with argument in r2 and
                 # result in r3
LOAD_FUNCTION <name> => r # load a function named name into register r
LOAD <int constant> => r # load an integer constant into register r
RETURN r1
JUMP @label # jump + or - by x opcodes
JUMP_IF_ABOVE r1 r2 @label # jump if value in r1 is above
# value in r2

function argument always comes in r0
"""

# rpy3-args: loop.tf 100000
# rpy3-args: print.tf



# ---- local stand-ins for rpython.rlib.jit (there is no JIT here) ----
class JitDriver(object):
    def __init__(self, greens=None, reds=None, virtualizables=None):
        pass

    def jit_merge_point(_self, self=None, code=None, i=None):
        pass

    def can_enter_jit(_self, self=None, code=None, i=None):
        pass


def hint(x, access_directly=False, fresh_virtualizable=False):
    return x


def dont_look_inside(func):
    return func


# ---- rpython.rlib.unroll.unrolling_iterable: rpy3's if it has one, else a
# ---- local stand-in (enough for CPython; RPython unrolls loops over it) ----
try:
    from rpy3.rlib.unroll import unrolling_iterable
except ImportError:
    class unrolling_iterable(object):
        def __init__(self, items):
            self._items = tuple(items)

        def __iter__(self):
            return iter(self._items)


# ---- rpython/jit/tl/tinyframe/support.py ----
def partition(array, left, right):
    last_item = array[right]
    pivot = last_item[0]
    storeindex = left
    for i in range(left, right):
        if array[i][0] <= pivot:
            array[i], array[storeindex] = array[storeindex], array[i]
            storeindex += 1
    # Move pivot to its final place
    array[storeindex], array[right] = last_item, array[storeindex]
    return storeindex

def quicksort(array, left, right):
    # sort array[left:right+1] (i.e. bounds included)
    if right > left:
        pivotnewindex = partition(array, left, right)
        quicksort(array, left, pivotnewindex - 1)
        quicksort(array, pivotnewindex + 1, right)

def sort(array):
    quicksort(array, 0, len(array) - 1)


# ---- the example programs of rpython/jit/tl/tinyframe/examples/ ----
EXAMPLES = {
    "loop.tf": """main:
LOAD 0 => r1
LOAD 1 => r2
@add
ADD r2 r1 => r1
JUMP_IF_ABOVE r0 r1 @add
RETURN r1
""",
    # the next two are the programs of test_function_combination and
    # test_print in rpython/jit/tl/tinyframe/test/test_tinyframe.py
    "combine.tf": """
        inner:
        LOAD 2 => r1
        ADD r1 r0 => r0
        RETURN r0
        outer:
        LOAD 1 => r1
        ADD r1 r0 => r2
        RETURN r2
        main:
        LOAD_FUNCTION inner => r0
        LOAD_FUNCTION outer => r1
        ADD r1 r0 => r2
        LOAD 1 => r3
        CALL r2 r3 => r4
        RETURN r4
        """,
    "print.tf": """
        name:
        RETURN r0
        main:
        LOAD 0 => r1
        PRINT r1
        LOAD_FUNCTION name => r1
        PRINT r1
        ADD r1 r1 => r2
        PRINT r2
        RETURN r1
        """,
    "simple.tf": """main:
LOAD 0 => r1
LOAD 2 => r2
ADD r1 r2 => r3
PRINT r3
RETURN r3
""",
}


def open_file_as_stream(fname, mode):
    return ExampleFile(EXAMPLES[fname])


class ExampleFile(object):
    def __init__(self, text):
        self.text = text

    def readall(self):
        return self.text

    def close(self):
        pass
# ----------------------------------------------------------------------

opcodes = ['ADD', 'INTROSPECT', 'PRINT', 'CALL', 'LOAD', 'LOAD_FUNCTION',
           'RETURN', 'JUMP', 'JUMP_IF_ABOVE']
unrolling_opcodes = unrolling_iterable(opcodes)
for i, opcode in enumerate(opcodes):
    globals()[opcode] = i

class Code(object):
    def __init__(self, code, regno, functions, name):
        self.code = code
        self.regno = regno
        self.functions = functions
        self.name = name

class Parser(object):

    name = None

    def compile(self, strrepr):
        self.code = []
        self.maxregno = 0
        self.functions = {}
        self.labels = {}
        lines = strrepr.splitlines()
        for line in lines:
            comment = line.find('#')
            if comment != -1:
                assert comment >= 0
                line = line[:comment]
            line = line.strip(" ")
            if not line:
                continue
            if line.endswith(':'):
                # a name
                self.finish_currect_code()
                self.name = line[:-1]
                continue
            if line.startswith('@'):
                self.labels[line[1:]] = len(self.code)
                continue
            firstspace = line.find(" ")
            assert firstspace >= 0
            opcode = line[:firstspace]
            args = line[firstspace + 1:]
            for name in unrolling_opcodes:
                if opcode == name:
                    getattr(self, 'compile_' + name)(args)
        values = list(self.functions.values())
        sort(values)
        functions = [code for i, code in values]
        assert self.name == 'main'
        return Code("".join([chr(i) for i in self.code]), self.maxregno + 1,
                    functions, self.name)

    def finish_currect_code(self):
        if self.name is None:
            assert not self.code
            return
        code = Code("".join([chr(i) for i in self.code]), self.maxregno + 1,
                    [], self.name)
        self.functions[self.name] = (len(self.functions), code)
        self.name = None
        self.labels = {}
        self.code = []
        self.maxregno = 0

    def rint(self, arg):
        assert arg.startswith('r')
        no = int(arg[1:])
        self.maxregno = max(self.maxregno, no)
        return no

    def compile_ADD(self, args):
        args, result = args.split("=")
        result = result[1:]
        arg0, arg1 = args.strip(" ").split(" ")
        self.code += [ADD, self.rint(arg0), self.rint(arg1),
                      self.rint(result.strip(" "))]

    def compile_LOAD(self, args):
        arg0, result = args.split("=")
        result = result[1:]
        arg0 = arg0.strip(" ")
        self.code += [LOAD, int(arg0), self.rint(result.strip(" "))]

    def compile_PRINT(self, args):
        arg = self.rint(args.strip(" "))
        self.code += [PRINT, arg]

    def compile_RETURN(self, args):
        arg = self.rint(args.strip(" "))
        self.code += [RETURN, arg]

    def compile_JUMP_IF_ABOVE(self, args):
        arg0, arg1, label = args.split(" ")
        self.code += [JUMP_IF_ABOVE, self.rint(arg0.strip(" ")),
                      self.rint(arg1.strip(" ")), self.labels[label[1:]]]

    def compile_LOAD_FUNCTION(self, args):
        name, res = args.split("=")
        res = res[1:]
        no, code = self.functions[name.strip(" ")]
        self.code += [LOAD_FUNCTION, no, self.rint(res.strip(" "))]

    def compile_CALL(self, args):
        args, res = args.split("=")
        res = res[1:]
        arg0, arg1 = args.strip(" ").split(" ")
        self.code += [CALL, self.rint(arg0.strip(" ")),
                      self.rint(arg1.strip(" ")),
                      self.rint(res.strip(" "))]

    def compile_INTROSPECT(self, args):
        arg, res = args.split("=")
        res = res[1:]
        self.code += [INTROSPECT, self.rint(arg.strip(" ")),
                      self.rint(res.strip(" "))]

    def compile_JUMP(self, args):
        raise NotImplementedError

def compile(strrepr):
    parser = Parser()
    return parser.compile(strrepr)

def disassemble(code):
    return [ord(i) for i in code.code]

class Object(object):
    def __init__(self):
        raise NotImplementedError("abstract base class")

    def add(self, other):
        raise NotImplementedError("abstract base class")

    def gt(self, other):
        raise NotImplementedError("abstract base class")

    def repr(self):
        raise NotImplementedError("abstract base class")

class Int(Object):
    def __init__(self, val):
        self.val = val

    def add(self, other):
        return Int(self.val + other.val)

    def gt(self, other):
        return self.val > other.val

    def repr(self):
        return str(self.val)

class Func(Object):
    def __init__(self, code):
        self.code = code

    def call(self, arg):
        f = Frame(self.code, arg)
        return f.interpret()

    def add(self, other):
        return CombinedFunc(self, other)

    def repr(self):
        return "<function %s>" % self.code.name

class CombinedFunc(Func):
    def __init__(self, outer, inner):
        self.outer = outer
        self.inner = inner

    def call(self, arg):
        return self.outer.call(self.inner.call(arg))

    def repr(self):
        return "<function %s(%s)>" % (self.outer.repr(), self.inner.repr())

driver = JitDriver(greens = ['i', 'code'], reds = ['self'],
                   virtualizables = ['self'])

class Frame(object):
    _virtualizable_ = ['registers[*]', 'code']

    def __init__(self, code, arg=None):
        self = hint(self, access_directly=True, fresh_virtualizable=True)
        self.code = code
        self.registers = [None] * code.regno
        self.registers[0] = arg

    def interpret(self):
        i = 0
        code = self.code.code
        while True:
            driver.jit_merge_point(self=self, code=code, i=i)
            opcode = ord(code[i])
            if opcode == LOAD:
                self.registers[ord(code[i + 2])] = Int(ord(code[i + 1]))
                i += 3
            elif opcode == ADD:
                arg1 = self.registers[ord(code[i + 1])]
                arg2 = self.registers[ord(code[i + 2])]
                self.registers[ord(code[i + 3])] = arg1.add(arg2)
                i += 4
            elif opcode == RETURN:
                return self.registers[ord(code[i + 1])]
            elif opcode == JUMP_IF_ABOVE:
                arg0 = self.registers[ord(code[i + 1])]
                arg1 = self.registers[ord(code[i + 2])]
                tgt = ord(code[i + 3])
                if arg0.gt(arg1):
                    i = tgt
                    driver.can_enter_jit(code=code, i=tgt, self=self)
                else:
                    i += 4
            elif opcode == LOAD_FUNCTION:
                f = self.code.functions[ord(code[i + 1])]
                self.registers[ord(code[i + 2])] = Func(f)
                i += 3
            elif opcode == CALL:
                f = self.registers[ord(code[i + 1])]
                arg = self.registers[ord(code[i + 2])]
                assert isinstance(f, Func)
                self.registers[ord(code[i + 3])] = f.call(arg)
                i += 4
            elif opcode == PRINT:
                arg = self.registers[ord(code[i + 1])]
                print(arg.repr())
                i += 2
            elif opcode == INTROSPECT:
                self.introspect(ord(code[i + 1]), ord(code[i + 2]))
                i += 3
            else:
                raise Exception("unimplemented opcode %s" % opcodes[opcode])

    @dont_look_inside
    def introspect(self, rarg, rresult):
        source = self.registers[rarg]
        assert isinstance(source, Int)
        self.registers[rresult] = self.registers[source.val]

def interpret(code):
    return Frame(code).interpret()

def main(fname, argv):
    f = open_file_as_stream(fname, "r")
    input = f.readall()
    f.close()
    code = compile(input)
    mainframe = Frame(code)
    for i in range(len(argv)):
        mainframe.registers[i] = Int(int(argv[i]))
    res = mainframe.interpret()
    print("Result:", res.repr())

def entry_point(argv):
    main(argv[1], argv[2:])
    return 0

# _____ Define and setup target ___

def target(*args):
    return entry_point, None


if __name__ == "__main__":
    import sys
    sys.exit(entry_point(sys.argv))
