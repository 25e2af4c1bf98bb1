"""Call families (PyPy's normalizecalls): one call site reaching
functions, methods or classes whose signatures differ (defaults, *args,
__init__ arguments), through generated dispatchers; specialised functions
held in variables, attributes of frozen objects and classes as values,
identity of functions and classes, isinstance with a class variable."""
from rpy3.rlib.objectmodel import specialize, r_dict
from rpy3.rlib.rstring import StringBuilder

def f1(a, b=10):
    return a + b
def f2(a, b=20, c=3):
    return a * b + c
def f3(*args):
    return len(args)

def call_family(n):
    f = f1 if n > 0 else f2
    return f(n) + f(n, 2)

def star_family(n):
    g = f3 if n > 0 else f1
    return g(n, 1)

class Base(object):
    def __init__(self, x):
        self.x = x
    def m(self, a, b=1):
        return self.x + a + b
class Sub(Base):
    def __init__(self, x, y=5):
        Base.__init__(self, x)
        self.y = y
    def m(self, a, b=2, c=3):
        return self.x + a * b + c + self.y

def method_family(n):
    objs = [Base(n), Sub(n), Sub(n, 7)]
    total = 0
    for o in objs:
        total += o.m(1) + o.m(1, 4)
    return total

def init_family(n):
    cls = Base if n > 3 else Sub
    o = cls(n)
    return o.x

@specialize.argtype(0)
def double(x):
    return x + x

def spec_in_var(n):
    d = double
    return d(n) + len(d("ab"))

class Config(object):
    def __init__(self, scale):
        self.scale = scale
    def _freeze_(self):
        return True

SMALL = Config(2)
BIG = Config(10)

def frozen_attrs(n):
    c = SMALL if n < 5 else BIG
    return c.scale * n

class K1(object):
    tag = 1
class K2(K1):
    tag = 2

def class_values(n):
    k = K1 if n else K2
    return k.tag + (k is K1) + (k is not None)

R = range(3, 10, 2)
def prebuilt_range(n):
    return sum(R) + len(R) + R[n % len(R)]

def eq_fn(a, b):
    return a.lower() == b.lower()
def hash_fn(a):
    return len(a)
D = r_dict(eq_fn, hash_fn)
D["Ab"] = 1
def prebuilt_rdict(n):
    return D.get("aB", 0) + n

SB = StringBuilder()
SB.append("pre")
def prebuilt_builder(n):
    return SB.getlength() + n

def fn_identity(n):
    f = f1 if n else f2
    return (f is f1, f == f2, f is not None)

class It(object):
    def __init__(self, n):
        self.i = 0
        self.n = n
    def __iter__(self):
        return self
    def __next__(self):
        if self.i >= self.n:
            raise StopIteration
        self.i += 1
        return self.i

def iter_instance(n):
    return sum(It(n)) + len([x for x in It(n)])

def isinst_var(n):
    cls = K1 if n else K2
    return isinstance(K2(), cls), isinstance(K1(), cls)

CASES = [
    (call_family, [3]), (call_family, [-3]),
    (star_family, [3]), (star_family, [-3]),
    (method_family, [4]),
    (init_family, [5]), (init_family, [1]),
    (spec_in_var, [4]),
    (frozen_attrs, [3]), (frozen_attrs, [7]),
    (class_values, [1]), (class_values, [0]),
    (fn_identity, [1]), (fn_identity, [0]),
    (isinst_var, [1]), (isinst_var, [0]),
]
