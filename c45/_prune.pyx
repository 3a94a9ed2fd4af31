"""Pessimistic pruning with subtree raising, as C4.5 Release 8 does it (spec §8.2).

The tree is pruned in place: a node that becomes a leaf drops its children, a node
replaced by its largest branch takes over that child's fields (and children). The
abandoned nodes stay in the buffer; the caller compacts the tree afterwards.

precision="float32" walks Release 8's case array with its swaps (estimate), or
where every sum is exact in any order (Dataset.listed) the case lists below.
precision="float64" walks case lists in row order (estimate_listed): every sum in
row order and scaled weights restored exactly, as growing does (oracle decision 9),
and memory read in sequence; with n_jobs > 1, subtrees are estimated on several
threads (estimate_parallel), and the lists of the top nodes (n/threads cases or more)
are grouped and merged by the threads in chunks, which changes no bit.
"""
from cython.parallel cimport prange
from libc.math cimport isnan, fabs, floor, log, INFINITY
from libc.stdlib cimport calloc, malloc, realloc, free
from libc.string cimport memcpy, memset, memcmp
from libc.stdint cimport int32_t, uint32_t

from c45._types cimport Node, NodeBuffer, Test, Dataset, LEAF, CONTINUOUS, SUBSET, NO_CUT_RANK
from c45._splitter cimport (Work, total_weight, class_distribution, group,
                            sum_weights, branch_lists, gather_branch, MANY_BRANCHES,
                            cut_rank, list_values, list_stride, list_single,
                            listed_value, source_value)
from c45._interrupt cimport interrupted, raise_interrupt, copy_polled
from c45._types cimport Interrupt, initial_weight
from c45._criterion cimport rnd, extra_errors, pessimistic_coeff
from c45._nodes cimport (get_class_weights, set_class_weights,
                         same_class_weights, copy_class_weights, has_unknown)
from c45._scratch cimport resize, room_for, c45_big_resize, c45_big_free
from c45._tasks cimport TaskOrder, run_tasks, team_for

cdef extern from "_stack.h":
    ctypedef struct c45_stack_thread:
        pass
    char* c45_stack_low() noexcept nogil
    size_t c45_stack_room() noexcept nogil
    size_t c45_worker_stack() noexcept nogil
    int c45_thread_start(c45_stack_thread* t, void (*fn)(void*) noexcept nogil, void* arg,
                         size_t stack) noexcept nogil
    int c45_thread_done(c45_stack_thread* t) noexcept nogil
    void c45_thread_join(c45_stack_thread* t) noexcept nogil
    void c45_nap() noexcept nogil


cdef struct Listed:
    # A case in a float64 pruning list (pruning reads a case's test value by its
    # row): 16 bytes.
    double weight
    int32_t case
    int32_t cls


cdef struct PruneTask:
    int32_t node             # a subtree's root
    Listed* cases            # its case list (row order), owned until estimated; NULL:
    Py_ssize_t at            # ... its list is the descent's arena[at .. at + m)
    Py_ssize_t m
    double result            # its estimate (update: its errors after pruning)


cdef struct Pruner:
    NodeBuffer* tree
    Work* w
    double cf
    double coeff
    bint raising
    double* dist             # k: class weights of the node (each thread its own)
    int n_threads
    Py_ssize_t limit         # float64: a descent of this many cases runs in parallel
    PruneTask* tasks         # the running descent's subtrees estimated already
    Py_ssize_t n_tasks
    int32_t* height          # n_jobs > 1: levels of each node's grown subtree
    # float64: the case lists, a big block (c45/_scratch.pxd): the root's, the
    # lists of their own of branches below a node with unknown outcomes (the
    # other branches' lists are parts of their node's), and above its top the
    # scratch of permute_grouped and restore_rows
    Listed* arena
    Py_ssize_t arena_top
    Py_ssize_t arena_cap
    Py_ssize_t* offsets      # per branch of the nodes being visited: list offsets
    Py_ssize_t off_top
    Py_ssize_t off_cap
    int32_t* outcome         # group_listed's scratch: the outcome of each case
    Py_ssize_t outcome_cap
    # float64: a stack of the visited nodes' cases grouped by outcome, as positions
    # in their lists (4 bytes a case), held along a path only by the nodes with
    # unknown outcomes (the others' are read once, by permute_grouped)
    int32_t* index
    Py_ssize_t index_top
    Py_ssize_t index_cap
    uint32_t* cut            # per node of a continuous test: known values <= threshold
    # Case lists whose sums are exact in any order (whole weights, total <= 2**53)
    # and whose tested features have no unknown value: subtree raising re-estimates
    # a branch from what its nodes hold and the other branches' cases (estimate_joined)
    bint joinable
    # Every sum of the lists' weights is exact in any order and no case has an
    # unknown outcome (joinable_lists): a list's order does not matter, and a
    # node's list is left grouped by branch (no row order restored)
    bint any_order
    unsigned char* seen      # joinable: per node, 1 once an update estimate reached it
    double floor_margin      # joinable: past_stop's margin (relative; floor_margin_of)
    GrownLog* log            # the grown fields pruning changes (this thread's), or NULL
    bint failed              # out of memory (or of stack: out_of_stack set too)
    char* stack_floor        # the recursion stops below this address (NULL: unknown)
    int* out_of_stack        # shared by the threads' pruners: a recursion hit its floor
    char pad[64]             # threads' pruners side by side share no cache line


# Pruning recurses once per level of the tree. Each recursive call first checks
# that its frame is above its thread's floor (STACK_MARGIN above the end of the
# stack), so no tree overflows a stack: one too deep for the calling thread (or
# for libgomp's workers) is pruned on a thread of its own (prune_pessimistic).
cdef size_t STACK_MARGIN = 64 * 1024
# Stack a level takes at most: about 210 bytes measured in the release build;
# sanitizer builds' frames are several times larger.
cdef size_t PRUNE_LEVEL_BYTES = 1024


cdef inline char* stack_floor() noexcept nogil:
    cdef char* low = c45_stack_low()
    return low + STACK_MARGIN if low != NULL else NULL


cdef inline bint out_of_stack(Pruner* p) noexcept nogil:
    """True (and the pruning fails) when the caller's frame is below its floor."""
    cdef char here
    if p.stack_floor != NULL and &here < p.stack_floor:
        p.failed = True
        p.out_of_stack[0] = 1
        return True
    return False


cdef double estimate(Pruner* p, int node, Py_ssize_t lo, Py_ssize_t hi,
                     bint update) noexcept nogil:
    """Estimate(node, cases, update) of §8.2: the pessimistic error estimate of the
    subtree at node for the cases [lo, hi]; with update, prune it as it goes."""
    cdef Work* w = p.w
    cdef bint f32 = w.data.f32
    cdef Py_ssize_t c, first_known, ep, v
    cdef Node* nd = &p.tree.nodes[node]
    cdef double total, known_weight, leaf, tree_est = 0.0
    cdef double f, max_f = 0.0, wv
    cdef int max_branch = -1
    cdef bint saved_mode
    cdef Test test
    cdef Py_ssize_t lists = -1, arena_mark

    if interrupted(w.data.intr) or out_of_stack(p):
        return INFINITY     # unwinding: the pruned copy is thrown away
    total = class_distribution(w, lo, hi)
    leaf = leaf_estimate(p, node, w.dist, total, update)
    if nd.kind == LEAF:
        return leaf

    # Internal node: the subtree's estimate, unknown cases shared out by branch weight.
    test.kind = nd.kind
    test.feature = nd.feature
    test.threshold = nd.threshold
    test.value_map = &p.tree.maps[nd.map_offset] if nd.map_offset >= 0 else NULL
    first_known = group(w, &test, 0, lo, hi, NULL) + 1
    saved_mode = w.count_mode
    if first_known > lo:
        w.count_mode = False
    # Pruning sums the known cases' weights (growing takes the node's weight less
    # the unknown ones'): Release 8's class sums of pruned trees show it (R8
    # corpus r0002, r0004: the factors, hence the leaves' weights, differ in the
    # last bits otherwise).
    known_weight = sum_weights(w, first_known, hi)
    arena_mark = w.arena_top
    if nd.kind != CONTINUOUS and nd.n_children >= MANY_BRANCHES:
        lists = branch_lists(w, &test, nd.n_children, first_known, hi)
    for v in range(1, nd.n_children + 1):
        if lists >= 0:
            ep = gather_branch(w, lists, v, first_known)
            wv = total_weight(w, first_known, ep)
        else:
            ep = group(w, &test, <int> v, first_known, hi, &wv)
        if ep < first_known:
            continue
        f = rnd(f32, wv / known_weight)
        if f >= max_f:
            max_f = f
            max_branch = <int> v
        for c in range(lo, first_known):
            if stop_at(p, c):
                break           # (weights half scaled: the estimate below returns)
            w.weight[w.cases[c]] = rnd(f32, w.weight[w.cases[c]] * f)
        tree_est = rnd(f32, tree_est + estimate(p, nd.first_child + <int> v - 1, lo, ep,
                                                update))
        group(w, &test, 0, lo, ep, NULL)
        for c in range(lo, first_known):
            if stop_at(p, c):
                break
            w.weight[w.cases[c]] = rnd(f32, w.weight[w.cases[c]] / f)
        nd = &p.tree.nodes[node]
    w.count_mode = saved_mode
    w.arena_top = arena_mark
    return conclude(p, node, leaf, tree_est, max_branch, lo, hi, update, -1)


cdef inline double subtree_estimate(Pruner* p, int node, Py_ssize_t lo, Py_ssize_t hi,
                                   bint update, double stop) noexcept nogil:
    """The estimate of the subtree at node for the same cases, in the fit's layout:
    R8's case array [lo, hi] (float32: always the exact value) or the list
    arena[lo .. lo + hi) (float64: INFINITY once known to pass stop)."""
    if p.w.data.f32 and not p.w.data.listed:
        return estimate(p, node, lo, hi, update)
    return descend(p, node, lo, hi, update, stop)


