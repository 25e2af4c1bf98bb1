"""genetic: a simple genetic algorithm maximising x + abs(sin(32x)) over
[0, pi], on bit-string genomes (tournament selection, mutation,
crossing over).

Source: shedskin/shedskin, examples/genetic/genetic.py.
Licence: not stated beyond "(c) Bearophile" (Shed Skin's LICENSE: examples
are "licensed as indicated for each example").

Changes made for rpy3:
- `from random import random, randint, choice, seed` replaced by local
  functions of those names that draw from a prebuilt instance of a small
  32-bit xorshift generator class (so the numbers differ from
  CPython's Mersenne Twister);
- `from copy import copy` replaced by a local `copy(individual)` that makes
  the same shallow copy of an Individual (genome list shared);
- `import time` dropped; the `__main__` benchmark loop (10 x 5 runs of 1200
  generations on 160-bit genomes, timed) became `entry_point(argv)`, which
  runs seeds 0..runs-1 with generationsMax, popSize and genomeSize taken
  from argv (genomeSize must stay below 63 so that bin2dec's `1 << i` fits a
  machine word; the original's 160 needs big integers), and prints the best
  individual's fitness and genome value after each run (the original
  printed only 'generation' lines);
- `print('generation', ...)` kept as it was.
"""

# rpy3-args: 2 60 200 16
# rpy3-args: 1 600 40 24

from math import sin, pi


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


_rng = _Random()


def random():
    return _rng.random()


def randint(a, b):
    return _rng.randint(a, b)


def choice(seq):
    return seq[int(_rng.random() * len(seq))]


def seed(n):
    _rng.seed(n)


def copy(individual):
    """Local stand-in for copy.copy on an Individual."""
    result = Individual(0)
    result.ngenes = individual.ngenes
    result.genome = individual.genome
    result.fitness = individual.fitness
    return result


infiniteNeg = -1e302


class Individual:
    def __init__(self, ngenes):
        self.ngenes = ngenes
        self.genome = [random()<0.5 for i in range(ngenes)]
        self.fitness = infiniteNeg

    def bin2dec(self, inf=0, sup=0): 
        if sup == 0: sup = self.ngenes - 1 
        result = 0
        for i in range(inf, sup+1):
            if self.genome[i]:
                result += 1 << (i-inf)
        return result

    def computeFitness(self):
        self.fitness = self.fitnessFun(self.computeValuesGenome())

    def fitnessFun(self, x):
        return x + abs(sin(32*x))

    def computeValuesGenome(self, xMin=0, xMax=pi):
        scaleFactor = (xMax-xMin) / (1<<self.ngenes)
        return self.bin2dec() * scaleFactor

#    def __repr__(self):
#        return "".join([str(int(gene)) for gene in self.genome])


class SGA:
    def __init__(self):
        self.popSize = 200            # Ex. 200
        self.genomeSize = 16          # Ex. 16
        self.generationsMax = 16      # Ex. 100
        self.crossingOverProb = 0.75  # In [0,1] ex. 0.75
        self.selectivePressure = 0.75 # In [0,1] ex. 0.75
        self.geneMutationProb = 0.005  # Ex. 0.005

    def generateRandomPop(self):
        self.population = [Individual(self.genomeSize) for i in range(self.popSize)]

    def computeFitnessPop(self):
        for individual in self.population:
            individual.computeFitness()

    def mutatePop(self):
        nmutations = int(round(self.popSize * self.genomeSize * self.geneMutationProb))
        for i in range(nmutations):
            individual = choice(self.population) 
            gene = randint(0, self.genomeSize-1)
            individual.genome[gene] = not individual.genome[gene] 

    def tounamentSelectionPop(self):
        pop2 = []
        for i in range(self.popSize):
            individual1 = choice(self.population) 
            individual2 = choice(self.population)
            if random() < self.selectivePressure:
                if individual1.fitness > individual2.fitness:
                    pop2.append(individual1)
                else:
                    pop2.append(individual2)
            else:
                if individual1.fitness > individual2.fitness:
                    pop2.append(individual2)
                else:
                    pop2.append(individual1)
        return pop2 # fixed

    def crossingOverPop(self):
        nCrossingOver = int(round(self.popSize * self.crossingOverProb))
        for i in range(nCrossingOver):
            ind1 = choice(self.population) 
            ind2 = choice(self.population) 
            crossPosition = randint(0, self.genomeSize-1)
            for j in range(crossPosition+1):
                ind1.genome[j], ind2.genome[j] = ind2.genome[j], ind1.genome[j]

    def showGeneration_bestIndFind(self):
        fitnessTot = 0.0
        bestIndividualGeneration = self.population[0]
        for individual in self.population:
            fitnessTot += individual.fitness
            if individual.fitness > bestIndividualGeneration.fitness:
                bestIndividualGeneration = individual
        if self.bestIndividual.fitness < bestIndividualGeneration.fitness:
            self.bestIndividual = copy(bestIndividualGeneration) 


    def run(self):
        self.generateRandomPop()
        self.bestIndividual = Individual(self.genomeSize)
        for self.generation in range(1, self.generationsMax+1):
            if self.generation % 300 == 0:
                print('generation', self.generation)
            self.computeFitnessPop()
            self.showGeneration_bestIndFind()
            self.population = self.tounamentSelectionPop()  
            self.mutatePop()
            self.crossingOverPop()


def entry_point(argv):
    runs = 1
    generations = 16
    popsize = 200
    genomesize = 16
    if len(argv) > 1:
        runs = int(argv[1])
    if len(argv) > 2:
        generations = int(argv[2])
    if len(argv) > 3:
        popsize = int(argv[3])
    if len(argv) > 4:
        genomesize = int(argv[4])
    for n in range(runs):
        seed(n)
        sga = SGA()
        sga.generationsMax = generations
        sga.genomeSize = genomesize
        sga.popSize = popsize
        sga.geneMutationProb = 0.01
        sga.run()
        best = sga.bestIndividual
        print('run %d: best fitness %.12f at x = %r (genome %d)' % (
            n, best.fitness, best.computeValuesGenome(), best.bin2dec()))
    return 0


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    import sys
    sys.exit(entry_point(sys.argv))
