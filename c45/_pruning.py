"""The pruning kinds that work on a grown tree's arrays alone (no training cases):
cost-complexity (a textbook rule), reduced-error on validation data (J48 -R), and
the subset cleanup that follows pessimistic pruning under -s.
Pessimistic pruning itself needs the training cases and lives in _prune.pyx.

A Tree lists parents before children, so a reverse scan of the nodes is bottom-up.
Loops over nodes are plain Python over lists: beside a busy Python thread every
numpy call on a tree's arrays (of more than a few hundred nodes) hands the GIL
over and waits a switch interval to get it back.
"""
from collections import defaultdict

import numpy as np

from c45._tree import LEAF_KIND, SUBSET_KIND, Tree


def leaf_information(tree):
    """N_t * Entropy(D_t) of every node, in bits (C4.5's TI of its class weights)."""
    v = tree.value
    n = v.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        plogp = np.where(v > 0, v * np.log2(np.where(v > 0, v, 1)), 0.0).sum(axis=1)
        return np.where(n > 0, n * np.log2(np.where(n > 0, n, 1)) - plogp, 0.0)


def critical_alphas(tree):
    """For each node, the smallest alpha at which the textbook cost-complexity rule
    turns it into a leaf (inf for leaves).

    The rule looks at an internal node whose children are all leaves and prunes it
    when N*H(node) + alpha <= sum(N_t*H(t)) + alpha*T (T its children). Bottom-up,
    a node's children are all leaves at alpha once each internal child's critical
    alpha is reached, so alpha(node) = max(local threshold, children's alphas)."""
    info = leaf_information(tree)
    kind, first = tree.kind.tolist(), tree.first_child.tolist()
    n_children = tree.n_children.tolist()
    # The children's information summed as info[children].sum() sums it: numpy's
    # sums of the rows of a matrix equal its sums of each row alone, so one
    # call per number of children, not one per node.
    by_count = defaultdict(list)
    for i in range(tree.node_count):
        if kind[i] != LEAF_KIND:
            by_count[n_children[i]].append(i)
    below = {}
    for nb, nodes in by_count.items():
        starts = np.array([first[i] for i in nodes], dtype=np.intp)
        sums = info[starts[:, None] + np.arange(nb)].sum(axis=1).tolist()
        below.update(zip(nodes, sums))
    info = info.tolist()
    alpha = [np.inf] * tree.node_count
    for i in range(tree.node_count - 1, -1, -1):
        if kind[i] == LEAF_KIND:
            continue
        nb, s = n_children[i], first[i]
        a = (info[i] - below[i]) / max(nb - 1, 1)
        for c in range(s, s + nb):
            if kind[c] != LEAF_KIND and alpha[c] > a:
                a = alpha[c]
        alpha[i] = a
    return np.array(alpha, dtype=np.float64)


def rebuild(tree, make_leaf=None, n_children=None, leaf_errors=None, value_map=None):
    """A compact copy of tree where the nodes in make_leaf become leaves (keeping
    their class and distribution) and n_children (optional) drops trailing branches.
    leaf_errors(i) gives the errors field of a node made a leaf."""
    make_leaf = np.zeros(tree.node_count, bool) if make_leaf is None else make_leaf
    nch = tree.n_children if n_children is None else n_children
    order = [0]
    new_first = {}
    i = 0
    while i < len(order):
        node = order[i]
        if tree.kind[node] != LEAF_KIND and not make_leaf[node]:
            new_first[node] = len(order)
            s = tree.first_child[node]
            order.extend(range(s, s + nch[node]))
        i += 1
    order = np.asarray(order)
    leaf = (tree.kind[order] == LEAF_KIND) | make_leaf[order]
    kind = np.where(leaf, LEAF_KIND, tree.kind[order])
    first = np.array([new_first.get(o, -1) for o in order], dtype=np.int32)
    errors = tree.errors[order].copy()
    if leaf_errors is not None:
        for j in np.flatnonzero(make_leaf[order]):
            errors[j] = leaf_errors(order[j])
    # Indexing and np.where made these arrays (value_map: tree's own, read-only):
    # the new Tree keeps them without copying them again.
    return Tree._of_own_arrays(
        kind=kind, feature=np.where(leaf, -1, tree.feature[order]), first_child=first,
        n_children=np.where(leaf, 0, nch[order]), node_class=tree.node_class[order],
        threshold=np.where(leaf, np.nan, tree.threshold[order]),
        weight=tree.weight[order], errors=errors, value=tree.value[order],
        map_offset=np.where(leaf, -1, tree.map_offset[order]),
        value_map=tree.value_map if value_map is None else value_map,
        n_values=tree.n_values)


