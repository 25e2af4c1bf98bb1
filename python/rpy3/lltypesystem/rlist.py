"""Lists at the low level (PyPy's `rlist.py` for resizable lists).

A list is a GC struct `{length, items}` whose `items` points to a GC
array with room for at least `length` items.  The helpers are generic:
they find the list and item types with `typeOf`, and the rtyper annotates
one specialised copy per list type.  Operations that compare items take
function pointers `eq(a, b) -> bool` and `lt(a, b) -> bool` (the
rtyper makes them from `hl_eq` and `hl_lt` for each item type).  The
helpers also run under CPython on
emulated objects (see the tests).
"""
from rpy3.rlib.rarithmetic import intmask, r_uint
from rpy3.lltype import malloc, typeOf
from rpy3.lltypesystem.rslice import ll_slice_bounds, ll_clamp
from rpy3.lltypesystem.rstr import (_none_str, STR, BYTES, ll_char2str, _is_space, _is_ascii_space,
                                    ll_sb_new, ll_sb_append, ll_sb_append_char,
                                    ll_sb_build, ll_strconcat, _ll_text)


def _new(LIST, n):
    """A new list of type LIST with n zeroed items."""
    r = malloc(LIST)
    r.length = n
    r.items = malloc(LIST.items.TO, n)
    return r


def _newlist_like(l, n):
    return _new(typeOf(l).TO, n)


def _copy_items(src, i, dst, j, n):
    """dst.items[j:j+n] = src.items[i:i+n] (the ranges may overlap)."""
    s = src.items
    d = dst.items
    if j <= i:
        k = 0
        while k < n:
            d[j + k] = s[i + k]
            k += 1
    else:
        k = n - 1
        while k >= 0:
            d[j + k] = s[i + k]
            k -= 1


def _resize(l, newsize):
    """Makes room for newsize items (over-allocating as CPython does) and
    sets the length."""
    allocated = len(l.items)
    if newsize > allocated:
        extra = 3 if newsize < 9 else 6
        new_allocated = newsize + (newsize >> 3) + extra
        items = malloc(typeOf(l).TO.items.TO, new_allocated)
        i = 0
        n = l.length
        old = l.items
        while i < n:
            items[i] = old[i]
            i += 1
        l.items = items
    elif newsize < (allocated >> 1) - 5:
        # shrink the array when less than half of it is used
        items = malloc(typeOf(l).TO.items.TO, newsize)
        i = 0
        old = l.items
        while i < newsize:
            items[i] = old[i]
            i += 1
        l.items = items
    l.length = newsize


def ll_newlist(l, n):
    return _newlist_like(l, n)


def ll_len(l):
    return l.length


def ll_is_true(l):
    return bool(l) and l.length != 0


def _index(l, i):
    n = l.length
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError("list index out of range")
    return i


def _assign_index(l, i):
    # the index of an assignment or deletion (`l[i] = v`, `del l[i]`)
    n = l.length
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError("list assignment index out of range")
    return i


def ll_getitem(l, i):
    return l.items[_index(l, i)]


def ll_setitem(l, i, v):
    l.items[_assign_index(l, i)] = v


def ll_getitem_nonneg(l, i):
    # i >= 0 is known
    if i >= l.length:
        raise IndexError("list index out of range")
    return l.items[i]


def ll_setitem_nonneg(l, i, v):
    # i >= 0 is known
    if i >= l.length:
        raise IndexError("list assignment index out of range")
    l.items[i] = v


def ll_delitem(l, i):
    i = _assign_index(l, i)
    n = l.length
    _copy_items(l, i + 1, l, i, n - i - 1)
    _resize(l, n - 1)


def ll_append(l, v):
    n = l.length
    _resize(l, n + 1)
    l.items[n] = v


def ll_pop(l, i):
    # (also deque.popleft(), whose message would be 'pop from an empty deque')
    n = l.length
    if n == 0:
        raise IndexError("pop from empty list")
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError("pop index out of range")
    v = l.items[i]
    n = l.length
    _copy_items(l, i + 1, l, i, n - i - 1)
    _resize(l, n - 1)
    return v


def ll_pop_last(l):
    n = l.length
    if n == 0:
        raise IndexError("pop from empty list")
    v = l.items[n - 1]
    _resize(l, n - 1)
    return v


