"""C4.5 Release 8's rule generator ``c4.5rules`` (spec §11) as a scikit-learn classifier.

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
import numbers
from dataclasses import dataclass, field

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from c45._classifier import C45Classifier
from c45._criterion import pessimistic_extra_errors
from c45._encode import encode_predict
from c45._tree import CONTINUOUS_KIND, DISCRETE_KIND, LEAF_KIND, SUBSET_KIND

__all__ = ["C45RulesClassifier", "export_rules", "GlibcRandom", "Condition", "Rule"]

_LN2 = 0.69314718055994530942
# A rule takes part in the subset selection only if its error estimate is at most
# this (§11.4); it classifies a case only if its strength 1 - Error exceeds
# _MIN_STRENGTH (§11.6).
_MAX_SELECT_ERROR = 0.7
_MIN_STRENGTH = 0.1
_EXHAUSTIVE_MAX = 10          # classes with more rules get the greedy search
_GREEDY_TRIALS = 11           # trials t = 0..10, inclusion probability t/10


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

_OPS = {DISCRETE_KIND: "=", CONTINUOUS_KIND: None, SUBSET_KIND: "in"}


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
    """The code-length tables of §11.1."""

    def __init__(self, n, f32):
        self.f32 = f32
        lam = [-1e38] + [_r32(f32, _log2(i)) for i in range(1, n + 2)]
        self.lam = lam
        cum = [0.0]
        for i in range(1, n + 2):
            cum.append(cum[-1] + lam[i])
        self.cum = cum                   # Λ(i) = Σ_{1≤j≤i} λ(j), in binary64

    def λ(self, i):
        return self.lam[i]

    def Λ(self, i):
        return self.cum[i]


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
                    s += (nv / n) * (lengths.λ(n) - lengths.λ(nv))
            bits[f] = _r32(f32, s)
        else:
            x = cont[schema.col[f]]
            x = np.where(np.isnan(x), -999.0, x)       # -999 counts as a value (Q12)
            p = len(np.unique(x))
            bits[f] = 0.0 if p <= 1 else _r32(f32, 1.0 + lengths.λ(p) / 2.0)
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


def _exception_bits(n, fires, fp, fn):
    if fires > n / 2.0:
        return (_log2(n) + _biased(fires, fp, (fp + fn) / 2.0)
                + _biased(n - fires, fn, fn))
    return _log2(n) + _biased(fires, fp, fp) + _biased(n - fires, fn, (fp + fn) / 2.0)


def _fisher_p(a, b, c, d):
    """One-tailed Fisher exact p-value that the 2x2 table [[a, b], [c, d]] shows an
    association at least as strong as observed (rows: condition satisfied or not;
    columns: the rule's class or not)."""
    from scipy.stats import hypergeom
    total, row1, col1 = a + b + c + d, a + b, a + c
    return float(hypergeom.sf(a - 1, total, col1, row1))


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
        self.lengths = _Lengths(self.n, f32)
        self.att_bits, self.att_test_bits = _attribute_bits(
            cont, codes, schema, self.n, self.lengths, f32)
        self.class_count = np.bincount(self.y, minlength=self.k)
        self._u_cache = {}
        self._mask_cache = {}
        self.log = []                 # c4.5rules-style trace lines

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
                    out.append(_Candidate(list(path), int(t.node_class[node])))
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
            # (choice) Actual of an empty cover is 0; Pess is DefaultError (§11.3).
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
        conds = list(cand.conditions)
        trace = []
        while True:
            m = len(conds)
            masks = [self.mask(c) for c in conds]
            # all conditions, and all but d (prefix/suffix ANDs)
            prefix = [np.ones(n, dtype=bool)]
            for mk in masks:
                prefix.append(prefix[-1] & mk)
            suffix = [np.ones(n, dtype=bool)]
            for mk in reversed(masks):
                suffix.append(suffix[-1] & mk)
            suffix.reverse()          # suffix[d] = AND of masks[d:]
            cover = prefix[m]
            total0 = int(cover.sum())
            errors0 = int((cover & ~in_class).sum())
            actual0, pess0 = self._rates(total0, errors0, default_error)
            rows = [(errors0, total0, pess0, None)]
            if m == 0:
                trace.append(rows)
                break
            best, best_pess, drop = -1, None, False
            for d in range(m):
                others = prefix[d] & suffix[d + 1]
                total = int(others.sum())
                errors = int((others & ~in_class).sum())
                actual, pess = self._rates(total, errors, default_error)
                rows.append((errors, total, pess, d))
                if best_pess is None or pess <= best_pess:       # later d on ties
                    best, best_pess = d, pess
                if pess <= pess0 or actual <= actual0:
                    drop = True
                elif self.fisher is not None:
                    a = int((others & masks[d] & in_class).sum())
                    b = int((others & masks[d]).sum()) - a
                    c = int((others & ~masks[d] & in_class).sum())
                    dd = int((others & ~masks[d]).sum()) - c
                    if _fisher_p(a, b, c, dd) > self.fisher:
                        drop = True
            trace.append(rows + [("drop", best if drop else None)])
            if not drop:
                break
            del conds[best]
        cand.trace = trace
        cand.n_covered, cand.n_errors = total0, errors0
        if not conds or total0 == 0 or pess0 >= default_error:
            return None
        cand.conditions = self._reorder(conds)
        cand.error = pess0
        return pess0

    @staticmethod
    def _reorder(conds):
        """§11.3's condition order: a selection by (att, type, cut), reproduced scan
        for scan because the comparison is not a strict ordering."""
        conds = list(conds)
        for pos in range(len(conds)):
            pick = pos
            for j in range(pos + 1, len(conds)):
                x, y = conds[j], conds[pick]
                if (x.feature < y.feature or x.kind < y.kind
                        or (x.feature == y.feature and x.cut < y.cut)):
                    pick = j
            conds[pos], conds[pick] = conds[pick], conds[pos]
        return conds

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
                continue
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
        s = 0.0
        for c in rule.conditions:
            a = (self.schema.n_values[c.feature] if c.kind == SUBSET_KIND
                 else self.att_bits[c.feature])
            s += self.att_test_bits / self.redundancy + a
        m = len(rule.conditions)
        return _r32(self.f32, s + lg.λ(m) - lg.Λ(m))

    def rule_cover(self, rule):
        m = np.ones(self.n, dtype=bool)
        for c in rule.conditions:
            m &= self.mask(c)
        return m

    def _cost(self, bits, n_sel, cover, class_bits):
        lg = self.lengths
        fires = cover.bit_count()
        fp = (cover & ~class_bits).bit_count()
        fn = (class_bits & ~cover).bit_count()
        return 0.5 * (bits - lg.Λ(n_sel)) + _exception_bits(self.n, fires, fp, fn)

    def _subset_cost(self, sel, masks, bits, class_bits):
        cover, b = 0, 0.0
        for i in sel:
            cover |= masks[i]
            b += bits[i]
        return self._cost(b, len(sel), cover, class_bits)

    def select(self, rules, rng):
        """Per class, the cheapest subset of its rules (§11.4)."""
        all_bits = (1 << self.n) - 1
        self.active_cover = {}
        for r in rules:
            self.active_cover[r.number] = (_bitset(self.rule_cover(r))
                                           if r.error <= _MAX_SELECT_ERROR else 0)
        selected = {}
        self.selection = {}
        for c in range(self.k):
            class_bits = _bitset(self.y == c) & all_bits
            mine = [r for r in rules if r.class_index == c]
            masks = [self.active_cover[r.number] for r in mine]
            bits = [r.bits for r in mine]
            empty = self._cost(0.0, 0, 0, class_bits)
            if len(mine) <= _EXHAUSTIVE_MAX:
                best_sel, best_cost = self._exhaustive(masks, bits, class_bits)
                how = "exhaustive"
            else:
                best_sel, best_cost = self._greedy(masks, bits, class_bits, rng)
                how = "greedy"
            chosen = [mine[i] for i in best_sel]
            selected[c] = chosen
            self.selection[self.classes[c]] = dict(
                n_rules=len(mine), search=how, empty_cost=empty, cost=best_cost,
                selected=[r.number for r in chosen])
        return selected

    def _exhaustive(self, masks, bits, class_bits):
        R = len(masks)
        covers = [0] * (1 << R)
        sums = [0.0] * (1 << R)
        counts = [0] * (1 << R)
        best_s, best_cost = 0, None
        for s in range(1 << R):
            if s:
                low = (s & -s).bit_length() - 1
                prev = s & (s - 1)
                covers[s] = covers[prev] | masks[low]
                sums[s] = sums[prev] + bits[low]
                counts[s] = counts[prev] + 1
            cost = self._cost(sums[s], counts[s], covers[s], class_bits)
            if best_cost is None or cost < best_cost:
                best_s, best_cost = s, cost
        return [i for i in range(R) if best_s >> i & 1], best_cost

    def _greedy(self, masks, bits, class_bits, rng):
        R = len(masks)
        best_sel, best_cost = None, None
        for t in range(_GREEDY_TRIALS):
            p = t / 10.0
            inc = [rng.uniform() < p for _ in range(R)]
            cost = self._subset_cost([i for i in range(R) if inc[i]], masks, bits,
                                     class_bits)
            while True:
                best_i, best_gain = -1, 0.0
                for i in range(R):
                    inc[i] = not inc[i]
                    c2 = self._subset_cost([j for j in range(R) if inc[j]], masks,
                                           bits, class_bits)
                    inc[i] = not inc[i]
                    if cost - c2 > best_gain:
                        best_i, best_gain = i, cost - c2
                if best_i < 0:
                    break
                inc[best_i] = not inc[best_i]
                cost = self._subset_cost([j for j in range(R) if inc[j]], masks, bits,
                                         class_bits)
            if best_cost is None or cost < best_cost:
                best_sel, best_cost = [i for i in range(R) if inc[i]], cost
        return best_sel, best_cost

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
                cov |= self.active_cover[r.number]
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
    def evaluate(self, rules, default, cont=None, codes=None, y=None):
        """First and second choices on the training data (or on given matrices);
        fills each rule's used/wrong/better/worse. Returns the predicted codes."""
        if cont is None:
            cont, codes, y = self.cont, self.codes, self.y
            fire = [self.rule_cover(r) for r in rules]
        else:
            fire = [rule_mask(r, cont, codes, self.col) for r in rules]
        return tally(rules, fire, default, y)

    def drop_rules(self, rules, default):
        rules = list(rules)
        self.dropped = []
        while True:
            tally(rules, [self.rule_cover(r) for r in rules], default, self.y)
            for i, r in enumerate(rules):
                if r.used > 0 and r.worse > r.better:
                    self.dropped.append(r.number)
                    self.log.append(f"Drop rule {r.number}")
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


def rule_mask(rule, cont, codes, col):
    """Cases (columns) on which the rule fires: strength > 0.1 and every condition."""
    n = cont.shape[1] if cont.shape[0] else codes.shape[1]
    m = np.ones(n, dtype=bool)
    if 1.0 - rule.error <= _MIN_STRENGTH:
        m[:] = False
        return m
    for c in rule.conditions:
        m &= c.mask(cont, codes, col)
    return m


def tally(rules, fire, default, y=None):
    """Classify by the first firing rule (strength > 0.1) or the default; with y,
    record each rule's used/wrong/better/worse. Returns (predicted codes, index of
    the rule used or -1)."""
    n = len(fire[0]) if fire else (len(y) if y is not None else 0)
    first = np.full(n, -1, dtype=np.int64)
    second = np.full(n, -1, dtype=np.int64)
    for i, (r, f) in enumerate(zip(rules, fire)):
        if 1.0 - r.error <= _MIN_STRENGTH:
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
    form is turned into rules as c4.5rules does (spec §11):

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
        The final ordered ruleset (after the drops of §11.6). Each rule has
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
    grown_tree_ : Tree
        The unpruned tree the rules come from; ``tree_estimator_`` is the fitted
        C45Classifier (``pruning=None``) that grew it.

    Notes
    -----
    ``predict_proba`` is one-hot: the rules give a class, not a distribution. The
    firing rule's confidence is available through :meth:`apply` and ``rules_``.

    Unknown values (and categories unseen in training) satisfy no condition, in
    fitting and in prediction; a case without a firing rule gets the default class.

    Where spec §11 is silent, this implementation chooses: a condition set that
    covers no case has actual error rate 0 (its pessimistic rate is the default
    error, as specified); the code lengths, the rule bits and the error rates are
    stored in binary32 in float32 mode, the description costs are summed in
    binary64; the greedy search includes rule ``r`` when the draw is ``< t/10``
    and draws for every rule in every trial; the default class is not recomputed
    after rules are dropped. ``fisher`` follows the description of ``-F`` only.
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
        c = self.confidence
        if not isinstance(c, numbers.Real) or isinstance(c, bool) or not 0 < c <= 1:
            raise ValueError(f"confidence must be in (0, 1], got {c!r}")
        r = self.redundancy
        if (not isinstance(r, numbers.Real) or isinstance(r, bool) or not np.isfinite(r)
                or r <= 0):
            raise ValueError(f"redundancy must be a positive number, got {r!r}")
        f = self.fisher
        if f is None or f is False:
            return None
        if f is True:
            return 0.05
        if isinstance(f, numbers.Real) and 0 < f < 1:
            return float(f)
        raise ValueError(f"fisher must be False, True or a significance level in (0, 1), "
                         f"got {f!r}")

    def _rules_cf(self):
        if self.precision != "float32":
            return float(self.confidence)
        pct = np.float32(float(self.confidence) * 100.0)      # -c is a percentage
        return float(np.float32(pct / np.float32(100.0)))

    def fit(self, X, y):
        """Grow the tree on (X, y) and derive the ruleset from it."""
        fisher = self._check_rule_params()
        grow = {p: getattr(self, p) for p in _GROW_PARAMS}
        tree_clf = C45Classifier(pruning=None, **grow).fit(X, y)
        data = tree_clf._train[0]
        cont, codes, y_codes = data[0], data[1], data[4]
        schema = tree_clf._schema
        f32 = self.precision == "float32"
        names = getattr(tree_clf, "feature_names_in_", None)
        if names is None:
            names = [f"x{j}" for j in range(schema.n_features)]
        builder = RuleBuilder(tree_clf.grown_tree_, cont, codes, y_codes, schema,
                              list(names), tree_clf.categories_, tree_clf.classes_,
                              confidence=self._rules_cf(),
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
        self.default_class_ = self.classes_[default]
        self._default_index = default
        self.candidate_rules_ = builder.rules
        self.selection_ = builder.selection
        self.class_order_ = [self.classes_[c] for c in builder.class_order]
        self.dropped_rules_ = list(builder.dropped)
        self.attribute_bits_ = builder.att_bits
        self.attribute_test_bits_ = builder.att_test_bits
        return self

    def _encode(self, X):
        check_is_fitted(self, "rules_")
        cont, codes = encode_predict(self._schema, X, self.precision == "float32")
        return cont, codes

    def apply(self, X):
        """Position in ``rules_`` of the rule that classifies each row (the first
        whose conditions hold), or -1 where the default class applies."""
        cont, codes = self._encode(X)
        fire = [rule_mask(r, cont, codes, self._schema.col) for r in self.rules_]
        n = cont.shape[1] if cont.shape[0] else codes.shape[1]
        if not fire:
            return np.full(n, -1, dtype=np.int64)
        return tally(self.rules_, fire, self._default_index)[1]

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

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        return tags


def export_rules(clf, evaluation=False):
    """The ruleset as c4.5rules prints it.

    ::

        Rule 5:
            	wage increase first year > 2.5
            	statutory holidays > 10
        	->  class good  [93.0%]

        Default class: good

    Rules come in their final order, numbered as c4.5rules numbers them; a
    condition line is four spaces and a tab, the class line a tab,
    ``->  class C  [nn.n%]`` with the rule's confidence ``1 - error``. Continuous
    thresholds are printed with ``%g``. With ``evaluation=True`` c4.5rules' table of
    the rules on the training data follows (Rule, Size, Error, Used, Wrong,
    Advantage as ``better - worse (better|worse)``, class).
    """
    check_is_fitted(clf, "rules_")
    out = ["Final rules:", ""]
    for r in clf.rules_:
        out.append(str(r))
        out.append("")
    out.append(f"Default class: {clf.default_class_}")
    if evaluation:
        out += ["", "", "Rule  Size  Error  Used  Wrong\t          Advantage",
                "----  ----  -----  ----  -----\t          ---------"]
        for r in clf.rules_:
            pct = 100.0 * r.wrong / r.used if r.used else 0.0
            out.append(f"{r.number:4d}  {len(r.conditions):4d}  {100 * r.error:4.1f}%  "
                       f"{r.used:4d}  {r.wrong:4d} ({pct:4.1f}%)\t  {r.advantage:5d} "
                       f"({r.better}|{r.worse}) \t{r.class_}")
    return "\n".join(out) + "\n"