cdef double conclude(Pruner* p, int node, double leaf, double tree_est, int max_branch,
                     Py_ssize_t lo, Py_ssize_t hi, bint update,
                     Py_ssize_t offs) noexcept nogil:
    """§8.2 steps 6-7 at an internal node, for both case layouts, once its leaf
    estimate (leaf) and its subtree's (tree_est) are known and max_branch is its
    heaviest branch (-1 if no known case reached it): the estimate returned, and
    with update the node kept, made a leaf, or replaced by its raised branch.
    lo, hi: the node's cases, [lo, hi] of R8's case array (float32) or the list
    arena[lo .. lo + hi) (float64). offs: where the list is joinable, the
    offsets of its grouping by branch in place (estimate_listed), else -1."""
    cdef Node* nd = &p.tree.nodes[node]
    cdef double branch_est, threshold
    cdef int child
    if max_branch < 0:
        offs = -1
        # No known case reaches the node (possible only for cases a raised subtree
        # receives): score it as a leaf, and its largest stored branch as the branch.
        tree_est = leaf
        max_branch = largest_stored_branch(p, nd)
    if not update:
        return tree_est

    child = nd.first_child + max_branch - 1
    if not p.raising:
        branch_est = tree_est + 1e38
    else:
        # Only branch_est versus one threshold decides: with leaf <= tree + 0.1,
        # whether branch_est + 0.1 >= leaf (then a leaf, else raise); otherwise
        # whether branch_est <= tree + 0.1 (raise, else keep). Above the threshold
        # (by a margin for the rounding of sums taken in another grouping) the
        # answer is the same for any larger value, INFINITY included, so the
        # descent may stop there.
        if leaf <= tree_est + 0.1:
            threshold = leaf - 0.1
        else:
            threshold = tree_est + 0.1
        if offs >= 0:
            branch_est = raised_estimate(p, child, lo, offs, nd.n_children,
                                         max_branch, threshold + stop_margin(p, threshold))
        else:
            branch_est = subtree_estimate(p, child, lo, hi, False,
                                          threshold + stop_margin(p, threshold))
    if decide(p, node, leaf, tree_est, branch_est):
        subtree_estimate(p, child, lo, hi, True, INFINITY)
        raise_child(p, node, child)
    return p.tree.nodes[node].errors


cdef inline double stop_margin(const Pruner* p, double threshold) noexcept nogil:
    """How far above the threshold a descent may stop (its partial sums are taken
    in another grouping than the estimate's). float32 rounds the estimate's sums
    of non-negative terms, a term at most once per node of the tree, each time
    by a relative 2**-24 at most, and the partial sums taken in double are of
    such rounded values: one that passes the threshold by count * 2**-21 of it
    leaves the estimate above it (no stop for a tree of 2**21 nodes or more)."""
    cdef double count = <double> p.tree.count
    if not p.w.data.f32:
        return 1e-9 * (1.0 + fabs(threshold))
    if count >= 2097152.0:
        return INFINITY
    return fabs(threshold) * count * 4.76837158203125e-07 + 1e-30


cdef int largest_stored_branch(Pruner* p, const Node* nd) noexcept nogil:
    """The last branch with the largest stored weight (1-based)."""
    cdef int v, best = 1
    cdef double max_w = -1.0
    for v in range(nd.n_children):
        if p.tree.nodes[nd.first_child + v].weight >= max_w:
            max_w = p.tree.nodes[nd.first_child + v].weight
            best = v + 1
    return best


cdef void log_free(GrownLog* log) noexcept nogil:
    free(log.node); free(log.rec); free(log.value)
    log.node = NULL; log.rec = NULL; log.value = NULL
    log.count = log.cap = 0


cdef int log_reserve(GrownLog* log, Py_ssize_t extra, Py_ssize_t k) noexcept nogil:
    """Room for extra more entries; -1 out of memory (log.failed set)."""
    cdef Py_ssize_t cap = log.cap
    cdef void* a
    if log.count + extra <= cap:
        return 0
    cap = max(2 * cap, log.count + extra, 256)
    a = realloc(log.node, cap * sizeof(int32_t))
    if a != NULL:
        log.node = <int32_t*> a
        a = realloc(log.rec, cap * sizeof(Node))
        if a != NULL:
            log.rec = <Node*> a
            a = realloc(log.value, cap * max(k, 1) * sizeof(double))
            if a != NULL:
                log.value = <double*> a
                log.cap = cap
                return 0
    log.failed = True
    return -1


cdef inline void keep_grown(Pruner* p, int node) noexcept nogil:
    """Before pruning first changes the node (its errors aside): its grown
    fields and class weights into this thread's log."""
    cdef GrownLog* log = p.log
    cdef Py_ssize_t k = p.tree.n_classes
    if log == NULL or log.saved[node] or log_reserve(log, 1, k) < 0:
        return
    log.saved[node] = 1
    log.node[log.count] = node
    log.rec[log.count] = p.tree.nodes[node]
    get_class_weights(p.tree, node, &log.value[log.count * k])
    log.count += 1


cdef int log_append(GrownLog* to, const GrownLog* src, Py_ssize_t k,
                    Interrupt* intr) noexcept nogil:
    """A worker's log after the main one's (their nodes are distinct); -1 out
    of memory or interrupted (its class weights' copy looks)."""
    if src.count == 0:
        return 0
    if log_reserve(to, src.count, k) < 0:
        return -1
    memcpy(&to.node[to.count], src.node, src.count * sizeof(int32_t))
    memcpy(&to.rec[to.count], src.rec, src.count * sizeof(Node))
    if copy_polled(&to.value[to.count * k], src.value, src.count * k * sizeof(double), intr):
        return -1
    to.count += src.count
    return 0


cdef bint decide(Pruner* p, int node, double leaf, double tree_est,
                 double branch_est) noexcept nogil:
    """§8.2 step 7: make the node a leaf, or keep its subtree; True when its
    largest branch is to be raised into it instead (the caller re-estimates it)."""
    cdef Node* nd = &p.tree.nodes[node]
    if leaf <= branch_est + 0.1 and leaf <= tree_est + 0.1:
        keep_grown(p, node)
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
    keep_grown(p, node)
    p.tree.nodes[node] = p.tree.nodes[child]
    copy_class_weights(p.tree, node, p.tree, child)
    if p.cut != NULL:
        p.cut[node] = p.cut[child]


cdef void free_arena(Pruner* p) noexcept nogil:
    c45_big_free(p.arena)
    p.arena = NULL
    c45_big_free(p.index)
    p.index = NULL


cdef int big_room(void** block, Py_ssize_t top, Py_ssize_t extra, Py_ssize_t* cap,
                  size_t elem) noexcept nogil:
    """Room for extra more items above top in a big block (c45_big_resize),
    grown by half again when short."""
    cdef Py_ssize_t n
    cdef void* grown
    if top + extra > cap[0]:
        n = cap[0] + cap[0] // 2 + extra + 1024
        grown = c45_big_resize(block[0], n * elem)
        if grown == NULL:
            return -1
        block[0] = grown
        cap[0] = n
    return 0


cdef int reserve(Pruner* p, Py_ssize_t extra, Py_ssize_t extra_offsets) noexcept nogil:
    cdef Py_ssize_t cap
    if big_room(<void**> &p.arena, p.arena_top, extra, &p.arena_cap, sizeof(Listed)) < 0:
        return -1
    if p.off_top + extra_offsets > p.off_cap:
        cap = 2 * p.off_cap + extra_offsets + 64
        if resize(<void**> &p.offsets, p.off_cap, cap, sizeof(Py_ssize_t), False) < 0:
            return -1
        p.off_cap = cap
    return 0


cdef int index_reserve(Pruner* p, Py_ssize_t extra) noexcept nogil:
    return big_room(<void**> &p.index, p.index_top, extra, &p.index_cap, sizeof(int32_t))


cdef extern from "_prefetch.h":
    void C45_PREFETCH(const void* addr) noexcept nogil

# Cases ahead whose test value is fetched early: the lookups go to rows spread over
# the whole table, a cache miss each, and the prefetches overlap them. A lookup
# takes a few cycles: 16 ahead left most of a miss's latency to wait for
# (perf annotate: outcomes_of stalled on the rank read), 64 cover it.
cdef Py_ssize_t PREFETCH = 64

cdef enum:
    LOOK = 1 << 16          # a list pass looks for Ctrl-C every LOOK entries


cdef inline bint stop_at(const Pruner* p, Py_ssize_t i) noexcept nogil:
    """A pass over a list looks for Ctrl-C here (every LOOK entries): True to
    stop, its output then unfinished; the estimate unwinds (estimate_listed
    looks on entry) and prune_run reports the stop, the pruned copy thrown away."""
    return (i & (LOOK - 1)) == LOOK - 1 and interrupted(p.w.data.intr)


cdef struct Lookup:
    # What a case's outcome at one node is read from (listed_outcome).
    const Node* nd
    const uint32_t* ranks    # continuous (float64): ranks[case], else NULL
    const double* values     # continuous (float32): the values by row (listed_value,
    Py_ssize_t stride        # stride bytes a row, float32 numbers where single),
    bint single              # else NULL
    const Dataset* source    # continuous (float64 without its ranks, build_tree's
                             # by_source fit): X's values (source_value; the column at
                             # values, stride bytes a row), else NULL
    uint32_t n_known
    uint32_t cut
    const int32_t* codes     # discrete: codes[case]
    const int32_t* maps


