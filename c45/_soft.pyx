# cython: language_level=3
"""Soft thresholds (C4.5 Release 8's ``-p``): the bounds of each continuous test.

After pruning, Release 8 runs the training cases through each continuous test of
the final tree and gives the test a lower and an upper bound around its
threshold, where moving the threshold would cost more than one standard error
of extra training errors. Measured on R8's own output (300 problems, with and
without ``-s``), not taken from its source:

* the cases that reach a test are those whose values down from the root are
  known at every test on the way (a case with an unknown value at a test above
  reaches none of its branches: no fractional cases here);
* of those, the ones whose value of the tested feature is known count: for each
  the node notes whether the tree would misclassify it sent down branch 1 and
  sent down branch 2 (classified from that child as the tree classifies, unknown
  values below shared out by weight);
* ``base``, the errors at the threshold (a value counts as below it when
  ``v <= threshold + 1e-6``), ``n`` the cases, ``se = sqrt((base + 0.5)
  (n - base + 0.5) / (n + 1))`` (the square root's argument in double) and
  ``limit = base + se``;
* with the threshold moved to each distinct value ``u`` (cases ``<= u`` down
  branch 1), the errors ``E(u)``. The lower bound is where ``E`` last falls to
  ``limit`` or below coming up from the smallest value (linear between two
  neighbouring values; the smallest value when ``E`` never exceeds ``limit``
  below the threshold), the upper bound where ``E`` last rises above ``limit``
  going up (linear between neighbours; the largest value if it never does);
  neither crosses the threshold (lower <= threshold <= upper).

The arithmetic is binary32 with ``precision="float32"`` (Release 8's printed
bounds, digit for digit) and double with float64. Case weights (sample_weight)
weigh the counts; Release 8's cases all weigh 1.

One compiled pass without the GIL (a Python step or a numpy call per node cost
time quadratic in a deep tree's depth, and beside a busy Python thread each
numpy call's GIL release could cost a switch interval):

* the class each row gets from the root, once per row: down a branch it takes
  with a known value a row is classified as from that child, so this is also its
  class from the child it takes at every test on its way;
* the rows are handed down the tree node by node (each child gets its rows, in
  row order); at a continuous test each case is classified once more, from the
  other child, and the test's cases are sorted by value and summed.
"""
import numpy as np
from c45._bulk import as_case_weights
from libc.math cimport sqrt, isnan, isfinite, NAN
from libc.stdint cimport int8_t, int32_t, int64_t, uint32_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset

from c45._interrupt cimport interrupt_init, interrupt_end, interrupted, raise_interrupt, copy_polled
from c45._types cimport Interrupt, LEAF, CONTINUOUS, SUBSET

# A value within this of the threshold counts as below it in the errors at the
# threshold (Release 8's tolerance there).
BELOW_TOLERANCE = 1e-6
cdef double BELOW = 1e-6

cdef enum:
    POLL_MOVES = 1 << 18        # sorted values moved between two looks
    RUN = 16                    # the merge sort's runs, sorted by insertion

ctypedef fused real:            # the arithmetic's precision: float32 or float64
    float
    double


cdef struct TreeView:           # a Tree's arrays (checked when it was made)
    const int8_t* kind
    const int32_t* feature
    const int32_t* first_child
    const int32_t* n_children
    const int32_t* node_class
    const double* threshold
    const double* weight
    const double* value         # node_count x n_classes
    const int64_t* map_offset
    const int32_t* value_map
    const int32_t* n_values     # per feature: its categories
    Py_ssize_t n_classes


cdef struct Rows:               # the training rows as encoded for growing
    const double* cont          # feature-major: row r of feature f at col[f] * m + r,
    const uint32_t* rank        # or with rank at col[f] * m + rank[col[f] * m + r]
    const float* cont32         # a float32 fit's (float32 numbers), cont NULL then
    double* by_row              # the same, row-major: row r's at r * n_cont + col[f]
    float* by_row32             # the same of cont32's (by_row NULL then)
    Py_ssize_t n_cont
    const int32_t* codes
    const int32_t* col
    const int32_t* y            # class indices
    const double* weight        # row r's at r * weight_step (0: one number for all)
    Py_ssize_t weight_step
    Py_ssize_t m


