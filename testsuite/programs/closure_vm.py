# rpy3-args: 22
"""A tiny stack-based VM with first-class closures: a compiler from a small
s-expression language to bytecode, upvalue capture by cells, and a
dispatch loop.  Uses super(), __call__, __bool__, yield from, walrus.

Source: written for rpy3's own test suite (2026-11), not a port; it tries rpy3 on a program written the way a Python programmer who knows RPython's rules writes one. Unchanged since it was written.
"""
import sys


class VMError(Exception):
    pass


# ---- values ----
class Value:
    def truthy(self):
        return True

    def __bool__(self):
        return self.truthy()

    def show(self):
        return "<value>"


class IntV(Value):
    def __init__(self, n):
        self.n = n

    def truthy(self):
        return self.n != 0

    def show(self):
        return str(self.n)


class NilV(Value):
    def truthy(self):
        return False

    def show(self):
        return "nil"


NIL = NilV()


class Cell:
    def __init__(self, value):
        self.value = value


class Code:
    def __init__(self, name, params, ops, consts, nlocals, freevars):
        self.name = name
        self.params = params
        self.ops = ops
        self.consts = consts
        self.nlocals = nlocals
        self.freevars = freevars   # list of (from_local, index)


class ClosureV(Value):
    def __init__(self, code, cells):
        self.code = code
        self.cells = cells

    def show(self):
        return "<closure %s/%d>" % (self.code.name, len(self.code.params))


# ---- reader ----
def tokens(src):
    for tok in src.replace("(", " ( ").replace(")", " ) ").split():
        yield tok


def read(src):
    toks = list(tokens(src))
    pos = 0

    def parse():
        nonlocal pos
        if pos >= len(toks):
            raise VMError("unexpected end of input")
        t = toks[pos]
        pos += 1
        if t == "(":
            items = []
            while pos < len(toks) and toks[pos] != ")":
                items.append(parse())
            if pos >= len(toks):
                raise VMError("missing )")
            pos += 1
            return SList(items)
        if t == ")":
            raise VMError("unexpected )")
        return SAtom(t)

    forms = []
    while pos < len(toks):
        forms.append(parse())
    return forms


class SExpr:
    def is_atom(self):
        return False

    def __len__(self):
        return 0


class SAtom(SExpr):
    def __init__(self, text):
        self.text = text

    def is_atom(self):
        return True


class SList(SExpr):
    def __init__(self, items):
        self.items = items

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]

    def head(self):
        if self.items and self.items[0].is_atom():
            return atom_text(self.items[0])
        return ""


def atom_text(e):
    assert isinstance(e, SAtom)
    return e.text


# ---- compiler ----
CONST, LOAD, STORE, LOADCELL, STORECELL, ADD, SUB, MUL, LT, EQ, JMP, JF, CALL, RET, POP, MKCLOS, PRINT, MOD = range(18)
OPNAMES = "CONST LOAD STORE LOADCELL STORECELL ADD SUB MUL LT EQ JMP JF CALL RET POP MKCLOS PRINT MOD".split()
BINOPS = {"+": ADD, "-": SUB, "*": MUL, "<": LT, "=": EQ, "%": MOD}


class Scope:
    def __init__(self, params, parent):
        self.locals = list(params)
        self.parent = parent
        self.freevars = []      # names
        self.free_src = []      # (from_local, index) in parent
        self.captured = set()

    def resolve(self, name):
        """Returns ('local', i), ('free', i) or ('global', 0)."""
        if name in self.locals:
            return "local", self.locals.index(name)
        if name in self.freevars:
            return "free", self.freevars.index(name)
        if self.parent is None:
            return "global", 0
        kind, idx = self.parent.resolve(name)
        if kind == "global":
            return "global", 0
        self.freevars.append(name)
        self.free_src.append((kind == "local", idx))
        return "free", len(self.freevars) - 1


