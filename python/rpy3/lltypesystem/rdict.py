"""Dicts and sets at the low level: dicts are insertion-ordered hash
tables (the layout of CPython's and PyPy's ordered dicts), sets CPython's
set tables.

A dict is a GC struct holding parallel entry arrays (`keys`, `values`,
`hashes`, `live`) filled in insertion order, `used` of them so far, and an
open-addressing `index` whose slots hold an entry number, FREE or DELETED.
`length` counts the live entries.  A set has the struct of a dict whose
values are Void, laid out as CPython lays out its sets (see "sets" below:
entry number and table slot are the same), so that it iterates in
CPython's order; the loops over live entries serve both.

The helpers are generic (types through `typeOf`, one specialised copy per
dict type); key hashing and equality come as function pointers `hash(k)`
and `eq(a, b)` (from `hl_hash` and `hl_eq`, or the functions of an
`r_dict`).  They also run under CPython on emulated objects (see the
tests).
"""
from rpy3.lltype import malloc, typeOf
from rpy3.lltypesystem.rlist import ll_append
from rpy3.lltypesystem.rstr import (_none_str, ll_sb_new, ll_sb_append, ll_sb_append_char,
                                    ll_sb_build, ll_char2str)
from rpy3.rlib.rarithmetic import intmask
from rpy3.rlib.objectmodel import compute_hash

FREE = -1
DELETED = -2
MIN_INDEX = 8
PERTURB_SHIFT = 5
HASH_MASK = 0x7FFFFFFFFFFFFFFF


def _alloc(d, index_size):
    """Fresh, empty entry arrays and index for index_size slots."""
    D = typeOf(d).TO
    cap = (index_size * 2) // 3
    d.keys = malloc(D.keys.TO, cap)
    d.values = malloc(D.values.TO, cap)
    d.hashes = malloc(D.hashes.TO, cap)
    d.live = malloc(D.live.TO, cap)
    index = malloc(D.index.TO, index_size)
    i = 0
    while i < index_size:
        index[i] = FREE
        i += 1
    d.index = index
    d.used = 0


def ll_dict_init(d):
    d.length = 0
    _alloc(d, MIN_INDEX)


def ll_len(d):
    return d.length


def ll_is_true(d):
    return bool(d) and d.length != 0


def _slot(d, key, h, eq):
    """The index slot holding the entry of key, or -1."""
    index = d.index
    mask = len(index) - 1
    i = h & mask
    perturb = h & HASH_MASK
    while True:
        e = index[i]
        if e == FREE:
            return -1
        if e >= 0 and d.hashes[e] == h and eq(d.keys[e], key):
            return i
        perturb >>= PERTURB_SHIFT
        i = (i * 5 + perturb + 1) & mask


def _entry(d, key, h, eq):
    """The entry number of key, or -1."""
    i = _slot(d, key, h, eq)
    if i < 0:
        return -1
    return d.index[i]


def _put_index(index, h, e):
    mask = len(index) - 1
    i = h & mask
    perturb = h & HASH_MASK
    while index[i] >= 0:
        perturb >>= PERTURB_SHIFT
        i = (i * 5 + perturb + 1) & mask
    index[i] = e


def _grow(d):
    """Compacts the live entries into arrays with room for as many again."""
    n = d.length
    size = MIN_INDEX
    while (size * 2) // 3 <= n * 2:
        size *= 2
    keys = d.keys
    values = d.values
    hashes = d.hashes
    live = d.live
    used = d.used
    _alloc(d, size)
    j = 0
    i = 0
    while i < used:
        if live[i]:
            d.keys[j] = keys[i]
            d.values[j] = values[i]
            d.hashes[j] = hashes[i]
            d.live[j] = True
            _put_index(d.index, hashes[i], j)
            j += 1
        i += 1
    d.used = j


def _insert_new(d, key, value, h):
    if d.used == len(d.keys):
        _grow(d)
    e = d.used
    d.keys[e] = key
    d.values[e] = value
    d.hashes[e] = h
    d.live[e] = True
    d.used = e + 1
    d.length += 1
    _put_index(d.index, h, e)