cdef struct Item:               # one case of a test, sorted by value (then row)
    double v
    Py_ssize_t i                # the case's position among the test's cases


cdef inline double value_of(const Rows* d, int32_t f, Py_ssize_t r) noexcept nogil:
    """Row r's value of continuous feature f."""
    if d.by_row32 != NULL:
        return d.by_row32[r * d.n_cont + d.col[f]]
    return d.by_row[r * d.n_cont + d.col[f]]


cdef bint fill_by_row(Rows* d, Interrupt* intr) noexcept nogil:
    """d.by_row from d.cont (a walk reads a row's values one after another: in
    one place they are a cache line's, not one each). False when interrupted."""
    cdef Py_ssize_t c, r, at, r0
    for c in range(d.n_cont):
        at = c * d.m
        r0 = 0
        while r0 < d.m:
            if interrupted(intr):
                return False
            for r in range(r0, min(d.m, r0 + POLL_MOVES)):
                if d.cont32 != NULL:
                    d.by_row32[r * d.n_cont + c] = d.cont32[at + r]
                else:
                    d.by_row[r * d.n_cont + c] = (d.cont[at + d.rank[at + r]] if d.rank != NULL
                                                  else d.cont[at + r])
            r0 += POLL_MOVES
    return True


cdef inline int branch_of(const TreeView* t, const Rows* d, Py_ssize_t nd,
                          Py_ssize_t r) noexcept nogil:
    """The branch (1-based) row r takes at test nd; 0 for an unknown value or a
    category the test has no branch for."""
    cdef int32_t f = t.feature[nd]
    cdef double v
    cdef int64_t code
    if t.kind[nd] == CONTINUOUS:
        v = value_of(d, f, r)
        if isnan(v):
            return 0
        return 1 if v <= t.threshold[nd] else 2
    code = d.codes[d.col[f] * d.m + r]
    if code < 0 or code > t.n_values[f]:
        return 0
    if t.kind[nd] == SUBSET and code > 0:
        code = t.value_map[t.map_offset[nd] + code]
    return <int> code if code <= t.n_children[nd] else 0


cdef Py_ssize_t class_from(const TreeView* t, const Rows* d, Py_ssize_t start,
                           Py_ssize_t r, real* sums, Py_ssize_t* stack_node,
                           real* stack_w, int64_t* visits) noexcept nogil:
    """The class the tree gives row r classified from node start (§9: an unknown
    value goes down every branch, weighted by the branches' training weights;
    the first class of largest sum, the first NaN if any, as numpy's argmax),
    summed in the precision of real in the order Release 8 visits the leaves
    (depth first, branches in order). The stacks hold a node count each."""
    cdef Py_ssize_t k = t.n_classes, top = 1, nd, first, c, best
    cdef int b
    cdef real w, items, v, whole
    for c in range(k):
        sums[c] = 0
    stack_node[0] = start
    stack_w[0] = 1
    while top:
        top -= 1
        nd = stack_node[top]
        w = stack_w[top]
        visits[0] += 1
        if t.kind[nd] == LEAF:
            items = <real> t.weight[nd]
            if items > 0:
                for c in range(k):
                    v = <real> t.value[nd * k + c]
                    if v != 0:
                        sums[c] = sums[c] + (w * v) / items
            else:
                sums[t.node_class[nd]] = sums[t.node_class[nd]] + w
            continue
        first = t.first_child[nd]
        b = branch_of(t, d, nd, r)
        if b > 0:                   # a known value: the whole weight down its branch
            stack_node[top] = first + b - 1
            stack_w[top] = w
            top += 1
            continue
        whole = <real> t.weight[nd]
        for b in range(t.n_children[nd] - 1, -1, -1):   # popped in branch order
            stack_node[top] = first + b
            stack_w[top] = (w * <real> t.weight[first + b]) / whole
            top += 1
    if isnan(sums[0]):
        return 0
    best = 0
    for c in range(1, k):
        if isnan(sums[c]):
            return c
        if sums[c] > sums[best]:
            best = c
    return best


