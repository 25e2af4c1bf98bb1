"""`sys.argv` in a translated program: the command line the program is
run with, not the one of the process that translates it.

The flow space reads `sys.argv` (and a module global bound to it, as
`from sys import argv` makes) as the attribute `argv` of the prebuilt
holder below, and a program's entry point is wrapped so that it stores
its `argv` there first.
"""


class _Argv(object):
    """The holder of the running program's command line."""

    def __init__(self):
        self.argv = []


HOLDER = _Argv()


def program_entry(entry):
    """`entry` (a program's `entry_point(argv)`), storing `argv` where
    `sys.argv` reads it before calling it."""

    def entry_point(argv):
        HOLDER.argv = argv
        return entry(argv)

    entry_point.__qualname__ = getattr(entry, "__qualname__", "entry_point")
    return entry_point
