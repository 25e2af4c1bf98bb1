# rpy3-args: 300
"""String algorithms: KMP failure function, Z-function, suffix array by
sorting plus LCP (Kasai), longest common subsequence with reconstruction,
edit distance with alignment, Manacher palindromes, rolling-hash search.

Source: written for rpy3's own test suite (2026-11), not a port; it tries rpy3 on a program written the way a Python programmer who knows RPython's rules writes one. Unchanged since it was written.
"""
import sys


def kmp_table(p):
    fail = [0] * len(p)
    k = 0
    for i in range(1, len(p)):
        while k > 0 and p[i] != p[k]:
            k = fail[k - 1]
        if p[i] == p[k]:
            k += 1
        fail[i] = k
    return fail


def kmp_search(text, p):
    if not p:
        return list(range(len(text) + 1))
    fail = kmp_table(p)
    res = []
    k = 0
    for i, ch in enumerate(text):
        while k > 0 and ch != p[k]:
            k = fail[k - 1]
        if ch == p[k]:
            k += 1
        if k == len(p):
            res.append(i - k + 1)
            k = fail[k - 1]
    return res


def z_function(s):
    n = len(s)
    z = [0] * n
    if n:
        z[0] = n
    l = r = 0
    for i in range(1, n):
        if i < r:
            z[i] = min(r - i, z[i - l])
        while i + z[i] < n and s[z[i]] == s[i + z[i]]:
            z[i] += 1
        if i + z[i] > r:
            l, r = i, i + z[i]
    return z


def suffix_array(s):
    return sorted(range(len(s)), key=lambda i: s[i:])


def lcp_kasai(s, sa):
    n = len(s)
    rank = [0] * n
    for i, p in enumerate(sa):
        rank[p] = i
    lcp = [0] * n
    h = 0
    for i in range(n):
        if rank[i] > 0:
            j = sa[rank[i] - 1]
            while i + h < n and j + h < n and s[i + h] == s[j + h]:
                h += 1
            lcp[rank[i]] = h
            if h > 0:
                h -= 1
        else:
            h = 0
    return lcp


def longest_repeat(s):
    if len(s) < 2:
        return ""
    sa = suffix_array(s)
    lcp = lcp_kasai(s, sa)
    best = max(range(len(s)), key=lambda i: (lcp[i], -i))
    return s[sa[best]:sa[best] + lcp[best]]


def lcs(a, b):
    m, n = len(a), len(b)
    dp = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(m - 1, -1, -1):
        for j in range(n - 1, -1, -1):
            if a[i] == b[j]:
                dp[i][j] = dp[i + 1][j + 1] + 1
            else:
                dp[i][j] = max(dp[i + 1][j], dp[i][j + 1])
    out = []
    i = j = 0
    while i < m and j < n:
        if a[i] == b[j]:
            out.append(a[i])
            i += 1
            j += 1
        elif dp[i + 1][j] >= dp[i][j + 1]:
            i += 1
        else:
            j += 1
    return "".join(out)


def edit_distance(a, b):
    m, n = len(a), len(b)
    dp = [[0] * (n + 1) for _ in range(m + 1)]
    for i in range(m + 1):
        dp[i][0] = i
    for j in range(n + 1):
        dp[0][j] = j
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            dp[i][j] = min(dp[i - 1][j] + 1, dp[i][j - 1] + 1, dp[i - 1][j - 1] + cost)
    # alignment
    top, mid, bot = [], [], []
    i, j = m, n
    while i > 0 or j > 0:
        if i > 0 and j > 0 and dp[i][j] == dp[i - 1][j - 1] + (0 if a[i - 1] == b[j - 1] else 1):
            top.append(a[i - 1])
            bot.append(b[j - 1])
            mid.append("|" if a[i - 1] == b[j - 1] else "x")
            i -= 1
            j -= 1
        elif i > 0 and dp[i][j] == dp[i - 1][j] + 1:
            top.append(a[i - 1])
            bot.append("-")
            mid.append(" ")
            i -= 1
        else:
            top.append("-")
            bot.append(b[j - 1])
            mid.append(" ")
            j -= 1
    return dp[m][n], ("".join(reversed(top)), "".join(reversed(mid)), "".join(reversed(bot)))


