"""What a new user of the installed package does (run by
`scripts/test_package.sh` in a fresh venv, from outside the checkout):
`rpy3.interpret`, the pytest plugin's marker, and
`Translation(f, [int]).compile(backend="c")` called from Python."""

import os

import pytest

import rpy3
from rpy3 import Translation, interpret, interpret_raises
from rpy3.rlib.rarithmetic import intmask


def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def fib_wrapping(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, intmask(a + b)
    return a


class EmptyError(Exception):
    pass


def first(xs):
    if not xs:
        raise EmptyError
    return xs[0]


def first_positive(xs):
    for x in xs:
        if x > 0:
            return x
    raise EmptyError


def total(xs):
    s = 0
    for x in xs:
        s += x
    return s


def shout(word, times):
    print("shouting", word)
    return "-".join([word.upper()] * times)


def test_the_installed_package_is_the_one_under_test():
    # not the checkout's python/ directory: the extension comes with it
    assert os.path.exists(os.path.dirname(rpy3._native.__file__))
    assert "site-packages" in rpy3.__file__


def test_interpret():
    assert interpret(fib, [10]) == 55
    assert interpret(shout, ["ab", 3]) == "AB-AB-AB"
    assert interpret(first_positive, [[-1, 0, 5, 6]]) == 5
    assert isinstance(interpret_raises(EmptyError, first_positive, [[-1]]), EmptyError)
    # the llinterp's ints are machine words, unlike CPython's
    interpret_raises(OverflowError, fib, [100])
    assert interpret(fib_wrapping, [100]) == intmask(fib(100))
    # the compiled backends through the same call
    assert interpret(fib, [20], backend="c") == 6765
    interpret_raises(OverflowError, fib, [100], backend="native")


@pytest.mark.rpy3(backends=["llinterp", "c"])
def test_marker(interp, rpy3_backend):
    assert interp.backend == rpy3_backend
    assert interp(fib, 20) == 6765
    assert interp(total, [3, 4, 5]) == 12
    assert interp(first_positive, [-1, 0, 5, 6]) == 5
    assert isinstance(interp.raises(EmptyError, first_positive, [-1]), EmptyError)


def test_translation_compile_c(capsys):
    t = Translation(fib, [int])
    assert t.annotate() == "int+"  # fib's result is never negative
    assert t.rtype() == "Func(Signed) -> Signed"
    fib_c = t.compile(backend="c")
    assert fib_c(10) == 55
    assert fib_c(90) == 2880067194370816120
    # machine words: CPython's fib(100) does not fit
    with pytest.raises(OverflowError):
        fib_c(100)
    with pytest.raises(TypeError):
        fib_c("10")

    shout_c = Translation(shout, [str, int]).compile(backend="c")
    capsys.readouterr()
    assert shout_c("go", 2) == "GO-GO"
    assert capsys.readouterr().out == "shouting go\n"

    first_c = Translation(first, [[int]]).compile(backend="c")
    first_c.prebuild([([7, 8],), ([],)])  # one executable for both calls
    assert first_c([7, 8]) == 7
    with pytest.raises(EmptyError):
        first_c([])


def test_view(tmp_path):
    path = Translation(total, [[int]]).view(tmp_path / "total.txt")
    text = open(path).read()
    assert "# annotated flow graphs" in text and "# low-level graphs" in text
    assert "total" in text


def test_not_rpython():
    def mixed(n):
        return n + "x"

    with pytest.raises(RuntimeError, match="rpy3: .*add"):
        Translation(mixed, [int]).compile(backend="c")
