"""Class attributes the program assigns, read and written through a value
that is the class: a class method's `cls` (`cls.count += 1`,
`cls.next_id = v`), `type(self).count` and `type(x).count` for a class
and subclasses that share the attribute, a variable holding the class.
Before, such reads gave the class's initial constant."""


class Counter:
    count = 0
    next_id = 0

    def __init__(self):
        Counter.count += 1
        self.id = Counter.next_id
        Counter.next_id += 1

    @classmethod
    def total(cls):
        return cls.count

    @classmethod
    def reset(cls, start):
        cls.next_id = start
        cls.count = 0

    @classmethod
    def bump(cls):
        cls.count += 10
        return cls.count

    def seen(self):
        return type(self).count


class Sub(Counter):
    pass


class Registry:
    names = []
    size = 0

    @classmethod
    def register(cls, name):
        cls.names.append(name)
        cls.size = len(cls.names)


def through_cls(n):
    Counter.reset(0)
    for i in range(n):
        Counter()
    return (Counter.total(), Counter.bump(), Counter.count)


def ids_after_reset(n):
    Counter.reset(100)
    return [Counter().id for i in range(n)]


def type_of_instance(n):
    Counter.reset(0)
    objs = [Counter() for i in range(n)]
    s = Sub()
    return (objs[0].seen(), s.seen(), type(s).count, type(objs[-1]).count)


def class_variable(n):
    Counter.reset(0)
    k = Counter
    for i in range(n):
        k()
    return k.count + k.total()


def registry(n):
    for i in range(n):
        Registry.register("r%d" % i)
    return (Registry.size, len(Registry.names))


CASES = [
    (through_cls, [3]),
    (ids_after_reset, [3]),
    (type_of_instance, [2]),
    (class_variable, [4]),
    (registry, [3]),
]
