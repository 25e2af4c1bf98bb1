# rpy3-args: 60
"""A JSON-like data model with node classes, a hand-written parser and
serializer (compact and pretty), string escaping including non-ASCII,
structural equality, path queries, and a diff.

Source: written for rpy3's own test suite (2026-11), not a port; it tries rpy3 on a program written the way a Python programmer who knows RPython's rules writes one. Unchanged since it was written.
"""
import sys


class JSONError(Exception):
    def __init__(self, msg, pos):
        Exception.__init__(self, "%s at offset %d" % (msg, pos))
        self.pos = pos


class JNode:
    kind = "node"

    def __eq__(self, other):
        return self.kind == other.kind and self.equal(other)

    def __ne__(self, other):
        return not self.__eq__(other)

    def equal(self, other):
        return False

    def children(self):
        return []

    def size(self):
        return 1 + sum([c.size() for c in self.children()])


class JNull(JNode):
    kind = "null"

    def equal(self, other):
        return True


class JBool(JNode):
    kind = "bool"

    def __init__(self, v):
        self.v = v

    def equal(self, other):
        assert isinstance(other, JBool)
        return self.v == other.v


class JNum(JNode):
    kind = "num"

    def __init__(self, v, is_int):
        self.v = v
        self.is_int = is_int

    def equal(self, other):
        assert isinstance(other, JNum)
        return self.v == other.v


class JStr(JNode):
    kind = "str"

    def __init__(self, s):
        self.s = s

    def equal(self, other):
        assert isinstance(other, JStr)
        return self.s == other.s


class JArr(JNode):
    kind = "arr"

    def __init__(self, items):
        self.items = items

    def equal(self, other):
        assert isinstance(other, JArr)
        if len(self.items) != len(other.items):
            return False
        for a, b in zip(self.items, other.items):
            if a != b:
                return False
        return True

    def children(self):
        return self.items

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


class JObj(JNode):
    kind = "obj"

    def __init__(self):
        self.keys = []
        self.values = {}

    def put(self, k, v):
        if k not in self.values:
            self.keys.append(k)
        self.values[k] = v

    def equal(self, other):
        assert isinstance(other, JObj)
        if sorted(self.keys) != sorted(other.keys):
            return False
        return all(self.values[k] == other.values[k] for k in self.keys)

    def children(self):
        return [self.values[k] for k in self.keys]

    def __contains__(self, k):
        return k in self.values

    def __getitem__(self, k):
        return self.values[k]


ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b", "\f": "\\f"}
UNESCAPES = {'"': '"', "\\": "\\", "/": "/", "n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}


def quote(s, ascii_only):
    out = ['"']
    for ch in s:
        if ch in ESCAPES:
            out.append(ESCAPES[ch])
        elif ord(ch) < 0x20 or (ascii_only and ord(ch) > 0x7E):
            code = ord(ch)
            if code > 0xFFFF:
                code -= 0x10000
                out.append("\\u%04x\\u%04x" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)))
            else:
                out.append("\\u%04x" % code)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def fmt_num(n):
    if n.is_int:
        return str(int(n.v))
    return repr(n.v)


def dump(node, indent=-1, ascii_only=False, level=0):
    if isinstance(node, JNull):
        return "null"
    if isinstance(node, JBool):
        return "true" if node.v else "false"
    if isinstance(node, JNum):
        return fmt_num(node)
    if isinstance(node, JStr):
        return quote(node.s, ascii_only)
    if isinstance(node, JArr):
        if not node.items:
            return "[]"
        parts = [dump(c, indent, ascii_only, level + 1) for c in node.items]
        if indent < 0:
            return "[" + ",".join(parts) + "]"
        pad = " " * (indent * (level + 1))
        return "[\n" + ",\n".join([pad + p for p in parts]) + "\n" + " " * (indent * level) + "]"
    if isinstance(node, JObj):
        if not node.keys:
            return "{}"
        parts = [quote(k, ascii_only) + (": " if indent >= 0 else ":") +
                 dump(node.values[k], indent, ascii_only, level + 1) for k in node.keys]
        if indent < 0:
            return "{" + ",".join(parts) + "}"
        pad = " " * (indent * (level + 1))
        return "{\n" + ",\n".join([pad + p for p in parts]) + "\n" + " " * (indent * level) + "}"
    raise ValueError("unknown node")