def ll_setitem(d, key, value, hash, eq):
    h = hash(key)
    e = _entry(d, key, h, eq)
    if e >= 0:
        d.values[e] = value
    else:
        _insert_new(d, key, value, h)


def ll_getitem(d, key, hash, eq):
    e = _entry(d, key, hash(key), eq)
    if e < 0:
        raise KeyError(key)
    return d.values[e]


def ll_contains(d, key, hash, eq):
    return _entry(d, key, hash(key), eq) >= 0


def ll_get(d, key, default, hash, eq):
    e = _entry(d, key, hash(key), eq)
    if e < 0:
        return default
    return d.values[e]


def ll_get_boxed(d, key, default, hash, eq):
    """d.get(key, default) where the result may be None and the values are
    ints, floats or bools: the value boxed (`default` is a box, maybe null)."""
    e = _entry(d, key, hash(key), eq)
    if e < 0:
        return default
    p = malloc(typeOf(default).TO)
    p.value = d.values[e]
    return p


def ll_setdefault(d, key, default, hash, eq):
    h = hash(key)
    e = _entry(d, key, h, eq)
    if e >= 0:
        return d.values[e]
    _insert_new(d, key, default, h)
    return default


def _remove_slot(d, i):
    e = d.index[i]
    d.index[i] = DELETED
    d.live[e] = False
    d.length -= 1
    return e


def ll_getitem_default(d, key, hash, eq, missing):
    """d[key] of a defaultdict: `missing(d, key)` fills a missing key."""
    e = _entry(d, key, hash(key), eq)
    if e < 0:
        return missing(d, key)
    return d.values[e]


def ll_delitem(d, key, hash, eq):
    i = _slot(d, key, hash(key), eq)
    if i < 0:
        raise KeyError(key)
    _remove_slot(d, i)


def ll_pop(d, key, hash, eq):
    i = _slot(d, key, hash(key), eq)
    if i < 0:
        raise KeyError(key)
    return d.values[_remove_slot(d, i)]


def ll_pop_default(d, key, default, hash, eq):
    i = _slot(d, key, hash(key), eq)
    if i < 0:
        return default
    return d.values[_remove_slot(d, i)]


def ll_pop_boxed(d, key, default, hash, eq):
    """d.pop(key, default) where the result may be None: see ll_get_boxed."""
    i = _slot(d, key, hash(key), eq)
    if i < 0:
        return default
    p = malloc(typeOf(default).TO)
    p.value = d.values[_remove_slot(d, i)]
    return p


def ll_popitem_entry(d):
    """Removes the last inserted entry; returns its number (a dead entry
    stays readable: entries are only reused after a compaction)."""
    if d.length == 0:
        raise KeyError("popitem(): dictionary is empty")
    e = d.used - 1
    while not d.live[e]:
        e -= 1
    i = _slot_of_entry(d, e)
    _remove_slot(d, i)
    return e


def _slot_of_entry(d, e):
    index = d.index
    mask = len(index) - 1
    h = d.hashes[e]
    i = h & mask
    perturb = h & HASH_MASK
    while index[i] != e:
        perturb >>= PERTURB_SHIFT
        i = (i * 5 + perturb + 1) & mask
    return i


def ll_clear(d):
    d.length = 0
    _alloc(d, MIN_INDEX)


def ll_update(d, other, eq):
    """d.update(other) for a dict of the same type (so the same hashing:
    the stored hashes are reused)."""
    i = 0
    used = other.used
    while i < used:
        if other.live[i]:
            key = other.keys[i]
            h = other.hashes[i]
            e = _entry(d, key, h, eq)
            if e >= 0:
                d.values[e] = other.values[i]
            else:
                _insert_new(d, key, other.values[i], h)
        i += 1


def _new_like(d):
    r = malloc(typeOf(d).TO)
    ll_dict_init(r)
    return r


def ll_copy(d, eq):
    r = _new_like(d)
    ll_update(r, d, eq)
    return r


def ll_dict_union(a, b, eq):
    """a | b of dicts: a copy of a updated with b."""
    r = ll_copy(a, eq)
    ll_update(r, b, eq)
    return r