cdef bint sort_items(Item* a, Item* tmp, Py_ssize_t n, Interrupt* intr) noexcept nogil:
    """Sort a[:n] by value, equal values in their order (a stable merge sort:
    -0.0 equal to 0.0, as numpy's stable argsort). False when interrupted."""
    cdef Py_ssize_t width = RUN, lo, mid, hi, i, j, o, moved = 0
    cdef Item* src = a
    cdef Item* dst = tmp
    cdef Item* s
    cdef Item x
    cdef bint right
    lo = 0
    while lo < n:                       # runs sorted by insertion first
        for i in range(lo + 1, min(lo + RUN, n)):
            x = a[i]
            j = i
            while j > lo and x.v < a[j - 1].v:
                a[j] = a[j - 1]
                j -= 1
            a[j] = x
        lo += RUN
        if lo % POLL_MOVES == 0 and interrupted(intr):
            return False
    while width < n:
        lo = 0
        while lo < n:
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i, j, o = lo, mid, lo
            while i < mid and j < hi:   # without a branch on the values' order
                right = src[j].v < src[i].v
                dst[o] = src[i + right * (j - i)]
                j += right
                i += 1 - right
                o += 1
            while i < mid:
                dst[o] = src[i]
                i += 1
                o += 1
            while j < hi:
                dst[o] = src[j]
                j += 1
                o += 1
            moved += hi - lo
            if moved >= POLL_MOVES:
                moved = 0
                if interrupted(intr):
                    return False
            lo = hi
        s = src; src = dst; dst = s
        width *= 2
    if src != a and copy_polled(a, src, n * sizeof(Item), intr):
        return False
    return True


cdef real between(real a, real b, real ea, real eb, real limit) noexcept nogil:
    """The point from a towards b where the errors, ea at a and eb at b, reach
    limit (linear in between)."""
    cdef real x = a + ((b - a) * (limit - ea)) / (eb - ea)
    cdef double p
    if isfinite(x):
        return x
    # a and b so far apart that b - a overflows (Release 8's arithmetic gives no
    # bound): the same point from the two ends weighted, which stays finite.
    p = (<double> limit - <double> ea) / (<double> eb - <double> ea)
    return <real> (<double> a * (1.0 - p) + <double> b * p)


cdef bint bounds_of_cases(Item* items, Item* tmp, const char* wrong1,
                          const char* wrong2, const double* w, Py_ssize_t n_cases,
                          double threshold, real* errors, real* u,
                          double* lower, double* upper, Interrupt* intr) noexcept nogil:
    """Release 8's bounds of one test from its cases (items: value and position;
    wrong1/wrong2: whether each is misclassified down branch 1 / branch 2; w their
    weights): every running sum rounded to real at each step, in the order of
    the values. errors and u hold n_cases each. False when interrupted."""
    cdef Py_ssize_t q, i, g, n_groups, at
    cdef real n = 0, base = 0, total2 = 0, left, right, e1, e2, se, limit, lo, hi, t
    cdef double key = threshold + BELOW
    if not sort_items(items, tmp, n_cases, intr):
        return False
    for q in range(n_cases):
        if q % POLL_MOVES == 0 and interrupted(intr):
            return False
        i = items[q].i
        e1 = <real> w[i] if wrong1[i] else 0
        e2 = <real> w[i] if wrong2[i] else 0
        n = n + <real> w[i]
        base = base + (e1 if items[q].v <= key else e2)
        total2 = total2 + e2
    # The standard error in double, rounded to the precision, then added (Release
    # 8's last digits: all 6,037 interpolated bounds of the corpus).
    se = <real> sqrt((<double> base + 0.5) * (<double> n - <double> base + 0.5)
                     / (<double> n + 1))
    limit = base + se
    # E(u_g) = errors of the cases <= u_g down branch 1 + of the others down 2:
    # branch 1's errors summed up, branch 2's total taken down, case by case.
    left = 0
    right = total2
    n_groups = 0
    at = -1                 # the last distinct value at or below the threshold
    for q in range(n_cases):
        if q % POLL_MOVES == 0 and interrupted(intr):
            return False
        i = items[q].i
        left = left + (<real> w[i] if wrong1[i] else 0)
        right = right - (<real> w[i] if wrong2[i] else 0)
        if q == 0 or items[q].v != items[q - 1].v:
            u[n_groups] = <real> items[q].v
            if items[q].v <= key:
                at = n_groups
            n_groups += 1
        errors[n_groups - 1] = left + right
    # The first fall to the limit coming up from below the threshold, the last
    # rise above it going up from it.
    lo = u[0]
    for g in range(1, min(at, n_groups - 1) + 1):
        if errors[g - 1] > limit and errors[g] <= limit:
            lo = between(u[g], u[g - 1], errors[g], errors[g - 1], limit)
            break
    hi = u[n_groups - 1]
    for g in range(n_groups - 2, max(at, 0) - 1, -1):
        if errors[g] <= limit and errors[g + 1] > limit:
            hi = between(u[g], u[g + 1], errors[g], errors[g + 1], limit)
            break
    t = <real> threshold
    lower[0] = t if t < lo else lo
    upper[0] = t if t > hi else hi
    return True