cdef inline int listed_outcome(const Lookup* lk, int32_t case) noexcept nogil:
    """outcome() for float64 pruning, inlined: the branch of a case, 0 if unknown."""
    cdef uint32_t r
    cdef int32_t v
    cdef double x
    if lk.source != NULL:
        return source_outcome(lk, case)
    if lk.values != NULL:
        x = listed_value(lk.values, lk.stride, lk.single, case)
        if isnan(x):
            return 0
        return 1 if x <= lk.nd.threshold else 2
    if lk.ranks != NULL:
        r = lk.ranks[case]
        if r >= lk.n_known:
            return 0
        return 1 if r < lk.cut else 2
    v = lk.codes[case]
    if lk.nd.kind == SUBSET and v > 0:
        return lk.maps[lk.nd.map_offset + v]
    return v


cdef inline int source_outcome(const Lookup* lk, int32_t case) noexcept nogil:
    """float64 without its ranks: the side the case's rank gives (below the cut
    rank, the count of known values at most the threshold: the value at most
    the threshold), from its value as the encoding read it."""
    cdef double x = source_value(lk.source, lk.nd.feature, case)
    if isnan(x):
        return 0
    return 1 if x <= lk.nd.threshold else 2


cdef void outcomes_of(const Lookup* lk, const Listed* e, Py_ssize_t lo, Py_ssize_t hi,
                      int32_t* out, Py_ssize_t* count) noexcept nogil:
    """out[i] = the outcome of e[i] for i in [lo, hi); count[v + 1] += 1 for each.
    The lookups go to rows spread over a table, so each is fetched PREFETCH
    cases early."""
    cdef Py_ssize_t i, n_unknown = 0, n_low = 0, n_high = 0
    cdef int v
    cdef uint32_t r
    cdef const uint32_t* ranks = lk.ranks
    if lk.source != NULL or (lk.values == NULL and ranks != NULL):
        # float64's continuous test, the commonest: listed_outcome's rule, by
        # X's value (source_outcome) or by rank, with the outcomes counted in
        # registers (consecutive cases often share one, and a count in memory
        # would chain their additions).
        for i in range(lo, hi):
            if lk.source != NULL:
                if i + PREFETCH < hi:
                    C45_PREFETCH(<const char*> lk.values + e[i + PREFETCH].case * lk.stride)
                v = source_outcome(lk, e[i].case)
            else:
                if i + PREFETCH < hi:
                    C45_PREFETCH(&ranks[e[i + PREFETCH].case])
                r = ranks[e[i].case]
                v = 0 if r >= lk.n_known else (1 if r < lk.cut else 2)
            out[i] = v
            n_unknown += v == 0
            n_low += v == 1
            n_high += v == 2
        count[1] += n_unknown
        count[2] += n_low
        count[3] += n_high
        return
    for i in range(lo, hi):
        if i + PREFETCH < hi:
            if lk.values != NULL:
                C45_PREFETCH(<const char*> lk.values + e[i + PREFETCH].case * lk.stride)
            elif lk.ranks != NULL:
                C45_PREFETCH(&lk.ranks[e[i + PREFETCH].case])
            else:
                C45_PREFETCH(&lk.codes[e[i + PREFETCH].case])
        v = listed_outcome(lk, e[i].case)
        out[i] = v
        count[v + 1] += 1


cdef void scatter(const int32_t* outcome, Py_ssize_t lo, Py_ssize_t hi,
                  int32_t* g, Py_ssize_t* cursor) noexcept nogil:
    """The positions lo .. hi - 1 to g by outcome, each at (and advancing) its
    outcome's cursor."""
    cdef Py_ssize_t i
    cdef int32_t v
    for i in range(lo, hi):
        v = outcome[i]
        g[cursor[v]] = <int32_t> i
        cursor[v] += 1


cdef bint outcomes_looking(const Lookup* lk, const Listed* e, Py_ssize_t lo, Py_ssize_t hi,
                           int32_t* out, Py_ssize_t* count, Interrupt* intr) noexcept nogil:
    """outcomes_of in steps of LOOK cases, looking for Ctrl-C between them: True
    when interrupted (out then unfinished)."""
    while lo < hi:
        if interrupted(intr):
            return True
        outcomes_of(lk, e, lo, min(hi, lo + LOOK), out, count)
        lo += LOOK
    return False


cdef bint scatter_looking(const int32_t* outcome, Py_ssize_t lo, Py_ssize_t hi,
                          int32_t* g, Py_ssize_t* cursor, Interrupt* intr) noexcept nogil:
    """scatter in steps of LOOK positions, looking for Ctrl-C between them: True
    when interrupted (g then unfinished)."""
    while lo < hi:
        if interrupted(intr):
            return True
        scatter(outcome, lo, min(hi, lo + LOOK), g, cursor)
        lo += LOOK
    return False


cdef void set_lookup(const Pruner* p, const Node* nd, int node, Lookup* lk) noexcept nogil:
    """Where the outcomes of the node's test are read from (listed_outcome)."""
    cdef const Dataset* d = p.w.data
    cdef Py_ssize_t col = d.col[nd.feature]
    lk.nd = nd
    lk.ranks = NULL
    lk.values = NULL
    lk.source = NULL
    lk.stride = 0
    lk.single = False
    lk.n_known = 0
    lk.cut = 0
    lk.codes = NULL
    lk.maps = p.tree.maps
    if nd.kind == CONTINUOUS and d.f32:
        # float32 reads the values by row: cont's, or where it grew on the lists
        # X's own (list_values)
        lk.values = list_values(d, nd.feature)
        lk.stride = list_stride(d, nd.feature)
        lk.single = list_single(d)
    elif nd.kind == CONTINUOUS and d.rank == NULL:
        # float64 whose ranks were let go before pruning (c45/_tree.pyx:
        # build_tree): X's values by row
        lk.source = d
        lk.values = <const double*> d.src_addr[nd.feature]
        lk.stride = d.src_stride[nd.feature]
    elif nd.kind == CONTINUOUS:
        lk.cut = p.cut[node]
        lk.n_known = <uint32_t> d.n_known[nd.feature]
        # The feature's column: read almost in sequence at the top of the tree,
        # below at random, each read fetched PREFETCH cases early.
        lk.ranks = d.rank + col * d.n_cases
    else:
        lk.codes = d.codes + col * d.n_cases


cdef int outcome_room(Pruner* p, Py_ssize_t m) noexcept nogil:
    """Room for m outcomes in p.outcome: -1 out of memory. A big block: a task
    worker's heap would keep its pages resident beside the trees (malloc_trim
    does not trim a thread's heap)."""
    return big_room(<void**> &p.outcome, 0, m, &p.outcome_cap, sizeof(int32_t))


cdef Py_ssize_t group_listed(Pruner* p, const Node* nd, int node, Py_ssize_t at,
                             Py_ssize_t m) noexcept nogil:
    """The node's cases grouped by outcome (stable), as their positions in the
    node's list arena[at .. at + m), at the top of the index stack: unknown
    first, then branch 1, 2, ...; pushes the node's offsets (offsets[v] ends
    outcome v, which starts at offsets[v - 1], 0 for v = 0). Returns the
    positions' place in the index stack, -1 out of memory or interrupted (p.failed
    tells). A list long enough for a region of its own (team_for) is grouped by
    the threads, in chunks."""
    cdef Interrupt* intr = p.w.data.intr
    cdef Py_ssize_t nb = nd.n_children, offs, v, t, grouped
    cdef Py_ssize_t n_chunks = team_for(p.n_threads, m)
    cdef Py_ssize_t pos, c
    cdef Py_ssize_t* counts
    cdef Lookup lk
    cdef Listed* e
    set_lookup(p, nd, node, &lk)
    if reserve(p, 0, nb + 2) < 0 or index_reserve(p, m) < 0 or outcome_room(p, m) < 0:
        p.failed = True
        return -1
    counts = NULL
    if n_chunks > 1:
        counts = <Py_ssize_t*> calloc(n_chunks * (nb + 2), sizeof(Py_ssize_t))
        if counts == NULL:
            p.failed = True
            return -1
    e = p.arena + at
    offs = p.off_top
    p.off_top += nb + 2
    grouped = p.index_top
    p.index_top += m
    for v in range(nb + 2):
        p.offsets[offs + v] = 0
    if n_chunks == 1:
        if outcomes_looking(&lk, e, 0, m, p.outcome, p.offsets + offs, intr):
            p.off_top, p.index_top = offs, grouped
            return -1
        for v in range(nb + 1):               # offsets[v]: where outcome v starts
            p.offsets[offs + v + 1] += p.offsets[offs + v]
        if scatter_looking(p.outcome, 0, m, p.index + grouped, p.offsets + offs, intr):
            p.off_top, p.index_top = offs, grouped
            return -1
        return grouped
    # In chunks: chunk t's cases of outcome v go after the earlier chunks' ones.
    for t in prange(n_chunks, schedule="static", num_threads=n_chunks):
        outcomes_looking(&lk, e, m * t // n_chunks, m * (t + 1) // n_chunks, p.outcome,
                         counts + t * (nb + 2), intr)
    if interrupted(intr):
        free(counts)
        p.off_top, p.index_top = offs, grouped
        return -1
    pos = 0
    for v in range(nb + 1):
        for t in range(n_chunks):
            c = counts[t * (nb + 2) + v + 1]
            counts[t * (nb + 2) + v] = pos
            pos += c
        p.offsets[offs + v] = pos
    p.offsets[offs + nb + 1] = m
    for t in prange(n_chunks, schedule="static", num_threads=n_chunks):
        scatter_looking(p.outcome, m * t // n_chunks, m * (t + 1) // n_chunks,
                        p.index + grouped, counts + t * (nb + 2), intr)
    free(counts)
    if interrupted(intr):
        p.off_top, p.index_top = offs, grouped
        return -1
    return grouped


