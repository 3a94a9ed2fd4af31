"""C4.5 Release 8's rule generator ``c4.5rules`` as a scikit-learn classifier.

The rules are read off the *unpruned* tree (``grown_tree_``), one candidate per leaf
holding at least one case. Each candidate loses the conditions whose removal does
not raise its pessimistic error estimate; duplicates merge. Each class then keeps the
subset of its rules with the shortest description (MDL: rule bits plus exception
bits), the classes are ordered by their false positives, a default class covers what
no rule covers, and rules that do more harm than good on the training data are
dropped one at a time.

Everything after the tree is NumPy and Python: a condition is a boolean mask over the
training cases; the subset searches work on coverage bitsets held as Python ints.

Choices where the specification is silent are marked **(choice)** in the comments and
listed in ``C45RulesClassifier``'s Notes.
"""
import math
from dataclasses import dataclass, field, replace

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from c45._classifier import (_PRECISION, C45Classifier, _finite_number, certainty_factor,
                             check_choice, check_confidence)
from c45._criterion import pessimistic_extra_errors
from c45._encode import encode_predict, encode_target
from c45._tree import CONTINUOUS_KIND, DISCRETE_KIND, LEAF_KIND, SUBSET_KIND

__all__ = ["C45RulesClassifier", "export_rules", "GlibcRandom", "Condition", "Rule"]

_LN2 = 0.69314718055994530942
# A rule is active only if its error estimate is at most _MAX_SELECT_ERROR: only
# then does it take part in the subset selection, and only then does it classify
# a case (first or second choice), if also its strength 1 - Error exceeds
# _MIN_STRENGTH. Release 8 evaluates so: in the R8 corpus (r0292) a selected rule
# of Error 72.4% classifies no case, first or second.
_MAX_SELECT_ERROR = 0.7
_MIN_STRENGTH = 0.1
_EXHAUSTIVE_MAX = 10          # classes with more rules get the greedy search
_GREEDY_TRIALS = 11           # trials t = 0..10, inclusion probability t/10
_MASK_CACHE_BYTES = 64 << 20  # condition masks kept for reuse


# ---------------------------------------------------------------------------
# glibc random() (TYPE_3, the default state of 128 bytes)

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


# ---------------------------------------------------------------------------
# Rules and conditions

@dataclass(frozen=True)
class Condition:
    """One condition of a rule: the outcome ``branch`` of a test of the tree.

    Attributes
    ----------
    feature : int
        Column of X.
    name : str
        Feature name.
    op : {"=", "<=", ">", "in"}
    value : category (``"="``), float threshold (``"<="``, ``">"``) or tuple of
        categories (``"in"``).
    kind : int
        The tree's test kind: 1 discrete, 2 continuous, 3 value subset.
    branch : int
        0-based branch of the test.
    codes : tuple of int
        The 1-based category codes the condition accepts (discrete and subset).
    node : int
        The test's node in the grown tree (subset tests are the same test only when
        they are the same node, §11.2).

    A case whose value is unknown (or a category unseen in training) never
    satisfies a condition.
    """
    feature: int
    name: str
    op: str
    value: object
    kind: int
    branch: int
    codes: tuple = ()
    node: int = -1

    @property
    def cut(self):
        """The threshold of a continuous test, 0 for other tests (the reordering
        key of §11.3)."""
        return float(self.value) if self.kind == CONTINUOUS_KIND else 0.0

    def same_test(self, other):
        """The duplicate test of §11.3: same kind and feature; then the discrete
        outcome, only the cut of a threshold (so ``<= t`` matches ``> t``), only the
        very test of a subset."""
        if self.kind != other.kind or self.feature != other.feature:
            return False
        if self.kind == DISCRETE_KIND:
            return self.branch == other.branch
        if self.kind == CONTINUOUS_KIND:
            return self.value == other.value
        return self.node == other.node

    def mask(self, cont, codes, col):
        """Boolean mask of the cases (columns of the encoded matrices) satisfying it."""
        if self.kind == CONTINUOUS_KIND:
            x = cont[col[self.feature]]
            with np.errstate(invalid="ignore"):
                return (x <= self.value) if self.branch == 0 else (x > self.value)
        v = codes[col[self.feature]]
        if self.kind == DISCRETE_KIND:
            return v == self.codes[0]
        return np.isin(v, np.asarray(self.codes, dtype=v.dtype))

    def __str__(self):
        if self.op in ("<=", ">"):
            return f"{self.name} {self.op} {self.value:g}"
        if self.op == "in":
            if len(self.value) == 1:            # as the tree prints a one-value group
                return f"{self.name} = {self.value[0]}"
            return f"{self.name} in {{{', '.join(str(v) for v in self.value)}}}"
        return f"{self.name} = {self.value}"


@dataclass
class Rule:
    """One rule: all ``conditions`` hold -> ``class_``.

    Attributes
    ----------
    number : int
        c4.5rules' rule number (order of creation, before selection and ordering).
    conditions : tuple of Condition
    class_index : int
        Index into ``classes_``.
    class_ : label
    error : float
        The pessimistic error rate of the rule on the training data (§11.3); the
        rule's *strength* or confidence is ``1 - error``, printed ``[nn.n%]``.
    n_covered, n_errors : int
        Training cases satisfying the conditions, and those of them not of
        ``class_`` (when the conditions were last pruned; duplicates keep the first).
    bits : float
        The rule's description length (§11.4).
    used, wrong : int
        In the final ruleset: training cases the rule classifies (first firing
        rule) and how many of them wrongly.
    better, worse : int
        Of the ``used`` cases on which the next rule (or the default) would give
        another class: how many the rule gets right, and how many the next choice
        would have got right (§11.6). ``advantage = better - worse``.
    """
    number: int
    conditions: tuple
    class_index: int
    class_: object
    error: float
    n_covered: int = 0
    n_errors: int = 0
    bits: float = 0.0
    used: int = 0
    wrong: int = 0
    better: int = 0
    worse: int = 0

    @property
    def confidence(self):
        """``1 - error``: c4.5rules' strength of the rule, printed as its accuracy."""
        return 1.0 - self.error

    @property
    def advantage(self):
        return self.better - self.worse

    def __str__(self):
        lines = [f"Rule {self.number}:"]
        lines += [f"    \t{c}" for c in self.conditions]
        lines.append(f"\t->  class {self.class_}  [{100.0 * (1.0 - self.error):.1f}%]")
        return "\n".join(lines)


