"""str searching with start/end bounds (as slices read them, past-the-end
starts included), count, index/rindex raising ValueError, replace with an
empty pattern and a count, strip/lstrip/rstrip with and without characters,
character classes on non-ASCII text, len() of a character."""


def search(s, sub, a, b):
    return (s.find(sub, a, b), s.rfind(sub, a, b), s.count(sub, a, b),
            s.startswith(sub, a, b), s.endswith(sub, a, b), s.find(sub, a),
            s.count(sub))


def index_or(s, sub, a):
    try:
        return s.index(sub, a) * 100 + s.rindex(sub, a)
    except ValueError:
        return -1


def replace(s, old, new, n):
    return (s.replace(old, new), s.replace(old, new, n))


def strip(s, chars):
    return (s.strip(), s.lstrip(chars), s.rstrip(chars), s.strip(chars))


def classes(s):
    return (s.isalpha(), s.isalnum(), s.isdecimal(), s.isdigit(), s.isnumeric(),
            s.isupper(), s.islower(), s.isspace(), s.isprintable())


def char_len(s, i):
    c = s[i]
    return len(c) + len(c + c) * 10


CASES = [
    (search, ["abcabcab", "ab", 0, 100]),
    (search, ["abcabcab", "ab", -4, -1]),
    (search, ["abcabcab", "", 3, 2]),
    (search, ["abcabcab", "", 9, 20]),
    (search, ["abcabcab", "cab", 1, 8]),
    (search, ["", "", 0, 0]),
    (search, ["ééé", "éé", -100, 100]),
    (index_or, ["abcabc", "bc", 2]),
    (index_or, ["abcabc", "bc", 5]),
    (index_or, ["abcabc", "", 6]),
    (replace, ["aaaa", "aa", "b", 1]),
    (replace, ["abc", "", "-", 2]),
    (replace, ["abc", "", "-", -1]),
    (replace, ["abc", "x", "-", 5]),
    (replace, ["😀a😀", "😀", "", 1]),
    (strip, ["  xx hi xx  ", "x "]),
    (strip, ["\u3000\u2028 a \x1c", ""]),
    (strip, ["", "ab"]),
    (classes, ["ǅungla"]),
    (classes, ["ΑΒΓ"]),
    (classes, ["١٢٣"]),
    (classes, ["²³"]),
    (classes, ["Ⅻ"]),
    (classes, ["a\u0301"]),
    (classes, ["\xa0"]),
    (classes, ["ABC 1"]),
    (classes, [""]),
    (char_len, ["a😀", 1]),
]
