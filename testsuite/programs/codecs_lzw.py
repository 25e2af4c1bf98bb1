# rpy3-args: 30
"""Hand-written codecs: LZW compress/decompress with variable-width codes
packed into a bytearray, run-length encoding, base64 encode/decode,
hex dumps, and CRC-32.

Source: written for rpy3's own test suite (2026-11), not a port; it tries rpy3 on a program written the way a Python programmer who knows RPython's rules writes one. Unchanged since it was written.
"""
import sys

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
B64_REV = {c: i for i, c in enumerate(B64)}


class CodecError(Exception):
    pass


class BitWriter:
    def __init__(self):
        self.out = bytearray()
        self.acc = 0
        self.nbits = 0

    def write(self, value, width):
        self.acc = (self.acc << width) | value
        self.nbits += width
        while self.nbits >= 8:
            self.nbits -= 8
            self.out.append((self.acc >> self.nbits) & 0xFF)
        self.acc &= (1 << self.nbits) - 1

    def flush(self):
        if self.nbits:
            self.out.append((self.acc << (8 - self.nbits)) & 0xFF)
            self.acc = 0
            self.nbits = 0
        return bytes(self.out)


class BitReader:
    def __init__(self, data):
        self.data = data
        self.pos = 0
        self.acc = 0
        self.nbits = 0

    def read(self, width):
        while self.nbits < width:
            if self.pos >= len(self.data):
                return -1
            self.acc = (self.acc << 8) | self.data[self.pos]
            self.pos += 1
            self.nbits += 8
        self.nbits -= width
        v = (self.acc >> self.nbits) & ((1 << width) - 1)
        self.acc &= (1 << self.nbits) - 1
        return v


MAX_WIDTH = 12
CLEAR = 256
STOP = 257


def lzw_compress(data):
    table = {bytes([i]): i for i in range(256)}
    next_code = 258
    width = 9
    w = BitWriter()
    cur = b""
    for byte in data:
        cand = cur + bytes([byte])
        if cand in table:
            cur = cand
            continue
        w.write(table[cur], width)
        if next_code < (1 << MAX_WIDTH):
            table[cand] = next_code
            next_code += 1
            if next_code > (1 << width) and width < MAX_WIDTH:
                width += 1
        else:
            w.write(CLEAR, width)
            table = {bytes([i]): i for i in range(256)}
            next_code = 258
            width = 9
        cur = bytes([byte])
    if cur:
        w.write(table[cur], width)
    w.write(STOP, width)
    return w.flush()


def lzw_decompress(packed):
    r = BitReader(packed)
    table = [bytes([i]) for i in range(256)] + [b"", b""]
    width = 9
    out = bytearray()
    prev = b""
    while True:
        code = r.read(width)
        if code < 0:
            raise CodecError("truncated stream")
        if code == STOP:
            break
        if code == CLEAR:
            table = [bytes([i]) for i in range(256)] + [b"", b""]
            width = 9
            prev = b""
            continue
        if code < len(table):
            entry = table[code]
        elif code == len(table) and prev:
            entry = prev + prev[:1]
        else:
            raise CodecError("bad code %d" % code)
        out.extend(entry)
        if prev:
            table.append(prev + entry[:1])
            if len(table) + 1 > (1 << width) and width < MAX_WIDTH:
                width += 1
        prev = entry
    return bytes(out)


def rle_encode(s):
    if not s:
        return ""
    parts = []
    run_char = s[0]
    run = 1
    for ch in s[1:]:
        if ch == run_char and run < 99:
            run += 1
        else:
            parts.append("%d%s" % (run, run_char) if run > 1 else run_char)
            run_char = ch
            run = 1
    parts.append("%d%s" % (run, run_char) if run > 1 else run_char)
    return "".join(parts)


def rle_decode(s):
    out = []
    num = ""
    for ch in s:
        if ch.isdigit():
            num += ch
        else:
            out.append(ch * (int(num) if num else 1))
            num = ""
    if num:
        raise CodecError("dangling count " + num)
    return "".join(out)


