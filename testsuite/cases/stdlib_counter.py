"""`collections.Counter`: counting an iterable, missing keys reading 0
(without being added), `most_common()` (largest counts first, ties in
insertion order), `elements()`, `total()`, `update()`, `subtract()`, and
the text `Counter({...})` in most-common order."""
from collections import Counter
import collections

def counting(n):
    words = "the cat and the dog and the bird".split()[:n]
    c = Counter(words)
    out = [str(c), repr(Counter()), str(c["the"]), str(c["zebra"]), str(len(c))]
    out.append(str(c.most_common(2)))
    out.append(str(c.most_common()))
    c.update(["cat", "cat"])
    c["new"] += 2
    out.append(str(c))
    out.append(str(sorted(c.elements())))
    out.append(str(c.total()))
    d = collections.Counter("mississippi")
    out.append(str(d))
    d.subtract("ss")
    out.append(str(d))
    nums = Counter([3, 1, 3, 2, 1, 3])
    out.append("%s" % nums)
    for k, v in nums.most_common():
        out.append("%d:%d" % (k, v))
    out.append(str("dog" in c))
    return out


def word_stats(text):
    counts = Counter()
    for w in text.split():
        counts[w.lower()] += 1
    top = counts.most_common(2)
    del counts[top[0][0]]
    print(counts)
    return [w + "=" + str(n) for w, n in top]


CASES = [
    (counting, [8]),
    (counting, [3]),
    (word_stats, ["a b A c b a d"]),
]
