"""The pruning kinds that work on a grown tree's arrays alone (no training cases):
cost-complexity (a textbook rule), reduced-error on validation data (J48 -R), and
the subset cleanup that follows pessimistic pruning under -s.
Pessimistic pruning itself needs the training cases and lives in _prune.pyx.

A Tree lists parents before children, so a reverse scan of the nodes is bottom-up.
Beside a busy Python thread every numpy call on a tree's arrays (of more than a
few hundred nodes) hands the GIL over and waits a switch interval to get it
back, so the passes over nodes are compiled loops: those of one pass over the
nodes keep the GIL (a few microseconds per thousand nodes), the pruning path's
pass per alpha runs without it. A pass over the nodes' class weights (at
thousands of classes, tens of kB a node) looks for signals as it goes
(check_by_cells): the interpreter runs no handler inside this module. Sums are numpy's own (its pairwise summation,
c45/_sums.pxd), and the logarithms numpy's np.log2, so that every number is the
one numpy's array arithmetic gave.
"""

import numpy as np
from c45._bulk import zeros, elementwise
cimport numpy as cnp
from libc.math cimport NAN, INFINITY, isfinite, copysign
from libc.stdlib cimport malloc, free
from libc.stdint cimport int32_t, int64_t

from c45._types cimport LEAF, Interrupt
from c45._sums cimport pairwise
from c45._interrupt cimport (interrupt_init, interrupt_end, interrupted, raise_interrupt,
                             check_by_cells)
from c45._tree import LEAF_KIND, SUBSET_KIND, Tree

cnp.import_array()


def pairwise_sum(values):
    """sum(values) added up as np.sum adds a float64 array of them (`pairwise`)."""
    cdef const double[::1] v = np.ascontiguousarray(values, dtype=np.float64)
    if v.shape[0] == 0:
        return copysign(0.0, -1.0)
    return pairwise(&v[0], v.shape[0])


def leaf_information(tree):
    """N_t * Entropy(D_t) of every node, in bits (C4.5's TI of its class weights):
    N log2 N - sum(v log2 v) over the classes' weights v > 0, 0 for N = 0."""
    cdef const double[:, ::1] v = tree.value
    cdef Py_ssize_t n = v.shape[0], k = v.shape[1], i, j, cells = 0
    positive = np.empty((n, k), dtype=np.float64)   # v, 1 where v <= 0 (log2 of 1: 0)
    totals = np.empty(n, dtype=np.float64)          # N, 1 where N <= 0
    cdef double[:, ::1] pv = positive
    cdef double[::1] tv = totals
    cdef double[::1] nv = np.empty(n, dtype=np.float64)
    for i in range(n):
        nv[i] = pairwise(&v[i, 0], k)
        tv[i] = nv[i] if nv[i] > 0 else 1.0
        for j in range(k):
            pv[i, j] = v[i, j] if v[i, j] > 0 else 1.0
        check_by_cells(&cells, 2 * k)
    # numpy's logarithms (bit for bit what a call over all the nodes gives)
    cdef const double[:, ::1] lv = elementwise(np.log2, positive)
    cdef const double[::1] ln = elementwise(np.log2, totals)
    out = np.empty(n, dtype=np.float64)
    cdef double[::1] info = out
    cdef double* terms = <double*> malloc(k * sizeof(double))
    if terms == NULL:
        raise MemoryError()
    try:
        for i in range(n):
            for j in range(k):
                terms[j] = v[i, j] * lv[i, j] if v[i, j] > 0 else 0.0
            info[i] = nv[i] * ln[i] - pairwise(terms, k) if nv[i] > 0 else 0.0
            check_by_cells(&cells, 2 * k)
    finally:
        free(terms)
    return out


