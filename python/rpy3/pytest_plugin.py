"""The pytest plugin of rpy3 (registered through the `pytest11` entry point
when the package is installed): a test taking the `interp` fixture runs its
RPython functions translated, once per backend.

    import pytest

    def fib(n):
        a, b = 0, 1
        for _ in range(n):
            a, b = b, a + b
        return a

    @pytest.mark.rpy3(backends=["llinterp", "c"])
    def test_fib(interp):
        assert interp(fib, 10) == 55

`interp(f, *args)` translates `f` for arguments of the types of `args` and
runs it on the test's backend; `interp.raises(ExcClass, f, *args)` checks
that it raises; `interp.backend` (or the `rpy3_backend` fixture) names the
backend.  Without the marker a test runs on `llinterp`; the command-line
option `--rpy3-backends=llinterp,c` replaces every test's list.  Backends:
`flow` (the flow graphs interpreted on Python objects), `llinterp`, and the
compiled `c`, `native`, `c-gcstress`, `native-gcstress`.
"""

import pytest

from rpy3 import interpret
from rpy3.translation import COMPILED_BACKENDS

INTERPRETED_BACKENDS = ("flow", "llinterp")
BACKENDS = INTERPRETED_BACKENDS + COMPILED_BACKENDS
DEFAULT_BACKENDS = ["llinterp"]


def pytest_addoption(parser):
    group = parser.getgroup("rpy3")
    group.addoption(
        "--rpy3-backends",
        metavar="B1,B2",
        default=None,
        help="run every test using the interp fixture on these rpy3 backends "
        f"(overrides @pytest.mark.rpy3; one of: {', '.join(BACKENDS)})",
    )


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "rpy3(backends=['llinterp', 'c']): run the test once per rpy3 backend "
        "(through the interp / rpy3_backend fixtures)",
    )
    option = config.getoption("--rpy3-backends")
    if option is not None:
        _check(_split(option), "--rpy3-backends")


def pytest_report_header(config):
    option = config.getoption("--rpy3-backends")
    if option is not None:
        return f"rpy3 backends: {', '.join(_split(option))}"
    return None


def _split(text):
    return [b.strip() for b in text.split(",") if b.strip()]


def _check(backends, where):
    unknown = [b for b in backends if b not in BACKENDS]
    if unknown or not backends:
        raise pytest.UsageError(
            f"{where}: unknown rpy3 backend {', '.join(map(repr, unknown)) or '(none given)'} "
            f"(expected some of: {', '.join(BACKENDS)})"
        )
    return backends


def _backends_of(config, marker):
    option = config.getoption("--rpy3-backends")
    if option is not None:
        return _split(option)
    if marker is None:
        return list(DEFAULT_BACKENDS)
    backends = marker.kwargs.get("backends", list(marker.args))
    if isinstance(backends, str):
        backends = _split(backends)
    return _check(list(backends), "@pytest.mark.rpy3")


def pytest_generate_tests(metafunc):
    marker = metafunc.definition.get_closest_marker("rpy3")
    if "rpy3_backend" not in metafunc.fixturenames:
        if marker is not None:
            raise pytest.UsageError(
                f"{metafunc.definition.nodeid}: @pytest.mark.rpy3 needs a test taking the "
                "interp or rpy3_backend fixture"
            )
        return
    backends = _backends_of(metafunc.config, marker)
    metafunc.parametrize("rpy3_backend", backends, indirect=True, ids=backends)


@pytest.fixture
def rpy3_backend(request):
    """The name of the backend this run of the test uses."""
    return getattr(request, "param", DEFAULT_BACKENDS[0])


@pytest.fixture
def interp(rpy3_backend):
    """`interp(f, *args)`: `f(*args)` translated and run on the test's backend."""
    return Interp(rpy3_backend)


class Interp:
    """Runs RPython functions translated by one backend."""

    def __init__(self, backend):
        self.backend = backend

    def __repr__(self):
        return f"<rpy3 interp on {self.backend}>"

    def __call__(self, f, *args):
        """`f(*args)` translated for arguments of these types; an exception
        the program raises is raised again (for the compiled backends, an
        instance of its class without its arguments): `rpy3.interpret`."""
        return interpret(f, list(args), backend=self.backend)

    def raises(self, exc, f, *args):
        """Checks that translated `f(*args)` raises `exc` (or a subclass);
        the exception."""
        try:
            value = self(f, *args)
        except exc as e:
            return e
        raise AssertionError(
            f"{f.__name__} did not raise {exc.__name__} on {self.backend}: it returned {value!r}"
        )

