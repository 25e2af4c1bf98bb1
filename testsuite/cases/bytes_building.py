"""Building bytes: a bytearray extended with `+=` of bytes and added to
bytes (a new bytearray), a list `+=` bytes (its ints), and
`bytes.fromhex()` (whitespace between bytes, CPython's ValueError)."""


def bytearray_ops(n):
    ba = bytearray(b"abc")
    ba.append(100)
    ba[0] = 65
    ba.extend(b"xy")
    ba += b"!"
    c = ba + b"??"
    return (bytes(ba), len(ba), ba[1], bytes(c), isinstance(c, bytearray))
def list_plus_bytes(n):
    l = [1, 2]
    l += b"ab"
    return l
CASES = [(bytearray_ops, [0]), (list_plus_bytes, [0])]
def fromhex(s):
    try:
        return bytes.fromhex(s)
    except ValueError as e:
        return str(e).encode()
CASES += [(fromhex, ["01ab ff"]), (fromhex, [" 0 1"]), (fromhex, ["zz"]), (fromhex, [""]), (fromhex, ["a"]), (fromhex, ["DEAD beef\n"])]
