"""Slice bounds at the low level, shared by the string and list helpers."""


def ll_slice_bounds(n, start, stop, step, nones):
    """(start, step, count) of `x[start:stop:step]` on a sequence of
    length n, as `slice.indices()` computes them; nones has bits 1, 2, 4
    set when start, stop, step are None.  A zero step raises
    ValueError."""
    if nones & 4:
        step = 1
    if step == 0:
        raise ValueError("slice step cannot be zero")
    if nones & 1:
        start = n - 1 if step < 0 else 0
    elif start < 0:
        start += n
        if start < 0:
            start = -1 if step < 0 else 0
    elif start >= n:
        start = n - 1 if step < 0 else n
    if nones & 2:
        stop = -1 if step < 0 else n
    elif stop < 0:
        stop += n
        if stop < 0:
            stop = -1 if step < 0 else 0
    elif stop >= n:
        stop = n - 1 if step < 0 else n
    if step > 0:
        count = 0 if stop <= start else (stop - start - 1) // step + 1
    elif start <= stop:
        count = 0
    elif step <= -n:
        # one item (and no negation of a step that may be minint)
        count = 1
    else:
        count = (start - stop - 1) // (-step) + 1
    return (start, step, count)


def ll_clamp(start, stop, n):
    """(start, stop) of `x[start:stop]` clamped to [0, n], start <= stop."""
    if start < 0:
        start += n
        if start < 0:
            start = 0
    elif start > n:
        start = n
    if stop < 0:
        stop += n
        if stop < 0:
            stop = 0
    elif stop > n:
        stop = n
    if stop < start:
        stop = start
    return (start, stop)
