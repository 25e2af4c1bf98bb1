"""`struct.pack`, `struct.unpack`, `struct.unpack_from` and
`struct.calcsize` for RPython programs, for the integer formats (`b B h H
i I l L q Q n N`, `x` padding, repeat counts, and the byte orders `@ = < >
!` with CPython's sizes and, for `@`, its alignment on a 64-bit machine).

The values packed are ints and `unpack` returns a tuple of ints whose
length is known at run time only.  Formats with other items (`c s p ? e f
d P`) raise NotImplementedError; a value out of a code's range raises
`struct.error` with CPython's message, as does a buffer of the wrong size.
"""

import struct as _struct

from rpy3.rlib.rarithmetic import intmask

error = _struct.error

# (code, standard size, native size, signed)
_CODES = "bBhHiIlLqQnN"


def _std_size(code):
    if code == "b" or code == "B" or code == "x":
        return 1
    if code == "h" or code == "H":
        return 2
    if code == "i" or code == "I" or code == "l" or code == "L":
        return 4
    return 8


def _native_size(code):
    if code == "b" or code == "B" or code == "x":
        return 1
    if code == "h" or code == "H":
        return 2
    if code == "i" or code == "I":
        return 4
    return 8


def _is_signed(code):
    return code == "b" or code == "h" or code == "i" or code == "l" or code == "q" or code == "n"


class _Item(object):
    def __init__(self, code, size, offset):
        self.code = code
        self.size = size
        self.offset = offset


class _Layout(object):
    def __init__(self, little, items, size):
        self.little = little
        self.items = items
        self.size = size


def _layout(fmt):
    """The items of `fmt` with their sizes and offsets, and its size."""
    i = 0
    n = len(fmt)
    native = True
    little = True
    if n > 0:
        c = fmt[0]
        if c == "@":
            i = 1
        elif c == "=" or c == "<":
            native = False
            i = 1
        elif c == ">" or c == "!":
            native = False
            little = False
            i = 1
    items = []
    offset = 0
    while i < n:
        c = fmt[i]
        if c == " " or c == "\t" or c == "\n" or c == "\r":
            i += 1
            continue
        count = 1
        if "0" <= c <= "9":
            count = 0
            while i < n and "0" <= fmt[i] <= "9":
                count = count * 10 + (ord(fmt[i]) - ord("0"))
                i += 1
            if i >= n:
                raise error("repeat count given without format specifier")
            c = fmt[i]
        i += 1
        if c == "x":
            offset += count
            continue
        if c not in _CODES:
            if c in "cspe?fdP":
                raise NotImplementedError(
                    "rpy3: struct format '%s' (only the integer formats are supported)" % c)
            raise error("bad char in struct format")
        if not native and (c == "n" or c == "N"):
            raise error("bad char in struct format")
        if native:
            size = _native_size(c)
            # aligned to its size
            offset = (offset + size - 1) // size * size
        else:
            size = _std_size(c)
        for k in range(count):
            items.append(_Item(c, size, offset))
            offset += size
    return _Layout(little, items, offset)


def calcsize(fmt):
    """struct.calcsize(fmt)"""
    return _layout(fmt).size


def _range_error(code, size, signed):
    if code == "n" or code == "N":
        if signed:
            return error("argument out of range")
        return error("argument out of range")
    if signed:
        if size == 1:
            return error("byte format requires -128 <= number <= 127")
        if size == 2:
            return error("short format requires -32768 <= number <= 32767")
        return error("argument out of range")
    if size == 1:
        return error("ubyte format requires 0 <= number <= 255")
    if size == 2:
        return error("ushort format requires 0 <= number <= 65535")
    return error("argument out of range")


def _check(code, size, v):
    signed = _is_signed(code)
    if size == 8:
        if not signed and v < 0:
            raise _range_error(code, size, signed)
        return
    bits = size * 8
    if signed:
        lo = -(1 << (bits - 1))
        hi = (1 << (bits - 1)) - 1
    else:
        lo = 0
        hi = (1 << bits) - 1
    if v < lo or v > hi:
        raise _range_error(code, size, signed)


def pack(fmt, *args):
    """struct.pack(fmt, v1, v2, ...) of ints"""
    lay = _layout(fmt)
    values = []
    for a in args:
        values.append(int(a))
    if len(values) != len(lay.items):
        raise error("pack expected %d items for packing (got %d)"
                    % (len(lay.items), len(values)))
    out = bytearray(lay.size)
    for j in range(len(lay.items)):
        item = lay.items[j]
        v = values[j]
        _check(item.code, item.size, v)
        for k in range(item.size):
            byte = (v >> (8 * k)) & 0xFF
            if lay.little:
                out[item.offset + k] = byte
            else:
                out[item.offset + item.size - 1 - k] = byte
    return bytes(out)


def _unpack(lay, data, start):
    values = []
    for item in lay.items:
        v = 0
        for k in range(item.size):
            if lay.little:
                byte = data[start + item.offset + item.size - 1 - k]
            else:
                byte = data[start + item.offset + k]
            v = (v << 8) | byte
        if item.size == 8:
            # (a machine word: wrapped to a signed value, as translated)
            v = intmask(v)
            if not _is_signed(item.code) and v < 0:
                raise NotImplementedError(
                    "rpy3: struct.unpack of an unsigned 64-bit value of 2**63 or more")
        elif _is_signed(item.code):
            if v >= 1 << (item.size * 8 - 1):
                v -= 1 << (item.size * 8)
        values.append(v)
    return tuple(values)


def unpack(fmt, data):
    """struct.unpack(fmt, data): a tuple of ints"""
    lay = _layout(fmt)
    if len(data) != lay.size:
        raise error("unpack requires a buffer of %d bytes" % lay.size)
    return _unpack(lay, data, 0)


def unpack_from(fmt, data, offset=0):
    """struct.unpack_from(fmt, data, offset=0): a tuple of ints"""
    lay = _layout(fmt)
    if offset < 0:
        offset += len(data)
    if offset < 0 or len(data) - offset < lay.size:
        raise error("unpack_from requires a buffer of at least %d bytes for unpacking %d "
                    "bytes at offset %d (actual buffer size is %d)"
                    % (lay.size + offset, lay.size, offset, len(data)))
    return _unpack(lay, data, offset)