def critical_alphas(tree, info=None):
    """For each node, the smallest alpha at which the textbook cost-complexity rule
    turns it into a leaf (inf for leaves).

    The rule looks at an internal node whose children are all leaves and prunes it
    when N*H(node) + alpha <= sum(N_t*H(t)) + alpha*T (T its children). Bottom-up,
    a node's children are all leaves at alpha once each internal child's critical
    alpha is reached, so alpha(node) = max(local threshold, children's alphas).
    info: leaf_information(tree), when the caller has it."""
    info_arr = leaf_information(tree) if info is None else info
    cdef const double[::1] info_v = info_arr
    cdef const signed char[::1] kind = tree.kind
    cdef const int32_t[::1] first = tree.first_child, nch = tree.n_children
    cdef Py_ssize_t n = kind.shape[0], i, c, s, nb
    out = np.empty(n, dtype=np.float64)
    cdef double[::1] alpha = out
    cdef double a, below
    for i in range(n - 1, -1, -1):
        if kind[i] == LEAF:
            alpha[i] = INFINITY
            continue
        s, nb = first[i], nch[i]
        below = pairwise(&info_v[s], nb) if nb > 0 else 0.0
        a = (info_v[i] - below) / (nb - 1 if nb > 2 else 1)
        for c in range(s, s + nb):
            if kind[c] != LEAF and alpha[c] > a:
                a = alpha[c]
        alpha[i] = a
    return out


def rebuild(tree, make_leaf=None, n_children=None, value_map=None):
    """A compact copy of tree where the nodes in make_leaf (uint8 per node) become
    leaves, keeping their class and distribution, with their training errors (weight
    less their class's weight), and n_children (optional, int32) drops trailing
    branches. The nodes are laid out breadth first, as the core lays them out."""
    cdef const signed char[::1] kind = tree.kind
    cdef const int32_t[::1] feature = tree.feature, first = tree.first_child
    cdef const int32_t[::1] nch = tree.n_children if n_children is None else n_children
    cdef const int32_t[::1] cls = tree.node_class
    cdef const double[::1] threshold = tree.threshold, weight = tree.weight
    cdef const double[::1] errors = tree.errors
    cdef const double[:, ::1] value = tree.value
    cdef const int64_t[::1] offset = tree.map_offset
    cdef Py_ssize_t n = kind.shape[0], k = value.shape[1], q, m, j, o, c, b, cells = 0
    cdef const unsigned char[::1] ml = (zeros(n, np.uint8) if make_leaf is None
                                        else np.ascontiguousarray(make_leaf, np.uint8))
    if nch.shape[0] != n or ml.shape[0] != n:
        raise ValueError("c45: rebuild needs one entry per node")
    cdef int32_t[::1] order = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] new_first = np.empty(n, dtype=np.int32)
    for q in range(n):
        new_first[q] = -1
    order[0] = 0
    q, m = 0, 1
    while q < m:
        o = order[q]
        if kind[o] != LEAF and not ml[o]:
            if nch[o] > n - m:
                raise ValueError("c45: rebuild: a node's children overrun the tree")
            new_first[o] = m
            for c in range(first[o], first[o] + nch[o]):
                order[m] = c
                m += 1
        q += 1
    out = dict(kind=np.empty(m, np.int8), feature=np.empty(m, np.int32),
               first_child=np.empty(m, np.int32), n_children=np.empty(m, np.int32),
               node_class=np.empty(m, np.int32), threshold=np.empty(m, np.float64),
               weight=np.empty(m, np.float64), errors=np.empty(m, np.float64),
               value=np.empty((m, k), np.float64), map_offset=np.empty(m, np.int64))
    cdef signed char[::1] kind_o = out["kind"]
    cdef int32_t[::1] feature_o = out["feature"], first_o = out["first_child"]
    cdef int32_t[::1] nch_o = out["n_children"], cls_o = out["node_class"]
    cdef double[::1] threshold_o = out["threshold"], weight_o = out["weight"]
    cdef double[::1] errors_o = out["errors"]
    cdef double[:, ::1] value_o = out["value"]
    cdef int64_t[::1] offset_o = out["map_offset"]
    cdef bint leaf
    for j in range(m):
        o = order[j]
        leaf = kind[o] == LEAF or ml[o]
        kind_o[j] = LEAF if leaf else kind[o]
        feature_o[j] = -1 if leaf else feature[o]
        first_o[j] = new_first[o]
        nch_o[j] = 0 if leaf else nch[o]
        cls_o[j] = cls[o]
        threshold_o[j] = NAN if leaf else threshold[o]
        weight_o[j] = weight[o]
        errors_o[j] = weight[o] - value[o, cls[o]] if ml[o] else errors[o]
        for b in range(k):
            value_o[j, b] = value[o, b]
        offset_o[j] = -1 if leaf else offset[o]
        check_by_cells(&cells, k)
    # Made here for the new Tree alone: it keeps them without copying them again.
    return Tree._of_own_arrays(
        value_map=tree.value_map if value_map is None else value_map,
        n_values=tree.n_values, **out)


