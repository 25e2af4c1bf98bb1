"""Found by `rpy3 fuzz`: an override returning a one-character string
where the base method returns a longer one (or the reverse).  Whether the
methods could share one dispatcher depended on the order of the cases; now
they go through the generated dispatcher, which returns a string."""


class A:
    def name(self):
        return 'b'


class B(A):
    def name(self):
        return ''


class C(A):
    def name(self):
        return 'long'


def override_char_vs_str(x):
    o = A() if x > 0 else B()
    return o.name()


def three_overrides(x):
    if x > 1:
        o = C()
    elif x > 0:
        o = A()
    else:
        o = B()
    return o.name() + '|'


CASES = [
    (override_char_vs_str, [1]),
    (override_char_vs_str, [0]),
    (three_overrides, [2]),
    (three_overrides, [1]),
    (three_overrides, [0]),
]
