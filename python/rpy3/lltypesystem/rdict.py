"""Dicts and sets at the low level: insertion-ordered hash tables (the
layout of CPython's and PyPy's ordered dicts).

A dict is a GC struct holding parallel entry arrays (`keys`, `values`,
`hashes`, `live`) filled in insertion order, `used` of them so far, and an
open-addressing `index` whose slots hold an entry number, FREE or DELETED.
`length` counts the live entries.  A set is a dict whose values are Void.

The helpers are generic (types through `typeOf`, one specialised copy per
dict type); key hashing and equality come as function pointers `hash(k)`
and `eq(a, b)` (from `hl_hash` and `hl_eq`, or the functions of an
`r_dict`).  They also run under CPython on emulated objects (see the
tests).
"""
from rpy3.lltype import malloc, typeOf
from rpy3.lltypesystem.rlist import ll_append
from rpy3.lltypesystem.rstr import (ll_sb_new, ll_sb_append, ll_sb_append_char,
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


def ll_discard(d, key, hash, eq):
    i = _slot(d, key, hash(key), eq)
    if i >= 0:
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
        # (also set.pop(), whose message would be 'pop from an empty set')
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

def ll_set_add(s, key, hash, eq):
    h = hash(key)
    if _entry(s, key, h, eq) < 0:
        _insert_new(s, key, None, h)


def ll_set_remove(s, key, hash, eq):
    ll_delitem(s, key, hash, eq)


def ll_set_intersection(a, b, eq):
    r = _new_like(a)
    i = 0
    while i < a.used:
        if a.live[i] and _entry(b, a.keys[i], a.hashes[i], eq) >= 0:
            _insert_new(r, a.keys[i], a.values[i], a.hashes[i])
        i += 1
    return r


def ll_set_difference(a, b, eq):
    r = _new_like(a)
    i = 0
    while i < a.used:
        if a.live[i] and _entry(b, a.keys[i], a.hashes[i], eq) < 0:
            _insert_new(r, a.keys[i], a.values[i], a.hashes[i])
        i += 1
    return r


def ll_set_symmetric_difference(a, b, eq):
    r = ll_set_difference(a, b, eq)
    i = 0
    while i < b.used:
        if b.live[i] and _entry(a, b.keys[i], b.hashes[i], eq) < 0:
            _insert_new(r, b.keys[i], b.values[i], b.hashes[i])
        i += 1
    return r


def ll_set_union(a, b, eq):
    r = ll_copy(a, eq)
    ll_update(r, b, eq)
    return r


def ll_set_replace(a, b):
    """a takes the contents of b (for the in-place operators)."""
    a.length = b.length
    a.used = b.used
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
        if a.live[i] and _entry(b, a.keys[i], a.hashes[i], eq) < 0:
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
    """The entry number of the next item of the iteration."""
    d = it.dict
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


def ll_set_add_list(s, l, hash, eq):
    """Adds the items of list l to set s."""
    i = 0
    while i < l.length:
        ll_set_add(s, l.items[i], hash, eq)
        i += 1


def ll_iter_next_key(it):
    return it.dict.keys[ll_iter_next(it)]


def ll_iter_next_value(it):
    return it.dict.values[ll_iter_next(it)]


def ll_dict_repr(d, key_repr, value_repr):
    """repr(d): '{' key ': ' value pairs between ', ' '}'."""
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
    sb = ll_sb_new(16)
    if s.length == 0:
        ll_sb_append_char(sb, 's')
        ll_sb_append_char(sb, 'e')
        ll_sb_append_char(sb, 't')
        ll_sb_append_char(sb, '(')
        ll_sb_append_char(sb, ')')
        return ll_sb_build(sb)
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
    return ll_sb_build(sb)


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
        if a.live[i] and _entry(b, a.keys[i], a.hashes[i], eq) >= 0:
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
