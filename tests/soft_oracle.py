"""The soft thresholds' bounds in Python over numpy: the reference that c45/_soft.pyx's
compiled pass is compared with, bit for bit (it was the package's implementation;
c45/_soft.pyx's docstring describes the rule). Slow on deep trees: each
continuous test classifies its cases again through its whole subtree.
"""
import math

import numpy as np

from c45._ranks import rank_column
from c45._tree import LEAF_KIND, CONTINUOUS_KIND, SUBSET_KIND

# Arrays are moved this many values at a time (the interpreter handles signals
# between the chunks).
COPY_CHUNK = 1 << 18

# A value within this of the threshold counts as below it in the errors at the
# threshold (Release 8's tolerance there).
BELOW_TOLERANCE = 1e-6


def soft_bounds(tree, cont, codes, col, y, weight, f32):
    """(lower, upper): per node of tree, the soft bounds of its continuous test
    (NaN for the other nodes), from the training rows (cont (n_cont, m), codes
    (n_disc, m) as encoded for growing, col: each feature's row in them; y the
    class indices, weight the case weights)."""
    rnd = np.float32 if f32 else float
    n = tree.node_count
    lower = np.full(n, np.nan)
    upper = np.full(n, np.nan)
    y = np.asarray(y)
    weight = np.asarray(weight, dtype=np.float64)
    m = y.shape[0]
    reach = [None] * n          # rows reaching each node with known values above
    reach[0] = np.arange(m)
    for nd in range(n):         # parents come before their children
        # Each row is held by one node at a time (its rows go to its children):
        # the rows of every node at once would be N times the tree's depth.
        rows, reach[nd] = reach[nd], None
        if tree.kind[nd] == LEAF_KIND:
            continue
        branch = _branches(tree, nd, rows, cont, codes, col)
        first = tree.first_child[nd]
        for b in range(tree.n_children[nd]):
            reach[first + b] = rows[branch == b + 1]
        if tree.kind[nd] != CONTINUOUS_KIND:
            continue
        known = rows[branch > 0]
        if known.size == 0:
            lower[nd] = upper[nd] = tree.threshold[nd]
            continue
        wrong = [_classes(tree, first + b, known, cont, codes, col, f32) != y[known]
                 for b in range(2)]
        values = cont[col[tree.feature[nd]], known]
        lower[nd], upper[nd] = _bounds(values, wrong[0], wrong[1], weight[known],
                                       tree.threshold[nd], rnd)
    return lower, upper


def _branches(tree, nd, rows, cont, codes, col):
    """The branch (1-based) each row takes at test nd; 0 for an unknown value or
    a category the test has no branch for."""
    f = tree.feature[nd]
    if tree.kind[nd] == CONTINUOUS_KIND:
        v = cont[col[f], rows]
        out = np.where(v <= tree.threshold[nd], 1, 2)
        out[np.isnan(v)] = 0
        return out
    v = codes[col[f], rows].astype(np.int64)
    nv = tree.n_values[f] if tree.n_values is not None else v.max(initial=0)
    v = np.where((v < 0) | (v > nv), 0, v)
    if tree.kind[nd] == SUBSET_KIND:
        v = np.where(v > 0, tree.value_map[tree.map_offset[nd] + v], 0)
    return np.where(v <= tree.n_children[nd], v, 0)


def _classes(tree, start, rows, cont, codes, col, f32):
    """The class the tree gives each row classified from node start (§9: an
    unknown value goes down every branch, weighted by the branches' training
    weights; the first class of largest sum), summed in binary32 with f32 in
    the order Release 8 visits the leaves."""
    dt = np.float32 if f32 else np.float64
    k = tree.n_classes
    sums = np.zeros((rows.size, k), dtype=dt)
    # Depth first, branches in order: each row's leaves are added in visit order.
    stack = [(start, np.arange(rows.size), np.ones(rows.size, dtype=dt))]
    while stack:
        nd, at, w = stack.pop()
        if at.size == 0:
            continue
        if tree.kind[nd] == LEAF_KIND:
            items = dt(tree.weight[nd])
            if items > 0:
                for c in range(k):
                    v = dt(tree.value[nd, c])
                    if v != 0:
                        sums[at, c] = sums[at, c] + (w * v) / items
            else:
                c = tree.node_class[nd]
                sums[at, c] = sums[at, c] + w
            continue
        branch = _branches(tree, nd, rows[at], cont, codes, col)
        first = tree.first_child[nd]
        unknown = branch == 0
        parts = []
        for b in range(tree.n_children[nd]):
            go = branch == b + 1
            # The rows down branch b with their weight, an unknown one's a share
            # of it; in row order (no sort: a sort of millions of rows cannot be
            # interrupted).
            ww = w.copy()
            ww[unknown] = (w[unknown] * dt(tree.weight[first + b])) / dt(tree.weight[nd])
            take = go | unknown
            parts.append((first + b, at[take], ww[take]))
        stack.extend(reversed(parts))
    return np.argmax(sums, axis=1)        # the first largest


