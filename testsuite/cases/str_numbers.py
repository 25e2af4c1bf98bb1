"""int() and float() of strings: whitespace, signs, underscores between
digits, Unicode decimal digits of every script, inf/nan spellings,
exponents at the float limits, and the ValueError of everything else."""


def to_float(s):
    try:
        return float(s)
    except ValueError:
        return -12345.0


def to_int(s):
    try:
        return int(s)
    except ValueError:
        return -12345


CASES = [
    (to_float, ["1_000.5"]),
    (to_float, ["_1"]),
    (to_float, ["1__0"]),
    (to_float, [" 1e1_0 "]),
    (to_float, ["1.e5"]),
    (to_float, [".5"]),
    (to_float, ["5."]),
    (to_float, ["\u2003-Infinity\n"]),
    (to_float, ["+nan"]),
    (to_float, ["1e"]),
    (to_float, [""]),
    (to_float, ["\u0661\u066b5"]),
    (to_float, ["\u0661.\u0665"]),
    (to_float, ["0x10"]),
    (to_float, ["1.7976931348623157e308"]),
    (to_float, ["1.7976931348623159e308"]),
    (to_float, ["5e-324"]),
    (to_float, ["2.2250738585072011e-308"]),
    (to_float, ["0.1000000000000000055511151231257827"]),
    (to_float, ["1_.5"]),
    (to_int, ["\u0967\u0968\u0969"]),
    (to_int, ["\U0001d7ce\U0001d7d9\U0001d7e5"]),
    (to_int, [" -\u0665_0 "]),
    (to_int, ["\u00b2"]),
    (to_int, ["9223372036854775807"]),
]
