"""`random` for RPython programs: CPython's generator (the Mersenne
Twister MT19937 of `_randommodule.c`) and the methods of `random.Random`
in 3.11, written in RPython, so that a program seeded with an int draws
exactly the numbers it draws under CPython.

The module-level functions (`random.random()`, `random.seed(5)`, ...)
act on one prebuilt generator, as CPython's act on `random._inst`; an
unseeded program starts from a fixed state here (CPython seeds from the
OS).  Seeds are ints (or floats, through their hash); `seed()` with a
str or bytes, which CPython hashes with SHA-512, is not supported.
"""

import math

from rpy3.rlib.objectmodel import specialize

_N = 624
_M = 397
_MATRIX_A = 0x9908B0DF
_UPPER_MASK = 0x80000000
_LOWER_MASK = 0x7FFFFFFF
_MASK32 = 0xFFFFFFFF

_TWOPI = 2.0 * math.pi
_NV_MAGICCONST = 4 * math.exp(-0.5) / math.sqrt(2.0)
_LOG4 = math.log(4.0)


class Random(object):
    """A generator with its own state (`random.Random(seed)`)."""

    def __init__(self, x=0):
        self.mt = [0] * _N
        self.mti = _N + 1
        self.gauss_next = 0.0
        self.has_gauss_next = False
        self.seed(x)

    # ---- the generator proper ----------------------------------------

    def _init_genrand(self, s):
        mt = self.mt
        mt[0] = s & _MASK32
        for i in range(1, _N):
            prev = mt[i - 1]
            mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & _MASK32
        self.mti = _N

    def _init_by_array(self, key):
        self._init_genrand(19650218)
        mt = self.mt
        keylen = len(key)
        i = 1
        j = 0
        k = _N if _N > keylen else keylen
        while k > 0:
            prev = mt[i - 1]
            mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key[j] + j) & _MASK32
            i += 1
            j += 1
            if i >= _N:
                mt[0] = mt[_N - 1]
                i = 1
            if j >= keylen:
                j = 0
            k -= 1
        k = _N - 1
        while k > 0:
            prev = mt[i - 1]
            mt[i] = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & _MASK32
            i += 1
            if i >= _N:
                mt[0] = mt[_N - 1]
                i = 1
            k -= 1
        mt[0] = 0x80000000

    def _genrand_uint32(self):
        mt = self.mt
        if self.mti >= _N:
            kk = 0
            while kk < _N - _M:
                y = (mt[kk] & _UPPER_MASK) | (mt[kk + 1] & _LOWER_MASK)
                mt[kk] = mt[kk + _M] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
                kk += 1
            while kk < _N - 1:
                y = (mt[kk] & _UPPER_MASK) | (mt[kk + 1] & _LOWER_MASK)
                mt[kk] = mt[kk + (_M - _N)] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
                kk += 1
            y = (mt[_N - 1] & _UPPER_MASK) | (mt[0] & _LOWER_MASK)
            mt[_N - 1] = mt[_M - 1] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
            self.mti = 0
        y = mt[self.mti]
        self.mti += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y & _MASK32

    # ---- seeding and state -------------------------------------------

    @specialize.argtype(1)
    def seed(self, a=0):
        """Seeds from an int (its absolute value's 32-bit words) or a
        float (its hash), as CPython does."""
        if isinstance(a, float):
            n = hash(a)
        else:
            n = a
        if n < 0:
            n = -n
        key = []
        if n < 0:
            # -sys.maxsize - 1: its absolute value needs the 64th bit
            key.append(n & _MASK32)
            key.append((n >> 32) & _MASK32)
        else:
            while n > 0:
                key.append(n & _MASK32)
                n >>= 32
        if not key:
            key.append(0)
        self._init_by_array(key)
        self.has_gauss_next = False

    def getstate(self):
        return (3, list(self.mt), self.mti)

    def setstate(self, state):
        version, mt, mti = state
        if version != 3:
            raise ValueError("state with version %d passed to Random.setstate() "
                             "of version 3" % version)
        if len(mt) != _N:
            raise ValueError("state vector is the wrong size")
        for i in range(_N):
            self.mt[i] = mt[i] & _MASK32
        self.mti = mti
        self.has_gauss_next = False

    # ---- draws -------------------------------------------------------

    def random(self):
        a = self._genrand_uint32() >> 5
        b = self._genrand_uint32() >> 6
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k):
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        if k > 63:
            raise OverflowError("getrandbits() of more than 63 bits does not fit a machine int")
        if k <= 32:
            return self._genrand_uint32() >> (32 - k)
        low = self._genrand_uint32()
        high = self._genrand_uint32() >> (64 - k)
        return (high << 32) | low

    def _randbelow(self, n):
        k = _bit_length(n)
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r

    def randrange(self, start, stop=-1, step=1):
        """`randrange(stop)` or `randrange(start, stop[, step])`; a `stop`
        of -1 with the default step stands for the one-argument form."""
        if stop == -1 and step == 1:
            if start > 0:
                return self._randbelow(start)
            raise ValueError("empty range for randrange()")
        width = stop - start
        if step == 1:
            if width > 0:
                return start + self._randbelow(width)
            raise ValueError("empty range for randrange() (%d, %d, %d)" % (start, stop, width))
        if step > 0:
            n = (width + step - 1) // step
        elif step < 0:
            n = (width + step + 1) // step
        else:
            raise ValueError("zero step for randrange()")
        if n <= 0:
            raise ValueError("empty range for randrange()")
        return start + step * self._randbelow(n)

    def randint(self, a, b):
        return self.randrange(a, b + 1)

    @specialize.argtype(1)
    def choice(self, seq):
        if not len(seq):
            raise IndexError("Cannot choose from an empty sequence")
        return seq[self._randbelow(len(seq))]

    @specialize.argtype(1)
    def shuffle(self, x):
        i = len(x) - 1
        while i >= 1:
            j = self._randbelow(i + 1)
            x[i], x[j] = x[j], x[i]
            i -= 1

    @specialize.argtype(1)
    def sample(self, population, k):
        n = len(population)
        if not 0 <= k <= n:
            raise ValueError("Sample larger than population or is negative")
        setsize = 21
        if k > 5:
            setsize += 4 ** int(math.ceil(math.log(k * 3) / _LOG4))
        result = []
        if n <= setsize:
            pool = list(population)
            for i in range(k):
                j = self._randbelow(n - i)
                result.append(pool[j])
                pool[j] = pool[n - i - 1]
        else:
            selected = {}
            for i in range(k):
                j = self._randbelow(n)
                while j in selected:
                    j = self._randbelow(n)
                selected[j] = True
                result.append(population[j])
        return result

    def uniform(self, a, b):
        return a + (b - a) * self.random()

    def triangular(self, low=0.0, high=1.0, mode=0.5):
        u = self.random()
        if high == low:
            return low
        c = (mode - low) / (high - low)
        if u > c:
            u = 1.0 - u
            c = 1.0 - c
            low, high = high, low
        return low + (high - low) * math.sqrt(u * c)

    def normalvariate(self, mu=0.0, sigma=1.0):
        while True:
            u1 = self.random()
            u2 = 1.0 - self.random()
            z = _NV_MAGICCONST * (u1 - 0.5) / u2
            zz = z * z / 4.0
            if zz <= -math.log(u2):
                break
        return mu + z * sigma

    def gauss(self, mu=0.0, sigma=1.0):
        if self.has_gauss_next:
            z = self.gauss_next
            self.has_gauss_next = False
        else:
            x2pi = self.random() * _TWOPI
            g2rad = math.sqrt(-2.0 * math.log(1.0 - self.random()))
            z = math.cos(x2pi) * g2rad
            self.gauss_next = math.sin(x2pi) * g2rad
            self.has_gauss_next = True
        return mu + z * sigma

    def expovariate(self, lambd=1.0):
        return -math.log(1.0 - self.random()) / lambd


