"""str.splitlines/title/removeprefix/removesuffix, substring `in`, and
str.join of any iterable of strs or characters."""


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
]