def ll_keys_into(d, l):
    i = 0
    while i < d.used:
        if d.live[i]:
            ll_append(l, d.keys[i])
        i += 1


def ll_values_into(d, l):
    i = 0
    while i < d.used:
        if d.live[i]:
            ll_append(l, d.values[i])
        i += 1


def ll_items_into(d, l):
    """Appends (key, value) tuples (the list's items are tuple pointers)."""
    TUPLE = typeOf(l).TO.items.TO.OF.TO
    i = 0
    while i < d.used:
        if d.live[i]:
            t = malloc(TUPLE)
            t.item0 = d.keys[i]
            t.item1 = d.values[i]
            ll_append(l, t)
        i += 1


# --- sets -------------------------------------------------------------------
#
# A set keeps the layout of a dict with Void values, but its entry arrays
# are CPython's set table itself (Objects/setobject.c, 3.11): entry number
# and table slot are the same, every array has the table's size, `used` is
# that size (so the loops over entries above, iteration, `list()`, `str()`,
# visit the slots in order, as CPython's set_next does), `index[slot]` is
# the slot's state (FREE, DELETED for CPython's dummy, or the slot number
# when it holds a key, which `live` says too), `length` counts the keys,
# `fill` the keys and dummies, and `finger` is where `pop()` looks first.
# Probing, growth, the dummies and the order in which each operation
# visits and inserts keys are CPython's, so a set of keys hashing as in
# CPython (ints, floats, tuples of them, instances with `__hash__`) lays
# its keys out, and iterates them, as CPython does.

SET_MINSIZE = 8
LINEAR_PROBES = 9
# perturb is CPython's hash as an unsigned word: shifting it right is a
# logical shift (the mask clears the sign bits an arithmetic one copies)
PERTURB_MASK = (1 << (64 - PERTURB_SHIFT)) - 1


def _set_alloc(s, size):
    """An empty table of `size` free slots (fill 0)."""
    S = typeOf(s).TO
    s.keys = malloc(S.keys.TO, size)
    s.values = malloc(S.values.TO, size)
    s.hashes = malloc(S.hashes.TO, size)
    live = malloc(S.live.TO, size)
    index = malloc(S.index.TO, size)
    i = 0
    while i < size:
        index[i] = FREE
        live[i] = False
        i += 1
    s.live = live
    s.index = index
    s.used = size
    s.fill = 0


def ll_set_init(s):
    s.length = 0
    s.finger = 0
    _set_alloc(s, SET_MINSIZE)


def _set_place(s, j, key, h):
    s.keys[j] = key
    s.hashes[j] = h
    s.live[j] = True
    s.index[j] = j


def _set_lookup(s, key, h, eq):
    """The slot holding key, or -1 (CPython's set_lookkey)."""
    index = s.index
    mask = len(index) - 1
    i = h & mask
    perturb = h
    while True:
        probes = 0
        if i + LINEAR_PROBES <= mask:
            probes = LINEAR_PROBES
        j = i
        while True:
            state = index[j]
            if state == FREE:
                return -1
            if state >= 0 and s.hashes[j] == h and eq(s.keys[j], key):
                return j
            if probes == 0:
                break
            probes -= 1
            j += 1
        perturb = (perturb >> PERTURB_SHIFT) & PERTURB_MASK
        i = (i * 5 + 1 + perturb) & mask


def _set_insert_clean(s, key, h):
    """Puts key, known to be absent, in the first free slot of its probe
    sequence (a table without dummies; CPython's set_insert_clean)."""
    index = s.index
    mask = len(index) - 1
    i = h & mask
    perturb = h
    while True:
        if index[i] == FREE:
            _set_place(s, i, key, h)
            return
        if i + LINEAR_PROBES <= mask:
            j = i + 1
            while j <= i + LINEAR_PROBES:
                if index[j] == FREE:
                    _set_place(s, j, key, h)
                    return
                j += 1
        perturb = (perturb >> PERTURB_SHIFT) & PERTURB_MASK
        i = (i * 5 + 1 + perturb) & mask


