"""Finding the test at a node, as C4.5 Release 8 does (spec §0.5, §3-§6).

The node's cases are a contiguous range [lo, hi] of the shared case array. The
evaluation of a continuous attribute reorders that range (unknowns first, then
sorted), and the order carries over: it decides the order of binary32 sums, so the
reordering primitives below are exactly those of the spec.
"""
from cython.parallel cimport prange, threadid
from libc.math cimport fabs, isinf, isnan, log
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

from c45._threads import clamp as clamp_threads

from c45._scratch cimport resize, doubled, c45_big_zeroed
from c45._interrupt cimport (interrupted, raise_interrupt, copy_polled, free_looking,
                             big_free_looking, look_by_cells)
from c45._types cimport (Interrupt, Valued, Pair, Dataset, Test, LEAF, DISCRETE, CONTINUOUS, SUBSET,
                         NO_CUT_RANK, initial_weight)
from c45._criterion cimport (rnd, unusable, log2_of, n_log2_n, total_info, split_gain,
                             worth, EPSILON, LN2)


cdef Py_ssize_t max_values_of(const Dataset* d) noexcept nogil:
    """The most values of any discrete feature (at least 2: a binary split)."""
    cdef Py_ssize_t f, most = 2
    for f in range(d.n_features):
        if d.n_values[f] > most:
            most = d.n_values[f]
    return most


cdef int scratch_init(Work* w) noexcept nogil:
    """The evaluation scratch every thread has of its own (tables of the
    discrete and subset tests, the cut scans' sort and candidates); -1 when
    memory runs out (what was allocated is freed by scratch_free)."""
    cdef Py_ssize_t n = w.data.n_cases, k = w.data.n_classes, v = max_values_of(w.data)
    w.freq = <double*> calloc((v + 1) * k, sizeof(double))
    w.totals = <double*> calloc(v + 1, sizeof(double))
    w.slot = <int32_t*> calloc(v + 1, sizeof(int32_t))
    w.block_freq = <double*> calloc((v + 2) * k, sizeof(double))
    w.block_totals = <double*> calloc(v + 2, sizeof(double))
    w.trial_freq = <double*> calloc((v + 2) * k, sizeof(double))
    w.trial_totals = <double*> calloc(v + 2, sizeof(double))
    w.rankbuf = <RankItem*> c45_big_zeroed((n + 1) * sizeof(RankItem))
    w.ranktmp = <RankItem*> c45_big_zeroed((n + 1) * sizeof(RankItem))
    w.cand_cap = 64
    w.cand_gain = <double*> calloc(w.cand_cap, sizeof(double))
    w.cand_split = <double*> calloc(w.cand_cap, sizeof(double))
    w.cand_below = <double*> calloc(w.cand_cap, sizeof(double))
    w.cand_above = <double*> calloc(w.cand_cap, sizeof(double))
    w.cand_pos = <double*> calloc(w.cand_cap, sizeof(double))
    w.phi = <double*> calloc(2 * k, sizeof(double))
    w.phi_dirty = <uint8_t*> calloc(k, sizeof(uint8_t))
    w.moved = <int32_t*> calloc(k, sizeof(int32_t))
    w.left_count = <Py_ssize_t*> calloc(k, sizeof(Py_ssize_t))
    w.all_count = <Py_ssize_t*> calloc(k, sizeof(Py_ssize_t))
    w.n_moved = 0
    w.snap = NULL
    w.snap_cap = 0
    w.checkpoint = NULL
    w.checkpoint_cap = 0
    if (w.freq == NULL or w.totals == NULL or w.slot == NULL or w.block_freq == NULL
            or w.block_totals == NULL or w.trial_freq == NULL
            or w.trial_totals == NULL or w.rankbuf == NULL or w.ranktmp == NULL
            or w.cand_gain == NULL or w.cand_split == NULL
            or w.cand_below == NULL or w.cand_above == NULL
            or w.cand_pos == NULL or w.phi == NULL or w.phi_dirty == NULL
            or w.moved == NULL or w.left_count == NULL or w.all_count == NULL):
        return -1
    return 0


cdef inline Interrupt* intr_of(const Work* w) noexcept nogil:
    return w.data.intr if w.data != NULL else NULL


cdef void scratch_free(Work* w) noexcept nogil:
    """scratch_init's buffers freed (those of a size with the cases in polled
    steps: free_looking)."""
    cdef Interrupt* intr = intr_of(w)
    free(w.freq); free(w.totals); free(w.slot); free(w.block_freq); free(w.block_totals)
    free(w.trial_freq); free(w.trial_totals)
    big_free_looking(w.rankbuf, intr)
    big_free_looking(w.ranktmp, intr)
    free(w.cand_gain); free(w.cand_split); free(w.cand_below); free(w.cand_above)
    free(w.cand_pos); free(w.phi); free(w.phi_dirty)
    free(w.moved); free(w.left_count); free(w.all_count)
    free_looking(w.snap, w.snap_cap * sizeof(double), intr)
    free_looking(w.checkpoint, w.checkpoint_cap * sizeof(int32_t), intr)


cdef int work_init(Work* w, const Dataset* d, bint rows) except -1:
    if work_alloc(w, d, rows) < 0:
        if d.intr != NULL and d.intr.stop:
            raise_interrupt()
        raise MemoryError("c45: cannot allocate the work buffers for this data set")
    return 0


cdef inline bint work_stop(const Dataset* d, Py_ssize_t i) noexcept nogil:
    """work_alloc's passes over the cases look for Ctrl-C every 65,536 of them."""
    return (i & 0xFFFF) == 0xFFFF and interrupted(d.intr)


cdef int work_alloc(Work* w, const Dataset* d, bint rows,
                    const Work* share=NULL) noexcept nogil:
    """work_init without the GIL: -1 (and w freed) when memory runs out. rows:
    the case array holds the rows in order, the weights their initial ones
    (R8's case array and pruning start from them); without, they are left
    untouched (growing on the presorted lists fills them where it reads them,
    and their pages then take no memory while the lists are the largest).
    share: a Work of the same data whose read-only tables (nlogn, y8) w reads
    instead of making its own (a task worker's: 9 bytes a case each); it
    must outlive w. Interrupted (d.intr's stop set), -1 too, w freed."""
    cdef Py_ssize_t n = d.n_cases, k = d.n_classes, f
    memset(w, 0, sizeof(Work))
    w.data = d
    w.count_mode = d.count_mode_init
    w.min_objs = d.min_objs
    w.rng = d.seed * 2685821657736338717ULL + 1442695040888963407ULL
    if w.rng == 0:
        w.rng = 88172645463325252ULL
    # The buffers of a size with the cases are big blocks (c45/_scratch.pxd):
    # growing on the lists and one thread's evaluation write a part of them or
    # none, and a fit's later buffers do not stack on their freed pages.
    w.cases = <int32_t*> c45_big_zeroed((n + 1) * sizeof(int32_t))
    w.weight = <double*> c45_big_zeroed((n + 1) * sizeof(double))
    w.dist = <double*> calloc(k, sizeof(double))
    w.drawn = <int32_t*> calloc(d.n_features + 1, sizeof(int32_t))
    w.perm = <int32_t*> calloc(d.n_features + 1, sizeof(int32_t))
    w.group_start = <int64_t*> calloc(d.n_features + 1, sizeof(int64_t))
    w.n_groups = <int32_t*> calloc(d.n_features + 1, sizeof(int32_t))
    if w.group_start != NULL:
        for f in range(d.n_features):
            w.group_start[f + 1] = w.group_start[f] + d.n_values[f] + 1
        w.groups = <int32_t*> calloc(w.group_start[d.n_features] + 1, sizeof(int32_t))
    w.gain = <double*> calloc(d.n_features + 1, sizeof(double))
    w.info = <double*> calloc(d.n_features + 1, sizeof(double))
    w.bar = <double*> calloc(d.n_features + 1, sizeof(double))
    w.bar_at = <double*> malloc(2 * (d.n_features + 1) * sizeof(double))
    if w.bar_at != NULL:
        for f in range(2 * (d.n_features + 1)):
            w.bar_at[f] = -1.0
    w.raw_gain = <double*> calloc(d.n_features + 1, sizeof(double))
    w.cut_at = <Py_ssize_t*> calloc(d.n_features + 1, sizeof(Py_ssize_t))
    w.shares_tables = share != NULL
    if k <= 256 and (not d.f32 or d.listed) and share == NULL:
        w.y8 = <uint8_t*> malloc(n + 1)
    elif share != NULL:
        w.y8 = share.y8
    w.tries = <Py_ssize_t*> calloc(d.n_features + 1, sizeof(Py_ssize_t))
    w.used = <int32_t*> calloc(d.n_features + 1, sizeof(int32_t))
    w.sortbuf = <SortItem*> calloc(sortbuf_items(d), sizeof(SortItem))
    # n * L(n) for the whole counts 0..n: most counts are whole (no weights, no
    # unknown values), and the logarithms dominate the cut scan otherwise.
    w.table_n = n if share == NULL else share.table_n
    w.nlogn = <double*> malloc((n + 1) * sizeof(double)) if share == NULL else share.nlogn
    if w.nlogn != NULL and share == NULL:
        for f in range(n + 1):
            if work_stop(d, f):
                break                   # (freed below)
            w.nlogn[f] = (<double> f) * log2_of(d.f32, <double> f)
    if (scratch_init(w) < 0 or w.cases == NULL or w.weight == NULL or w.dist == NULL
            or w.gain == NULL or w.info == NULL or w.bar == NULL or w.bar_at == NULL
            or w.raw_gain == NULL or w.tries == NULL or w.cut_at == NULL
            or w.drawn == NULL or w.perm == NULL or w.group_start == NULL or w.n_groups == NULL
            or w.groups == NULL or w.used == NULL or w.sortbuf == NULL or w.nlogn == NULL
            or (k <= 256 and (not d.f32 or d.listed) and w.y8 == NULL)):
        work_free(w)
        memset(w, 0, sizeof(Work))      # freed: a second work_free is harmless
        return -1
    if rows:
        for f in range(n):
            if work_stop(d, f):
                break
            w.cases[f] = <int32_t> f
            w.weight[f] = initial_weight(d, f)
    if w.y8 != NULL and share == NULL:
        for f in range(n):
            if work_stop(d, f):
                break
            w.y8[f] = <uint8_t> d.y[f]
    if d.intr != NULL and d.intr.stop:
        work_free(w)
        memset(w, 0, sizeof(Work))
        return -1
    return 0


cdef inline Py_ssize_t sortbuf_items(const Dataset* d) noexcept nogil:
    """Work.sortbuf's size: a case array's sort's (R8's case array), else unused."""
    return d.n_cases + 1 if d.f32 and not d.listed else 1


cdef void work_trim_nlogn(Work* w, Py_ssize_t keep) noexcept nogil:
    """Keep the n log n table's entries 0..keep alone (0: none), the rest of its
    8 bytes a case freed: n_log2_n computes a count beyond the table, the same
    bits. Once grown, pruning takes no logarithm of a count (keep 0); the last
    set-aside subtrees count at most their own cases. Out of memory for the
    kept part, the table stays whole."""
    cdef int t
    cdef double* kept = NULL
    if w.nlogn == NULL or keep >= w.table_n or w.shares_tables:
        return                          # (a shared table is its owner's to trim)
    if keep > 0:
        kept = <double*> malloc((keep + 1) * sizeof(double))
        if kept == NULL:
            return
        memcpy(kept, w.nlogn, (keep + 1) * sizeof(double))
    free_looking(w.nlogn, (w.table_n + 1) * sizeof(double), intr_of(w))
    w.nlogn = kept
    w.table_n = keep if kept != NULL else 0
    if w.threads != NULL:
        for t in range(w.n_threads):
            w.threads[t].nlogn = w.nlogn    # (copies of w's pointer)
            w.threads[t].table_n = w.table_n


cdef void work_free(Work* w) noexcept nogil:
    """Free all of w. The buffers of a size with the cases are given back in
    steps between which the signal handlers run (free_looking): at tens of
    millions of cases their munmaps took 0.1-0.2 s."""
    cdef int t
    cdef Interrupt* intr = intr_of(w)
    cdef size_t n = w.data.n_cases + 1 if w.data != NULL else 0
    if w.threads != NULL:
        for t in range(w.n_threads):
            if w.threads[t].owns_scratch:
                scratch_free(&w.threads[t])
        free(w.threads)
    scratch_free(w)
    big_free_looking(w.cases, intr)
    big_free_looking(w.weight, intr)
    free(w.dist)
    free(w.gain); free(w.info); free(w.bar); free(w.bar_at); free(w.raw_gain); free(w.tries); free(w.used)
    free(w.cut_at)
    if not w.shares_tables:
        free_looking(w.y8, n if w.y8 != NULL else 0, intr)
        free_looking(w.nlogn, (w.table_n + 1) * sizeof(double) if w.nlogn != NULL else 0,
                     intr)
    free_looking(w.sortbuf, sortbuf_items(w.data) * sizeof(SortItem) if w.data != NULL else 0,
                 intr)
    free_looking(w.pos_of, n * sizeof(int32_t) if w.pos_of != NULL else 0, intr)
    free_looking(w.arena, w.arena_cap * sizeof(int64_t), intr)
    free(w.drawn); free(w.perm); free(w.group_start); free(w.n_groups); free(w.groups)
    memset(w, 0, sizeof(Work))


cdef int work_threads_init(Work* w, int n_threads) except -1:
    """Scratch for n_threads evaluation threads (float64 mode). They share the
    data, the case array and weights (read only) and the per-feature results of
    w (each thread writes its own features')."""
    cdef Py_ssize_t t
    cdef Work* tw
    w.n_threads = clamp_threads(n_threads if n_threads > 1 else 1)
    if w.n_threads == 1 or w.data.f32:
        w.n_threads = 1
        return 0
    w.threads = <Work*> calloc(w.n_threads, sizeof(Work))
    if w.threads == NULL:
        raise MemoryError("c45: cannot allocate the thread buffers")
    for t in range(w.n_threads):
        tw = &w.threads[t]
        tw[0] = w[0]                      # shares data, weights, results, tables
        tw.threads = NULL
        tw.n_threads = 0
        tw.owns_scratch = True
        if scratch_init(tw) < 0:
            raise MemoryError("c45: cannot allocate the thread buffers")
    return 0


# ---------------------------------------------------------------------------
# Ctrl-C in passes over a node's cases
#
# At the root a pass over tens of millions of cases takes a fair part of a second,
# so every pass over a node's cases looks for Ctrl-C every 65,536 of them. Those
# that only read or swap cases stop when asked (R8's order is then lost, but the
# grower and the pruner, seeing the same flag, unwind and the fit is thrown
# away). Passes that fill an array a later step reads whole (sort_range's copy
# back, gather_branch, sparse_table) run to the end, the handlers run on the way
# (hear_at): a stop is seen at the next look.

cdef enum:
    LOOK_MASK = 0xFFFF


cdef extern from "_prefetch.h":
    void C45_PREFETCH(const void* addr) noexcept nogil

# Cases ahead whose data a pass over the case array fetches early: it reads
# them by case id, in an order that is the values' of some feature.
cdef Py_ssize_t CASES_AHEAD = 16


cdef inline bint stop_at(const Dataset* d, Py_ssize_t i) noexcept nogil:
    return (i & LOOK_MASK) == 0 and interrupted(d.intr)


cdef inline void hear_at(Interrupt* intr, Py_ssize_t i) noexcept nogil:
    """A pass that runs to its end runs the signal handlers every 65,536 items."""
    if (i & LOOK_MASK) == LOOK_MASK:
        interrupted(intr)


# ---------------------------------------------------------------------------
# Totals (§1.4, §1.5)

