# rpy3-args: 300
"""Tokenizer + recursive-descent parser + evaluator for a small arithmetic
language with variables, assignments, comparisons and function calls.

Source: written for rpy3's own test suite (2026-11), not a port; it tries rpy3 on a program written the way a Python programmer who knows RPython's rules writes one. Unchanged since it was written.
"""
import sys


class Token:
    def __init__(self, kind, text, pos):
        self.kind = kind
        self.text = text
        self.pos = pos

    def __repr__(self):
        return "Token(%s, %r, %d)" % (self.kind, self.text, self.pos)


class CalcError(Exception):
    def __init__(self, msg, pos=-1):
        Exception.__init__(self, msg)
        self.msg = msg
        self.pos = pos


KEYWORDS = {"let": "LET", "if": "IF", "then": "THEN", "else": "ELSE"}
OPS = "+-*/%()=<>,^"


def tokenize(src):
    tokens = []
    i = 0
    n = len(src)
    while i < n:
        c = src[i]
        if c.isspace():
            i += 1
            continue
        if c.isdigit():
            j = i
            while j < n and (src[j].isdigit() or src[j] == "."):
                j += 1
            tokens.append(Token("NUM", src[i:j], i))
            i = j
        elif c.isalpha() or c == "_":
            j = i
            while j < n and (src[j].isalnum() or src[j] == "_"):
                j += 1
            word = src[i:j]
            kind = KEYWORDS.get(word, "NAME")
            tokens.append(Token(kind, word, i))
            i = j
        elif c in OPS:
            if c in "<>=" and i + 1 < n and src[i + 1] == "=":
                tokens.append(Token("OP", src[i:i + 2], i))
                i += 2
            else:
                tokens.append(Token("OP", c, i))
                i += 1
        else:
            raise CalcError("bad character %r" % c, i)
    tokens.append(Token("EOF", "", n))
    return tokens


class Node:
    def evaluate(self, env):
        raise NotImplementedError

    def show(self):
        return "?"


class Num(Node):
    def __init__(self, value):
        self.value = value

    def evaluate(self, env):
        return self.value

    def show(self):
        return "%g" % self.value


class Var(Node):
    def __init__(self, name):
        self.name = name

    def evaluate(self, env):
        if self.name not in env.vars:
            raise CalcError("undefined variable " + self.name)
        return env.vars[self.name]

    def show(self):
        return self.name


class BinOp(Node):
    def __init__(self, op, left, right):
        self.op = op
        self.left = left
        self.right = right

    def evaluate(self, env):
        a = self.left.evaluate(env)
        b = self.right.evaluate(env)
        op = self.op
        if op == "+":
            return a + b
        elif op == "-":
            return a - b
        elif op == "*":
            return a * b
        elif op == "/":
            if b == 0.0:
                raise CalcError("division by zero")
            return a / b
        elif op == "%":
            if b == 0.0:
                raise CalcError("modulo by zero")
            return a % b
        elif op == "^":
            return a ** b
        elif op == "<":
            return 1.0 if a < b else 0.0
        elif op == ">":
            return 1.0 if a > b else 0.0
        elif op == "<=":
            return 1.0 if a <= b else 0.0
        elif op == ">=":
            return 1.0 if a >= b else 0.0
        elif op == "==":
            return 1.0 if a == b else 0.0
        raise CalcError("unknown operator " + op)

    def show(self):
        return "(%s %s %s)" % (self.left.show(), self.op, self.right.show())


class Neg(Node):
    def __init__(self, operand):
        self.operand = operand

    def evaluate(self, env):
        return -self.operand.evaluate(env)

    def show(self):
        return "-" + self.operand.show()


class Call(Node):
    def __init__(self, name, args):
        self.name = name
        self.args = args

    def evaluate(self, env):
        vals = [a.evaluate(env) for a in self.args]
        if self.name == "max":
            return max(vals)
        if self.name == "min":
            return min(vals)
        if self.name == "abs" and len(vals) == 1:
            return abs(vals[0])
        if self.name == "sum":
            return sum(vals)
        raise CalcError("unknown function %s/%d" % (self.name, len(vals)))

    def show(self):
        return "%s(%s)" % (self.name, ", ".join([a.show() for a in self.args]))


class IfExpr(Node):
    def __init__(self, cond, yes, no):
        self.cond = cond
        self.yes = yes
        self.no = no

    def evaluate(self, env):
        if self.cond.evaluate(env) != 0.0:
            return self.yes.evaluate(env)
        return self.no.evaluate(env)

    def show(self):
        return "if %s then %s else %s" % (self.cond.show(), self.yes.show(), self.no.show())


