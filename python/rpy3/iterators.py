"""The built-in lazy iterators `map()` and `filter()` as RPython: the flow
space calls these generator functions instead of the built-ins.  Each is
specialised per call site, so every `map(f, xs)` gets its own graphs typed
for its function and items.  The argument is made an iterator at the call,
as the built-ins do."""


def rpy_map(func, iterable):
    return _map_items(func, iter(iterable))


rpy_map._annspecialcase_ = "specialize:call_location"


def _map_items(func, it):
    for x in it:
        yield func(x)


_map_items._annspecialcase_ = "specialize:call_location"


def rpy_map2(func, iterable1, iterable2):
    return _map_pairs(func, iter(iterable1), iter(iterable2))


rpy_map2._annspecialcase_ = "specialize:call_location"


def _map_pairs(func, it1, it2):
    for x, y in zip(it1, it2):
        yield func(x, y)


_map_pairs._annspecialcase_ = "specialize:call_location"


def rpy_filter(func, iterable):
    if func is None:
        return _filter_true(iter(iterable))
    return _filter_items(func, iter(iterable))


rpy_filter._annspecialcase_ = "specialize:call_location"


def _filter_true(it):
    for x in it:
        if x:
            yield x


_filter_true._annspecialcase_ = "specialize:call_location"


def _filter_items(func, it):
    for x in it:
        if func(x):
            yield x


_filter_items._annspecialcase_ = "specialize:call_location"
