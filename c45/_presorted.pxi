# Included by _tree.pyx (it shares the node buffer helpers).
# Growing in precision="float64" (§2) on presorted case lists.
#
# Every feature is sorted once. A node then owns, side by side in one arena, a
# list of its cases in row order (the "row list") and one list per continuous
# feature with the unknown values first (row order) and the known ones by (value,
# row): the canonical order of project decision 7. Each entry carries the case's
# value, weight and class, so evaluating a feature is one sequential scan and no
# node ever sorts. A split builds each child's lists by a stable filter of the
# parent's: the child keeps the cases of its branch and every case of unknown
# outcome, whose weight is scaled by the branch's share (§2 step 9). The child with
# the most cases is grown last, filtered in place over its parent's lists; the
# others are copied to the top of the arena and freed when grown, so the arena
# stays within a small multiple of the root's lists.
#
# Every sum is taken in an order that depends only on the node's set of cases and
# weights (row order, or the canonical order for a continuous feature), so the
# order in which children are grown, and the number of threads, change no bit.
# tests/oracle.py states the same orders and is compared with this on random data.
#
# precision="float32" grows with R8's own case array and quicksort (c45/_tree.pyx),
# which this module leaves alone.
from cython.parallel cimport prange, threadid
from libc.math cimport isnan, NAN
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t

from c45._types cimport (Dataset, Entry, Node, NodeBuffer, LEAF, DISCRETE, CONTINUOUS,
                         SUBSET)
from c45._criterion cimport EPSILON
from c45._splitter cimport (Work, draw_features, evaluate_feature, eval_continuous_list,
                            select_feature, global_threshold, is_subset_feature,
                            PARALLEL_MIN_WORK)


cdef struct ListFrame:
    int32_t node
    int32_t depth
    Py_ssize_t base          # the node's lists: arena[base + j*m .. base + (j+1)*m)
    Py_ssize_t m             # cases at the node
    Py_ssize_t branch_info   # offset of the node's per-branch sizes and factors
    int32_t next             # next branch to grow (1-based); 0: node not entered yet
    int32_t last             # the branch grown last, in place; 0: none left
    int32_t n_unknown        # cases of unknown outcome at the split


cdef struct Grower:
    Work* w
    Entry* arena
    Py_ssize_t arena_cap
    Py_ssize_t arena_top
    Py_ssize_t n_lists       # 1 + number of continuous features
    int32_t* list_of         # feature -> its list (1..), 0 for a discrete feature
    int32_t* feature_of      # list j >= 1 -> feature
    int32_t* outcome         # per case id: branch of the current split (0: unknown)
    uint8_t* mark            # per case id, for the child being built: 1 its branch,
                             # 2 unknown outcome, 0 elsewhere (1 byte: stays in cache)
    double* factor           # per branch of every node on the stack: weight factor
    Py_ssize_t* size         # per branch: known cases of the branch
    Py_ssize_t info_cap
    Py_ssize_t info_top
    bint any_discrete


cdef int arena_reserve(Grower* g, Py_ssize_t extra) noexcept nogil:
    cdef Py_ssize_t cap = g.arena_cap
    cdef Entry* grown
    if g.arena_top + extra <= cap:
        return 0
    while cap < g.arena_top + extra:
        cap = cap + cap // 2 + 1024
    grown = <Entry*> realloc(g.arena, cap * sizeof(Entry))
    if grown == NULL:
        return -1
    g.arena = grown
    g.arena_cap = cap
    return 0


cdef int info_reserve(Grower* g, Py_ssize_t extra) noexcept nogil:
    cdef Py_ssize_t cap = g.info_cap
    cdef double* f
    cdef Py_ssize_t* s
    if g.info_top + extra <= cap:
        return 0
    while cap < g.info_top + extra:
        cap = 2 * cap + 64
    f = <double*> realloc(g.factor, cap * sizeof(double))
    if f == NULL:
        return -1
    g.factor = f
    s = <Py_ssize_t*> realloc(g.size, cap * sizeof(Py_ssize_t))
    if s == NULL:
        return -1
    g.size = s
    g.info_cap = cap
    return 0


