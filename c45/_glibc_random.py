"""glibc's random(), which c4.5rules' subset search and windowing's shuffles draw from."""


class GlibcRandom:
    """glibc's ``random()``/``srandom()`` with the default TYPE_3 state.

    The additive feedback generator as glibc documents and implements it: the
    34-word state is seeded by ``r[0] = seed`` and ``r[i] = 16807 * r[i-1] mod
    (2**31 - 1)`` (Schrage's method, C truncating division) for ``i = 1..30``,
    ``r[i] = r[i-31]`` for ``i = 31..33``; then ``r[i] = r[i-31] + r[i-3] (mod
    2**32)``, the first 310 words are discarded and each output is the word shifted
    right by one bit. A never-seeded program behaves as ``srandom(1)``; seed 0 also
    means 1.

    >>> g = GlibcRandom(1)
    >>> [g.random() for _ in range(3)]
    [1804289383, 846930886, 1681692777]
    """

    def __init__(self, seed=1):
        self.seed(seed)

    def seed(self, seed=1):
        seed = int(seed) & 0xFFFFFFFF
        if seed == 0:
            seed = 1
        word = seed - (1 << 32) if seed >= 1 << 31 else seed       # int32_t
        r = [seed]
        for _ in range(1, 31):
            hi = int(word / 127773)                  # C division truncates
            lo = word - hi * 127773
            word = 16807 * lo - 2836 * hi
            if word < 0:
                word += 2147483647
            r.append(word & 0xFFFFFFFF)
        for i in range(31, 34):
            r.append(r[i - 31])
        self._r = r                  # the last 34 words
        self._i = 0                  # position of the oldest word in the ring
        for _ in range(310):
            self._next()

    def _next(self):
        r, i = self._r, self._i
        # the ring holds r[n-34..n-1] with r[n-34] at i; r[n-31] is at i+3, r[n-3] at i+31
        word = (r[(i + 3) % 34] + r[(i + 31) % 34]) & 0xFFFFFFFF
        r[i] = word
        self._i = (i + 1) % 34
        return word

    def random(self):
        """The next ``random()`` value, in ``[0, 2**31)``."""
        return self._next() >> 1

    def uniform(self):
        """``(random() & 0x7fffffff) / 2**31``, the draw c4.5rules uses (§11.4)."""
        return (self.random() & 0x7FFFFFFF) / 2147483648.0
