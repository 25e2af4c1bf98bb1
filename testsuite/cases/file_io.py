"""The built-in `open()`: rpy3 translates its calls into
`rpy3.stdlib.fileio`, text and binary files over os.open/read/write/close.
Each case writes files under /tmp (fixed names made from the case's
function and arguments, overwritten by every run: there is no os.unlink)
and reads them back: read(), read(size), readline(), readlines(),
iteration, write() and writelines(), append mode, `with`, universal
newlines, UTF-8 split across the 64 KiB chunks the reader reads, and the
errors (a missing file, 'x' on an existing file, a closed file)."""

import os


def _path(what, n):
    return "/tmp/rpy3_case_file_io_%s_%d.txt" % (what, n)


def roundtrip(n):
    p = _path("roundtrip", n)
    f = open(p, "w")
    counts = []
    for i in range(n):
        counts.append(f.write("ligne %d: héllo wörld ✓ 😀\n" % i))
    f.close()
    f = open(p)
    text = f.read()
    f.close()
    return (counts, text, f.closed)


def attributes(n):
    p = _path("attributes", n)
    f = open(p, "w", encoding="utf-8")
    flags = [f.name == p, f.closed]
    modes = [f.mode]
    f.write("x")
    f.close()
    flags.append(f.closed)
    g = open(p, "rt")
    modes.append(g.mode)
    g.close()
    h = open(p, "rb")
    modes.append(h.mode)
    h.close()
    k = open(p, "ab")
    modes.append(k.mode)
    k.close()
    m = open(p, "r+")
    modes.append(m.mode)
    modes.append(m.read())
    m.close()
    return (flags, modes)


def newlines(n):
    p = _path("newlines", n)
    with open(p, "wb") as f:
        f.write(b"one\r\ntwo\rthree\nfour\r\r\nfive")
    with open(p) as f:
        whole = f.read()
    with open(p, "r") as f:
        lines = f.readlines()
    out = []
    with open(p) as f:
        for line in f:
            out.append(len(line))
    with open(p, "rb") as f:
        raw = f.read()
    return (whole, lines, out, raw)


def readline_parts(n):
    p = _path("readline", n)
    with open(p, "w") as f:
        f.writelines(["alpha\n", "beta\n", "", "gamma"])
    f = open(p)
    a = f.readline()
    b = f.read(2)
    c = f.readline()
    d = f.readline()
    e = f.readline()
    g = f.read()
    f.close()
    return [a, b, c, d, e, g]


def read_sizes(n):
    p = _path("sizes", n)
    with open(p, "w") as f:
        for i in range(n):
            f.write("%d é\n" % i)
    pieces = []
    with open(p) as f:
        while True:
            s = f.read(7)
            if not s:
                break
            pieces.append(s)
    return pieces


def empty_file(n):
    p = _path("empty", n)
    f = open(p, "w")
    f.close()
    f = open(p)
    r = (f.read(), f.readline(), f.readlines())
    f.close()
    lines = 0
    with open(p) as f:
        for line in f:
            lines += 1
    return (r, lines)


def append(n):
    p = _path("append", n)
    with open(p, "w") as f:
        f.write("first\n")
    for i in range(n):
        with open(p, "a") as f:
            f.write("more %d\n" % i)
    with open(p) as f:
        return f.read()


def big_chunks(n):
    # multi-byte characters and '\r\n' across the 64 KiB chunks
    p = _path("big", n)
    with open(p, "w") as f:
        f.write("a" * n)
        for i in range(40000):
            f.write("é€😀\r\n")
        f.write("x" * 65531 + "\r\n")
        f.write("end\r")
    with open(p) as f:
        text = f.read()
    lines = []
    with open(p) as f:
        for line in f:
            lines.append(line)
    return (len(text), text.count("\n"), text.count("\r"), text[-10:],
            len(lines), lines[0][-6:], lines[-1], len(lines[-2]),
            text == "".join(lines))


def binary(n):
    p = _path("binary", n)
    data = b""
    for i in range(n):
        data += bytes([i % 256])
    with open(p, "wb") as f:
        w = f.write(data)
    with open(p, "ab") as f:
        f.write(b"\r\n\xff")
    with open(p, "rb") as f:
        head = f.read(3)
        rest = f.read()
        more = f.read()
    return (w, head, rest, more, f.closed)


def binary_chunks(n):
    p = _path("binchunks", n)
    with open(p, "wb") as f:
        for i in range(n):
            f.write(b"0123456789abcdef" * 1024)
    total = 0
    count = 0
    with open(p, "rb") as f:
        while True:
            b = f.read(50000)
            if len(b) == 0:
                break
            total += len(b)
            count += 1
    return (total, count)


def missing(n):
    out = []
    try:
        open("/tmp/rpy3_no_such_dir_%d/nothing.txt" % n)
        out.append("opened")
    except FileNotFoundError:
        out.append("FileNotFoundError")
    try:
        open("/tmp/rpy3_no_such_dir_%d/nothing.bin" % n, "rb")
        out.append("opened")
    except OSError:
        out.append("OSError")
    try:
        open("/tmp/rpy3_no_such_dir_%d/new.txt" % n, "w")
        out.append("opened")
    except OSError:
        out.append("OSError")
    p = _path("exists", n)
    with open(p, "w") as f:
        f.write("here")
    try:
        open(p, "x")
        out.append("opened")
    except FileExistsError:
        out.append("FileExistsError")
    return out


def closed_file(n):
    p = _path("closed", n)
    with open(p, "w") as f:
        f.write("abc")
    out = []
    f = open(p)
    f.close()
    f.close()
    try:
        f.read()
    except ValueError as e:
        out.append(str(e))
    try:
        f.readline()
    except ValueError as e:
        out.append(str(e))
    g = open(p, "a")
    g.close()
    try:
        g.write("x")
    except ValueError as e:
        out.append(str(e))
    return out


def with_exception(n):
    p = _path("withexc", n)
    kept = None
    try:
        with open(p, "w") as f:
            kept = f
            f.write("partial")
            if n > 0:
                raise KeyError("boom")
            f.write(" whole")
    except KeyError:
        pass
    closed = kept.closed if kept is not None else False
    with open(p) as f:
        return (closed, f.read())


def unclosed_write(n):
    # a file the program never closes: its writes are already there
    p = _path("unclosed", n)
    f = open(p, "w")
    f.write("kept %d\n" % n)
    f.flush()
    with open(p) as g:
        return g.read()


def count_words(n):
    p = _path("words", n)
    with open(p, "w") as f:
        for i in range(n):
            f.write("the quick brown fox %d jumps over the lazy dog\n" % (i % 7))
    counts = {}
    with open(p) as f:
        for line in f:
            for w in line.split():
                counts[w] = counts.get(w, 0) + 1
    return sorted(counts.items())


CASES = [
    (roundtrip, [0]),
    (roundtrip, [3]),
    (attributes, [1]),
    (newlines, [1]),
    (readline_parts, [1]),
    (read_sizes, [12]),
    (empty_file, [1]),
    (append, [3]),
    (big_chunks, [0]),
    (big_chunks, [1]),
    (big_chunks, [3]),
    (big_chunks, [10]),
    (binary, [300]),
    (binary_chunks, [9]),
    (missing, [1]),
    (closed_file, [1]),
    (with_exception, [0]),
    (with_exception, [1]),
    (unclosed_write, [4]),
    (count_words, [30]),
]