cdef int root_lists(Grower* g) noexcept nogil:
    """The root's lists from the ranks: row list, then each continuous feature in
    canonical order (ranks n_known.. are the unknowns, in row order)."""
    cdef const Dataset* d = g.w.data
    cdef Py_ssize_t n = d.n_cases, j, f, c, pos, col
    cdef uint32_t r, n_known
    cdef Entry* e
    if arena_reserve(g, g.n_lists * n) < 0:
        return -1
    e = g.arena
    for c in range(n):
        e[c].value = 0.0
        e[c].weight = d.init_weight[c]
        e[c].case = <int32_t> c
        e[c].cls = d.y[c]
    for j in range(1, g.n_lists):
        f = g.feature_of[j]
        col = <Py_ssize_t> d.col[f] * n
        n_known = <uint32_t> d.n_known[f]
        e = g.arena + j * n
        for c in range(n):
            r = d.rank[col + c]
            if r >= n_known:
                pos = r - n_known
                e[pos].value = NAN
            else:
                pos = r + (n - n_known)
                e[pos].value = d.sorted_value[col + r]
            e[pos].weight = d.init_weight[c]
            e[pos].case = <int32_t> c
            e[pos].cls = d.y[c]
    g.arena_top = g.n_lists * n
    return 0


cdef void evaluate(Grower* g, Py_ssize_t base, Py_ssize_t m, double total) noexcept nogil:
    """Gain, info and bar of every feature at the node (§3-§5)."""
    cdef Work* w = g.w
    cdef const Dataset* d = w.data
    cdef Py_ssize_t f, i, j, tid
    cdef const Entry* rl = g.arena + base
    cdef bint sample = 0 < d.max_features < d.n_features
    cdef Work* tw
    if sample:
        draw_features(w)
    if g.any_discrete:
        # The discrete evaluators read the case array and the case weights.
        for i in range(m):
            w.cases[i] = rl[i].case
            w.weight[rl[i].case] = rl[i].weight
    if w.n_threads > 1 and m * d.n_features >= PARALLEL_MIN_WORK:
        for f in prange(d.n_features, nogil=True, schedule="dynamic",
                        num_threads=w.n_threads):
            tid = threadid()
            tw = &w.threads[tid]
            tw.min_objs = w.min_objs
            j = g.list_of[f]
            if j == 0:
                tw.cases, tw.spare = w.cases, tw.cases    # read only: shared
                evaluate_feature(tw, f, 0, m - 1, total, sample)
                tw.cases, tw.spare = tw.spare, w.cases
            elif sample and not w.drawn[f]:
                w.gain[f] = -EPSILON
                w.info[f] = 0.0
            else:
                eval_continuous_list(tw, f, g.arena + base + j * m, m, total)
        return
    for f in range(d.n_features):
        j = g.list_of[f]
        if j == 0:
            evaluate_feature(w, f, 0, m - 1, total, sample)
        elif sample and not w.drawn[f]:
            w.gain[f] = -EPSILON
            w.info[f] = 0.0
        else:
            eval_continuous_list(w, f, g.arena + base + j * m, m, total)


cdef void filter_lists(Grower* g, Py_ssize_t src, Py_ssize_t m, Py_ssize_t dst,
                       Py_ssize_t m_child, double factor) noexcept nogil:
    """The child's lists from the parent's: a stable filter keeping the cases
    marked 1 (its branch) and 2 (unknown outcome, weight scaled). dst may equal
    src (in place): every entry is written at or before where it was read."""
    cdef Py_ssize_t j, i, t
    cdef const uint8_t* mark = g.mark
    cdef Entry* a = g.arena
    cdef Entry* s
    cdef Entry* o
    cdef uint8_t b
    for j in range(g.n_lists):
        s = a + src + j * m
        o = a + dst + j * m_child
        t = 0
        for i in range(m):
            b = mark[s[i].case]
            if b != 0:
                o[t] = s[i]
                if b == 2:
                    o[t].weight = s[i].weight * factor
                t += 1


cdef inline void set_leaf(Node* nd, int32_t cls, double weight, double errors) noexcept nogil:
    nd.kind = LEAF
    nd.feature = -1
    nd.first_child = -1
    nd.n_children = 0
    nd.node_class = cls
    nd.threshold = NAN
    nd.weight = weight
    nd.errors = errors
    nd.map_offset = -1