cdef Py_ssize_t group_in_place(Pruner* p, const Node* nd, int node, Py_ssize_t at,
                               Py_ssize_t m) noexcept nogil:
    """group_listed then permute_grouped, for a list whose order does not matter
    and in which no case has an unknown outcome (Pruner.any_order): the list
    arena[at .. at + m) grouped by branch in place, its offsets pushed as
    group_listed pushes them. Returns where they start, -1 out of memory or
    interrupted (p.failed tells; the list is then unfinished). Two branches on
    one thread (most nodes) take one pass over the outcomes, without positions:
    each case moved once, in list order, the larger side within the list."""
    cdef Interrupt* intr = p.w.data.intr
    cdef Py_ssize_t grouped, offs, low, high, i, j, k
    cdef const int32_t* out
    cdef Lookup lk
    cdef Listed* e
    cdef Listed* tmp
    cdef Listed x
    cdef int is_low
    if nd.n_children != 2 or team_for(p.n_threads, m) > 1:
        grouped = group_listed(p, nd, node, at, m)
        if grouped < 0:
            return -1
        offs = p.off_top - (nd.n_children + 2)
        if permute_grouped(p, nd, at, m, grouped, offs) < 0:
            return -1
        return offs
    set_lookup(p, nd, node, &lk)
    if reserve(p, 0, 4) < 0 or outcome_room(p, m) < 0:
        p.failed = True
        return -1
    offs = p.off_top
    p.off_top += 4
    for i in range(4):
        p.offsets[offs + i] = 0
    # offsets[1 + v]: the count of outcome v (none unknown)
    if outcomes_looking(&lk, p.arena + at, 0, m, p.outcome, p.offsets + offs, intr):
        p.off_top = offs
        return -1
    low = p.offsets[offs + 2]
    high = p.offsets[offs + 3]
    if reserve(p, min(low, high) + 1, 0) < 0:
        p.off_top = offs
        p.failed = True
        return -1
    e = p.arena + at
    tmp = p.arena + p.arena_top
    out = p.outcome
    # Each case is written to both places and kept by the one its side advances
    # (no branch to mispredict): the list's place is one already read, the
    # scratch's the next free one (one more than the smaller side).
    if low >= high:
        j = 0
        k = 0
        for i in range(m):
            if stop_at(p, i):
                p.off_top = offs
                return -1
            x = e[i]
            is_low = out[i] == 1
            e[j] = x
            tmp[k] = x
            j += is_low
            k += 1 - is_low
        memcpy(e + low, tmp, high * sizeof(Listed))
    else:
        j = m
        k = low
        for i in range(m - 1, -1, -1):
            if stop_at(p, i):
                p.off_top = offs
                return -1
            x = e[i]
            is_low = out[i] == 1
            e[j - 1] = x
            tmp[k] = x
            j -= 1 - is_low
            k -= is_low
        memcpy(e, tmp + 1, low * sizeof(Listed))
    p.offsets[offs + 1] = low            # offsets[v]: where outcome v ends
    p.offsets[offs + 2] = m
    p.offsets[offs + 3] = m
    return offs


cdef inline double unknown_w_of(const Pruner* p, Py_ssize_t at, Py_ssize_t grouped,
                                Py_ssize_t offs) noexcept nogil:
    """Weight of the cases of unknown outcome, summed in row order."""
    cdef double u = 0.0
    cdef Py_ssize_t i
    for i in range(p.offsets[offs]):
        if stop_at(p, i):
            break
        u += p.arena[at + p.index[grouped + i]].weight
    return u


cdef inline double branch_share(const Pruner* p, Py_ssize_t at, Py_ssize_t grouped,
                                Py_ssize_t offs, Py_ssize_t v, double known_w) noexcept nogil:
    """Branch v's share of the known weight (its weight summed in row order)."""
    cdef double wv = 0.0
    cdef Py_ssize_t i
    for i in range(p.offsets[offs + v - 1], p.offsets[offs + v]):
        if stop_at(p, i):
            break
        wv += p.arena[at + p.index[grouped + i]].weight
    return wv / known_w


cdef void merge_range(const Listed* e, const int32_t* g, Py_ssize_t i, Py_ssize_t i_end,
                      Py_ssize_t j, Py_ssize_t j_end, double f, Listed* out,
                      Interrupt* intr) noexcept nogil:
    """Merge the unknown cases at positions g[i .. i_end) of e (weights scaled by
    f) with the known ones at g[j .. j_end) into out, in row order (the order of
    their positions: e is in row order). Looks for Ctrl-C every LOOK cases
    (interrupted, out is left unfinished)."""
    cdef Py_ssize_t made = 0
    while i < i_end or j < j_end:
        made += 1
        if (made & (LOOK - 1)) == 0 and interrupted(intr):
            return
        if j >= j_end or (i < i_end and g[i] < g[j]):
            out[0] = e[g[i]]
            out[0].weight = e[g[i]].weight * f
            i += 1
        else:
            out[0] = e[g[j]]
            j += 1
        out += 1


cdef Py_ssize_t branch_list(Pruner* p, Py_ssize_t at, Py_ssize_t grouped, Py_ssize_t offs,
                            Py_ssize_t v, double f) noexcept nogil:
    """Branch v's case list at the top of the arena: its cases merged in row order
    with the unknown ones, scaled by its share f. Returns its length, -1 out of
    memory or interrupted. A list long enough for a region (team_for) is merged by the threads:
    chunk t takes the t-th part of the known cases and the unknown ones that fall
    between them in row order, and writes them where the whole merge would."""
    cdef Py_ssize_t a = p.offsets[offs + v - 1], b = p.offsets[offs + v]
    cdef Py_ssize_t n_unknown = p.offsets[offs], m = n_unknown + b - a, t, lo, hi, mid
    cdef Py_ssize_t n_chunks = team_for(p.n_threads, m)
    cdef Py_ssize_t bounds[2 * 64 + 2]
    cdef const Listed* e
    cdef const int32_t* g = p.index + grouped
    cdef Listed* out
    if reserve(p, m, 0) < 0:
        p.failed = True
        return -1
    e = p.arena + at
    out = p.arena + p.arena_top
    if n_chunks == 1:
        merge_range(e, g, 0, n_unknown, a, b, f, out, p.w.data.intr)
        if interrupted(p.w.data.intr):
            return -1                   # (out unfinished: not on the arena)
        p.arena_top += m
        return m
    n_chunks = min(n_chunks, 64)
    # bounds[2t], bounds[2t + 1]: where chunk t starts in the unknown and the
    # known cases (the unknown ones before its first known case in row order).
    for t in range(n_chunks + 1):
        bounds[2 * t + 1] = a + (b - a) * t // n_chunks
        if t == 0:
            bounds[0] = 0
        elif t == n_chunks:
            bounds[2 * t] = n_unknown
        else:
            lo = 0
            hi = n_unknown
            while lo < hi:
                mid = (lo + hi) // 2
                if g[mid] < g[bounds[2 * t + 1]]:
                    lo = mid + 1
                else:
                    hi = mid
            bounds[2 * t] = lo
    for t in prange(n_chunks, schedule="static", num_threads=n_chunks):
        merge_range(e, g, bounds[2 * t], bounds[2 * t + 2], bounds[2 * t + 1],
                    bounds[2 * t + 3], f,
                    out + bounds[2 * t] + bounds[2 * t + 1] - a, p.w.data.intr)
    if interrupted(p.w.data.intr):
        return -1
    p.arena_top += m
    return m


cdef double leaf_of_branch(Pruner* p, int node, Py_ssize_t at, Py_ssize_t grouped,
                           Py_ssize_t offs, Py_ssize_t v, double f, bint update) noexcept nogil:
    """leaf_estimate for the leaf of branch v, its sums taken over branch_list's
    merge without writing the list (the same additions in the same order)."""
    cdef Py_ssize_t a = p.offsets[offs + v - 1], b = p.offsets[offs + v]
    cdef Py_ssize_t n_unknown = p.offsets[offs], i = 0, j = a, c
    cdef Py_ssize_t k = p.w.data.n_classes
    cdef const Listed* e = p.arena + at
    cdef const int32_t* g = p.index + grouped
    cdef double total = 0.0, wt
    cdef int32_t cls
    for c in range(k):
        p.dist[c] = 0.0
    while i < n_unknown or j < b:
        if stop_at(p, i + j):
            break
        if j >= b or (i < n_unknown and g[i] < g[j]):
            wt = e[g[i]].weight * f
            cls = e[g[i]].cls
            i += 1
        else:
            wt = e[g[j]].weight
            cls = e[g[j]].cls
            j += 1
        total += wt
        p.dist[cls] += wt
    return leaf_estimate(p, node, p.dist, total, update)


cdef inline bint same_double(double a, double b) noexcept nogil:
    return memcmp(&a, &b, sizeof(double)) == 0


cdef double leaf_estimate(Pruner* p, int node, const double* dist, double total,
                          bint update) noexcept nogil:
    """§8.2: the node's estimate as a leaf (errors of its majority class, ties to
    its stored class, plus the pessimistic extra errors), from its total and
    class weights dist; with update, the node takes them (and, a leaf, its
    errors). Both layouts: float32 rounds every result as Release 8 does."""
    cdef Node* nd = &p.tree.nodes[node]
    cdef bint f32 = p.w.data.f32
    cdef Py_ssize_t k = p.w.data.n_classes, c
    cdef int best = nd.node_class
    cdef double err, leaf
    for c in range(k):
        if dist[c] > dist[best]:
            best = <int> c
    err = rnd(f32, total - dist[best])
    leaf = rnd(f32, err + extra_errors(f32, total, err, p.cf, p.coeff))
    if update:
        if p.seen != NULL:
            p.seen[node] = 1
        if p.log != NULL and not p.log.saved[node] and not (
                same_double(nd.weight, total) and nd.node_class == best
                and same_class_weights(p.tree, node, dist)):
            keep_grown(p, node)
        nd.weight = total
        nd.node_class = best
        set_class_weights(p.tree, node, dist)
        if nd.kind == LEAF:
            nd.errors = leaf
    return leaf


