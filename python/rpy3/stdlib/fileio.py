"""The built-in `open()`, written in RPython over `os.open`, `os.read`,
`os.write` and `os.close`.

`open` is specialised per call site (`specialize.call_location`), so the
mode of each call, a constant string or left out ('r'), is known when the
call is annotated: text modes ('r', 'w', 'a', 'x', with '+' and 't')
return a `TextFile`, binary ones ('rb', 'wb', 'ab', 'xb', 'r+b'...) a
`BinaryFile`.  A mode computed at run time is not supported.

Text files read and write UTF-8 (`encoding=` may only name it, `errors=`
be 'strict' and `newline=` None).  Reading is buffered (chunks of 64 KiB,
decoded once complete: a character split between two chunks waits for the
next one) and translates '\r\n' and '\r' into '\n' as CPython's
universal newlines do.  Writing goes through at once (`os.write` on every
`write()`), so nothing is lost when a program forgets to close its file.

Limits: there is no seeking (nor seek()/tell()), so a file opened for both
reading and writing ('r+', 'w+') writes where the operating system's file
offset is, which is past what was read ahead into the buffer; errors of
`os.open` carry no errno, so a file that cannot be opened raises
FileNotFoundError (mode 'x': FileExistsError) whatever the reason, and
rpy3 keeps no text for OSError and its subclasses (`str(e)` is '')."""

import os

from rpy3.rlib.objectmodel import specialize

_CHUNK = 65536
_CLOSED = "I/O operation on closed file."


@specialize.memo()
def _is_binary(mode):
    return "b" in mode


def _parse_mode(mode):
    """Checks `mode`; returns the flags of os.open for it."""
    kinds = 0
    for c in mode:
        if c == "r" or c == "w" or c == "a" or c == "x":
            kinds += 1
        elif c != "b" and c != "t" and c != "+":
            raise ValueError("invalid mode: '%s'" % mode)
    if kinds != 1 or ("b" in mode and "t" in mode):
        raise ValueError("invalid mode: '%s'" % mode)
    plus = "+" in mode
    if "r" in mode:
        if plus:
            return os.O_RDWR
        return os.O_RDONLY
    if plus:
        flags = os.O_RDWR
    else:
        flags = os.O_WRONLY
    if "w" in mode:
        flags |= os.O_CREAT | os.O_TRUNC
    elif "a" in mode:
        flags |= os.O_CREAT | os.O_APPEND
    else:
        flags |= os.O_CREAT | os.O_EXCL
    return flags


def _binary_mode_name(mode):
    """The `mode` attribute of a binary file (FileIO's: 'rb', 'rb+'...)."""
    if "x" in mode:
        s = "xb"
    elif "a" in mode:
        s = "ab"
    elif "w" in mode:
        s = "wb"
    else:
        s = "rb"
    if "+" in mode:
        s += "+"
    return s


def _open_fd(file, flags, exclusive):
    try:
        return os.open(file, flags, 0o666)
    except OSError:
        if exclusive:
            raise FileExistsError("[Errno 17] File exists: '%s'" % file)
        raise FileNotFoundError(
            "[Errno 2] No such file or directory: '%s'" % file)


def _check_text_args(encoding, errors, newline):
    if encoding is not None:
        e = encoding.lower().replace("_", "-")
        if e != "utf-8" and e != "utf8":
            raise LookupError("unsupported encoding: " + encoding)
    if errors is not None and errors != "strict":
        raise LookupError("unsupported errors: " + errors)
    if newline is not None:
        raise ValueError("newline= other than None is not supported")


def _write_all(fd, data):
    n = len(data)
    done = 0
    while done < n:
        if done == 0:
            w = os.write(fd, data)
        else:
            w = os.write(fd, data[done:])
        if w <= 0:
            raise OSError("write failed")
        done += w


def _utf8_complete(data):
    """How many bytes at the start of `data` are complete UTF-8
    characters (a character cut at the end is left out)."""
    n = len(data)
    i = n - 1
    stop = n - 4
    if stop < 0:
        stop = 0
    while i >= stop:
        b = data[i]
        if b < 0x80:
            return n
        if b >= 0xC0:
            if b >= 0xF0:
                need = 4
            elif b >= 0xE0:
                need = 3
            else:
                need = 2
            if n - i >= need:
                return n
            return i
        i -= 1
    return n


def _translate_newlines(s):
    if "\r" not in s:
        return s
    return s.replace("\r\n", "\n").replace("\r", "\n")