def _set_resize(s, minused):
    """Rebuilds the table with the smallest size above minused, the keys
    reinserted in slot order and the dummies dropped."""
    newsize = SET_MINSIZE
    while newsize <= minused:
        newsize <<= 1
    oldsize = len(s.index)
    if newsize == SET_MINSIZE and oldsize == SET_MINSIZE and s.fill == s.length:
        return
    keys = s.keys
    hashes = s.hashes
    index = s.index
    _set_alloc(s, newsize)
    i = 0
    while i < oldsize:
        if index[i] >= 0:
            _set_insert_clean(s, keys[i], hashes[i])
        i += 1
    s.fill = s.length


def _set_grow_size(s):
    if s.length > 50000:
        return s.length * 2
    return s.length * 4


def _set_add_entry(s, key, h, eq):
    """Adds key of hash h unless it is there (CPython's set_add_entry: the
    probe runs to a free slot; the key goes to the last dummy seen on the
    way, else to that free slot, which may grow the table)."""
    index = s.index
    mask = len(index) - 1
    i = h & mask
    perturb = h
    freeslot = -1
    while True:
        probes = 0
        if i + LINEAR_PROBES <= mask:
            probes = LINEAR_PROBES
        j = i
        while True:
            state = index[j]
            if state == FREE:
                if freeslot >= 0:
                    _set_place(s, freeslot, key, h)
                    s.length += 1
                    return
                _set_place(s, j, key, h)
                s.fill += 1
                s.length += 1
                if s.fill * 5 >= mask * 3:
                    _set_resize(s, _set_grow_size(s))
                return
            if state >= 0:
                if s.hashes[j] == h and eq(s.keys[j], key):
                    return
            else:
                freeslot = j
            if probes == 0:
                break
            probes -= 1
            j += 1
        perturb = (perturb >> PERTURB_SHIFT) & PERTURB_MASK
        i = (i * 5 + 1 + perturb) & mask


def _set_discard_entry(s, key, h, eq):
    """Makes the slot of key a dummy; whether it was there."""
    j = _set_lookup(s, key, h, eq)
    if j < 0:
        return False
    s.index[j] = DELETED
    s.live[j] = False
    s.length -= 1
    return True


def ll_set_add(s, key, hash, eq):
    _set_add_entry(s, key, hash(key), eq)


def ll_set_contains(s, key, hash, eq):
    return _set_lookup(s, key, hash(key), eq) >= 0


def ll_set_discard(s, key, hash, eq):
    _set_discard_entry(s, key, hash(key), eq)


def ll_set_remove(s, key, hash, eq):
    if not _set_discard_entry(s, key, hash(key), eq):
        raise KeyError(key)


def ll_set_pop(s):
    """Removes a key, searching from the finger; returns its slot (whose
    key stays readable until the slot is reused)."""
    if s.length == 0:
        raise KeyError("pop from an empty set")
    index = s.index
    mask = len(index) - 1
    j = s.finger & mask
    while index[j] < 0:
        j += 1
        if j > mask:
            j = 0
    index[j] = DELETED
    s.live[j] = False
    s.length -= 1
    s.finger = j + 1
    return j


def ll_set_clear(s):
    s.length = 0
    _set_alloc(s, SET_MINSIZE)


def ll_set_add_list(s, l, hash, eq):
    """Adds the items of list l to set s, in order."""
    i = 0
    while i < l.length:
        ll_set_add(s, l.items[i], hash, eq)
        i += 1


def ll_set_update(s, other, eq):
    """s.update(other) for a set of the same type (CPython's set_merge)."""
    if other == s or other.length == 0:
        return
    if (s.fill + other.length) * 5 >= (len(s.index) - 1) * 3:
        _set_resize(s, (s.length + other.length) * 2)
    size = len(other.index)
    oindex = other.index
    if s.fill == 0 and len(s.index) == size and other.fill == other.length:
        # an empty table of the same size: the same slots
        i = 0
        while i < size:
            if oindex[i] >= 0:
                _set_place(s, i, other.keys[i], other.hashes[i])
            i += 1
        s.fill = other.fill
        s.length = other.length
        return
    if s.fill == 0:
        i = 0
        while i < size:
            if oindex[i] >= 0:
                _set_insert_clean(s, other.keys[i], other.hashes[i])
            i += 1
        s.fill = other.length
        s.length = other.length
        return
    i = 0
    while i < size:
        if oindex[i] >= 0:
            _set_add_entry(s, other.keys[i], other.hashes[i], eq)
        i += 1