def cost_complexity(tree, double alpha):
    """The textbook cost-complexity pruning with penalty alpha per leaf."""
    cdef const double[::1] critical = critical_alphas(tree)
    cdef Py_ssize_t i, n = critical.shape[0]
    make_leaf = np.empty(n, np.uint8)
    cdef unsigned char[::1] ml = make_leaf
    for i in range(n):
        ml[i] = critical[i] <= alpha
    return rebuild(tree, make_leaf=make_leaf)


cdef int path_impurities(const double* alphas, Py_ssize_t n_alphas, const int32_t* walk,
                         const double* lo, const double* hi, Py_ssize_t n_walk,
                         const double* info, double root, double* leaves, double* out,
                         Interrupt* intr) noexcept nogil:
    """out[i]: the pruned tree's leaves at alphas[i] (the walk's nodes with
    lo <= alpha < hi, in walk order), their information summed, over root.
    Returns 1 when a signal stopped it."""
    cdef Py_ssize_t i, j, m
    cdef double a
    for i in range(n_alphas):
        if interrupted(intr):
            return 1
        a = alphas[i]
        m = 0
        for j in range(n_walk):
            if lo[j] <= a < hi[j]:
                leaves[m] = info[walk[j]]
                m += 1
        out[i] = pairwise(leaves, m) / root
    return 0


def pruning_path(tree):
    """(ccp_alphas, impurities) in scikit-learn's form: the alphas at which the
    pruned tree changes (starting at 0), and the total leaf impurity (sum of
    N_t*H(t) over the leaves, divided by the root weight) of each pruned tree.

    The pruned trees are not made: at alpha, a node is a leaf of the pruned tree
    when its parent's critical alpha is above alpha (a parent's is at least its
    children's, so then no ancestor is pruned) and it is a leaf or its own is at
    most alpha. The leaves are summed in the order the pruned tree lists them
    (rebuild's, which keeps the order of the tree's breadth-first walk), as
    numpy sums them (pairwise)."""
    info_arr = leaf_information(tree)
    alpha_arr = critical_alphas(tree, info_arr)
    cdef const double[::1] alpha = alpha_arr
    # The distinct alphas, clipped at 0, sorted (as np.unique sorts them).
    alphas_arr = np.array(sorted({a if a > 0 else 0.0 for a in alpha_arr.tolist()
                                  if isfinite(a)} | {0.0}), dtype=np.float64)
    cdef const double[::1] info = info_arr
    cdef const double[::1] alphas = alphas_arr
    cdef const signed char[::1] kind = tree.kind
    cdef const int32_t[::1] first = tree.first_child, nch = tree.n_children
    cdef Py_ssize_t n = kind.shape[0], i, c, node, m
    cdef double root = tree.weight[0] if tree.weight[0] > 0 else 1.0
    # The breadth-first walk (rebuild's order), each node with the span of alphas
    # over which it is a leaf of the pruned tree: [lo, hi).
    cdef int32_t[::1] walk = np.empty(n, np.int32)
    cdef double[::1] lo = np.empty(n, np.float64), hi = np.empty(n, np.float64)
    cdef double[::1] leaves = np.empty(n, np.float64)
    walk[0], lo[0], hi[0] = 0, (-INFINITY if kind[0] == LEAF else alpha[0]), INFINITY
    i, m = 0, 1
    while i < m:
        node = walk[i]
        if kind[node] != LEAF:
            if nch[node] > n - m:
                raise ValueError("c45: pruning_path: a node's children overrun the tree")
            for c in range(first[node], first[node] + nch[node]):
                walk[m] = c
                lo[m] = -INFINITY if kind[c] == LEAF else alpha[c]
                hi[m] = alpha[node]
                m += 1
        i += 1
    impurities = np.empty(alphas.shape[0], np.float64)
    cdef double[::1] imp = impurities
    cdef Interrupt intr
    cdef int stopped
    interrupt_init(&intr)
    try:
        with nogil:
            stopped = path_impurities(&alphas[0], alphas.shape[0], &walk[0], &lo[0], &hi[0],
                                      m, &info[0], root, &leaves[0], &imp[0], &intr)
        if stopped:
            raise_interrupt()
    finally:
        interrupt_end(&intr)
    return alphas_arr, impurities


