"""Pessimistic pruning with subtree raising, as C4.5 Release 8 does it (spec §8.2).

The tree is pruned in place: a node that becomes a leaf drops its children, a node
replaced by its largest branch takes over that child's fields (and children). The
abandoned nodes stay in the buffer; the caller compacts the tree afterwards.

precision="float32" walks Release 8's case array with its swaps (estimate).
precision="float64" walks case lists in row order (estimate_listed): every sum in
row order and scaled weights restored exactly, as growing does (oracle decision 9),
and memory read in sequence.
"""
from libc.math cimport isnan, fabs, INFINITY
from libc.stdlib cimport calloc, realloc, free
from libc.string cimport memcpy
from libc.stdint cimport int32_t, uint32_t

from c45._types cimport Node, NodeBuffer, Test, Entry, Dataset, LEAF, CONTINUOUS, SUBSET
from c45._splitter cimport (Work, total_weight, class_distribution, group,
                            sum_weights, branch_lists, gather_branch, MANY_BRANCHES,
                            cut_rank)
from c45._criterion cimport rnd, extra_errors, pessimistic_coeff


cdef struct Pruner:
    NodeBuffer* tree
    Work* w
    double cf
    double coeff
    bint raising
    # float64: a stack of case lists (Entry.value holds a case's outcome)
    Entry* arena
    Py_ssize_t arena_top
    Py_ssize_t arena_cap
    Py_ssize_t* offsets      # per branch of the nodes being visited: list offsets
    Py_ssize_t off_top
    Py_ssize_t off_cap
    uint32_t* cut            # per node of a continuous test: known values <= threshold
    bint failed              # out of memory


cdef double estimate(Pruner* p, int node, Py_ssize_t lo, Py_ssize_t hi,
                     bint update) noexcept nogil:
    """Estimate(node, cases, update) of §8.2: the pessimistic error estimate of the
    subtree at node for the cases [lo, hi]; with update, prune it as it goes."""
    cdef Work* w = p.w
    cdef bint f32 = w.data.f32
    cdef Py_ssize_t k = w.data.n_classes, c, first_known, ep, v, child
    cdef Node* nd = &p.tree.nodes[node]
    cdef double* row
    cdef double total, known_weight, e, u, leaf, tree_est = 0.0, branch_est
    cdef double f, max_f = 0.0, wv
    cdef int best, max_branch = -1, b
    cdef bint saved_mode
    cdef Test test
    cdef Py_ssize_t lists = -1, arena_mark

    total = total_weight(w, lo, hi)
    class_distribution(w, lo, hi)
    best = nd.node_class
    for c in range(k):
        if w.dist[c] > w.dist[best]:
            best = <int> c
    e = rnd(f32, total - w.dist[best])
    u = extra_errors(f32, total, e, p.cf, p.coeff)
    leaf = rnd(f32, e + u)
    if update:
        nd.weight = total
        nd.node_class = best
        memcpy(&p.tree.value[node * k], w.dist, k * sizeof(double))
    if nd.kind == LEAF:
        if update:
            nd.errors = leaf
        return leaf

    # Internal node: the subtree's estimate, unknown cases shared out by branch weight.
    test.kind = nd.kind
    test.feature = nd.feature
    test.threshold = nd.threshold
    test.value_map = &p.tree.maps[nd.map_offset] if nd.map_offset >= 0 else NULL
    first_known = group(w, &test, 0, lo, hi) + 1
    saved_mode = w.count_mode
    if first_known > lo:
        w.count_mode = False
    known_weight = rnd(f32, total - sum_weights(w, lo, first_known - 1))
    arena_mark = w.arena_top
    if nd.kind != CONTINUOUS and nd.n_children >= MANY_BRANCHES:
        lists = branch_lists(w, &test, nd.n_children, first_known, hi)
    for v in range(1, nd.n_children + 1):
        if lists >= 0:
            ep = gather_branch(w, lists, v, first_known)
        else:
            ep = group(w, &test, <int> v, first_known, hi)
        if ep < first_known:
            continue
        wv = total_weight(w, first_known, ep)
        f = rnd(f32, wv / known_weight)
        if f >= max_f:
            max_f = f
            max_branch = <int> v
        for c in range(lo, first_known):
            w.weight[w.cases[c]] = rnd(f32, w.weight[w.cases[c]] * f)
        tree_est = rnd(f32, tree_est + estimate(p, nd.first_child + <int> v - 1, lo, ep,
                                                update))
        group(w, &test, 0, lo, ep)
        for c in range(lo, first_known):
            w.weight[w.cases[c]] = rnd(f32, w.weight[w.cases[c]] / f)
        nd = &p.tree.nodes[node]
    w.count_mode = saved_mode
    w.arena_top = arena_mark
    if max_branch < 0:
        # No known case reaches the node (possible only for cases a raised subtree
        # receives): score it as a leaf, and its largest stored branch as the branch.
        tree_est = leaf
        max_branch = largest_stored_branch(p, nd)
    if not update:
        return tree_est

    child = nd.first_child + max_branch - 1
    if p.raising:
        branch_est = estimate(p, <int> child, lo, hi, False)
    else:
        branch_est = tree_est + 1e38
    if decide(p, node, leaf, tree_est, branch_est):
        estimate(p, <int> child, lo, hi, True)
        raise_child(p, node, <int> child)
    return p.tree.nodes[node].errors