class Let(Node):
    def __init__(self, name, expr):
        self.name = name
        self.expr = expr

    def evaluate(self, env):
        v = self.expr.evaluate(env)
        env.vars[self.name] = v
        return v

    def show(self):
        return "let %s = %s" % (self.name, self.expr.show())


class Env:
    def __init__(self):
        self.vars = {}


PRECEDENCE = {"==": 1, "<": 2, ">": 2, "<=": 2, ">=": 2,
              "+": 3, "-": 3, "*": 4, "/": 4, "%": 4, "^": 5}


class Parser:
    def __init__(self, tokens):
        self.tokens = tokens
        self.pos = 0

    @property
    def current(self):
        return self.tokens[self.pos]

    def advance(self):
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def expect(self, kind, text=None):
        tok = self.current
        if tok.kind != kind or (text is not None and tok.text != text):
            raise CalcError("expected %s but got %r" % (text or kind, tok.text), tok.pos)
        return self.advance()

    def parse_statement(self):
        if self.current.kind == "LET":
            self.advance()
            name = self.expect("NAME").text
            self.expect("OP", "=")
            node = Let(name, self.parse_expr(0))
        else:
            node = self.parse_expr(0)
        self.expect("EOF")
        return node

    def parse_expr(self, min_prec):
        left = self.parse_unary()
        while True:
            tok = self.current
            if tok.kind != "OP" or tok.text not in PRECEDENCE:
                break
            prec = PRECEDENCE[tok.text]
            if prec < min_prec:
                break
            self.advance()
            # ^ is right associative
            next_min = prec if tok.text == "^" else prec + 1
            right = self.parse_expr(next_min)
            left = BinOp(tok.text, left, right)
        return left

    def parse_unary(self):
        tok = self.current
        if tok.kind == "OP" and tok.text == "-":
            self.advance()
            return Neg(self.parse_unary())
        return self.parse_primary()

    def parse_primary(self):
        tok = self.advance()
        if tok.kind == "NUM":
            return Num(float(tok.text))
        if tok.kind == "NAME":
            if self.current.kind == "OP" and self.current.text == "(":
                self.advance()
                args = []
                if not (self.current.kind == "OP" and self.current.text == ")"):
                    args.append(self.parse_expr(0))
                    while self.current.kind == "OP" and self.current.text == ",":
                        self.advance()
                        args.append(self.parse_expr(0))
                self.expect("OP", ")")
                return Call(tok.text, args)
            return Var(tok.text)
        if tok.kind == "IF":
            cond = self.parse_expr(0)
            self.expect("THEN")
            yes = self.parse_expr(0)
            self.expect("ELSE")
            no = self.parse_expr(0)
            return IfExpr(cond, yes, no)
        if tok.kind == "OP" and tok.text == "(":
            e = self.parse_expr(0)
            self.expect("OP", ")")
            return e
        raise CalcError("unexpected token %r" % tok.text, tok.pos)


SCRIPT = [
    "let x = 3",
    "let y = x * 4 + 2",
    "y / 7",
    "2 ^ 3 ^ 2",
    "-x + -(-y)",
    "max(x, y, 10) - min(1, 2)",
    "if x < y then x else y",
    "let z = if y >= 14 then 100 else 0",
    "z % 7",
    "abs(-12.5) * 2",
    "1 / (x - 3)",
    "foo + 1",
    "3 + * 4",
    "sum(1, 2, 3, 4)",
    "bar(1)",
    "x == 3",
    "7 $ 2",
    "(1 + 2",
]


def run_line(env, line):
    try:
        tokens = tokenize(line)
        tree = Parser(tokens).parse_statement()
        value = tree.evaluate(env)
        return "%-28s => %s = %.4f" % (line, tree.show(), value)
    except CalcError as e:
        if e.pos >= 0:
            return "%-28s !! %s at %d" % (line, e.msg, e.pos)
        return "%-28s !! %s" % (line, e.msg)


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 100
    env = Env()
    for line in SCRIPT:
        print(run_line(env, line))
    # stress: evaluate a generated expression repeatedly
    total = 0.0
    for i in range(n):
        env.vars["i"] = float(i)
        src = "let acc = (i * %d + %d) %% 17 + if i > %d then 1 else 0" % (i % 5 + 1, i % 3, n // 2)
        tree = Parser(tokenize(src)).parse_statement()
        total += tree.evaluate(env)
    print("total:", total, "acc:", env.vars["acc"])
    names = sorted(env.vars.keys())
    print("vars:", ", ".join(["%s=%r" % (k, env.vars[k]) for k in names]))
    print(repr(tokenize("let a1 = 2.5 <= b")[3]))
    return 0


def entry_point(argv):
    return main(argv)


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    sys.exit(entry_point(sys.argv))