cdef int permute_grouped(Pruner* p, const Node* nd, Py_ssize_t at, Py_ssize_t m,
                         Py_ssize_t grouped, Py_ssize_t offs) noexcept nogil:
    """The list arena[at .. at + m), no case of unknown outcome, put in the
    order of its grouping by branch (group_listed's positions at
    index[grouped ..], offsets from offs; then popped): each branch's cases in
    their order in the list, so that a branch's list is a part of its parent's,
    not a copy (the lists along a path of the tree would stack). The larger of
    the first and last branches is moved where it lies (forward or backward, a
    case never overtaking one not yet moved), the others through the room
    above the arena's top: at most half the list for two branches. -1 out of
    memory or interrupted (p.failed tells; the list then holds its cases in
    another order)."""
    cdef Py_ssize_t i, nb = nd.n_children
    cdef Py_ssize_t first = p.offsets[offs + 1], last = m - p.offsets[offs + nb - 1]
    cdef const int32_t* g
    cdef Listed* e
    cdef Listed* tmp
    if reserve(p, m - (first if first >= last else last), 0) < 0:
        p.failed = True
        return -1
    e = p.arena + at
    tmp = p.arena + p.arena_top
    g = p.index + grouped
    if first >= last:
        for i in range(first, m):
            if stop_at(p, i):
                return -1
            tmp[i - first] = e[g[i]]
        for i in range(first):                 # g[i] >= i
            if stop_at(p, i):
                return -1
            e[i] = e[g[i]]
        memcpy(e + first, tmp, (m - first) * sizeof(Listed))
    else:
        for i in range(m - last):
            if stop_at(p, i):
                return -1
            tmp[i] = e[g[i]]
        for i in range(m - 1, m - last - 1, -1):   # g[i] <= i
            if stop_at(p, i):
                return -1
            e[i] = e[g[i]]
        memcpy(e, tmp, (m - last) * sizeof(Listed))
    p.index_top = grouped              # the positions are read no more
    return 0


cdef int restore_rows(Pruner* p, Py_ssize_t at, Py_ssize_t a, Py_ssize_t m) noexcept nogil:
    """Row order back in arena[at .. at + m) from its two branches' parts [0, a)
    and [a, m), each in row order: merged by case (a list in row order is in
    increasing case order), the smaller part through the room above the
    arena's top. -1 out of memory."""
    cdef Py_ssize_t i, j, o
    cdef Listed* e
    cdef Listed* tmp
    if reserve(p, a if a <= m - a else m - a, 0) < 0:
        p.failed = True
        return -1
    e = p.arena + at
    tmp = p.arena + p.arena_top
    if a <= m - a:
        # forward: the left part from tmp; a write never passes the right part's read
        memcpy(tmp, e, a * sizeof(Listed))
        i, j, o = 0, a, 0
        while i < a:
            if stop_at(p, o):
                break                   # (every entry still one of the list's cases)
            if j >= m or tmp[i].case < e[j].case:
                e[o] = tmp[i]
                i += 1
            else:
                e[o] = e[j]
                j += 1
            o += 1
    else:
        # backward: the right part from tmp; a write never passes the left part's read
        memcpy(tmp, e + a, (m - a) * sizeof(Listed))
        i, j, o = a - 1, m - a - 1, m - 1
        while j >= 0:
            if stop_at(p, o):
                break
            if i < 0 or tmp[j].case > e[i].case:
                e[o] = tmp[j]
                j -= 1
            else:
                e[o] = e[i]
                i -= 1
            o -= 1
    return 0


cdef inline double range_weight(const Pruner* p, const Listed* e, Py_ssize_t lo,
                                Py_ssize_t hi) noexcept nogil:
    """The weight of e[lo .. hi), summed in order."""
    cdef double wv = 0.0
    cdef Py_ssize_t i
    for i in range(lo, hi):
        if stop_at(p, i):
            break
        wv += e[i].weight
    return wv


cdef double leaf_of_range(Pruner* p, int node, bint own, double own_w,
                          Py_ssize_t at, Py_ssize_t m, bint update) noexcept nogil:
    """leaf_estimate for the cases arena[at .. at + m) (and, with own, the class
    weights the node holds and their total own_w), summed in the list's order."""
    cdef Py_ssize_t k = p.w.data.n_classes, c, i
    cdef const Listed* e = p.arena + at
    cdef double total = own_w
    if own:
        get_class_weights(p.tree, node, p.dist)
    else:
        memset(p.dist, 0, k * sizeof(double))
    for i in range(m):
        if stop_at(p, i):
            break
        total += e[i].weight
        p.dist[e[i].cls] += e[i].weight
    return leaf_estimate(p, node, p.dist, total, update)


cdef double estimate_listed(Pruner* p, int node, Py_ssize_t at, Py_ssize_t m,
                            bint update, double outer, double stop) noexcept nogil:
    """estimate() on the case list arena[at .. at + m) in row order (float64, and
    float32 whose every sum is exact in any order: Dataset.listed). The list is
    given back in row order, or with any_order in any order.

    A node none of whose cases has an unknown outcome groups its list in place
    (permute_grouped) when its branches' order can be undone cheaply (two
    branches, restore_rows) or need not be (any_order); a branch's list is then
    its part of the node's. Otherwise each branch gets a list of its own at the
    top of the arena (the unknown cases go down every branch, weighted).

    Subtree raising only compares the estimate of the largest branch with one
    threshold (see the end). Every term of an estimate is >= 0, so a running total
    only grows: once outer (the total of what the enclosing calls have summed so
    far) plus this call's total passes stop, the estimate is known to pass it, and
    INFINITY is returned at once (update false only; stop is INFINITY otherwise)."""
    cdef Py_ssize_t k = p.w.data.n_classes, c, i, v, grouped = -1, offs, pos, a, b
    cdef bint f32 = p.w.data.f32
    cdef Node* nd = &p.tree.nodes[node]
    cdef Listed* e
    cdef double* dist = p.dist
    cdef double total = 0.0, known_w, f = 0.0, max_f = 0.0
    cdef double leaf, tree_est = 0.0
    cdef int max_branch = -1, sub
    cdef bint in_place
    if interrupted(p.w.data.intr) or out_of_stack(p):
        return INFINITY     # unwinding: the pruned copy is thrown away
    for c in range(k):
        dist[c] = 0.0
    e = p.arena + at
    for i in range(m):
        if stop_at(p, i):
            return INFINITY
        total += e[i].weight
        dist[e[i].cls] += e[i].weight
    leaf = leaf_estimate(p, node, dist, total, update)
    if nd.kind == LEAF:
        return leaf

    if p.any_order:
        grouped = -1
        offs = group_in_place(p, nd, node, at, m)
        if offs < 0:
            return leaf
        in_place = True
    else:
        grouped = group_listed(p, nd, node, at, m)
        if grouped < 0:
            return leaf
        offs = p.off_top - (nd.n_children + 2)
        in_place = p.offsets[offs] == 0 and nd.n_children == 2
        if in_place and permute_grouped(p, nd, at, m, grouped, offs) < 0:
            return leaf
    if in_place:
        known_w = total - 0.0             # unknown_w_of's sum of no case
    else:
        known_w = total - unknown_w_of(p, at, grouped, offs)
    for v in range(1, nd.n_children + 1):
        a = p.offsets[offs + v - 1]
        b = p.offsets[offs + v]
        if a == b:
            continue                      # no known case: no list
        if in_place:
            f = rnd(f32, range_weight(p, p.arena + at, a, b) / known_w)
        else:
            f = rnd(f32, branch_share(p, at, grouped, offs, v, known_w))
        if f >= max_f:
            max_f = f
            max_branch = <int> v
        sub = nd.first_child + <int> v - 1
        i = task_of(p, sub)               # a subtree the threads estimated
        if i >= 0:
            tree_est = rnd(f32, tree_est + p.tasks[i].result)
        elif p.tree.nodes[sub].kind == LEAF:
            # A leaf needs only its sums: taken in the order of its list, unmade.
            if in_place:
                tree_est = rnd(f32, tree_est + leaf_of_range(p, sub, False, 0.0, at + a,
                                                             b - a, update))
            else:
                tree_est = rnd(f32, tree_est + leaf_of_branch(p, sub, at, grouped, offs, v,
                                                              f, update))
        elif in_place:
            tree_est = rnd(f32, tree_est + estimate_listed(p, sub, at + a, b - a, update,
                                                           outer + tree_est, stop))
        else:
            pos = branch_list(p, at, grouped, offs, v, f)
            if pos < 0:
                break
            tree_est = rnd(f32, tree_est + estimate_listed(p, sub, p.arena_top - pos, pos,
                                                           update, outer + tree_est, stop))
            p.arena_top -= pos
        nd = &p.tree.nodes[node]
        if outer + tree_est > stop:
            tree_est = INFINITY
            break
    if not in_place:
        p.index_top = grouped
    if update and p.joinable and in_place and not p.failed:
        # The grouping stays for raising (raised_estimate) until the node is decided.
        leaf = conclude(p, node, leaf, tree_est, max_branch, at, m, update, offs)
        p.off_top = offs
        return leaf
    if in_place and not p.any_order:
        restore_rows(p, at, p.offsets[offs + 1], m)   # two branches
    p.off_top = offs
    return conclude(p, node, leaf, tree_est, max_branch, at, m, update, -1)