# ---------------------------------------------------------------------------
# Numeric helpers

def _r32(f32, x):
    """Store x as C4.5 stores a float: binary32 in float32 mode."""
    return float(np.float32(x)) if f32 else float(x)


def _log2(x):
    return math.log(x) / _LN2


def _bitset(mask):
    """A boolean mask as a Python int (bit i = case i)."""
    return int.from_bytes(np.packbits(np.asarray(mask, dtype=bool),
                                      bitorder="little").tobytes(), "little")


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
            x = cont[schema.col[f]]
            x = np.where(np.isnan(x), -999.0, x)       # -999 counts as a value (Q12)
            p = len(np.unique(x))
            bits[f] = 0.0 if p <= 1 else _r32(f32, 1.0 + lengths.log2i(p) / 2.0)
    total = float(bits.sum())
    test_bits = 0.0
    if total > 0:
        for b in bits:
            if b > 0:
                p = b / total
                test_bits -= p * _log2(p)
    return bits, _r32(f32, test_bits)


def _biased(n, e, x):
    """Bits to identify e exceptions among n cases at the expected rate x/n (§11.4)."""
    if x <= 1e-6:
        return 0.0 if e == 0 else 1e6
    if x >= n - 1e-6:
        return 0.0 if e == n else 1e6
    return -e * _log2(x / n) - (n - e) * _log2(1.0 - x / n)


def _fisher_p(a, b, c, d):
    """One-tailed Fisher exact p-value that the 2x2 table [[a, b], [c, d]] shows an
    association at least as strong as observed (rows: condition satisfied or not;
    columns: the rule's class or not)."""
    from scipy.stats import hypergeom
    total, row1, col1 = a + b + c + d, a + b, a + c
    return float(hypergeom.sf(a - 1, total, col1, row1))


# ---------------------------------------------------------------------------
# Ruleset selection for one class (§11.4)

_EXACT_SHIFT = 1100          # bits are summed exactly, as integers times 2**-1100


