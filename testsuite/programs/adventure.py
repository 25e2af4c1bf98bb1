# rpy3-args: 200
"""A text adventure state machine driven by scripted commands.

Source: written for rpy3's own test suite (2026-11), not a port; it tries rpy3 on a program written the way a Python programmer who knows RPython's rules writes one. Unchanged since it was written (rpy3 first refused `Dir[name]` and the dict keyed by members; both work now).
"""
import sys
from enum import Enum
from collections import namedtuple, defaultdict


class Dir(Enum):
    NORTH = 1
    SOUTH = 2
    EAST = 3
    WEST = 4
    UP = 5
    DOWN = 6


OPPOSITE = {Dir.NORTH: Dir.SOUTH, Dir.SOUTH: Dir.NORTH, Dir.EAST: Dir.WEST, Dir.WEST: Dir.EAST,
            Dir.UP: Dir.DOWN, Dir.DOWN: Dir.UP}

ALIASES = {"n": "north", "s": "south", "e": "east", "w": "west",
           "u": "up", "d": "down", "i": "inventory", "l": "look",
           "get": "take", "grab": "take"}

Item = namedtuple("Item", ["name", "weight", "points"])


class GameOver(Exception):
    def __init__(self, won, reason):
        Exception.__init__(self, reason)
        self.won = won
        self.reason = reason


class Room:
    def __init__(self, key, title, dark=False):
        self.key = key
        self.title = title
        self.dark = dark
        self.exits = {}
        self.items = []
        self.locked = {}

    def connect(self, d, other, locked_by=None):
        self.exits[d] = other
        other.exits[OPPOSITE[d]] = self
        if locked_by is not None:
            self.locked[d] = locked_by
            other.locked[OPPOSITE[d]] = locked_by

    def __str__(self):
        return "<%s>" % self.title


class Player:
    MAX_WEIGHT = 10

    def __init__(self, room):
        self.room = room
        self.inventory = []
        self.moves = 0
        self.visited = set()
        self.visited.add(room.key)
        self.lamp_on = False

    @property
    def load(self):
        return sum([it.weight for it in self.inventory])

    @property
    def score(self):
        return sum([it.points for it in self.inventory]) + 2 * len(self.visited)

    def has(self, name):
        for it in self.inventory:
            if it.name == name:
                return True
        return False