cdef int enter_listed(Grower* g, NodeBuffer* t, ListFrame* fr) noexcept nogil:
    """Make the node a leaf, or give it a test, its children and branch shares.
    Returns 1 for a split, 0 for a leaf, -1 when memory runs out."""
    cdef Work* w = g.w
    cdef const Dataset* d = w.data
    cdef Py_ssize_t k = d.n_classes, m = fr.m, i, c, feature, n_branches, v, best_v
    cdef Entry* rl = g.arena + fr.base
    cdef const Entry* fl
    cdef double total = 0.0, best_weight, threshold = NAN, unknown_w = 0.0, known_w
    cdef int best = 0, kind
    cdef int64_t map_offset = -1
    cdef Py_ssize_t n_unknown = 0, n_values
    cdef const int32_t* codes
    cdef const int32_t* vmap
    cdef double* bw
    cdef Py_ssize_t* size
    cdef Node* nd
    memset(w.dist, 0, k * sizeof(double))
    for i in range(m):
        total += rl[i].weight
        w.dist[rl[i].cls] += rl[i].weight
    for c in range(1, k):
        if w.dist[c] > w.dist[best]:
            best = <int> c
    best_weight = w.dist[best]
    nd = &t.nodes[fr.node]
    set_leaf(nd, best, total, total - best_weight)
    memcpy(&t.value[fr.node * k], w.dist, k * sizeof(double))
    if best_weight == total or total < 2 * w.min_objs:
        return 0
    if d.max_depth >= 0 and fr.depth >= d.max_depth:
        return 0
    if total < d.min_split or (d.max_purity < 1.0 and best_weight >= d.max_purity * total):
        return 0
    evaluate(g, fr.base, m, total)
    feature = select_feature(w)
    if feature < 0 or w.gain[feature] < d.min_gain:
        return 0
    # Each case's outcome: 0 unknown, else its branch.
    if d.n_values[feature] == 0:
        kind = CONTINUOUS
        n_branches = 2
        threshold = w.bar[feature] if d.midpoint else global_threshold(d, feature, w.bar[feature])
        fl = g.arena + fr.base + g.list_of[feature] * m
        while n_unknown < m and isnan(fl[n_unknown].value):
            n_unknown += 1
        if n_unknown >= m:
            return 0
        # §13 Q1: every known case on one side after rounding: the node stays a leaf.
        if not (fl[n_unknown].value <= threshold and fl[m - 1].value > threshold):
            return 0
        for i in range(m):
            if i < n_unknown:
                g.outcome[fl[i].case] = 0
            else:
                g.outcome[fl[i].case] = 1 if fl[i].value <= threshold else 2
    else:
        n_values = d.n_values[feature]
        codes = d.codes + <Py_ssize_t> d.col[feature] * d.n_cases
        if is_subset_feature(d, feature):
            kind = SUBSET
            n_branches = w.n_groups[feature]
            vmap = &w.groups[w.group_start[feature]]
            if maps_reserve(t, n_values + 1) < 0:
                return -1
            map_offset = t.maps_count
            memcpy(&t.maps[map_offset], vmap, (n_values + 1) * sizeof(int32_t))
            t.maps_count += n_values + 1
            for i in range(m):
                g.outcome[rl[i].case] = vmap[codes[rl[i].case]]
        else:
            kind = DISCRETE
            n_branches = n_values
            for i in range(m):
                g.outcome[rl[i].case] = codes[rl[i].case]
    # Branch weights in row order; outcomes saved in the row list (the children's
    # subtrees overwrite g.outcome).
    if info_reserve(g, n_branches + 1) < 0:
        return -1
    fr.branch_info = g.info_top
    g.info_top += n_branches + 1
    bw = g.factor + fr.branch_info
    size = g.size + fr.branch_info
    for v in range(n_branches + 1):
        bw[v] = 0.0
        size[v] = 0
    for i in range(m):
        v = g.outcome[rl[i].case]
        rl[i].value = <double> v
        if v == 0:
            unknown_w += rl[i].weight
        else:
            bw[v] += rl[i].weight
        size[v] += 1
    n_unknown = size[0]
    known_w = total - unknown_w
    if buffer_reserve(t, n_branches) < 0:
        return -1
    nd = &t.nodes[fr.node]
    nd.kind = kind
    nd.feature = <int32_t> feature
    nd.threshold = threshold
    nd.first_child = <int32_t> t.count
    nd.n_children = <int32_t> n_branches
    nd.map_offset = map_offset
    nd.errors = 0.0
    t.count += n_branches
    # Empty branches are leaves of the parent's class and distribution; the
    # others get their weight factor; the largest is grown last, in place.
    best_v = 0
    for v in range(1, n_branches + 1):
        if size[v] == 0:
            set_leaf(&t.nodes[nd.first_child + v - 1], nd.node_class, 0.0, 0.0)
            memcpy(&t.value[(nd.first_child + v - 1) * k], &t.value[fr.node * k],
                   k * sizeof(double))
        else:
            bw[v] = bw[v] / known_w
            if best_v == 0 or size[v] > size[best_v]:
                best_v = v
    if kind == DISCRETE:
        w.used[feature] += 1
    fr.n_unknown = <int32_t> n_unknown
    fr.last = <int32_t> best_v
    fr.next = 1
    return 1