class Parser:
    def __init__(self, text):
        self.text = text
        self.i = 0

    def ws(self):
        while self.i < len(self.text) and self.text[self.i] in " \t\r\n":
            self.i += 1

    def peek(self):
        self.ws()
        return self.text[self.i] if self.i < len(self.text) else ""

    def parse(self):
        v = self.value()
        self.ws()
        if self.i != len(self.text):
            raise JSONError("trailing data", self.i)
        return v

    def value(self):
        c = self.peek()
        if c == "{":
            return self.obj()
        if c == "[":
            return self.arr()
        if c == '"':
            return JStr(self.string())
        if c == "-" or c.isdigit():
            return self.number()
        for word in ("true", "false", "null"):
            if self.text.startswith(word, self.i):
                self.i += len(word)
                if word == "null":
                    return JNull()
                return JBool(word == "true")
        raise JSONError("unexpected %r" % (c or "EOF"), self.i)

    def obj(self):
        self.i += 1
        o = JObj()
        if self.peek() == "}":
            self.i += 1
            return o
        while True:
            if self.peek() != '"':
                raise JSONError("expected key", self.i)
            k = self.string()
            if self.peek() != ":":
                raise JSONError("expected ':'", self.i)
            self.i += 1
            o.put(k, self.value())
            c = self.peek()
            self.i += 1
            if c == "}":
                return o
            if c != ",":
                raise JSONError("expected ',' or '}'", self.i - 1)

    def arr(self):
        self.i += 1
        items = []
        if self.peek() == "]":
            self.i += 1
            return JArr(items)
        while True:
            items.append(self.value())
            c = self.peek()
            self.i += 1
            if c == "]":
                return JArr(items)
            if c != ",":
                raise JSONError("expected ',' or ']'", self.i - 1)

    def string(self):
        self.i += 1
        out = []
        while True:
            if self.i >= len(self.text):
                raise JSONError("unterminated string", self.i)
            ch = self.text[self.i]
            self.i += 1
            if ch == '"':
                return "".join(out)
            if ch == "\\":
                e = self.text[self.i]
                self.i += 1
                if e == "u":
                    code = int(self.text[self.i:self.i + 4], 16)
                    self.i += 4
                    if 0xD800 <= code < 0xDC00 and self.text.startswith("\\u", self.i):
                        low = int(self.text[self.i + 2:self.i + 6], 16)
                        self.i += 6
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    out.append(chr(code))
                elif e in UNESCAPES:
                    out.append(UNESCAPES[e])
                else:
                    raise JSONError("bad escape \\" + e, self.i - 1)
            else:
                out.append(ch)

    def number(self):
        start = self.i
        if self.text[self.i] == "-":
            self.i += 1
        while self.i < len(self.text) and (self.text[self.i].isdigit() or self.text[self.i] in ".eE+-"):
            self.i += 1
        lit = self.text[start:self.i]
        is_int = "." not in lit and "e" not in lit.lower()
        try:
            return JNum(float(lit), is_int)
        except ValueError:
            raise JSONError("bad number " + lit, start)


def query(node, path):
    cur = node
    for part in path.split("."):
        if isinstance(cur, JObj) and part in cur:
            cur = cur[part]
        elif isinstance(cur, JArr) and part.isdigit() and int(part) < len(cur):
            cur = cur[int(part)]
        else:
            return None
    return cur


def diff(a, b, path, out):
    if a.kind != b.kind:
        out.append("%s: %s -> %s" % (path or "$", a.kind, b.kind))
    elif isinstance(a, JObj) and isinstance(b, JObj):
        for k in sorted(set(a.keys) | set(b.keys)):
            if k not in b:
                out.append("%s.%s: removed" % (path, k))
            elif k not in a:
                out.append("%s.%s: added" % (path, k))
            else:
                diff(a[k], b[k], path + "." + k, out)
    elif isinstance(a, JArr) and isinstance(b, JArr):
        for i in range(max(len(a), len(b))):
            if i >= len(a):
                out.append("%s[%d]: added" % (path, i))
            elif i >= len(b):
                out.append("%s[%d]: removed" % (path, i))
            else:
                diff(a[i], b[i], "%s[%d]" % (path, i), out)
    elif a != b:
        out.append("%s: %s -> %s" % (path or "$", dump(a), dump(b)))


DOC = """{"name": "rpy3", "version": [0, 7, 1], "ratio": 0.125, "big": 1.5e300,
 "tags": ["rust", "pypy", "caf\\u00e9", "\\ud83d\\ude00"], "nested": {"a": {"b": [true, false, null]}},
 "text": "line1\\nline2\\t\\"quoted\\" \\\\ back", "neg": -42, "exp": 2E-3, "empty": {}, "none": []}"""


def generate(depth, seed):
    x = seed
    if depth == 0:
        x = (x * 7 + 3) % 101
        if x % 4 == 0:
            return JNum(float(x), True)
        if x % 4 == 1:
            return JStr("s%d\u00e9\n" % x)
        if x % 4 == 2:
            return JBool(x % 3 == 0)
        return JNum(x / 8.0, False)
    if seed % 2 == 0:
        return JArr([generate(depth - 1, seed * 3 + i) for i in range(3)])
    o = JObj()
    for i in range(3):
        o.put("k%d" % ((seed + i) % 5), generate(depth - 1, seed + i * 11))
    return o


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 20
    doc = Parser(DOC).parse()
    print(dump(doc))
    print(dump(doc, ascii_only=True))
    print(dump(query(doc, "nested.a"), indent=2))
    tags = query(doc, "tags")
    assert isinstance(tags, JArr)
    for t in tags.items:
        assert isinstance(t, JStr)
        print("tag %r len=%d upper=%s codepoints=%s" % (t.s, len(t.s), t.s.upper(), [ord(c) for c in t.s]))
    for p in ["version.1", "nested.a.b.2", "missing", "version.9", "text"]:
        r = query(doc, p)
        print("query %-14s -> %s" % (p, dump(r) if r is not None else "None"))
    again = Parser(dump(doc, indent=4)).parse()
    print("roundtrip equal:", again == doc, "size:", doc.size())
    bad_inputs = ['{"a" 1}', '[1, 2', '"abc', '{"a": tru}', '[1,]', '{"x": "\\q"}', '12 13', '-']
    for b in bad_inputs:
        try:
            Parser(b).parse()
            print("accepted?!", b)
        except JSONError as e:
            print("%-12s -> %s" % (b, e))
    total = 0
    changes = 0
    for s in range(n):
        t1 = generate(4, s)
        t2 = generate(4, s + (1 if s % 3 == 0 else 0))
        text = dump(t1)
        back = Parser(text).parse()
        if back != t1:
            print("MISMATCH", s)
        out = []
        diff(t1, t2, "", out)
        changes += len(out)
        total += len(text)
        if s == 3:
            print(dump(t1, indent=1)[:120].replace("\n", "|"))
            print(out[:4])
    print("generated bytes:", total, "diff lines:", changes)
    return 0


def entry_point(argv):
    return main(argv)


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    sys.exit(entry_point(sys.argv))