def manacher(s):
    t = "^#" + "#".join(s) + "#$"
    p = [0] * len(t)
    c = r = 0
    for i in range(1, len(t) - 1):
        if i < r:
            p[i] = min(r - i, p[2 * c - i])
        while t[i + 1 + p[i]] == t[i - 1 - p[i]]:
            p[i] += 1
        if i + p[i] > r:
            c, r = i, i + p[i]
    best = max(range(len(p)), key=lambda i: (p[i], -i))
    start = (best - p[best]) // 2
    return s[start:start + p[best]]


def rabin_karp(text, pat, base=257, mod=1000000007):
    m = len(pat)
    if m > len(text):
        return []
    hp = 0
    ht = 0
    power = pow(base, m - 1, mod)
    for i in range(m):
        hp = (hp * base + ord(pat[i])) % mod
        ht = (ht * base + ord(text[i])) % mod
    res = []
    for i in range(len(text) - m + 1):
        if hp == ht and text[i:i + m] == pat:
            res.append(i)
        if i + m < len(text):
            ht = ((ht - ord(text[i]) * power) * base + ord(text[i + m])) % mod
    return res


def fib_word(n):
    a, b = "a", "ab"
    for _ in range(n):
        a, b = b, b + a
    return b


def main(argv):
    n = int(argv[1]) if len(argv) > 1 else 100
    print("kmp table:", kmp_table("abacabab"), kmp_table("aaaa"))
    text = "abracadabra abracadabra"
    for p in ["abra", "cad", "zzz", "a"]:
        a = kmp_search(text, p)
        b = rabin_karp(text, p)
        c = [i for i in range(len(text)) if text.startswith(p, i)]
        print("%-5s %s agree=%s find=%d rfind=%d count=%d" % (p, a, a == b == c, text.find(p), text.rfind(p), text.count(p)))
    print("z:", z_function("aabxaabxcaabxaabxay"))
    s = "banana"
    sa = suffix_array(s)
    print("sa:", sa, [s[i:] for i in sa], "lcp:", lcp_kasai(s, sa))
    print("longest repeat:", repr(longest_repeat("mississippi")), repr(longest_repeat(text)), repr(longest_repeat("x")))
    for a, b in [("AGGTAB", "GXTXAYB"), ("kitten", "sitting"), ("", "abc"), ("intention", "execution")]:
        d, (top, mid, bot) = edit_distance(a, b)
        print("lcs(%r,%r)=%r  edit=%d" % (a, b, lcs(a, b), d))
        print("    " + top + "\n    " + mid + "\n    " + bot)
    for w in ["babad", "forgeeksskeegfor", "abacdfgdcaba", "a", "noonracecar"]:
        print("longest palindrome in %-18s = %s" % (w, manacher(w)))
    fw = fib_word(n // 20 + 5)
    print("fib word len", len(fw), "repeat len", len(longest_repeat(fw[:n * 2])), "z-sum", sum(z_function(fw[:n * 4])))
    words = text.split() + ["Zebra", "apple", "Éclair", "mango"]
    print(sorted(words), sorted(words, key=str.lower), sorted(words, key=len, reverse=True))
    print("|".join([w.rjust(12, ".") for w in words[:3]]), "swapcase:", "Hello World".swapcase())
    print("split/join:", "a,b,,c".split(","), "  x  y ".strip().split(" "), "k=v=w".split("=", 1), "a b c".rsplit(" ", 1))
    print("predicates:", "abc".isalpha(), "123".isdigit(), "ab12".isalnum(), " \t".isspace(), "Title Case".istitle(), "low".islower())
    print("misc:", "-".join(reversed("stressed")), "stressed"[::-1], "abcdef"[1:5:2], "x".join("123"), "%c%c" % (72, 105))
    total = 0
    for k in range(n):
        a = fib_word(k % 6 + 2)
        b = a[::-1]
        total += edit_distance(a, b)[0] + len(lcs(a, b))
    print("checksum", total)
    return 0


def entry_point(argv):
    return main(argv)


def target(*args):
    return entry_point, None


if __name__ == "__main__":
    sys.exit(entry_point(sys.argv))
