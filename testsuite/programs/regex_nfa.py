# rpy3-args: 40
"""A regular-expression engine: parse to AST, compile to a Thompson NFA,
simulate with state sets.  Supports literals, ., [a-z] classes, [^...],
*, +, ?, |, grouping and anchors.

Source: written for rpy3's own test suite (2026-11), not a port; it tries rpy3 on a program written the way a Python programmer who knows RPython's rules writes one. Unchanged since it was written.
"""
import sys


class RegexSyntaxError(Exception):
    pass


# ---- AST ----
class RNode:
    def describe(self):
        return "?"


class Lit(RNode):
    def __init__(self, ch):
        self.ch = ch

    def describe(self):
        return "'" + self.ch + "'"


class Any(RNode):
    def describe(self):
        return "ANY"


class CharClass(RNode):
    def __init__(self, ranges, negated):
        self.ranges = ranges
        self.negated = negated

    def matches(self, ch):
        inside = False
        for lo, hi in self.ranges:
            if lo <= ch <= hi:
                inside = True
                break
        return inside != self.negated

    def describe(self):
        body = "".join([lo if lo == hi else lo + "-" + hi for lo, hi in self.ranges])
        return "[" + ("^" if self.negated else "") + body + "]"


class Concat(RNode):
    def __init__(self, parts):
        self.parts = parts

    def describe(self):
        return "Cat(" + ",".join([p.describe() for p in self.parts]) + ")"


class Alt(RNode):
    def __init__(self, left, right):
        self.left = left
        self.right = right

    def describe(self):
        return "Alt(" + self.left.describe() + "|" + self.right.describe() + ")"


class Repeat(RNode):
    def __init__(self, child, kind):
        self.child = child
        self.kind = kind   # '*', '+', '?'

    def describe(self):
        return self.child.describe() + self.kind


class Empty(RNode):
    def describe(self):
        return "()"


class RegexParser:
    def __init__(self, pattern):
        self.p = pattern
        self.i = 0

    def peek(self):
        if self.i < len(self.p):
            return self.p[self.i]
        return ""

    def next(self):
        c = self.p[self.i]
        self.i += 1
        return c

    def parse(self):
        node = self.parse_alt()
        if self.i != len(self.p):
            raise RegexSyntaxError("unexpected '%s' at %d" % (self.p[self.i], self.i))
        return node

    def parse_alt(self):
        left = self.parse_concat()
        while self.peek() == "|":
            self.next()
            right = self.parse_concat()
            left = Alt(left, right)
        return left

    def parse_concat(self):
        parts = []
        while self.peek() not in ("", "|", ")"):
            parts.append(self.parse_repeat())
        if not parts:
            return Empty()
        if len(parts) == 1:
            return parts[0]
        return Concat(parts)

    def parse_repeat(self):
        atom = self.parse_atom()
        while self.peek() in ("*", "+", "?") and self.peek() != "":
            atom = Repeat(atom, self.next())
        return atom

    def parse_atom(self):
        c = self.next()
        if c == "(":
            node = self.parse_alt()
            if self.peek() != ")":
                raise RegexSyntaxError("missing ) at %d" % self.i)
            self.next()
            return node
        if c == ".":
            return Any()
        if c == "[":
            return self.parse_class()
        if c == "\\":
            if self.peek() == "":
                raise RegexSyntaxError("trailing backslash")
            e = self.next()
            if e == "d":
                return CharClass([("0", "9")], False)
            if e == "w":
                return CharClass([("a", "z"), ("A", "Z"), ("0", "9"), ("_", "_")], False)
            if e == "s":
                return CharClass([(" ", " "), ("\t", "\t"), ("\n", "\n")], False)
            return Lit(e)
        if c in "*+?":
            raise RegexSyntaxError("nothing to repeat at %d" % (self.i - 1))
        return Lit(c)

    def parse_class(self):
        negated = False
        if self.peek() == "^":
            self.next()
            negated = True
        ranges = []
        while self.peek() != "]":
            if self.peek() == "":
                raise RegexSyntaxError("unterminated class")
            lo = self.next()
            hi = lo
            if self.peek() == "-" and self.i + 1 < len(self.p) and self.p[self.i + 1] != "]":
                self.next()
                hi = self.next()
            ranges.append((lo, hi))
        self.next()
        return CharClass(ranges, negated)


# ---- NFA ----
SPLIT = 1
CHAR = 2
ANY = 3
CLASS = 4
MATCH = 5


class State:
    counter = 0

    def __init__(self, kind):
        self.kind = kind
        self.ch = ""
        self.cls = None
        self.out1 = None
        self.out2 = None
        self.id = State.counter
        State.counter += 1


class Frag:
    def __init__(self, start, dangling):
        self.start = start
        self.dangling = dangling   # list of (state, which)


def patch(dangling, target):
    for st, which in dangling:
        if which == 1:
            st.out1 = target
        else:
            st.out2 = target


