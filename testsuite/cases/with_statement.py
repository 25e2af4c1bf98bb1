"""The `with` statement on the program's context managers: __enter__'s
result bound by `as`, __exit__ called with None when the block ends
(normally, by return, break or continue) and with the exception when it
raises; a true result from __exit__ swallows the exception."""


class Ctx:
    def __init__(self, log, name):
        self.log = log
        self.name = name

    def __enter__(self):
        self.log.append("enter " + self.name)
        return self

    def __exit__(self, exc_type, exc_value, tb):
        if exc_type is None:
            self.log.append("exit " + self.name)
        else:
            what = "KeyError" if issubclass(exc_type, KeyError) else "other"
            self.log.append("exit %s with %s" % (self.name, what))
        return False


class Suppress:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        return len(self.log)

    def __exit__(self, t, v, tb):
        if t is not None and issubclass(t, ValueError):
            self.log.append("suppressed " + str(v))
            return True
        return False


class Base:
    def __enter__(self):
        return 1

    def __exit__(self, t, v, tb):
        return False


class Derived(Base):
    def __enter__(self):
        return 2


def body(n, log):
    with Ctx(log, "a") as c:
        log.append("body " + c.name)
        if n == 3:
            return -1
    return 0


def run(n):
    log = []
    r = body(n, log)
    try:
        with Ctx(log, "b"):
            if n > 1:
                raise ValueError("x%d" % n)
            log.append("no raise")
    except ValueError as e:
        log.append("caught " + str(e))
    with Suppress(log) as k:
        if n > 0:
            raise ValueError("y")
        log.append("k=%d" % k)
    for i in range(3):
        with Ctx(log, "loop%d" % i):
            if i == n:
                break
            if i == 1:
                continue
            log.append("iter")
    return (r, log)


def nested(n):
    log = []
    try:
        with Ctx(log, "outer"):
            with Ctx(log, "inner"):
                if n:
                    raise KeyError(n)
    except KeyError:
        log.append("keyerror")
    return log


def chosen(flag):
    m = Derived() if flag else Base()
    with m as v:
        return v


CASES = [
    (run, [0]),
    (run, [1]),
    (run, [2]),
    (run, [3]),
    (nested, [0]),
    (nested, [5]),
    (chosen, [True]),
    (chosen, [False]),
]