class Game:
    def __init__(self):
        self.rooms = {}
        hall = self.add(Room("hall", "Great Hall"))
        kitchen = self.add(Room("kitchen", "Kitchen"))
        cellar = self.add(Room("cellar", "Cellar", dark=True))
        library = self.add(Room("library", "Library"))
        tower = self.add(Room("tower", "Tower Top"))
        vault = self.add(Room("vault", "Vault", dark=True))
        hall.connect(Dir.EAST, kitchen)
        kitchen.connect(Dir.DOWN, cellar)
        hall.connect(Dir.NORTH, library)
        library.connect(Dir.UP, tower, locked_by="brass key")
        cellar.connect(Dir.WEST, vault, locked_by="iron key")
        kitchen.items.append(Item("lamp", 2, 0))
        kitchen.items.append(Item("bread", 1, 1))
        cellar.items.append(Item("iron key", 1, 5))
        library.items.append(Item("book", 3, 10))
        vault.items.append(Item("brass key", 1, 5))
        vault.items.append(Item("gold", 6, 50))
        tower.items.append(Item("crown", 4, 100))
        self.player = Player(hall)
        self.log = []
        self.stats = defaultdict(int)

    def add(self, room):
        self.rooms[room.key] = room
        return room

    def say(self, msg):
        self.log.append(msg)

    def can_see(self):
        return not self.player.room.dark or (self.player.lamp_on and self.player.has("lamp"))

    def look(self):
        r = self.player.room
        if not self.can_see():
            self.say("It is pitch dark.")
            return
        exits = sorted([d.name.lower() for d in r.exits])
        items = ", ".join([it.name for it in r.items]) or "nothing"
        self.say(f"{r.title}: exits {'/'.join(exits)}; you see {items}.")

    def move(self, word):
        d = Dir[word.upper()]
        r = self.player.room
        if d not in r.exits:
            self.say("You can't go %s." % word)
            return
        need = r.locked.get(d)
        if need is not None and not self.player.has(need):
            self.say(f"The way {word} is locked; you need the {need}.")
            return
        if r.dark and not self.can_see() and d != Dir.UP:
            self.stats["stumbles"] += 1
            if self.stats["stumbles"] >= 3:
                raise GameOver(False, "fell into a pit in the dark")
        self.player.room = r.exits[d]
        self.player.moves += 1
        self.player.visited.add(self.player.room.key)
        self.look()

    def take(self, name):
        r = self.player.room
        if not self.can_see():
            self.say("You fumble around but find nothing.")
            return
        for idx, it in enumerate(r.items):
            if it.name == name:
                if self.player.load + it.weight > Player.MAX_WEIGHT:
                    self.say("The %s is too heavy (load %d)." % (name, self.player.load))
                    return
                self.player.inventory.append(r.items.pop(idx))
                self.say("Taken: %s." % name)
                if name == "crown":
                    raise GameOver(True, "you claimed the crown")
                return
        self.say("No %s here." % name)

    def drop(self, name):
        for idx, it in enumerate(self.player.inventory):
            if it.name == name:
                self.player.room.items.append(self.player.inventory.pop(idx))
                self.say("Dropped %s." % name)
                return
        self.say("You don't have %s." % name)

    def command(self, line):
        words = line.lower().split()
        if not words:
            return
        verb = ALIASES.get(words[0], words[0])
        rest = " ".join(words[1:])
        self.stats[verb] += 1
        match verb:
            case "north" | "south" | "east" | "west" | "up" | "down":
                self.move(verb)
            case "go":
                self.move(ALIASES.get(rest, rest))
            case "look":
                self.look()
            case "take":
                self.take(rest)
            case "drop":
                self.drop(rest)
            case "light":
                if self.player.has("lamp"):
                    self.player.lamp_on = True
                    self.say("The lamp is now on.")
                else:
                    self.say("You have nothing to light.")
            case "inventory":
                names = [it.name for it in self.player.inventory]
                self.say("Carrying: %s (load %d/%d)" % (
                    ", ".join(names) if names else "nothing", self.player.load, Player.MAX_WEIGHT))
            case "eat":
                if self.player.has("bread"):
                    self.drop("bread")
                    self.player.room.items.pop()
                    self.say("Delicious.")
                else:
                    self.say("You have no food.")
            case _:
                self.say("I don't understand '%s'." % line)


SCRIPT = """look
e
take lamp
take bread
d
take iron key
light
take iron key
w
take gold
take brass key
inventory
e
u
w
n
take book
drop gold
take book
up
dance
i
eat
take crown"""


def play(script, verbose):
    g = Game()
    result = "unfinished"
    try:
        for line in script.split("\n"):
            g.command(line)
    except GameOver as over:
        result = ("WON: " if over.won else "LOST: ") + over.reason
    finally:
        g.say("-- moves=%d score=%d --" % (g.player.moves, g.player.score))
    if verbose:
        for msg in g.log:
            print(msg)
    counts = sorted(g.stats.items(), key=lambda kv: (-kv[1], kv[0]))
    return result, counts, g.player.score


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 50
    result, counts, score = play(SCRIPT, True)
    print(result)
    print("verbs:", ", ".join(["%s:%d" % kv for kv in counts]))
    # a wandering player in the dark
    dark = "e\nd\nw\nw\nw\nlook"
    print(play(dark, False)[0])
    # replay with random-walk commands generated by an LCG
    seed = 12345
    dirs = ["n", "s", "e", "w", "u", "d", "take lamp", "light", "take iron key",
            "take brass key", "take gold", "drop gold", "take crown", "look"]
    wins = 0
    total = 0
    for game in range(n):
        cmds = []
        for k in range(40):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            cmds.append(dirs[(seed >> 16) % len(dirs)])
        res, _, sc = play("\n".join(cmds), False)
        if res.startswith("WON"):
            wins += 1
        total += sc
    print("random games: %d wins out of %d, mean score %.2f" % (wins, n, total / n))
    print(Dir.UP, repr(Dir.DOWN.name), Dir(3).name, [d.value for d in Dir])
    return 0


def entry_point(argv):
    return main(argv)


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    sys.exit(entry_point(sys.argv))
