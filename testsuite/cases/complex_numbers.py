"""Complex numbers: constants, complex(re, im), arithmetic with ints and
floats on either side, division (and by zero), integer and complex
powers, abs, conjugate, real/imag, equality, hashing, truth, and CPython's
text for them; a variable that starts as 0 and becomes complex (the
Mandelbrot iteration)."""


def arith(a, b):
    z = complex(a, b)
    w = 2 - 3j
    return [repr(z + w), repr(z - w), repr(z * w), repr(z / w), repr(w / z),
            repr(1 + z), repr(z * 2), repr(2.5 - z), repr(-z), repr(+z),
            repr(z.conjugate()), repr(z.real + z.imag)]


def texts(k):
    vals = [complex(0, 2), complex(-0.0, 2), complex(1.5, -0.5), complex(1e20, 1),
            complex(0, -0.0), complex(1, k), 1j, 3 + 0j, complex(k)]
    return [str(v) for v in vals] + ["%s|%r" % (vals[2], vals[3])]


def powers(n):
    z = complex(1, 1)
    out = [repr(z ** n), repr(z ** -n), repr(z ** 0), repr(z ** 0.5), repr((1 + 2j) ** 3)]
    out.append(repr(z ** complex(0.5, 1)))
    return out


def division_by_zero(k):
    z = complex(k, 1)
    try:
        return repr(z / complex(0, 0))
    except ZeroDivisionError as e:
        return "ZeroDivisionError: " + str(e)


def compare(k):
    z = complex(k, 0)
    return [z == k, z != k, z == complex(k, 1), bool(z), bool(complex(0, 0)),
            hash(z) == hash(k), abs(complex(3, 4)) == 5.0, abs(z) == k]


def mandel(w, h, maxit):
    out = []
    for y in range(h):
        row = []
        for x in range(w):
            c = complex(-2.0 + 3.0 * x / w, -1.0 + 2.0 * y / h)
            z = 0
            n = 0
            while abs(z) < 2 and n < maxit:
                z = z * z + c
                n += 1
            row.append(" .:-=+*#%@"[n % 10])
        out.append("".join(row))
    return out


CASES = [
    (arith, [1.5, -2.0]),
    (arith, [0.0, 1.0]),
    (texts, [3]),
    (powers, [3]),
    (powers, [10]),
    (division_by_zero, [2]),
    (compare, [3]),
    (compare, [0]),
    (mandel, [24, 8, 20]),
]
