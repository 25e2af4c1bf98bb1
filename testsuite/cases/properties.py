"""Properties: read through the getter, assigned through the setter, a
read-only computed property, a subclass overriding a property, a
property read inside the class's own methods."""


class Temperature:
    def __init__(self, celsius):
        self._c = celsius

    @property
    def celsius(self):
        return self._c

    @celsius.setter
    def celsius(self, value):
        if value < -273.15:
            raise ValueError("below absolute zero")
        self._c = value

    @property
    def fahrenheit(self):
        return self._c * 9.0 / 5.0 + 32.0

    def warmer(self, d):
        self.celsius = self.celsius + d
        return self.fahrenheit


class Shape:
    def __init__(self, n):
        self.n = n

    @property
    def area(self):
        return self.n * self.n

    def describe(self):
        return "area %d" % self.area


class Double(Shape):
    @property
    def area(self):
        return 2 * self.n * self.n


def temps(c):
    t = Temperature(c)
    out = [t.celsius, t.fahrenheit]
    t.celsius = c + 10.0
    out.append(t.fahrenheit)
    out.append(t.warmer(5.0))
    return out


def too_cold(c):
    # the setter's exception escapes (the flow space gives attribute
    # assignments no exception edges: an `except` around one would not
    # catch it)
    t = Temperature(0.0)
    t.celsius = c
    return t.celsius


def shapes(n):
    out = []
    for s in [Shape(n), Double(n)]:
        out.append(str(s.area))
        out.append(s.describe())
    return out


CASES = [
    (temps, [20.0]),
    (temps, [-40.0]),
    (too_cold, [-300.0]),
    (too_cold, [10.0]),
    (shapes, [3]),
]
