"""str.splitlines/title/removeprefix/removesuffix, substring `in`,
str.join of any iterable of strs or characters, padding and case
methods, partition, expandtabs, keyword arguments of built-ins and
string methods, key= functions that are built-ins or str methods or give
strings, and containers or None formatted by str.format, % and f-strings."""


def splitlines(s):
    return (s.splitlines(), s.splitlines(True))


def title(s):
    return s.title()


def remove_affix(s, a):
    return (s.removeprefix(a), s.removesuffix(a), s.removeprefix(""), s.removesuffix(""))


def substring_in(s, t):
    return (t in s, t not in s, "" in s, s in t, "ab" in s)


def gen_words(n):
    for i in range(n):
        yield str(i)


def join_any(s, n):
    return ("-".join(s), ",".join([c for c in s]), "".join(("a", s)),
            "+".join(gen_words(n)), "".join(c.upper() for c in s),
            " ".join(reversed(["x", "y"])), "/".join(sorted(s)), "".join(list(s)),
            "|".join({"k": 1, "j": 2}), ".".join(s.split(",")), "".join(x for x in ["p", "q"]))


def pad_case(s):
    return (s.center(11, '*'), s.ljust(8), s.rjust(8, '.'), s.zfill(9), s.capitalize(),
            s.swapcase(), s.casefold(), s.istitle(), s.isascii(), s.center(2))


def parts(s, sep):
    return (s.partition(sep), s.rpartition(sep), s.expandtabs(4), s.expandtabs())


def partition_empty(s):
    return s.partition("")


def keywords(s):
    out = []
    for i, c in enumerate(s, start=1):
        out.append((i, c))
    return (out, int("ff", base=16), round(2.675, ndigits=2), s.split(",", maxsplit=1),
            s.split(sep=","), "a\nb".splitlines(keepends=True), sum([1, 2], start=10),
            s.encode(encoding="utf-8"))


def keys(s):
    words = s.split()
    return (sorted(words, key=len), max(words, key=len), min("ab", "abc", "x", key=len),
            sorted(words, key=str.lower), sorted(words, key=lambda w: w[::-1]),
            max(words, key=lambda w: (len(w), w)), min(3, 1, 2, key=lambda v: -v))


def maybe(s, flag):
    if flag:
        return s
    return None


def formats(s, flag):
    l = [1, 2]
    v = maybe(s, flag)
    return (f"{l}", f"<{v}>", "{} {}".format(v, l), "%s|%r" % (v, l), f"{(1, 'a')}",
            "{0}{0}".format([s]), f"{ {s: [1.5]} }", "{name} is {age:>3}".format(name=s, age=7),
            "{0}-{x}".format(s, x=[1]))


def square(x):
    return x * x


def map_filter(n):
    xs = list(range(n))
    return (",".join(map(str, xs)), list(map(square, xs)), sum(map(abs, [-1, 2, -3])),
            list(filter(None, [0, 1, 2, 0])), list(filter(lambda v: v % 2 == 0, xs)),
            list(map(lambda a, b: a + b, xs, xs)), " ".join(map(str.upper, ["a", "b"])),
            sorted(map(len, ["aaa", "b"])), max(map(float, xs), default=-1.0))


def min_max_default(n):
    xs = [i for i in range(n)]
    ws = ["a", "bb"][:n]
    return (max(xs, default=-1), min(xs, key=lambda v: -v, default=99),
            max(ws, key=len, default="none"), min(ws, default="z"))


def bytes_case(b):
    return (b.upper(), b.lower(), b.capitalize(), b.swapcase(), b.title(), b.center(9),
            b.zfill(8), b.isascii(), b.ljust(3), b.partition(b" "))


def list_index(n):
    xs = [3, 1, 2, 1, 3]
    return (xs.index(1, 2), xs.index(3, -2), xs.index(1, 0, 2), xs.index(2, -10, 10))


def list_index_missing(n):
    xs = [3, 1, 2]
    return xs.index(3, 1)


CASES = [
    (splitlines, ["a\nb\r\nc\rd\n"]),
    (splitlines, [""]),
    (splitlines, ["one line"]),
    (splitlines, ["x\x0by\x1cz\u2028w\n\n"]),
    (title, ["hello world"]),
    (title, ["they're bill's friends from the UK"]),
    (title, ["ß-ǆ 3abc"]),
    (remove_affix, ["prefix-body-prefix", "prefix"]),
    (remove_affix, ["abc", "abcd"]),
    (substring_in, ["hello world", "lo w"]),
    (substring_in, ["abc", "abcd"]),
    (substring_in, ["", ""]),
    (join_any, ["abc", 3]),
    (join_any, ["", 0]),
    (pad_case, ["hello"]),
    (pad_case, ["-42"]),
    (pad_case, ["ὈΔΥΣΣΕΎΣ straße ǆ"]),
    (pad_case, [""]),
    (parts, ["a\tbc\tlol\nx\ty", "l"]),
    (parts, ["abc", "zz"]),
    (partition_empty, ["abc"]),
    (keywords, ["a,b,c"]),
    (keys, ["pear Apple fig banana kiwi"]),
    (formats, ["x", True]),
    (formats, ["x", False]),
    (list_index, [0]),
    (bytes_case, [b"\xe9ab\xc9 cD"]),
    (bytes_case, [b"hello wORLD 3x"]),
    (map_filter, [5]),
    (map_filter, [0]),
    (min_max_default, [0]),
    (min_max_default, [2]),
    (list_index_missing, [0]),
]