def ll_set_update_dict(s, d, eq):
    """s.update(d) for a dict d with the set's keys: one resize first,
    then d's keys in its order with the hashes it keeps."""
    if (s.fill + d.length) * 5 >= (len(s.index) - 1) * 3:
        _set_resize(s, (s.length + d.length) * 2)
    i = 0
    while i < d.used:
        if d.live[i]:
            _set_add_entry(s, d.keys[i], d.hashes[i], eq)
        i += 1


def _set_new_like(s):
    r = malloc(typeOf(s).TO)
    ll_set_init(r)
    return r


def ll_set_copy(s, eq):
    r = _set_new_like(s)
    ll_set_update(r, s, eq)
    return r


def ll_set_update_other(r, other, s, eq):
    """r.update(other) in s.union(..., other, ...): s itself adds nothing
    (CPython skips it, and merging it could grow r)."""
    if other != s:
        ll_set_update(r, other, eq)


def ll_set_union(a, b, eq):
    r = ll_set_copy(a, eq)
    ll_set_update_other(r, b, a, eq)
    return r


def ll_set_intersection(a, b, eq):
    """a & b: the keys of the smaller set (b when as large as a), in slot
    order, that the other holds."""
    if a == b:
        return ll_set_copy(a, eq)
    r = _set_new_like(a)
    if b.length > a.length:
        a, b = b, a
    i = 0
    size = len(b.index)
    while i < size:
        if b.index[i] >= 0 and _set_lookup(a, b.keys[i], b.hashes[i], eq) >= 0:
            _set_add_entry(r, b.keys[i], b.hashes[i], eq)
        i += 1
    return r


def ll_set_intersection_list(a, l, hash, eq):
    """a.intersection(iterable) of the items of list l: the items a holds,
    in the list's order."""
    r = _set_new_like(a)
    i = 0
    while i < l.length:
        key = l.items[i]
        h = hash(key)
        if _set_lookup(a, key, h, eq) >= 0:
            _set_add_entry(r, key, h, eq)
            if r.length >= a.length:
                break
        i += 1
    return r


def ll_set_difference_update(s, other, eq):
    """s -= other: the keys of other become dummies, and a table left more
    than a quarter dummies is rebuilt."""
    if other == s:
        ll_set_clear(s)
        return
    i = 0
    size = len(other.index)
    while i < size:
        if other.index[i] >= 0:
            _set_discard_entry(s, other.keys[i], other.hashes[i], eq)
        i += 1
    if s.fill - s.length <= (len(s.index) - 1) // 4:
        return
    _set_resize(s, _set_grow_size(s))


def ll_set_copy_difference(a, b, eq):
    """A copy of a with the keys of b removed."""
    r = ll_set_copy(a, eq)
    ll_set_difference_update(r, b, eq)
    return r


def ll_set_difference(a, b, eq):
    """a - b (b a set, or the keys of a dict): a copy with b removed when
    a is much larger, else a new set of a's other keys in slot order."""
    if (a.length >> 2) > b.length:
        return ll_set_copy_difference(a, b, eq)
    r = _set_new_like(a)
    i = 0
    size = len(a.index)
    while i < size:
        if a.index[i] >= 0 and _set_lookup(b, a.keys[i], a.hashes[i], eq) < 0:
            _set_add_entry(r, a.keys[i], a.hashes[i], eq)
        i += 1
    return r


def ll_set_symmetric_difference_update(s, other, eq):
    """s ^= other: each key of other, in slot order, leaves s or joins it."""
    if other == s:
        ll_set_clear(s)
        return
    i = 0
    size = len(other.index)
    while i < size:
        if other.index[i] >= 0:
            key = other.keys[i]
            h = other.hashes[i]
            if not _set_discard_entry(s, key, h, eq):
                _set_add_entry(s, key, h, eq)
        i += 1