cdef int largest_stored_branch(Pruner* p, const Node* nd) noexcept nogil:
    """The last branch with the largest stored weight (1-based)."""
    cdef int v, best = 1
    cdef double max_w = -1.0
    for v in range(nd.n_children):
        if p.tree.nodes[nd.first_child + v].weight >= max_w:
            max_w = p.tree.nodes[nd.first_child + v].weight
            best = v + 1
    return best


cdef bint decide(Pruner* p, int node, double leaf, double tree_est,
                 double branch_est) noexcept nogil:
    """§8.2 step 7: make the node a leaf, or keep its subtree; True when its
    largest branch is to be raised into it instead (the caller re-estimates it)."""
    cdef Node* nd = &p.tree.nodes[node]
    if leaf <= branch_est + 0.1 and leaf <= tree_est + 0.1:
        nd.kind = LEAF
        nd.feature = -1
        nd.first_child = -1
        nd.n_children = 0
        nd.errors = leaf
        return False
    if branch_est <= tree_est + 0.1:
        return True
    nd.errors = tree_est
    return False


cdef void raise_child(Pruner* p, int node, int child) noexcept nogil:
    """The node takes over its (re-estimated) child's fields and children."""
    cdef Py_ssize_t k = p.tree.n_classes
    p.tree.nodes[node] = p.tree.nodes[child]
    memcpy(&p.tree.value[node * k], &p.tree.value[child * k], k * sizeof(double))
    if p.cut != NULL:
        p.cut[node] = p.cut[child]


cdef int reserve(Pruner* p, Py_ssize_t extra, Py_ssize_t extra_offsets) noexcept nogil:
    cdef Py_ssize_t cap
    cdef Entry* a
    cdef Py_ssize_t* o
    if p.arena_top + extra > p.arena_cap:
        cap = p.arena_cap + p.arena_cap // 2 + extra + 1024
        a = <Entry*> realloc(p.arena, cap * sizeof(Entry))
        if a == NULL:
            return -1
        p.arena = a
        p.arena_cap = cap
    if p.off_top + extra_offsets > p.off_cap:
        cap = 2 * p.off_cap + extra_offsets + 64
        o = <Py_ssize_t*> realloc(p.offsets, cap * sizeof(Py_ssize_t))
        if o == NULL:
            return -1
        p.offsets = o
        p.off_cap = cap
    return 0


