"""A slow, literal, pure-Python oracle for C4.5 Release 8 (default options only).

Written from the project's specification (/work/shared/c45-spec.md, "the spec"),
section by section: gain ratio, plain multiway discrete tests, continuous
thresholds, fractional unknowns, pessimistic pruning with subtree raising and
classification.  No value grouping (-s) and no windowing.  Section numbers in the
comments (§n) refer to the spec.

Two numeric models (§0.2):

* ``precision="float32"``: every ⊕ ⊖ ⊗ ⊘ of the spec is a binary64 operation
  rounded to binary32 with ``r32`` (exact for + - * / sqrt); "(d)" steps are done
  in binary64 and rounded with ``r32`` where the spec stores them.
* ``precision="float64"``: the same algorithm with ``r32`` replaced by the identity.

Project decisions that complete or deviate from the spec:

1. Unknown continuous value = NaN only (a literal -999 is an ordinary value);
   unknown discrete value = code 0.
2. §13 Q1: if after computing the stored threshold every known case at the node
   goes to the same branch, the node stays a leaf.
3. ``weights=None``: all weights 1 and count mode (§1.4) starts on.  With given
   weights, count mode is off for the whole run and the weights are the initial
   weights (for growing and again for pruning).
4. ``N`` in the many-valued test of §6 is the total initial weight.
5. Pruning, internal node where no known case arrives: no branch is visited,
   ``tree`` = the leaf estimate and ``maxBr`` = the last branch with the largest
   stored ``Items``.  ``W == 0`` gives ``E = U = 0``.
6. Children are stored in branch order (discrete: branch v <-> code v;
   continuous: branch 1 is ``value <= cut``, branch 2 is ``value > cut``).

7. ``precision="float64"`` orders a node's cases for a continuous attribute
   canonically, unknown values first by case index, then the known ones by
   (value, case index), instead of Release 8's swap partition and quicksort: same
   cuts, same decisions; only the order of float64 sums (with fractional weights)
   differs.
8. ``precision="float64"`` evaluates a node's discrete attributes before its
   continuous ones (on the node's entry order), so the evaluation order, or
   threads, cannot change any sum.

9. ``precision="float64"`` takes every other sum of growing in row order (case
   index): a node's weight and class distribution, the discrete tables, the
   unknown and per-branch weights of §2 step 9; it scales the unknown cases'
   weights from their saved values and restores them exactly instead of dividing
   back. Pruning (§8.2) does the same. A node's tree and its estimate then depend
   only on its cases and weights, never on the order they were visited in, which
   lets the core grow from presorted lists (c45/_presorted.pyx) and prune on case
   lists (c45/_prune.pyx).

Two corrections to the spec, taught by Release 8's own outputs on the R8 corpus
(300 generated problems with unknown values, ``tests/data/r8-random.tar.xz``);
they matter only with fractional weights, where a float32 sum's last bit can
decide a MINOBJS or MinSplit test or a leaf's class sums:

R1. §5.1 (``precision="float32"``): the continuous evaluation sums the node's
    weight ``W`` again over the cases in their current order (the order the
    previous attribute's sort left), and uses that sum throughout §5, instead of
    the node's weight of §2 step 1.
R2. §8.2 step 5: pruning's known weight is the sum of the known cases' weights in
    array order, not ``W`` less the unknown ones (growing, §2 step 9, does
    subtract).

Where the spec leaves room, this oracle reads it as follows:

* §2 step 9 / §8.2 step 5: the cases of branch v are gathered from the whole known
  part [first known .. hi] each time (right after the unknowns), so the child's
  range is [lo .. end]; the unknowns are re-gathered over [lo .. end].  Pruning
  undoes the scaling by division, as growing does.
* §6 step 3: only attributes with ``Gain > -eps`` can be chosen (§6 step 4), so an
  unusable attribute never wins even when ``AvGain`` is negative.
* §6: ``0.3*N`` is compared in binary64; ``N`` (decision 4) is the binary32 sum of
  the initial weights in case order.
* Decision 5 applies with ``update`` true or false.  It cannot actually be reached
  by pruning the training cases: every visited node sees at least the cases it saw
  while growing.

Trees are plain tuples, so they compare with ``==``:

* ``("leaf", cls, items, errors, dist)``
* ``("split", attribute, cut, cls, items, errors, dist, children)``
  (``cut`` is None for a discrete test).
"""