def ll_set_symmetric_difference_update_list(s, l, hash, eq):
    """s ^= the keys of a dict (list l of them, in the dict's order)."""
    i = 0
    while i < l.length:
        key = l.items[i]
        h = hash(key)
        if not _set_discard_entry(s, key, h, eq):
            _set_add_entry(s, key, h, eq)
        i += 1


def ll_set_symmetric_difference(a, b, eq):
    """a ^ b: a copy of b, then each key of a toggled in it."""
    r = ll_set_copy(b, eq)
    ll_set_symmetric_difference_update(r, a, eq)
    return r


def ll_set_replace(a, b):
    """a takes the table of b (the in-place operators; CPython's
    set_swap_bodies, which leaves the finger)."""
    a.length = b.length
    a.used = b.used
    a.fill = b.fill
    a.keys = b.keys
    a.values = b.values
    a.hashes = b.hashes
    a.live = b.live
    a.index = b.index


def ll_set_issubset(a, b, eq):
    if a.length > b.length:
        return False
    i = 0
    while i < a.used:
        if a.live[i] and _set_lookup(b, a.keys[i], a.hashes[i], eq) < 0:
            return False
        i += 1
    return True


def ll_set_eq(a, b, eq):
    return a.length == b.length and ll_set_issubset(a, b, eq)


def ll_next_entry(d, e):
    """The first live entry at or after e, or -1."""
    used = d.used
    while e < used:
        if d.live[e]:
            return e
        e += 1
    return -1


def ll_iter_next(it):
    """The entry number of the next item of the iteration (RuntimeError
    when the dict or set changed size since it started, as CPython)."""
    d = it.dict
    if d.length != it.size:
        it.size = -1
        if it.isset:
            raise RuntimeError("Set changed size during iteration")
        raise RuntimeError("dictionary changed size during iteration")
    e = ll_next_entry(d, it.index)
    if e < 0:
        it.index = d.used
        raise StopIteration
    it.index = e + 1
    return e


# --- hashing ----------------------------------------------------------------

HASH_MODULUS = (1 << 61) - 1


def ll_hash_int(x):
    """hash(x) as CPython computes it for an int of a machine word."""
    h = x % HASH_MODULUS
    if x < 0 and h != 0:
        h -= HASH_MODULUS
    if h == -1:
        h = -2
    return h


def ll_strhash(s):
    """A hash of a string (computed once and kept in the string)."""
    h = s.hash
    if h == 0:
        n = len(s.chars)
        x = 0
        if n > 0:
            x = ord(s.chars[0]) << 7
        i = 0
        while i < n:
            x = intmask(1000003 * x) ^ ord(s.chars[i])
            i += 1
        x ^= n
        if x == 0 or x == -1:
            x = -2
        h = x
        s.hash = h
    return h


def ll_hash_combine(acc, h):
    """Adds item hash h to a tuple's running hash (xxHash's round, as
    CPython's tuple hash)."""
    acc = intmask(acc + intmask(h * -4417276706812531889))
    acc = intmask((acc << 31) | ((acc >> 33) & 0x7FFFFFFF))
    return intmask(acc * -7046029288634856825)


def ll_set_hash(d):
    """The hash of a (frozen) set: its keys' stored hashes mixed and
    combined in an order-independent way, as CPython's frozenset hash
    (so equal sets hash alike)."""
    acc = 0
    i = 0
    while i < d.used:
        if d.live[i]:
            h = d.hashes[i]
            acc ^= intmask(((h ^ 89869747) ^ (h << 16)) * 3644798167)
        i += 1
    acc ^= intmask((d.length + 1) * 1927868237)
    acc ^= (acc >> 11) ^ (acc >> 25)
    acc = intmask(acc * 69069 + 907133923)
    if acc == -1:
        acc = 590923713
    return acc


def hl_hash(x):
    """Key hashing, annotated and rtyped for each key type."""
    return compute_hash(x)


def hl_hash_special(x):
    """The hash of an instance whose class defines __hash__ (a call of it)."""
    return hash(x)


def hl_eq(a, b):
    """Key equality, annotated and rtyped for each key type."""
    return a == b