cdef inline int listed_outcome(const Dataset* d, const Node* nd, const int32_t* maps,
                               uint32_t cut, int32_t case) noexcept nogil:
    """outcome() for float64 pruning, inlined: the branch of a case, 0 if unknown."""
    cdef uint32_t r
    cdef int32_t v
    if nd.kind == CONTINUOUS:
        r = d.rank[<Py_ssize_t> d.col[nd.feature] * d.n_cases + case]
        if r >= d.n_known[nd.feature]:
            return 0
        return 1 if r < cut else 2
    v = d.codes[<Py_ssize_t> d.col[nd.feature] * d.n_cases + case]
    if nd.kind == SUBSET and v > 0:
        return maps[nd.map_offset + v]
    return v


cdef double estimate_listed(Pruner* p, int node, Py_ssize_t at, Py_ssize_t m,
                            bint update, double outer, double stop) noexcept nogil:
    """estimate() on the case list arena[at .. at + m) in row order (float64).

    Subtree raising only compares the estimate of the largest branch with one
    threshold (see the end). Every term of an estimate is >= 0, so a running total
    only grows: once outer (the total of what the enclosing calls have summed so
    far) plus this call's total passes stop, the estimate is known to pass it, and
    INFINITY is returned at once (update false only; stop is INFINITY otherwise)."""
    cdef const Dataset* d = p.w.data
    cdef Py_ssize_t k = d.n_classes, c, i, j, v, nb, child, grouped, offs, pos, a, b
    cdef Py_ssize_t n_unknown, size_v
    cdef Node* nd = &p.tree.nodes[node]
    cdef Entry* e
    cdef Entry* g
    cdef Entry* out
    cdef double* dist = p.w.dist
    cdef double total = 0.0, unknown_w = 0.0, known_w, wv, f, max_f = 0.0
    cdef double err, u, leaf, tree_est = 0.0, branch_est, threshold
    cdef int best, max_branch = -1
    cdef uint32_t cut = 0
    for c in range(k):
        dist[c] = 0.0
    e = p.arena + at
    for i in range(m):
        total += e[i].weight
        dist[e[i].cls] += e[i].weight
    best = nd.node_class
    for c in range(k):
        if dist[c] > dist[best]:
            best = <int> c
    err = total - dist[best]
    u = extra_errors(False, total, err, p.cf, p.coeff)
    leaf = err + u
    if update:
        nd.weight = total
        nd.node_class = best
        memcpy(&p.tree.value[node * k], dist, k * sizeof(double))
    if nd.kind == LEAF:
        if update:
            nd.errors = leaf
        return leaf

    # Outcomes, then the cases grouped by outcome (stable): unknown first, then
    # branch 1, 2, ...; offsets[v] is where outcome v starts in the grouped copy.
    nb = nd.n_children
    if nd.kind == CONTINUOUS:
        cut = p.cut[node]
    if reserve(p, m, nb + 2) < 0:
        p.failed = True
        return leaf
    e = p.arena + at
    offs = p.off_top
    p.off_top += nb + 2
    for v in range(nb + 2):
        p.offsets[offs + v] = 0
    for i in range(m):
        v = listed_outcome(d, nd, p.tree.maps, cut, e[i].case)
        e[i].value = <double> v
        p.offsets[offs + v + 1] += 1
        if v == 0:
            unknown_w += e[i].weight
    for v in range(nb + 1):
        p.offsets[offs + v + 1] += p.offsets[offs + v]
    grouped = p.arena_top
    p.arena_top += m
    g = p.arena + grouped
    for i in range(m):
        v = <Py_ssize_t> e[i].value
        g[p.offsets[offs + v]] = e[i]
        p.offsets[offs + v] += 1
    # offsets[v] now ends outcome v; outcome v starts at offsets[v - 1] (0 for v = 0)
    n_unknown = p.offsets[offs]
    known_w = total - unknown_w
    for v in range(1, nb + 1):
        a = p.offsets[offs + v - 1]
        b = p.offsets[offs + v]
        size_v = b - a
        if size_v == 0:
            continue
        wv = 0.0
        for i in range(a, b):
            wv += p.arena[grouped + i].weight
        f = wv / known_w
        if f >= max_f:
            max_f = f
            max_branch = <int> v
        # The child's list: the unknown cases (scaled) merged with branch v's,
        # in row order.
        if reserve(p, n_unknown + size_v, 0) < 0:
            p.failed = True
            break
        g = p.arena + grouped
        out = p.arena + p.arena_top
        i = 0
        j = a
        pos = 0
        while i < n_unknown or j < b:
            if j >= b or (i < n_unknown and g[i].case < g[j].case):
                out[pos] = g[i]
                out[pos].weight = g[i].weight * f
                i += 1
            else:
                out[pos] = g[j]
                j += 1
            pos += 1
        p.arena_top += pos
        tree_est = tree_est + estimate_listed(p, nd.first_child + <int> v - 1,
                                              p.arena_top - pos, pos, update,
                                              outer + tree_est, stop)
        p.arena_top -= pos
        nd = &p.tree.nodes[node]
        if outer + tree_est > stop:
            tree_est = INFINITY
            break
    p.off_top = offs
    p.arena_top = grouped
    if max_branch < 0:                    # as in estimate()
        tree_est = leaf
        max_branch = largest_stored_branch(p, nd)
    if not update:
        return tree_est

    child = nd.first_child + max_branch - 1
    if p.raising:
        # Only branch_est versus one threshold decides: with leaf <= tree + 0.1,
        # whether branch_est + 0.1 >= leaf (then a leaf, else raise); otherwise
        # whether branch_est <= tree + 0.1 (raise, else keep). Above the threshold
        # (by a margin for the rounding of sums taken in another grouping) the
        # answer is the same for any larger value, INFINITY included.
        if leaf <= tree_est + 0.1:
            threshold = leaf - 0.1
        else:
            threshold = tree_est + 0.1
        branch_est = estimate_listed(p, <int> child, at, m, False, 0.0,
                                     threshold + 1e-9 * (1.0 + fabs(threshold)))
    else:
        branch_est = tree_est + 1e38
    if decide(p, node, leaf, tree_est, branch_est):
        estimate_listed(p, <int> child, at, m, True, 0.0, INFINITY)
        raise_child(p, node, <int> child)
    return p.tree.nodes[node].errors