def ll_trim_left(l, maxlen):
    """A deque of at most `maxlen` items: the first ones dropped."""
    n = l.length
    if n > maxlen:
        drop = n - maxlen
        _copy_items(l, drop, l, 0, maxlen)
        _resize(l, maxlen)


def ll_trim_right(l, maxlen):
    """A deque of at most `maxlen` items: the last ones dropped."""
    if l.length > maxlen:
        _resize(l, maxlen)


def ll_extendleft(l, other):
    """deque.extendleft: each item of `other` inserted first, in turn."""
    m = other.length
    n = l.length
    _resize(l, n + m)
    _copy_items(l, 0, l, m, n)
    j = 0
    while j < m:
        l.items[m - 1 - j] = other.items[j]
        j += 1


def _reverse_items(l, lo, hi):
    hi -= 1
    while lo < hi:
        v = l.items[lo]
        l.items[lo] = l.items[hi]
        l.items[hi] = v
        lo += 1
        hi -= 1


def ll_rotate(l, n):
    """deque.rotate(n): n steps to the right (to the left when negative)."""
    length = l.length
    if length <= 1:
        return
    if n >= 0:
        k = n % length
    else:
        k = length - (-n) % length
        if k == length:
            k = 0
    if k == 0:
        return
    _reverse_items(l, 0, length)
    _reverse_items(l, 0, k)
    _reverse_items(l, k, length)


def ll_insert(l, i, v):
    n = l.length
    if i < 0:
        i += n
        if i < 0:
            i = 0
    elif i > n:
        i = n
    _resize(l, n + 1)
    _copy_items(l, i, l, i + 1, n - i)
    l.items[i] = v


def ll_extend(l, other):
    n = l.length
    m = other.length
    _resize(l, n + m)
    # other may be l itself: its first m items are unchanged
    _copy_items(other, 0, l, n, m)


def ll_extend_chars_as_strs(l, other):
    """Extends a list of strs with a list of one-character strs (held as
    characters)."""
    n = l.length
    m = other.length
    _resize(l, n + m)
    i = 0
    while i < m:
        l.items[n + i] = ll_char2str(other.items[i])
        i += 1


def ll_copy(l):
    n = l.length
    r = _newlist_like(l, n)
    _copy_items(l, 0, r, 0, n)
    return r


def ll_copy_into(r, l):
    """Fills r (a new list or variable-length tuple of l's length) with
    the items of l."""
    _copy_items(l, 0, r, 0, l.length)


def ll_clear(l):
    l.length = 0
    l.items = malloc(typeOf(l).TO.items.TO, 0)


def ll_concat(a, b):
    n = a.length
    m = b.length
    r = _newlist_like(a, n + m)
    _copy_items(a, 0, r, 0, n)
    _copy_items(b, 0, r, n, m)
    return r


def ll_mul(l, times):
    n = l.length
    if times < 0:
        times = 0
    r = _newlist_like(l, n * times)
    k = 0
    while k < times:
        _copy_items(l, 0, r, k * n, n)
        k += 1
    return r


def ll_inplace_mul(l, times):
    n = l.length
    if times <= 0:
        ll_clear(l)
        return l
    _resize(l, n * times)
    k = 1
    while k < times:
        _copy_items(l, 0, l, k * n, n)
        k += 1
    return l


def ll_slice(l, start, stop):
    start, stop = ll_clamp(start, stop, l.length)
    r = _newlist_like(l, stop - start)
    _copy_items(l, start, r, 0, stop - start)
    return r


def ll_slice_step(l, start, stop, step, nones):
    start, step, count = ll_slice_bounds(l.length, start, stop, step, nones)
    r = _newlist_like(l, count)
    i = 0
    j = start
    while i < count:
        r.items[i] = l.items[j]
        i += 1
        j += step
    return r