def hl_get_default(d, k, default):
    """d.get(k, default) where the default is of another type than the
    values: the result is their union."""
    if k in d:
        return d[k]
    return default


def hl_pop_default(d, k, default):
    """d.pop(k, default) where the default is of another type than the
    values: the result is their union."""
    if k in d:
        return d.pop(k)
    return default


def ll_hash_tuple_finish(acc, n):
    """The end of CPython's tuple hash for n items."""
    acc = intmask(acc + (n ^ (2870177450012600261 ^ 3527539)))
    if acc == -1:
        return 1546275796
    return acc


TUPLE_HASH_START = 2870177450012600261


def ll_tuple_hash(l, hash):
    """CPython's hash of a tuple, for a tuple whose length is known at
    run time only (a list of its items); `hash` hashes one item."""
    acc = TUPLE_HASH_START
    n = l.length
    i = 0
    while i < n:
        acc = ll_hash_combine(acc, hash(l.items[i]))
        i += 1
    return ll_hash_tuple_finish(acc, n)


def ll_iter_next_key(it):
    return it.dict.keys[ll_iter_next(it)]


def ll_iter_next_value(it):
    return it.dict.values[ll_iter_next(it)]


def ll_dict_repr(d, key_repr, value_repr):
    """repr(d): '{' key ': ' value pairs between ', ' '}'."""
    if not d:
        # (a value that may be None)
        return _none_str()
    sb = ll_sb_new(16)
    ll_sb_append_char(sb, '{')
    first = True
    e = 0
    while e < d.used:
        if d.live[e]:
            if not first:
                ll_sb_append_char(sb, ',')
                ll_sb_append_char(sb, ' ')
            first = False
            ll_sb_append(sb, key_repr(d.keys[e]))
            ll_sb_append_char(sb, ':')
            ll_sb_append_char(sb, ' ')
            ll_sb_append(sb, value_repr(d.values[e]))
        e += 1
    ll_sb_append_char(sb, '}')
    return ll_sb_build(sb)


def ll_counter_repr(d, key_repr, value_repr):
    """repr() of a collections.Counter: 'Counter({' key ': ' count pairs
    '})', the largest counts first and equal counts in insertion order (a
    stable merge sort of the entries), or 'Counter()' when empty."""
    if not d:
        # (a value that may be None)
        return _none_str()
    sb = ll_sb_new(16)
    ll_sb_append_char(sb, 'C')
    ll_sb_append_char(sb, 'o')
    ll_sb_append_char(sb, 'u')
    ll_sb_append_char(sb, 'n')
    ll_sb_append_char(sb, 't')
    ll_sb_append_char(sb, 'e')
    ll_sb_append_char(sb, 'r')
    ll_sb_append_char(sb, '(')
    n = d.length
    if n == 0:
        ll_sb_append_char(sb, ')')
        return ll_sb_build(sb)
    D = typeOf(d).TO
    order = malloc(D.hashes.TO, n)
    tmp = malloc(D.hashes.TO, n)
    k = 0
    e = 0
    while e < d.used:
        if d.live[e]:
            order[k] = e
            k += 1
        e += 1
    width = 1
    while width < n:
        lo = 0
        while lo < n:
            mid = lo + width
            if mid > n:
                mid = n
            hi = lo + 2 * width
            if hi > n:
                hi = n
            i = lo
            j = mid
            t = lo
            while i < mid and j < hi:
                # the left one first unless the right count is larger
                if d.values[order[j]] > d.values[order[i]]:
                    tmp[t] = order[j]
                    j += 1
                else:
                    tmp[t] = order[i]
                    i += 1
                t += 1
            while i < mid:
                tmp[t] = order[i]
                i += 1
                t += 1
            while j < hi:
                tmp[t] = order[j]
                j += 1
                t += 1
            lo = hi
        swap = order
        order = tmp
        tmp = swap
        width *= 2
    ll_sb_append_char(sb, '{')
    k = 0
    while k < n:
        e = order[k]
        if k > 0:
            ll_sb_append_char(sb, ',')
            ll_sb_append_char(sb, ' ')
        ll_sb_append(sb, key_repr(d.keys[e]))
        ll_sb_append_char(sb, ':')
        ll_sb_append_char(sb, ' ')
        ll_sb_append(sb, value_repr(d.values[e]))
        k += 1
    ll_sb_append_char(sb, '}')
    ll_sb_append_char(sb, ')')
    return ll_sb_build(sb)


