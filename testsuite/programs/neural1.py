"""neural1: an interactive-activation neural network over the "Jets and
Sharks" gang database: touching some neurons and running the network
shows which others light up (Raymond Hettinger's recipe, modified by
Jeff Hinrichs, 2009).

Source: shedskin/shedskin, examples/neural1/neural1.py (Recipe 496908,
ActiveState Code).
Licence: MIT (ActiveState Code recipes).

Changes made for rpy3:
- no file I/O: `main()` no longer writes the sample data to 'jets.txt',
  and `load()` takes the text and iterates over `text.splitlines()`
  instead of `open(filename)` (the sample is a str, was bytes); the
  else-branch that loads `sys.argv[1]` passes it on as it is;
- the module-level loop (10 runs of main(), the second half timed, and
  the TIME line) became `entry_point(argv)`, which runs main() once;
  `units`, `pools` and `unitbyname` are module globals created once;
- `run()` does C cycles (was 100000), C from argv, passed to main();
- `import time` dropped;
- `Pool.members` is a list kept free of duplicates (was a set of Unit
  instances): the set's order follows the instances' addresses, and
  `updatesum()` adds up floats in that order, so the last bits of the
  activations, and with them the order of tied units in `display()`,
  differed between CPython runs.
"""

# rpy3-args: 5
# rpy3-args: 30
# This code is a slightly modified version of Raymond Hettinger's recipe on ASPN
# http://code.activestate.com/recipes/496908/
# Jeff Hinrichs - 20090419

# Constants defining the neuron's response curve
import sys

minact, rest, thresh, decay, maxact = -0.2, -0.1, 0.0, 0.1, 1.0
alpha, gamma, estr = 0.1, 0.1, 0.4


class Unit(object):
    __slots__ = ['name', 'pool', 'extinp', 'activation', 'output', 'exciters', 'newact']
    def __init__(self, name, pool):
        self.name = name
        self.pool = pool
        self.reset()
        self.exciters = []
        unitbyname[name] = self
    def reset(self):
        self.setext(0.0)
        self._setactivation()
    def setext(self, weight=1.0):
        self.extinp = weight
    def _setactivation(self, val=rest):
        self.activation = val
        self.output = max(thresh, val)
    def addexciter(self, aunit):
        self.exciters.append(aunit)
    def remove(self, aunit):
        self.exciters.remove(aunit)
    def computenewact(self):
        ai = self.activation
        plus = sum([exciter.output for exciter in self.exciters])
        minus = self.pool.sum - self.output
        netinput = alpha*plus - gamma*minus + estr*self.extinp
        if netinput > 0:
            ai = (maxact-ai)*netinput - decay*(ai-rest) + ai
        else:
            ai = (ai-minact)*netinput - decay*(ai-rest) + ai
        self.newact = max(min(ai, maxact), minact)
    def commitnewact(self):
        self._setactivation(self.newact)

class Pool(object):
    __slots__ = ['sum', 'members']
    def __init__(self):
        self.sum = 0.0
        self.members = []
    def addmember(self, member):
        if member not in self.members:
            self.members.append(member)
    def updatesum(self):
        self.sum = sum([member.output for member in self.members])
    def display(self):
        result = sorted([(unit.activation, unit.name) for unit in self.members], reverse=True)
        for i, (act, unitbyname) in enumerate(result):
            print("%s: %.2f\t" % (unitbyname, act), end=' ')
            if i % 4 == 3: print()
        print('\n')

def load(text):
    """Load in a database and interpret it as a network

    First column must be unique keys which define the instance units.
    Each column is a pool (names, gangs, ages, etc).
    Every row is mutually excitory.
    """
    units[:] = []
    pools[:] = []
    for line in text.splitlines():
        relatedunits = line.split()
        if not len(relatedunits): continue
        key = len(units)
        #print relatedunits
        for poolnum, name in enumerate(relatedunits):
            if poolnum >= len(pools):
                pools.append(Pool())
            pool = pools[poolnum]
            if name in unitbyname:
                unit = unitbyname[name]
            else:
                unit = Unit(name, pool)
                units.append(unit)
            pool.addmember(unit)
            if poolnum > 0:
                #print key, units[key]
                units[key].addexciter(unit)
                unit.addexciter(units[key])

def reset():
    for unit in units:
        unit.reset()

def depair(i, j):
    unitbyname[i].remove(unitbyname[j])
    unitbyname[j].remove(unitbyname[i])

def touch(itemstr, weight=1.0):
    for name in itemstr.split():
        unitbyname[name].setext(weight)

def run(times=100000):
    """Run n-cycles and display result"""
    for i in range(times):
        for pool in pools:
            pool.updatesum()
        for unit in units:
            unit.computenewact()
        for unit in units:
            unit.commitnewact()
    print('-' * 20)
    for pool in pools:
        pool.display()

def main(cycles):
    if '--help' in sys.argv:
        print(sys.argv[0])
        print()
        print('\t%s --help|--test| datafile.tab nueron1 [neuron2 ...]' % sys.argv[0])
        print()
        sys.exit()
    elif True: #'--test' in sys.argv:
        SampleFile = """
Art         Jets        40      jh      sing    pusher
Al          Jets        30      jh      mar     burglar
Sam         Jets        20      col     sing    bookie
Clyde       Jets        40      jh      sing    bookie
Mike        Jets        30      jh      sing    bookie
Jim         Jets        20      jh      div     burglar
Greg        Jets        20      hs      mar     pusher
John        Jets        20      jh      mar     burglar
Doug        Jets        30      hs      sing    bookie
Lance       Jets        20      jh      mar     burglar
George      Jets        20      jh      div     burglar
Pete        Jets        20      hs      sing    bookie
Fred        Jets        20      hs      sing    pusher
Gene        Jets        20      col     sing    pusher
Ralph       Jets        30      jh      sing    pusher

Phil        Sharks      30      col     mar     pusher
Ike         Sharks      30      jh      sing    bookie
Nick        Sharks      30      hs      sing    pusher
Don         Sharks      30      col     mar     burglar
Ned         Sharks      30      col     mar     bookie
Karl        Sharks      40      hs      mar     bookie
Ken         Sharks      20      hs      sing    burglar
Earl        Sharks      40      hs      mar     burglar
Rick        Sharks      30      hs      div     burglar
Ol          Sharks      30      col     mar     pusher
Neal        Sharks      30      hs      sing    bookie
Dave        Sharks      30      hs      div     pusher
"""
        load(SampleFile)
        print('Touching neuron: Ken, weight=0.8')
        touch('Ken', weight=0.8)
        run(cycles)

        reset()
        print('Touching neurons: Sharks 20 jh sing burglar')
        touch('Sharks 20 jh sing burglar')
        run(cycles)

        reset()

        print('Touching neuron: Lance')
        touch('Lance')
        print('Deparing Lance burglar')
        depair('Lance','burglar')
        run(cycles)

    else:
        #print sys.argv
        print("loading %s for Neural Analysis..." % sys.argv[1])
        load(sys.argv[1])
        for neuron in sys.argv[2:]:
            print("Touching neuron: %s" % neuron)
            touch(neuron)
        run(cycles)

units = []
pools = []
unitbyname = {}


def entry_point(argv):
    main(int(argv[1]))
    return 0


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    import sys
    sys.exit(entry_point(sys.argv))
