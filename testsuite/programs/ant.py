"""ant: Ant Colony Optimization for the travelling salesman problem on a
random distance matrix (Eric Rollins, 2008).

Source: shedskin/shedskin, examples/ant/ant.py.
Licence: not stated in the file (Shed Skin's LICENSE: examples are
"licensed as indicated for each example").

Changes made for rpy3:
- `import random` replaced by a local prebuilt instance `random` of a small
  32-bit xorshift generator class with the methods the program
  uses (seed, random, randint), so the numbers differ from CPython's;
- `import time` dropped; `main()`'s benchmark loop (200 runs of 3000 ants on
  20 cities, the second half timed, and the TIME line) became
  `entry_point(argv)`, which takes the number of runs, ants (iterations)
  and cities from argv; everything else in main() is unchanged;
- the shebang line dropped.
"""

# rpy3-args: 3 500 14
# rpy3-args: 1 200 40

# ant.py
# Eric Rollins 2008

#   This program generates a random array of distances between cities, then uses
#   Ant Colony Optimization to find a short path traversing all the cities --
#   the Travelling Salesman Problem.
#
#   In this version of Ant Colony Optimization each ant starts in a random city.
#   Paths are randomly chosed with probability inversely proportional to to the
#   distance to the next city.  At the end of its travel the ant updates the
#   pheromone matrix with its path if this path is the shortest one yet found.
#   The probability of later ants taking a path is increased by the pheromone
#   value on that path.  Pheromone values evaporate (decrease) over time.
#
#   In this impementation weights between cities actually represent
#   (maxDistance - dist), so we are trying to maximize the score.
#
#   Usage: ant seed boost iterations cities
#     seed         seed for random number generator (1,2,3...).
#                  This seed controls the city distance array.  Remote
#                  executions have their seed values fixed (1,2) so each will
#                  produce a different result.
#     boost        pheromone boost for best path.  5 appears good.
#                  0 disables pheromones, providing random search.
#     iterations   number of ants to be run.
#     cities       number of cities.

class _Random(object):
    """Local stand-in for the random module: Marsaglia's 32-bit xorshift
    generator, seeded through a multiplicative hash and a few warm-up
    steps."""

    def __init__(self):
        self.state = 0
        self.seed(0)

    def seed(self, n):
        self.state = ((n & 0x7fffffff) * 1103515245 + 12345) & 0xffffffff
        if self.state == 0:
            self.state = 12345
        for i in range(8):
            self.next32()

    def next32(self):
        x = self.state
        x ^= (x << 13) & 0xffffffff
        x ^= x >> 17
        x ^= (x << 5) & 0xffffffff
        self.state = x
        return x

    def random(self):
        return self.next32() / 4294967296.0

    def randint(self, a, b):
        return a + int(self.random() * (b - a + 1))


random = _Random()

# type Matrix = Array[Array[double]]
# type Path = List[int]
# type CitySet = HashSet[int]

# int * int * int -> Matrix
def randomMatrix(n, upperBound, seed):
    random.seed(seed)
    m = []
    for r in range(n):
        sm = []
        m.append(sm)
        for c in range(n):
             sm.append(upperBound * random.random())
    return m

# Path -> Path
def wrappedPath(path):
    return path[1:] + [path[0]]

# Matrix * Path -> double
def pathLength(cities, path):
    pairs = list(zip(path, wrappedPath(path)))
    return sum([cities[r][c] for (r,c) in pairs])

# Boosts pheromones for cities on path.
# Matrix * Path * int -> unit
def updatePher(pher, path, boost):
    pairs = list(zip(path, wrappedPath(path)))
    for (r,c) in pairs:
        pher[r][c] = pher[r][c] + boost

# Matrix * int * int -> unit
def evaporatePher(pher, maxIter, boost):
    decr = boost / float(maxIter)
    for r in range(len(pher)):
        for c in range(len(pher[r])):
            if pher[r][c] > decr:
                pher[r][c] = pher[r][c] - decr
            else:
                pher[r][c] = 0.0

# Sum weights for all paths to cities adjacent to current.
# Matrix * Matrix * CitySet * int -> double
def doSumWeight(cities, pher, used, current):
    runningTotal = 0.0
    for city in range(len(cities)):
        if city not in used:
            runningTotal = (runningTotal +
                            cities[current][city] * (1.0 + pher[current][city]))
    return runningTotal

# Returns city at soughtTotal.
# Matrix * Matrix * CitySet * int * double -> int
def findSumWeight(cities, pher, used, current, soughtTotal):
    runningTotal = 0.0
    next = 0
    for city in range(len(cities)):
        if runningTotal >= soughtTotal:
            break
        if city not in used:
            runningTotal = (runningTotal +
                            cities[current][city] * (1.0 + pher[current][city]))
            next = city
    return next

# Matrix * Matrix -> Path
def genPath(cities, pher):
    current = random.randint(0, len(cities)-1)
    path = [current]
    used = {current:1}
    while len(used) < len(cities):
        sumWeight = doSumWeight(cities, pher, used, current)
        rndValue = random.random() * sumWeight
        current = findSumWeight(cities, pher, used, current, rndValue)
        path.append(current)
        used[current] = 1
    return path

# Matrix * int * int * int ->Path
def bestPath(cities, seed, maxIter, boost):
    pher = randomMatrix(len(cities), 0, 0)
    random.seed(seed)
    bestLen = 0.0
    bestPath = []
    for iter in range(maxIter):
        path = genPath(cities, pher)
        pathLen = pathLength(cities, path)
        if pathLen > bestLen:
            # Remember we are trying to maximize score.
            updatePher(pher, path, boost)
            bestLen = pathLen
            bestPath = path
        evaporatePher(pher, maxIter, boost)
    return bestPath

def main(runs, iter, numCities):
    boost = 5
    maxDistance = 10
    cityDistanceSeed = 1
    print("starting")
    for n in range(runs):
        seed = n
        cities = randomMatrix(numCities, maxDistance, cityDistanceSeed)
        path = bestPath(cities, seed, iter, boost)
        print(path)
        print("len = ", pathLength(cities, path))


def entry_point(argv):
    runs = 2
    iter = 3000
    numCities = 20
    if len(argv) > 1:
        runs = int(argv[1])
    if len(argv) > 2:
        iter = int(argv[2])
    if len(argv) > 3:
        numCities = int(argv[3])
    main(runs, iter, numCities)
    return 0


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    import sys
    sys.exit(entry_point(sys.argv))