def ll_setslice(l, start, stop, step, nones, other):
    n = l.length
    if nones & 4 or step == 1:
        if nones & 1:
            start = 0
        if nones & 2:
            stop = n
        start, stop = ll_clamp(start, stop, n)
        if other == l:
            other = ll_copy(other)
        m = other.length
        newsize = n - (stop - start) + m
        if m > stop - start:
            _resize(l, newsize)
            _copy_items(l, stop, l, start + m, n - stop)
        else:
            _copy_items(l, stop, l, start + m, n - stop)
            _resize(l, newsize)
        _copy_items(other, 0, l, start, m)
        return
    start, step, count = ll_slice_bounds(n, start, stop, step, nones)
    if other.length != count:
        # (CPython: 'attempt to assign sequence of size 1 to extended slice
        # of size 2': a text made at run time, which a helper cannot give
        # an exception yet)
        raise ValueError
    if other == l:
        other = ll_copy(other)
    i = 0
    j = start
    while i < count:
        l.items[j] = other.items[i]
        i += 1
        j += step


def ll_delslice(l, start, stop, step, nones):
    n = l.length
    start, step, count = ll_slice_bounds(n, start, stop, step, nones)
    if count == 0:
        return
    if step < 0:
        # the same items, walked upwards
        start = start + step * (count - 1)
        step = -step
    # keep every item not hit by the slice, in order
    j = start
    i = start
    hit = 0
    while i < n:
        if hit < count and i == start + hit * step:
            hit += 1
        else:
            l.items[j] = l.items[i]
            j += 1
        i += 1
    _resize(l, j)


def ll_find(l, v, eq):
    """The index of the first item equal to v, or -1."""
    i = 0
    n = l.length
    while i < n:
        if eq(l.items[i], v):
            return i
        i += 1
    return -1


def ll_contains(l, v, eq):
    return ll_find(l, v, eq) >= 0


def ll_index(l, v, eq):
    i = ll_find(l, v, eq)
    if i < 0:
        # (CPython's message, '3 is not in list', is ll_index_shown's)
        raise ValueError
    return i


def ll_index_shown(l, v, eq, item_repr):
    """ll_index, whose ValueError carries CPython's message ('3 is not in
    list'; used when the program reads exception messages)."""
    i = ll_find(l, v, eq)
    if i < 0:
        raise ValueError(ll_strconcat(item_repr(v), _ll_text(" is not in list")))
    return i


def ll_count(l, v, eq):
    i = 0
    c = 0
    n = l.length
    while i < n:
        if eq(l.items[i], v):
            c += 1
        i += 1
    return c


def ll_remove(l, v, eq):
    i = ll_find(l, v, eq)
    if i < 0:
        raise ValueError("list.remove(x): x not in list")
    ll_delitem(l, i)


def ll_eq(a, b, eq):
    if a == b:
        return True
    if not a or not b:
        return False
    n = a.length
    if n != b.length:
        return False
    i = 0
    while i < n:
        if not eq(a.items[i], b.items[i]):
            return False
        i += 1
    return True


def ll_cmp(a, b, eq, lt):
    """-1, 0 or 1 as a < b, a == b, a > b (lexicographically)."""
    n = a.length
    m = b.length
    i = 0
    while i < n and i < m:
        x = a.items[i]
        y = b.items[i]
        if not eq(x, y):
            if lt(x, y):
                return -1
            return 1
        i += 1
    if n < m:
        return -1
    if n > m:
        return 1
    return 0


def ll_reverse(l):
    i = 0
    j = l.length - 1
    while i < j:
        x = l.items[i]
        l.items[i] = l.items[j]
        l.items[j] = x
        i += 1
        j -= 1


def _before(lt, reverse, a, b):
    # reverse=True sorts as if every comparison were reversed, which keeps
    # equal items in their order
    if reverse:
        return lt(b, a)
    return lt(a, b)


def ll_sort(l, lt, reverse):
    """A stable merge sort (runs of insertion sort, then merges)."""
    n = l.length
    items = l.items
    run = 16
    start = 0
    while start < n:
        end = start + run
        if end > n:
            end = n
        i = start + 1
        while i < end:
            x = items[i]
            j = i
            while j > start and _before(lt, reverse, x, items[j - 1]):
                items[j] = items[j - 1]
                j -= 1
            items[j] = x
            i += 1
        start = end
    if n <= run:
        return
    tmp = malloc(typeOf(items).TO, n)
    src = items
    dst = tmp
    width = run
    while width < n:
        lo = 0
        while lo < n:
            mid = lo + width
            if mid > n:
                mid = n
            hi = mid + width
            if hi > n:
                hi = n
            i = lo
            j = mid
            k = lo
            while i < mid and j < hi:
                if _before(lt, reverse, src[j], src[i]):
                    dst[k] = src[j]
                    j += 1
                else:
                    dst[k] = src[i]
                    i += 1
                k += 1
            while i < mid:
                dst[k] = src[i]
                i += 1
                k += 1
            while j < hi:
                dst[k] = src[j]
                j += 1
                k += 1
            lo = hi
        x = src
        src = dst
        dst = x
        width *= 2
    if src != items:
        i = 0
        while i < n:
            items[i] = src[i]
            i += 1


