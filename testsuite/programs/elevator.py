# rpy3-args: 400
"""Event-driven elevator simulator using heapq: passengers arrive, cars are
dispatched by a cost function, statistics are gathered per floor.

Source: written for rpy3's own test suite (2026-11), not a port; it tries rpy3 on a program written the way a Python programmer who knows RPython's rules writes one. Unchanged since it was written.
"""
import sys
import heapq
import random
from collections import deque, defaultdict, Counter

IDLE = "idle"
UP = "up"
DOWN = "down"


class Event:
    __slots__ = ("time", "seq", "kind", "car", "passenger")

    def __init__(self, time, seq, kind, car, passenger):
        self.time = time
        self.seq = seq
        self.kind = kind
        self.car = car
        self.passenger = passenger

    def __lt__(self, other):
        if self.time != other.time:
            return self.time < other.time
        return self.seq < other.seq


class Passenger:
    def __init__(self, pid, t, src, dst):
        self.pid = pid
        self.arrive = t
        self.src = src
        self.dst = dst
        self.board = -1.0
        self.leave = -1.0

    @property
    def direction(self):
        return UP if self.dst > self.src else DOWN

    @property
    def wait(self):
        return self.board - self.arrive

    @property
    def trip(self):
        return self.leave - self.arrive


class Car:
    SPEED = 1.5      # seconds per floor
    DOOR = 3.0
    CAPACITY = 8

    def __init__(self, cid, floor):
        self.cid = cid
        self.floor = floor
        self.state = IDLE
        self.riders = []
        self.stops = set()
        self.busy_until = 0.0
        self.moves = 0
        self.served = 0

    def load(self):
        return len(self.riders)

    def target(self):
        if not self.stops:
            return None
        if self.load() >= Car.CAPACITY and self.floor in self.stops and len(self.stops) > 1:
            self.stops.discard(self.floor)
            tgt = self.target()
            self.stops.add(self.floor)
            return tgt
        if self.state == UP:
            above = [s for s in self.stops if s >= self.floor]
            if above:
                return min(above)
        if self.state == DOWN:
            below = [s for s in self.stops if s <= self.floor]
            if below:
                return max(below)
        return min(self.stops, key=lambda s: (abs(s - self.floor), s))

    def cost_to(self, floor, direction):
        dist = abs(self.floor - floor)
        if self.state == IDLE:
            return dist
        heading_there = (self.state == UP and floor >= self.floor) or (self.state == DOWN and floor <= self.floor)
        penalty = 0 if heading_there and (direction == self.state) else 2 * len(self.stops) + 6
        return dist + penalty + self.load()

    def __repr__(self):
        return "Car%d@%d[%s,%d riders,stops=%s]" % (self.cid, self.floor, self.state, self.load(), sorted(self.stops))


class Building:
    def __init__(self, floors, ncars, seed):
        self.floors = floors
        self.cars = [Car(i, (i * floors) // max(ncars, 1)) for i in range(ncars)]
        self.waiting = defaultdict(deque)
        self.events = []
        self.seq = 0
        self.now = 0.0
        self.done = []
        self.rng = random.Random(seed)
        self.log = []
        self.counts = Counter()

    def schedule(self, delay, kind, car=None, passenger=None):
        self.seq += 1
        heapq.heappush(self.events, Event(self.now + delay, self.seq, kind, car, passenger))

    def spawn_arrivals(self, n):
        t = 0.0
        for pid in range(n):
            t += self.rng.expovariate(0.5)
            src = self.rng.randrange(self.floors)
            dst = self.rng.randrange(self.floors - 1)
            if dst >= src:
                dst += 1
            if pid % 5 == 0:
                src = 0
            if dst == src:
                dst = self.floors - 1
            p = Passenger(pid, t, src, dst)
            self.seq += 1
            heapq.heappush(self.events, Event(t, self.seq, "arrive", None, p))

    def dispatch(self, p):
        best = min(self.cars, key=lambda c: (c.cost_to(p.src, p.direction), c.cid))
        best.stops.add(p.src)
        self.counts["dispatch%d" % best.cid] += 1
        if best.state == IDLE:
            self.start(best)

    def start(self, car):
        tgt = car.target()
        if tgt is None:
            car.state = IDLE
            return
        if tgt == car.floor:
            self.schedule(0.0, "open", car)
            return
        car.state = UP if tgt > car.floor else DOWN
        self.schedule(Car.SPEED, "move", car)

    def handle(self, ev):
        self.now = ev.time
        self.counts[ev.kind] += 1
        if ev.kind == "arrive":
            p = ev.passenger
            assert p is not None
            self.waiting[p.src].append(p)
            self.dispatch(p)
        elif ev.kind == "move":
            car = ev.car
            assert car is not None
            car.floor += 1 if car.state == UP else -1
            car.moves += 1
            if car.floor in car.stops:
                self.schedule(0.0, "open", car)
            else:
                self.schedule(Car.SPEED, "move", car)
        elif ev.kind == "open":
            car = ev.car
            assert car is not None
            car.stops.discard(car.floor)
            staying = []
            for r in car.riders:
                if r.dst == car.floor:
                    r.leave = self.now
                    self.done.append(r)
                    car.served += 1
                else:
                    staying.append(r)
            car.riders = staying
            q = self.waiting[car.floor]
            left_behind = deque()
            while q:
                p = q.popleft()
                if len(car.riders) < Car.CAPACITY:
                    p.board = self.now
                    car.riders.append(p)
                    car.stops.add(p.dst)
                else:
                    left_behind.append(p)
            if left_behind:
                self.waiting[car.floor] = left_behind
                self.counts["overflow"] += len(left_behind)
                for p in left_behind:
                    self.dispatch(p)
            self.schedule(Car.DOOR, "close", car)
        elif ev.kind == "close":
            car = ev.car
            assert car is not None
            self.start(car)
        else:
            raise ValueError("unknown event " + ev.kind)

    def run(self, limit):
        handled = 0
        while self.events and handled < limit:
            ev = heapq.heappop(self.events)
            self.handle(ev)
            handled += 1
        return handled


def percentile(values, pct):
    if not values:
        return 0.0
    s = sorted(values)
    k = (len(s) - 1) * pct / 100.0
    lo = int(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 200
    for ncars in (1, 2, 4):
        b = Building(12, ncars, 31337)
        b.spawn_arrivals(n)
        handled = b.run(200000)
        waits = [p.wait for p in b.done]
        trips = [p.trip for p in b.done]
        print("cars=%d events=%d delivered=%d/%d" % (ncars, handled, len(b.done), n))
        print("  wait mean %.2f p50 %.2f p90 %.2f max %.2f" % (
            sum(waits) / len(waits), percentile(waits, 50), percentile(waits, 90), max(waits)))
        print("  trip mean %.2f  end time %.1f" % (sum(trips) / len(trips), b.now))
        for car in b.cars:
            print("  ", car, "moves", car.moves, "served", car.served)
        print("  counts:", sorted(b.counts.items()))
        by_floor = defaultdict(list)
        for p in b.done:
            by_floor[p.src].append(p.wait)
        worst = max(by_floor.items(), key=lambda kv: sum(kv[1]) / len(kv[1]))
        print("  worst floor %d avg wait %.2f; top events %s" % (
            worst[0], sum(worst[1]) / len(worst[1]), b.counts.most_common(3)))
    return 0


def entry_point(argv):
    return main(argv)


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    sys.exit(entry_point(sys.argv))