import copy
import math
import sys

import numpy as np

EPS = 1e-3                       # §0.3 epsilon, a binary64 literal
LN2 = 0.69314718055994530942     # §0.2 divisor of L(x)


def r32(x):
    """Round a binary64 number to the nearest binary32 (ties to even)."""
    return float(np.float32(x))


class Arith:
    """The numeric model of §0.2: ⊕ ⊖ ⊗ ⊘ round with ``self.r``."""

    def __init__(self, precision):
        if precision == "float32":
            self.r = r32
        elif precision == "float64":
            self.r = float
        else:
            raise ValueError("precision must be 'float32' or 'float64'")

    def add(self, a, b):
        return self.r(a + b)

    def sub(self, a, b):
        return self.r(a - b)

    def mul(self, a, b):
        return self.r(a * b)

    def div(self, a, b):
        return self.r(a / b)

    def sum(self, values):
        """Binary32 sum in list order, starting from 0."""
        total = 0.0
        for v in values:
            total = self.add(total, v)
        return total

    def L(self, x):
        """§0.2: L(x) = log2 of the binary32-rounded x, 0 for x <= 0 (binary64)."""
        return 0.0 if x <= 0 else math.log(self.r(x)) / LN2

    def TI(self, counts):
        """§0.4 total information T*log2(T) - sum n*log2(n), in list order."""
        s = 0.0
        t = 0.0
        for n in counts:
            s = self.r(s + n * self.L(n))
            t = self.add(t, n)
        return self.r(t * self.L(t) - s)


def _is_unknown(value):
    return value != value                     # NaN (project decision 1)


class Node:
    """A mutable tree node while growing and pruning (§2 step 3)."""

    def __init__(self, cls, items, errors, dist):
        self.kind = "leaf"                    # "leaf" or "split"
        self.cls = cls
        self.items = items
        self.errors = errors
        self.dist = dist
        self.att = None
        self.cut = None                       # threshold, None for discrete
        self.children = []

    def as_tuple(self):
        if self.kind == "leaf":
            return ("leaf", self.cls, self.items, self.errors, tuple(self.dist))
        return ("split", self.att, self.cut, self.cls, self.items, self.errors,
                tuple(self.dist), tuple(c.as_tuple() for c in self.children))


