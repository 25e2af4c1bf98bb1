"""Counters and defaultdicts of one factory whose keys differ in type: the
functions behind them get a graph per dict type."""
from collections import Counter, defaultdict

def run(n):
    words = ["a", "b", "a", "c"]
    c1 = Counter(words)
    c2 = Counter([(w, w) for w in words])
    c1.update(["a"])
    d1 = defaultdict(int)
    d2 = defaultdict(int)
    d3 = defaultdict(list)
    d4 = defaultdict(list)
    for w in words:
        d1[w] += 1
        d2[(w, n)] += 2
        d3[w].append(n)
        d4[n].append(w)
    return (c1["a"] + c2[("a", "a")], c1["zz"], c2[("q", "q")], str(c2.most_common(1)), sorted(d1.items()), sorted(d2.items()), sorted(d3.items()), sorted(d4.items()))

CASES = [(run, [0]), (run, [3])]