class Compiler:
    def __init__(self, name, params, parent=None):
        self.name = name
        self.params = params
        self.scope = Scope(params, parent.scope if parent is not None else None)
        self.ops = []
        self.consts = []

    def emit(self, op, arg=0):
        self.ops.append((op, arg))
        return len(self.ops) - 1

    def const(self, v):
        self.consts.append(v)
        return len(self.consts) - 1

    def compile_body(self, forms):
        for i, f in enumerate(forms):
            self.expr(f)
            if i < len(forms) - 1:
                self.emit(POP)
        if not forms:
            self.emit(CONST, self.const(NIL))
        self.emit(RET)
        return Code(self.name, self.params, self.ops, self.consts, len(self.scope.locals),
                    list(self.scope.free_src))

    def load_name(self, name):
        kind, idx = self.scope.resolve(name)
        if kind == "local":
            self.emit(LOAD, idx)
        elif kind == "free":
            self.emit(LOADCELL, idx)
        else:
            raise VMError("unbound variable " + name)

    def expr(self, e):
        if isinstance(e, SAtom):
            t = e.text
            if t.lstrip("-").isdigit():
                self.emit(CONST, self.const(IntV(int(t))))
            elif t == "nil":
                self.emit(CONST, self.const(NIL))
            else:
                self.load_name(t)
            return
        assert isinstance(e, SList)
        if len(e) == 0:
            raise VMError("empty application")
        head = e.head()
        if head in BINOPS and len(e) == 3:
            self.expr(e[1])
            self.expr(e[2])
            self.emit(BINOPS[head])
        elif head == "if":
            self.expr(e[1])
            jf = self.emit(JF)
            self.expr(e[2])
            j = self.emit(JMP)
            self.ops[jf] = (JF, len(self.ops))
            if len(e) > 3:
                self.expr(e[3])
            else:
                self.emit(CONST, self.const(NIL))
            self.ops[j] = (JMP, len(self.ops))
        elif head == "let":
            name = atom_text(e[1])
            self.expr(e[2])
            if name not in self.scope.locals:
                self.scope.locals.append(name)
            self.emit(STORE, self.scope.locals.index(name))
            self.emit(LOAD, self.scope.locals.index(name))
        elif head == "set!":
            name = atom_text(e[1])
            self.expr(e[2])
            kind, idx = self.scope.resolve(name)
            if kind == "local":
                self.emit(STORE, idx)
                self.emit(LOAD, idx)
            elif kind == "free":
                self.emit(STORECELL, idx)
                self.emit(LOADCELL, idx)
            else:
                raise VMError("cannot set unbound " + name)
        elif head == "fn":
            plist = e[1]
            assert isinstance(plist, SList)
            params = [atom_text(p) for p in plist.items]
            sub = Compiler("lambda", params, self)
            code = sub.compile_body(e.items[2:])
            self.emit(MKCLOS, self.const(ClosureCodeV(code)))
        elif head == "print":
            self.expr(e[1])
            self.emit(PRINT)
        elif head == "do":
            for i, f in enumerate(e.items[1:]):
                self.expr(f)
                if i < len(e) - 2:
                    self.emit(POP)
        elif head == "while":
            top = len(self.ops)
            self.expr(e[1])
            jf = self.emit(JF)
            for f in e.items[2:]:
                self.expr(f)
                self.emit(POP)
            self.emit(JMP, top)
            self.ops[jf] = (JF, len(self.ops))
            self.emit(CONST, self.const(NIL))
        else:
            self.expr(e[0])
            for a in e.items[1:]:
                self.expr(a)
            self.emit(CALL, len(e) - 1)


class ClosureCodeV(Value):
    def __init__(self, code):
        self.code = code


# ---- VM ----
class Frame:
    def __init__(self, closure, args):
        code = closure.code
        self.closure = closure
        self.locals = args + [NIL] * (code.nlocals - len(args))
        # all locals live in cells so that closures can share them
        self.cells = [Cell(v) for v in self.locals]
        self.pc = 0
        self.stack = []


