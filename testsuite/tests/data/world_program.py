"""Touches every function of the external-function table (used by
testsuite/tests/external.rs with a captured world)."""
import os
import sys
import time


def entry_point(argv):
    print("args:", len(argv), argv[1])
    print(1, 2.5, True, "x", sep=", ", end=";\n")
    print()
    print("to stderr", file=sys.stderr)
    n = sys.stdout.write("written\n")
    sys.stdout.flush()
    sys.stderr.write("err line\n")
    sys.stderr.flush()
    k = os.write(1, b"raw bytes\n")
    print(n, k)
    home = os.environ.get("RPY3_TEST_VAR")
    if home is None:
        print("unset")
    else:
        print("set to", home)
    print(os.environ.get("RPY3_OTHER", "default"))
    print(os.getenv("RPY3_TEST_VAR", "x"))
    t0 = time.time()
    p0 = time.perf_counter()
    m0 = time.monotonic()
    c0 = time.process_time()
    time.sleep(0.5)
    sys.setrecursionlimit(2000)
    print(time.time() - t0 >= 0.5, time.perf_counter() >= p0, time.monotonic() >= m0,
          time.process_time() >= c0)
    line = sys.stdin.readline()
    print("read", line.strip(), len(line))
    data = os.read(0, 3)
    print(len(data))  # 0: readline read ahead, as CPython's sys.stdin does
    path = argv[2]
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.write(fd, b"file contents")
    os.close(fd)
    fd = os.open(path, os.O_RDONLY)
    back = os.read(fd, 100)
    os.close(fd)
    print(back.decode("utf-8"))
    try:
        os.close(12345)
    except OSError:
        print("OSError")
    sys.exit(3)
    return 0
