# rpy3-args: 4000
"""Hash functions with explicit 32-bit masks (FNV-1a, djb2, murmur3 finalizer,
xorshift), a Bloom filter over a list-of-ints bit array, a counting Bloom
filter, and a HyperLogLog-ish cardinality estimate.

Source: written for rpy3's own test suite (2026-11), not a port; it tries rpy3 on a program written the way a Python programmer who knows RPython's rules writes one. Unchanged since it was written.
"""
import sys
import math

MASK32 = 0xFFFFFFFF


def fnv1a(s):
    h = 0x811C9DC5
    for ch in s:
        h ^= ord(ch)
        h = (h * 0x01000193) & MASK32
    return h


def djb2(s):
    h = 5381
    for ch in s:
        h = ((h << 5) + h + ord(ch)) & MASK32
    return h


def fmix32(h):
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & MASK32
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & MASK32
    h ^= h >> 16
    return h


def rotl32(x, r):
    return ((x << r) | (x >> (32 - r))) & MASK32


def murmur3(s, seed):
    c1 = 0xCC9E2D51
    c2 = 0x1B873593
    h = seed & MASK32
    data = [ord(c) & 0xFF for c in s]
    nblocks = len(data) // 4
    for i in range(nblocks):
        k = data[4 * i] | (data[4 * i + 1] << 8) | (data[4 * i + 2] << 16) | (data[4 * i + 3] << 24)
        k = (k * c1) & MASK32
        k = rotl32(k, 15)
        k = (k * c2) & MASK32
        h ^= k
        h = rotl32(h, 13)
        h = (h * 5 + 0xE6546B64) & MASK32
    tail = data[nblocks * 4:]
    k = 0
    if len(tail) >= 3:
        k ^= tail[2] << 16
    if len(tail) >= 2:
        k ^= tail[1] << 8
    if len(tail) >= 1:
        k ^= tail[0]
        k = (k * c1) & MASK32
        k = rotl32(k, 15)
        k = (k * c2) & MASK32
        h ^= k
    h ^= len(data)
    return fmix32(h)