cdef double sum_weights(Work* w, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """Binary32 (or binary64) sum of the weights in array order."""
    cdef bint f32 = w.data.f32
    cdef double s = 0.0
    cdef Py_ssize_t i
    for i in range(lo, hi + 1):
        if stop_at(w.data, i):
            break
        if i + CASES_AHEAD <= hi:
            C45_PREFETCH(&w.weight[w.cases[i + CASES_AHEAD]])
        s = rnd(f32, s + w.weight[w.cases[i]])
    return s


cdef double total_weight(Work* w, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """C4.5's total weight of a range: the case count in count mode, else the sum."""
    if w.count_mode:
        return <double> (hi - lo + 1)
    return sum_weights(w, lo, hi)


cdef double class_distribution(Work* w, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """Fill w.dist with the class sums of the range, in array order; return its
    total_weight, summed in the same pass (the same additions in the same order)."""
    cdef const Dataset* d = w.data
    cdef bint f32 = d.f32
    cdef Py_ssize_t i
    cdef int32_t c
    cdef double total = 0.0
    memset(w.dist, 0, d.n_classes * sizeof(double))
    for i in range(lo, hi + 1):
        if stop_at(d, i):
            break
        if i + CASES_AHEAD <= hi:
            C45_PREFETCH(&w.weight[w.cases[i + CASES_AHEAD]])
            C45_PREFETCH(&d.y[w.cases[i + CASES_AHEAD]])
        c = w.cases[i]
        w.dist[d.y[c]] = rnd(f32, w.dist[d.y[c]] + w.weight[c])
        total = rnd(f32, total + w.weight[c])
    if w.count_mode:
        return <double> (hi - lo + 1)
    return total


# ---------------------------------------------------------------------------
# Reordering primitives (§0.5)

cdef int outcome(const Dataset* d, const Test* t, int32_t case) noexcept nogil:
    """Branch (1..B) a case takes at a test, 0 if its value is unknown (float32
    mode, which keeps the values; float64 mode works on case lists instead)."""
    return outcome_of(d, t, case)


cdef inline int outcome_of(const Dataset* d, const Test* t, int32_t case) noexcept nogil:
    cdef double x
    cdef int32_t v
    if t.kind == CONTINUOUS:
        x = d.cont[<Py_ssize_t> d.col[t.feature] * d.n_cases + case]
        if isnan(x):
            return 0
        return 1 if x <= t.threshold else 2
    v = d.codes[<Py_ssize_t> d.col[t.feature] * d.n_cases + case]
    if t.kind == SUBSET and v > 0:
        return t.value_map[v]
    return v


cdef Py_ssize_t group(Work* w, const Test* t, int v, Py_ssize_t lo,
                      Py_ssize_t hi, double* weight) noexcept nogil:
    """Swap the cases with outcome v to the front of [lo, hi]; return the last one's
    position (lo - 1 if there are none). weight (or NULL): set to their
    total_weight, summed in their order after the swaps (total_weight's over
    them), from their weights noted in w.ranktmp as they are met (free
    scratch between evaluations: a pass over the cases' weights saved).

    Without branches on the outcome (half of a split's cases go each way: a
    branch would be mispredicted every other case): every case is swapped
    with the write position, the swap undone by selecting the same values
    when it does not match, and its weight noted at the write position, kept
    only when it matches."""
    cdef const Dataset* d = w.data
    cdef bint f32 = d.f32, summed = weight != NULL and not w.count_mode
    cdef bint cont = t.kind == CONTINUOUS, m
    cdef Py_ssize_t i, write = lo, at = <Py_ssize_t> d.col[t.feature] * d.n_cases
    cdef int32_t a, b
    cdef double s = 0.0, x, bar = t.threshold
    cdef double* noted = <double*> w.ranktmp
    cdef int32_t* cases = w.cases
    for i in range(lo, hi + 1):
        if stop_at(d, i):
            break
        if i + CASES_AHEAD <= hi:
            if cont:
                C45_PREFETCH(&d.cont[at + cases[i + CASES_AHEAD]])
            else:
                C45_PREFETCH(&d.codes[at + cases[i + CASES_AHEAD]])
            if summed:
                C45_PREFETCH(&w.weight[cases[i + CASES_AHEAD]])
        a = cases[i]
        if cont:
            # outcome_of's three outcomes as comparisons (NaN: only x != x holds)
            x = d.cont[at + a]
            m = (x != x) if v == 0 else ((x <= bar) if v == 1 else (v == 2 and x > bar))
        else:
            m = outcome_of(d, t, a) == v
        b = cases[write]
        if summed:
            noted[write - lo] = w.weight[a]
        cases[i] = a ^ ((a ^ b) & -(<int32_t> m))
        cases[write] = b ^ ((a ^ b) & -(<int32_t> m))
        write += m
    if summed:
        for i in range(write - lo):
            if stop_at(d, i):
                break
            s = rnd(f32, s + noted[i])
    if weight != NULL:
        weight[0] = <double> (write - lo) if w.count_mode else s
    return write - 1


ctypedef fused Item:
    SortItem        # (value, case)
    RankItem        # (key, case): a key in the values' order, equal for equal values


cdef inline bint before(const Item* x, const Item* y) noexcept nogil:
    """x's value is below y's (<)."""
    if Item is SortItem:
        return x.value < y.value
    else:
        return x.key < y.key


cdef inline bint same(const Item* x, const Item* y) noexcept nogil:
    if Item is SortItem:
        return x.value == y.value
    else:
        return x.key == y.key


cdef inline void swap_items(Item* a, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
    cdef Item tmp = a[i]
    a[i] = a[j]
    a[j] = tmp


# Ranges at least this long look for Ctrl-C before they are partitioned.
cdef Py_ssize_t SORT_POLL_RANGE = LOOK_MASK + 1


cdef bint quicksort_items(Item* a, Py_ssize_t lo, Py_ssize_t hi, Interrupt* intr,
                          const Item* by_key, const int32_t* ties,
                          Py_ssize_t origin) noexcept nogil:
    """C4.5 Release 8's quicksort (§0.5), with an explicit stack of ranges (float32
    mode only: float64 mode sorts by rank in linear time). Its moves depend only
    on how the items compare, so 8-byte items keyed in the values' order
    (float32_key) are moved as their values would be.

    A range that is already in order is left as it is, which is what the
    quicksort itself would do, at linear cost. Like Release 8's it is quadratic on
    adversarial orders; the stack stays O(log n) deep. It looks for Ctrl-C every
    65,536 items of each pass over a range (sorting tens of millions of cases
    takes seconds, one pass over the root's a fair part of one); when
    interrupted it returns True, the items permuted, not sorted (or a range
    half copied), and the grower, seeing the same flag, unwinds.

    by_key and ties (or NULL): the same items already sorted, ties in any
    order (by_key[r - origin] the item of rank r), and ties[r - origin] the
    number of ranks origin + 1 .. r whose key is the rank before's. Every range
    the quicksort reaches holds the items of its ranks (it moves the keys equal
    to the pivot between its two halves), so a range of distinct keys ends in
    their one sorted order whatever its moves: it is copied from by_key, and
    only the ranges with equal keys are partitioned."""
    cdef Py_ssize_t stack_lo[128]
    cdef Py_ssize_t stack_hi[128]
    cdef int top = 0
    cdef Py_ssize_t i, j, m, q, n = hi - lo + 1
    cdef Item pivot
    cdef bint ordered
    cdef uint64_t x, y, mask
    cdef Py_ssize_t le
    if n < 2:
        return False
    stack_lo[0] = lo; stack_hi[0] = hi; top = 1
    while top > 0:
        top -= 1
        lo = stack_lo[top]; hi = stack_hi[top]
        if lo >= hi:
            continue
        if ties != NULL and ties[hi - origin] == ties[lo - origin]:
            if hi - lo < SORT_POLL_RANGE:
                memcpy(&a[lo], &by_key[lo - origin], (hi - lo + 1) * sizeof(Item))
            elif copy_polled(<char*> &a[lo], <const char*> &by_key[lo - origin],
                            (hi - lo + 1) * sizeof(Item), intr):
                return True
            continue
        if hi - lo >= SORT_POLL_RANGE and interrupted(intr):
            return True
        ordered = True
        for i in range(lo, hi):
            if (i & LOOK_MASK) == LOOK_MASK and interrupted(intr):
                return True
            if before(&a[i + 1], &a[i]):
                ordered = False
                break
        if ordered:
            continue
        pivot = a[hi]
        m = lo
        if Item is RankItem:
            # The same swaps without a branch: 8-byte items, chosen by a mask.
            for i in range(lo, hi):
                if (i & LOOK_MASK) == LOOK_MASK and interrupted(intr):
                    return True
                le = a[i].key <= pivot.key
                memcpy(&x, &a[i], sizeof(uint64_t))
                memcpy(&y, &a[m], sizeof(uint64_t))
                mask = (x ^ y) & (<uint64_t> 0 - <uint64_t> le)
                y ^= mask
                x ^= mask
                memcpy(&a[m], &y, sizeof(uint64_t))
                memcpy(&a[i], &x, sizeof(uint64_t))
                m += le
        else:
            for i in range(lo, hi):
                if (i & LOOK_MASK) == LOOK_MASK and interrupted(intr):
                    return True
                if not before(&pivot, &a[i]):
                    if i != m:
                        swap_items(a, i, m)
                    m += 1
        q = m - 1
        j = m - 1
        while j >= lo:
            if (j & LOOK_MASK) == LOOK_MASK and interrupted(intr):
                return True
            if same(&a[j], &pivot):
                if j != q:
                    swap_items(a, j, q)
                q -= 1
            j -= 1
        # [lo, q] and [m+1, hi] are disjoint from positions m and hi, so the swap
        # may come before sorting [lo, q] without changing the result.
        if m != hi:
            swap_items(a, m, hi)
        # Push the larger range first: the stack stays O(log n) deep.
        if q - lo > hi - m - 1:
            stack_lo[top] = lo; stack_hi[top] = q; top += 1
            stack_lo[top] = m + 1; stack_hi[top] = hi; top += 1
        else:
            stack_lo[top] = m + 1; stack_hi[top] = hi; top += 1
            stack_lo[top] = lo; stack_hi[top] = q; top += 1
    return False


cdef void radix_sort_keys(const RankItem* src, RankItem* tmp, RankItem* out, Py_ssize_t n,
                          Interrupt* intr) noexcept nogil:
    """Sort n (key, case) items by key from src into out (src may be out; tmp
    is scratch of n items, out and tmp may not overlap src otherwise): LSD
    radix, 11 bits a pass (stable). One pass counts the three digits; a digit
    that is the same in every item is skipped (its pass would move nothing),
    and the passes alternate between tmp and out so that the last one writes
    out (no copy, unless src is out and an odd number of passes run). Signal
    handlers run every 65,536 items (a root's sort takes tens of ms a pass);
    the sort always completes, and Ctrl-C's stop is seen by the caller's next
    look."""
    cdef uint32_t count[3][2048]       # (24 kB of stack: n < 2**31, case ids are int32)
    cdef int shifts[3]
    cdef Py_ssize_t i, total, c
    cdef int p, n_passes = 0, shift
    cdef uint32_t key
    cdef const RankItem* from_ = src
    cdef RankItem* dst
    cdef RankItem item
    cdef Py_ssize_t j
    if n <= 48:
        if out != src:
            memcpy(out, src, n * sizeof(RankItem))
        for i in range(1, n):
            item = out[i]
            j = i - 1
            while j >= 0 and out[j].key > item.key:
                out[j + 1] = out[j]
                j -= 1
            out[j + 1] = item
        return
    memset(count, 0, sizeof(count))
    for i in range(n):
        hear_at(intr, i)
        key = src[i].key
        count[0][key & 2047] += 1
        count[1][(key >> 11) & 2047] += 1
        count[2][key >> 22] += 1
    key = src[0].key
    for p in range(3):
        if count[p][(key >> (11 * p)) & 2047] != n:
            shifts[n_passes] = p
            n_passes += 1
    for p in range(n_passes):
        # The last pass writes out: from the end, out, tmp, out... (in place:
        # tmp first, then out, and a copy back if the last lands in tmp).
        if src == out:
            dst = tmp if p % 2 == 0 else out
        else:
            dst = out if (n_passes - 1 - p) % 2 == 0 else tmp
        shift = 11 * shifts[p]
        total = 0
        for i in range(2048):
            c = count[shifts[p]][i]
            count[shifts[p]][i] = <uint32_t> total
            total += c
        for i in range(n):
            hear_at(intr, i)
            c = (from_[i].key >> shift) & 2047
            dst[count[shifts[p]][c]] = from_[i]
            count[shifts[p]][c] += 1
        from_ = dst
    if from_ != out:
        i = 0
        while i < n:
            interrupted(intr)
            memcpy(&out[i], &from_[i], min(n - i, <Py_ssize_t> LOOK_MASK + 1) * sizeof(RankItem))
            i += LOOK_MASK + 1


cdef inline bint float32_key(double x, uint32_t* key) noexcept nogil:
    """A key of x in the values' order (equal for equal values; float32_value
    gives x back) if x is a float32 value other than -0.0, as every value of a
    float32 fit is; False otherwise (NaN too)."""
    cdef float f = <float> x
    cdef uint32_t bits
    if <double> f != x:
        return False
    memcpy(&bits, &f, sizeof(uint32_t))
    if bits == 0x80000000u:
        return False            # -0.0 == 0.0: their keys would differ
    key[0] = ~bits if bits >> 31 else bits | 0x80000000u
    return True


cdef inline double float32_value(uint32_t key) noexcept nogil:
    cdef uint32_t bits = key & 0x7FFFFFFFu if key >> 31 else ~key
    cdef float f
    memcpy(&f, &bits, sizeof(uint32_t))
    return <double> f


# Ranges at least this long are radix sorted first (sort_range).
cdef Py_ssize_t RADIX_MIN = 256


cdef int radix_sorted(Work* w, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """w.rankbuf[lo..hi]'s keyed items sorted by key into w.ranktmp[0..n) (radix,
    linear; w.rankbuf is left as it is), and w.sortbuf's first n int32 the
    running count of equal neighbours (quicksort_items's ties); 1 if the keys
    are distinct, 0 if two are equal, -1 when interrupted. Distinct values have
    one sorted order, the one R8's quicksort yields too; only the order of
    equal values is the quicksort's own."""
    cdef Py_ssize_t n = hi - lo + 1, i
    cdef RankItem* out = w.ranktmp
    cdef int32_t* ties = <int32_t*> w.sortbuf
    # The case array's SortItem buffer (16 bytes a case) is the radix's scratch,
    # then the ties' (4 bytes a case).
    radix_sort_keys(&w.rankbuf[lo], <RankItem*> w.sortbuf, out, n, w.data.intr)
    if interrupted(w.data.intr):
        return -1
    ties[0] = 0
    for i in range(1, n):
        if stop_at(w.data, i):
            return -1
        ties[i] = ties[i - 1] + (out[i].key == out[i - 1].key)
    return ties[n - 1] == 0


cdef bint sort_range(Work* w, const float* values, Py_ssize_t lo, Py_ssize_t hi,
                     bint keyed) noexcept nogil:
    """Sort the cases of [lo, hi] by their value of one continuous attribute in
    the order of Release 8's quicksort, whose order of equal values decides
    binary32 sums, into w.sortbuf and the case array. keyed: w.rankbuf[lo..hi]
    holds the cases' values keyed as 8-byte items (float32_key), radix sorted
    where they are distinct, else by the quicksort; otherwise (a value is not a
    float32 value) the quicksort runs on the values themselves. True when
    interrupted before the case array was written (it is left as it was); its
    writing runs to the end."""
    cdef Py_ssize_t i
    cdef SortItem* a = w.sortbuf
    cdef RankItem* items = w.rankbuf
    cdef RankItem* done
    cdef Py_ssize_t off = 0
    cdef Interrupt* intr = w.data.intr
    cdef int distinct
    cdef int32_t c
    if keyed:
        if hi - lo + 1 < RADIX_MIN:
            if quicksort_items(items, lo, hi, intr, NULL, NULL, 0):
                return True
            done = items
        else:
            distinct = radix_sorted(w, lo, hi)
            if distinct < 0:
                return True
            if distinct:
                done = w.ranktmp
                off = lo
            # Only the ranges with equal values partitioned, the rest copied.
            elif quicksort_items(items, lo, hi, intr, w.ranktmp, <int32_t*> w.sortbuf, lo):
                return True
            else:
                done = items
        for i in range(lo, hi + 1):
            hear_at(intr, i)
            c = done[i - off].case
            w.cases[i] = c
            a[i].case = c
            a[i].value = float32_value(done[i - off].key)
        return False
    for i in range(lo, hi + 1):
        if stop_at(w.data, i):
            return True
        a[i].case = w.cases[i]
        a[i].value = values[w.cases[i]]
    if quicksort_items(a, lo, hi, intr, NULL, NULL, 0):
        return True
    for i in range(lo, hi + 1):
        hear_at(intr, i)
        w.cases[i] = a[i].case
    return False


# ---------------------------------------------------------------------------
# Gathering the branches of a test with many values
#
# C4.5 gathers each branch's cases by scanning all the node's known cases and
# swapping the matching ones to the front (group above): B scans for B branches,
# quadratic for a feature with thousands of categories. The same swaps can be made
# without the scan: a gather swaps the matching cases in the order of their current
# positions, each with the case at the write position. So each branch keeps the
# list of its cases, and the positions of all cases are tracked; a gather sorts its
# list by position and makes exactly Release 8's swaps.

# Tests with at least this many branches are gathered from lists.
cdef Py_ssize_t MANY_BRANCHES = 24


cdef Py_ssize_t branch_lists(Work* w, const Test* t, Py_ssize_t n_branches,
                             Py_ssize_t first_known, Py_ssize_t hi) noexcept nogil:
    """Build the branch lists of the known cases [first_known, hi] on the arena;
    returns their offset (-1 when memory runs out or when interrupted: then
    gather by scanning, which stops at its first look)."""
    cdef Py_ssize_t n = hi - first_known + 1, need = n_branches + 2 + n, cap, i, base, v
    cdef int64_t* grown
    if w.pos_of == NULL:                 # allocated on the first many-valued test
        w.pos_of = <int32_t*> calloc(w.data.n_cases + 1, sizeof(int32_t))
        if w.pos_of == NULL:
            return -1
    if w.arena_top + need > w.arena_cap:
        cap = 2 * (w.arena_top + need)
        grown = <int64_t*> realloc(w.arena, cap * sizeof(int64_t))
        if grown == NULL:
            return -1
        w.arena = grown
        w.arena_cap = cap
    base = w.arena_top
    w.arena_top += need
    # arena[base + v] (v = 0..B+1): start of branch v's list (counting sort).
    memset(&w.arena[base], 0, (n_branches + 2) * sizeof(int64_t))
    for i in range(first_known, hi + 1):
        if stop_at(w.data, i):
            w.arena_top = base
            return -1
        w.arena[base + outcome(w.data, t, w.cases[i]) + 1] += 1
    w.arena[base] = base + n_branches + 2
    for v in range(1, n_branches + 2):
        w.arena[base + v] += w.arena[base + v - 1]
    for i in range(first_known, hi + 1):
        if stop_at(w.data, i):
            w.arena_top = base      # (pos_of's entries written are right)
            return -1
        v = outcome(w.data, t, w.cases[i])
        w.arena[w.arena[base + v]] = w.cases[i]
        w.arena[base + v] += 1
        w.pos_of[w.cases[i]] = <int32_t> i
    # The fill moved every start to the next list's: shift them back.
    for v in range(n_branches + 1, 0, -1):
        w.arena[base + v] = w.arena[base + v - 1]
    w.arena[base] = base + n_branches + 2
    return base


cdef Py_ssize_t gather_branch(Work* w, Py_ssize_t lists, Py_ssize_t v,
                              Py_ssize_t first_known) noexcept nogil:
    """Release 8's gather of branch v (group(v, first_known, hi)) from its list."""
    cdef Py_ssize_t start = w.arena[lists + v], end = w.arena[lists + v + 1]
    cdef Py_ssize_t n = end - start, j, p = first_known, i
    cdef RankItem* items = w.rankbuf
    cdef int32_t c, other
    for j in range(n):
        hear_at(w.data.intr, j)
        items[j].case = <int32_t> w.arena[start + j]
        items[j].key = <uint32_t> w.pos_of[items[j].case]
    radix_sort_keys(items, w.ranktmp, items, n, w.data.intr)
    for j in range(n):
        hear_at(w.data.intr, j)
        c = items[j].case
        i = w.pos_of[c]
        if i != p:
            other = w.cases[p]
            w.cases[i] = other
            w.cases[p] = c
            w.pos_of[other] = <int32_t> i
            w.pos_of[c] = <int32_t> p
        p += 1
    return p - 1


# ---------------------------------------------------------------------------
# Evaluating one attribute at a node

cdef inline double cut_scan_step(Work* w, Py_ssize_t k, int32_t cls, double wt,
                                 double* low) noexcept nogil:
    """Move one case from the right side of the cut to the left (§5.2 step 1)."""
    cdef bint f32 = w.data.f32
    low[0] = rnd(f32, low[0] + wt)
    w.freq[k + cls] = rnd(f32, w.freq[k + cls] + wt)
    w.freq[2 * k + cls] = rnd(f32, w.freq[2 * k + cls] - wt)
    return low[0]


cdef inline void evaluate_cut(Work* w, Py_ssize_t k, double u, double low, double known,
                              double unknown_frac, double base, double total,
                              double below, double above, CutScan* scan) noexcept nogil:
    """Gain of the cut between the values below and above (§5.2), then keep_cut."""
    cdef bint f32 = w.data.f32
    cdef double g
    w.totals[0] = u
    w.totals[1] = low
    w.totals[2] = rnd(f32, known - low)
    g = split_gain(f32, w.freq, w.totals, 2, k, known, unknown_frac, base,
                   w.min_objs, w.nlogn, w.table_n)
    keep_cut(w, g, total, below, above, scan)


cdef inline double keep_margin(bint f32, double best) noexcept nogil:
    """How far below the best gain a cut may lie and still be chosen. float32:
    choose_cut takes the first cut of largest rnd(g - penalty), and two gains
    below the best that round to the same binary32 value differ by less than
    its ulp, at most 2**-23 of the best (a cut whose penalised gain is not
    positive is never chosen): twice that (and subnormals' ulp). Kept cuts cost
    40 bytes each: a flat gain curve (a feature of no use) keeps few, not all.
    float64: 1e-12."""
    if f32:
        return fabs(best) * 2.384185791015625e-07 + 1.4e-42
    return 1e-12


cdef inline void keep_cut(Work* w, double g, double total, double below, double above,
                          CutScan* scan) noexcept nogil:
    """Count a cut of gain g (w.totals holding its outcome weights). Only the cuts
    whose gain is within a rounding margin of the best so far are kept (with their
    split info), since only they can be chosen after the common MDL penalty."""
    cdef bint f32 = w.data.f32
    cdef double margin
    cdef Py_ssize_t j, kept
    scan.tries += 1
    if g > scan.best_gain:
        scan.best_gain = g
        margin = keep_margin(f32, g)
        kept = 0
        for j in range(scan.kept):          # forget the cuts now out of reach
            if w.cand_gain[j] >= g - margin:
                w.cand_gain[kept] = w.cand_gain[j]
                w.cand_split[kept] = w.cand_split[j]
                w.cand_below[kept] = w.cand_below[j]
                w.cand_above[kept] = w.cand_above[j]
                w.cand_pos[kept] = w.cand_pos[j]
                kept += 1
        scan.kept = kept
    if g < scan.best_gain - keep_margin(f32, scan.best_gain):
        return
    if scan.kept == w.cand_cap and grow_candidates(w) < 0:
        scan.failed = True
        return
    j = scan.kept
    w.cand_gain[j] = g
    w.cand_split[j] = rnd(f32, total_info(f32, w.totals, 3, 1, w.nlogn, w.table_n) / total)
    w.cand_below[j] = below
    w.cand_above[j] = above
    w.cand_pos[j] = <double> scan.position
    scan.kept = j + 1


cdef inline void forget_phi(Work* w, Py_ssize_t k) noexcept nogil:
    """The float64 list scan starts (or restarts) with no n*log2(n) cached:
    every class counts as moved, every cached term as 0."""
    cdef Py_ssize_t c
    memset(w.phi, 0, 2 * k * sizeof(double))
    for c in range(k):
        w.phi_dirty[c] = 1
        w.moved[c] = <int32_t> c
    w.n_moved = k
    w.phi_sum = 0.0
    w.phi_updates = 0


cdef inline void move_case(Work* w, Py_ssize_t k, int32_t cls, double wt,
                           double* low) noexcept nogil:
    """The float64 list scan's step: one case from the right side of the cut to
    the left (the additions of cut_scan_step), its class marked as moved."""
    low[0] = low[0] + wt
    w.freq[k + cls] = w.freq[k + cls] + wt
    w.freq[2 * k + cls] = w.freq[2 * k + cls] - wt
    if not w.phi_dirty[cls]:
        w.phi_dirty[cls] = 1
        w.moved[w.n_moved] = cls
        w.n_moved += 1


# The running sum of the cached terms is summed again after this many changes,
# which bounds its drift (see estimated_gain).
cdef Py_ssize_t PHI_RESUM = 64


cdef inline void refresh_phi(Work* w, Py_ssize_t k) noexcept nogil:
    """Cache n*log2(n) of the moved classes' counts (rows 1 and 2 of w.freq) and
    keep w.phi_sum, the sum of all 2k cached terms, up to date by their changes."""
    cdef Py_ssize_t c, j
    cdef double a, b, s
    cdef double* phi = w.phi
    while w.n_moved > 0:
        w.n_moved -= 1
        c = w.moved[w.n_moved]
        w.phi_dirty[c] = 0
        a = n_log2_n(False, w.freq[k + c], w.nlogn, w.table_n)
        b = n_log2_n(False, w.freq[2 * k + c], w.nlogn, w.table_n)
        w.phi_sum += (a - phi[c]) + (b - phi[k + c])
        phi[c] = a
        phi[k + c] = b
        w.phi_updates += 1
    if w.phi_updates >= PHI_RESUM:
        s = 0.0
        for j in range(2 * k):
            s += phi[j]
        w.phi_sum = s
        w.phi_updates = 0


cdef inline bint reasonable_cut(Work* w, double u, double low, double known) noexcept nogil:
    """Set w.totals to a cut's outcome weights; whether two outcomes reach
    MINOBJS (else the cut's gain is -EPSILON, as split_gain has it)."""
    w.totals[0] = u
    w.totals[1] = low
    w.totals[2] = known - low
    return known != 0 and low >= w.min_objs and known - low >= w.min_objs


cdef inline double estimated_gain(Work* w, Py_ssize_t k, double low, double known,
                                  double unknown_frac, double base) noexcept nogil:
    """A reasonable cut's gain (§5.2), estimated in a few terms whatever k: from
    the running sum of the cached n*log2(n) terms (refresh_phi) and the two
    sides' weights. Its sum drifts from the exact one by at most PHI_RESUM
    changes of a few ulps of terms of at most known * log2(known) each (the
    exact sums err by as much), a gain error of order 1e-13 * log2(known):
    GAIN_ROUNDING covers it a thousand times over."""
    refresh_phi(w, k)
    return (1.0 - unknown_frac) * (base - (n_log2_n(False, low, w.nlogn, w.table_n)
                                          + n_log2_n(False, known - low, w.nlogn,
                                                     w.table_n)
                                          - w.phi_sum) / known)


cdef inline void exact_cut(Work* w, Py_ssize_t k, double unknown_frac, double base,
                           double known, double total, double below, double above,
                           CutScan* scan) noexcept nogil:
    """keep_cut of a reasonable cut's gain, computed as split_gain does: the sums
    run over the same terms in the same order as total_info's, so the gain has
    the same bits; only the logarithms of counts that did not move since they
    were cached (w.phi, refresh_phi) are not taken again."""
    cdef Py_ssize_t v, c
    cdef double info = 0.0, s, t
    cdef double* phi = w.phi
    refresh_phi(w, k)
    for v in range(2):
        s = 0.0
        t = 0.0
        for c in range(k):
            s = s + phi[v * k + c]
            t = t + w.freq[(v + 1) * k + c]
        info = info + (n_log2_n(False, t, w.nlogn, w.table_n) - s)
    keep_cut(w, (1.0 - unknown_frac) * (base - info / known), total, below, above, scan)


cdef inline void list_cut(Work* w, Py_ssize_t k, double u, double low, double known,
                          double unknown_frac, double base, double total,
                          double below, double above, CutScan* scan) noexcept nogil:
    """evaluate_cut for the float64 list scan (the same bits: exact_cut). Most
    cuts cannot be kept: keep_cut drops a gain more than keep_margin below the
    best so far. The estimate of the gain rejects them before the exact sums
    (2k terms in order); a rejected cut is counted, as keep_cut counts it."""
    if not reasonable_cut(w, u, low, known):
        keep_cut(w, -EPSILON, total, below, above, scan)
        return
    if (estimated_gain(w, k, low, known, unknown_frac, base)
            < scan.best_gain - 1e-12 - GAIN_ROUNDING):
        scan.tries += 1
        return
    exact_cut(w, k, unknown_frac, base, known, total, below, above, scan)


cdef inline void scan_step_f32(Work* w, Py_ssize_t k, int32_t cls, double wt,
                               double* low) noexcept nogil:
    """cut_scan_step (Release 8's rounded additions), its class marked as moved:
    its two n*log2(n) terms are taken again before the next cut (cut_f32)."""
    cut_scan_step(w, k, cls, wt, low)
    if not w.phi_dirty[cls]:
        w.phi_dirty[cls] = 1
        w.moved[w.n_moved] = cls
        w.n_moved += 1


cdef inline void cut_f32(Work* w, Py_ssize_t k, double u, double low, double known,
                         double unknown_frac, double base, double total,
                         double below, double above, CutScan* scan) noexcept nogil:
    """evaluate_cut in float32, the same bits: split_gain's steps in its order,
    each class's n*log2(n) on both sides taken from w.phi, where it was taken (by
    the same call, of the same count) when the class last moved; only the moved
    classes' logarithms are taken again, not 2k a cut (forget_phi first)."""
    cdef Py_ssize_t v, c
    cdef double info = 0.0, s, t, g
    cdef double* phi = w.phi
    cdef double* freq = w.freq
    w.totals[0] = u
    w.totals[1] = low
    w.totals[2] = rnd(True, known - low)
    if known == 0 or w.totals[1] < w.min_objs or w.totals[2] < w.min_objs:
        g = unusable(True)                 # (split_gain: two outcomes reach MINOBJS)
    else:
        while w.n_moved > 0:
            w.n_moved -= 1
            c = w.moved[w.n_moved]
            w.phi_dirty[c] = 0
            phi[c] = n_log2_n(True, freq[k + c], w.nlogn, w.table_n)
            phi[k + c] = n_log2_n(True, freq[2 * k + c], w.nlogn, w.table_n)
        for v in range(2):
            s = 0.0
            t = 0.0
            for c in range(k):
                s = rnd(True, s + phi[v * k + c])
                t = rnd(True, t + freq[(v + 1) * k + c])
            info = rnd(True, info + rnd(True, n_log2_n(True, t, w.nlogn, w.table_n) - s))
        g = rnd(True, rnd(True, 1.0 - unknown_frac) * rnd(True, base - rnd(True, info / known)))
    keep_cut(w, g, total, below, above, scan)


cdef int grow_candidates(Work* w) noexcept nogil:
    cdef Py_ssize_t cap = doubled(w.cand_cap, w.cand_cap + 1), n = w.cand_cap
    if (resize(<void**> &w.cand_gain, n, cap, sizeof(double), False) < 0
            or resize(<void**> &w.cand_split, n, cap, sizeof(double), False) < 0
            or resize(<void**> &w.cand_below, n, cap, sizeof(double), False) < 0
            or resize(<void**> &w.cand_above, n, cap, sizeof(double), False) < 0
            or resize(<void**> &w.cand_pos, n, cap, sizeof(double), False) < 0):
        return -1
    w.cand_cap = cap
    return 0


cdef inline double min_split_weight(Work* w, double known) noexcept nogil:
    """MinSplit (§5.1 step 5): a tenth of the known weight per class, in [MINOBJS, 25]."""
    cdef double m = rnd(w.data.f32, 0.10 * known / w.data.n_classes)
    if m <= w.min_objs:
        return w.min_objs
    if m > 25:
        return 25.0
    return m


cdef void choose_cut(Work* w, Py_ssize_t f, CutScan* scan, double total) noexcept nogil:
    """The cut of maximum MDL-penalised gain, the first on ties (§5.3)."""
    cdef const Dataset* d = w.data
    cdef bint f32 = d.f32
    cdef Py_ssize_t j, best_j = -1
    cdef double penalty, best = 0.0, val, below, above
    w.tries[f] = scan.tries
    if scan.failed:                     # out of memory: no cut (never in practice)
        return
    if scan.tries > 0:
        w.raw_gain[f] = scan.best_gain
    # Release 8's MDL correction: log2(number of cuts tried) / N off every gain.
    penalty = rnd(f32, log2_of(f32, <double> scan.tries) / total) if d.mdl else 0.0
    for j in range(scan.kept):
        val = rnd(f32, w.cand_gain[j] - penalty)
        if val > best:
            best = val
            best_j = j
    if best_j < 0:
        return
    w.gain[f] = best
    w.info[f] = w.cand_split[best_j]
    w.cut_at[f] = <Py_ssize_t> w.cand_pos[best_j]
    below, above = w.cand_below[best_j], w.cand_above[best_j]
    if w.far != NULL:
        # The ranks either side (cut_side): their values are read for the
        # feature chosen alone (settle_bar), a few reads far apart each.
        w.bar_at[2 * f] = below
        w.bar_at[2 * f + 1] = above
        return
    set_bar(w, f, below, above)


cdef void settle_bar(Work* w, Py_ssize_t f) noexcept nogil:
    """Take w.bar[f] where choose_cut noted only the ranks either side of the cut
    (float64 on the lists: the values read by rank, sorted_at)."""
    if w.bar_at[2 * f] < 0:
        return
    set_bar(w, f, sorted_at(w.data, f, <Py_ssize_t> w.bar_at[2 * f]),
            sorted_at(w.data, f, <Py_ssize_t> w.bar_at[2 * f + 1]))
    w.bar_at[2 * f] = -1.0


cdef inline void set_bar(Work* w, Py_ssize_t f, double below, double above) noexcept nogil:
    """w.bar[f]: the midpoint of the values either side of the chosen cut."""
    cdef bint f32 = w.data.f32
    if not f32 and isinf(below + above):
        # Two values beyond half of float64's range: their sum overflows, and a
        # bar at infinity would send every case down the first branch.
        w.bar[f] = below / 2 + above / 2
    else:
        w.bar[f] = rnd(f32, rnd(f32, below + above) / 2)


cdef inline double weight_of(const double* cw, int32_t case) noexcept nogil:
    """A case's weight at the node: cw[case], or 1 where every case weighs 1."""
    return 1.0 if cw == NULL else cw[case]


# Entries ahead whose value, class (and weight) are fetched early: a list reads
# them by rank and case id, below the root from rows spread over whole columns.
cdef Py_ssize_t AHEAD = 64


# A class code as a scan reads it: Dataset.y's, or one byte (Work.y8).
ctypedef fused ClassCode:
    uint8_t
    int32_t


# A node's list of a continuous feature, as its grower holds it (c45/_presorted):
# the rank alone (the top of the tree; the case from the feature's order, cs) or
# the rank and the case (a set-aside subtree's).
ctypedef fused ListEntry:
    Valued
    Pair


cdef inline Valued key_of(const ListEntry* e, Py_ssize_t i) noexcept nogil:
    """The key of entry i (list_values(d, f)[key] is its value)."""
    if ListEntry is Pair:
        return e[i].key
    else:
        return e[i]


cdef inline int32_t entry_case(const ListEntry* e, const uint32_t* cs,
                               Py_ssize_t i) noexcept nogil:
    """The case of entry i (cs: list_cases, for an entry of the rank alone)."""
    if ListEntry is Pair:
        return e[i].case
    else:
        return case_of(cs, e[i])


cdef inline void fetch_ahead(const double* vals, Py_ssize_t vstride, const uint8_t* far,
                             const uint32_t* cs, const ClassCode* y, const double* cw,
                             const ListEntry* e, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """Start fetching the value (far: its Dataset.far byte instead; vstride:
    Work.vstride), class and weight of entry i + AHEAD of e[.. n), and the case
    id (cs: list_cases) of entry i + 2 AHEAD, which the class of that entry
    needs first (an entry of the rank alone)."""
    cdef int32_t c
    if ListEntry is Valued:
        if cs != NULL and i + 2 * AHEAD < n:
            C45_PREFETCH(&cs[e[i + 2 * AHEAD]])
    if i + AHEAD < n:
        if far != NULL:
            C45_PREFETCH(&far[key_of(e, i + AHEAD)])
        elif vstride == 0:
            C45_PREFETCH(&vals[key_of(e, i + AHEAD)])
        else:
            C45_PREFETCH(<const char*> vals + key_of(e, i + AHEAD) * vstride)
        c = entry_case(e, cs, i + AHEAD)
        C45_PREFETCH(&y[c])
        if cw != NULL:
            C45_PREFETCH(&cw[c])


cdef inline void fetch_case_ahead(const int32_t* y, const double* cw, const SortItem* a,
                                  Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """Start fetching the class and weight of item i + AHEAD of a sorted case
    array a[.. n) (its values it carries)."""
    if i + AHEAD < n:
        C45_PREFETCH(&y[a[i + AHEAD].case])
        if cw != NULL:
            C45_PREFETCH(&cw[a[i + AHEAD].case])


cdef inline double val_at(const Work* w, const double* vals, Py_ssize_t key) noexcept nogil:
    """The value of a list entry's key: vals[key] (float64's sorted values), or
    float32 on the lists the row's, w.vstride bytes a row (listed_value)."""
    if w.vstride == 0:
        return vals[key]
    return listed_value(vals, w.vstride, w.vsingle, key)


cdef inline bint cut_after(Work* w, const double* vals, const ListEntry* e,
                           Py_ssize_t i) noexcept nogil:
    """Whether a cut lies between entries i and i + 1 of a list in value order:
    their values more than 1e-5 apart (vals: list_values; w.far: by ranks)."""
    if w.far != NULL:
        return ranks_apart(w.data, w.far, w.feat, key_of(e, i), key_of(e, i + 1))
    return val_at(w, vals, key_of(e, i)) < val_at(w, vals, key_of(e, i + 1)) - 1e-5


cdef inline double cut_side(Work* w, const double* vals, const ListEntry* e,
                            Py_ssize_t i) noexcept nogil:
    """What a kept cut notes of entry i beside it: its value, or with w.far its
    rank (choose_cut reads the values of the chosen cut's two alone)."""
    if w.far != NULL:
        return <double> key_of(e, i)
    return val_at(w, vals, key_of(e, i))


ctypedef fused Sorted:
    SortItem        # R8's case array, sorted (sort_range)
    Valued          # a node's presorted list (float32 on the lists), ListEntry's
    Pair


cdef inline int32_t case_at(const uint32_t* cs, const Sorted* a, Py_ssize_t i) noexcept nogil:
    """The case of the i-th item (cs: a list's list_cases)."""
    if Sorted is SortItem:
        return a[i].case
    else:
        return entry_case(a, cs, i)


cdef inline double value_at(const Work* w, const double* vals, const Sorted* a,
                            Py_ssize_t i) noexcept nogil:
    """The value of the i-th case: a list's entry says where it is in vals
    (list_values, val_at), a sorted case array's carries it."""
    if Sorted is SortItem:
        return a[i].value
    else:
        return val_at(w, vals, key_of(a, i))


cdef inline void scan_cuts(Work* w, Py_ssize_t f, const Sorted* a,
                           const uint32_t* cs, const double* vals, Py_ssize_t n,
                           const double* cw, double u, double known,
                           double unknown_frac, double total) noexcept nogil:
    """The cut scan of §5.2 in Release 8's arithmetic over the node's known cases
    in value order, a[0 .. n) (vals, cs: a list's values and cases, list_values,
    list_cases; cw: each case's weight, NULL where all weigh 1),
    freq's row 0 holding the unknown cases' class weights: the weights of the
    right side, then each cut between two values, then the choice (§5.3). A
    node of BLOCKED_MIN known cases or more is scanned by blocks (scan_blocks),
    R8's case array too."""
    cdef const Dataset* d = w.data
    cdef bint f32 = d.f32
    cdef Py_ssize_t k = d.n_classes, i
    cdef CutScan scan = CutScan(0, 0, -1e300, False, 0)
    cdef double* freq = w.freq
    cdef double base, min_split, low = 0.0
    cdef int32_t cls, c
    cdef Py_ssize_t cells = 0
    for i in range(n):
        if stop_at(d, i):
            return              # no cut chosen: the gain stays unusable
        if Sorted is SortItem:
            fetch_case_ahead(d.y, cw, a, i, n)
        else:
            fetch_ahead(vals, w.vstride, w.far, cs, d.y, cw, a, i, n)
        c = case_at(cs, a, i)
        cls = d.y[c]
        freq[2 * k + cls] = rnd(f32, freq[2 * k + cls] + weight_of(cw, c))
    base = rnd(f32, total_info(f32, freq + 2 * k, k, 1, w.nlogn, w.table_n) / known)
    min_split = min_split_weight(w, known)
    if (n >= BLOCKED_MIN and k <= BLOCKED_MAX_CLASSES
            and scan_blocks(w, a, cs, vals, cw, 0, n, k, u, low, known, min_split,
                            unknown_frac, base, total, &scan)):
        choose_cut(w, f, &scan, total)
        return
    forget_phi(w, k)
    # A cut costs k class weights (thousands of classes: far more than a case's
    # step), so this scan looks for Ctrl-C by the cells it has done.
    for i in range(n - 1):
        if look_by_cells(&cells, 1, d.intr):
            return
        if Sorted is SortItem:
            fetch_case_ahead(d.y, cw, a, i, n)
        else:
            fetch_ahead(vals, w.vstride, w.far, cs, d.y, cw, a, i, n)
        c = case_at(cs, a, i)
        if f32:
            scan_step_f32(w, k, d.y[c], weight_of(cw, c), &low)
        else:
            cut_scan_step(w, k, d.y[c], weight_of(cw, c), &low)
        if low < min_split:
            continue
        if low > rnd(f32, known - min_split):
            break
        if value_at(w, vals, a, i) < value_at(w, vals, a, i + 1) - 1e-5:
            cells += 2 * k
            if f32:
                cut_f32(w, k, u, low, known, unknown_frac, base, total,
                        value_at(w, vals, a, i), value_at(w, vals, a, i + 1), &scan)
            else:
                evaluate_cut(w, k, u, low, known, unknown_frac, base, total,
                             value_at(w, vals, a, i), value_at(w, vals, a, i + 1), &scan)
    choose_cut(w, f, &scan, total)


cdef inline void start_evaluation(Work* w, Py_ssize_t f, bint f32) noexcept nogil:
    """A continuous feature's evaluation starts unusable, its class weights
    (unknown, left, right: w.freq's first three rows) at zero."""
    memset(w.freq, 0, 3 * w.data.n_classes * sizeof(double))
    w.far = NULL
    w.vstride = list_stride(w.data, f) if w.data.listed else 0
    w.vsingle = list_single(w.data)
    w.bar_at[2 * f] = -1.0
    w.gain[f] = unusable(f32)
    w.info[f] = 0.0
    w.raw_gain[f] = unusable(f32)
    w.tries[f] = 0


cdef inline bint known_share(Work* w, bint f32, double total, double* u,
                             double* known, double* unknown_frac) noexcept nogil:
    """R8's unknown weight u (w.freq's row 0 summed), known weight and unknown
    fraction of a continuous feature at a node; False when too little is known
    to split (under 2 MINOBJS)."""
    cdef Py_ssize_t j
    u[0] = 0.0
    for j in range(w.data.n_classes):
        u[0] = rnd(f32, u[0] + w.freq[j])
    known[0] = rnd(f32, total - u[0])
    unknown_frac[0] = rnd(f32, 1.0 - rnd(f32, known[0] / total))
    return not known[0] < 2 * w.min_objs


cdef void eval_continuous(Work* w, Py_ssize_t f, Py_ssize_t lo, Py_ssize_t hi,
                          double total) noexcept nogil:
    """Best cut of a continuous attribute (§5): sets gain (MDL-penalised), info, bar.
    Release 8's way, for precision="float32": unknowns swapped to the front, the
    known cases sorted by R8's quicksort, their order carried to the next step.
    The node's weight is summed again here, in the order the previous attribute
    left the cases: with fractional weights that float32 sum can differ in its last
    bit from the node's (a MINOBJS or MinSplit test at the boundary then goes the
    other way); R8 recounts it so (the R8 corpus: r0044, r0014, r0045)."""
    cdef const Dataset* d = w.data
    cdef bint f32 = d.f32
    cdef Py_ssize_t k = d.n_classes, i, j, first
    cdef const float* values = d.cont + <Py_ssize_t> d.col[f] * d.n_cases
    cdef double* freq = w.freq
    cdef double u = 0.0, known, unknown_frac, x
    cdef RankItem* items = w.rankbuf
    cdef bint keyed = True, summed
    cdef int32_t c
    start_evaluation(w, f, f32)
    # Unknowns to the front, their class weights in row 0; the known cases keyed
    # for the sort in the same pass (each item moves with its case); the node's
    # weight summed in the same pass too, in the order the cases are met (a
    # case's position is read before any swap reaches it: total_weight's order).
    summed = not w.count_mode
    total = 0.0 if summed else <double> (hi - lo + 1)
    first = lo
    for i in range(lo, hi + 1):
        if stop_at(d, i):
            return
        if i + CASES_AHEAD <= hi:
            C45_PREFETCH(&values[w.cases[i + CASES_AHEAD]])
            if summed:
                C45_PREFETCH(&w.weight[w.cases[i + CASES_AHEAD]])
        c = w.cases[i]
        if summed:
            total = rnd(f32, total + w.weight[c])
        x = values[c]
        if isnan(x):
            freq[d.y[c]] = rnd(f32, freq[d.y[c]] + w.weight[c])
            w.cases[i] = w.cases[first]
            w.cases[first] = c
            if first != i:
                items[i] = items[first]
            first += 1
        elif keyed:
            items[i].case = c
            keyed = float32_key(x, &items[i].key)
    if not known_share(w, f32, total, &u, &known, &unknown_frac):
        return
    if sort_range(w, values, first, hi, keyed):
        return                  # no cut chosen: the gain stays unusable
    scan_cuts(w, f, w.sortbuf + first, NULL, NULL, hi - first + 1, w.weight, u, known,
              unknown_frac, total)


cdef void eval_continuous_sums_exact(Work* w, Py_ssize_t f, const ListEntry* e,
                                     Py_ssize_t n, const double* cw,
                                     const double* counts, double total) noexcept nogil:
    """eval_continuous on a node's presorted list, float32 on the lists: with every
    sum exact, the list's order (unknown values in row order, then by value and
    row) gives each of R8's sums the bits its case array does. counts: the node's
    class counts, read where every case weighs 1."""
    cdef const Dataset* d = w.data
    cdef const double* vals = list_values(d, f)
    cdef const uint32_t* cs = list_cases(d, f)
    cdef const int32_t* y = d.y
    cdef bint f32 = d.f32
    cdef Py_ssize_t k = d.n_classes, j, n_unknown = 0
    cdef double* freq = w.freq
    cdef double u = 0.0, known, unknown_frac
    cdef CutScan scan = CutScan(0, 0, -1e300, False, 0)
    cdef double base, min_split
    cdef int32_t c
    cdef bint counted
    start_evaluation(w, f, f32)
    while n_unknown < n and isnan(val_at(w, vals, key_of(e, n_unknown))):
        c = entry_case(e, cs, n_unknown)
        freq[y[c]] = rnd(f32, freq[y[c]] + weight_of(cw, c))
        n_unknown += 1
    if not known_share(w, f32, total, &u, &known, &unknown_frac):
        return
    if cw != NULL or n_unknown > 0:
        scan_cuts(w, f, e + n_unknown, cs, vals, n - n_unknown, cw, u, known, unknown_frac,
                  total)
        return
    # Every case weighs 1 and none is unknown: the class weights are the node's
    # whole counts (exact in binary32, as scan_cuts's rounded sums are), and the
    # scan takes two passes (scan_counts_f32).
    for j in range(k):
        freq[2 * k + j] = counts[j]
    base = rnd(f32, total_info(f32, freq + 2 * k, k, 1, w.nlogn, w.table_n) / known)
    min_split = min_split_weight(w, known)
    if w.y8 != NULL:
        counted = scan_counts_f32(w, e, cs, vals, w.y8, n, k, known, min_split, base, total,
                                  &scan)
    else:
        counted = scan_counts_f32(w, e, cs, vals, y, n, k, known, min_split, base, total,
                                  &scan)
    if counted:
        choose_cut(w, f, &scan, total)
    else:                                  # (out of memory for the notes)
        start_evaluation(w, f, f32)
        scan_cuts(w, f, e, cs, vals, n, cw, u, known, unknown_frac, total)


cdef bint scan_counts_f32(Work* w, const ListEntry* e, const uint32_t* cs,
                          const double* vals, const ClassCode* y, Py_ssize_t n,
                          Py_ssize_t k, double known, double min_split,
                          double base, double total, CutScan* scan) noexcept nogil:
    """scan_cuts's cut scan for float32 on the lists where every case weighs 1 and
    none is unknown (w.freq's row 2 holding the class counts), in two passes:
    scan_estimated's for float32.

    Pass 1 walks the cases once, counts the candidate cuts (Release 8's Tries,
    with the plain scan's window: low from MinSplit to rnd(known - MinSplit))
    and estimates each cut's information x in double from whole counts with
    the table's n*log2(n) terms, as scan_estimated does (off by at most
    GAIN_ROUNDING * known), hence its gain E(c) = base - x / known. Pass 2
    walks the cases again and gives every noted cut within `slack` of the best
    estimate to evaluate_cut: Release 8's binary32 gain g(c), the plain scan's
    bits (whole counts below 2**24: every count and every sum of counts is
    exact in binary32, so both passes see the plain scan's counts), restarting
    from pass 1's last checkpoint before each (scan_estimated's).

    How far g(c) lies from E(c) (u: binary32's unit roundoff, slightly raised
    to cover the growth of a sum's error and the double roundings): g(c) =
    rnd(base - rnd(info / known)) with info = rnd(TI_1 + TI_2), each side's
    TI = rnd(T(side) - s), s = its k terms T(n_c) summed in class order, each
    partial sum rounded. Class c's term is in k - c partial sums, and a
    class's terms on both sides add up to at most T(n_c) (T(x) = x log2 x is
    superadditive), so all the partial sums' roundings together are at most
    u * sum_c (k - c) T(n_c) = u * W. The TIs, info and info / known round
    values of at most T(known) (/ known), and the last subtraction a gain of
    at most |base| + 1e-3 (a split's information is never above the node's).
    So |g(c) - E(c)| <= R = u (W + 3 T(known)) / known + u (|base| + 0.0011)
    + GAIN_ROUNDING (an unusable cut: E = -EPSILON, g = rnd(-EPSILON), 5e-11
    apart).

    Why no kept cut, and no bit of the result, can change: keep_cut keeps,
    whatever cuts it is given in scan order, exactly those of
    g(c) >= G - keep_margin(G), G the largest g it saw (a cut dropped when
    the best rose would be dropped at the end too: best - keep_margin(best)
    only grows with best). The cut of the best estimate E has g >= E - R, so
    the largest g of all cuts G_all >= E - R, and a cut keep_cut would keep
    from the plain scan has E(c) >= g(c) - R >= G_all - keep_margin(G_all) - R
    >= E - 2R - M, M >= keep_margin(G_all) as |G_all| <= |base| + 0.0011 + R.
    Pass 2 evaluates all of these (slack = 2R + M), the cut(s) of G_all among
    them, in scan order: keep_cut sees G = G_all and keeps the same cuts with
    the same gains and split info, and the best gain and Tries are the plain
    scan's. Returns False (nothing done) if the notes or the checkpoints cannot
    be allocated."""
    cdef Py_ssize_t i, j, c, nn = 0, tries = 0, last, left, right, low_n = 0
    cdef Py_ssize_t known_n = <Py_ssize_t> known, since = 0
    cdef Py_ssize_t* lc = w.left_count
    cdef Py_ssize_t* ac = w.all_count
    cdef const double* t = w.nlogn
    cdef double* freq = w.freq
    cdef double* note
    cdef double low = 0.0, est, best = -1e300, x, x_reject = 1e300, terms
    cdef double upper = rnd(True, known - min_split), weighted = 0.0, r, slack
    cdef double u32 = (5.9604644775390625e-08 * (1.0 + 2.0 * (k + 2) * 5.9604644775390625e-08)
                       + 2.3e-16)
    cdef Py_ssize_t every = max(CHECKPOINT_EVERY, 16 * k), n_checks = 0, until = 0
    cdef int32_t* cp = checkpoint_room(w, n, every, k)
    if cp == NULL:
        return False
    if not snap_room(w, 64):
        return False
    for c in range(k):
        lc[c] = 0
        ac[c] = <Py_ssize_t> freq[2 * k + c]
        weighted += <double> (k - c) * t[ac[c]]
    terms = class_terms(lc, ac, k, t)
    r = u32 * (weighted + 3.0 * t[known_n]) / known + u32 * (fabs(base) + 0.0011) + GAIN_ROUNDING
    slack = 2.0 * r + keep_margin(True, fabs(base) + 0.0011 + r)
    # Pass 1. x, a cut's information: beyond x_reject its estimate
    # base - x / known is more than slack below the best one.
    for i in range(n - 1):
        if until == 0:
            keep_checkpoint(cp, &n_checks, lc, k)
            until = every
        until -= 1
        fetch_ahead(vals, w.vstride, w.far, cs, y, NULL, e, i, n)
        c = y[entry_case(e, cs, i)]
        left = lc[c]
        right = ac[c] - left
        terms += (t[left + 1] - t[left]) + (t[right - 1] - t[right])
        lc[c] = left + 1
        low_n += 1
        since += 1
        if since == TERMS_RESUM:
            terms = class_terms(lc, ac, k, t)
            since = 0
        low = <double> low_n
        if low < min_split:
            continue
        if low > upper:
            break
        if cut_after(w, vals, e, i):
            tries += 1
            if low >= w.min_objs and known - low >= w.min_objs:
                x = t[low_n] + t[known_n - low_n] - terms
                if x > x_reject:
                    continue
                est = base - x / known
            else:
                est = -EPSILON
            if est < best - slack:
                continue
            if est > best:
                best = est
                x_reject = known * (base - (best - 2 * slack))
            if 2 * nn + 2 > w.snap_cap and not snap_room(w, 2 * w.snap_cap):
                return False
            note = w.snap + 2 * nn
            note[0] = <double> i
            note[1] = est
            nn += 1
    # Pass 2: the noted cuts within reach of the best, Release 8's gain of each.
    note = w.snap
    low = 0.0
    i = 0
    for j in range(nn):
        if note[2 * j + 1] < best - slack:
            continue
        last = <Py_ssize_t> note[2 * j]
        if from_checkpoint(w, cp, n_checks, every, 0, last, &i, ac, k):
            low = <double> i
        while i <= last:              # (whole counts: plain additions are exact)
            c = y[entry_case(e, cs, i)]
            low += 1.0
            freq[k + c] += 1.0
            freq[2 * k + c] -= 1.0
            i += 1
        scan.position = last
        evaluate_cut(w, k, 0.0, low, known, 0.0, base, total, cut_side(w, vals, e, last),
                     cut_side(w, vals, e, last + 1), scan)
    scan.tries = tries
    return True


cdef void eval_continuous_list(Work* w, Py_ssize_t f, const Valued* e, Py_ssize_t width,
                               Py_ssize_t n, const double* cw, const double* counts,
                               double total) noexcept nogil:
    """eval_continuous_entries on a list of `width` words an entry (1: the rank
    alone, 2: a Pair)."""
    if width == 2:
        eval_continuous_entries(w, f, <const Pair*> e, n, cw, counts, total)
    else:
        eval_continuous_entries(w, f, e, n, cw, counts, total)


cdef void eval_continuous_entries(Work* w, Py_ssize_t f, const ListEntry* e, Py_ssize_t n,
                                  const double* cw, const double* counts,
                                  double total) noexcept nogil:
    """The float64 evaluation on a node's case list for feature f (c45/_presorted):
    unknown values first in row order, then the known ones by (value, row), each
    entry the rank of its value, so the scan reads the sorted values in order
    (and each case's class by its id). cw: the
    weight of each case id at the node, NULL when every case weighs 1; counts:
    then the node's class counts (whole numbers). (float32 on the lists: R8's
    arithmetic, eval_continuous_sums_exact.)"""
    cdef const Dataset* d = w.data
    cdef const double* vals = list_values(d, f)
    cdef const uint32_t* cs = list_cases(d, f)
    cdef const int32_t* y = d.y
    cdef Py_ssize_t k = d.n_classes, i, j, n_unknown = 0
    cdef int32_t c
    cdef bint blocked, estimated
    if d.f32:
        eval_continuous_sums_exact(w, f, e, n, cw, counts, total)
        return
    cdef CutScan scan = CutScan(0, 0, -1e300, False, 0)
    cdef double* freq = w.freq
    cdef double u = 0.0, known, unknown_frac, base, min_split, low = 0.0
    start_evaluation(w, f, False)
    w.far = list_far(d, f)
    w.feat = f
    while n_unknown < n and key_of(e, n_unknown) >= d.n_known[f]:
        c = entry_case(e, cs, n_unknown)
        freq[y[c]] += weight_of(cw, c)
        n_unknown += 1
    for j in range(k):
        u += freq[j]
    known = total - u
    unknown_frac = 1.0 - known / total
    if known < 2 * w.min_objs:
        return
    if cw == NULL:
        # Whole counts: the known cases' are the node's less the unknown ones,
        # exactly (no pass over the list).
        for j in range(k):
            freq[2 * k + j] = counts[j] - freq[j]
    else:
        for i in range(n_unknown, n):
            if stop_at(d, i):
                return          # no cut chosen: the gain stays unusable
            fetch_ahead(vals, w.vstride, w.far, cs, y, cw, e, i, n)
            c = entry_case(e, cs, i)
            freq[2 * k + y[c]] += weight_of(cw, c)
    base = total_info(False, freq + 2 * k, k, 1, w.nlogn, w.table_n) / known
    min_split = min_split_weight(w, known)
    if cw == NULL:
        # Each case's class read from one byte where the classes fit (a quarter
        # of Dataset.y's room: a table that stays in a core's cache).
        if w.y8 != NULL:
            estimated = scan_estimated(w, e, cs, vals, w.y8, n_unknown, n, k, u, known,
                                       min_split, unknown_frac, base, total, &scan)
        else:
            estimated = scan_estimated(w, e, cs, vals, y, n_unknown, n, k, u, known,
                                       min_split, unknown_frac, base, total, &scan)
        if estimated:
            choose_cut(w, f, &scan, total)
            return
    if n - n_unknown >= BLOCKED_MIN and k <= BLOCKED_MAX_CLASSES:
        blocked = scan_blocks(w, e, cs, vals, cw, n_unknown, n, k, u, low, known, min_split,
                              unknown_frac, base, total, &scan)
        if blocked:
            choose_cut(w, f, &scan, total)
            return
        # (Out of memory for the block states: the plain scan below.)
    forget_phi(w, k)
    for i in range(n_unknown, n - 1):
        if stop_at(d, i):
            return
        fetch_ahead(vals, w.vstride, w.far, cs, y, cw, e, i, n)
        c = entry_case(e, cs, i)
        move_case(w, k, y[c], weight_of(cw, c), &low)
        if low < min_split:
            continue
        if low > known - min_split:
            break
        if cut_after(w, vals, e, i):
            scan.position = i
            list_cut(w, k, u, low, known, unknown_frac, base, total, cut_side(w, vals, e, i),
                     cut_side(w, vals, e, i + 1), &scan)
    choose_cut(w, f, &scan, total)


# Bound on the rounding error of a computed float64 gain: its terms n*log2(n)
# carry a relative error of a few ulps, so a gain is off by about 1e-15 * log2(N)
# at most; this margin is a million times that.
cdef double GAIN_ROUNDING = 1e-9
# The blocked scan: cuts per block, and the fewest known cases it is used for.
cdef Py_ssize_t BLOCK = 16
# scan_blocks' passes over the blocks look for signals every 4,096 blocks
# (65,536 cases).
cdef Py_ssize_t BLOCKS_LOOK_MASK = 0xFFF
cdef Py_ssize_t BLOCKED_MIN = 256
# With many classes a block's bound costs as much as its cuts: the plain scan.
cdef Py_ssize_t BLOCKED_MAX_CLASSES = 32


cdef inline double f32_gain_rounding(Py_ssize_t k, double known) noexcept nogil:
    """Bound on how far a cut's gain in binary32 (evaluate_cut, float32 on the
    lists: whole counts, so only the criterion's own roundings) lies from its
    exact value: each of the 2k + 4 roundings of the split's information, of
    magnitude known * log2(known) at most, is off by a relative 2**-24, then
    divided by known; the last few, of a gain's magnitude (log2 k at most), as
    much. Twice that, for the bound's own double arithmetic."""
    return (2.0 * (2 * k + 8) * 5.9604644775390625e-08
            * (log(known + 1.0) / LN2 + log(<double> k + 1.0) / LN2 + 1.0) + 1e-9)


cdef inline double phi(double x) noexcept nogil:
    """x * log2(x), 0 for x <= 0: one term of TI."""
    if x <= 0:
        return 0.0
    return x * log(x) / LN2


cdef inline double block_bound(const double* a, const double* b, Py_ssize_t k,
                               bint at_b) noexcept nogil:
    """A lower bound of I = TI(left) + TI(right) over every cut between the recorded
    states a and b (see snapshot for their layout).

    I = C(L) - sum_c B_c(left_c), with C(L) = phi(L) + phi(known - L) and
    B_c(x) = phi(x) + phi(total_c - x), all convex. Between a and b every left_c
    grows. C lies above its tangent at a (or at b), each B_c below its chord from
    a to b, so I lies above a function linear in the moves of each class, whose
    smallest value over the box of moves is found class by class. It is tight when
    the classes move in the proportions the tangent expects (a feature with little
    to say), which is where bounding pays. at_b: C's tangent at b is used too
    (b's totals_c those of a)."""
    cdef double lb_a = a[2], lb_b = b[2], d, s
    cdef Py_ssize_t c
    for c in range(k):
        lb_a -= a[4 + c]
        lb_b -= b[4 + c]
    for c in range(k):
        d = b[4 + k + c] - a[4 + k + c]
        if d > 0:
            s = (b[4 + c] - a[4 + c]) / d
            lb_a += min(0.0, (a[3] - s) * d)
            lb_b += min(0.0, -(b[3] - s) * d)
    return max(lb_a, lb_b) if at_b else lb_a


cdef inline double drift_slack(double e, double m, Py_ssize_t k) noexcept nogil:
    """How far I (block_bound's) can lie below its bound when a block's binary32
    additions rounded, off by e in all (float32 on R8's case array, fractional
    weights): then total_c = left_c + right_c drifts within the block by e_c,
    sum e_c <= e, and I, and B_c at b, are taken at states whose right_c are
    off by e_c from the model's. For 0 <= x, y <= m and |x - y| <= d,
    |phi(x) - phi(y)| <= d (2 log2(m + 2) + 2 log2(1/d + 2) + 6) (the mean value
    theorem, and the integral of |log2| near 0), concave in d: over the classes
    at most e (2 log2(m + 2) + 2 log2(k/e + 2) + 6); three such sums (I's right
    side total, its class terms, the chords' ends)."""
    if e <= 0:
        return 0.0
    return 3.0 * e * (2.0 * log(m + 2.0) / LN2 + 2.0 * log((k + 1.0) / e + 2.0) / LN2 + 6.0)


cdef inline void snapshot(double* out, const double* freq, Py_ssize_t k, double low,
                          Py_ssize_t position, double* raw) noexcept nogil:
    """Record the scan state after a cut. raw[]: position, low and the exact counts
    (to restart from); out[]: low, L, C(L), C'(L) = log2(L / R), then B_c and
    left_c per class (for block_bound)."""
    cdef Py_ssize_t c
    cdef double left = 0.0, right = 0.0
    raw[0] = <double> position
    raw[1] = low
    for c in range(k):
        raw[2 + c] = freq[k + c]
        raw[2 + k + c] = freq[2 * k + c]
        left += freq[k + c]
        right += freq[2 * k + c]
        out[4 + c] = phi(freq[k + c]) + phi(freq[2 * k + c])
        out[4 + k + c] = freq[k + c]
    out[0] = low
    out[1] = left
    out[2] = phi(left) + phi(right)
    out[3] = log(left / right) / LN2 if left > 0 and right > 0 else 0.0


cdef inline double class_terms(const Py_ssize_t* left, const Py_ssize_t* all,
                               Py_ssize_t k, const double* nlogn) noexcept nogil:
    """The sum of n*log2(n) over both sides' class counts (whole counts)."""
    cdef Py_ssize_t c
    cdef double s = 0.0
    for c in range(k):
        s += nlogn[left[c]] + nlogn[all[c] - left[c]]
    return s


# The unit-weight scan's running sum of class terms is summed again after this
# many cases (its drift: a few ulps of a term per case).
cdef Py_ssize_t TERMS_RESUM = 256
# Its first pass keeps the left class counts every this many cases (at least 16
# per class: a copy of k counts costs under a tenth of the cases between), where
# its second pass restarts rather than walk the cases before a cut.
cdef Py_ssize_t CHECKPOINT_EVERY = 256


cdef bint snap_room(Work* w, Py_ssize_t need) noexcept nogil:
    """w.snap with room for need doubles (grown, never shrunk); False out of memory."""
    cdef double* grown
    if need > w.snap_cap:
        grown = <double*> realloc(w.snap, need * sizeof(double))
        if grown == NULL:
            return False
        w.snap = grown
        w.snap_cap = need
    return True


cdef int32_t* checkpoint_room(Work* w, Py_ssize_t n, Py_ssize_t every,
                             Py_ssize_t k) noexcept nogil:
    """w.checkpoint with room for the k counts a first pass over n cases keeps
    every `every` cases; NULL out of memory."""
    cdef Py_ssize_t need = (n // every + 1) * k
    cdef int32_t* cp
    if need > w.checkpoint_cap:
        cp = <int32_t*> realloc(w.checkpoint, need * sizeof(int32_t))
        if cp == NULL:
            return NULL
        w.checkpoint = cp
        w.checkpoint_cap = need
    return w.checkpoint


cdef inline void keep_checkpoint(int32_t* cp, Py_ssize_t* n_checks, const Py_ssize_t* lc,
                                 Py_ssize_t k) noexcept nogil:
    """Checkpoint n_checks: the left class counts before the case the pass is at."""
    cdef Py_ssize_t c
    for c in range(k):
        cp[n_checks[0] * k + c] = <int32_t> lc[c]
    n_checks[0] += 1


cdef inline bint from_checkpoint(Work* w, const int32_t* cp, Py_ssize_t n_checks,
                                 Py_ssize_t every, Py_ssize_t first, Py_ssize_t last,
                                 Py_ssize_t* i, const Py_ssize_t* ac,
                                 Py_ssize_t k) noexcept nogil:
    """A second pass at case i[0] that walks to the cut after case last:
    restart from the last checkpoint at or before last + 1 if it lies ahead,
    w.freq's left and right counts set to what the walk would leave (whole
    counts: exactly); True if it did (i[0] moved)."""
    cdef Py_ssize_t b = (last + 1 - first) // every, c
    if b >= n_checks or first + b * every <= i[0]:
        return False
    i[0] = first + b * every
    for c in range(k):
        w.freq[k + c] = <double> cp[b * k + c]
        w.freq[2 * k + c] = <double> (ac[c] - cp[b * k + c])
    return True


cdef bint scan_estimated(Work* w, const ListEntry* e, const uint32_t* cs,
                         const double* vals, const ClassCode* y, Py_ssize_t first,
                         Py_ssize_t n,
                         Py_ssize_t k, double u, double known, double min_split,
                         double unknown_frac, double base, double total,
                         CutScan* scan) noexcept nogil:
    """The cut scan of §5.2 in two passes, where every case weighs 1: every count
    is whole, its n*log2(n) in the table.

    Pass 1 counts the candidate cuts (Release 8's Tries) and estimates each one's
    gain from whole counts: the information of a cut is T(L) + T(R) - S, with T
    the table, L and R the two sides' weights and S the sum of T over both
    sides' class counts, kept up to date as each case moves (four lookups) and
    summed again every TERMS_RESUM cases. Its drift is then a few hundred ulps
    of terms of at most known * log2(known) each, and the exact sums err by as
    much: a gain error of order 1e-13 * log2(known), which GAIN_ROUNDING covers
    a thousand times over. Pass 1 notes every cut whose estimate comes within
    twice that (and the keep margin) of the best estimate so far. Only those
    within that distance of the final best estimate can be within the keep
    margin of the best gain (keep_cut keeps exactly those, whatever the order),
    so pass 2 walks the plain scan's additions and computes just their gains,
    exactly (exact_cut). Every count is whole, so the additions' sums are the
    counts themselves: pass 2 jumps over a stretch with no note from the last
    checkpoint of pass 1 before the next note (the counts, exactly as the walk
    would leave them). Returns False (nothing done) if the notes or the
    checkpoints cannot be allocated."""
    cdef Py_ssize_t i, j, c, nn = 0, tries = 0, last, left, right, low_n = 0
    cdef Py_ssize_t known_n = <Py_ssize_t> known, since = 0
    cdef Py_ssize_t* lc = w.left_count
    cdef Py_ssize_t* ac = w.all_count
    cdef const double* t = w.nlogn
    cdef double* freq = w.freq
    cdef double* note
    cdef double low = 0.0, est, best = -1e300, x, x_reject = 1e300, terms
    cdef double upper = known - min_split, slack = 2 * GAIN_ROUNDING + 1e-12
    cdef double share = 1.0 - unknown_frac
    cdef Py_ssize_t every = max(CHECKPOINT_EVERY, 16 * k), n_checks = 0, until = 0
    cdef int32_t* cp = checkpoint_room(w, n - first, every, k)
    if cp == NULL:
        return False
    if not snap_room(w, 64):
        return False
    for c in range(k):
        lc[c] = 0
        ac[c] = <Py_ssize_t> freq[2 * k + c]
    terms = class_terms(lc, ac, k, t)
    # Pass 1. A cut's estimate is share * (base - x / known), x its information:
    # x beyond x_reject puts it more than slack below the best estimate.
    for i in range(first, n - 1):
        if stop_at(w.data, i):
            return False                # (the caller's scans stop too)
        if until == 0:                  # checkpoint n_checks: the counts before entry i
            keep_checkpoint(cp, &n_checks, lc, k)
            until = every
        until -= 1
        fetch_ahead(vals, w.vstride, w.far, cs, y, NULL, e, i, n)
        c = y[entry_case(e, cs, i)]
        left = lc[c]
        right = ac[c] - left
        terms += (t[left + 1] - t[left]) + (t[right - 1] - t[right])
        lc[c] = left + 1
        low_n += 1
        since += 1
        if since == TERMS_RESUM:
            terms = class_terms(lc, ac, k, t)
            since = 0
        low = <double> low_n
        if low < min_split:
            continue
        if low > upper:
            break
        if cut_after(w, vals, e, i):
            tries += 1
            if low >= w.min_objs and known - low >= w.min_objs:
                x = t[low_n] + t[known_n - low_n] - terms
                if x > x_reject:
                    continue
                est = share * (base - x / known)
            else:
                est = -EPSILON
            if est < best - slack:
                continue
            if est > best:
                best = est
                x_reject = known * (base - (best - 2 * slack) / share)
            if 2 * nn + 2 > w.snap_cap and not snap_room(w, 2 * w.snap_cap):
                return False
            note = w.snap + 2 * nn
            note[0] = <double> i
            note[1] = est
            nn += 1
    # Pass 2: the noted cuts within reach of the best, from the plain scan's counts.
    note = w.snap
    forget_phi(w, k)
    low = 0.0
    i = first
    for j in range(nn):
        if note[2 * j + 1] < best - slack:
            continue
        last = <Py_ssize_t> note[2 * j]
        if from_checkpoint(w, cp, n_checks, every, first, last, &i, ac, k):
            low = <double> (i - first)
            forget_phi(w, k)
        while i <= last:
            if stop_at(w.data, i):
                return False            # (the caller's scans stop too)
            move_case(w, k, y[entry_case(e, cs, i)], 1.0, &low)
            i += 1
        scan.position = last
        if reasonable_cut(w, u, low, known):
            exact_cut(w, k, unknown_frac, base, known, total, cut_side(w, vals, e, last),
                      cut_side(w, vals, e, last + 1), scan)
        else:
            keep_cut(w, -EPSILON, total, cut_side(w, vals, e, last),
                     cut_side(w, vals, e, last + 1), scan)
    scan.tries = tries
    return True


cdef inline bint sorted_cut_after(Work* w, const double* vals, const Sorted* a,
                                  Py_ssize_t i) noexcept nogil:
    """Whether a cut lies between items i and i + 1 of a node's cases in value
    order (a sorted case array's carry their values; a list: cut_after)."""
    if Sorted is SortItem:
        return a[i].value < a[i + 1].value - 1e-5
    else:
        return cut_after(w, vals, a, i)


cdef inline double sorted_cut_side(Work* w, const double* vals, const Sorted* a,
                                   Py_ssize_t i) noexcept nogil:
    """cut_side of item i (a sorted case array's: its value)."""
    if Sorted is SortItem:
        return a[i].value
    else:
        return cut_side(w, vals, a, i)


cdef inline void fetch_sorted_ahead(Work* w, const double* vals, const uint32_t* cs,
                                    const double* cw, const Sorted* a, Py_ssize_t i,
                                    Py_ssize_t n) noexcept nogil:
    if Sorted is SortItem:
        fetch_case_ahead(w.data.y, cw, a, i, n)
    else:
        fetch_ahead(vals, w.vstride, w.far, cs, w.data.y, cw, a, i, n)


cdef inline double rounded_step(Work* w, Py_ssize_t k, int32_t cls, double wt,
                                double* low) noexcept nogil:
    """cut_scan_step (float32: Release 8's rounded additions), returning by how
    much its two class weights' roundings were off in all (0 in float64)."""
    cdef double x, y
    if not w.data.f32:
        low[0] = low[0] + wt
        w.freq[k + cls] = w.freq[k + cls] + wt
        w.freq[2 * k + cls] = w.freq[2 * k + cls] - wt
        return 0.0
    x = w.freq[k + cls] + wt
    y = w.freq[2 * k + cls] - wt
    low[0] = rnd(True, low[0] + wt)
    w.freq[k + cls] = rnd(True, x)
    w.freq[2 * k + cls] = rnd(True, y)
    return fabs(w.freq[k + cls] - x) + fabs(w.freq[2 * k + cls] - y)


cdef bint scan_blocks(Work* w, const Sorted* e, const uint32_t* cs, const double* vals,
                      const double* cw, Py_ssize_t first, Py_ssize_t n,
                      Py_ssize_t k, double u, double low, double known,
                      double min_split, double unknown_frac, double base,
                      double total, CutScan* scan) noexcept nogil:
    """The cut scan of §5.2 by branch and bound, for large nodes.

    Pass 1 walks the cases once with the very additions of the plain scan, counts
    the candidate cuts (Release 8's Tries) and records the state every BLOCK cuts.
    Pass 2 evaluates the block whose bound is highest, then every other block whose
    bound comes within the rounding margin of the best gain found so far; the rest
    cannot hold a cut that would be kept (evaluate_cut keeps exactly the cuts within
    a margin of the final best, whatever the order). Restarting a block from its
    recorded counts repeats the same additions, so every gain has the same bits as
    in the plain scan. The kept cuts are put back in scan order at the end.
    float32 on R8's case array (fractional weights): the additions are rounded
    to binary32 as the plain scan's are, and a block in which one of them was
    off has its bound lowered by drift_slack.
    Returns False (nothing done) if the block states cannot be allocated."""
    cdef const int32_t* y = w.data.y
    cdef bint f32 = w.data.f32
    cdef Py_ssize_t stride = 4 + 2 * k, rstride = 2 + 2 * k, i, j, c, b, nb = 0
    cdef Py_ssize_t cap = (n - first) // BLOCK + 3, start, stop, top
    cdef double* bound
    cdef double* raw
    cdef double* off
    cdef double* freq = w.freq
    cdef double reach, best_bound, g, t, wt, err = 0.0
    cdef double upper = rnd(f32, known - min_split), rounding
    cdef Py_ssize_t last = -1, best_b, tries
    if not snap_room(w, cap * (stride + rstride + 1)):
        return False
    bound = w.snap
    raw = w.snap + cap * stride
    off = raw + cap * rstride           # the roundings' error since the record before
    # Pass 1.
    for i in range(first, n - 1):
        if stop_at(w.data, i):
            return False                # (the caller's plain scan stops too)
        fetch_sorted_ahead(w, vals, cs, cw, e, i, n)
        c = case_at(cs, e, i)
        err += rounded_step(w, k, y[c], weight_of(cw, c), &low)
        if low < min_split:
            continue
        if low > upper:
            break
        if last < 0 or i - <Py_ssize_t> raw[(nb - 1) * rstride] >= BLOCK:
            snapshot(bound + nb * stride, freq, k, low, i, raw + nb * rstride)
            off[nb] = err
            err = 0.0
            nb += 1
        if sorted_cut_after(w, vals, e, i):
            scan.tries += 1
        last = i
    if last < 0:
        return True                      # no cut in the window
    if <Py_ssize_t> raw[(nb - 1) * rstride] != last:
        # The state after the last cut, re-walked from the last record.
        i = <Py_ssize_t> raw[(nb - 1) * rstride]
        low = raw[(nb - 1) * rstride + 1]
        memcpy(freq + k, raw + (nb - 1) * rstride + 2, 2 * k * sizeof(double))
        err = 0.0
        for j in range(i + 1, last + 1):
            c = case_at(cs, e, j)
            err += rounded_step(w, k, y[c], weight_of(cw, c), &low)
        snapshot(bound + nb * stride, freq, k, low, last, raw + nb * rstride)
        off[nb] = err
        nb += 1
    # Block b holds the cuts raw[b].position .. raw[b + 1].position - 1, the last
    # block also its end; its bound covers them all. Turn bounds into gains.
    if nb == 1:
        bound[0] = 1e300
    else:
        for b in range(nb - 1):
            if (b & BLOCKS_LOOK_MASK) == BLOCKS_LOOK_MASK and interrupted(w.data.intr):
                return False
            t = (block_bound(bound + b * stride, bound + (b + 1) * stride, k, off[b + 1] == 0)
                 - drift_slack(off[b + 1], total + known, k))
            if (bound[b * stride + 1] <= 0 or bound[b * stride + 1] >= known
                    or bound[(b + 1) * stride + 1] <= 0
                    or bound[(b + 1) * stride + 1] >= known):
                t = -1e300                 # no tangent: no bound
            bound[b * stride] = (1.0 - unknown_frac) * (base - t / known)
    # Pass 2: the most promising block first, then the others in order.
    tries = scan.tries                   # evaluate_cut counts again: keep pass 1's
    best_b = 0
    best_bound = -1e300
    for b in range(max(nb - 1, 1)):
        if (b & BLOCKS_LOOK_MASK) == BLOCKS_LOOK_MASK and interrupted(w.data.intr):
            return False
        if bound[b * stride] > best_bound:
            best_bound = bound[b * stride]
            best_b = b
    evaluate_block(w, e, cs, vals, cw, best_b, nb, raw, rstride, k, u, known, unknown_frac, base,
                   total, scan)
    # (float32: 1e-5 exceeds keep_margin, a gain being at most log2(classes) <= 16;
    # the criterion's roundings with fractional weights: its negative terms,
    # 0.531 at most each, in each of its 2k + 8 roundings.)
    rounding = (1e-5 + f32_gain_rounding(k, known)
                + 2.0 * (2 * k + 8) * 5.9604644775390625e-08 * 0.531 * k / known
                if f32 else 1e-12 + GAIN_ROUNDING)
    for b in range(max(nb - 1, 1)):
        if (b & BLOCKS_LOOK_MASK) == BLOCKS_LOOK_MASK and interrupted(w.data.intr):
            return False                # (as in pass 1: the grower sees the stop)
        reach = scan.best_gain - rounding
        if b != best_b and bound[b * stride] >= reach:
            evaluate_block(w, e, cs, vals, cw, b, nb, raw, rstride, k, u, known, unknown_frac, base,
                           total, scan)
    scan.tries = tries
    # The kept cuts back in scan order (stable insertion sort: they are few, and
    # all but the best block's in order).
    for i in range(1, scan.kept):
        if (i & LOOK_MASK) == LOOK_MASK and interrupted(w.data.intr):
            return False
        j = i
        while j > 0 and w.cand_pos[j - 1] > w.cand_pos[j]:
            swap_cut(w, j - 1, j)
            j -= 1
    return True


cdef inline void swap_cut(Work* w, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    w.cand_gain[a], w.cand_gain[b] = w.cand_gain[b], w.cand_gain[a]
    w.cand_split[a], w.cand_split[b] = w.cand_split[b], w.cand_split[a]
    w.cand_below[a], w.cand_below[b] = w.cand_below[b], w.cand_below[a]
    w.cand_above[a], w.cand_above[b] = w.cand_above[b], w.cand_above[a]
    w.cand_pos[a], w.cand_pos[b] = w.cand_pos[b], w.cand_pos[a]


cdef void evaluate_block(Work* w, const Sorted* e, const uint32_t* cs,
                         const double* vals, const double* cw, Py_ssize_t b, Py_ssize_t nb,
                         const double* raw, Py_ssize_t rstride, Py_ssize_t k, double u,
                         double known, double unknown_frac, double base, double total,
                         CutScan* scan) noexcept nogil:
    """Evaluate the cuts of block b, restarting from its recorded counts."""
    cdef const int32_t* y = w.data.y
    cdef Py_ssize_t i = <Py_ssize_t> raw[b * rstride], stop
    cdef int32_t c
    cdef double low = raw[b * rstride + 1], wt
    cdef double* freq = w.freq
    if b + 1 < nb - 1 or nb == 1:
        stop = <Py_ssize_t> raw[(b + 1) * rstride] - 1 if nb > 1 else i
    else:
        stop = <Py_ssize_t> raw[(b + 1) * rstride]      # the last block keeps its end
    memcpy(freq + k, raw + b * rstride + 2, 2 * k * sizeof(double))
    forget_phi(w, k)
    while True:
        if sorted_cut_after(w, vals, e, i):
            scan.position = i
            if w.data.f32:
                cut_f32(w, k, u, low, known, unknown_frac, base, total,
                        sorted_cut_side(w, vals, e, i),
                        sorted_cut_side(w, vals, e, i + 1), scan)
            else:
                list_cut(w, k, u, low, known, unknown_frac, base, total,
                         sorted_cut_side(w, vals, e, i),
                         sorted_cut_side(w, vals, e, i + 1), scan)
        if i >= stop:
            break
        i += 1
        c = case_at(cs, e, i)
        if w.data.f32:
            scan_step_f32(w, k, y[c], weight_of(cw, c), &low)
        else:
            move_case(w, k, y[c], weight_of(cw, c), &low)


cdef double discrete_table(Work* w, Py_ssize_t f, Py_ssize_t lo, Py_ssize_t hi,
                          double total, double* unknown_frac, double* base) noexcept nogil:
    """Class weights per value (w.freq, row 0 unknown) and value weights (w.totals)
    of a discrete attribute; sets the unknown fraction and the base information of
    the known cases (§3). Returns the known weight K."""
    cdef const Dataset* d = w.data
    cdef bint f32 = d.f32
    cdef Py_ssize_t k = d.n_classes, n_values = d.n_values[f], i, v, j
    cdef const int32_t* codes = d.codes + <Py_ssize_t> d.col[f] * d.n_cases
    cdef double* freq = w.freq
    cdef double known, m, s
    cdef int32_t c
    memset(freq, 0, (n_values + 1) * k * sizeof(double))
    for i in range(lo, hi + 1):
        if stop_at(d, i):
            break
        c = w.cases[i]
        j = codes[c] * k + d.y[c]
        freq[j] = rnd(f32, freq[j] + w.weight[c])
    for v in range(n_values + 1):
        s = 0.0
        for j in range(k):
            s = rnd(f32, s + freq[v * k + j])
        w.totals[v] = s
    known = rnd(f32, total - w.totals[0])
    unknown_frac[0] = rnd(f32, w.totals[0] / total)
    s = 0.0
    for j in range(k):
        m = 0.0
        for v in range(1, n_values + 1):
            m = rnd(f32, m + freq[v * k + j])
        s += m * log2_of(f32, m)
    base[0] = rnd(f32, (known * log2_of(f32, known) - s) / known) if known > 0 else 0.0
    return known


cdef inline double worth_of(const Dataset* d, double info, double gain,
                            double threshold) noexcept nogil:
    """Worth (§6): the gain ratio, or with -g the gain itself."""
    if d.gain_ratio:
        return worth(d.f32, info, gain, threshold)
    if info > 0 and gain > -EPSILON:
        return gain
    return unusable(d.f32)


cdef Py_ssize_t sparse_table(Work* w, Py_ssize_t f, Py_ssize_t lo, Py_ssize_t hi,
                             double total, double* known, double* unknown_frac,
                             double* base) noexcept nogil:
    """discrete_table for a node with far fewer cases than values: the table holds
    row 0 (unknown) and only the values present, in increasing order. A value with
    no weight adds exactly nothing to any sum of §3, so the results are the same
    bits. Returns the number of values present."""
    cdef const Dataset* d = w.data
    cdef bint f32 = d.f32
    cdef Py_ssize_t k = d.n_classes, i, j, t = 0, v
    cdef const int32_t* codes = d.codes + <Py_ssize_t> d.col[f] * d.n_cases
    cdef RankItem* present = w.rankbuf
    cdef double m, s
    cdef int32_t c
    # The distinct values present, sorted (w.slot marks them; it is all zero
    # between calls).
    for i in range(lo, hi + 1):
        hear_at(d.intr, i)
        v = codes[w.cases[i]]
        if v > 0 and w.slot[v] == 0:
            w.slot[v] = 1
            present[t].key = <uint32_t> v
            present[t].case = 0
            t += 1
    radix_sort_keys(present, w.ranktmp, present, t, d.intr)
    for j in range(t):
        w.slot[present[j].key] = <int32_t> (j + 1)
    memset(w.freq, 0, (t + 1) * k * sizeof(double))
    for i in range(lo, hi + 1):
        hear_at(d.intr, i)
        c = w.cases[i]
        v = codes[c]
        j = (w.slot[v] if v > 0 else 0) * k + d.y[c]
        w.freq[j] = rnd(f32, w.freq[j] + w.weight[c])
    for j in range(t):
        w.slot[present[j].key] = 0
    for v in range(t + 1):
        s = 0.0
        for j in range(k):
            s = rnd(f32, s + w.freq[v * k + j])
        w.totals[v] = s
    known[0] = rnd(f32, total - w.totals[0])
    unknown_frac[0] = rnd(f32, w.totals[0] / total)
    s = 0.0
    for j in range(k):
        m = 0.0
        for v in range(1, t + 1):
            m = rnd(f32, m + w.freq[v * k + j])
        s += m * log2_of(f32, m)
    base[0] = rnd(f32, (known[0] * log2_of(f32, known[0]) - s) / known[0]) if known[0] > 0 else 0.0
    return t


cdef void eval_discrete(Work* w, Py_ssize_t f, Py_ssize_t lo, Py_ssize_t hi,
                        double total) noexcept nogil:
    """Multiway test on every declared value (§3, §4.1-4.2): sets gain and info."""
    cdef const Dataset* d = w.data
    cdef bint f32 = d.f32
    cdef Py_ssize_t n_values = d.n_values[f]
    cdef double known, unknown_frac, base
    w.gain[f] = unusable(f32)
    w.raw_gain[f] = unusable(f32)
    w.info[f] = 0.0
    if 4 * (hi - lo + 1) < n_values:
        # Few cases, many values: a table of the values present only.
        n_values = sparse_table(w, f, lo, hi, total, &known, &unknown_frac, &base)
    else:
        known = discrete_table(w, f, lo, hi, total, &unknown_frac, &base)
    if total <= w.totals[0]:
        return
    w.info[f] = rnd(f32, total_info(f32, w.totals, n_values + 1, 1, w.nlogn, w.table_n) / total)
    w.gain[f] = split_gain(f32, w.freq, w.totals, n_values, d.n_classes, known,
                           unknown_frac, base, w.min_objs, w.nlogn, w.table_n)
    w.raw_gain[f] = w.gain[f]


cdef inline void copy_block(double* dst_freq, double* dst_tot, Py_ssize_t to,
                            const double* src_freq, const double* src_tot,
                            Py_ssize_t frm, Py_ssize_t k) noexcept nogil:
    memcpy(&dst_freq[to * k], &src_freq[frm * k], k * sizeof(double))
    dst_tot[to] = src_tot[frm]


cdef inline void merge_into(double* freq, double* tot, Py_ssize_t b1, Py_ssize_t b2,
                            Py_ssize_t k, bint f32) noexcept nogil:
    """Add block b2's counts to block b1 (binary32 sums)."""
    cdef Py_ssize_t c
    for c in range(k):
        freq[b1 * k + c] = rnd(f32, freq[b1 * k + c] + freq[b2 * k + c])
    tot[b1] = rnd(f32, tot[b1] + tot[b2])


cdef inline void relabel(int32_t* value_map, Py_ssize_t n_values, int32_t frm,
                         int32_t to) noexcept nogil:
    cdef Py_ssize_t v
    for v in range(1, n_values + 1):
        if value_map[v] == frm:
            value_map[v] = to


cdef inline Py_ssize_t merge_blocks(double* freq, double* tot, int32_t* value_map,
                                    Py_ssize_t n_values, Py_ssize_t b1, Py_ssize_t b2,
                                    Py_ssize_t n_blocks, Py_ssize_t k, bint f32) noexcept nogil:
    """Merge value group b2 into b1 (counts and value map); the last group takes
    b2's place. Returns the new number of groups."""
    merge_into(freq, tot, b1, b2, k, f32)
    relabel(value_map, n_values, <int32_t> b2, <int32_t> b1)
    if b2 != n_blocks:
        copy_block(freq, tot, b2, freq, tot, n_blocks, k)
        relabel(value_map, n_values, <int32_t> n_blocks, <int32_t> b2)
    return n_blocks - 1


cdef void eval_subset(Work* w, Py_ssize_t f, Py_ssize_t lo, Py_ssize_t hi,
                      double total) noexcept nogil:
    """Group the values of a discrete attribute into subsets (-s, §4.4): sets gain,
    info, and the value -> branch map of the feature in w.groups."""
    cdef const Dataset* d = w.data
    cdef bint f32 = d.f32
    cdef Py_ssize_t k = d.n_classes, n_values = d.n_values[f], v, c, b, b1, b2
    cdef int32_t* value_map = w.groups + w.group_start[f]
    cdef double* bf = w.block_freq
    cdef double* bt = w.block_totals
    cdef double* tf = w.trial_freq
    cdef double* tt = w.trial_totals
    cdef double entry_min_objs = w.min_objs, known, unknown_frac, base
    cdef double pg, pi, pv, min_gain, g, i_, val, best_val, best_gain, best_info
    cdef double eps32 = rnd(f32, EPSILON), heaviest
    cdef Py_ssize_t n_blocks = 0, n_missing = 0, reasonable, barred, best1, best2
    cdef int c1
    cdef bint merged = False, have
    w.gain[f] = unusable(f32)
    w.raw_gain[f] = unusable(f32)
    w.info[f] = 0.0
    w.min_objs = 1.0
    known = discrete_table(w, f, lo, hi, total, &unknown_frac, &base)
    if known < EPSILON:
        # Release 8 returns here without restoring MINOBJS, which then stays 1 for
        # the rest of the run (§13 Q2); precision="float32" copies that.
        if not d.leak_min_objs:
            w.min_objs = entry_min_objs
        return
    pg = split_gain(f32, w.freq, w.totals, n_values, k, known, unknown_frac, base, 1.0, w.nlogn, w.table_n)
    pi = rnd(f32, total_info(f32, w.totals, n_values + 1, 1, w.nlogn, w.table_n) / total)
    pv = worth_of(d, pi, pg, eps32)
    # Values with some weight become blocks; the others form the missing set.
    copy_block(bf, bt, 0, w.freq, w.totals, 0, k)
    for v in range(1, n_values + 1):
        if w.totals[v] > 0.5:
            n_blocks += 1
            copy_block(bf, bt, n_blocks, w.freq, w.totals, v, k)
            value_map[v] = <int32_t> n_blocks
        else:
            value_map[v] = -1
            n_missing += 1
    # Merge blocks that hold (nearly) one class, the same one.
    b = 1
    while b < n_blocks:
        c1 = -1
        for c in range(k):
            if bf[b * k + c] >= 0.1:
                c1 = <int> c
                break
        if c1 >= 0 and bf[b * k + c1] >= bt[b] - 0.1:
            b2 = b + 1
            while b2 <= n_blocks:
                if bf[b2 * k + c1] >= bt[b2] - 0.1:
                    n_blocks = merge_blocks(bf, bt, value_map, n_values, b, b2, n_blocks, k, f32)
                    merged = True
                else:
                    b2 += 1
        b += 1
    if merged:
        pg = split_gain(f32, bf, bt, n_blocks, k, known, unknown_frac, base, 1.0, w.nlogn, w.table_n)
        pi = rnd(f32, total_info(f32, bt, n_blocks + 1, 1, w.nlogn, w.table_n) / total)
        pv = worth_of(d, pi, pg, eps32)
    # Hill-climb: merge the best pair of blocks while that helps.
    min_gain = rnd(f32, pg / 2)
    while n_blocks > 2:
        reasonable = 0
        barred = 0
        heaviest = -1.0
        for b in range(1, n_blocks + 1):
            if bt[b] >= entry_min_objs:
                reasonable += 1
            if bt[b] > heaviest:
                heaviest = bt[b]
                barred = b
        if reasonable >= 3:
            barred = 0
        best_val = 0.0
        best_gain = unusable(f32)
        best_info = 0.0
        have = False
        best1 = best2 = 0
        for b1 in range(1, n_blocks):
            # A merge step costs O(blocks^3 k): with hundreds of values a search
            # takes seconds to minutes, so it looks for Ctrl-C between rows of pairs.
            if interrupted(d.intr):
                w.min_objs = entry_min_objs
                return          # unusable; the grower sees the stop and unwinds
            if b1 == barred:
                continue
            for b2 in range(b1 + 1, n_blocks + 1):
                if b2 == barred:
                    continue
                # Tentative merge: b1 absorbs b2, the last block moves into b2.
                memcpy(tf, bf, (n_blocks + 1) * k * sizeof(double))
                memcpy(tt, bt, (n_blocks + 1) * sizeof(double))
                merge_into(tf, tt, b1, b2, k, f32)
                if b2 != n_blocks:
                    copy_block(tf, tt, b2, tf, tt, n_blocks, k)
                g = split_gain(f32, tf, tt, n_blocks - 1, k, known, unknown_frac, base, 1.0, w.nlogn, w.table_n)
                i_ = rnd(f32, total_info(f32, tt, n_blocks, 1, w.nlogn, w.table_n) / total)
                val = worth_of(d, i_, g, eps32)
                if ((g >= min_gain and best_gain < min_gain) or val >= best_val
                        or (not have and (not d.gain_ratio or reasonable < 2))):
                    best_val = val
                    best_gain = g
                    best_info = i_
                    best1 = b1
                    best2 = b2
                    have = True
        if d.gain_ratio and reasonable >= 2 and (
                not have or best_val < pv + 1e-5 or (best_val == pv and best_gain < pg)):
            break
        if not have:
            break
        n_blocks = merge_blocks(bf, bt, value_map, n_values, best1, best2, n_blocks, k, f32)
        pg = best_gain
        pi = best_info
        pv = best_val
    w.min_objs = entry_min_objs
    if pv <= 0:
        return
    w.gain[f] = split_gain(f32, bf, bt, n_blocks, k, known, unknown_frac, base,
                           w.min_objs, w.nlogn, w.table_n)
    w.raw_gain[f] = w.gain[f]
    w.info[f] = pi
    # Values too light to form a block go to one extra final branch.
    w.n_groups[f] = <int32_t> (n_blocks + (1 if n_missing > 0 else 0))
    for v in range(1, n_values + 1):
        if value_map[v] < 0:
            value_map[v] = <int32_t> (n_blocks + 1)
    value_map[0] = 0


cdef bint is_subset_feature(const Dataset* d, Py_ssize_t feature) noexcept nogil:
    """Under -s, discrete features with more than two values get subset tests."""
    return d.subsets and d.n_values[feature] > 2


cdef inline uint64_t next_random(Work* w) noexcept nogil:
    """xorshift64*: the draws of max_features, reproducible from random_state."""
    w.rng ^= w.rng >> 12
    w.rng ^= w.rng << 25
    w.rng ^= w.rng >> 27
    return w.rng * 2685821657736338717ULL


cdef void draw_features(Work* w) noexcept nogil:
    """Mark max_features of the features at random (partial Fisher-Yates)."""
    cdef const Dataset* d = w.data
    cdef Py_ssize_t n = d.n_features, f, j, m = d.max_features
    cdef int32_t tmp
    for f in range(n):
        w.perm[f] = <int32_t> f
        w.drawn[f] = 0
    for f in range(m):
        j = f + <Py_ssize_t> (next_random(w) % <uint64_t> (n - f))
        tmp = w.perm[f]
        w.perm[f] = w.perm[j]
        w.perm[j] = tmp
        w.drawn[w.perm[f]] = 1


cdef void evaluate_feature(Work* w, Py_ssize_t f, Py_ssize_t lo, Py_ssize_t hi,
                                  double total, bint sample) noexcept nogil:
    """Set gain, info (and bar, groups) of feature f at the node [lo, hi]."""
    cdef const Dataset* d = w.data
    cdef bint f32 = d.f32
    if sample and not w.drawn[f]:
        w.gain[f] = unusable(f32)
        w.info[f] = 0.0
    elif d.n_values[f] == 0:
        eval_continuous(w, f, lo, hi, total)  # float32 (float64: eval_continuous_list)
    elif is_subset_feature(d, f):
        eval_subset(w, f, lo, hi, total)     # subset tests may recur on a path
    elif w.used[f] > 0:
        w.gain[f] = unusable(f32)            # a plain discrete test never does
        w.info[f] = 0.0
    else:
        eval_discrete(w, f, lo, hi, total)


cdef Py_ssize_t find_split(Work* w, Py_ssize_t lo, Py_ssize_t hi, double total) noexcept nogil:
    """float32 mode: evaluate every attribute in attribute order, as R8 does (each
    continuous attribute leaves the cases in its order for the next), and choose
    one (§6); -1 if no split is sensible. (float64 mode: _presorted.pyx.)"""
    cdef const Dataset* d = w.data
    cdef Py_ssize_t f
    cdef bint sample = 0 < d.max_features < d.n_features
    if sample:
        draw_features(w)
    for f in range(d.n_features):
        if interrupted(d.intr):
            return -1           # no split; the grower sees the stop and unwinds
        evaluate_feature(w, f, lo, hi, total, sample)
    return select_feature(w)


cdef Py_ssize_t select_feature(Work* w) noexcept nogil:
    """§6: the feature of best worth among those whose gain reaches the average
    gain of the possible ones; -1 if none is usable."""
    cdef const Dataset* d = w.data
    cdef bint f32 = d.f32
    cdef Py_ssize_t f, best = -1, possible = 0
    cdef double sum_gain = 0.0, av_gain, val, best_val
    for f in range(d.n_features):
        if w.gain[f] > -EPSILON and (d.multival or d.subsets
                                     or d.n_values[f] < 0.3 * d.total_weight):
            sum_gain = rnd(f32, sum_gain + w.gain[f])
            possible += 1
    av_gain = rnd(f32, sum_gain / possible) if possible > 0 else 1e6
    best_val = unusable(f32)
    for f in range(d.n_features):
        if w.gain[f] > -EPSILON:
            val = worth_of(d, w.info[f], w.gain[f], av_gain)
            if val > best_val:
                best_val = val
                best = f
    return best


cdef double global_threshold(const Dataset* d, Py_ssize_t feature, double bar) noexcept nogil:
    """The stored cut (§5.4): the largest training value of the feature <= bar."""
    cdef const double* v
    cdef const float* v32
    cdef const uint32_t* order
    cdef Py_ssize_t lo = 0, hi, mid, col = <Py_ssize_t> d.col[feature] * d.n_cases
    if d.listed:
        # The values by row, in the feature's order.
        order = d.order + col
        hi = d.n_known[feature]
        while lo < hi:
            mid = (lo + hi) // 2
            if key_value(d, feature, order[mid]) <= bar:
                lo = mid + 1
            else:
                hi = mid
        return key_value(d, feature, order[lo - 1]) if lo > 0 else bar
    if d.cut_from_distinct:
        hi = d.distinct_start[feature + 1] - d.distinct_start[feature]
        if d.distinct32 != NULL:
            v32 = d.distinct32 + d.distinct_start[feature]
            lo = count_at_most(v32, hi, bar)
            return <double> v32[lo - 1] if lo > 0 else bar
        v = d.distinct + d.distinct_start[feature]
        lo = count_at_most(v, hi, bar)
        return v[lo - 1] if lo > 0 else bar
    lo = rank_above(d, feature, 0, d.n_known[feature], bar)
    return sorted_at(d, feature, lo - 1) if lo > 0 else bar


cdef double global_threshold_near(const Dataset* d, Py_ssize_t feature, double bar,
                                  uint32_t below, uint32_t above,
                                  uint32_t* rank) noexcept nogil:
    """global_threshold, float64 growing on the lists: below and above are the
    ranks of the values either side of the chosen cut (the scan's neighbours),
    so the search runs between them, not over the whole column. The same value:
    every rank up to below holds a value <= bar, every one from above a larger.
    rank: set to how many known values are <= the threshold (cut_rank's answer,
    the rank the search stops at), NO_CUT_RANK where global_threshold answers."""
    cdef Py_ssize_t lo, hi, at, step
    cdef double share, v_below, v_above
    rank[0] = NO_CUT_RANK
    if d.listed or d.cut_from_distinct or below >= above or above >= d.n_known[feature]:
        return global_threshold(d, feature, bar)
    v_below = sorted_at(d, feature, below)
    v_above = sorted_at(d, feature, above)
    if not (v_below <= bar and v_above > bar):
        return global_threshold(d, feature, bar)
    # The first rank in (below, above] whose value exceeds bar. The ranks between
    # belong to other nodes and may be many.
    lo = below + 1                       # v[lo - 1] <= bar
    hi = above                           # v[hi] > bar
    if d.rank_sample != NULL:
        lo = rank_above(d, feature, lo, hi, bar)
        rank[0] = <uint32_t> lo
        return sorted_at(d, feature, lo - 1)
    # Without the sample: start where bar lies between the two values (the
    # values between are spread much like them), then gallop to a bracket and
    # search it (the same rank from any start).
    share = (bar - v_below) / (v_above - v_below)
    at = lo + <Py_ssize_t> (share * <double> (hi - lo)) if 0.0 <= share <= 1.0 else lo
    if at < lo:
        at = lo
    if at > hi:
        at = hi
    step = 1
    if sorted_at(d, feature, at) <= bar:
        lo = at + 1
        while lo + step < hi and sorted_at(d, feature, lo + step - 1) <= bar:
            lo = lo + step
            step *= 2
        if lo + step < hi:
            hi = lo + step - 1
    else:
        hi = at
        while hi - step > lo and sorted_at(d, feature, hi - step) > bar:
            hi = hi - step
            step *= 2
        if hi - step > lo:
            lo = hi - step + 1
    # Now v[lo - 1] <= bar < v[hi]: the answer is in [lo, hi].
    lo = sorted_at_most(d, feature, lo, hi, bar)
    rank[0] = <uint32_t> lo             # the values <= bar are those <= v[lo - 1]
    return sorted_at(d, feature, lo - 1)


ctypedef fused Ascending:
    double
    float


cdef inline Py_ssize_t count_at_most(const Ascending* v, Py_ssize_t n, double x) noexcept nogil:
    """How many of the ascending v[0 .. n) are <= x (binary search)."""
    cdef Py_ssize_t lo = 0, hi = n, mid
    while lo < hi:
        mid = (lo + hi) // 2
        if v[mid] <= x:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef inline Py_ssize_t sorted_at_most(const Dataset* d, Py_ssize_t feature, Py_ssize_t lo,
                                     Py_ssize_t hi, double x) noexcept nogil:
    """count_at_most over feature's sorted values (float64: sorted_at) of ranks
    [lo, hi): lo plus how many of them are <= x."""
    cdef Py_ssize_t mid
    while lo < hi:
        mid = (lo + hi) // 2
        if sorted_at(d, feature, mid) <= x:
            lo = mid + 1
        else:
            hi = mid
    return lo


# Dataset.rank_sample holds every RANK_SAMPLE-th sorted value: 1/64 of the
# sorted values' bytes (1/8 of a byte a cell), and a search then reads at most
# six values past the sample's.
cdef Py_ssize_t RANK_SAMPLE = 64


cdef Py_ssize_t rank_above(const Dataset* d, Py_ssize_t feature, Py_ssize_t lo,
                           Py_ssize_t hi, double x) noexcept nogil:
    """sorted_at_most(d, feature, lo, hi, x), its range first narrowed by the
    feature's sample (Dataset.rank_sample, the same values) to RANK_SAMPLE ranks
    at most: the first rank in [lo, hi) whose value exceeds x, hi if none."""
    cdef const double* s
    cdef Py_ssize_t a, b, mid
    if d.rank_sample != NULL and hi - lo > RANK_SAMPLE:
        s = d.rank_sample + <Py_ssize_t> d.col[feature] * d.sample_stride
        a = (lo + RANK_SAMPLE - 1) // RANK_SAMPLE      # the samples of ranks in [lo, hi)
        b = (hi - 1) // RANK_SAMPLE + 1
        while a < b:                    # the first of them above x
            mid = (a + b) // 2
            if s[mid] <= x:
                a = mid + 1
            else:
                b = mid
        if a * RANK_SAMPLE < hi:
            hi = a * RANK_SAMPLE        # (its value > x)
        if (a - 1) * RANK_SAMPLE + 1 > lo:
            lo = (a - 1) * RANK_SAMPLE + 1  # (the sample before it <= x)
    return sorted_at_most(d, feature, lo, hi, x)


cdef double* rank_sample_of(const Dataset* d) noexcept nogil:
    """Dataset.rank_sample for d (its sample_stride set), read through sorted_at:
    NULL where no search reads the sorted values, where it cannot be made (then
    rank_above searches without it) or when interrupted (the caller unwinds)."""
    cdef Py_ssize_t f, r, stride = d.n_cases // RANK_SAMPLE + 1, n_cols = 0
    cdef double* s
    for f in range(d.n_features):
        if d.n_values[f] == 0:
            n_cols = max(n_cols, <Py_ssize_t> d.col[f] + 1)
    if n_cols == 0 or d.f32 or d.listed or d.midpoint or d.cut_from_distinct:
        return NULL
    s = <double*> malloc(n_cols * stride * sizeof(double))
    if s == NULL:
        return NULL
    for f in range(d.n_features):
        if d.n_values[f] == 0:
            for r in range((d.n_known[f] + RANK_SAMPLE - 1) // RANK_SAMPLE):
                if stop_at(d, r):
                    free(s)
                    return NULL
                s[<Py_ssize_t> d.col[f] * stride + r] = sorted_at(d, f, r * RANK_SAMPLE)
    (<Dataset*> d).sample_stride = stride
    return s


cdef uint32_t cut_rank(const Dataset* d, Py_ssize_t feature, double threshold) noexcept nogil:
    """float64 mode: the number of known training values <= threshold (by_source:
    while the ranks are orders)."""
    return <uint32_t> sorted_at_most(d, feature, 0, d.n_known[feature], threshold)
