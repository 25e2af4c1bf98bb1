"""str.encode and bytes.decode with the ascii and latin-1 codecs (and
their spellings), raising UnicodeEncodeError / UnicodeDecodeError where
CPython does."""


def codecs(n):
    s = "caf\xe9 %d" % n
    out = [s.encode("latin-1"), s.encode("utf-8"), "abc".encode("ascii")]
    try:
        s.encode("ascii")
    except UnicodeEncodeError:
        out.append(b"E1")
    try:
        "\u20ac".encode("latin-1")
    except UnicodeEncodeError:
        out.append(b"E2")
    b = b"caf\xe9"
    t = [b.decode("latin-1"), b"abc".decode("ascii")]
    try:
        b.decode("ascii")
    except UnicodeDecodeError:
        t.append("E3")
    return (out, t)


CASES = [
    (codecs, [3]),
]
