"""Low-level helpers in the ll dialect (rpy3.lltype): run under CPython on
emulated objects, and translated through every stage."""
from rpy3.lltype import (GcStruct, GcArray, Array, Ptr, Signed, UniChar,
                         malloc, nullptr, GcForwardReference)
from rpy3.rlib.objectmodel import specialize

NODE = GcForwardReference()
NODE.become(GcStruct('Node', ('v', Signed), ('next', Ptr(NODE))))


def ll_build(n):
    head = nullptr(NODE)
    i = 0
    while i < n:
        p = malloc(NODE)
        p.v = i
        p.next = head
        head = p
        i += 1
    return head


def ll_sum(head):
    s = 0
    while head:
        s += head.v
        head = head.next
    return s


def linked(n):
    return ll_sum(ll_build(n))


STR = GcStruct('rpy_string', ('hash', Signed), ('chars', Array(UniChar)))


def ll_make(n):
    s = malloc(STR, n)
    i = 0
    while i < n:
        s.chars[i] = chr(97 + i % 26)
        i += 1
    return s


def ll_count(s, c):
    k = 0
    for i in range(len(s.chars)):
        if s.chars[i] == c:
            k += 1
    return k


def string_ops(n):
    s = ll_make(n)
    return (len(s.chars), ll_count(s, 'a'), s.chars[n - 1])


ARR = GcArray(Signed)
UARR = GcArray(UniChar)


def array_ops(n):
    a = malloc(ARR, n)
    for i in range(n):
        a[i] = i * i
    total = 0
    for i in range(n):
        total += a[i]
    try:
        a[n] = 1
    except IndexError:
        total = -total
    return total


@specialize.ll()
def ll_length(a):
    return len(a)


def generic_helper(n):
    return ll_length(malloc(ARR, n)) * 100 + ll_length(malloc(UARR, n + 1))


CASES = [
    (linked, [0]),
    (linked, [10]),
    (string_ops, [30]),
    (array_ops, [5]),
    (array_ops, [0]),
    (generic_helper, [3]),
]