def ll_ordered_repr(d, key_repr, value_repr):
    """repr() of a collections.OrderedDict: 'OrderedDict([(' key ', '
    value ')...])', or 'OrderedDict()' when empty."""
    if not d:
        # (a value that may be None)
        return _none_str()
    sb = ll_sb_new(16)
    for c in "OrderedDict(":
        ll_sb_append_char(sb, c)
    if d.length != 0:
        ll_sb_append_char(sb, '[')
        first = True
        e = 0
        while e < d.used:
            if d.live[e]:
                if not first:
                    ll_sb_append_char(sb, ',')
                    ll_sb_append_char(sb, ' ')
                first = False
                ll_sb_append_char(sb, '(')
                ll_sb_append(sb, key_repr(d.keys[e]))
                ll_sb_append_char(sb, ',')
                ll_sb_append_char(sb, ' ')
                ll_sb_append(sb, value_repr(d.values[e]))
                ll_sb_append_char(sb, ')')
            e += 1
        ll_sb_append_char(sb, ']')
    ll_sb_append_char(sb, ')')
    return ll_sb_build(sb)


def ll_set_repr(s, key_repr):
    """repr(s): '{' items '}', or 'set()' when empty."""
    if not s:
        # (a value that may be None)
        return _none_str()
    sb = ll_sb_new(16)
    if s.length == 0:
        ll_sb_append_char(sb, 's')
        ll_sb_append_char(sb, 'e')
        ll_sb_append_char(sb, 't')
        ll_sb_append_char(sb, '(')
        ll_sb_append_char(sb, ')')
        return ll_sb_build(sb)
    _set_items_repr(sb, s, key_repr)
    return ll_sb_build(sb)


def ll_frozenset_repr(s, key_repr):
    """repr(s) of a frozenset: 'frozenset({' items '})', or 'frozenset()'
    when empty."""
    if not s:
        # (a value that may be None)
        return _none_str()
    sb = ll_sb_new(24)
    i = 0
    while i < 10:
        ll_sb_append_char(sb, 'frozenset('[i])
        i += 1
    if s.length != 0:
        _set_items_repr(sb, s, key_repr)
    ll_sb_append_char(sb, ')')
    return ll_sb_build(sb)


def _set_items_repr(sb, s, key_repr):
    ll_sb_append_char(sb, '{')
    first = True
    e = 0
    while e < s.used:
        if s.live[e]:
            if not first:
                ll_sb_append_char(sb, ',')
                ll_sb_append_char(sb, ' ')
            first = False
            ll_sb_append(sb, key_repr(s.keys[e]))
        e += 1
    ll_sb_append_char(sb, '}')


def ll_update_pairs(d, l, hash, eq):
    """d.update(l) (and dict(l)) of a list of (key, value) tuples."""
    i = 0
    while i < l.length:
        p = l.items[i]
        ll_setitem(d, p.item0, p.item1, hash, eq)
        i += 1


def ll_fromkeys(d, l, value, hash, eq):
    """dict.fromkeys(l, value) into the new dict d."""
    i = 0
    while i < l.length:
        ll_setitem(d, l.items[i], value, hash, eq)
        i += 1


def ll_set_isdisjoint(a, b, eq):
    if a.length > b.length:
        a, b = b, a
    i = 0
    while i < a.used:
        if a.live[i] and _set_lookup(b, a.keys[i], a.hashes[i], eq) >= 0:
            return False
        i += 1
    return True


def ll_dict_eq(a, b, eq, value_eq):
    """a == b of dicts: the same keys, with equal values."""
    if a.length != b.length:
        return False
    i = 0
    while i < a.used:
        if a.live[i]:
            e = _entry(b, a.keys[i], a.hashes[i], eq)
            if e < 0 or not value_eq(a.values[i], b.values[e]):
                return False
        i += 1
    return True