def b64encode(data):
    out = []
    for i in range(0, len(data), 3):
        chunk = data[i:i + 3]
        v = 0
        for b in chunk:
            v = (v << 8) | b
        v <<= 8 * (3 - len(chunk))
        chars = [B64[(v >> s) & 63] for s in (18, 12, 6, 0)]
        keep = len(chunk) + 1
        out.append("".join(chars[:keep]) + "=" * (4 - keep))
    return "".join(out)


def b64decode(text):
    text = text.strip()
    if len(text) % 4:
        raise CodecError("length %d not a multiple of 4" % len(text))
    out = bytearray()
    for i in range(0, len(text), 4):
        quad = text[i:i + 4]
        pad = quad.count("=")
        v = 0
        for c in quad.rstrip("="):
            if c not in B64_REV:
                raise CodecError("bad base64 char %r" % c)
            v = (v << 6) | B64_REV[c]
        v <<= 6 * pad
        raw = [(v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF]
        out.extend(bytes(raw[:3 - pad]))
    return bytes(out)


def crc32(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            if crc & 1:
                crc = (crc >> 1) ^ 0xEDB88320
            else:
                crc >>= 1
    return crc ^ 0xFFFFFFFF


def hexdump(data, width=16):
    lines = []
    for off in range(0, len(data), width):
        chunk = data[off:off + width]
        hx = " ".join(["%02x" % b for b in chunk])
        asc = "".join([chr(b) if 32 <= b < 127 else "." for b in chunk])
        lines.append("%08x  %-*s |%s|" % (off, width * 3 - 1, hx, asc))
    return "\n".join(lines)


def make_text(n):
    words = ["the", "rain", "in", "spain", "falls", "mainly", "on", "plain", "TOBEORNOT"]
    out = []
    x = 7
    for i in range(n * 40):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        out.append(words[(x >> 16) % len(words)])
    return " ".join(out)


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 10
    samples = [b"", b"a", b"TOBEORNOTTOBEORTOBEORNOT", b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
               make_text(n).encode(), bytes(range(256)) * 3]
    for s in samples:
        c = lzw_compress(s)
        d = lzw_decompress(c)
        ratio = len(c) / len(s) if s else 0.0
        print("lzw %6d -> %6d (%.3f) ok=%s crc=%08x" % (len(s), len(c), ratio, d == s, crc32(s)))
    print(hexdump(lzw_compress(samples[2])))
    for s in ["WWWWWWWWWWWWBWWWWWWWWWWWWBBBWWWWWWWWWWWWWWWWWWWWWWWWBWWWWWWWWWWWWWW", "abc", "", "x" * 250]:
        e = rle_encode(s)
        print("rle %r -> %r ok=%s" % (s[:20], e[:30], rle_decode(e) == s))
    try:
        rle_decode("3a4")
    except CodecError as err:
        print("error:", err)
    for s in [b"", b"f", b"fo", b"foo", b"foob", b"fooba", b"foobar", bytes([0, 255, 128, 1])]:
        e = b64encode(s)
        print("b64 %-22r %-12s %s" % (s, e, b64decode(e) == s))
    for bad in ["abc", "ab!d"]:
        try:
            b64decode(bad)
        except CodecError as err:
            print("error:", err)
    big = make_text(n).encode()
    enc = b64encode(lzw_compress(big))
    back = lzw_decompress(b64decode(enc))
    print("pipeline:", len(big), len(enc), back == big, enc[:40])
    try:
        lzw_decompress(lzw_compress(big)[:-3])
    except CodecError as err:
        print("error:", err)
    print(back.decode()[:50].upper().split(" ")[:5], big.count(b"rain"), big.find(b"spain"))
    return 0


def entry_point(argv):
    return main(argv)


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    sys.exit(entry_point(sys.argv))