class TextFile(object):
    """A file opened in text mode (io.TextIOWrapper's methods)."""

    def __init__(self, fd, name, mode, readable, writable):
        self.fd = fd
        self.name = name
        self.mode = mode
        self.closed = False
        self.readable_ = readable
        self.writable_ = writable
        self.buf = ""          # decoded text not read yet, from `pos`
        self.pos = 0
        self.raw = b""         # the undecoded end of a character
        self.pending_cr = False  # a '\r' that may start a '\r\n'
        self.eof = False

    def _check_open(self):
        if self.closed:
            raise ValueError(_CLOSED)

    def _check_readable(self):
        self._check_open()
        if not self.readable_:
            raise OSError("not readable")

    def _fill(self):
        """Reads one more chunk into the buffer; False at end of file."""
        if self.eof:
            return False
        data = os.read(self.fd, _CHUNK)
        if len(data) == 0:
            self.eof = True
            text = self.raw.decode("utf-8")
            self.raw = b""
            if self.pending_cr:
                text = "\r" + text
                self.pending_cr = False
            text = _translate_newlines(text)
        else:
            if len(self.raw) > 0:
                data = self.raw + data
            cut = _utf8_complete(data)
            if cut < len(data):
                self.raw = data[cut:]
                data = data[:cut]
            else:
                self.raw = b""
            text = data.decode("utf-8")
            if self.pending_cr:
                text = "\r" + text
                self.pending_cr = False
            if len(text) > 0 and text[len(text) - 1] == "\r":
                self.pending_cr = True
                text = text[:len(text) - 1]
            text = _translate_newlines(text)
        if self.pos > 0:
            self.buf = self.buf[self.pos:] + text
            self.pos = 0
        else:
            self.buf = self.buf + text
        return True

    def read(self, size=-1):
        self._check_readable()
        if size < 0:
            parts = [self.buf[self.pos:]]
            self.buf = ""
            self.pos = 0
            while self._fill():
                parts.append(self.buf)
                self.buf = ""
            return "".join(parts)
        while len(self.buf) - self.pos < size:
            if not self._fill():
                break
        end = self.pos + size
        if end > len(self.buf):
            end = len(self.buf)
        s = self.buf[self.pos:end]
        self.pos = end
        return s

    def readline(self, size=-1):
        self._check_readable()
        start = self.pos
        while True:
            i = self.buf.find("\n", start)
            if i >= 0:
                end = i + 1
                break
            start = len(self.buf)
            old = self.pos
            if not self._fill():
                end = len(self.buf)
                break
            start -= old   # the buffer lost its first `old` characters
        if size >= 0 and end - self.pos > size:
            end = self.pos + size
        s = self.buf[self.pos:end]
        self.pos = end
        return s

    def readlines(self, hint=-1):
        lines = []
        total = 0
        while True:
            line = self.readline()
            if not line:
                break
            lines.append(line)
            total += len(line)
            if hint > 0 and total >= hint:
                break
        return lines

    def __iter__(self):
        self._check_open()
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def write(self, s):
        self._check_open()
        if not self.writable_:
            raise OSError("not writable")
        _write_all(self.fd, s.encode("utf-8"))
        return len(s)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        self._check_open()

    def readable(self):
        self._check_open()
        return self.readable_

    def writable(self):
        self._check_open()
        return self.writable_

    def fileno(self):
        self._check_open()
        return self.fd

    def close(self):
        if not self.closed:
            self.closed = True
            self.buf = ""
            self.pos = 0
            os.close(self.fd)

    def __enter__(self):
        self._check_open()
        return self

    def __exit__(self, exc_type, exc_value, tb):
        self.close()
        return False


class BinaryFile(object):
    """A file opened in binary mode (io.BufferedReader/Writer's methods)."""

    def __init__(self, fd, name, mode, readable, writable):
        self.fd = fd
        self.name = name
        self.mode = mode
        self.closed = False
        self.readable_ = readable
        self.writable_ = writable
        self.buf = b""
        self.pos = 0
        self.eof = False

    def _check_open(self):
        if self.closed:
            raise ValueError(_CLOSED)

    def _check_readable(self):
        self._check_open()
        if not self.readable_:
            raise OSError("not readable")

    def _fill(self):
        if self.eof:
            return False
        data = os.read(self.fd, _CHUNK)
        if len(data) == 0:
            self.eof = True
            return False
        if self.pos > 0:
            self.buf = self.buf[self.pos:] + data
            self.pos = 0
        else:
            self.buf = self.buf + data
        return True

    def read(self, size=-1):
        self._check_readable()
        if size < 0:
            parts = [self.buf[self.pos:]]
            self.buf = b""
            self.pos = 0
            while self._fill():
                parts.append(self.buf)
                self.buf = b""
            return b"".join(parts)
        while len(self.buf) - self.pos < size:
            if not self._fill():
                break
        end = self.pos + size
        if end > len(self.buf):
            end = len(self.buf)
        s = self.buf[self.pos:end]
        self.pos = end
        return s

    def readline(self, size=-1):
        self._check_readable()
        start = self.pos
        while True:
            i = self.buf.find(b"\n", start)
            if i >= 0:
                end = i + 1
                break
            start = len(self.buf)
            old = self.pos
            if not self._fill():
                end = len(self.buf)
                break
            start -= old
        if size >= 0 and end - self.pos > size:
            end = self.pos + size
        s = self.buf[self.pos:end]
        self.pos = end
        return s

    def __iter__(self):
        self._check_open()
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def write(self, data):
        self._check_open()
        if not self.writable_:
            raise OSError("not writable")
        _write_all(self.fd, data)
        return len(data)

    def flush(self):
        self._check_open()

    def fileno(self):
        self._check_open()
        return self.fd

    def close(self):
        if not self.closed:
            self.closed = True
            self.buf = b""
            self.pos = 0
            os.close(self.fd)

    def __enter__(self):
        self._check_open()
        return self

    def __exit__(self, exc_type, exc_value, tb):
        self.close()
        return False


@specialize.call_location()
def open(file, mode="r", buffering=-1, encoding=None, errors=None,
         newline=None):
    """open(): one copy per call site, whose `mode` must be a constant
    string (or left out)."""
    flags = _parse_mode(mode)
    readable = "r" in mode or "+" in mode
    writable = "r" not in mode or "+" in mode
    if _is_binary(mode):
        fd = _open_fd(file, flags, "x" in mode)
        return BinaryFile(fd, file, _binary_mode_name(mode),
                          readable, writable)
    _check_text_args(encoding, errors, newline)
    fd = _open_fd(file, flags, "x" in mode)
    return TextFile(fd, file, mode, readable, writable)