class BitArray:
    WORD = 32

    def __init__(self, nbits):
        self.nbits = nbits
        self.words = [0] * ((nbits + 31) // 32)

    def set(self, i):
        self.words[i >> 5] |= 1 << (i & 31)

    def get(self, i):
        return (self.words[i >> 5] >> (i & 31)) & 1 == 1

    def popcount(self):
        total = 0
        for w in self.words:
            while w:
                w &= w - 1
                total += 1
        return total

    def __len__(self):
        return self.nbits

    def __or__(self, other):
        r = BitArray(self.nbits)
        r.words = [a | b for a, b in zip(self.words, other.words)]
        return r

    def __and__(self, other):
        r = BitArray(self.nbits)
        r.words = [a & b for a, b in zip(self.words, other.words)]
        return r


class BloomFilter:
    def __init__(self, capacity, error_rate):
        m = int(math.ceil(-capacity * math.log(error_rate) / (math.log(2) ** 2)))
        self.k = max(1, int(round(m / capacity * math.log(2))))
        self.bits = BitArray(m)
        self.count = 0

    def _indexes(self, item):
        h1 = murmur3(item, 0)
        h2 = fnv1a(item) | 1
        m = len(self.bits)
        for i in range(self.k):
            yield (h1 + i * h2) % m

    def add(self, item):
        for idx in self._indexes(item):
            self.bits.set(idx)
        self.count += 1

    def __contains__(self, item):
        return all(self.bits.get(idx) for idx in self._indexes(item))

    def estimated_fpr(self):
        fill = self.bits.popcount() / len(self.bits)
        return fill ** self.k

    def union(self, other):
        if len(self.bits) != len(other.bits) or self.k != other.k:
            raise ValueError("incompatible filters")
        r = BloomFilter(1, 0.5)
        r.k = self.k
        r.bits = self.bits | other.bits
        r.count = self.count + other.count
        return r


class CountingBloom(BloomFilter):
    def __init__(self, capacity, error_rate):
        BloomFilter.__init__(self, capacity, error_rate)
        self.counters = [0] * len(self.bits)

    def add(self, item):
        for idx in self._indexes(item):
            self.counters[idx] = min(self.counters[idx] + 1, 15)
            self.bits.set(idx)
        self.count += 1

    def remove(self, item):
        if item not in self:
            raise KeyError(item)
        for idx in self._indexes(item):
            self.counters[idx] -= 1
        self.count -= 1

    def __contains__(self, item):
        return all(self.counters[idx] > 0 for idx in self._indexes(item))


class HyperLogLog:
    def __init__(self, b):
        self.b = b
        self.m = 1 << b
        self.registers = [0] * self.m

    def add(self, item):
        x = murmur3(item, 0x9747B28C)
        j = x & (self.m - 1)
        w = x >> self.b
        rho = 1
        while w & 1 == 0 and rho <= 32 - self.b:
            rho += 1
            w >>= 1
        if rho > self.registers[j]:
            self.registers[j] = rho

    def estimate(self):
        alpha = 0.7213 / (1.0 + 1.079 / self.m)
        z = sum([2.0 ** -r for r in self.registers])
        e = alpha * self.m * self.m / z
        zeros = self.registers.count(0)
        if e <= 2.5 * self.m and zeros:
            e = self.m * math.log(self.m / zeros)
        return e


def word(i):
    letters = "etaoinshrdlucmfwyp"
    s = []
    x = i * 2654435761 & MASK32
    for _ in range(3 + i % 6):
        s.append(letters[x % len(letters)])
        x = (x * 1103515245 + 12345) & MASK32
        x ^= x >> 7
    return "".join(s) + str(i % 97)


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 1000
    for s in ["", "a", "abc", "hello world", "The quick brown fox"]:
        print("%-22r fnv=%08x djb=%08x mm0=%08x mm42=%08x" % (s, fnv1a(s), djb2(s), murmur3(s, 0), murmur3(s, 42)))
    print("fmix:", [hex(fmix32(i)) for i in range(4)], "rotl:", rotl32(0x80000001, 1))
    bf = BloomFilter(n, 0.01)
    items = [word(i) for i in range(n)]
    for it in items:
        bf.add(it)
    missing = [it for it in items if it not in bf]
    probes = ["zz%dq" % i for i in range(n)]
    fp = sum([1 for p in probes if p in bf])
    print("bloom m=%d k=%d set=%d false-neg=%d false-pos=%d/%d est=%.4f" % (
        len(bf.bits), bf.k, bf.bits.popcount(), len(missing), fp, n, bf.estimated_fpr()))
    other = BloomFilter(n, 0.01)
    for p in probes[: n // 2]:
        other.add(p)
    u = bf.union(other)
    print("union count=%d has-probe0=%s popcount=%d" % (u.count, probes[0] in u, u.bits.popcount()))
    try:
        bf.union(BloomFilter(n * 2, 0.01))
    except ValueError as e:
        print("error:", e)
    cb = CountingBloom(200, 0.02)
    for it in items[:200]:
        cb.add(it)
    removed = 0
    for it in items[:100]:
        cb.remove(it)
        removed += 1
    still = sum([1 for it in items[100:200] if it in cb])
    print("counting: removed %d, remaining members found %d/100, count=%d" % (removed, still, cb.count))
    try:
        cb.remove("definitely-not-there-xyz")
    except KeyError as e:
        print("KeyError:", e)
    for b in (6, 10):
        hll = HyperLogLog(b)
        for it in items + items[: n // 3]:
            hll.add(it)
        distinct = len(set(items))
        est = hll.estimate()
        print("hll b=%d distinct=%d estimate=%.1f error=%.2f%%" % (b, distinct, est, 100.0 * abs(est - distinct) / distinct))
    buckets = [0] * 16
    for it in items:
        buckets[fnv1a(it) >> 28] += 1
    print("fnv top-nibble buckets:", buckets)
    return 0


def entry_point(argv):
    return main(argv)


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    sys.exit(entry_point(sys.argv))
