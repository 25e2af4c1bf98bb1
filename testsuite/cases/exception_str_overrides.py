"""An exception known only as a base class (`except Exception as e`, a
program's own base) shows a subclass's `__str__` where its instance has
one and the text of its arguments otherwise: `str(e)`, `%s`, f-strings and
`print`.  A base class without `__str__` keeps CPython's text (not
object's `<... object>`)."""


class Invalid(Exception):
    def __str__(self):
        return "Invalid!"


class AppError(Exception):
    pass


class Sub(AppError):
    def __init__(self, what):
        AppError.__init__(self)
        self.what = what

    def __str__(self):
        return "sub: " + self.what


class SubSub(Sub):
    def __str__(self):
        return "subsub: " + self.what.upper()


def raise_one(n):
    if n == 1:
        raise Invalid()
    if n == 2:
        raise Sub("x")
    if n == 3:
        raise SubSub("y")
    if n == 4:
        raise AppError("app %d" % n)
    if n == 5:
        raise KeyError("k")
    raise ValueError("v%d" % n)


def as_exception(n):
    try:
        raise_one(n)
    except Exception as e:
        print(e)
        return (str(e), "caught: %s" % e, f"[{e}]", "{}".format(str(e)))
    return ("", "", "", "")


def as_base(n):
    try:
        if n == 2:
            raise Sub("b")
        if n == 3:
            raise SubSub("c")
        raise AppError("plain %d" % n)
    except AppError as e:
        return str(e)


def as_both(n):
    try:
        raise_one(n)
        return ("none", "")
    except AppError as e:
        return ("app", str(e))
    except Exception as e:
        return ("exc", str(e))


CASES = [
    (as_both, [1]),
    (as_both, [3]),
    (as_both, [4]),
    (as_both, [6]),
    (as_exception, [1]),
    (as_exception, [2]),
    (as_exception, [3]),
    (as_exception, [4]),
    (as_exception, [5]),
    (as_exception, [6]),
    (as_base, [1]),
    (as_base, [2]),
    (as_base, [3]),
]


class MyErr(Exception):
    pass


class Wrapped(MyErr):
    def __init__(self, code):
        MyErr.__init__(self, "code", code)


def exception_reprs(n):
    out = []
    for k in range(6):
        try:
            if k == 0:
                raise ValueError("m%d" % n)
            if k == 1:
                raise MyErr("bad", n)
            if k == 2:
                raise Wrapped(n)
            if k == 3:
                raise KeyError(n)
            if k == 4:
                raise IndexError()
            d = {1: 2}
            d[n]
        except Exception as e:
            out.append(repr(e))
            out.append("%r" % (e,))
    return out


CASES.append((exception_reprs, [3]))


class Bracketed(Exception):
    def __str__(self):
        return "Err<" + Exception.__str__(self) + ">"


class Boxed(ValueError):
    def __str__(self):
        return "E2[" + super().__str__() + "]"


class Quiet(Exception):
    def __str__(self):
        return "q:" + Exception.__str__(self)


def base_str_in_override(n):
    out = []
    for k in range(3):
        try:
            if k == 0:
                raise Bracketed("m%d" % n)
            if k == 1:
                raise Boxed("v", n)
            raise Quiet()
        except Exception as e:
            out.append(str(e))
    return out


CASES.append((base_str_in_override, [3]))