def _bit_length(n):
    k = 0
    while n > 0:
        n >>= 1
        k += 1
    return k


_inst = Random(0)


# the module-level functions, on the one prebuilt generator

@specialize.argtype(0)
def seed(a=0):
    _inst.seed(a)


def random():
    return _inst.random()


def getrandbits(k):
    return _inst.getrandbits(k)


def randrange(start, stop=-1, step=1):
    return _inst.randrange(start, stop, step)


def randint(a, b):
    return _inst.randint(a, b)


@specialize.argtype(0)
def choice(seq):
    return _inst.choice(seq)


@specialize.argtype(0)
def shuffle(x):
    _inst.shuffle(x)


@specialize.argtype(0)
def sample(population, k):
    return _inst.sample(population, k)


def uniform(a, b):
    return _inst.uniform(a, b)


def triangular(low=0.0, high=1.0, mode=0.5):
    return _inst.triangular(low, high, mode)


def normalvariate(mu=0.0, sigma=1.0):
    return _inst.normalvariate(mu, sigma)


def gauss(mu=0.0, sigma=1.0):
    return _inst.gauss(mu, sigma)


def expovariate(lambd=1.0):
    return _inst.expovariate(lambd)


def getstate():
    return _inst.getstate()


def setstate(state):
    _inst.setstate(state)
