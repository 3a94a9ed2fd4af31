"""c4.5rules' description lengths (§11.1, §11.4) and the search, per class, for
the subset of its rules with the shortest description: every subset, or the
greedy search from glibc's random() draws."""
import math

import numpy as np

from c45 import _ranks
from c45.rules import _match

_LN2 = _match.LN2
_EXHAUSTIVE_MAX = 10          # classes with more rules get the greedy search
_GREEDY_TRIALS = 11           # trials t = 0..10, inclusion probability t/10
# Simulated annealing (-a): the temperature starts at _ANNEAL_START and is multiplied
# by _ANNEAL_COOLING after each accepted toggle; the search stops when it is no
# longer above _ANNEAL_STOP or after _ANNEAL_REJECTIONS rejected toggles in a row.
_ANNEAL_START, _ANNEAL_COOLING, _ANNEAL_STOP, _ANNEAL_REJECTIONS = 1000.0, 0.95, 0.001, 100


def _r32(f32, x):
    """Store x as C4.5 stores a float: binary32 in float32 mode."""
    return float(np.float32(x)) if f32 else float(x)


def _log2(x):
    return math.log(x) / _LN2


def _bitsets(masks):
    """Each row of a boolean (rows, cases) array as a Python int (bit i = case i)."""
    return _ints(_packed(masks))


def _packed(masks):
    """A boolean (rows, cases) array's rows as pack_bits packs them."""
    return _match.pack_bits(np.ascontiguousarray(masks, dtype=bool).view(np.uint8))


def _ints(packed):
    """Each of pack_bits' rows as a Python int (bit i = case i)."""
    return [int.from_bytes(row.tobytes(), "little") for row in packed]


class _Lengths:
    """The code-length tables of §11.1: ``log2i(i)`` is λ(i) = r32(log2 i) with
    λ(0) = -1e38; ``log2fact(i)`` is Λ(i) = λ(1) + ... + λ(i), summed in binary64."""

    def __init__(self, f32):
        self.f32 = f32
        self._cum = [0.0]

    def log2i(self, i):
        return -1e38 if i <= 0 else _r32(self.f32, _log2(i))

    def log2fact(self, i):
        cum = self._cum
        while len(cum) <= i:
            cum.append(cum[-1] + self.log2i(len(cum)))
        return cum[i]


def _attribute_bits(cont, codes, schema, n, lengths, f32):
    """Per-attribute branch bits and AttTestBits (§11.1), over all N cases."""
    bits = np.zeros(schema.n_features)
    n_values = schema.n_values
    for f in range(schema.n_features):
        if schema.discrete[f]:
            counts = np.bincount(codes[schema.col[f]], minlength=n_values[f] + 1)
            s = 0.0
            for v in range(1, len(counts)):
                nv = int(counts[v])
                if nv > 0:
                    s += (nv / n) * (lengths.log2i(n) - lengths.log2i(nv))
            bits[f] = _r32(f32, s)
        else:
            # an unknown value counts as -999 (Q12); one compiled pass (np.unique's
            # sort of a long column cannot be interrupted)
            p = _ranks.count_distinct(cont[schema.col[f]], -999.0)
            bits[f] = 0.0 if p <= 1 else _r32(f32, 1.0 + lengths.log2i(p) / 2.0)
    return bits, attribute_test_bits(bits, f32)


def attribute_test_bits(bits, f32):
    """AttTestBits (§11.1): the entropy of the attributes' share of their bits."""
    total = float(bits.sum())
    test_bits = 0.0
    if total > 0:
        for b in bits:
            if b > 0:
                p = b / total
                test_bits -= p * _log2(p)
    return _r32(f32, test_bits)


_EXACT_SHIFT = 1100          # bits are summed exactly, as integers times 2**-1100