def _bounds(values, wrong1, wrong2, w, threshold, rnd):
    """Release 8's bounds of one test from its cases' values, whether each is
    misclassified down branch 1 / branch 2, and their weights.

    Release 8's running sums, each step rounded to the precision, are numpy's
    accumulations in that precision (sequential, as its loops: not np.sum's
    pairwise order): the same numbers, without a Python step per case."""
    dt = np.float32 if rnd is np.float32 else np.float64
    values, wrong1, wrong2, w = _sorted_by(values, wrong1, wrong2, w)
    first = np.flatnonzero(np.r_[True, values[1:] != values[:-1]])
    distinct = values[first]
    # E(u_j) = errors of the cases <= u_j down branch 1 + of the others down 2.
    e1 = np.where(wrong1, w, 0.0).astype(dt)
    e2 = np.where(wrong2, w, 0.0).astype(dt)
    below = values <= threshold + BELOW_TOLERANCE
    n = rnd(np.cumsum(w.astype(dt), dtype=dt)[-1])
    base = rnd(np.cumsum(np.where(below, e1, e2), dtype=dt)[-1])
    # The standard error in double, rounded to the precision, then added (Release
    # 8's last digits: all 6,037 interpolated bounds of the corpus).
    se = rnd(math.sqrt((float(base) + 0.5) * (float(n) - float(base) + 0.5)
                       / (float(n) + 1)))
    limit = rnd(base + se)
    last = np.append(first[1:], values.size)       # each distinct value's cases end
    # Case by case: branch 1's errors summed up, branch 2's total taken down.
    left = np.cumsum(e1, dtype=dt)
    right = np.subtract.accumulate(np.r_[np.cumsum(e2, dtype=dt)[-1:], e2], dtype=dt)[1:]
    errors = (left + right)[last - 1]
    u = distinct.astype(dt)
    at = int(np.searchsorted(distinct, threshold + BELOW_TOLERANCE, side="right")) - 1
    # The first fall to the limit coming up from below the threshold, the last
    # rise above it going up from it.
    lo = rnd(u[0])
    j = np.flatnonzero((errors[:-1] > limit) & (errors[1:] <= limit)) + 1
    j = j[j <= at]
    if j.size:
        j = int(j[0])
        lo = _between(rnd(u[j]), rnd(u[j - 1]), rnd(errors[j]), rnd(errors[j - 1]),
                      limit, rnd)
    hi = rnd(u[-1])
    j = np.flatnonzero((errors[:-1] <= limit) & (errors[1:] > limit))
    j = j[j >= max(at, 0)]
    if j.size:
        j = int(j[-1])
        hi = _between(rnd(u[j]), rnd(u[j + 1]), rnd(errors[j]), rnd(errors[j + 1]),
                      limit, rnd)
    t = rnd(threshold)
    return float(min(lo, t)), float(max(hi, t))


def _sorted_by(values, *others):
    """values sorted (stable, as np.argsort's "stable"), and the arrays others
    in the same order: c45/_ranks.pyx's sort, which looks for Ctrl-C, and the
    others moved in chunks (the interpreter handles signals between them)."""
    x = np.array(values, dtype=np.float64)
    ranks = np.empty(len(x), dtype=np.uint32)
    rank_column(x, ranks)
    out = [x.astype(np.asarray(values).dtype, copy=False)]
    for a in others:
        moved = np.empty_like(a)
        for i in range(0, len(a), COPY_CHUNK):
            moved[ranks[i:i + COPY_CHUNK]] = a[i:i + COPY_CHUNK]
        out.append(moved)
    return out


def _between(a, b, ea, eb, limit, rnd):
    """The point from a towards b where the errors, ea at a and eb at b, reach
    limit (linear in between)."""
    with np.errstate(over="ignore", invalid="ignore"):
        x = rnd(a + rnd(rnd(rnd(b - a) * rnd(limit - ea)) / rnd(eb - ea)))
    if math.isfinite(x):
        return x
    # a and b so far apart that b - a overflows (Release 8's arithmetic gives no
    # bound): the same point from the two ends weighted, which stays finite.
    t = (float(limit) - float(ea)) / (float(eb) - float(ea))
    return rnd(float(a) * (1.0 - t) + float(b) * t)
