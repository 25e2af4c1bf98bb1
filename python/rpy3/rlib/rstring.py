"""String builders (the counterpart of ``rpython.rlib.rstring``).

``StringBuilder`` builds a ``str`` (any Unicode) and ``BytesBuilder`` a
``bytes``.  Each accepts only its own type: anything else raises TypeError,
since translated code mixing them would not be typable.

    b = StringBuilder()          # or StringBuilder(init_size)
    b.append("ab")
    b.append_slice(s, start, end)        # 0 <= start <= end <= len(s)
    b.append_multiple_char("-", 3)       # a single character, repeated
    b.append_char("x")                   # a single character
    b.getlength()                        # length appended so far
    b.build()                            # the result; appending may go on
"""

__all__ = ["StringBuilder", "BytesBuilder", "UnicodeBuilder", "INIT_SIZE"]

INIT_SIZE = 100


class _AbstractBuilder(object):
    _tp = None          # the accepted type, set by subclasses
    _empty = None

    def __init__(self, init_size=INIT_SIZE):
        if not isinstance(init_size, int):
            raise TypeError("init_size must be an int")
        self._pieces = []
        self._length = 0

    def _check(self, s, what):
        if not isinstance(s, self._tp):
            raise TypeError("%s.%s() expects %s, got %s"
                            % (type(self).__name__, what, self._tp.__name__,
                               type(s).__name__))

    def _check_char(self, c, what):
        self._check(c, what)
        if len(c) != 1:
            raise TypeError("%s.%s() expects a single character, got "
                            "length %d" % (type(self).__name__, what, len(c)))

    def append(self, s):
        self._check(s, "append")
        if s:
            self._pieces.append(s)
            self._length += len(s)

    def append_slice(self, s, start, end):
        self._check(s, "append_slice")
        if not (0 <= start <= end <= len(s)):
            raise ValueError("append_slice(): need 0 <= start <= end <= "
                             "len(s), got start=%d end=%d len=%d"
                             % (start, end, len(s)))
        if end > start:
            self._pieces.append(s[start:end])
            self._length += end - start

    def append_multiple_char(self, c, times):
        self._check_char(c, "append_multiple_char")
        if times > 0:
            self._pieces.append(c * times)
            self._length += times

    def append_char(self, c):
        self._check_char(c, "append_char")
        self._pieces.append(c)
        self._length += 1

    def getlength(self):
        return self._length

    def build(self):
        result = self._empty.join(self._pieces)
        self._pieces = [result] if result else []
        return result


class StringBuilder(_AbstractBuilder):
    """Builds a str."""
    _tp = str
    _empty = ""


class BytesBuilder(_AbstractBuilder):
    """Builds a bytes."""
    _tp = bytes
    _empty = b""


# In Python 3 every str is a Unicode string.
UnicodeBuilder = StringBuilder
