"""The `random` module: rpy3 translates calls of its functions and of
`random.Random` into `rpy3.stdlib.random`, CPython's Mersenne Twister and
3.11's methods written in RPython, so a seeded program draws exactly what
it draws under CPython.  Each case seeds first (the backends do not share
CPython's generator)."""

import random
from random import randint, choice, shuffle


def floats(seed, n):
    random.seed(seed)
    return [random.random() for _ in range(n)]


def ints(seed):
    random.seed(seed)
    a = [randint(1, 6) for _ in range(20)]
    b = [random.randrange(10) for _ in range(5)]
    c = [random.randrange(-50, 50, 7) for _ in range(5)]
    d = [random.randrange(100, 0, -3) for _ in range(5)]
    return (a, b, c, d, random.getrandbits(5), random.getrandbits(33), random.getrandbits(63))


def many_draws(seed):
    # more than 624 words: the generator's state is regenerated
    random.seed(seed)
    total = 0
    for _ in range(2000):
        total = (total * 31 + random.randint(0, 1000)) % 1000003
    return total


def sequences(seed):
    random.seed(seed)
    xs = list(range(12))
    shuffle(xs)
    words = ["ab", "cd", "ef", "gh"]
    picks = [choice(words) for _ in range(4)]
    letter = choice("xyz")
    s1 = random.sample(xs, 4)
    s2 = random.sample(range(1000), 30)
    return (xs, picks, letter, s1, s2)


def distributions(seed):
    random.seed(seed)
    return (
        random.uniform(2.0, 5.0),
        random.gauss(1.0, 0.5),
        random.gauss(1.0, 0.5),
        random.normalvariate(0.0, 2.0),
        random.expovariate(1.5),
        random.triangular(0.0, 10.0, 3.0),
    )


def generators(seed):
    r1 = random.Random(seed)
    r2 = random.Random(seed + 1)
    a = [r1.randint(0, 9) for _ in range(6)]
    b = [r2.random() for _ in range(3)]
    r1.seed(seed)
    c = [r1.randint(0, 9) for _ in range(6)]
    return (a, b, c, a == c)


def state_round_trip(seed):
    random.seed(seed)
    st = random.getstate()
    first = [random.random() for _ in range(3)]
    random.setstate(st)
    again = [random.random() for _ in range(3)]
    return first == again


def empty_choice(seed):
    random.seed(seed)
    xs = []
    xs.append(1)
    xs.pop()
    return choice(xs)


def empty_range(n):
    random.seed(0)
    return random.randrange(n)


CASES = [
    (floats, [0, 5]),
    (floats, [12345, 3]),
    (floats, [-7, 2]),
    (floats, [2**40 + 3, 2]),
    (ints, [42]),
    (ints, [2024]),
    (many_draws, [1]),
    (sequences, [3]),
    (sequences, [99]),
    (distributions, [5]),
    (generators, [17]),
    (state_round_trip, [8]),
    (empty_choice, [1]),
    (empty_range, [0]),
    (empty_range, [-3]),
]