def _exact(x):
    num, den = float(x).as_integer_ratio()
    return num * ((1 << _EXACT_SHIFT) // den)


class SubsetSearch:
    """The description cost of subsets of one class's rules, and the two searches.

    ``masks[i]`` holds the cases rule i fires on (all False for a rule that does
    not take part, Error > 0.7; with ``packed``, as bits: ``_match.pack_bits``'
    rows), ``bits[i]`` its description length, ``in_class`` the cases of the
    class. The cost of a subset is
    ``0.5 * (sum of its bits - log2(#rules!)) + ExceptionBits(fires, FP, FN)``. The
    bits are summed exactly and rounded once (the specification does not give an
    order), so that a cost depends only on the subset, however it is reached.
    """

    def __init__(self, masks, bits, in_class, lengths, packed=False):
        self.in_class = np.asarray(in_class, dtype=bool)
        self.n = len(self.in_class)
        self.R = len(bits)
        # One matrix, rules x bytes of case bits (an eighth of a flag per case)
        self.cover = np.ascontiguousarray(masks, dtype=np.uint8) if packed else \
            _packed(np.asarray(masks, dtype=bool).reshape(self.R, self.n))
        if self.cover.shape != (self.R, (self.n + 7) // 8):
            raise ValueError("c45: SubsetSearch needs a row of the cases per rule")
        self.bit_values = np.array(bits, dtype=np.float64).reshape(self.R)
        self.bits = [_exact(b) for b in bits]
        self.lengths = lengths
        self.log2n = _log2(self.n) if self.n > 0 else 0.0

    def _mask(self, i):
        """The cases rule i covers, as flags."""
        return np.unpackbits(self.cover[i], count=self.n, bitorder="little").view(bool)

    def cost(self, bits_exact, n_sel, fires, fp, fn):
        return _match.description_cost(bits_exact / (1 << _EXACT_SHIFT),   # correctly rounded
                                       self.lengths.log2fact(n_sel), self.log2n, self.n,
                                       fires, fp, fn)

    def _scale(self):
        """The power of two that makes every rule's bits an integer, when those
        integers and their sums fit in 127 bits (and the sums scale back without
        underflow): the greedy trials' sums, exact, in compiled code. None when
        they do not (bits of very different magnitudes), and the trials sum big
        Python integers."""
        if not self.bits:
            return 0
        scale = max(_EXACT_SHIFT - ((b & -b).bit_length() - 1) if b else 0
                    for b in self.bits)
        scale = max(scale, 0)
        if scale > 1022:
            return None
        shift = _EXACT_SHIFT - scale
        if sum(abs(b) for b in self.bits) >> shift >= 1 << 126:
            return None
        return scale

    def subset_cost(self, sel):
        """Cost of the subset (rule positions), computed from scratch."""
        inc = np.zeros(self.R, dtype=np.uint8)
        inc[list(sel)] = 1
        *_, fires, fp, fn = _match.subset_counts(
            self.cover, inc, np.ascontiguousarray(self.in_class).view(np.uint8))
        return self.cost(sum(self.bits[i] for i in sel), len(sel), fires, fp, fn)

    def exhaustive(self):
        """Every subset, counted in binary with rule 0 as the lowest bit; the first
        strictly cheapest wins."""
        R = self.R
        masks = _ints(self.cover)
        cls = _bitsets(self.in_class[None])[0]
        covers = [0] * (1 << R)
        sums = [0] * (1 << R)
        counts = [0] * (1 << R)
        best_s, best_cost = 0, None
        for s in range(1 << R):
            if s:
                low = (s & -s).bit_length() - 1
                prev = s & (s - 1)
                covers[s] = covers[prev] | masks[low]
                sums[s] = sums[prev] + self.bits[low]
                counts[s] = counts[prev] + 1
            cover = covers[s]
            cost = self.cost(sums[s], counts[s], cover.bit_count(),
                             (cover & ~cls).bit_count(), (cls & ~cover).bit_count())
            if best_cost is None or cost < best_cost:
                best_s, best_cost = s, cost
        return [i for i in range(R) if best_s >> i & 1], best_cost

    def _counts(self, inc):
        """(cover count per case, bits, n_sel, fires, fp, fn) of a subset."""
        cnt = np.zeros(self.n, dtype=np.int64)
        for i in np.flatnonzero(inc):
            cnt[self._mask(i)] += 1
        cov = cnt > 0
        bits = sum(self.bits[i] for i in np.flatnonzero(inc))
        return cnt, (bits, int(np.count_nonzero(inc)), int(cov.sum()),
                     int((cov & ~self.in_class).sum()), int((~cov & self.in_class).sum()))

    def _flipped(self, cnt, inc, state, i):
        """The subset's (bits, n_sel, fires, fp, fn) with rule i toggled."""
        bits, n_sel, fires, fp, fn = state
        mask = self._mask(i)
        c, pos = cnt[mask], self.in_class[mask]
        if inc[i]:
            gone = c == 1
            g, gp = int(gone.sum()), int((gone & pos).sum())
            return bits - self.bits[i], n_sel - 1, fires - g, fp - (g - gp), fn + gp
        new = c == 0
        g, gp = int(new.sum()), int((new & pos).sum())
        return bits + self.bits[i], n_sel + 1, fires + g, fp + (g - gp), fn - gp

    def anneal(self, rng, start=None, cooling=None, stop=None, rejections=None,
               climb_from="best"):
        """Simulated annealing from the empty subset at T = 1000: each proposal
        toggles the rule ``int(draw * R)``; a toggle that lowers the cost is taken
        without a further draw, any other when a second draw is below
        exp(-increase / T) (always, for no increase). T is multiplied by 0.95 after
        each accepted toggle; the search stops once T is not above 0.001 or after
        100 rejections in a row. Then the hill-climb of :meth:`greedy` from the
        cheapest subset the walk visited (the empty one counts): from where the
        walk ended when that costs no more, else from the first subset of that
        least cost; so the subset is one no single toggle improves.

        The constants and where the climb starts ("best", "end": where the walk
        ended, None: no climb) are parameters for replaying other schedules
        against Release 8's choices (tests/anneal_replay.py); the defaults are
        Release 8's. Returns (subset, cost)."""
        start = _ANNEAL_START if start is None else start
        cooling = _ANNEAL_COOLING if cooling is None else cooling
        stop = _ANNEAL_STOP if stop is None else stop
        rejections = _ANNEAL_REJECTIONS if rejections is None else rejections
        R = self.R
        inc = np.zeros(R, dtype=bool)
        cnt, state = self._counts(inc)
        cost = self.cost(*state)
        temp, rejected = start, 0
        best_inc, best_cost = inc.copy(), cost
        while temp > stop and rejected < rejections:
            i = int(rng.uniform() * R)
            new = self._flipped(cnt, inc, state, i)
            new_cost = self.cost(*new)
            delta = new_cost - cost
            if delta < 0 or rng.uniform() < math.exp(-delta / temp):
                cnt[self._mask(i)] += -1 if inc[i] else 1
                inc[i] = not inc[i]
                state, cost = new, new_cost
                if cost < best_cost:
                    best_inc, best_cost = inc.copy(), cost
                temp *= cooling
                rejected = 0
            else:
                rejected += 1
        if climb_from is None:
            return list(np.flatnonzero(inc)), cost
        # Release 8 keeps the cheapest subset seen, not where the walk ends: with it
        # the climb gives Release 8's subset in all 316 annealed classes of the R8
        # corpus (from the end, in 291).
        if climb_from == "best" and best_cost < cost:
            inc = best_inc
            cnt, state = self._counts(inc)
            cost = self.cost(*state)
        while True:
            best_i, best_gain, best_new = -1, 0.0, None
            for i in range(R):
                new = self._flipped(cnt, inc, state, i)
                gain = cost - self.cost(*new)
                if gain > best_gain:
                    best_i, best_gain, best_new = i, gain, new
            if best_i < 0:
                return list(np.flatnonzero(inc)), cost
            cnt[self._mask(best_i)] += -1 if inc[best_i] else 1
            inc[best_i] = not inc[best_i]
            state = best_new
            cost = self.cost(*state)

    def greedy(self, rng):
        """11 trials t = 0..10: each rule starts in the subset when the next draw of
        ``rng`` is below t/10; then hill-climb, each time adding or dropping the rule
        that lowers the cost most (the first on ties), while one does. The cheapest
        final subset wins (the earliest on ties).

        The effect of toggling each rule is kept up to date incrementally: per rule,
        its cases (in and out of the class) that no selected rule covers, and those
        that only one selected rule covers. The trials are one compiled pass
        (c45.rules._match.greedy_trials) when the bits' sums fit in 127 bits (_scale),
        else a pass per trial and per toggle with the sums in Python."""
        R = self.R
        cover = self.cover
        pos = np.ascontiguousarray(self.in_class).view(np.uint8)
        # every trial's start first: the draws do not depend on the climbs
        incs = np.array([[rng.uniform() < t / 10.0 for _ in range(R)]
                         for t in range(_GREEDY_TRIALS)], dtype=np.uint8).reshape(_GREEDY_TRIALS, R)
        scale = self._scale()
        if scale is not None:
            log2fact = np.array([self.lengths.log2fact(k) for k in range(R + 2)])
            costs = _match.greedy_trials(cover, pos, incs, self.bit_values, scale,
                                         log2fact, self.log2n).tolist()
        else:
            costs = [self._climb(cover, pos, inc) for inc in incs]
        best = min(range(_GREEDY_TRIALS), key=lambda t: (costs[t], t))
        return np.flatnonzero(incs[best]).tolist(), costs[best]

    def _climb(self, cover, pos, inc):
        """greedy_trials' hill-climb with the bits summed as Python integers; inc
        (uint8) ends as the final subset. Returns its cost."""
        R = self.R
        # up/un: uncovered cases in/out of the class; sp/sn: covered once
        cnt, up, un, sp, sn, fires, fp, fn = _match.subset_counts(cover, inc, pos)
        bits = sum(self.bits[i] for i in range(R) if inc[i])
        n_sel = int(inc.sum())
        cost = self.cost(bits, n_sel, fires, fp, fn)
        while True:
            best_i, best_gain, best_new = -1, 0.0, None
            for i in range(R):
                if inc[i]:
                    new = (bits - self.bits[i], n_sel - 1, fires - int(sp[i] + sn[i]),
                           fp - int(sn[i]), fn + int(sp[i]))
                else:
                    new = (bits + self.bits[i], n_sel + 1, fires + int(up[i] + un[i]),
                           fp + int(un[i]), fn - int(up[i]))
                gain = cost - self.cost(*new)
                if gain > best_gain:
                    best_i, best_gain, best_new = i, gain, new
            if best_i < 0:
                return cost
            _match.toggle_rule(cover, pos, best_i, not inc[best_i], cnt, up, un, sp, sn)
            inc[best_i] = not inc[best_i]
            bits, n_sel, fires, fp, fn = best_new
            cost = self.cost(bits, n_sel, fires, fp, fn)