def _exact(x):
    num, den = float(x).as_integer_ratio()
    return num * ((1 << _EXACT_SHIFT) // den)


class SubsetSearch:
    """The description cost of subsets of one class's rules, and the two searches.

    ``masks[i]`` holds the cases rule i fires on (all False for a rule that does
    not take part, Error > 0.7), ``bits[i]`` its description length, ``in_class``
    the cases of the class. The cost of a subset is
    ``0.5 * (sum of its bits - log2(#rules!)) + ExceptionBits(fires, FP, FN)``. The
    bits are summed exactly and rounded once (the specification does not give an
    order), so that a cost depends only on the subset, however it is reached.
    """

    def __init__(self, masks, bits, in_class, lengths):
        self.masks = [np.asarray(m, dtype=bool) for m in masks]
        self.bits = [_exact(b) for b in bits]
        self.in_class = np.asarray(in_class, dtype=bool)
        self.n = len(self.in_class)
        self.lengths = lengths
        self.log2n = _log2(self.n) if self.n > 0 else 0.0

    def cost(self, bits_exact, n_sel, fires, fp, fn):
        n = self.n
        bits = bits_exact / (1 << _EXACT_SHIFT)           # correctly rounded
        if fires > n / 2.0:
            exc = _biased(fires, fp, (fp + fn) / 2.0) + _biased(n - fires, fn, fn)
        else:
            exc = _biased(fires, fp, fp) + _biased(n - fires, fn, (fp + fn) / 2.0)
        return 0.5 * (bits - self.lengths.log2fact(n_sel)) + (self.log2n + exc)

    def subset_cost(self, sel):
        """Cost of the subset (rule positions), computed from scratch."""
        cover = np.zeros(self.n, dtype=bool)
        for i in sel:
            cover |= self.masks[i]
        fires = int(cover.sum())
        fp = int((cover & ~self.in_class).sum())
        fn = int((~cover & self.in_class).sum())
        return self.cost(sum(self.bits[i] for i in sel), len(sel), fires, fp, fn)

    def exhaustive(self):
        """Every subset, counted in binary with rule 0 as the lowest bit; the first
        strictly cheapest wins."""
        R = len(self.masks)
        masks = [_bitset(m) for m in self.masks]
        cls = _bitset(self.in_class)
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

    def greedy(self, rng):
        """11 trials t = 0..10: each rule starts in the subset when the next draw of
        ``rng`` is below t/10; then hill-climb, each time adding or dropping the rule
        that lowers the cost most (the first on ties), while one does. The cheapest
        final subset wins (the earliest on ties).

        The effect of toggling each rule is kept up to date incrementally: per rule,
        its cases (in and out of the class) that no selected rule covers, and those
        that only one selected rule covers."""
        from scipy import sparse
        R, n = len(self.masks), self.n
        pos = self.in_class
        idx = [np.flatnonzero(m) for m in self.masks]
        rows = np.concatenate(idx + [np.zeros(0, dtype=np.int64)])
        cols = np.repeat(np.arange(R), [len(i) for i in idx])
        A = sparse.csr_matrix((np.ones(len(rows), dtype=np.int64), (rows, cols)),
                              shape=(n, R))
        At = A.T.tocsr()

        def colsum(cases):
            if len(cases) == 0:
                return np.zeros(R, dtype=np.int64)
            return np.asarray(A[cases].sum(axis=0)).ravel()

        best_sel, best_cost = None, None
        for t in range(_GREEDY_TRIALS):
            p = t / 10.0
            inc = [rng.uniform() < p for _ in range(R)]
            cnt = np.zeros(n, dtype=np.int64)
            for i in range(R):
                if inc[i]:
                    cnt[idx[i]] += 1
            unc, single = cnt == 0, cnt == 1
            up = At @ (unc & pos).astype(np.int64)       # uncovered, in class
            un = At @ (unc & ~pos).astype(np.int64)
            sp = At @ (single & pos).astype(np.int64)    # covered once, in class
            sn = At @ (single & ~pos).astype(np.int64)
            fires = int((~unc).sum())
            fp = int((~unc & ~pos).sum())
            fn = int((unc & pos).sum())
            bits = sum(self.bits[i] for i in range(R) if inc[i])
            n_sel = sum(inc)
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
                    break
                cases = idx[best_i]
                old = cnt[cases]
                if inc[best_i]:
                    gone = cases[old == 1]        # now uncovered
                    alone = cases[old == 2]       # now covered once
                    gp, gn = colsum(gone[pos[gone]]), colsum(gone[~pos[gone]])
                    ap, an = colsum(alone[pos[alone]]), colsum(alone[~pos[alone]])
                    up += gp
                    un += gn
                    sp += ap - gp
                    sn += an - gn
                    cnt[cases] -= 1
                else:
                    new_c = cases[old == 0]       # now covered once
                    twice = cases[old == 1]       # now covered twice
                    np_, nn = colsum(new_c[pos[new_c]]), colsum(new_c[~pos[new_c]])
                    tp, tn = colsum(twice[pos[twice]]), colsum(twice[~pos[twice]])
                    up -= np_
                    un -= nn
                    sp += np_ - tp
                    sn += nn - tn
                    cnt[cases] += 1
                inc[best_i] = not inc[best_i]
                bits, n_sel, fires, fp, fn = best_new
                cost = self.cost(bits, n_sel, fires, fp, fn)
            if best_cost is None or cost < best_cost:
                best_sel, best_cost = [i for i in range(R) if inc[i]], cost
        return best_sel, best_cost


# ---------------------------------------------------------------------------
# The engine

@dataclass
class _Candidate:
    conditions: list
    class_index: int
    error: float = 0.0
    n_covered: int = 0
    n_errors: int = 0
    trace: list = field(default_factory=list)
    rule_number: int = 0          # 0: rejected; else the (possibly merged) rule
    path: tuple = ()              # the leaf's conditions, as text


class RuleBuilder:
    """Runs §11 on one grown tree and the training data; keeps what each step found.

    Parameters
    ----------
    tree : Tree (the unpruned tree)
    cont, codes : encoded training matrices; y : class codes; schema : the encoding
    schema; feature_names, categories, classes : for the conditions' labels;
    confidence : c4.5rules' CF; redundancy : ``-r``; fisher : None or the
    significance level of ``-F``; f32 : C4.5's binary32 arithmetic.
    """

    def __init__(self, tree, cont, codes, y, schema, feature_names, categories,
                 classes, confidence=0.25, redundancy=1.0, fisher=None, f32=True):
        self.tree = tree
        self.cont, self.codes, self.col = cont, codes, schema.col
        self.y = np.asarray(y, dtype=np.int64)
        self.n = len(self.y)
        self.k = len(classes)
        self.schema = schema
        self.feature_names = feature_names
        self.categories = categories
        self.classes = classes
        self.cf = confidence
        self.redundancy = redundancy
        self.fisher = fisher
        self.f32 = f32
        self.precision = "float32" if f32 else "float64"
        self.lengths = _Lengths(f32)
        self.att_bits, self.att_test_bits = _attribute_bits(
            cont, codes, schema, self.n, self.lengths, f32)
        self.class_count = np.bincount(self.y, minlength=self.k)
        self._u_cache = {}
        self._mask_cache = {}

    # -- §11.2 ------------------------------------------------------------
    def _condition(self, node, b):
        t = self.tree
        f = int(t.feature[node])
        kind = int(t.kind[node])
        name = str(self.feature_names[f])
        if kind == CONTINUOUS_KIND:
            return Condition(f, name, "<=" if b == 0 else ">", float(t.threshold[node]),
                             kind, b, (), node)
        cats = self.categories[f]
        if kind == DISCRETE_KIND:
            return Condition(f, name, "=", cats[b], kind, b, (b + 1,), node)
        group = t.branch_values(node, len(cats))[b]
        return Condition(f, name, "in", tuple(cats[v] for v in group), kind, b,
                         tuple(v + 1 for v in group), node)

    def extract(self):
        """Depth-first, branches in order: one candidate per leaf with Items >= 1."""
        t = self.tree
        out = []
        stack = [(0, [])]
        while stack:
            node, path = stack.pop()
            if t.kind[node] == LEAF_KIND:
                if t.weight[node] >= 1.0:
                    out.append(_Candidate(list(path), int(t.node_class[node]),
                                           path=tuple(str(c) for c in path)))
                continue
            first, nb = int(t.first_child[node]), int(t.n_children[node])
            for b in reversed(range(nb)):       # popped in branch order
                stack.append((first + b, path + [self._condition(node, b)]))
        return out

    # -- §11.3 ------------------------------------------------------------
    def mask(self, cond):
        key = (cond.kind, cond.feature, cond.branch, cond.value if cond.kind != SUBSET_KIND
               else cond.codes)
        m = self._mask_cache.get(key)
        if m is None:
            if len(self._mask_cache) * self.n > _MASK_CACHE_BYTES:
                self._mask_cache.clear()
            m = cond.mask(self.cont, self.codes, self.col)
            self._mask_cache[key] = m
        return m

    def _u(self, total, errors):
        key = (total, errors)
        u = self._u_cache.get(key)
        if u is None:
            u = pessimistic_extra_errors(total, errors, self.cf, self.precision)
            self._u_cache[key] = u
        return u

    def _rates(self, total, errors, default_error):
        """(Actual, Pess) of a condition set covering `total` cases, `errors` wrong."""
        f32 = self.f32
        if total == 0:
            # Pess is DefaultError; Actual is 0, so a condition set that covers no
            # case with a condition left out that covers only right ones (Actual 0)
            # drops that condition. Release 8 does so: with NaN or 1 here, rules
            # are rejected that it keeps (R8 corpus r0209, r0089, r0183: the rule
            # numbers after them shift).
            return 0.0, default_error
        if f32:
            actual = float(np.float32(errors) / np.float32(total))
            pess = float((np.float32(errors) + np.float32(self._u(total, errors)))
                         / np.float32(total))
        else:
            actual = errors / total
            pess = (errors + self._u(total, errors)) / total
        return actual, pess

    def prune(self, cand):
        """Drop conditions by the pessimistic estimate; return the rule's Error, or
        None if it is rejected."""
        target = cand.class_index
        in_class = self.y == target
        n = self.n
        default_error = _r32(self.f32, 1.0 - (self.class_count[target] + 1.0) / (n + 2.0))
        path = list(cand.conditions)
        conds = list(path)
        not_class = self.y != target
        # fails[i]: how many of the remaining conditions case i fails. Total[0] counts
        # the cases failing none; leaving condition d out adds those failing only d.
        fails = np.zeros(n, dtype=np.int32)
        for c in conds:
            fails += ~self.mask(c)
        trace = []
        while True:
            m = len(conds)
            cover = fails == 0
            total0 = int(np.count_nonzero(cover))
            errors0 = int(np.count_nonzero(cover & not_class))
            actual0, pess0 = self._rates(total0, errors0, default_error)
            rows = [(errors0, total0, pess0, None)]
            if m == 0:
                trace.append(dict(rows=rows, dropped=None))
                break
            one = np.flatnonzero(fails == 1)
            if len(one):
                sat = np.stack([self.mask(c)[one] for c in conds])
                which = np.argmin(sat, axis=0)          # the one condition failed
                add_total = np.bincount(which, minlength=m)
                add_errors = np.bincount(which[not_class[one]], minlength=m)
            else:
                add_total = add_errors = np.zeros(m, dtype=np.int64)
            best, best_pess, drop = -1, None, False
            for d in range(m):
                total = total0 + int(add_total[d])
                errors = errors0 + int(add_errors[d])
                actual, pess = self._rates(total, errors, default_error)
                rows.append((errors, total, pess, str(conds[d])))
                if best_pess is None or pess <= best_pess:       # later d on ties
                    best, best_pess = d, pess
                if pess <= pess0 or actual <= actual0:
                    drop = True
                elif self.fisher is not None:
                    # among the cases satisfying the other conditions: condition d
                    # holds or not x the rule's class or not
                    if _fisher_p(total0 - errors0, errors0,
                                 int(add_total[d] - add_errors[d]),
                                 int(add_errors[d])) > self.fisher:
                        drop = True
            trace.append(dict(rows=rows, dropped=str(conds[best]) if drop else None))
            if not drop:
                break
            fails -= ~self.mask(conds[best])
            del conds[best]
        cand.trace = trace
        cand.n_covered, cand.n_errors = total0, errors0
        if not conds or total0 == 0 or pess0 >= default_error:
            return None
        cand.conditions = self._reorder(path, conds)
        cand.error = pess0
        return pess0

    @staticmethod
    def _reorder(path, kept):
        """§11.3's condition order: a selection by (att, type, cut), reproduced scan
        for scan because the comparison is not a strict ordering. The scan runs
        over the rule's whole path, the dropped conditions keeping their slots
        (skipped, but swapped out of the way as positions fill), as c4.5rules
        does: in the R8 corpus this gives Release 8's order for all 3,296 rules
        of the final rulesets (scanning the shortened list gives 3,162)."""
        alive = {id(c) for c in kept}
        slots = list(path)
        out = []
        for pos in range(len(slots)):
            pick = None
            for j in range(pos, len(slots)):
                if id(slots[j]) not in alive:
                    continue
                x = slots[j]
                if pick is None:
                    pick = j
                    continue
                y = slots[pick]
                if (x.feature < y.feature or x.kind < y.kind
                        or (x.feature == y.feature and x.cut < y.cut)):
                    pick = j
            if pick is None:
                break
            slots[pos], slots[pick] = slots[pick], slots[pos]
            out.append(slots[pos])
        return out

    def _find_duplicate(self, rules, cand):
        for r in rules:
            if (r.class_index == cand.class_index
                    and len(r.conditions) == len(cand.conditions)
                    and all(a.same_test(b) for a, b in zip(r.conditions, cand.conditions))):
                return r
        return None

    def form_rules(self):
        """§11.2-§11.3: the numbered rules, after condition dropping and duplicates."""
        rules = []
        self.candidates = self.extract()
        for cand in self.candidates:
            if self.prune(cand) is None:
                continue
            dup = self._find_duplicate(rules, cand)
            if dup is not None:
                dup.error = max(dup.error, cand.error)
                cand.rule_number = dup.number
                continue
            cand.rule_number = len(rules) + 1
            rules.append(Rule(number=len(rules) + 1, conditions=tuple(cand.conditions),
                              class_index=cand.class_index,
                              class_=self.classes[cand.class_index], error=cand.error,
                              n_covered=cand.n_covered, n_errors=cand.n_errors))
        for r in rules:
            r.bits = self._rule_bits(r)
        return rules

    # -- §11.4 ------------------------------------------------------------
    def _rule_bits(self, rule):
        lg = self.lengths
        # The running sum is stored after each condition (binary32 in float32
        # mode), so it depends on the conditions' order: two rules with the same
        # conditions in another order can differ in their last bit, and the
        # subset search then prefers the cheaper one. Release 8 does so: in the
        # R8 corpus (r0194) it selects rule 112 (d1, d2, c0) over rule 22 (d1,
        # c0, d2), which covers the same cases; a sum rounded once gives a tie
        # that rule 22 wins.
        s = 0.0
        for c in rule.conditions:
            a = (self.schema.n_values[c.feature] if c.kind == SUBSET_KIND
                 else self.att_bits[c.feature])
            s = _r32(self.f32, s + (self.att_test_bits / self.redundancy + a))
        m = len(rule.conditions)
        return _r32(self.f32, s + lg.log2i(m) - lg.log2fact(m))

    def rule_cover(self, rule):
        m = np.ones(self.n, dtype=bool)
        for c in rule.conditions:
            m &= self.mask(c)
        return m

    def select(self, rules, rng):
        """Per class, the cheapest subset of its rules (§11.4)."""
        self.active = {}
        for r in rules:
            self.active[r.number] = (self.rule_cover(r) if r.error <= _MAX_SELECT_ERROR
                                     else np.zeros(self.n, dtype=bool))
        selected = {}
        self.selection = {}
        for c in range(self.k):
            mine = [r for r in rules if r.class_index == c]
            search = SubsetSearch([self.active[r.number] for r in mine],
                                  [r.bits for r in mine], self.y == c, self.lengths)
            if len(mine) <= _EXHAUSTIVE_MAX:
                best_sel, best_cost = search.exhaustive()
                how = "exhaustive"
            else:
                best_sel, best_cost = search.greedy(rng)
                how = "greedy"
            chosen = [mine[i] for i in best_sel]
            selected[c] = chosen
            self.selection[self.classes[c]] = dict(
                n_rules=len(mine), search=how, empty_cost=search.subset_cost([]),
                cost=best_cost, selected=[r.number for r in chosen])
        return selected

    # -- §11.5 ------------------------------------------------------------
    def order(self, selected):
        placed = 0
        unplaced = list(range(self.k))
        ordered = []
        self.class_order = []
        class_bits = [_bitset(self.y == c) for c in range(self.k)]
        sel_cover = {}
        for c in range(self.k):
            cov = 0
            for r in selected[c]:
                cov |= _bitset(self.active[r.number])
            sel_cover[c] = cov
        while unplaced:
            best, best_fp = None, None
            for c in unplaced:
                fp = (sel_cover[c] & ~placed & ~class_bits[c]).bit_count()
                if best_fp is None or fp < best_fp:
                    best, best_fp = c, fp
            unplaced.remove(best)
            self.class_order.append(best)
            ordered += sorted(selected[best], key=lambda r: (r.error, r.number))
            placed |= sel_cover[best]
        uncovered = [(_bitset(self.y == c) & ~placed).bit_count() for c in range(self.k)]
        default = 0
        for c in range(1, self.k):
            if (uncovered[c], self.class_count[c]) > (uncovered[default],
                                                      self.class_count[default]):
                default = c
        self.uncovered = uncovered
        return ordered, default

    # -- §11.6 ------------------------------------------------------------
    def drop_rules(self, rules, default):
        """Evaluate on the training data and drop the first rule (used) that does
        more harm than good, until none does. self.rounds keeps each evaluation's
        table, as c4.5rules prints it before each "Drop rule N"."""
        rules = list(rules)
        self.dropped = []
        self.rounds = []
        while True:
            tally(rules, [self.rule_cover(r) for r in rules], default, self.n, self.y)
            self.rounds.append(rule_table(rules))
            for i, r in enumerate(rules):
                if r.used > 0 and r.worse > r.better:
                    self.dropped.append(r.number)
                    del rules[i]
                    break
            else:
                return rules

    def run(self):
        rules = self.form_rules()
        self.rules = rules
        rng = GlibcRandom(1)
        selected = self.select(rules, rng)
        ordered, default = self.order(selected)
        self.ordered = list(ordered)
        final = self.drop_rules(ordered, default)
        return final, default


def can_fire(rule):
    """Whether the rule classifies the cases it covers (active and strong enough)."""
    return rule.error <= _MAX_SELECT_ERROR and 1.0 - rule.error > _MIN_STRENGTH


def rule_mask(rule, cont, codes, col):
    """Cases (columns) on which the rule fires: can_fire and every condition."""
    m = np.ones(cont.shape[1], dtype=bool)
    if not can_fire(rule):
        m[:] = False
        return m
    for c in rule.conditions:
        m &= c.mask(cont, codes, col)
    return m


def rule_table(rules):
    """c4.5rules' evaluation table of the rules that classified some case."""
    out = ["Rule  Size  Error  Used  Wrong\t          Advantage",
           "----  ----  -----  ----  -----\t          ---------"]
    for r in rules:
        if r.used == 0:
            continue
        pct = 100.0 * r.wrong / r.used
        out.append(f"{r.number:4d}  {len(r.conditions):4d}  {100 * r.error:4.1f}%  "
                   f"{r.used:4d}  {r.wrong:5d} ({pct:.1f}%)\t{r.advantage:6d} "
                   f"({r.better}|{r.worse}) \t{r.class_}")
    return out


def tally(rules, fire, default, n, y=None):
    """Classify n cases by the first firing rule (can_fire) or the default;
    with y, record each rule's used/wrong/better/worse. Returns (predicted codes,
    index of the rule used or -1)."""
    first = np.full(n, -1, dtype=np.int64)
    second = np.full(n, -1, dtype=np.int64)
    for i, (r, f) in enumerate(zip(rules, fire)):
        if not can_fire(r):
            continue
        f = np.asarray(f, dtype=bool)
        take2 = f & (first >= 0) & (second < 0)
        second[take2] = i
        take1 = f & (first < 0)
        first[take1] = i
    cls = np.array([r.class_index for r in rules] + [default], dtype=np.int64)
    pred = cls[first]                   # -1 -> the default
    if y is not None:
        alt = cls[second]
        for i, r in enumerate(rules):
            mine = first == i
            r.used = int(mine.sum())
            r.wrong = int((mine & (pred != y)).sum())
            differ = mine & (pred != alt)
            r.better = int((differ & (pred == y)).sum())
            r.worse = int((differ & (alt == y)).sum())
    return pred, first


# ---------------------------------------------------------------------------
# The estimator

_GROW_PARAMS = ("min_samples_leaf", "criterion", "subset_splits", "threshold",
                "mdl_correction", "categorical_features", "precision", "max_depth",
                "min_samples_split", "max_purity", "min_gain", "max_features",
                "random_state")


class C45RulesClassifier(ClassifierMixin, BaseEstimator):
    """C4.5 Release 8's production rules (``c4.5rules``) as a classifier.

    A tree is grown exactly as :class:`C45Classifier` grows it; its *unpruned*
    form is turned into rules as c4.5rules does:

    1. one rule per leaf holding at least one case: the path's tests -> the leaf's
       class;
    2. each rule loses conditions while a pessimistic error estimate (at
       ``confidence``) does not get worse; rules no better than guessing are
       rejected, duplicates merge;
    3. each class keeps the subset of its rules with the shortest encoding of
       rules plus exceptions (every subset when it has at most 10 rules, else a
       greedy search with glibc's ``random()`` as c4.5rules draws it);
    4. classes are ordered by their false positives, each class's rules by their
       error; a default class takes the cases no rule covers;
    5. rules that lose more training cases than they win are dropped.

    A case takes the class of the first rule whose conditions it satisfies, or
    the default class.

    Parameters
    ----------
    min_samples_leaf, criterion, subset_splits, threshold, mdl_correction,
    categorical_features, precision, max_depth, min_samples_split, max_purity,
    min_gain, max_features, random_state :
        Tree growing, as for :class:`C45Classifier`. ``precision="float32"``
        reproduces C4.5 Release 8's binary32 arithmetic (tree and rules).
    confidence : float in (0, 1], default=0.25
        c4.5rules' ``-c`` (CF): the confidence of the pessimistic estimate used to
        drop conditions. Smaller drops more. (The tree's own pruning confidence
        plays no part: rules come from the unpruned tree.)
    redundancy : float > 0, default=1.0
        c4.5rules' ``-r``: the expected redundancy of the attributes, dividing the
        bits charged for choosing a condition's attribute.
    fisher : bool or float, default=False
        c4.5rules' ``-F``: also drop a condition when a one-tailed Fisher exact
        test of its association with the rule's class (among the cases satisfying
        the other conditions) is not significant at this level; ``True`` means
        0.05. Not verified against R8 (see Notes).

    Attributes
    ----------
    rules_ : list of Rule
        The final ordered ruleset (after c4.5rules' final drops of unhelpful
        rules). Each rule has
        ``number`` (c4.5rules' numbering), ``conditions``, ``class_``, ``error``
        (pessimistic error rate), ``confidence`` (``1 - error``, printed
        ``[nn.n%]``), training ``used``/``wrong``/``advantage``.
    default_class_ : label
    classes_, n_features_in_, feature_names_in_, categories_ :
        As for C45Classifier.
    candidate_rules_ : list of Rule
        Every numbered rule before the per-class selection.
    selection_ : dict
        Per class: ``n_rules``, ``search`` ("exhaustive" or "greedy"),
        ``empty_cost`` and ``cost`` (bits) and the ``selected`` rule numbers.
    class_order_ : list
        Classes in the order their rules were placed.
    dropped_rules_ : list of int
        Numbers of the rules dropped on the training data, in order.
    pruning_log_ : list of dict
        One entry per leaf giving a candidate rule, in tree order (c4.5rules' ``-v``
        trace): ``leaf_conditions``, ``class_``, ``rule`` (the number of the rule
        it became or merged into, None if rejected) and ``steps``, one per round
        of condition dropping: ``rows`` of (errors, cases covered, pessimistic
        error rate, condition left out; None for the whole rule) and ``dropped``
        (the condition dropped, or None).
    attribute_bits_, attribute_test_bits_ :
        c4.5rules' code lengths: per feature, and for choosing an attribute.
    grown_tree_ : Tree
        The unpruned tree the rules come from; ``tree_estimator_`` is the fitted
        C45Classifier (``pruning=None``) that grew it.

    Notes
    -----
    ``predict_proba`` is one-hot: the rules give a class, not a distribution. The
    firing rule's confidence is available through :meth:`apply` and ``rules_``.

    Unknown values (and categories unseen in training) satisfy no condition, in
    fitting and in prediction; a case without a firing rule gets the default class.

    Where c4.5rules' behaviour is not pinned down, this implementation chooses as
    follows. On the nine reference data sets (default options, ``-s`` and
    ``-m 1``) the obvious
    alternatives give the same rulesets, except that skipping the draws of trials
    t = 0 and t = 10 changes monk2 and monk3 under ``-m 1``.

    * a condition set covering no case has the actual error rate 0 and the
      pessimistic one DefaultError (Release 8's choice, seen in its outputs);
    * code lengths, rule bits, DefaultError and the error rates are stored in
      binary32 in float32 mode (a rule's bits as a running sum stored after each
      condition, as Release 8 does: R8 corpus r0194); a subset's bits are summed
      exactly, the cost in binary64;
    * a duplicate rule leaves the earlier rule (its number and conditions) in
      place and gives it the larger of the two errors;
    * the greedy search draws once per rule in every trial, t = 0 and 10
      included, and keeps a rule when the draw is below t/10;
    * the default class is not recomputed after rules are dropped;
    * ``fisher`` (``-F``) follows the specification's one-line description: a
      condition fails when the one-tailed Fisher exact test of the 2x2 table
      (condition holds or not, by the rule's class or not, among the cases that
      satisfy the other conditions) gives a p-value above the level.

    Subset tests print as ``att in {v1, v2}`` (one-value groups as
    ``att = v``), a layout the specification does not give.
    """

    def __init__(self, min_samples_leaf=2, confidence=0.25, redundancy=1.0, fisher=False,
                 criterion="gain_ratio", subset_splits=False, threshold="data",
                 mdl_correction=True, categorical_features="auto", precision="float64",
                 max_depth=None, min_samples_split=0, max_purity=1.0, min_gain=None,
                 max_features=None, random_state=None):
        self.min_samples_leaf = min_samples_leaf
        self.confidence = confidence
        self.redundancy = redundancy
        self.fisher = fisher
        self.criterion = criterion
        self.subset_splits = subset_splits
        self.threshold = threshold
        self.mdl_correction = mdl_correction
        self.categorical_features = categorical_features
        self.precision = precision
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.max_purity = max_purity
        self.min_gain = min_gain
        self.max_features = max_features
        self.random_state = random_state

    def _check_rule_params(self):
        check_confidence(self.confidence, self.precision)
        r = self.redundancy
        if not _finite_number(r) or r <= 0:
            raise ValueError(f"redundancy must be a positive number, got {r!r}")
        f = self.fisher
        if f is None or (isinstance(f, (bool, np.bool_)) and not f):
            return None
        if isinstance(f, (bool, np.bool_)):
            return 0.05
        if _finite_number(f) and 0 < f < 1:
            return float(f)
        raise ValueError(f"fisher must be False, True or a significance level in (0, 1), "
                         f"got {f!r}")

    def fit(self, X, y):
        """Grow the tree on (X, y) and derive the ruleset from it."""
        fisher = self._check_rule_params()
        grow = {p: getattr(self, p) for p in _GROW_PARAMS}
        tree_clf = C45Classifier(pruning=None, **grow).fit(X, y)
        schema = tree_clf._schema
        f32 = self.precision == "float32"
        # The training data encoded as the tree saw it (same schema, same classes).
        cont, codes = encode_predict(schema, X, f32)
        classes, y_codes = encode_target(y, cont.shape[1])
        if not np.array_equal(classes, tree_clf.classes_):   # pragma: no cover
            raise RuntimeError("c45: the class encoding changed between tree and rules")
        names = getattr(tree_clf, "feature_names_in_", None)
        if names is None:
            names = [f"x{j}" for j in range(schema.n_features)]
        builder = RuleBuilder(tree_clf.grown_tree_, cont, codes, y_codes, schema,
                              list(names), tree_clf.categories_, tree_clf.classes_,
                              confidence=certainty_factor(self.confidence, self.precision),
                              redundancy=float(self.redundancy), fisher=fisher, f32=f32)
        final, default = builder.run()
        self.tree_estimator_ = tree_clf
        self.grown_tree_ = tree_clf.grown_tree_
        self._schema = schema
        self.classes_ = tree_clf.classes_
        self.n_features_in_ = tree_clf.n_features_in_
        if hasattr(tree_clf, "feature_names_in_"):
            self.feature_names_in_ = tree_clf.feature_names_in_
        elif hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        self.categories_ = tree_clf.categories_
        self.rules_ = final
        self.ordered_rules_ = [replace(r) for r in builder.ordered]
        self.evaluation_rounds_ = builder.rounds
        self.default_class_ = self.classes_[default]
        self._default_index = default
        self.candidate_rules_ = builder.rules
        self.selection_ = builder.selection
        self.class_order_ = [self.classes_[c] for c in builder.class_order]
        self.dropped_rules_ = list(builder.dropped)
        self.attribute_bits_ = builder.att_bits
        self.attribute_test_bits_ = builder.att_test_bits
        self.pruning_log_ = [
            dict(leaf_conditions=list(c.path), class_=self.classes_[c.class_index],
                 steps=c.trace, rule=c.rule_number or None)
            for c in builder.candidates]
        pred, _ = tally(final, [builder.rule_cover(r) for r in final], default, builder.n)
        self._train_summary = (builder.n, int(np.sum(pred != builder.y)))
        return self

    def _encode(self, X):
        check_is_fitted(self, "rules_")
        check_choice("precision", self.precision, _PRECISION)    # set_params after fit
        cont, codes = encode_predict(self._schema, X, self.precision == "float32",
                                     "C45RulesClassifier")
        return cont, codes

    def apply(self, X):
        """Position in ``rules_`` of the rule that classifies each row (the first
        whose conditions hold), or -1 where the default class applies."""
        cont, codes = self._encode(X)
        fire = [rule_mask(r, cont, codes, self._schema.col) for r in self.rules_]
        return tally(self.rules_, fire, self._default_index, cont.shape[1])[1]

    def predict(self, X):
        """The class of the first rule whose conditions hold, else the default."""
        first = self.apply(X)
        cls = np.array([r.class_index for r in self.rules_] + [self._default_index],
                       dtype=np.int64)
        return self.classes_.take(cls[first])

    def predict_proba(self, X):
        """One-hot class membership of :meth:`predict` (rules give no distribution)."""
        pred = self.predict(X)
        lookup = {c: i for i, c in enumerate(self.classes_)}
        out = np.zeros((len(pred), len(self.classes_)))
        out[np.arange(len(pred)), [lookup[p] for p in pred]] = 1.0
        return out

    def __setstate__(self, state):
        if not isinstance(state, dict):
            raise ValueError(f"c45: the pickled C45RulesClassifier's state is a "
                             f"{type(state).__name__}, not a dict")
        if "rules_" in state:
            from c45._rules_state import checked_rules_state    # imports this module
            state = dict(state, **checked_rules_state(state))
        super().__setstate__(state)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        return tags


def export_rules(clf, evaluation=False):
    """The ruleset as c4.5rules prints it.

    ::

        Final rules from tree 0:

        Rule 6:
            	wage increase first year > 2.5
            	statutory holidays > 10
        	->  class good  [93.0%]
        ...

        Default class: good

    Rules come in their final order, numbered as c4.5rules numbers them (so the
    numbers need not be consecutive). A condition line is four spaces and a tab
    then ``att = value``, ``att <= t`` / ``att > t`` (``t`` printed with ``%g``) or
    ``att in {v1, v2}``; the class line is a tab and ``->  class C  [nn.n%]``, the
    rule's confidence ``1 - error``. A case takes the class of the first rule whose
    conditions all hold; an unknown value (or a category unseen in training) makes
    a condition on its attribute fail; with no rule firing, the default class
    applies. This is exactly what ``predict`` does.

    ``evaluation=False`` prints the rules ``predict`` uses (``clf.rules_``).
    ``evaluation=True`` prints c4.5rules' own report instead, character for
    character: the rules as selected and ordered (``clf.ordered_rules_``), then
    their evaluation on the training data, where c4.5rules drops, one at a time,
    a rule that does more harm than good (``Drop rule N``, and the table again),
    then ``Tested N, errors E (p%)``. The table has one row per rule that
    classified some case: Rule, Size (conditions), Error (the pessimistic
    estimate), Used, Wrong, Advantage (``better - worse (better|worse)``), class.

    Thresholds printed with ``%g`` keep six significant digits, as c4.5rules
    prints them; ``clf.rules_[i].conditions[j].value`` holds the exact one.
    """
    check_is_fitted(clf, "rules_")
    shown = clf.ordered_rules_ if evaluation else clf.rules_
    out = ["Final rules from tree 0:", ""]
    for r in shown:
        out.append(str(r))
        out.append("")
    out.append(f"Default class: {clf.default_class_}")
    if evaluation:
        n, errors = clf._train_summary
        out += ["", "", f"Evaluation on training data ({n} items):", ""]
        for table, dropped in zip(clf.evaluation_rounds_, clf.dropped_rules_ + [None]):
            out += table
            if dropped is not None:
                out += ["", f"Drop rule {dropped}", ""]
        out += ["", tested_line(n, errors)]
    return "\n".join(out) + "\n"


def tested_line(n, errors):
    pct = 100.0 * errors / n if n else 0.0
    return f"Tested {n}, errors {errors} ({pct:.1f}%)   <<"


def evaluation_text(clf, X, y, title="test data"):
    """c4.5rules' evaluation of the final rules on (X, y): the table of the rules
    that classified some case, and ``Tested N, errors E (p%)``."""
    check_is_fitted(clf, "rules_")
    cont, codes = clf._encode(X)
    if np.ndim(y) != 1 or len(y) != cont.shape[1]:
        raise ValueError(f"X has {cont.shape[1]} rows but y has shape {np.shape(y)}")
    y_codes = np.full(len(y), -1, dtype=np.int64)
    index = {c: i for i, c in enumerate(clf.classes_)}
    for i, label in enumerate(np.asarray(y, dtype=object)):
        y_codes[i] = index.get(label, -1)
    rules = [replace(r) for r in clf.rules_]       # the model's own counts stay
    fire = [rule_mask(r, cont, codes, clf._schema.col) for r in rules]
    pred, _ = tally(rules, fire, clf._default_index, len(y_codes), y_codes)
    errors = int(np.sum(pred != y_codes))
    out = [f"Evaluation on {title} ({len(y_codes)} items):"]
    # c4.5rules leaves a blank line here exactly when the data hold no unknown
    # value (all 300 problems of the R8 corpus; the training data always get one).
    schema = clf._schema
    discrete = [schema.col[j] for j in range(len(schema.n_values)) if schema.n_values[j] > 0]
    if not (np.isnan(cont).any() or (codes[discrete] <= 0).any()):
        out.append("")
    out += rule_table(rules)
    out += ["", tested_line(len(y_codes), errors)]
    return "\n".join(out) + "\n"
