# rpy3-args: 400
"""Toy RSA with machine-word primes: Miller-Rabin, extended Euclid, modular
inverse, CRT decryption, signatures, and number formatting helpers.

Source: written for rpy3's own test suite (2026-11), not a port; it tries rpy3 on a program written the way a Python programmer who knows RPython's rules writes one. Unchanged since it was written.
"""
import sys


class CryptoError(Exception):
    pass


def egcd(a, b):
    if b == 0:
        return a, 1, 0
    g, x, y = egcd(b, a % b)
    return g, y, x - (a // b) * y


def modinv(a, m):
    g, x, _ = egcd(a % m, m)
    if g != 1:
        raise CryptoError("%d has no inverse mod %d (gcd %d)" % (a, m, g))
    return x % m


def is_probable_prime(n):
    if n < 2:
        return False
    small = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37]
    for p in small:
        if n % p == 0:
            return n == p
    d = n - 1
    r = 0
    while d % 2 == 0:
        d //= 2
        r += 1
    for a in [2, 3, 5, 7, 11, 13, 17]:
        x = pow(a, d, n)
        if x == 1 or x == n - 1:
            continue
        composite = True
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                composite = False
                break
        if composite:
            return False
    return True


def next_prime(n):
    if n % 2 == 0:
        n += 1
    while not is_probable_prime(n):
        n += 2
    return n


class PublicKey:
    def __init__(self, n, e):
        self.n = n
        self.e = e

    def encrypt(self, m):
        if not 0 <= m < self.n:
            raise CryptoError("message %d out of range" % m)
        return pow(m, self.e, self.n)

    def verify(self, m, sig):
        return pow(sig, self.e, self.n) == m % self.n

    def __repr__(self):
        return "PublicKey(n=0x%x, e=%d)" % (self.n, self.e)


class PrivateKey(PublicKey):
    def __init__(self, p, q, e):
        PublicKey.__init__(self, p * q, e)
        self.p = p
        self.q = q
        phi = (p - 1) * (q - 1)
        self.d = modinv(e, phi)
        self.dp = self.d % (p - 1)
        self.dq = self.d % (q - 1)
        self.qinv = modinv(q, p)

    def decrypt(self, c):
        return pow(c, self.d, self.n)

    def decrypt_crt(self, c):
        m1 = pow(c, self.dp, self.p)
        m2 = pow(c, self.dq, self.q)
        h = (self.qinv * (m1 - m2)) % self.p
        return m2 + h * self.q

    def sign(self, m):
        return self.decrypt_crt(m % self.n)

    def public(self):
        return PublicKey(self.n, self.e)


def make_key(seed, e):
    p = next_prime(30000 + seed * 7919 % 20000)
    q = next_prime(p + 2 + seed * 104729 % 10000)
    while True:
        try:
            return PrivateKey(p, q, e)
        except CryptoError:
            if (p - 1) % e == 0:
                p = next_prime(p + 2)
            else:
                q = next_prime(q + 2)


def text_to_blocks(text, size):
    data = [ord(c) for c in text]
    blocks = []
    for i in range(0, len(data), size):
        chunk = data[i:i + size]
        v = 0
        for b in chunk:
            v = (v << 8) | b
        blocks.append((v, len(chunk)))
    return blocks


def blocks_to_text(blocks):
    out = []
    for v, length in blocks:
        chars = []
        for _ in range(length):
            chars.append(chr(v & 0xFF))
            v >>= 8
        chars.reverse()
        out.append("".join(chars))
    return "".join(out)


def checksum(s):
    h = 0
    for c in s:
        h = (h * 131 + ord(c)) % 1000000007
    return h


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 100
    print("egcd(240, 46) =", egcd(240, 46))
    print("egcd(-17, 5) =", egcd(-17, 5), "divmod:", divmod(-17, 5), divmod(17, -5), -17 // 5, -17 % 5)
    try:
        modinv(6, 9)
    except CryptoError as err:
        print("error:", err)
    primes = [p for p in range(2, 200) if is_probable_prime(p)]
    print(len(primes), "primes below 200, last", primes[-3:])
    carmichael = [561, 1105, 1729, 2465, 2821, 6601, 8911]
    print("carmichael flagged prime:", [c for c in carmichael if is_probable_prime(c)])
    key = make_key(3, 65537)
    pub = key.public()
    print(repr(pub), "bits:", pub.n.bit_length(), "p,q:", key.p, key.q)
    print("hex %s bin-tail %s oct %s" % (hex(key.d), bin(key.d)[-12:], oct(key.e)))
    print("formatted: {:>14,} {:#010x} {:b}".format(pub.n, key.e, 37))
    msg = "Attack at dawn! RPython says hi."
    blocks = text_to_blocks(msg, 3)
    cipher = [(pub.encrypt(v), ln) for v, ln in blocks]
    print("cipher head:", [c for c, _ in cipher[:4]])
    plain = blocks_to_text([(key.decrypt(c), ln) for c, ln in cipher])
    plain2 = blocks_to_text([(key.decrypt_crt(c), ln) for c, ln in cipher])
    print("roundtrip:", plain == msg, plain2 == msg, repr(plain2[:10]))
    try:
        pub.encrypt(pub.n + 5)
    except CryptoError as err:
        print("error:", err)
    ok = 0
    bad = 0
    for i in range(n):
        k = make_key(i % 17 + 1, [3, 17, 65537][i % 3])
        m = (i * 2654435761) % k.n
        s = k.sign(m)
        if k.public().verify(m, s):
            ok += 1
        if k.public().verify(m + 1, s):
            bad += 1
        if k.decrypt(k.encrypt(m)) != m:
            print("MISMATCH at", i)
    print("signatures ok %d forged %d" % (ok, bad))
    print("checksum:", checksum(msg * 10), str(12345).zfill(8), int("ff", 16), int("-101", 2), int("0o17", 8) if False else int("17", 8))
    print("pow checks:", pow(3, 200, 1000007), pow(-2, 5), pow(2, -1, 7) if False else pow(2, 10), 7 ** 0)
    return 0


def entry_point(argv):
    return main(argv)


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    sys.exit(entry_point(sys.argv))
