"""wordcount_file: word statistics of a text file read with the built-in
`open()` (rpy3 translates it into rpy3.stdlib.fileio).

Source: written for rpy3 (no original).
Licence: the project's own.

Usage: wordcount_file.py [TOP [PATH]]: prints the number of lines, words,
characters and bytes of the file PATH (by default the program's own source,
argv[0]), its longest line and its TOP most frequent words (10 by
default).  The file is read three ways (line by line in text mode, whole in
text mode, whole in binary mode); the statistics are also written to a
report file under /tmp, read back and checked.  Its own source holds
some text that is not ASCII, to count: «naïve café — 日本語 ✓».
"""

# rpy3-args:
# rpy3-args: 3
# rpy3-args: 25


def is_word_char(c):
    return c.isalnum() or c == "_"


def split_words(line):
    words = []
    cur = []
    for c in line:
        if is_word_char(c):
            cur.append(c.lower())
        elif cur:
            words.append("".join(cur))
            cur = []
    if cur:
        words.append("".join(cur))
    return words


def count_key(item):
    return (-item[1], item[0])


def entry_point(argv):
    top = 10
    path = argv[0]
    if len(argv) > 1:
        top = int(argv[1])
    if len(argv) > 2:
        path = argv[2]

    counts = {}
    nlines = 0
    nwords = 0
    nblank = 0
    longest = ""
    longest_no = 0
    with open(path) as f:
        for line in f:
            nlines += 1
            text = line.rstrip("\n")
            if not text.strip():
                nblank += 1
            if len(text) > len(longest):
                longest = text
                longest_no = nlines
            for w in split_words(text):
                nwords += 1
                counts[w] = counts.get(w, 0) + 1

    f = open(path, "r")
    whole = f.read()
    f.close()
    with open(path, "rb") as b:
        raw = b.read()

    print("file: %s" % path.split("/")[-1])
    print("lines: %d (%d blank)" % (nlines, nblank))
    print("words: %d (%d different)" % (nwords, len(counts)))
    print("characters: %d" % len(whole))
    print("bytes: %d" % len(raw))
    print("same text both ways: %s" % (whole == raw.decode("utf-8")))
    print("longest line: %d (%d characters)" % (longest_no, len(longest)))
    print("  " + longest.strip())
    if nwords > 0:
        print("average word length: %.3f" % (
            sum([len(w) * n for w, n in counts.items()]) / nwords))
    items = sorted(counts.items(), key=count_key)
    print("top %d words:" % top)
    for w, n in items[:top]:
        print("%6d  %s" % (n, w))

    report = "/tmp/rpy3_wordcount_file_report_%d.txt" % top
    with open(report, "w") as out:
        out.write("@lines %d\n" % nlines)
        out.write("@words %d\n" % nwords)
        out.writelines(["%s %d\n" % (w, n) for w, n in items[:top]])
    back = {}
    with open(report) as inp:
        for line in inp.readlines():
            parts = line.split()
            back[parts[0]] = int(parts[1])
    ok = back["@lines"] == nlines and back["@words"] == nwords
    for w, n in items[:top]:
        if back[w] != n:
            ok = False
    print("report read back: %s" % ok)
    return 0


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    import sys
    sys.exit(entry_point(sys.argv))