def compile_node(node):
    if isinstance(node, Lit):
        s = State(CHAR)
        s.ch = node.ch
        return Frag(s, [(s, 1)])
    if isinstance(node, Any):
        s = State(ANY)
        return Frag(s, [(s, 1)])
    if isinstance(node, CharClass):
        s = State(CLASS)
        s.cls = node
        return Frag(s, [(s, 1)])
    if isinstance(node, Concat):
        first = compile_node(node.parts[0])
        cur = first
        for part in node.parts[1:]:
            nxt = compile_node(part)
            patch(cur.dangling, nxt.start)
            cur = Frag(first.start, nxt.dangling)
        return cur
    if isinstance(node, Alt):
        a = compile_node(node.left)
        b = compile_node(node.right)
        s = State(SPLIT)
        s.out1 = a.start
        s.out2 = b.start
        return Frag(s, a.dangling + b.dangling)
    if isinstance(node, Repeat):
        c = compile_node(node.child)
        s = State(SPLIT)
        s.out1 = c.start
        if node.kind == "*":
            patch(c.dangling, s)
            return Frag(s, [(s, 2)])
        if node.kind == "+":
            patch(c.dangling, s)
            return Frag(c.start, [(s, 2)])
        return Frag(s, c.dangling + [(s, 2)])
    # Empty
    s = State(SPLIT)
    return Frag(s, [(s, 1), (s, 2)])


class Regex:
    def __init__(self, pattern):
        self.pattern = pattern
        self.anchored_start = pattern.startswith("^")
        body = pattern[1:] if self.anchored_start else pattern
        self.anchored_end = body.endswith("$") and not body.endswith("\\$")
        if self.anchored_end:
            body = body[:-1]
        self.ast = RegexParser(body).parse()
        frag = compile_node(self.ast)
        self.match_state = State(MATCH)
        patch(frag.dangling, self.match_state)
        self.start = frag.start

    def add_state(self, lst, seen, st):
        if st is None or st.id in seen:
            return
        seen.add(st.id)
        if st.kind == SPLIT:
            self.add_state(lst, seen, st.out1)
            self.add_state(lst, seen, st.out2)
        else:
            lst.append(st)

    def match_at(self, text, start):
        """Return end of the longest match starting at `start`, or -1."""
        current = []
        self.add_state(current, set(), self.start)
        best = -1
        i = start
        while True:
            for st in current:
                if st.kind == MATCH:
                    if not self.anchored_end or i == len(text):
                        best = i
            if i >= len(text) or not current:
                break
            ch = text[i]
            nxt = []
            seen = set()
            for st in current:
                ok = False
                if st.kind == CHAR:
                    ok = st.ch == ch
                elif st.kind == ANY:
                    ok = ch != "\n"
                elif st.kind == CLASS:
                    ok = st.cls.matches(ch)
                if ok:
                    self.add_state(nxt, seen, st.out1)
            current = nxt
            i += 1
        return best

    def search(self, text):
        last = 0 if self.anchored_start else len(text)
        for s in range(0, last + 1):
            e = self.match_at(text, s)
            if e >= 0:
                return (s, e)
        return None

    def findall(self, text):
        res = []
        pos = 0
        while pos <= len(text):
            e = self.match_at(text, pos)
            if e > pos:
                res.append(text[pos:e])
                pos = e
            else:
                pos += 1
        return res


TESTS = [
    ("a(b|c)*d", ["abcbd", "ad", "abxd", "xxabbbd"]),
    ("^[0-9]+(\\.[0-9]+)?$", ["3.14", "42", "3.", ".5", "12.5.6"]),
    ("colou?r", ["color", "colour", "colouur"]),
    ("[^aeiou ]+", ["strength training"]),
    ("\\w+@\\w+\\.com", ["mail bob@example.com now", "x@y.org"]),
    ("(ab)+$", ["abab", "ababa", "cabab"]),
    ("a**", ["aaa"]),
    ("(a|b", ["ab"]),
    ("x||y", ["y", "z"]),
]


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 20
    for pat, texts in TESTS:
        try:
            rx = Regex(pat)
        except RegexSyntaxError as e:
            print("%-22s error: %s" % (pat, e))
            continue
        print("%-22s ast=%s" % (pat, rx.ast.describe()))
        for t in texts:
            r = rx.search(t)
            if r is None:
                print("    %-26r no match" % t)
            else:
                s, e = r
                print("    %-26r match [%d:%d] %r" % (t, s, e, t[s:e]))
    words = Regex("[a-z]+[0-9]*")
    text = " ".join(["w%d x%da%d" % (i, i * 7 % 13, i) for i in range(n)])
    found = words.findall(text)
    print(len(found), found[:5], found[-3:])
    # pathological pattern (a?){k}a{k} against a^k: linear for NFA
    for k in range(5, n + 1, 5):
        pat = "a?" * k + "a" * k
        rx = Regex(pat)
        print("k=%d states=%d match=%s" % (k, State.counter, rx.search("a" * k)))
    return 0


def entry_point(argv):
    return main(argv)


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    sys.exit(entry_point(sys.argv))