def ll_iter_next(it):
    l = it.list
    i = it.index
    if i >= l.length:
        raise StopIteration
    it.index = i + 1
    return l.items[i]


def ll_iter_next_reversed(it):
    i = it.index - 1
    if i < 0:
        raise StopIteration
    it.index = i
    l = it.list
    if i >= l.length:
        raise StopIteration
    return l.items[i]


def hl_eq(a, b):
    """Item equality, annotated and rtyped for each item type."""
    return a == b


def hl_lt(a, b):
    """Item order, annotated and rtyped for each item type."""
    return a < b


def ll_extend_range(l, start, stop, step):
    """Appends the items of range(start, stop, step) (step != 0)."""
    # (the distance and the step as unsigned words: no overflow for a
    # step of -maxint-1 or bounds far apart)
    if step > 0:
        n = 0 if stop <= start else intmask((r_uint(stop) - r_uint(start) - 1) // r_uint(step)) + 1
    else:
        n = 0 if stop >= start else intmask((r_uint(start) - r_uint(stop) - 1) // (r_uint(0) - r_uint(step))) + 1
    m = l.length
    _resize(l, m + n)
    i = 0
    x = start
    while i < n:
        l.items[m + i] = x
        x += step
        i += 1


def ll_extend_chars(l, s):
    """Appends the characters of string s."""
    n = len(s.chars)
    m = l.length
    _resize(l, m + n)
    i = 0
    while i < n:
        l.items[m + i] = s.chars[i]
        i += 1


def ll_extend_strs(l, s):
    """Appends the characters of string s as strings."""
    n = len(s.chars)
    m = l.length
    _resize(l, m + n)
    i = 0
    while i < n:
        l.items[m + i] = ll_char2str(s.chars[i])
        i += 1


def _substr(s, start, stop):
    r = malloc(typeOf(s).TO, stop - start)
    i = start
    while i < stop:
        r.chars[i - start] = s.chars[i]
        i += 1
    return r


def _match(s, i, sep):
    m = len(sep.chars)
    j = 0
    while j < m:
        if s.chars[i + j] != sep.chars[j]:
            return False
        j += 1
    return True


def ll_split(l, s, sep, maxsplit):
    """Appends the pieces of s.split(sep, maxsplit) (sep null: runs of
    whitespace)."""
    _split(l, s, sep, maxsplit, False)


def ll_bytes_split(l, s, sep, maxsplit):
    """bytes.split(): whitespace is ASCII's."""
    _split(l, s, sep, maxsplit, True)


def _space(c, ascii):
    if ascii:
        return _is_ascii_space(c)
    return _is_space(c)


def _split(l, s, sep, maxsplit, ascii):
    n = len(s.chars)
    if not sep:
        i = 0
        while True:
            while i < n and _space(s.chars[i], ascii):
                i += 1
            if i >= n:
                return
            if maxsplit == 0:
                # the rest, as it is
                ll_append(l, _substr(s, i, n))
                return
            j = i
            while j < n and not _space(s.chars[j], ascii):
                j += 1
            ll_append(l, _substr(s, i, j))
            maxsplit -= 1
            i = j
    m = len(sep.chars)
    if m == 0:
        raise ValueError("empty separator")
    start = 0
    i = 0
    while maxsplit != 0 and i + m <= n:
        if _match(s, i, sep):
            ll_append(l, _substr(s, start, i))
            i += m
            start = i
            maxsplit -= 1
        else:
            i += 1
    ll_append(l, _substr(s, start, n))


def ll_rsplit(l, s, sep, maxsplit):
    """Appends the pieces of s.rsplit(sep, maxsplit)."""
    _rsplit(l, s, sep, maxsplit, False)


def ll_bytes_rsplit(l, s, sep, maxsplit):
    """bytes.rsplit(): whitespace is ASCII's."""
    _rsplit(l, s, sep, maxsplit, True)


def _rsplit(l, s, sep, maxsplit, ascii):
    n = len(s.chars)
    first = l.length
    if not sep:
        j = n
        while True:
            while j > 0 and _space(s.chars[j - 1], ascii):
                j -= 1
            if j <= 0:
                break
            if maxsplit == 0:
                ll_append(l, _substr(s, 0, j))
                break
            i = j
            while i > 0 and not _space(s.chars[i - 1], ascii):
                i -= 1
            ll_append(l, _substr(s, i, j))
            maxsplit -= 1
            j = i
    else:
        m = len(sep.chars)
        if m == 0:
            raise ValueError("empty separator")
        end = n
        i = n - m
        while maxsplit != 0 and i >= 0:
            if _match(s, i, sep):
                ll_append(l, _substr(s, i + m, end))
                end = i
                i -= m
                maxsplit -= 1
            else:
                i -= 1
        ll_append(l, _substr(s, 0, end))
    # the pieces were found from the right
    i = first
    j = l.length - 1
    while i < j:
        x = l.items[i]
        l.items[i] = l.items[j]
        l.items[j] = x
        i += 1
        j -= 1


def ll_join(sep, l):
    """sep.join(l) for a list of strings."""
    n = l.length
    if n == 0:
        return malloc(typeOf(sep).TO, 0)
    m = len(sep.chars)
    total = m * (n - 1)
    i = 0
    while i < n:
        total += len(l.items[i].chars)
        i += 1
    r = malloc(typeOf(sep).TO, total)
    k = 0
    i = 0
    while i < n:
        if i > 0:
            j = 0
            while j < m:
                r.chars[k] = sep.chars[j]
                k += 1
                j += 1
        s = l.items[i]
        j = 0
        p = len(s.chars)
        while j < p:
            r.chars[k] = s.chars[j]
            k += 1
            j += 1
        i += 1
    return r


def ll_join_chars(sep, l):
    """sep.join(l) for a list of characters."""
    n = l.length
    if n == 0:
        return malloc(STR, 0)
    m = len(sep.chars)
    r = malloc(STR, n + m * (n - 1))
    k = 0
    i = 0
    while i < n:
        if i > 0:
            j = 0
            while j < m:
                r.chars[k] = sep.chars[j]
                k += 1
                j += 1
        r.chars[k] = l.items[i]
        k += 1
        i += 1
    return r


# --- iterators built on other iterators ---------------------------------------

def ll_enumerate_step(e, next):
    """e.cur = the next item of e.it; e.index counts the items."""
    e.cur = next(e.it)
    e.index += 1


def ll_zip_step2(z, next0, next1):
    z.cur0 = next0(z.it0)
    z.cur1 = next1(z.it1)


def ll_zip_step3(z, next0, next1, next2):
    z.cur0 = next0(z.it0)
    z.cur1 = next1(z.it1)
    z.cur2 = next2(z.it2)


def ll_next_default(it, next, default):
    """next(it, default)."""
    try:
        return next(it)
    except StopIteration:
        return default


def ll_reversed_str(s):
    n = len(s.chars)
    r = malloc(STR, n)
    i = 0
    while i < n:
        r.chars[i] = s.chars[n - 1 - i]
        i += 1
    return r


# --- aggregates ---------------------------------------------------------------

def ll_sum(l, start):
    """sum(l, start) of numbers (wrapping as machine ints do)."""
    total = start
    i = 0
    while i < l.length:
        total = total + l.items[i]
        i += 1
    return total


def _empty_extreme(largest):
    if largest:
        raise ValueError("max() arg is an empty sequence")
    raise ValueError("min() arg is an empty sequence")


def ll_extreme(l, lt, largest):
    """min(l) (max(l) when largest): the first of the smallest (largest)
    items; ValueError when l is empty."""
    if l.length == 0:
        _empty_extreme(largest)
    best = l.items[0]
    i = 1
    while i < l.length:
        x = l.items[i]
        if _before(lt, largest, x, best):
            best = x
        i += 1
    return best


def hl_bool(x):
    """The truth of an item, annotated and rtyped for each item type."""
    return bool(x)


def ll_any(l, truth):
    i = 0
    while i < l.length:
        if truth(l.items[i]):
            return True
        i += 1
    return False


def ll_all(l, truth):
    i = 0
    while i < l.length:
        if not truth(l.items[i]):
            return False
        i += 1
    return True


def ll_any_iter(it, next, truth):
    """any() of an iterator: stops at the first true item."""
    while True:
        try:
            x = next(it)
        except StopIteration:
            return False
        if truth(x):
            return True


def ll_all_iter(it, next, truth):
    """all() of an iterator: stops at the first false item."""
    while True:
        try:
            x = next(it)
        except StopIteration:
            return True
        if not truth(x):
            return False


def ll_extreme_key(l, key, lt, largest):
    """min(l, key=key) (max when largest): the key of each item is
    computed once; the first of the extreme items wins."""
    if l.length == 0:
        _empty_extreme(largest)
    best = l.items[0]
    kbest = key(best)
    i = 1
    while i < l.length:
        x = l.items[i]
        k = key(x)
        if _before(lt, largest, k, kbest):
            best = x
            kbest = k
        i += 1
    return best


def ll_extend_bytes(l, b):
    """Appends the byte values of b (ints)."""
    n = len(b.chars)
    m = l.length
    _resize(l, m + n)
    i = 0
    while i < n:
        l.items[m + i] = ord(b.chars[i])
        i += 1


def ll_extend_from_iter(l, it, next):
    """Appends the items of iterator it (its next function: next)."""
    while True:
        try:
            x = next(it)
        except StopIteration:
            return
        ll_append(l, x)


def ll_zip_step4(z, next0, next1, next2, next3):
    z.cur0 = next0(z.it0)
    z.cur1 = next1(z.it1)
    z.cur2 = next2(z.it2)
    z.cur3 = next3(z.it3)


def ll_sort_keyed(l, keys, key, lt, reverse):
    """l.sort(key=key, reverse=reverse): the key of each item computed
    once into `keys` (an array of l.length items), then a stable merge
    sort of the (key, item) pairs."""
    n = l.length
    items = l.items
    i = 0
    while i < n:
        keys[i] = key(items[i])
        i += 1
    tmpk = malloc(typeOf(keys).TO, n)
    tmpi = malloc(typeOf(items).TO, n)
    width = 1
    srck = keys
    srci = items
    dstk = tmpk
    dsti = tmpi
    while width < n:
        lo = 0
        while lo < n:
            mid = lo + width
            if mid > n:
                mid = n
            hi = mid + width
            if hi > n:
                hi = n
            a = lo
            b = mid
            k = lo
            while a < mid and b < hi:
                if _before(lt, reverse, srck[b], srck[a]):
                    dstk[k] = srck[b]
                    dsti[k] = srci[b]
                    b += 1
                else:
                    dstk[k] = srck[a]
                    dsti[k] = srci[a]
                    a += 1
                k += 1
            while a < mid:
                dstk[k] = srck[a]
                dsti[k] = srci[a]
                a += 1
                k += 1
            while b < hi:
                dstk[k] = srck[b]
                dsti[k] = srci[b]
                b += 1
                k += 1
            lo = hi
        xk = srck
        srck = dstk
        dstk = xk
        xi = srci
        srci = dsti
        dsti = xi
        width *= 2
    if srci != items:
        i = 0
        while i < n:
            items[i] = srci[i]
            i += 1


def hl_repr(x):
    """repr() of an item, annotated and rtyped for each item type."""
    return repr(x)


def _append_item_reprs(sb, l, item_repr):
    """The items' repr() between ', ' (the inside of a list's or a tuple's
    text)."""
    i = 0
    while i < l.length:
        if i > 0:
            ll_sb_append_char(sb, ',')
            ll_sb_append_char(sb, ' ')
        ll_sb_append(sb, item_repr(l.items[i]))
        i += 1


def ll_list_repr(l, item_repr):
    """repr(l): '[' items ']' with the items' repr() between ', '."""
    if not l:
        # (a value that may be None)
        return _none_str()
    sb = ll_sb_new(16)
    ll_sb_append_char(sb, '[')
    _append_item_reprs(sb, l, item_repr)
    ll_sb_append_char(sb, ']')
    return ll_sb_build(sb)


def ll_tuple_repr(l, item_repr):
    """repr(t) of a tuple whose length is known at run time only: '('
    items ')', a single item followed by a comma."""
    if not l:
        # (a value that may be None)
        return _none_str()
    sb = ll_sb_new(16)
    ll_sb_append_char(sb, '(')
    _append_item_reprs(sb, l, item_repr)
    if l.length == 1:
        ll_sb_append_char(sb, ',')
    ll_sb_append_char(sb, ')')
    return ll_sb_build(sb)


def _line_break(c, ascii):
    o = ord(c)
    if o == 10 or o == 13:
        return True
    if ascii:
        return False
    return (o == 11 or o == 12 or o == 0x1c or o == 0x1d or o == 0x1e or
            o == 0x85 or o == 0x2028 or o == 0x2029)


def ll_splitlines(l, s, keepends):
    """Appends the lines of s.splitlines(keepends)."""
    _splitlines(l, s, keepends, False)


def ll_bytes_splitlines(l, s, keepends):
    """bytes.splitlines(): only \\n, \\r and \\r\\n end lines."""
    _splitlines(l, s, keepends, True)


def _splitlines(l, s, keepends, ascii):
    n = len(s.chars)
    i = 0
    while i < n:
        j = i
        while j < n and not _line_break(s.chars[j], ascii):
            j += 1
        eol = j
        if j < n:
            if s.chars[j] == '\r' and j + 1 < n and s.chars[j + 1] == '\n':
                j += 2
            else:
                j += 1
            if keepends:
                eol = j
        ll_append(l, _substr(s, i, eol))
        i = j


def ll_byte_needle(x):
    """An int searched for in bytes (`b.find(98)`): the one-byte bytes of
    it (ValueError outside 0..255, as CPython)."""
    if x < 0 or x > 255:
        raise ValueError("byte must be in range(0, 256)")
    r = malloc(BYTES, 1)
    r.chars[0] = chr(x)
    return r


def ll_bytes_from_list(l):
    """bytes(l) of a list of ints: ValueError for one outside 0..255."""
    n = l.length
    r = malloc(BYTES, n)
    i = 0
    while i < n:
        x = l.items[i]
        if x < 0 or x > 255:
            raise ValueError("bytes must be in range(0, 256)")
        r.chars[i] = chr(x)
        i += 1
    return r


def ll_bytes_zeros(n):
    """bytes(n): n zero bytes (ValueError for a negative n)."""
    if n < 0:
        raise ValueError("negative count")
    r = malloc(BYTES, n)
    i = 0
    while i < n:
        r.chars[i] = chr(0)
        i += 1
    return r


def hl_next(it):
    """next() of an iterator built on others (enumerate, zip, dict items),
    annotated and rtyped for each iterator type: its function pointer
    lets these iterators nest and feed lists."""
    return next(it)


def ll_check_bytes_list(l):
    """The items of a bytearray: ValueError for one outside 0..255."""
    i = 0
    while i < l.length:
        x = l.items[i]
        if x < 0 or x > 255:
            raise ValueError("byte must be in range(0, 256)")
        i += 1


def ll_index_range(l, v, start, stop, eq):
    """l.index(v, start, stop): the bounds clamped as slice bounds."""
    n = l.length
    if start < 0:
        start += n
        if start < 0:
            start = 0
    if stop < 0:
        stop += n
        if stop < 0:
            stop = 0
    if stop > n:
        stop = n
    i = start
    while i < stop:
        if eq(l.items[i], v):
            return i
        i += 1
    # (CPython: '3 is not in list', made at run time)
    raise ValueError


def ll_extreme_or(l, lt, largest, default):
    """min(l, default=...) (max when largest)."""
    if l.length == 0:
        return default
    return ll_extreme(l, lt, largest)


def ll_extreme_key_or(l, key, lt, largest, default):
    """min(l, key=..., default=...) (max when largest)."""
    if l.length == 0:
        return default
    return ll_extreme_key(l, key, lt, largest)