# Subtree raising on joinable lists. Raising re-estimates the node's largest
# branch (already pruned) for all the node's cases. Its own cases reach each of
# its nodes as in the last estimate with update there, which left in the node
# their class weights (value), total (weight) and estimate (errors), and marked
# it seen: the cases' sets only grow from one such estimate to the next (a
# raised branch is re-estimated for a superset of its cases), so a node not seen
# has none of them. That estimate's errors is what an estimate without update
# gives for the same cases: a leaf's, its leaf estimate; a kept node's, the sum
# of its children's errors in branch order; a raised node's, its raised
# child's. With whole weights (a total at most 2**53) every sum of weights is
# exact in any order, and with no unknown value no weight is scaled: a node's
# class weights for its own cases and others are its stored ones plus the
# others'. So estimate_joined walks only the other branches' cases, and where
# none of them goes a node's errors stand for its subtree's estimate: the same
# estimates as estimate_listed's, with the same early exits (the partial sums
# are the same numbers, up to the stored errors' grouping of a sum that
# estimate_listed may stop inside: conclude's margin covers it).

cdef double raised_estimate(Pruner* p, int child, Py_ssize_t at, Py_ssize_t offs,
                            int n_branches, int branch, double stop) noexcept nogil:
    """The estimate (no update) of the branch `branch` (node child) for all the
    cases of its parent's list arena[at ..], grouped by branch in place with
    offsets from offs (none unknown): its own cases and the others'. Those are
    the list but the branch's part: a part of the list when the branch is first
    or last (estimated where they are, in any order), else copied."""
    cdef Py_ssize_t v, n_other = 0, a, b, first, last
    cdef Listed* out
    cdef double r
    first = p.offsets[offs + branch - 1]
    last = p.offsets[offs + branch]
    n_other = p.offsets[offs + n_branches] - (last - first)
    if n_other == 0:
        return p.tree.nodes[child].errors
    if first == 0:
        return estimate_joined(p, child, at + last, n_other, 0.0, 0.0, stop)
    if last == p.offsets[offs + n_branches]:
        return estimate_joined(p, child, at, n_other, 0.0, 0.0, stop)
    if reserve(p, n_other, 0) < 0:
        p.failed = True
        return INFINITY
    out = p.arena + p.arena_top
    if (copy_polled(out, p.arena + at, first * sizeof(Listed), p.w.data.intr)
            or copy_polled(out + first, p.arena + at + last,
                           (p.offsets[offs + n_branches] - last) * sizeof(Listed),
                           p.w.data.intr)):
        return INFINITY
    p.arena_top += n_other
    r = estimate_joined(p, child, p.arena_top - n_other, n_other, 0.0, 0.0, stop)
    p.arena_top -= n_other
    return r


cdef double floor_margin_of(const Pruner* p, Py_ssize_t n) noexcept nogil:
    """How far below a sum of floors the estimate they bound can be computed,
    relative to stop (past_stop). A leaf's estimate E + U(N, E) only grows as
    cases join it (N up, E up by at most as much: the upper confidence limit
    rises with both), but is computed with roundings: a few units of the last
    place, and for E = 0 the cancellation of 1 - exp(log(CF) / N), a relative
    2.3e-16 N / |log CF| at most, N up to the training set's weight W. The sums
    over the tree's nodes each round by a unit at most per node (count of
    them), taken in another grouping: together at most a relative 2 (count +
    32) u + 2 (W + 2) 2.3e-16 / |log CF| (u: the precision's unit roundoff)."""
    cdef double u = 5.97e-08 if p.w.data.f32 else 1.12e-16
    cdef double big_w = 0.0, m
    cdef Py_ssize_t i
    for i in range(n):
        if stop_at(p, i):
            break                   # (interrupted: the pruning is thrown away)
        big_w += p.arena[i].weight
    m = 2.0 * (<double> p.tree.count + 32.0) * u
    if p.cf < 1.0:
        m += 2.0 * (big_w + 2.0) * 2.3e-16 / fabs(log(p.cf))
    return m


cdef inline double floor_of(const Pruner* p, int node) noexcept nogil:
    """A lower bound of the node's estimate for its own cases and any others
    (estimate_joined): its stored errors where it has own cases, else 0."""
    return p.tree.nodes[node].errors if p.seen[node] else 0.0


cdef inline bint past_stop(const Pruner* p, double bound, double stop) noexcept nogil:
    """Whether an estimate known to be at least `bound` (a sum of partial sums and
    floor_of's, taken in another grouping than the estimate's) passes stop: by
    more than floor_margin says their roundings can make up."""
    return bound > stop + p.floor_margin * (fabs(stop) + 1.0)


cdef double estimate_joined(Pruner* p, int node, Py_ssize_t at, Py_ssize_t m,
                            double outer, double later, double stop) noexcept nogil:
    """estimate_listed(node, update false) for the node's own cases (see above)
    and the m > 0 others of arena[at .. at + m) (left in any order), none of
    unknown outcome below. outer: the estimates the caller added before this
    one's; later: a lower bound of those it adds after (their floor_of's)."""
    cdef Py_ssize_t k = p.w.data.n_classes, i, v, grouped, offs, a, b
    cdef bint f32 = p.w.data.f32
    cdef Node* nd = &p.tree.nodes[node]
    cdef const Listed* e
    cdef double total = 0.0, tree_est = 0.0, sub_est, rest
    cdef int sub
    cdef bint own
    if interrupted(p.w.data.intr) or out_of_stack(p):
        return INFINITY     # unwinding: the pruned copy is thrown away
    own = p.seen[node] != 0
    if past_stop(p, outer + later + floor_of(p, node), stop):
        return INFINITY     # (the caller's sum passes stop whatever the others add)
    if own:
        total = nd.weight
    e = p.arena + at
    for i in range(m):
        if stop_at(p, i):
            return INFINITY
        total += e[i].weight
    if nd.kind == LEAF or not (total > 0.0):
        # estimate_listed's leaf (no known weight: no branch share, its leaf too)
        return leaf_of_range(p, node, own,
                             nd.weight if own else 0.0, at, m, False)

    offs = group_in_place(p, nd, node, at, m)
    if offs < 0:
        return INFINITY
    rest = 0.0                            # the floors of the branches not yet added
    for v in range(nd.n_children):
        rest += floor_of(p, nd.first_child + <int> v)
    for v in range(1, nd.n_children + 1):
        sub = nd.first_child + <int> v - 1
        a = p.offsets[offs + v - 1]
        b = p.offsets[offs + v]
        rest = max(rest - floor_of(p, sub), 0.0)
        if a == b:
            if not p.seen[sub]:
                continue                  # no case at all: no estimate
            sub_est = p.tree.nodes[sub].errors
        elif p.tree.nodes[sub].kind == LEAF:
            own = p.seen[sub] != 0
            sub_est = leaf_of_range(p, sub, own,
                                    p.tree.nodes[sub].weight if own else 0.0,
                                    at + a, b - a, False)
        else:
            sub_est = estimate_joined(p, sub, at + a, b - a, outer + tree_est,
                                      later + rest, stop)
        tree_est = rnd(f32, tree_est + sub_est)
        nd = &p.tree.nodes[node]
        if outer + tree_est > stop or past_stop(p, outer + tree_est + rest + later, stop):
            tree_est = INFINITY
            break
    p.off_top = offs
    return tree_est

# ---------------------------------------------------------------------------
# Threads (float64, n_jobs > 1). A descent with update (the estimate of a subtree
# for a case list, the subtree pruned on the way) of at least `limit` cases runs
# in three steps:
# collect walks its top nodes as estimate_listed would, building the same case
# lists, and sets aside every internal node reached with fewer cases (and at most
# MAX_TASK_HEIGHT levels) as a task with a copy of its list; the threads estimate
# the tasks, largest first, each with its own arena, in batches as their lists
# reach 2n entries; then estimate_listed runs the descent again on one thread
# and takes each task's result where it reaches its node. A task computes exactly
# what the single-threaded descent computes there (its list is the same, and
# only the task writes to its subtree), so n_jobs changes no bit. Re-estimating
# a raised branch is a descent of its own (estimate_entry); raising's estimate
# of a branch against its threshold (without update) stays on one thread
# (parallel_descent).


cdef inline Py_ssize_t task_of(const Pruner* p, int node) noexcept nogil:
    """The running descent's task at node, -1 if none (the tasks are few)."""
    cdef Py_ssize_t i
    for i in range(p.n_tasks):
        if p.tasks[i].node == node:
            return i
    return -1


cdef inline bint parallel_descent(const Pruner* p, int node, Py_ssize_t m,
                                  bint update) noexcept nogil:
    """Whether a descent from node over m cases sets its subtrees aside for the
    threads: one with update, from p.limit cases, when its work (m cases on each
    of at most its subtree's levels) is worth a region (c45/_tasks.pyx:
    team_for). Raising's estimates (without update) stay on one thread: they
    stop once past their threshold, which tasks estimated side by side mostly
    cannot tell in time (1M x 10, 5% unknown values: pruning took 1.8 s on two
    threads when they ran there, 1.3 s on one); and most are too small to wake
    the team for."""
    return (update and p.n_threads > 1 and m >= p.limit
            and team_for(p.n_threads, m * p.height[node]) > 1)


cdef inline double descend(Pruner* p, int node, Py_ssize_t at, Py_ssize_t m,
                          bint update, double stop) noexcept nogil:
    """estimate_entry, or straight estimate_listed when there is no enclosing
    descent's task to set aside and no parallel descent to start: a tall tree
    then costs one stack frame per level."""
    if p.n_tasks == 0 and not parallel_descent(p, node, m, update):
        return estimate_listed(p, node, at, m, update, 0.0, stop)
    return estimate_entry(p, node, at, m, update, stop)


cdef double estimate_entry(Pruner* p, int node, Py_ssize_t at, Py_ssize_t m,
                           bint update, double stop) noexcept nogil:
    """A descent of its own from node (the enclosing descent's tasks set aside)."""
    cdef PruneTask* saved = p.tasks
    cdef Py_ssize_t saved_n = p.n_tasks
    cdef double r
    p.tasks = NULL
    p.n_tasks = 0
    if parallel_descent(p, node, m, update) and p.tree.nodes[node].kind != LEAF:
        r = estimate_parallel(p, node, at, m)
    else:
        r = estimate_listed(p, node, at, m, update, 0.0, stop)
    p.tasks = saved
    p.n_tasks = saved_n
    return r