cdef int grow_presorted(Work* w, NodeBuffer* t) except -1 nogil:
    """Grow the tree of all cases into t (collapsed as C4.5 collapses, §2.11)."""
    cdef const Dataset* d = w.data
    cdef Grower g
    cdef Py_ssize_t k = d.n_classes, n = d.n_cases, f, j, cap = 64, top, i, m_child
    cdef ListFrame* stack = NULL
    cdef ListFrame* grown
    cdef ListFrame* fr
    cdef Node* nd
    cdef int r, ok = 0
    cdef bint in_place
    cdef int32_t v, b, child
    cdef const Entry* rl
    cdef double errors
    memset(&g, 0, sizeof(Grower))
    g.w = w
    g.n_lists = 1
    for f in range(d.n_features):
        if d.n_values[f] == 0:
            g.n_lists += 1
        else:
            g.any_discrete = True
    g.list_of = <int32_t*> calloc(d.n_features + 1, sizeof(int32_t))
    g.feature_of = <int32_t*> calloc(g.n_lists + 1, sizeof(int32_t))
    g.outcome = <int32_t*> calloc(n + 1, sizeof(int32_t))
    g.mark = <uint8_t*> calloc(n + 1, sizeof(uint8_t))
    stack = <ListFrame*> malloc(cap * sizeof(ListFrame))
    if (g.list_of == NULL or g.feature_of == NULL or g.outcome == NULL or g.mark == NULL
            or stack == NULL or buffer_reserve(t, 1) < 0):
        ok = -1
    if ok == 0:
        j = 1
        for f in range(d.n_features):
            if d.n_values[f] == 0:
                g.list_of[f] = <int32_t> j
                g.feature_of[j] = <int32_t> f
                j += 1
        g.arena_cap = 0
        ok = root_lists(&g)
    if ok == 0:
        t.count = 1
        memset(stack, 0, sizeof(ListFrame))
        stack[0].node = 0
        stack[0].base = 0
        stack[0].m = n
        top = 1
        while top > 0:
            fr = &stack[top - 1]
            if fr.next == 0:
                r = enter_listed(&g, t, fr)
                if r < 0:
                    ok = -1
                    break
                if r == 0:
                    g.arena_top = fr.base
                    top -= 1
                    continue
            nd = &t.nodes[fr.node]
            # The next branch to grow: the non-empty ones in order, the largest last.
            v = 0
            in_place = False
            while fr.next <= nd.n_children:
                b = fr.next
                fr.next += 1
                if b != fr.last and g.size[fr.branch_info + b] > 0:
                    v = b
                    break
            if v == 0 and fr.last > 0:
                v = fr.last
                fr.last = 0
                in_place = True
            if v != 0:
                # Mark the child's cases from the outcomes saved in the row list.
                rl = g.arena + fr.base
                for i in range(fr.m):
                    b = <int32_t> rl[i].value
                    g.mark[rl[i].case] = 1 if b == v else (2 if b == 0 else 0)
                m_child = g.size[fr.branch_info + v] + fr.n_unknown
                if top == cap:
                    cap *= 2
                    grown = <ListFrame*> realloc(stack, cap * sizeof(ListFrame))
                    if grown == NULL:
                        ok = -1
                        break
                    stack = grown
                    fr = &stack[top - 1]
                if in_place:
                    i = fr.base          # the parent's lists are not needed any more
                else:
                    if arena_reserve(&g, g.n_lists * m_child) < 0:
                        ok = -1
                        break
                    i = g.arena_top
                filter_lists(&g, fr.base, fr.m, i, m_child, g.factor[fr.branch_info + v])
                g.arena_top = i + g.n_lists * m_child
                memset(&stack[top], 0, sizeof(ListFrame))
                stack[top].node = nd.first_child + v - 1
                stack[top].depth = fr.depth + 1
                stack[top].base = i
                stack[top].m = m_child
                top += 1
                continue
            # All branches grown: errors summed in branch order, then collapse if
            # the subtree does not beat a leaf by more than epsilon (§2 step 11).
            errors = 0.0
            for b in range(nd.n_children):
                errors = errors + t.nodes[nd.first_child + b].errors
            nd.errors = errors
            if nd.kind == DISCRETE:
                w.used[nd.feature] -= 1
            if nd.errors >= nd.weight - t.value[fr.node * k + nd.node_class] - EPSILON:
                nd.kind = LEAF
            g.info_top = fr.branch_info
            g.arena_top = fr.base
            top -= 1
    free(stack)
    free(g.arena); free(g.list_of); free(g.feature_of); free(g.outcome); free(g.mark)
    free(g.factor); free(g.size)
    if ok < 0:
        with gil:
            raise MemoryError("c45: out of memory while growing the tree")
    # Pruning starts from the cases in row order with their initial weights.
    for i in range(n):
        w.cases[i] = <int32_t> i
        w.weight[i] = d.init_weight[i]
    return 0
