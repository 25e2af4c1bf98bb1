"""`unrolling_iterable`, as RPython's `rpython.rlib.unroll`: a constant
sequence that a `for` loop iterates over at translation time, so that
the body is copied once per item with the item a constant in each copy
(`for name in unrolling_opcodes: if op == name: getattr(self, 'op_' +
name)(...)`)."""


class unrolling_iterable(object):
    """A constant sequence whose loops the flow space unrolls."""

    _rpy3_unroll_ = True

    def __init__(self, iterable):
        self._items = tuple(iterable)

    def __iter__(self):
        return iter(self._items)

    def __len__(self):
        return len(self._items)

    def __getitem__(self, i):
        return self._items[i]

    def _freeze_(self):
        return True

    def get_unroller(self):
        """RPython's name for the items."""
        return self._items