cdef struct TaskList:
    PruneTask* tasks
    Py_ssize_t count
    Py_ssize_t cap
    Py_ssize_t first_pending # the tasks before it are estimated
    Py_ssize_t pending       # entries held by the pending tasks' lists
    Py_ssize_t budget        # ... estimated as soon as they reach this
    Pruner* workers
    int n_workers
    const Pruner* main       # the descent's pruner (the tasks' lists in its arena)
    bint failed


# A set-aside subtree runs on a worker thread, whose stack may be 2 MiB: taller
# subtrees are walked into instead (about 450 bytes of stack per level).
cdef int32_t MAX_TASK_HEIGHT = 2000


cdef int collect(Pruner* p, int node, Py_ssize_t at, Py_ssize_t m,
                 TaskList* tl, bint settled) noexcept nogil:
    """The tasks of a descent from node on arena[at .. at + m), estimated in
    batches as their copied lists reach the budget: -1 out of memory. settled:
    that part of the arena stays as it is until the tasks are estimated (the
    lists above it grouped in place, in any order), so a task reads its list
    there instead of a copy."""
    cdef Node* nd = &p.tree.nodes[node]
    cdef Py_ssize_t i, v, grouped, offs, pos, a, b
    cdef double total = 0.0
    cdef PruneTask* t
    if nd.kind == LEAF:
        return 0
    if out_of_stack(p):
        return -1
    if m < p.limit and p.height[node] <= MAX_TASK_HEIGHT:
        if room_for(<void**> &tl.tasks, tl.count, 1, &tl.cap, sizeof(PruneTask), 16) < 0:
            return -1
        t = &tl.tasks[tl.count]
        t.node = node
        t.m = m
        t.at = at
        t.result = 0.0
        t.cases = NULL
        if not settled:
            t.cases = <Listed*> malloc(m * sizeof(Listed) + 1)
            if t.cases == NULL:
                return -1
            memcpy(t.cases, p.arena + at, m * sizeof(Listed))
            tl.pending += m
        tl.count += 1
        if tl.pending >= tl.budget:
            run_pending(tl)
        return 0
    grouped = group_listed(p, nd, node, at, m)
    if grouped < 0:
        return -1
    offs = p.off_top - (nd.n_children + 2)
    if p.offsets[offs] == 0 and (p.any_order or nd.n_children == 2):
        # In place where estimate_listed groups in place (the same lists): a
        # branch's list is its part of the node's, not a copy stacked on the
        # arena (copies along a path held about twice the cases).
        if permute_grouped(p, nd, at, m, grouped, offs) < 0:
            return -1
        for v in range(1, nd.n_children + 1):
            a = p.offsets[offs + v - 1]
            b = p.offsets[offs + v]
            if a == b or p.tree.nodes[nd.first_child + v - 1].kind == LEAF:
                continue
            if collect(p, nd.first_child + <int> v - 1, at + a, b - a, tl,
                       settled and p.any_order) < 0:
                return -1
        if not p.any_order and restore_rows(p, at, p.offsets[offs + 1], m) < 0:
            return -1
        p.off_top = offs
        return 0
    for i in range(m):
        if stop_at(p, i):
            return -1
        total += p.arena[at + i].weight
    total = total - unknown_w_of(p, at, grouped, offs)
    for v in range(1, nd.n_children + 1):
        if (p.offsets[offs + v] == p.offsets[offs + v - 1]
                or p.tree.nodes[nd.first_child + v - 1].kind == LEAF):
            continue
        pos = branch_list(p, at, grouped, offs, v,
                          branch_share(p, at, grouped, offs, v, total))
        if pos < 0:
            return -1
        if collect(p, nd.first_child + <int> v - 1, p.arena_top - pos, pos, tl, False) < 0:
            return -1
        p.arena_top -= pos
    p.off_top = offs
    p.index_top = grouped
    return 0


cdef void run_task(Pruner* q, PruneTask* t, const Listed* arena) noexcept nogil:
    """Estimate one task (with update)."""
    q.stack_floor = stack_floor()      # this worker's own stack
    q.arena_top = 0
    q.off_top = 0
    q.index_top = 0
    if reserve(q, t.m, 0) < 0:
        q.failed = True
        return
    memcpy(q.arena, t.cases if t.cases != NULL else arena + t.at, t.m * sizeof(Listed))
    free(t.cases)
    t.cases = NULL
    q.arena_top = t.m
    t.result = estimate_listed(q, t.node, 0, t.m, True, 0.0, INFINITY)


cdef void prune_one(void* ctx, int worker, Py_ssize_t index) noexcept nogil:
    cdef TaskList* tl = <TaskList*> ctx
    run_task(&tl.workers[worker], &tl.tasks[index], tl.main.arena)


cdef void run_pending(TaskList* tl) noexcept nogil:
    """Estimate the pending tasks on the workers, largest first."""
    cdef Py_ssize_t i, first = tl.first_pending, count = tl.count - tl.first_pending
    cdef TaskOrder* order
    if count <= 0:
        return
    order = <TaskOrder*> malloc(count * sizeof(TaskOrder))
    if order == NULL:        # the descent fails; no task waits for a run any more
        tl.failed = True
        tl.first_pending = tl.count
        tl.pending = 0
        return
    for i in range(count):
        order[i].m = tl.tasks[first + i].m
        order[i].index = first + i
    run_tasks(order, count, tl.n_workers, prune_one, tl)
    free(order)
    for i in range(tl.n_workers):
        if tl.workers[i].failed:
            tl.failed = True
    tl.first_pending = tl.count
    tl.pending = 0


cdef double estimate_parallel(Pruner* p, int node, Py_ssize_t at, Py_ssize_t m) noexcept nogil:
    """A descent with update from node over arena[at .. at + m), its subtrees
    set aside as tasks for the threads (collect), then walked on this thread."""
    cdef TaskList tl
    cdef Py_ssize_t i, k = p.w.data.n_classes, arena_top = p.arena_top
    cdef Py_ssize_t off_top = p.off_top, index_top = p.index_top
    cdef double r = 0.0
    cdef GrownLog* logs
    memset(&tl, 0, sizeof(TaskList))
    tl.n_workers = p.n_threads
    tl.budget = 2 * p.w.data.n_cases      # the task lists held at once, in entries
    tl.workers = <Pruner*> calloc(tl.n_workers, sizeof(Pruner))
    logs = <GrownLog*> calloc(tl.n_workers, sizeof(GrownLog)) if p.log != NULL else NULL
    if tl.workers == NULL or (p.log != NULL and logs == NULL):
        free(tl.workers)
        free(logs)
        p.failed = True
        return 0.0
    for i in range(tl.n_workers):
        tl.workers[i] = p[0]
        tl.workers[i].arena = NULL
        tl.workers[i].arena_cap = tl.workers[i].arena_top = 0
        tl.workers[i].index = NULL
        tl.workers[i].index_cap = tl.workers[i].index_top = 0
        tl.workers[i].offsets = NULL
        tl.workers[i].off_cap = tl.workers[i].off_top = 0
        tl.workers[i].outcome = NULL
        tl.workers[i].outcome_cap = 0
        tl.workers[i].n_threads = 1
        tl.workers[i].tasks = NULL
        tl.workers[i].n_tasks = 0
        if logs != NULL:            # a log each, the saved flags shared
            logs[i].saved = p.log.saved
            tl.workers[i].log = &logs[i]
        # 8 spare doubles each side: no cache line shared with another thread
        tl.workers[i].dist = <double*> malloc((k + 16) * sizeof(double))
        if tl.workers[i].dist != NULL:
            tl.workers[i].dist += 8
        else:
            tl.failed = True
    tl.main = p
    if not tl.failed and collect(p, node, at, m, &tl, True) < 0:
        tl.failed = True
    p.arena_top = arena_top
    p.off_top = off_top
    p.index_top = index_top
    if not tl.failed:
        run_pending(&tl)
    for i in range(tl.n_workers):
        if logs != NULL:
            if logs[i].failed or log_append(p.log, &logs[i], k, p.w.data.intr) < 0:
                tl.failed = True
            log_free(&logs[i])
        free_arena(&tl.workers[i])
        free(tl.workers[i].offsets)
        c45_big_free(tl.workers[i].outcome)
        if tl.workers[i].dist != NULL:
            free(tl.workers[i].dist - 8)
    free(tl.workers)
    free(logs)
    if tl.failed:
        p.failed = True
    else:
        p.tasks = tl.tasks
        p.n_tasks = tl.count
        r = estimate_listed(p, node, at, m, True, 0.0, INFINITY)
        p.tasks = NULL
        p.n_tasks = 0
    for i in range(tl.count):
        free(tl.tasks[i].cases)
    free(tl.tasks)
    return r


cdef int32_t* subtree_heights(const NodeBuffer* tree) noexcept nogil:
    """Levels of every node's subtree (1 for a leaf), NULL out of memory: a
    pre-order by an explicit stack, then the nodes in reverse pre-order."""
    cdef Py_ssize_t count = tree.count, top = 0, n_order = 0, i, b
    cdef int32_t* height = <int32_t*> calloc(count + 1, sizeof(int32_t))
    cdef int32_t* order = <int32_t*> malloc((count + 1) * sizeof(int32_t))
    cdef int32_t* stack = <int32_t*> malloc((count + 1) * sizeof(int32_t))
    cdef int32_t nd, h
    if height == NULL or order == NULL or stack == NULL:
        free(height); free(order); free(stack)
        return NULL
    if count > 0:
        stack[0] = 0
        top = 1
    while top > 0:
        top -= 1
        nd = stack[top]
        order[n_order] = nd
        n_order += 1
        if tree.nodes[nd].kind != LEAF:
            for b in range(tree.nodes[nd].n_children):
                stack[top] = tree.nodes[nd].first_child + <int32_t> b
                top += 1
    for i in range(n_order - 1, -1, -1):
        nd = order[i]
        h = 0
        if tree.nodes[nd].kind != LEAF:
            for b in range(tree.nodes[nd].n_children):
                if height[tree.nodes[nd].first_child + b] > h:
                    h = height[tree.nodes[nd].first_child + b]
        height[nd] = h + 1
    free(order)
    free(stack)
    return height