cdef struct Scratch:            # the pass's buffers, m rows or node_count nodes each
    Py_ssize_t* rows            # the rows of the nodes still to visit, by segment
    Py_ssize_t* moved           # a segment's rows handed to the children
    int32_t* branch             # each row's branch at the current node
    int32_t* root_class         # each row's class from the root
    Item* items
    Item* items_tmp
    char* wrong1
    char* wrong2
    double* w
    void* errors                # real
    void* u                     # real
    void* sums                  # real, n_classes
    void* stack_w               # real, node_count
    Py_ssize_t* stack_node      # node_count
    Py_ssize_t* seg_node        # node_count: the segments to visit
    Py_ssize_t* seg_start
    Py_ssize_t* seg_end
    Py_ssize_t* per_branch      # the largest n_children + 1


cdef int tree_pass(const TreeView* t, Rows* d, Py_ssize_t node_count, real* sums,
                   real* stack_w, real* errors, real* u, Scratch* s, double* lower,
                   double* upper, int64_t* counts, Interrupt* intr) noexcept nogil:
    """The bounds of every continuous test of t (NaN elsewhere, as given):
    0 done, -2 interrupted. counts: [nodes visited by the rows (handed down and
    classified), cases of the continuous tests]."""
    cdef Py_ssize_t m = d.m, r, i, nd, start, end, first, nc, b, n_cases, top, pos
    cdef int br
    cdef char wrong_own, wrong_other
    cdef int64_t* visits = &counts[0]
    if not fill_by_row(d, intr):
        return -2
    for r in range(m):                  # each row's class from the root
        if interrupted(intr):          # (a row's walk can visit the whole tree)
            return -2
        s.root_class[r] = <int32_t> class_from(t, d, 0, r, sums, s.stack_node,
                                               stack_w, visits)
        s.rows[r] = r
    top = 1
    s.seg_node[0], s.seg_start[0], s.seg_end[0] = 0, 0, m
    while top:                          # parents before children, depth first
        top -= 1
        nd, start, end = s.seg_node[top], s.seg_start[top], s.seg_end[top]
        if t.kind[nd] == LEAF:
            continue
        if interrupted(intr):
            return -2
        first = t.first_child[nd]
        nc = t.n_children[nd]
        n_cases = 0
        for i in range(start, end):
            r = s.rows[i]
            br = branch_of(t, d, nd, r)
            s.branch[i] = br
            visits[0] += 1
            if br == 0 or t.kind[nd] != CONTINUOUS:
                continue
            if interrupted(intr):
                return -2
            # Down its own branch a case is classified as from the root; down
            # the other, from that child.
            s.items[n_cases].v = value_of(d, t.feature[nd], r)
            s.items[n_cases].i = n_cases
            s.w[n_cases] = d.weight[r * d.weight_step]
            wrong_own = d.y[r] != s.root_class[r]
            wrong_other = d.y[r] != class_from(t, d, first + 2 - br, r, sums,
                                               s.stack_node, stack_w, visits)
            s.wrong1[n_cases] = wrong_own if br == 1 else wrong_other
            s.wrong2[n_cases] = wrong_other if br == 1 else wrong_own
            n_cases += 1
        if t.kind[nd] == CONTINUOUS:
            counts[1] += n_cases
            if n_cases == 0:
                lower[nd] = upper[nd] = t.threshold[nd]
            elif not bounds_of_cases(s.items, s.items_tmp, s.wrong1, s.wrong2, s.w,
                                     n_cases, t.threshold[nd], errors, u,
                                     &lower[nd], &upper[nd], intr):
                return -2
        # Hand the rows to the children, each child's in row order (the rows
        # with no branch here reach none).
        for b in range(nc + 1):
            s.per_branch[b] = 0
        for i in range(start, end):
            s.per_branch[s.branch[i]] += 1
        pos = start
        for b in range(1, nc + 1):
            r = s.per_branch[b]
            s.per_branch[b] = pos
            # (a child no row reaches is visited all the same: its tests' bounds
            # are their thresholds)
            s.seg_node[top], s.seg_start[top], s.seg_end[top] = first + b - 1, pos, pos + r
            top += 1
            pos += r
        for i in range(start, end):
            br = s.branch[i]
            if br:
                s.moved[s.per_branch[br]] = s.rows[i]
                s.per_branch[br] += 1
        for i in range(start, pos):
            s.rows[i] = s.moved[i]
    return 0


