"""`heapq` for RPython programs: the same algorithms as CPython's (so a
heap's list goes through the same states and ties come out in the same
order), written in RPython.  Each function is specialised on the type of
its list, so one program may keep heaps of ints and heaps of tuples."""

from rpy3.rlib.objectmodel import specialize


@specialize.argtype(0)
def _siftdown(heap, startpos, pos):
    newitem = heap[pos]
    while pos > startpos:
        parentpos = (pos - 1) >> 1
        parent = heap[parentpos]
        if newitem < parent:
            heap[pos] = parent
            pos = parentpos
            continue
        break
    heap[pos] = newitem


@specialize.argtype(0)
def _siftup(heap, pos):
    endpos = len(heap)
    startpos = pos
    newitem = heap[pos]
    childpos = 2 * pos + 1
    while childpos < endpos:
        rightpos = childpos + 1
        if rightpos < endpos and not heap[childpos] < heap[rightpos]:
            childpos = rightpos
        heap[pos] = heap[childpos]
        pos = childpos
        childpos = 2 * pos + 1
    heap[pos] = newitem
    _siftdown(heap, startpos, pos)


@specialize.argtype(0)
def heappush(heap, item):
    heap.append(item)
    _siftdown(heap, 0, len(heap) - 1)


@specialize.argtype(0)
def heappop(heap):
    if not heap:
        raise IndexError("index out of range")
    lastelt = heap.pop()
    if heap:
        returnitem = heap[0]
        heap[0] = lastelt
        _siftup(heap, 0)
        return returnitem
    return lastelt


@specialize.argtype(0)
def heapreplace(heap, item):
    if not heap:
        raise IndexError("index out of range")
    returnitem = heap[0]
    heap[0] = item
    _siftup(heap, 0)
    return returnitem


@specialize.argtype(0)
def heappushpop(heap, item):
    if heap and heap[0] < item:
        first = heap[0]
        heap[0] = item
        _siftup(heap, 0)
        return first
    return item


@specialize.argtype(0)
def heapify(x):
    n = len(x)
    i = n // 2 - 1
    while i >= 0:
        _siftup(x, i)
        i -= 1


@specialize.argtype(1, 2)
def nsmallest(n, iterable, key=None):
    """sorted(iterable, key=key)[:n], as CPython documents it."""
    if key is None:
        items = list(iterable)
        items.sort()
    else:
        items = sorted(iterable, key=key)
    if n < 0:
        n = 0
    return items[:n]


@specialize.argtype(1, 2)
def nlargest(n, iterable, key=None):
    """sorted(iterable, key=key, reverse=True)[:n], as CPython documents
    it (stable: equal items keep their order)."""
    if key is None:
        items = list(iterable)
        items.sort(reverse=True)
    else:
        items = sorted(iterable, key=key, reverse=True)
    if n < 0:
        n = 0
    return items[:n]

@specialize.argtype(0)
def _merge_lists(lists):
    """The items of sorted lists `lists` in order; equal items come from
    the earlier list first, as CPython's merge gives them."""
    h = []
    for i in range(len(lists)):
        if len(lists[i]) > 0:
            h.append((lists[i][0], i, 0))
    heapify(h)
    while len(h) > 0:
        v, i, j = h[0]
        yield v
        j += 1
        if j < len(lists[i]):
            heapreplace(h, (lists[i][j], i, j))
        else:
            heappop(h)


def merge(*iterables):
    """heapq.merge(*iterables) without key= and reverse=: each input read
    into a list first (CPython reads them lazily, which only an infinite
    input can tell apart)."""
    return _merge_lists([list(it) for it in iterables])
