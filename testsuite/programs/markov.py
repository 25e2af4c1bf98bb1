# rpy3-args: 400
"""Markov chain text generator (order 1 and 2) with a fixed random seed,
word statistics with Counter, string formatting and text wrapping.

Source: written for rpy3's own test suite (2026-11), not a port; it tries rpy3 on a program written the way a Python programmer who knows RPython's rules writes one. Unchanged since it was written.
"""
import sys
import random
from collections import Counter, defaultdict, OrderedDict

CORPUS = """It was the best of times, it was the worst of times, it was the age of
wisdom, it was the age of foolishness, it was the epoch of belief, it was the
epoch of incredulity, it was the season of Light, it was the season of
Darkness, it was the spring of hope, it was the winter of despair, we had
everything before us, we had nothing before us, we were all going direct to
Heaven, we were all going direct the other way. In short, the period was so
far like the present period, that some of its noisiest authorities insisted on
its being received, for good or for evil, in the superlative degree of
comparison only. There were a king with a large jaw and a queen with a plain
face, on the throne of England; there were a king with a large jaw and a queen
with a fair face, on the throne of France."""


def tokenize(text):
    words = []
    for raw in text.split():
        w = raw.strip(".,;:!?").lower()
        if w:
            words.append(w)
        if raw[-1] in ".;":
            words.append("<end>")
    return words


class MarkovModel:
    def __init__(self, order):
        self.order = order
        self.table = defaultdict(Counter)
        self.starts = []

    def train(self, words):
        state = tuple(["<start>"] * self.order)
        self.starts.append(state)
        for w in words:
            self.table[state][w] += 1
            if w == "<end>":
                state = tuple(["<start>"] * self.order)
            else:
                state = state[1:] + (w,)

    def choose(self, rng, state):
        counts = self.table.get(state)
        if counts is None:
            return "<end>"
        options = sorted(counts.items())
        total = sum([c for _, c in options])
        r = rng.randrange(total)
        for word, c in options:
            if r < c:
                return word
            r -= c
        return options[-1][0]

    def sentence(self, rng, max_words):
        state = tuple(["<start>"] * self.order)
        out = []
        while len(out) < max_words:
            w = self.choose(rng, state)
            if w == "<end>":
                break
            out.append(w)
            state = state[1:] + (w,)
        if not out:
            return ""
        text = " ".join(out)
        return text[0].upper() + text[1:] + "."

    def entropy_stats(self):
        branching = [len(c) for c in self.table.values()]
        return len(self.table), max(branching), sum(branching) / len(branching)


def wrap(text, width):
    lines = []
    line = ""
    for w in text.split():
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = line + " " + w if line else w
    if line:
        lines.append(line)
    return lines


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 100
    words = tokenize(CORPUS)
    freq = Counter([w for w in words if w != "<end>"])
    print("tokens:", len(words), "distinct:", len(freq))
    print("top:", freq.most_common(6))
    lengths = Counter([len(w) for w in freq])
    print("length histogram:", sorted(lengths.items()))
    bigrams = Counter(zip(words, words[1:]))
    top_bi = sorted(bigrams.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    print("top bigrams:", ["%s %s:%d" % (a, b, c) for (a, b), c in top_bi])
    first_seen = OrderedDict()
    for i, w in enumerate(words):
        if w not in first_seen:
            first_seen[w] = i
    print("first seen (last 4):", list(first_seen.items())[-4:])
    for order in (1, 2):
        model = MarkovModel(order)
        model.train(words)
        states, maxb, meanb = model.entropy_stats()
        print("order %d: %d states, max branching %d, mean %.3f" % (order, states, maxb, meanb))
        rng = random.Random(1234 + order)
        for k in range(3):
            s = model.sentence(rng, 30)
            for line in wrap(s, 60):
                print("   |" + line.ljust(60) + "|")
        gen_words = Counter()
        total_len = 0
        for k in range(n):
            s = model.sentence(rng, 40)
            ws = s.rstrip(".").lower().split()
            total_len += len(ws)
            gen_words.update(ws)
        print("   %d sentences, mean length %.2f, vocab %d, top %s" % (
            n, total_len / n, len(gen_words), gen_words.most_common(3)))
    random.seed(7)
    shuffled = list(freq.keys())
    shuffled.sort()
    random.shuffle(shuffled)
    print("shuffled head:", shuffled[:6])
    print("sample:", sorted(random.sample(sorted(freq), 5)), "choice:", random.choice(words))
    title = "a tale of two cities"
    print(title.title(), "|", title.capitalize(), "|", title.center(26, "*"), "|", title.replace("o", "0", 2))
    print("%5.1f%% of tokens are 'it'" % (100.0 * freq["it"] / len(words)), freq["zebra"])
    return 0


def entry_point(argv):
    return main(argv)


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    sys.exit(entry_point(sys.argv))
