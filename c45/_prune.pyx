"""Pessimistic pruning with subtree raising, as C4.5 Release 8 does it (spec §8.2).

The tree is pruned in place: a node that becomes a leaf drops its children, a node
replaced by its largest branch takes over that child's fields (and children). The
abandoned nodes stay in the buffer; the caller compacts the tree afterwards.
"""
from libc.string cimport memcpy

from c45._types cimport Node, NodeBuffer, Test, LEAF, CONTINUOUS
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
    test.cut_rank = 0
    if nd.kind == CONTINUOUS and not w.data.f32:
        test.cut_rank = cut_rank(w.data, nd.feature, nd.threshold)
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
        max_f = -1.0
        for v in range(nd.n_children):
            if p.tree.nodes[nd.first_child + v].weight >= max_f:
                max_f = p.tree.nodes[nd.first_child + v].weight
                max_branch = <int> v + 1
    if not update:
        return tree_est

    child = nd.first_child + max_branch - 1
    if p.raising:
        branch_est = estimate(p, <int> child, lo, hi, False)
    else:
        branch_est = tree_est + 1e38
    nd = &p.tree.nodes[node]
    if leaf <= branch_est + 0.1 and leaf <= tree_est + 0.1:
        nd.kind = LEAF
        nd.feature = -1
        nd.first_child = -1
        nd.n_children = 0
        nd.errors = leaf
    elif branch_est <= tree_est + 0.1:
        estimate(p, <int> child, lo, hi, True)
        p.tree.nodes[node] = p.tree.nodes[child]
        memcpy(&p.tree.value[node * k], &p.tree.value[child * k], k * sizeof(double))
    else:
        nd.errors = tree_est
    return p.tree.nodes[node].errors


cdef int prune_pessimistic(NodeBuffer* tree, Work* w, double confidence,
                           bint subtree_raising) except -1 nogil:
    """Prune the tree in place on all training cases, weights reset (§8.2)."""
    cdef Pruner p
    cdef Py_ssize_t i
    cdef bint f32 = w.data.f32
    p.tree = tree
    p.w = w
    p.cf = confidence
    p.coeff = pessimistic_coeff(f32, confidence)
    p.raising = subtree_raising
    w.count_mode = w.data.count_mode_init
    for i in range(w.data.n_cases):
        w.weight[i] = w.data.init_weight[i]
    estimate(&p, 0, 0, w.data.n_cases - 1, True)
    return 0