class C45Run:
    """The global state of one run: the case array, the weights, count mode."""

    def __init__(self, columns, kinds, y, n_classes, weights, min_objs,
                 confidence, precision):
        self.a = a = Arith(precision)
        self.kinds = list(kinds)
        self.k = n_classes
        self.minobjs = min_objs
        n = len(y)
        self.y = [int(c) for c in y]
        self.X = []                           # X[att][case id]
        for col, kind in zip(columns, kinds):
            if kind is None:
                self.X.append([a.r(float(v)) for v in col])
            else:
                self.X.append([int(v) for v in col])
        self.cases = list(range(n))           # the one case array (§0.5)
        self.pruning = False                  # set for §8.2 (correction R2)
        if weights is None:                   # project decision 3
            self.initial_w = [1.0] * n
            self.initial_count_mode = True
        else:
            self.initial_w = [a.r(float(v)) for v in weights]
            self.initial_count_mode = False
        self.w = list(self.initial_w)         # weight per case id
        self.count_mode = self.initial_count_mode
        self.N = a.sum(self.initial_w)        # project decision 4
        self.multival = all(kind is not None and kind >= 0.3 * self.N
                            for kind in self.kinds)               # §6.1
        self.tested = [0] * len(kinds)        # path marks (§2 step 8.4)
        self.minus_eps = a.r(-EPS)
        self.cf = a.r(confidence)
        self.coeff = self.coefficient(self.cf)
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * n + 1000))

    # ---- §1.4, §1.5: totals over a range of the case array -------------------
    def total_weight(self, lo, hi):
        if self.count_mode and self.a.r is r32:     # float64: a sum of ones is the count
            return float(max(hi - lo + 1, 0))
        return self.a.sum(self.w[self.cases[i]] for i in range(lo, hi + 1))

    def class_dist(self, lo, hi):
        dist = [0.0] * self.k
        for i in range(lo, hi + 1):
            c = self.cases[i]
            dist[self.y[c]] = self.a.add(dist[self.y[c]], self.w[c])
        return dist

    # ---- §0.5: the two reordering primitives ---------------------------------
    def group(self, lo, hi, belongs):
        """Swap the cases that belong to the front of [lo..hi]; return write - 1."""
        cases = self.cases
        m = lo
        for i in range(lo, hi + 1):
            if belongs(cases[i]):
                cases[m], cases[i] = cases[i], cases[m]
                m += 1
        return m - 1

    def quicksort(self, lo, hi, att):
        """sort.c: recursive quicksort of [lo..hi] by the value of att."""
        cases, X = self.cases, self.X[att]
        if lo < hi:
            pivot = X[cases[hi]]                                      # step 1
            m = lo
            for i in range(lo, hi):                                   # step 2
                if X[cases[i]] <= pivot:
                    if i != m:
                        cases[m], cases[i] = cases[i], cases[m]
                    m += 1
            q = m - 1
            for j in range(m - 1, lo - 1, -1):                        # step 3
                if X[cases[j]] == pivot:
                    if j != q:
                        cases[q], cases[j] = cases[j], cases[q]
                    q -= 1
            self.quicksort(lo, q, att)                                # step 4
            cases[m], cases[hi] = cases[hi], cases[m]                 # step 5
            self.quicksort(m + 1, hi, att)                            # step 6

    def outcome(self, att, cut, case):
        """Branch number of a case at a test (0 = unknown outcome)."""
        value = self.X[att][case]
        if self.kinds[att] is None:
            if _is_unknown(value):
                return 0
            return 1 if value <= cut else 2
        return value

    # ---- §2 steps 8-10 (and §8.2 step 5): walking the branches of a test ---------
    def branches(self, att, cut, n_branches, lo, hi, W):
        """Yield (v, end, f) for v = 1..B: the branch-v cases plus the unknown ones
        are at [lo..end] with the unknown weights multiplied by f; end is None if
        no known case has outcome v (nothing is scaled then)."""
        a, w = self.a, self.w
        unknown = lambda c: self.outcome(att, cut, c) == 0
        kp = self.group(lo, hi, unknown) + 1           # unknowns at [lo..kp-1]
        saved_mode = self.count_mode
        if kp > lo:
            self.count_mode = False
        known_w = a.sub(W, self.total_weight(lo, kp - 1))
        if self.pruning:
            # Correction R2: pruning sums the known weights instead.
            known_w = self.total_weight(kp, hi)
        for v in range(1, n_branches + 1):
            end = self.group(kp, hi, lambda c: self.outcome(att, cut, c) == v)
            if end < kp:
                yield v, None, None
                continue
            f = a.div(self.total_weight(kp, end), known_w)
            for i in range(lo, kp):
                w[self.cases[i]] = a.mul(w[self.cases[i]], f)
            yield v, end, f
            self.group(lo, end, unknown)              # re-gather the unknowns
            for i in range(lo, kp):
                w[self.cases[i]] = a.div(w[self.cases[i]], f)
        self.count_mode = saved_mode

    def branches64(self, att, cut, n_branches, lo, hi, W):
        """float64 growing (project decision 9): branches() with every sum in row
        order and the scaled weights restored exactly (saved, not divided)."""
        a, w = self.a, self.w
        node_cases = sorted(self.cases[lo:hi + 1])
        unknown = [c for c in node_cases if self.outcome(att, cut, c) == 0]
        saved = [w[c] for c in unknown]
        known_w = a.sub(W, a.sum(saved))
        for v in range(1, n_branches + 1):
            members = [c for c in node_cases if self.outcome(att, cut, c) == v]
            if not members:
                yield v, None, None
                continue
            f = a.div(a.sum(w[c] for c in members), known_w)
            for c, old in zip(unknown, saved):
                w[c] = a.mul(old, f)
            self.cases[lo:lo + len(unknown) + len(members)] = unknown + members
            yield v, lo + len(unknown) + len(members) - 1, f
            for c, old in zip(unknown, saved):
                w[c] = old
        self.cases[lo:hi + 1] = node_cases

    # ---- §2: growing ----------------------------------------------------------
    def grow(self, lo, hi):
        a = self.a
        f64 = a.r is not r32
        if f64:                             # project decision 9: sums in row order
            self.cases[lo:hi + 1] = sorted(self.cases[lo:hi + 1])
        W = self.total_weight(lo, hi)                                 # step 1
        dist = self.class_dist(lo, hi)
        best = first_max(dist)                                        # step 2
        node = Node(best, W, a.sub(W, dist[best]), dist)              # step 3
        if dist[best] == W or W < 2 * self.minobjs:                   # step 4
            return node

        n_att = len(self.kinds)                                       # step 5
        gains, infos, bars = [None] * n_att, [None] * n_att, [None] * n_att
        # R8 evaluates in attribute order, each continuous attribute reordering the
        # cases for the next. float64 mode (project decision 8) evaluates the
        # discrete attributes first, on the node's entry order, so that the result
        # does not depend on the order (or the threads) of evaluation.
        order = [att for att, kind in enumerate(self.kinds) if kind is not None]
        order += [att for att, kind in enumerate(self.kinds) if kind is None]
        for att in (order if a.r is not r32 else range(n_att)):
            kind = self.kinds[att]
            if kind is None:
                g, i, bar = self.evaluate_continuous(att, lo, hi, W)
            elif self.tested[att]:
                g, i, bar = self.minus_eps, 0.0, None
            else:
                g, i = self.evaluate_discrete(att, lo, hi, W)
                bar = None
            gains[att], infos[att], bars[att] = g, i, bar

        att = self.select(gains, infos)                               # step 6
        if att is None:
            return node
        if self.kinds[att] is None:                                   # step 7
            cut = self.stored_threshold(att, bars[att])
            known = [self.X[att][self.cases[i]] for i in range(lo, hi + 1)
                     if not _is_unknown(self.X[att][self.cases[i]])]
            if all(v <= cut for v in known) or all(v > cut for v in known):
                return node                                 # project decision 2
            n_branches = 2
        else:
            cut = None
            n_branches = self.kinds[att]
        node.kind, node.att, node.cut = "split", att, cut

        self.tested[att] += 1                                         # step 8
        node.errors = 0.0
        walk = self.branches64 if f64 else self.branches
        for v, end, f in walk(att, cut, n_branches, lo, hi, W):       # step 9
            if end is None:
                child = Node(best, 0.0, 0.0, list(dist))      # empty leaf
            else:
                child = self.grow(lo, end)
                node.errors = a.add(node.errors, child.errors)
            node.children.append(child)
        self.tested[att] -= 1                                         # step 10

        if node.errors >= a.sub(W, dist[best]) - EPS:                 # step 11
            node.kind = "leaf"                # collapse, Errors keeps the sum
        return node

    # ---- §3: gain over outcomes 1..B ----------------------------------------------
    def gain(self, rows, totals, base, K, r):
        """rows[v-1] = freq[v][0..k-1], totals[v-1] = V_v, for v = 1..B."""
        a = self.a
        if K == 0:                                                    # step 1
            return self.minus_eps
        if sum(1 for t in totals if t >= self.minobjs) < 2:           # step 2
            return self.minus_eps
        I = a.sum(a.TI(row) for row in rows)                          # step 3
        return a.mul(a.sub(1.0, r), a.sub(base, a.div(I, K)))         # step 4

    # ---- §4.1: plain multiway discrete test --------------------------------------
    def evaluate_discrete(self, att, lo, hi, W):
        a, k = self.a, self.k
        V = self.kinds[att]
        freq = [[0.0] * k for _ in range(V + 1)]           # freq[v][c], v=0 unknown
        for i in range(lo, hi + 1):
            c = self.cases[i]
            row = freq[self.X[att][c]]
            row[self.y[c]] = a.add(row[self.y[c]], self.w[c])
        totals = [a.sum(row) for row in freq]              # V_v in class order
        u = totals[0]
        K = a.sub(W, u)
        if W <= u:
            return self.minus_eps, 0.0
        m = [a.sum(freq[v][c] for v in range(1, V + 1)) for c in range(k)]
        class_sum = 0.0                                    # binary64 sum
        for mc in m:
            class_sum += mc * a.L(mc)
        base = a.r((K * a.L(K) - class_sum) / K)
        r = a.div(u, W)
        gain = self.gain(freq[1:], totals[1:], base, K, r)
        info = a.div(a.TI(totals), W)
        return gain, info

    # ---- §5: continuous attributes -----------------------------------------------
    def evaluate_continuous(self, att, lo, hi, W):
        """Return (gain, info, bar); reorders [lo..hi]: unknowns first, then sorted."""
        a, k, X, cases = self.a, self.k, self.X[att], self.cases
        unusable = (self.minus_eps, 0.0, None)
        if a.r is r32:
            # Correction R1: R8 counts the node's weight again, in the order the
            # previous attribute left the cases.
            W = self.total_weight(lo, hi)
        # §5.1 preparation
        if a.r is r32:
            kp = self.group(lo, hi, lambda c: _is_unknown(X[c])) + 1  # step 2
        else:
            # float64 mode (project decision 7): one canonical order, unknown
            # cases first by case index, then the known ones by value and index.
            cases[lo:hi + 1] = sorted(cases[lo:hi + 1], key=lambda c: (
                not _is_unknown(X[c]), 0.0 if _is_unknown(X[c]) else X[c], c))
            kp = lo + sum(1 for c in cases[lo:hi + 1] if _is_unknown(X[c]))
        unknown_freq = [0.0] * k
        for i in range(lo, kp):
            c = cases[i]
            unknown_freq[self.y[c]] = a.add(unknown_freq[self.y[c]], self.w[c])
        u = a.sum(unknown_freq)
        K = a.sub(W, u)
        r = a.r(1.0 - a.div(K, W))
        if K < 2 * self.minobjs:                                      # step 3
            return unusable
        if self.a.r is r32:
            self.quicksort(kp, hi, att)                               # step 4
        right = self.class_dist(kp, hi)
        base = a.div(a.TI(right), K)
        min_split = a.r(0.10 * K / k)                                 # step 5
        if min_split <= self.minobjs:
            min_split = float(self.minobjs)
        elif min_split > 25:
            min_split = 25.0

        # §5.2 candidate cuts
        left = [0.0] * k
        low = 0.0
        tries = 0
        candidates = []                             # (gain_i, split_i, v_i, v_i+1)
        for i in range(kp, hi):
            c = cases[i]
            low = a.add(low, self.w[c])                               # step 1
            left[self.y[c]] = a.add(left[self.y[c]], self.w[c])
            right[self.y[c]] = a.sub(right[self.y[c]], self.w[c])
            if low < min_split:                                       # step 2
                continue
            if low > a.sub(K, min_split):
                break
            if X[c] < X[cases[i + 1]] - 1e-5:                         # step 3
                V1, V2 = low, a.sub(K, low)
                g = self.gain([left, right], [V1, V2], base, K, r)
                split = a.div(a.TI([u, V1, V2]), W)
                tries += 1
                candidates.append((g, split, X[c], X[cases[i + 1]]))

        # §5.3 choosing the cut: first maximum of the penalised gain above 0
        penalty = a.r(a.L(tries) / W)
        best, chosen = 0.0, None
        for g, split, v1, v2 in candidates:
            val = a.sub(g, penalty)
            if val > best:
                best, chosen = val, (split, v1, v2)
        if chosen is None:
            return unusable
        split, v1, v2 = chosen
        return best, split, a.div(a.add(v1, v2), 2.0)

    def stored_threshold(self, att, bar):
        """§5.4: the largest known value in the whole training set that is <= bar."""
        return max(v for v in self.X[att] if not _is_unknown(v) and v <= bar)

    # ---- §6: attribute selection ------------------------------------------------
    def worth(self, info, gain, threshold):
        if gain >= threshold - EPS and info > EPS:
            return self.a.div(gain, info)
        return self.minus_eps

    def select(self, gains, infos):
        a = self.a
        possible, total = 0, 0.0                                      # step 1
        for att, g in enumerate(gains):
            n_values = self.kinds[att] or 0          # 0 for continuous
            if g > -EPS and (self.multival or n_values < 0.3 * self.N):
                possible += 1
                total = a.add(total, g)
        av_gain = a.div(total, float(possible)) if possible else 1e6
        best_val, best_att = self.minus_eps, None                     # step 3
        for att, g in enumerate(gains):
            if g > -EPS:                             # unusable ones never win
                val = self.worth(infos[att], g, av_gain)
                if val > best_val:
                    best_val, best_att = val, att
        return best_att

    # ---- §8.1: extra errors U(N, E) -------------------------------------------------
    def coefficient(self, cf):
        a = self.a
        val = [a.r(x) for x in (0, .001, .005, .01, .05, .10, .20, .40, 1.00)]
        dev = [a.r(x) for x in (4.0, 3.09, 2.58, 2.33, 1.65, 1.28, 0.84, 0.25, 0.00)]
        i = next(i for i in range(len(val)) if cf <= val[i])
        z = a.add(dev[i - 1], a.div(a.mul(a.sub(dev[i], dev[i - 1]),
                                          a.sub(cf, val[i - 1])),
                                    a.sub(val[i], val[i - 1])))
        return a.mul(z, z)

    def extra_errors(self, N, E):
        a, coeff = self.a, self.coeff
        if E < 1e-6:                                                  # case 1
            return a.r(N * (1 - math.exp(math.log(self.cf) / N)))
        if E < 0.9999:                                                # case 2
            U0 = self.extra_errors(N, 0.0)
            return a.add(U0, a.mul(E, a.sub(self.extra_errors(N, 1.0), U0)))
        if E + 0.5 >= N:                                              # case 3
            return a.r(0.67 * a.sub(N, E))
        e = E + 0.5                                                   # case 4
        p = a.r((e + a.div(coeff, 2.0)
                 + math.sqrt(coeff * (e * (1 - e / N) + a.div(coeff, 4.0))))
                / a.add(N, coeff))
        return a.sub(a.mul(N, p), E)

    # ---- §8.2: pessimistic pruning with subtree raising ----------------------------
    def estimate(self, node, lo, hi, update):
        a = self.a
        f64 = a.r is not r32
        if f64:                             # project decision 9: sums in row order
            self.cases[lo:hi + 1] = sorted(self.cases[lo:hi + 1])
        W = self.total_weight(lo, hi)                                 # step 1
        dist = self.class_dist(lo, hi)
        best = node.cls                                               # step 2
        for c in range(self.k):
            if dist[c] > dist[best]:
                best = c
        E = a.sub(W, dist[best])                                      # step 3
        U = self.extra_errors(W, E) if W > 0 else 0.0
        if update:
            node.items, node.cls, node.dist = W, best, dist
        leaf = a.add(E, U)
        if node.kind == "leaf":                                       # step 4
            if update:
                node.errors = leaf
            return leaf

        tree, max_f, max_br = 0.0, 0.0, None                          # step 5
        n_branches = len(node.children)
        walk = self.branches64 if f64 else self.branches
        for v, end, f in walk(node.att, node.cut, n_branches, lo, hi, W):
            if end is None:
                continue                      # not visited, adds 0
            if f >= max_f:
                max_br, max_f = v, f
            tree = a.add(tree, self.estimate(node.children[v - 1], lo, end, update))
        if max_br is None:                    # no known case: project decision 5
            tree = leaf
            items = [child.items for child in node.children]
            max_br = max(v for v in range(1, n_branches + 1)
                         if items[v - 1] == max(items))
        if not update:
            return tree

        largest = node.children[max_br - 1]                           # step 6
        branch = self.estimate(largest, lo, hi, False)
        if leaf <= branch + 0.1 and leaf <= tree + 0.1:               # step 7
            node.kind = "leaf"
            node.errors = leaf
        elif branch <= tree + 0.1:
            self.estimate(largest, lo, hi, True)
            vars(node).update(vars(largest))  # raise the subtree into this node
        else:
            node.errors = tree
        return node.errors                                            # step 8