cdef int prune_pessimistic(NodeBuffer* tree, Work* w, double confidence,
                           bint subtree_raising) except -1 nogil:
    """Prune the tree in place on all training cases, weights reset (§8.2)."""
    cdef Pruner p
    cdef Py_ssize_t i, n = w.data.n_cases
    cdef bint f32 = w.data.f32
    p.tree = tree
    p.w = w
    p.cf = confidence
    p.coeff = pessimistic_coeff(f32, confidence)
    p.raising = subtree_raising
    p.arena = NULL
    p.arena_top = p.arena_cap = 0
    p.offsets = NULL
    p.off_top = p.off_cap = 0
    p.failed = False
    w.count_mode = w.data.count_mode_init
    for i in range(n):
        w.weight[i] = w.data.init_weight[i]
    p.cut = NULL
    if f32:
        estimate(&p, 0, 0, n - 1, True)
        return 0
    p.cut = <uint32_t*> calloc(tree.count + 1, sizeof(uint32_t))
    if p.cut == NULL or reserve(&p, 2 * n + 1, 64) < 0:
        p.failed = True
    else:
        for i in range(tree.count):
            if tree.nodes[i].kind == CONTINUOUS:
                p.cut[i] = cut_rank(w.data, tree.nodes[i].feature, tree.nodes[i].threshold)
        for i in range(n):
            p.arena[i].value = 0.0
            p.arena[i].weight = w.data.init_weight[i]
            p.arena[i].case = <int32_t> i
            p.arena[i].cls = w.data.y[i]
        p.arena_top = n
        estimate_listed(&p, 0, 0, n, True, 0.0, INFINITY)
    free(p.arena)
    free(p.offsets)
    free(p.cut)
    if p.failed:
        with gil:
            raise MemoryError("c45: out of memory while pruning the tree")
    return 0