cdef void* take(Py_ssize_t n, size_t size, bint* failed) noexcept:
    cdef void* p = malloc(max(n, 1) * size)
    if p == NULL:
        failed[0] = True
    return p


def soft_bounds(tree, cont, codes, col, y, weight, bint f32, rank=None, counts=None):
    """(lower, upper): per node of tree, the soft bounds of its continuous test
    (NaN for the other nodes), from the training rows (cont (n_cont, m), codes
    (n_disc, m) as encoded for growing, col: each feature's row in them; y the
    class indices, weight the case weights). With rank (uint32, as cont), each
    row of cont is sorted and rank[c, r] is row r's place in row c (float64's
    tables). counts, a dict, gets "visits" (the nodes visited by the rows,
    handed down and classified) and "cases" (of all the continuous tests)."""
    cdef Py_ssize_t n = tree.node_count, k = tree.n_classes, m = len(y), j, widest = 3
    cdef Py_ssize_t n_tests = 0
    lower = np.empty(n)             # NaN but at the continuous tests (np.full's
    upper = np.empty(n)             # fill would give the GIL up)
    cdef double[::1] lo = lower, hi = upper
    if tree.n_values is None:
        raise ValueError("soft bounds need the tree's n_values (its features' categories)")
    cdef const int8_t[::1] kind = tree.kind
    cdef const int32_t[::1] feature = tree.feature, first_child = tree.first_child
    cdef const int32_t[::1] n_children = tree.n_children, node_class = tree.node_class
    cdef const double[::1] threshold = tree.threshold, tw = tree.weight
    cdef const double[:, ::1] value = tree.value
    cdef const int64_t[::1] map_offset = tree.map_offset
    cdef const int32_t[::1] value_map = tree.value_map, n_values = tree.n_values
    # (a float32 fit's values read as they are held, float32: not copied)
    cont = np.ascontiguousarray(cont, dtype=np.float32 if (
        rank is None and np.asarray(cont).dtype == np.float32) else np.float64)
    cdef const double[:, ::1] cv = cont if cont.dtype == np.float64 else None
    cdef const float[:, ::1] cv32 = cont if cont.dtype == np.float32 else None
    cdef Py_ssize_t n_cont = cont.shape[0], width = cont.shape[1]
    cdef const int32_t[:, ::1] cd = np.ascontiguousarray(codes, dtype=np.int32)
    cdef const int32_t[::1] colv = np.ascontiguousarray(col, dtype=np.int32)
    cdef const int32_t[::1] yv = np.ascontiguousarray(y, dtype=np.int32)
    cdef const double[:] wv = as_case_weights(weight)     # (stride 0: unit_weights)
    cdef const uint32_t[:, ::1] rv = None if rank is None else np.ascontiguousarray(
        rank, dtype=np.uint32)
    cdef int64_t tally[2]
    cdef TreeView t
    cdef Rows d
    cdef Scratch s
    cdef Interrupt intr
    cdef bint failed = False
    cdef int status = 0
    cdef size_t real_size = sizeof(float) if f32 else sizeof(double)
    if (wv.shape[0] != m or yv.shape[0] != m or colv.shape[0] < n_values.shape[0]
            or (n_cont and width != m) or (cd.shape[0] and cd.shape[1] != m)
            or (rv is not None and n_cont
                and (rv.shape[0] < n_cont or rv.shape[1] != m))):
        raise ValueError("soft bounds: the rows' arrays do not match")
    for j in range(n):                  # the most branches of a test, and no branch
        lo[j] = hi[j] = NAN
        if kind[j] == LEAF:
            continue
        widest = max(widest, n_children[j] + 1)
        n_tests += kind[j] == CONTINUOUS
        if not 0 <= colv[feature[j]] < (n_cont if kind[j] == CONTINUOUS else cd.shape[0]):
            raise ValueError(f"soft bounds: node {j}'s feature has no row in the data")
    if counts is not None:
        counts["visits"] = counts["cases"] = 0
    if n_tests == 0:
        return lower, upper
    t.kind, t.feature, t.first_child = &kind[0], &feature[0], &first_child[0]
    t.n_children, t.node_class, t.threshold = &n_children[0], &node_class[0], &threshold[0]
    t.weight, t.value, t.map_offset = &tw[0], &value[0, 0], &map_offset[0]
    t.value_map = &value_map[0] if value_map.shape[0] else NULL
    t.n_values = &n_values[0] if n_values.shape[0] else NULL
    t.n_classes = k
    d.cont = &cv[0, 0] if cv is not None and n_cont and m else NULL
    d.cont32 = &cv32[0, 0] if cv32 is not None and n_cont and m else NULL
    d.rank = &rv[0, 0] if rv is not None and d.cont != NULL else NULL
    d.codes = &cd[0, 0] if cd.shape[0] and m else NULL
    d.col = &colv[0] if colv.shape[0] else NULL
    d.y = &yv[0] if m else NULL
    d.weight = &wv[0] if m else NULL
    d.weight_step = wv.strides[0] // <Py_ssize_t> sizeof(double)
    d.m = m
    d.n_cont = n_cont
    d.by_row = NULL
    d.by_row32 = NULL
    memset(&s, 0, sizeof(Scratch))
    tally[0] = tally[1] = 0
    try:
        s.rows = <Py_ssize_t*> take(m, sizeof(Py_ssize_t), &failed)
        s.moved = <Py_ssize_t*> take(m, sizeof(Py_ssize_t), &failed)
        s.branch = <int32_t*> take(m, sizeof(int32_t), &failed)
        s.root_class = <int32_t*> take(m, sizeof(int32_t), &failed)
        s.items = <Item*> take(m, sizeof(Item), &failed)
        s.items_tmp = <Item*> take(m, sizeof(Item), &failed)
        s.wrong1 = <char*> take(m, 1, &failed)
        s.wrong2 = <char*> take(m, 1, &failed)
        s.w = <double*> take(m, sizeof(double), &failed)
        s.errors = take(m, real_size, &failed)
        s.u = take(m, real_size, &failed)
        s.sums = take(k, real_size, &failed)
        s.stack_w = take(n, real_size, &failed)
        s.stack_node = <Py_ssize_t*> take(n, sizeof(Py_ssize_t), &failed)
        s.seg_node = <Py_ssize_t*> take(n, sizeof(Py_ssize_t), &failed)
        s.seg_start = <Py_ssize_t*> take(n, sizeof(Py_ssize_t), &failed)
        s.seg_end = <Py_ssize_t*> take(n, sizeof(Py_ssize_t), &failed)
        s.per_branch = <Py_ssize_t*> take(widest, sizeof(Py_ssize_t), &failed)
        if d.cont32 != NULL:
            d.by_row32 = <float*> take(m * d.n_cont, sizeof(float), &failed)
        else:
            d.by_row = <double*> take(m * d.n_cont, sizeof(double), &failed)
        if failed:
            raise MemoryError("c45: out of memory for the soft thresholds' bounds")
        memset(&intr, 0, sizeof(Interrupt))
        interrupt_init(&intr)
        try:
            with nogil:
                if f32:
                    status = tree_pass(&t, &d, n, <float*> s.sums, <float*> s.stack_w,
                                       <float*> s.errors, <float*> s.u, &s, &lo[0],
                                       &hi[0], tally, &intr)
                else:
                    status = tree_pass(&t, &d, n, <double*> s.sums, <double*> s.stack_w,
                                       <double*> s.errors, <double*> s.u, &s, &lo[0],
                                       &hi[0], tally, &intr)
        finally:
            interrupt_end(&intr)
    finally:
        free(s.rows); free(s.moved); free(s.branch); free(s.root_class)
        free(s.items); free(s.items_tmp); free(s.wrong1); free(s.wrong2); free(s.w)
        free(s.errors); free(s.u); free(s.sums); free(s.stack_w); free(s.stack_node)
        free(s.seg_node); free(s.seg_start); free(s.seg_end); free(s.per_branch)
        free(d.by_row); free(d.by_row32)
    if status == -2 or intr.stop:
        raise_interrupt()
    if counts is not None:
        counts["visits"], counts["cases"] = int(tally[0]), int(tally[1])
    return lower, upper


