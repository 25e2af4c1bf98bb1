"""The integer formats of `struct` (rpy3.stdlib.structmod): pack, unpack,
unpack_from and calcsize with byte orders, native alignment, repeat
counts and padding, and struct.error with CPython's messages."""
import struct

def f(n):
    out = []
    b = struct.pack(">I", n & 0xFFFFFFFF)
    out.append(b.hex())
    out.append(struct.pack("<hHq", -2, 65535, n * 1000).hex())
    out.append(struct.pack("@bi", 1, n).hex())
    out.append(str(struct.calcsize("@bi")) + " " + str(struct.calcsize("<bi")) + " " + str(struct.calcsize("!2h3x")))
    a, c = struct.unpack(">HH", b)
    out.append("%d %d" % (a, c))
    t = struct.unpack("<hHq", struct.pack("<hHq", -2, 65535, -n))
    out.append(str(t))
    out.append(str(struct.unpack_from(">B", b"\x01\x02\x03", 1)[0]))
    try:
        struct.pack(">B", 256 + n)
    except struct.error as e:
        out.append("error: " + str(e))
    try:
        struct.unpack(">I", b"abc")
    except struct.error as e:
        out.append("error: " + str(e))
    return out


CASES = [
    (f, [70000]),
    (f, [3]),
]
