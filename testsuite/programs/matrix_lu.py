# rpy3-args: 40
"""A small matrix library: operator overloading, LU decomposition with
partial pivoting, determinant, inverse, solving, and float formatting.

Source: written for rpy3's own test suite (2026-11), not a port; it tries rpy3 on a program written the way a Python programmer who knows RPython's rules writes one. Unchanged since it was written.
"""
import sys
import math


class SingularMatrix(Exception):
    pass


class Matrix:
    def __init__(self, rows, cols, data=None):
        self.rows = rows
        self.cols = cols
        if data is None:
            self.data = [0.0] * (rows * cols)
        else:
            assert len(data) == rows * cols
            self.data = data

    @staticmethod
    def identity(n):
        m = Matrix(n, n)
        for i in range(n):
            m[i, i] = 1.0
        return m

    @classmethod
    def from_rows(cls, rows):
        data = []
        for r in rows:
            data.extend(r)
        return cls(len(rows), len(rows[0]), data)

    def __getitem__(self, key):
        i, j = key
        return self.data[i * self.cols + j]

    def __setitem__(self, key, value):
        i, j = key
        self.data[i * self.cols + j] = value

    def __add__(self, other):
        return Matrix(self.rows, self.cols, [a + b for a, b in zip(self.data, other.data)])

    def __sub__(self, other):
        return Matrix(self.rows, self.cols, [a - b for a, b in zip(self.data, other.data)])

    def __mul__(self, other):
        if self.cols != other.rows:
            raise ValueError("shape mismatch %dx%d * %dx%d" % (self.rows, self.cols, other.rows, other.cols))
        out = Matrix(self.rows, other.cols)
        for i in range(self.rows):
            for k in range(self.cols):
                a = self[i, k]
                if a == 0.0:
                    continue
                for j in range(other.cols):
                    out.data[i * other.cols + j] += a * other.data[k * other.cols + j]
        return out

    def scale(self, s):
        return Matrix(self.rows, self.cols, [a * s for a in self.data])

    def transpose(self):
        t = Matrix(self.cols, self.rows)
        for i in range(self.rows):
            for j in range(self.cols):
                t[j, i] = self[i, j]
        return t

    def __eq__(self, other):
        return self.rows == other.rows and self.cols == other.cols and self.data == other.data

    def __len__(self):
        return self.rows

    def row(self, i):
        return self.data[i * self.cols:(i + 1) * self.cols]

    def __iter__(self):
        for i in range(self.rows):
            yield self.row(i)

    def norm(self):
        return math.sqrt(sum([a * a for a in self.data]))

    def max_abs_diff(self, other):
        return max([abs(a - b) for a, b in zip(self.data, other.data)])

    def __str__(self):
        return "\n".join(["[" + " ".join(["%10.6f" % v for v in r]) + "]" for r in self])


class LU:
    def __init__(self, m):
        if m.rows != m.cols:
            raise ValueError("LU needs a square matrix")
        n = m.rows
        self.n = n
        self.a = Matrix(n, n, list(m.data))
        self.perm = list(range(n))
        self.sign = 1
        a = self.a
        for k in range(n):
            p = max(range(k, n), key=lambda r: abs(a[r, k]))
            if abs(a[p, k]) < 1e-12:
                raise SingularMatrix("pivot %d is zero" % k)
            if p != k:
                for j in range(n):
                    a[k, j], a[p, j] = a[p, j], a[k, j]
                self.perm[k], self.perm[p] = self.perm[p], self.perm[k]
                self.sign = -self.sign
            for i in range(k + 1, n):
                a[i, k] /= a[k, k]
                f = a[i, k]
                for j in range(k + 1, n):
                    a[i, j] -= f * a[k, j]

    def det(self):
        d = float(self.sign)
        for i in range(self.n):
            d *= self.a[i, i]
        return d

    def solve(self, b):
        n = self.n
        y = [b[self.perm[i]] for i in range(n)]
        for i in range(n):
            for j in range(i):
                y[i] -= self.a[i, j] * y[j]
        x = [0.0] * n
        for i in range(n - 1, -1, -1):
            s = y[i]
            for j in range(i + 1, n):
                s -= self.a[i, j] * x[j]
            x[i] = s / self.a[i, i]
        return x

    def inverse(self):
        n = self.n
        inv = Matrix(n, n)
        for j in range(n):
            e = [0.0] * n
            e[j] = 1.0
            col = self.solve(e)
            for i in range(n):
                inv[i, j] = col[i]
        return inv


def hilbert(n):
    return Matrix(n, n, [1.0 / (i + j + 1) for i in range(n) for j in range(n)])


def pseudo_random_matrix(n, seed):
    data = []
    x = seed
    for _ in range(n * n):
        x = (x * 48271) % 2147483647
        data.append((x % 2001 - 1000) / 250.0)
    return Matrix(n, n, data)


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 30
    a = Matrix.from_rows([[2.0, -1.0, 0.0], [-1.0, 2.0, -1.0], [0.0, -1.0, 2.0]])
    lu = LU(a)
    print(a)
    print("det =", lu.det(), "perm =", lu.perm, "sign =", lu.sign)
    inv = lu.inverse()
    print(inv)
    print("A*inv == I ?", (a * inv).max_abs_diff(Matrix.identity(3)) < 1e-12)
    x = lu.solve([1.0, 0.0, 1.0])
    print("solve:", x, [repr(v) for v in x])
    for k in (2, 4, 6, 8):
        h = hilbert(k)
        d = LU(h).det()
        print("hilbert(%d) det=%.6e repr=%r 1/det=%.1f" % (k, d, d, 1.0 / d))
    try:
        LU(Matrix.from_rows([[1.0, 2.0], [2.0, 4.0]]))
    except SingularMatrix as e:
        print("singular:", e)
    try:
        a * Matrix(2, 2)
    except ValueError as e:
        print("error:", e)
    m = pseudo_random_matrix(n, 12345)
    lu = LU(m)
    d = lu.det()
    logdet = sum([math.log(abs(lu.a[i, i])) for i in range(n)])
    print("random %dx%d: sign(det)=%d log|det|=%.6f" % (n, n, 1 if d > 0 else -1, logdet))
    inv = lu.inverse()
    err = (m * inv).max_abs_diff(Matrix.identity(n))
    print("residual small:", err < 1e-8)
    b = [float(i % 7) - 3.0 for i in range(n)]
    xs = lu.solve(b)
    back = m * Matrix(n, 1, xs)
    print("solve residual small:", max([abs(back.data[i] - b[i]) for i in range(n)]) < 1e-8)
    t = m.transpose()
    print("det(A^T) ~ det(A):", abs(LU(t).det() / d - 1.0) < 1e-9)
    s = (m + t).scale(0.5)
    print("symmetric:", s == s.transpose(), "norm %.6f" % s.norm())
    print("first row:", ["%.3f" % v for v in s.row(0)[:5]])
    print("len", len(m), "formatted: {:>12.4e}|{:<9.3f}|{:+.2f}|{:08.3f}".format(d, 3.14159, 2.5, -1.5))
    vals = [0.1 + 0.2, 1e16, 1.5e-7, 123456789.0, -0.0, 2.0 ** 0.5, 1.0 / 3.0, 100.0]
    print([repr(v) for v in vals])
    print([str(v) for v in vals])
    print(["%g" % v for v in vals])
    print(round(2.675, 2), round(0.5), round(1.5), round(-2.5), int(-3.7), math.floor(-3.5))
    return 0


def entry_point(argv):
    return main(argv)


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    sys.exit(entry_point(sys.argv))
