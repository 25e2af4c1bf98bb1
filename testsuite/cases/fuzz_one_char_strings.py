"""Found by `rpy3 fuzz`: a one-character string (a constant such as 'a', or
a join of characters) used as a string: tested with `in`, for truth,
indexed, printed through str(), stored in a tuple of strings."""


def contains_in_char(s):
    return s in 'a'


def char_in_char(n):
    return chr(97 + (n & 15)) in chr(97 + (3 & 15))


def truth_of_char(n):
    c = chr(97 + (n & 15))
    if c:
        return 1
    return 0


def print_joined_char(s):
    print(True, (s[0] if s else '-'), sep='|')
    print((s[0] if s else '-'))
    return 0


def index_const_char(x):
    t = (0, '')
    t = (0, ('é'[x % len('é')] if 'é' else '-'))
    return t


def iterate_char(s):
    out = []
    for c in (s[0] if s else '-'):
        out.append(c)
    return out


CASES = [
    (contains_in_char, ['a']),
    (contains_in_char, ['b']),
    (contains_in_char, ['']),
    (char_in_char, [3]),
    (char_in_char, [0]),
    (truth_of_char, [3]),
    (print_joined_char, ['abc']),
    (print_joined_char, ['']),
    (index_const_char, [3]),
    (iterate_char, ['xy']),
    (iterate_char, ['']),
]