class VM:
    def __init__(self, out):
        self.out = out
        self.steps = 0
        self.max_depth = 0

    def __call__(self, closure, args):
        return self.run(closure, args, 0)

    def run(self, closure, args, depth):
        if depth > 200:
            raise VMError("stack overflow")
        self.max_depth = max(self.max_depth, depth)
        if len(args) != len(closure.code.params):
            raise VMError("%s expects %d args, got %d" % (closure.code.name, len(closure.code.params), len(args)))
        f = Frame(closure, args)
        code = closure.code
        ops = code.ops
        while True:
            op, arg = ops[f.pc]
            f.pc += 1
            self.steps += 1
            st = f.stack
            if op == CONST:
                st.append(code.consts[arg])
            elif op == LOAD:
                st.append(f.cells[arg].value)
            elif op == STORE:
                if arg >= len(f.cells):
                    f.cells.append(Cell(NIL))
                f.cells[arg].value = st.pop()
            elif op == LOADCELL:
                st.append(closure.cells[arg].value)
            elif op == STORECELL:
                closure.cells[arg].value = st.pop()
            elif op in (ADD, SUB, MUL, LT, EQ, MOD):
                b = st.pop()
                a = st.pop()
                if not (isinstance(a, IntV) and isinstance(b, IntV)):
                    raise VMError("arithmetic on non-integers: %s, %s" % (a.show(), b.show()))
                x, y = a.n, b.n
                if op == ADD:
                    r = x + y
                elif op == SUB:
                    r = x - y
                elif op == MUL:
                    r = x * y
                elif op == LT:
                    r = int(x < y)
                elif op == EQ:
                    r = int(x == y)
                else:
                    if y == 0:
                        raise VMError("modulo by zero")
                    r = x % y
                st.append(IntV(r))
            elif op == JMP:
                f.pc = arg
            elif op == JF:
                if not st.pop():
                    f.pc = arg
            elif op == CALL:
                cargs = st[len(st) - arg:]
                del st[len(st) - arg:]
                fn = st.pop()
                if not isinstance(fn, ClosureV):
                    raise VMError("not callable: " + fn.show())
                st.append(self.run(fn, cargs, depth + 1))
            elif op == RET:
                return st.pop()
            elif op == POP:
                st.pop()
            elif op == MKCLOS:
                cc = code.consts[arg]
                assert isinstance(cc, ClosureCodeV)
                cells = []
                for from_local, idx in cc.code.freevars:
                    cells.append(f.cells[idx] if from_local else closure.cells[idx])
                st.append(ClosureV(cc.code, cells))
            elif op == PRINT:
                v = st[-1]
                self.out.append(v.show())
            else:
                raise VMError("bad opcode %d" % op)


def disasm(code):
    for i, (op, arg) in enumerate(code.ops):
        yield "%3d %-9s %d" % (i, OPNAMES[op], arg)
    for c in code.consts:
        if isinstance(c, ClosureCodeV):
            yield from disasm(c.code)


PROGRAMS = [
    ("counter", """
     (let make (fn () (let n 0) (fn () (set! n (+ n 1)))))
     (let c1 (make)) (let c2 (make))
     (c1) (c1) (c2)
     (print (c1)) (print (c2))"""),
    ("fib", """
     (let fib nil)
     (set! fib (fn (n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2))))))
     (print (fib N))"""),
    ("adder", """
     (let add (fn (a) (fn (b) (fn (c) (+ a (* b c))))))
     (print (((add 1) 2) 3))"""),
    ("loop", """
     (let i 0) (let s 0)
     (while (< i N) (set! s (+ s (* i i))) (set! i (+ i 1)))
     (print s)"""),
    ("gcd", """
     (let gcd nil)
     (set! gcd (fn (a b) (if (= b 0) a (gcd b (% a b)))))
     (print (gcd 1071 462))"""),
    ("bad-call", "(let f (fn (x) x)) (f 1 2)"),
    ("bad-arith", "(+ 1 (fn () 1))"),
    ("unbound", "(+ 1 zz)"),
    ("syntax", "(let x (+ 1 2)"),
    ("deep", "(let r nil) (set! r (fn (n) (r (+ n 1)))) (r 0)"),
]


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 15
    total_steps = 0
    for name, src in PROGRAMS:
        out = []
        vm = VM(out)
        try:
            forms = read(src.replace("N", str(n)))
            code = Compiler(name, []).compile_body(forms)
            result = vm(ClosureV(code, []), [])
            print("%-10s -> %-8s out=%s steps=%d depth=%d" % (name, result.show(), out, vm.steps, vm.max_depth))
        except VMError as e:
            print("%-10s !! %s (after %d steps)" % (name, e, vm.steps))
        total_steps += vm.steps
    code = Compiler("adder", []).compile_body(read(PROGRAMS[2][1]))
    listing = list(disasm(code))
    print(len(listing), "lines; first:", listing[:3])
    print("total steps:", total_steps, "truthiness:", bool(IntV(0)), bool(IntV(3)), bool(NIL), not NIL)
    return 0


def entry_point(argv):
    return main(argv)


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    sys.exit(entry_point(sys.argv))
