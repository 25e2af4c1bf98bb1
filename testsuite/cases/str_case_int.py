"""str.upper()/str.lower() with full Unicode case mappings (one character
may become several; the final sigma), and int() of strings (underscores,
spaces, signs, ValueError, and OverflowError past the Signed range, where
RPython's integers stop)."""


def case_map(s):
    return (s.upper(), s.lower(), len(s.upper()), len(s.lower()))


def parse(s):
    try:
        return int(s)
    except ValueError:
        return -1


def parse_overflow(s):
    try:
        return int(s)
    except OverflowError:
        return -2


def roundtrip(n):
    return int(str(n)) == n


CASES = [
    (case_map, [""]),
    (case_map, ["straße"]),
    (case_map, ["ὈΔΥΣΣΕΎΣ"]),
    (case_map, ["ΌΣΟΣ Σ"]),
    (case_map, ["'ΑΣ'"]),
    (case_map, ["ΑΣ."]),
    (case_map, ["İstanbul"]),
    (case_map, ["ﬁne ǅemal"]),
    (case_map, ["\ud800x"]),
    (parse, ["  +8  "]),
    (parse, ["1_000_000"]),
    (parse, ["1__0"]),
    (parse, ["_1"]),
    (parse, ["-"]),
    (parse, ["-9223372036854775808"]),
    (parse_overflow, ["9223372036854775807"]),
    (roundtrip, [-9223372036854775807]),
    (roundtrip, [0]),
]