cdef bint joinable_lists(const NodeBuffer* tree, const Dataset* d) noexcept nogil:
    """Whether every sum of case weights is exact in any order (whole weights, a
    total of at most 2**53) and no feature a node tests has an unknown value."""
    cdef Py_ssize_t i, n = d.n_cases
    cdef double total = 0.0, wt
    cdef int32_t f
    cdef unsigned char* checked
    if d.listed:
        return True                       # float32 on the lists: already so
    for i in range(n):
        if (i & (LOOK - 1)) == LOOK - 1 and interrupted(d.intr):
            return False                  # (prune_run looks again before estimating)
        wt = initial_weight(d, i)
        if not (wt >= 0.0 and wt <= 9007199254740992.0 and wt == floor(wt)):
            return False
        total += wt
    if not (total <= 9007199254740992.0):
        return False
    checked = <unsigned char*> calloc(d.n_features + 1, 1)
    if checked == NULL:
        return False
    for i in range(tree.count):
        f = tree.nodes[i].feature
        if tree.nodes[i].kind == LEAF or f < 0 or checked[f]:
            continue
        checked[f] = 1
        if has_unknown(d, f):
            free(checked)
            return False
    free(checked)
    return True


# The fewest cases of a parallel descent's tasks (smaller subtrees are not worth
# a thread); a descent of the whole training set sets aside subtrees under n / 16.
cdef Py_ssize_t PARALLEL_PRUNE_MIN = 1000


cdef enum:
    PRUNED = 0
    PRUNE_STOPPED = 1        # a signal handler raised
    PRUNE_NO_MEMORY = 2
    PRUNE_NO_STACK = 3       # a recursion reached its thread's floor
    PRUNE_NO_THREAD = 4      # no thread with the stack the tree needs could start


cdef struct PruneCall:
    NodeBuffer* tree
    Work* w
    uint32_t* cut            # float64: the continuous tests' cut ranks (cut_ranks)
    GrownLog* log            # or NULL
    double confidence
    bint raising
    int n_threads
    int no_stack
    int status


cdef uint32_t* cut_ranks(const NodeBuffer* tree, const Dataset* d) noexcept nogil:
    """float64: per node of a continuous test, how many known training values
    are at most its threshold (a case goes left when its rank is below it), so
    that pruning reads no value: the one growing found (Node.cut_rank), else
    searched for (cut_rank). NULL out of memory."""
    cdef uint32_t* cut = <uint32_t*> calloc(tree.count + 1, sizeof(uint32_t))
    cdef Py_ssize_t i
    if cut == NULL:
        return NULL
    for i in range(tree.count):
        if tree.nodes[i].kind == CONTINUOUS:
            cut[i] = tree.nodes[i].cut_rank
            if cut[i] == NO_CUT_RANK:
                cut[i] = cut_rank(d, tree.nodes[i].feature, tree.nodes[i].threshold)
    return cut


cdef int prune_pessimistic(NodeBuffer* tree, Work* w, double confidence,
                           bint subtree_raising, uint32_t* cut,
                           GrownLog* log=NULL) except -1 nogil:
    """Prune the tree in place on all training cases, weights reset (§8.2);
    float64 on w.n_threads threads. cut: float64's cut_ranks of the tree, which
    pruning takes (and frees), or NULL to make them from the sorted values here.
    A tree taller than the calling thread's stack allows is pruned on a thread
    of its own, of the stack it needs (the calling thread waits, running signal
    handlers); one taller than libgomp's workers' stacks allow, on one thread.
    log: where the grown fields pruning changes go (log.saved zeroed, a byte a
    node), or NULL."""
    cdef PruneCall c
    cdef c45_stack_thread th
    cdef size_t need, workers, levels
    cdef int32_t* height = subtree_heights(tree)
    if height == NULL:
        free(cut)
        with gil:
            raise MemoryError("c45: out of memory while pruning the tree")
    levels = <size_t> (height[0] if tree.count > 0 else 1)
    free(height)
    need = (levels + 16) * PRUNE_LEVEL_BYTES + 2 * STACK_MARGIN
    c.tree, c.w, c.confidence, c.raising = tree, w, confidence, subtree_raising
    c.cut = cut
    c.log = log
    c.n_threads = w.n_threads if w.n_threads > 1 else 1
    c.no_stack = 0
    c.status = PRUNED
    workers = c45_worker_stack()
    if c.n_threads > 1 and workers != 0 and workers < need:
        c.n_threads = 1
    if c45_stack_room() >= need:
        prune_run(&c)
    else:
        # A thread of its own runs no OpenMP region (its threads would be a new
        # team for libgomp to start).
        c.n_threads = 1
        if c45_thread_start(&th, prune_on_thread, &c, need + (1 << 20)) == 0:
            while not c45_thread_done(&th):
                interrupted(w.data.intr)      # handlers run here, on the caller
                c45_nap()
            c45_thread_join(&th)
        else:
            c.status = PRUNE_NO_THREAD
    free(c.cut)                     # not taken: no pruning ran
    if c.status == PRUNE_STOPPED:
        with gil:
            raise_interrupt()
    if c.status == PRUNE_NO_MEMORY:
        with gil:
            raise MemoryError("c45: out of memory while pruning the tree")
    if c.status == PRUNE_NO_STACK or c.status == PRUNE_NO_THREAD:
        with gil:
            raise MemoryError(
                f"c45: pruning a tree {levels} levels deep needs a thread stack of {need // 1024} KiB "
                + ("and no such thread could be started" if c.status == PRUNE_NO_THREAD
                   else "and ran out of it") + "; limit the depth (max_depth)")
    return 0


cdef void prune_on_thread(void* arg) noexcept nogil:
    prune_run(<PruneCall*> arg)


cdef void prune_run(PruneCall* c) noexcept nogil:
    """The pruning itself, on the thread that runs it; sets c.status."""
    cdef Pruner p
    cdef Work* w = c.w
    cdef NodeBuffer* tree = c.tree
    cdef Py_ssize_t i, n = w.data.n_cases
    cdef bint f32 = w.data.f32
    p.tree = tree
    p.w = w
    p.cf = c.confidence
    p.coeff = pessimistic_coeff(f32, c.confidence)
    p.raising = c.raising
    p.arena = NULL
    p.arena_top = p.arena_cap = 0
    p.index = NULL
    p.index_top = p.index_cap = 0
    p.offsets = NULL
    p.off_top = p.off_cap = 0
    p.outcome = NULL
    p.outcome_cap = 0
    p.failed = False
    p.stack_floor = stack_floor()
    p.out_of_stack = &c.no_stack
    p.dist = w.dist
    p.n_threads = c.n_threads
    # Subtrees below n / threads cases are the threads' tasks: the larger the
    # tasks, the fewer raising estimates (mostly of the largest branch for all
    # of a node's cases) are left to the top's walk on one thread; and none
    # holds more than a thread's share. (n/16 on two threads, 1M rows with 5%
    # unknown values: those estimates were 0.65 s of 1.2 s, which pruning on
    # two threads took as long as on one; n/2: 0.9 s.)
    p.limit = max(n // max(p.n_threads, 1), PARALLEL_PRUNE_MIN)
    p.tasks = NULL
    p.n_tasks = 0
    p.height = NULL
    p.log = c.log
    w.count_mode = w.data.count_mode_init
    for i in range(n):
        if (i & (LOOK - 1)) == LOOK - 1 and interrupted(w.data.intr):
            break                       # (reported below)
        w.weight[i] = initial_weight(w.data, i)
    p.cut = c.cut
    c.cut = NULL
    p.seen = NULL
    p.joinable = False
    p.any_order = False
    if f32 and not w.data.listed:
        estimate(&p, 0, 0, n - 1, True)
        free(p.cut)
    else:
        # float64 reads a case's side of a cut from its rank (float32, or float64
        # without its ranks, from its value: its cuts stay 0)
        if p.cut == NULL:
            p.cut = (cut_ranks(tree, w.data) if not f32 and w.data.rank != NULL
                     else <uint32_t*> calloc(tree.count + 1, sizeof(uint32_t)))
        if p.n_threads > 1:
            p.height = subtree_heights(tree)
        if (p.cut == NULL
                or (p.n_threads > 1 and p.height == NULL)
                or reserve(&p, n + 1, 64) < 0):
            p.failed = True
        else:
            for i in range(n):
                if stop_at(&p, i):
                    break
                p.arena[i].weight = initial_weight(w.data, i)
                p.arena[i].case = <int32_t> i
                p.arena[i].cls = w.data.y[i]
            p.arena_top = n
            p.any_order = joinable_lists(tree, w.data)
            if c.raising and p.any_order:
                p.seen = <unsigned char*> calloc(tree.count + 1, 1)
                p.joinable = p.seen != NULL
                p.floor_margin = floor_margin_of(&p, n)
            if not interrupted(w.data.intr):    # (the list unfinished otherwise)
                estimate_entry(&p, 0, 0, n, True, INFINITY)
        free_arena(&p)
        free(p.offsets)
        c45_big_free(p.outcome)
        free(p.cut)
        free(p.height)
        free(p.seen)
    if interrupted(w.data.intr):
        c.status = PRUNE_STOPPED
    elif c.no_stack:
        c.status = PRUNE_NO_STACK
    elif p.failed or (p.log != NULL and p.log.failed):
        c.status = PRUNE_NO_MEMORY