def training_errors(tree):
    """Errors of each node as a leaf: its weight minus its class's weight."""
    return lambda i: float(tree.weight[i] - tree.value[i, tree.node_class[i]])


def cost_complexity(tree, alpha):
    """The textbook cost-complexity pruning with penalty alpha per leaf."""
    return rebuild(tree, make_leaf=critical_alphas(tree) <= alpha,
                   leaf_errors=training_errors(tree))


def pruning_path(tree):
    """(ccp_alphas, impurities) in scikit-learn's form: the alphas at which the
    pruned tree changes (starting at 0), and the total leaf impurity (sum of
    N_t*H(t) over the leaves, divided by the root weight) of each pruned tree.

    The pruned trees are not made: at alpha, a node is a leaf of the pruned tree
    when its parent's critical alpha is above alpha (a parent's is at least its
    children's, so then no ancestor is pruned) and it is a leaf or its own is at
    most alpha. The leaves are summed in the order the pruned tree lists them
    (rebuild's, which keeps the order of the tree's breadth-first walk), as
    numpy sums them (pairwise_sum)."""
    alpha = critical_alphas(tree)
    alphas = np.unique(np.concatenate([[0.0], np.maximum(alpha[np.isfinite(alpha)], 0.0)]))
    root = float(tree.weight[0]) if tree.weight[0] > 0 else 1.0
    info = leaf_information(tree).tolist()
    kind, first = tree.kind.tolist(), tree.first_child.tolist()
    n_children, alpha = tree.n_children.tolist(), alpha.tolist()
    # The breadth-first walk (rebuild's order), each node with the span of alphas
    # over which it is a leaf of the pruned tree: [from, to).
    walk, spans = [0], [(-np.inf if kind[0] == LEAF_KIND else alpha[0], np.inf)]
    i = 0
    while i < len(walk):
        node = walk[i]
        if kind[node] != LEAF_KIND:
            s = first[node]
            for c in range(s, s + n_children[node]):
                walk.append(c)
                spans.append((-np.inf if kind[c] == LEAF_KIND else alpha[c], alpha[node]))
        i += 1
    impurities = []
    for a in alphas.tolist():
        leaves = [info[node] for node, (lo, hi) in zip(walk, spans) if lo <= a < hi]
        impurities.append(pairwise_sum(leaves) / root)
    return alphas, np.asarray(impurities, dtype=np.float64)


def pairwise_sum(values):
    """sum(values) added up as numpy's sum of a float64 array adds it (its
    pairwise summation: runs of fewer than 8 in order, blocks of up to 128 in 8
    partial sums, longer runs halved at a multiple of 8), so that a sum over a
    Python list equals np.sum of the same values bit for bit without a numpy call
    (tests/test_variants.py checks it against np.sum)."""
    n = len(values)
    if n < 8:
        res = -0.0
        for v in values:
            res += v
        return res
    if n <= 128:
        r = list(values[:8])
        end = n - n % 8
        for i in range(8, end, 8):
            for j in range(8):
                r[j] += values[i + j]
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for i in range(end, n):
            res += values[i]
        return res
    half = n // 2
    half -= half % 8
    return pairwise_sum(values[:half]) + pairwise_sum(values[half:])


def reduced_error(tree, reach):
    """Reduced-error pruning: bottom-up, a node becomes a leaf when that does not
    increase the errors on the validation cases. reach[i, c] is the validation
    weight of class c reaching node i (fractional descent on unknown values)."""
    total = reach.sum(axis=1)
    as_leaf = total - reach[np.arange(tree.node_count), tree.node_class]
    subtree = as_leaf.copy()
    make_leaf = np.zeros(tree.node_count, bool)
    for i in range(tree.node_count - 1, -1, -1):
        if tree.kind[i] == LEAF_KIND:
            continue
        s = tree.first_child[i]
        below = subtree[s:s + tree.n_children[i]].sum()
        if as_leaf[i] <= below + 1e-12:
            make_leaf[i] = True
        else:
            subtree[i] = below
    return rebuild(tree, make_leaf=make_leaf, leaf_errors=training_errors(tree))


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
            for v in groups[-1] - here:
                value_map[tree.map_offset[node] + v + 1] = 0
            groups[-1] &= here
            if not groups[-1]:
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