def first_max(values):
    """Index of the first maximum (§0.1)."""
    best = 0
    for i, v in enumerate(values):
        if v > values[best]:
            best = i
    return best


def fit_oracle(columns, kinds, y, n_classes, weights=None, min_samples_leaf=2,
               confidence=0.25, precision="float64"):
    """Grow (§2) and prune (§8) a C4.5 R8 tree with default options.

    columns: list of 1-D arrays, one per attribute (all of length n).  A continuous
    attribute is float with NaN = unknown; a discrete attribute holds codes 1..V,
    0 = unknown.  kinds: None for a continuous attribute, V for a discrete one.
    y: class codes 0..n_classes-1.  weights: None or positive floats.
    Returns (grown, pruned) as tuples (see the module docstring).
    """
    run = C45Run(columns, kinds, y, n_classes, weights, min_samples_leaf,
                 confidence, precision)
    n = len(run.cases)
    root = run.grow(0, n - 1)
    grown = root.as_tuple()
    # §8.2: prune a copy, with the initial weights and count mode, starting from
    # the case order that growing left.
    pruned_root = copy.deepcopy(root)
    run.w = list(run.initial_w)
    run.count_mode = run.initial_count_mode
    run.pruning = True
    run.estimate(pruned_root, 0, n - 1, True)
    return grown, pruned_root.as_tuple()


