"""Functions of `gc` that tune the interpreter running the program,
written in RPython.  A translated program's collector needs no tuning, so
these calls have no effect, as in PyPy's translated programs."""


def gc_collect(generation=2):
    """gc.collect(): the collector runs when it needs to; returns the
    number of unreachable objects found, which it does not count."""
    return 0


def gc_enable():
    """gc.enable()"""


def gc_disable():
    """gc.disable()"""