def _bounds(values, wrong1, wrong2, w, threshold, rnd):
    """The bounds of one test from its cases' values, whether each is
    misclassified down branch 1 / branch 2, and their weights, in the precision
    rnd (np.float32 or float): (lower, upper) as soft_bounds finds them."""
    cdef const double[::1] v = np.ascontiguousarray(values, dtype=np.float64)
    cdef const int8_t[::1] a1 = np.ascontiguousarray(wrong1, dtype=np.int8)
    cdef const int8_t[::1] a2 = np.ascontiguousarray(wrong2, dtype=np.int8)
    cdef const double[::1] wv = np.ascontiguousarray(w, dtype=np.float64)
    cdef Py_ssize_t n = v.shape[0], i
    cdef bint f32 = rnd is np.float32, failed = False, done = True
    cdef size_t real_size = sizeof(float) if f32 else sizeof(double)
    cdef double lo = threshold, hi = threshold, thr = threshold
    cdef Interrupt intr
    if n == 0 or a1.shape[0] != n or a2.shape[0] != n or wv.shape[0] != n:
        raise ValueError("_bounds: no cases, or arrays of different lengths")
    cdef Item* items = <Item*> take(n, sizeof(Item), &failed)
    cdef Item* tmp = <Item*> take(n, sizeof(Item), &failed)
    cdef void* errors = take(n, real_size, &failed)
    cdef void* u = take(n, real_size, &failed)
    try:
        if failed:
            raise MemoryError("c45: out of memory for a soft threshold's bounds")
        memset(&intr, 0, sizeof(Interrupt))
        interrupt_init(&intr)
        try:
            with nogil:
                for i in range(n):
                    if i % POLL_MOVES == 0 and interrupted(&intr):
                        break
                    items[i].v = v[i]
                    items[i].i = i
                if intr.stop:
                    done = False
                elif f32:
                    done = bounds_of_cases(items, tmp, <const char*> &a1[0],
                                           <const char*> &a2[0], &wv[0], n, thr,
                                           <float*> errors, <float*> u, &lo, &hi, &intr)
                else:
                    done = bounds_of_cases(items, tmp, <const char*> &a1[0],
                                           <const char*> &a2[0], &wv[0], n, thr,
                                           <double*> errors, <double*> u, &lo, &hi, &intr)
        finally:
            interrupt_end(&intr)
    finally:
        free(items); free(tmp); free(errors); free(u)
    if not done or intr.stop:
        raise_interrupt()
    return lo, hi