def _items(node):
    return node[2] if node[0] == "leaf" else node[4]


def classify_oracle(tree, row, kinds, n_classes, precision="float64"):
    """§9: the class sums for one case (a list of n_classes floats)."""
    a = Arith(precision)
    sums = [0.0] * n_classes

    def visit(node, w):
        if node[0] == "leaf":
            _, cls, items, _, dist = node
            if items > 0:
                for c, d in enumerate(dist):
                    if d != 0:
                        sums[c] = a.add(sums[c], a.div(a.mul(w, d), items))
            else:
                sums[cls] = a.add(sums[cls], w)
            return
        _, att, cut, _, items, _, _, children = node
        value = row[att]
        if kinds[att] is None:
            value = a.r(float(value))
            branch = 0 if _is_unknown(value) else (1 if value <= cut else 2)
        else:
            value = int(value)
            branch = value if 1 <= value <= len(children) else 0
        if branch:
            visit(children[branch - 1], w)
        else:
            for child in children:
                visit(child, a.div(a.mul(w, _items(child)), items))

    visit(tree, 1.0)
    return sums


def predict_oracle(tree, row, kinds, n_classes, precision="float64"):
    """§9 step 3: the first class with the largest sum."""
    return first_max(classify_oracle(tree, row, kinds, n_classes, precision))


def tree_size(tree):
    """Number of nodes, empty leaves included (§10)."""
    if tree[0] == "leaf":
        return 1
    return 1 + sum(tree_size(child) for child in tree[7])