def reduced_error(tree, reach):
    """Reduced-error pruning: bottom-up, a node becomes a leaf when that does not
    increase the errors on the validation cases. reach[i, c] is the validation
    weight of class c reaching node i (fractional descent on unknown values)."""
    cdef const double[:, ::1] r = np.ascontiguousarray(reach, dtype=np.float64)
    cdef const signed char[::1] kind = tree.kind
    cdef const int32_t[::1] first = tree.first_child, nch = tree.n_children
    cdef const int32_t[::1] cls = tree.node_class
    cdef Py_ssize_t n = kind.shape[0], k = r.shape[1], i, cells = 0
    if r.shape[0] != n:
        raise ValueError(f"c45: reduced_error: reach has {r.shape[0]} rows for {n} nodes")
    cdef double[::1] as_leaf = np.empty(n, np.float64)
    cdef double[::1] subtree = np.empty(n, np.float64)
    make_leaf = zeros(n, np.uint8)
    cdef unsigned char[::1] ml = make_leaf
    cdef double below
    for i in range(n):
        as_leaf[i] = pairwise(&r[i, 0], k) - r[i, cls[i]]
        subtree[i] = as_leaf[i]
        check_by_cells(&cells, k)
    for i in range(n - 1, -1, -1):
        if kind[i] == LEAF:
            continue
        below = pairwise(&subtree[first[i]], nch[i]) if nch[i] > 0 else 0.0
        if as_leaf[i] <= below + 1e-12:
            ml[i] = 1
        else:
            subtree[i] = below
    return rebuild(tree, make_leaf=make_leaf)


def subset_cleanup(tree, n_values):
    """After pessimistic pruning under -s (C4.5's subset cleanup): at each subset
    test, the last branch keeps only the values still possible on the path from the
    root (Release 8 prints that branch with those values alone, e.g. ``d0 = v2``
    where growing made ``d0 in {v1,v2,v4,v6,v7}``: R8 corpus r0017); if none
    remain, the branch is dropped. The values taken out map to no branch: no case
    holding them can reach the node, so prediction does not change."""
    if not np.any(tree.kind == SUBSET_KIND):
        return tree
    n_children = tree.n_children.copy()
    value_map = tree.value_map.copy()
    stack = [(0, {})]
    while stack:
        node, possible = stack.pop()
        if tree.kind[node] == LEAF_KIND:
            continue
        f = int(tree.feature[node])
        groups = None
        if tree.kind[node] == SUBSET_KIND:
            here = possible.get(f, set(range(n_values[f])))
            groups = [set(g) for g in tree.branch_values(node, n_values[f])]
            last = groups[len(groups) - 1]      # no negative index: wraparound is off
            for v in last - here:
                value_map[tree.map_offset[node] + v + 1] = 0
            last &= here
            if not last:
                n_children[node] -= 1
        s = tree.first_child[node]
        for b in range(n_children[node]):
            child_possible = possible
            if groups is not None:
                child_possible = dict(possible)
                child_possible[f] = possible.get(f, set(range(n_values[f]))) & groups[b]
            stack.append((s + b, child_possible))
    if np.array_equal(n_children, tree.n_children) and np.array_equal(
            value_map, tree.value_map):
        return tree
    return rebuild(tree, n_children=n_children, value_map=value_map)
