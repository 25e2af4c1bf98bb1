"""Exceptions raised inside a `try` by special methods of the program's
classes (`__add__`, `__len__`, `__getitem__`, `__str__`, `__contains__`,
`__eq__`) and implicitly by operations (`300 in b"abc"`, the length of a
huge range) reach the handler that names them."""
from rpy3.rlib.rarithmetic import maxint

class V:
    def __init__(self, x):
        self.x = x
    def __add__(self, o):
        if o.x < 0:
            raise ValueError("neg")
        return V(self.x + o.x)
    def __len__(self):
        if self.x < 0:
            raise KeyError("len")
        return self.x
    def __getitem__(self, i):
        if i > 3:
            raise RuntimeError("big")
        return i
    def __str__(self):
        if self.x == 7:
            raise TypeError("seven")
        return "V"
    def __contains__(self, i):
        if i < 0:
            raise ValueError("c")
        return True
    def __eq__(self, o):
        if o.x == 99:
            raise ValueError("eq")
        return self.x == o.x

def run(n):
    out = []
    try:
        out.append((V(1) + V(n)).x)
    except ValueError:
        out.append(-1)
    try:
        out.append(len(V(n)))
    except KeyError:
        out.append(-2)
    try:
        out.append(V(1)[n])
    except RuntimeError:
        out.append(-3)
    try:
        out.append(len(str(V(n))))
    except TypeError:
        out.append(-4)
    try:
        out.append(int(n in V(1)))
    except ValueError:
        out.append(-5)
    try:
        out.append(int(V(1) == V(n)))
    except ValueError:
        out.append(-6)
    return out


MININT = -maxint - 1


def bytes_in_oob(n):
    try:
        return n in b"abc"
    except ValueError:
        return False


def range_len_ovf(n):
    try:
        return len(range(MININT, n))
    except OverflowError:
        return -1



CASES = [(run, [-1]), (run, [7]), (run, [99]), (run, [2]), (bytes_in_oob, [300]), (bytes_in_oob, [97]), (range_len_ovf, [0])]
