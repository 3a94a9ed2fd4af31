"""Growing in precision="float64" (§2) on presorted case lists.

Every feature is sorted once. A node then owns a list of its cases in row order
(the "row list") and one list per continuous feature with the unknown values
first (row order) and the known ones by (value, row): the canonical order of
project decision 7. Each list has an arena of its own (list j of every node is in
arena j, all nodes at the same offset in every arena), so a split works on one
list at a time. A feature's entries hold only the case's rank in the feature (4
bytes), which says where its value is in the feature's sorted column and where
its id is in the feature's order (the rank table inverted in place while growing:
rank_order), so evaluating a feature is one scan in order that reads the sorted
values and the ids in sequence, and no node ever sorts; the case's class, and its
weight at the node (the row list's 16-byte entries; not at all where every case
weighs 1), are read by case id, fetched ahead of the scan. A split
builds each child's lists by a stable filter of the parent's: the child keeps
the cases of its branch and every case of unknown outcome, whose weight is
scaled by the branch's share (§2 step 9). A test of many branches indexes its
entries by branch once and gathers each child's lists from the index, the same
lists in the same order (a filter per branch would cost branches x cases). The
child with the most cases is grown last, filtered in place over its parent's
lists; the others are copied to the top of the arenas and freed when grown, so
the arenas stay within a small multiple of the root's lists. A split with two
non-empty branches (every continuous test) makes both children at once, each
list in one pass that reads every entry and its case's mark once (part_one). At the top of the tree a
binary split makes both children at once, list by list (split_binary): the
small child's list goes through a scratch list (one per thread) to its place
right above the large one's, so the peak is the root's lists plus the cases of
unknown outcome and the scratch, not the parent's lists plus a copy of the small
child's.

Every sum is taken in an order that depends only on the node's set of cases and
weights (row order, or the canonical order for a continuous feature), so the
order in which children are grown, and the number of threads, change no bit.
tests/oracle.py states the same orders and is compared with this on random data.

Subtrees are grown in parallel (n_jobs): the top of the tree is grown first, and
every child with fewer than n/16 cases (at least 1,000) is set aside as a task
with a copy of its lists, whose entries carry the case beside the rank (Pair:
below the top a node's ranks are spread thin, and reading each case from the
order would be a cache miss an entry). Whenever the waiting tasks hold enough
entries (flush_budget: on one thread, each task at once) and at the end, they are
grown by the threads, each with its own buffers, into small trees grafted back in
the order the tasks were made;
the top nodes' errors and collapse (§2 step 11) are settled last, children first.
The tasks are made the same way whatever n_jobs is, so the tree never depends on
it (with max_features, each task draws from its own seeded stream).

precision="float32" grows with R8's own case array and quicksort (c45/_tree.pyx),
except where every sum it takes is exact whatever its order (whole case weights,
no unknown value, a total weight of at most 2**24: Dataset.listed): then R8's
case order changes no bit, and float32 grows here too, on one thread, with R8's
binary32 arithmetic (the criterion's f32, eval_continuous_sums_exact). Both
follow the node rules of c45/_nodes.pxd (stopping, leaves, tests, collapse).
"""
from cython.parallel cimport prange, threadid
from libc.math cimport isnan, NAN
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t

from c45._types cimport (Dataset, Entry, Valued, Pair, Node, NodeBuffer, LEAF, DISCRETE,
                         CONTINUOUS, SUBSET, NO_CUT_RANK)
from c45._criterion cimport EPSILON, rnd
from c45._scratch cimport (resize, room_for, c45_big_resize, c45_big_free,
                          c45_big_advise_huge)
from c45._tasks cimport TaskOrder, run_tasks, team_for
from c45._splitter cimport (Work, work_alloc, work_free, work_trim_nlogn, draw_features,
                            evaluate_feature, eval_continuous_list, select_feature, settle_bar,
                            key_value, key_unknown, list_cases, case_of, list_case,
                            rank_sample_of)
from c45._interrupt cimport interrupted, raise_interrupt, touch_pages, look_by_cells
from c45._types cimport Interrupt, initial_weight
from c45._nodes cimport (buffer_reserve, buffer_room, maps_reserve, buffer_free, buffer_fit,
                         make_leaf, stays_leaf, no_test, test_kind, cut_of, cut_of_listed,
                         cut_separates, store_map, set_test, empty_branch,
                         collapse_if_no_better, reclaim_collapsed, copy_class_weights,
                         no_unknown_values)


cdef struct ListFrame:
    int32_t node
    int32_t depth
    Py_ssize_t base          # the node's list j: lists[j][base .. base + m)
    Py_ssize_t m             # cases at the node
    Py_ssize_t branch_info   # offset of the node's per-branch sizes and factors
    int32_t next             # next branch to grow (1-based); 0: node not entered yet
    int32_t last             # the branch grown last, in place; 0: none left
    int32_t n_unknown        # cases of unknown outcome at the split
    int32_t* index           # a many-branch test's entries by branch (index_branches)


cdef struct Grower:
    Work* w
    void** lists             # list j's arena (n_lists of them, arena_cap entries or more):
                             # list 0 (rows) of Entry, the others of Valued
    Py_ssize_t arena_cap
    Py_ssize_t arena_top     # entries in use, the same in every arena
    Py_ssize_t n_lists       # 1 + number of continuous features
    int32_t* list_of         # feature -> its list (1..), 0 for a discrete feature
    int32_t* feature_of      # list j >= 1 -> feature
    void* outcome            # per case id: branch of the current split (0: unknown),
                             # a byte where no test has more than 255 branches
    bint narrow              # (narrow_outcomes), else an int32_t (outcome_of)
    uint8_t* mark            # per case id, for the child being built: 1 its branch,
                             # 2 unknown outcome, 0 elsewhere (1 byte: stays in cache)
    double* factor           # per branch of every node on the stack: weight factor
    Py_ssize_t* size         # per branch: known cases of the branch
    Py_ssize_t info_cap
    Py_ssize_t info_top
    Py_ssize_t width         # words a feature's entry: 1 the rank (the top of the tree,
                             # the case from the order), 2 rank and case (Pair: a
                             # set-aside subtree, whose sparse ranks would make every
                             # read of the order a cache miss)
    bint any_discrete
    bint shares_tables       # list_of, feature_of belong to another grower
    bint lends_cases         # outcome and mark serve the task workers too, which
                             # grow subtrees no case is in twice (cases_disjoint)
                             # while this grower waits: kept until grower_free
    bint borrows_cases       # outcome and mark are another grower's (lends_cases)
    bint huge                # the root's arenas, filled whole: 2 MB pages where allowed


ctypedef fused AnyEntry:
    Entry
    Valued
    Pair


cdef extern from "_prefetch.h":
    void C45_PREFETCH(const void* addr) noexcept nogil


# Entries ahead whose case id (a feature list's, from its order) is fetched early:
# below the root a list's ranks are spread over the whole order, a cache miss each.
cdef Py_ssize_t ORDER_AHEAD = 32
# The same for the tables read by case from the row list (in case order: below
# the root its cases are far apart). Each read is a few cycles of work: 64
# ahead cover a miss where 16 left the node's class sums waiting on it.
cdef Py_ssize_t ROWS_AHEAD = 64


cdef inline size_t entry_size(Py_ssize_t j, Py_ssize_t width) noexcept nogil:
    """Bytes of an entry of list j: the row list's carry the weight, a feature's
    are `width` words (Grower.width)."""
    return sizeof(Entry) if j == 0 else width * sizeof(Valued)


cdef inline Entry* rows_at(void** lists, Py_ssize_t base) noexcept nogil:
    return (<Entry*> lists[0]) + base


cdef inline Valued* values_at(void** lists, Py_ssize_t j, Py_ssize_t base,
                              Py_ssize_t width) noexcept nogil:
    return (<Valued*> lists[j]) + base * width


cdef inline const uint32_t* cases_of(const Grower* g, Py_ssize_t j) noexcept nogil:
    """What gives the case of an entry of list j >= 1 (list_cases)."""
    return list_cases(g.w.data, g.feature_of[j])


cdef int arena_reserve(Grower* g, Py_ssize_t extra) noexcept nogil:
    """Room for extra more entries in every arena."""
    cdef Py_ssize_t cap = g.arena_cap, j
    cdef void* grown
    if g.arena_top + extra <= cap:
        return 0
    while cap < g.arena_top + extra:
        cap = cap + cap // 2 + 1024
    for j in range(g.n_lists):
        grown = c45_big_resize(g.lists[j], cap * entry_size(j, g.width))
        if grown == NULL:
            return -1                  # the arenas grown so far keep their data
        if g.huge:
            c45_big_advise_huge(grown)  # the root's lists fill it: 2 MB page faults
        g.lists[j] = grown
    g.arena_cap = cap
    return 0


cdef void arena_trim(Grower* g) noexcept nogil:
    """Give back the arenas' room above their top, so that set-aside tasks do not
    stack on pages the top nodes touched and no longer use (a mapped arena gives
    its pages back at once; a small one's tail goes back to malloc for the task
    copies). A failed shrink keeps the larger block, which has the room too."""
    cdef Py_ssize_t cap = g.arena_top + 1024, j
    cdef void* kept
    if cap >= g.arena_cap:
        return
    for j in range(g.n_lists):
        kept = c45_big_resize(g.lists[j], cap * entry_size(j, g.width))
        if kept != NULL:
            g.lists[j] = kept
    g.arena_cap = cap


cdef int info_reserve(Grower* g, Py_ssize_t extra) noexcept nogil:
    cdef Py_ssize_t cap = g.info_cap
    if g.info_top + extra <= cap:
        return 0
    while cap < g.info_top + extra:
        cap = 2 * cap + 64
    if (resize(<void**> &g.factor, g.info_cap, cap, sizeof(double), False) < 0
            or resize(<void**> &g.size, g.info_cap, cap, sizeof(Py_ssize_t), False) < 0):
        return -1
    g.info_cap = cap
    return 0


cdef int root_lists(Grower* g) noexcept nogil:
    """The root's lists from the ranks: row list, then each continuous feature in
    canonical order (ranks n_known.. are the unknowns, in row order); the
    features' lists are made by the threads at once. Returns -1 out of memory,
    1 interrupted (the lists then unfinished: the call unwinds)."""
    cdef const Dataset* d = g.w.data
    cdef Py_ssize_t n = d.n_cases, j, c, c0
    cdef Entry* e
    cdef int threads = team_for(g.w.n_threads, n * (g.n_lists - 1))
    if arena_reserve(g, n) < 0:
        return -1
    # The case tables' first touch (calloc's pages) in steps, not in the root's
    # scattered writes (the writes keep their zeros)
    if (touch_pages(g.outcome, (n + 1) * outcome_bytes(g), d.intr)
            or touch_pages(g.mark, (n + 1) * sizeof(uint8_t), d.intr)):
        return 1
    e = rows_at(g.lists, 0)
    c0 = 0
    while c0 < n:              # (the first touch of the arena's pages: slow)
        if interrupted(d.intr):
            return 1
        for c in range(c0, min(n, c0 + CHUNK)):
            e[c].weight = initial_weight(d, c)
            e[c].case = <int32_t> c
            e[c].outcome = 0
        c0 += CHUNK
    if threads > 1:
        for j in prange(1, g.n_lists, nogil=True, schedule="dynamic", num_threads=threads):
            feature_list(d, g.feature_of[j], values_at(g.lists, j, 0, 1))
    else:       # no OpenMP region at all: a forked child must not enter one
        for j in range(1, g.n_lists):
            if feature_list(d, g.feature_of[j], values_at(g.lists, j, 0, 1)):
                break
    if interrupted(d.intr):
        return 1
    g.arena_top = n
    return 0


cdef bint feature_list(const Dataset* d, Py_ssize_t f, Valued* e) noexcept nogil:
    """The root's list of continuous feature f, the cases in the feature's order
    with the unknown ones (ranks n_known..) first: the key a case's rank (float64)
    or its row (float32, its values by row). True when interrupted (unfinished)."""
    cdef Py_ssize_t n = d.n_cases, col = <Py_ssize_t> d.col[f] * n
    cdef Py_ssize_t n_known = d.n_known[f], r, r0 = 0
    while r0 < n:
        if interrupted(d.intr):
            return True
        for r in range(r0, min(n, r0 + CHUNK)):
            e[r - n_known if r >= n_known else r + (n - n_known)] = (
                d.order[col + r] if d.listed else <uint32_t> r)
        r0 += CHUNK
    return False


cdef enum:
    PLACED = 0x80000000U     # invert_column: the entry holds its inverse already
    CHUNK = 1 << 16          # entries between two looks for Ctrl-C in whole-column
                             # passes (scattered over 40M rows, ~0.1 s a 2**20)
    LOOK_MASK = 0xFFFF       # a node's passes look every LOOK_MASK + 1 entries


cdef inline bint stop_at(Interrupt* intr, Py_ssize_t i) noexcept nogil:
    """A node's pass looks for Ctrl-C here (every LOOK_MASK + 1 entries): True
    to stop, its output then unfinished, which the grower unwinds without reading
    (run_dfs looks before each node)."""
    return (i & LOOK_MASK) == LOOK_MASK and interrupted(intr)


cdef bint invert_column(uint32_t* a, Py_ssize_t n, uint32_t* scratch,
                        Interrupt* intr) noexcept nogil:
    """a, a permutation of 0 .. n - 1, becomes its inverse: through scratch (room
    for n entries), or without it (NULL; n < 2**31) in place along its cycles,
    which is slower (each step waits for the last) but needs no memory. Looks
    for Ctrl-C every CHUNK entries: True when interrupted, a then a mix of the
    permutation and its inverse (every entry still below n), which nothing may
    read (the call unwinds)."""
    cdef Py_ssize_t i, i0, start
    cdef uint32_t prev, cur, nxt
    cdef bint stop = False
    if scratch != NULL:
        if touch_pages(scratch, n * sizeof(uint32_t), intr):
            return True
        memcpy(scratch, a, n * sizeof(uint32_t))
        i0 = 0
        while i0 < n:
            if interrupted(intr):
                return True
            for i in range(i0, min(n, i0 + CHUNK)):
                a[scratch[i]] = <uint32_t> i
            i0 += CHUNK
        return False
    i0 = 0
    while i0 < n and not stop:
        stop = interrupted(intr)
        for start in range(i0, min(n, i0 + CHUNK)):
            if stop or a[start] & PLACED:
                continue
            prev = <uint32_t> start
            cur = a[start]
            while cur != start:      # a cycle takes n steps at most: seconds at worst
                nxt = a[cur]
                a[cur] = prev | PLACED
                prev = cur
                cur = nxt
            a[start] = prev | PLACED
        i0 += CHUNK
    for i in range(n):              # (interrupted too: no entry left out of range)
        a[i] &= ~PLACED
    return stop


cdef void rank_order(Dataset* d, int n_threads) noexcept nogil:
    """float64: turn the rank table (each case's place in each continuous feature's
    order) into the features' orders (the case at each place) in place, d.rank
    becoming d.order, or back. The lists then need no case id beside a rank (4
    bytes an entry, not 8) and the fit no second table. A column of scratch per
    thread; where that memory is short, in place without it: this cannot fail.
    Interrupted (Ctrl-C: d.intr's stop set), the table is left half inverted
    and the call that holds it unwinds without reading it."""
    cdef uint32_t* table = <uint32_t*> (d.rank if d.rank != NULL else d.order)
    cdef Py_ssize_t n = d.n_cases, f, n_cont = 0
    cdef uint32_t* scratch = NULL
    cdef int threads
    for f in range(d.n_features):
        if d.n_values[f] == 0:
            n_cont += 1
    threads = team_for(n_threads, n * n_cont)
    if n > 0 and n_cont > 0:
        # (a big block: glibc's heap would keep its pages resident once freed)
        scratch = <uint32_t*> c45_big_resize(NULL, threads * n * sizeof(uint32_t))
        if scratch == NULL:
            threads = 1
            scratch = <uint32_t*> c45_big_resize(NULL, n * sizeof(uint32_t))
        if threads > 1:
            for f in prange(d.n_features, nogil=True, schedule="dynamic",
                            num_threads=threads):
                if d.n_values[f] == 0:
                    invert_column(table + <Py_ssize_t> d.col[f] * n, n,
                                  scratch + threadid() * n, d.intr)
        else:       # no OpenMP region at all: a forked child must not enter one
            for f in range(d.n_features):
                if d.n_values[f] == 0 and invert_column(
                        table + <Py_ssize_t> d.col[f] * n, n, scratch, d.intr):
                    break
        c45_big_free(scratch)
    if d.rank != NULL:
        d.order = table
        d.rank = NULL
    else:
        d.rank = table
        d.order = NULL


cdef void evaluate(Grower* g, Py_ssize_t base, Py_ssize_t m, double total) noexcept nogil:
    """Gain, info and bar of every feature at the node (§3-§5), whose class
    weights are in w.dist."""
    cdef Work* w = g.w
    cdef const Dataset* d = w.data
    cdef Py_ssize_t f, i, j, tid
    cdef const Entry* rl = rows_at(g.lists, base)
    cdef bint sample = 0 < d.max_features < d.n_features
    cdef bint unit = True
    cdef const double* cw = NULL
    cdef Work* tw
    if sample:
        draw_features(w)
    for i in range(m):
        if rl[i].weight != 1.0 or stop_at(d.intr, i):
            unit = False
            break
    if g.any_discrete or not unit:
        # The discrete evaluators read the case array and the case weights; the
        # continuous ones the weights (by case id), unless every case weighs 1.
        # (Interrupted, every feature's gain below is unusable.)
        for i in range(m):
            if stop_at(d.intr, i):
                break
            w.cases[i] = rl[i].case
            w.weight[rl[i].case] = rl[i].weight
    if not unit:
        cw = w.weight
    if team_for(w.n_threads, m * d.n_features) > 1:
        for f in prange(d.n_features, nogil=True, schedule="dynamic",
                        num_threads=w.n_threads):
            tid = threadid()
            tw = &w.threads[tid]
            tw.min_objs = w.min_objs
            j = g.list_of[f]
            if interrupted(d.intr):      # unusable: the node becomes a leaf, then unwinds
                w.gain[f] = -EPSILON
                w.info[f] = 0.0
            elif j == 0:
                evaluate_feature(tw, f, 0, m - 1, total, sample)   # reads w.cases
            elif sample and not w.drawn[f]:
                w.gain[f] = -EPSILON
                w.info[f] = 0.0
            else:
                eval_continuous_list(tw, f, values_at(g.lists, j, base, g.width), g.width,
                                     m, cw, w.dist, total)
        return
    for f in range(d.n_features):
        j = g.list_of[f]
        if interrupted(d.intr):
            w.gain[f] = -EPSILON
            w.info[f] = 0.0
        elif j == 0:
            evaluate_feature(w, f, 0, m - 1, total, sample)
        elif sample and not w.drawn[f]:
            w.gain[f] = -EPSILON
            w.info[f] = 0.0
        else:
            eval_continuous_list(w, f, values_at(g.lists, j, base, g.width), g.width, m, cw,
                                 w.dist, total)


cdef enum:
    FILTER_BLOCK = 64        # entries whose marks filter_one reads before moving them


cdef inline Py_ssize_t block_marks(const AnyEntry* s, Py_ssize_t i0, Py_ssize_t m,
                                   const uint8_t* mark, const uint32_t* cs,
                                   uint8_t* b) noexcept nogil:
    """The marks of the block of entries from s[i0] (FILTER_BLOCK of them, fewer
    at the list's end m) into b; returns how many. A block's marks are read
    before its entries move: their reads (by case, spread over the table) do
    not wait for one another, as they would behind each write's place."""
    cdef Py_ssize_t i, n = min(<Py_ssize_t> FILTER_BLOCK, m - i0)
    for i in range(i0, i0 + n):
        if AnyEntry is Entry or AnyEntry is Pair:
            b[i - i0] = mark[s[i].case]
        else:
            if cs != NULL and i + ORDER_AHEAD < m:
                C45_PREFETCH(&cs[s[i + ORDER_AHEAD]])
            b[i - i0] = mark[case_of(cs, s[i])]
    return n


cdef inline void filter_one(const AnyEntry* s, Py_ssize_t m, AnyEntry* o,
                            Py_ssize_t m_child, const uint8_t* mark,
                            double factor, const uint32_t* cs,
                            Interrupt* intr) noexcept nogil:
    """One list of a child from its parent's: a stable filter keeping the cases
    marked 1 (the child's branch) and 2 (unknown outcome, weight scaled). o may
    equal s (in place): every entry is written at or before where it was read.
    Branch-free (a child's cases are interleaved unpredictably with the others):
    every entry is written at o[t] and t advances only for a kept one; the loop
    ends at the child's last case, so no write passes o[m_child - 1]. Only the
    row list's entries carry a weight to scale; a feature's give their case
    through cs (list_cases)."""
    cdef Py_ssize_t i, i0, n, t = 0
    cdef uint8_t b[FILTER_BLOCK]
    cdef AnyEntry e
    cdef double scale[3]
    scale[0] = 1.0
    scale[1] = 1.0
    scale[2] = factor              # w * 1.0 == w exactly
    if m_child <= 0:
        return
    i0 = 0
    while i0 < m:
        if stop_at(intr, i0 + FILTER_BLOCK - 1):
            return
        n = block_marks(s, i0, m, mark, cs, b)
        for i in range(n):
            e = s[i0 + i]
            if AnyEntry is Entry:
                e.weight = e.weight * scale[b[i]]
            o[t] = e
            t += b[i] != 0
            if t == m_child:
                return
        i0 += n


cdef inline void filter_list(Grower* g, void** src, Py_ssize_t src_base, Py_ssize_t m,
                             void** dst, Py_ssize_t dst_base, Py_ssize_t m_child,
                             double factor, Py_ssize_t j) noexcept nogil:
    """List j of the child, from src[j] + src_base to dst[j] + dst_base."""
    if j == 0:
        filter_one(rows_at(src, src_base), m, rows_at(dst, dst_base), m_child, g.mark,
                   factor, NULL, g.w.data.intr)
    else:
        if g.width == 2:
            filter_one(<Pair*> values_at(src, j, src_base, 2), m,
                       <Pair*> values_at(dst, j, dst_base, 2), m_child, g.mark, factor, NULL,
                       g.w.data.intr)
        else:
            filter_one(values_at(src, j, src_base, 1), m, values_at(dst, j, dst_base, 1),
                       m_child, g.mark, factor, cases_of(g, j), g.w.data.intr)


cdef void filter_lists(Grower* g, void** src, Py_ssize_t src_base, Py_ssize_t m,
                       void** dst, Py_ssize_t dst_base, Py_ssize_t m_child,
                       double factor, int n_threads) noexcept nogil:
    """All the child's lists, list j from src[j] + src_base to dst[j] + dst_base
    (in place when they are the same), by n_threads at once."""
    cdef Py_ssize_t j
    if n_threads <= 1:
        for j in range(g.n_lists):
            filter_list(g, src, src_base, m, dst, dst_base, m_child, factor, j)
    else:
        for j in prange(g.n_lists, nogil=True, schedule="dynamic", num_threads=n_threads):
            filter_list(g, src, src_base, m, dst, dst_base, m_child, factor, j)


cdef void** new_lists(Py_ssize_t n_lists, Py_ssize_t m) noexcept nogil:
    """n_lists arenas of m entries each, a set-aside subtree's (width 2), big
    blocks as the root's are (c45/_scratch.pxd): freed, the pages of all they
    grew to go back (malloc would keep them resident, while the subtrees grown
    next in the same flush take fresh pages for their nodes). NULL when memory
    runs out."""
    cdef void** lists = <void**> calloc(n_lists, sizeof(void*))
    cdef Py_ssize_t j
    if lists == NULL:
        return NULL
    for j in range(n_lists):
        lists[j] = c45_big_resize(NULL, m * entry_size(j, 2) + 1)
        if lists[j] == NULL:
            free_lists(lists, n_lists)
            return NULL
    return lists


cdef void free_lists(void** lists, Py_ssize_t n_lists) noexcept nogil:
    cdef Py_ssize_t j
    if lists != NULL:
        for j in range(n_lists):
            c45_big_free(lists[j])
        free(lists)


cdef inline int threads_for(const Grower* g, Py_ssize_t m) noexcept nogil:
    """Threads to make the lists of a child of m cases (c45/_tasks.pyx: team_for)."""
    return team_for(g.w.n_threads, m * g.n_lists)


cdef inline size_t outcome_bytes(const Grower* g) noexcept nogil:
    return sizeof(uint8_t) if g.narrow else sizeof(int32_t)


cdef inline int32_t outcome_of(const Grower* g, Py_ssize_t case) noexcept nogil:
    """The outcome of case at the current split (Grower.outcome)."""
    if g.narrow:
        return (<const uint8_t*> g.outcome)[case]
    return (<const int32_t*> g.outcome)[case]


cdef inline void put_outcome(const Grower* g, Py_ssize_t case, int32_t v) noexcept nogil:
    if g.narrow:
        (<uint8_t*> g.outcome)[case] = <uint8_t> v
    else:
        (<int32_t*> g.outcome)[case] = v


cdef bint narrow_outcomes(const Dataset* d) noexcept nogil:
    """Whether every test's outcomes fit a byte: no discrete feature of more than
    255 values (a continuous test has two branches; a subset test's groups are
    at most its feature's values)."""
    cdef Py_ssize_t f
    for f in range(d.n_features):
        if d.n_values[f] > 255:
            return False
    return True


cdef inline void set_outcomes(const Grower* g, const Valued* fl, Py_ssize_t wd,
                              const uint32_t* cs, Py_ssize_t lo, Py_ssize_t hi,
                              Py_ssize_t m, int32_t v, Interrupt* intr) noexcept nogil:
    """Outcome v for the cases of entries lo .. hi - 1 of a feature's list of m
    entries (list_case), each case from the order fetched ahead."""
    cdef Py_ssize_t i
    for i in range(lo, hi):
        if stop_at(intr, i):
            return
        if wd == 1 and cs != NULL and i + ORDER_AHEAD < m:
            C45_PREFETCH(&cs[fl[i + ORDER_AHEAD]])
        put_outcome(g, list_case(fl, wd, cs, i), v)


cdef int enter_listed(Grower* g, NodeBuffer* t, ListFrame* fr) noexcept nogil:
    """Make the node a leaf, or give it a test, its children and branch shares.
    Returns 1 for a split, 0 for a leaf, -1 when memory runs out."""
    cdef Work* w = g.w
    cdef const Dataset* d = w.data
    cdef Py_ssize_t k = d.n_classes, m = fr.m, i, feature, n_branches, v, best_v, cut
    cdef Entry* rl = rows_at(g.lists, fr.base)
    cdef const Valued* fl
    cdef const uint32_t* cs
    cdef Py_ssize_t wd
    cdef double total = 0.0, threshold = NAN, unknown_w = 0.0, known_w
    cdef int kind
    cdef int32_t best
    cdef int64_t map_offset = -1
    cdef Py_ssize_t n_unknown = 0
    cdef uint32_t cut_rank = NO_CUT_RANK
    cdef const int32_t* codes
    cdef const int32_t* vmap
    cdef double* bw
    cdef Py_ssize_t* size
    cdef Node* nd
    memset(w.dist, 0, k * sizeof(double))
    if w.y8 != NULL:        # the classes in one byte a case: a quarter of the cache lines
        for i in range(m):
            if (i & LOOK_MASK) == LOOK_MASK and interrupted(d.intr):
                return 0    # (the call unwinds: run_dfs stops at its next node)
            if i + ROWS_AHEAD < m:
                C45_PREFETCH(&w.y8[rl[i + ROWS_AHEAD].case])
            total += rl[i].weight
            w.dist[w.y8[rl[i].case]] += rl[i].weight
    else:
        for i in range(m):
            if (i & LOOK_MASK) == LOOK_MASK and interrupted(d.intr):
                return 0
            total += rl[i].weight
            w.dist[d.y[rl[i].case]] += rl[i].weight
    best = make_leaf(t, fr.node, w.dist, total, d.f32)
    if stays_leaf(d, w.min_objs, fr.depth, total, w.dist[best]):
        return 0
    evaluate(g, fr.base, m, total)
    feature = select_feature(w)
    if no_test(d, w.gain, feature):
        return 0
    # Each case's outcome: 0 unknown, else its branch.
    kind = test_kind(d, w.n_groups, feature, &n_branches)
    if kind == CONTINUOUS:
        fl = values_at(g.lists, g.list_of[feature], fr.base, g.width)
        wd = g.width
        cut = w.cut_at[feature]           # the chosen cut's lower entry in fl
        settle_bar(w, feature)
        if 0 <= cut < m - 1:
            threshold = cut_of_listed(d, w.bar, feature, fl[cut * wd], fl[(cut + 1) * wd],
                                      &cut_rank)
        else:
            threshold = cut_of(d, w.bar, feature)
        cs = list_cases(d, feature)
        while n_unknown < m and key_unknown(d, feature, fl[n_unknown * wd]):
            n_unknown += 1
        if n_unknown >= m or not cut_separates(key_value(d, feature, fl[n_unknown * wd]),
                                               key_value(d, feature, fl[(m - 1) * wd]),
                                               threshold):
            return 0
        set_outcomes(g, fl, wd, cs, 0, n_unknown, m, 0, d.intr)
        if (n_unknown <= cut < m - 1 and key_value(d, feature, fl[cut * wd]) <= threshold
                and key_value(d, feature, fl[(cut + 1) * wd]) > threshold):
            # The known entries are in value order: the cut's two sides are
            # the entries up to it and those after it (no value read).
            set_outcomes(g, fl, wd, cs, n_unknown, cut + 1, m, 1, d.intr)
            set_outcomes(g, fl, wd, cs, cut + 1, m, m, 2, d.intr)
        else:
            for i in range(n_unknown, m):
                if stop_at(d.intr, i):
                    return 0
                put_outcome(g, list_case(fl, wd, cs, i),
                            1 if key_value(d, feature, fl[i * wd]) <= threshold else 2)
    else:
        codes = d.codes + <Py_ssize_t> d.col[feature] * d.n_cases
        if kind == SUBSET:
            vmap = &w.groups[w.group_start[feature]]
            map_offset = store_map(t, vmap, d.n_values[feature])
            if map_offset == -2:
                return -1
            for i in range(m):
                if stop_at(d.intr, i):
                    return 0
                put_outcome(g, rl[i].case, vmap[codes[rl[i].case]])
        else:
            for i in range(m):
                if stop_at(d.intr, i):
                    return 0
                put_outcome(g, rl[i].case, codes[rl[i].case])
    if interrupted(d.intr):
        return 0            # (an outcome pass stopped: the node stays a leaf)
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
        if (i & LOOK_MASK) == LOOK_MASK and interrupted(d.intr):
            return 0        # (before the node gets its test)
        if i + ROWS_AHEAD < m:
            C45_PREFETCH(<char*> g.outcome + rl[i + ROWS_AHEAD].case * outcome_bytes(g))
        v = outcome_of(g, rl[i].case)
        rl[i].outcome = <int32_t> v
        if v == 0:
            unknown_w += rl[i].weight
        else:
            bw[v] += rl[i].weight
        size[v] += 1
    n_unknown = size[0]
    known_w = total - unknown_w
    if set_test(t, fr.node, kind, feature, threshold, n_branches, map_offset) < 0:
        return -1
    nd = &t.nodes[fr.node]
    nd.cut_rank = cut_rank
    # Empty branches are leaves of the parent's class and distribution; the
    # others get their weight factor; the largest is grown last, in place.
    best_v = 0
    for v in range(1, n_branches + 1):
        if size[v] == 0:
            empty_branch(t, nd.first_child + v - 1, fr.node)
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


cdef struct Task:
    int32_t node             # the subtree's root in the main tree
    int32_t depth
    void** lists             # its lists (n_lists of m entries), owned until grown
    Py_ssize_t m
    int32_t* used            # the discrete tests on its path (per feature)
    NodeBuffer sub           # the grown subtree; its node 0 is the task's node
    int status               # 0 grown, -1 out of memory


cdef struct Deferral:
    Py_ssize_t limit         # a child with fewer cases becomes a task
    Task* tasks
    Py_ssize_t n_tasks
    Py_ssize_t cap
    Py_ssize_t first_pending # tasks before this one are grown and grafted
    Py_ssize_t pending       # entries held by the pending tasks' lists
    Py_ssize_t budget        # ... grown as soon as they reach this (bounds memory)
    Grower* main
    NodeBuffer* tree
    int n_threads
    int32_t* finish          # top nodes to settle after the tasks, children first
    Py_ssize_t n_finish
    Py_ssize_t finish_cap
    Work* works              # the task workers' buffers (worker 0 grows with the main
    Grower* growers          # work), made at the first flush that needs them and kept
    int n_workers            # to the end of growing: n_workers of them so far


cdef int defer_child(Grower* g, Deferral* df, const ListFrame* fr, int32_t v,
                     Py_ssize_t m_child, int32_t node, int32_t depth) noexcept nogil:
    """Set the child of branch v of fr's node aside as a task, with a copy of its
    lists."""
    cdef Task* task
    cdef Py_ssize_t nf = g.w.data.n_features, j
    if room_for(<void**> &df.tasks, df.n_tasks, 1, &df.cap, sizeof(Task), 16) < 0:
        return -1
    task = &df.tasks[df.n_tasks]
    memset(task, 0, sizeof(Task))
    df.n_tasks += 1
    task.node = node
    task.depth = depth
    task.m = m_child
    task.status = -1                 # until grown
    if g.arena_cap - g.arena_top >= df.limit:
        arena_trim(g)
    task.lists = new_lists(g.n_lists, m_child)
    task.used = <int32_t*> malloc((nf + 1) * sizeof(int32_t))
    if task.lists == NULL or task.used == NULL:
        return -1
    memcpy(task.used, g.w.used, nf * sizeof(int32_t))
    child_lists(g, fr, v, task.lists, 0, m_child,
                threads_for(g, m_child))
    if interrupted(g.w.data.intr):
        return 0            # (unfinished lists: run_dfs unwinds, grow_end frees them)
    for j in range(1, g.n_lists):
        widen(<Valued*> task.lists[j], m_child, cases_of(g, j))
    df.pending += g.n_lists * m_child
    if df.pending >= df.budget and flush_tasks(df) < 0:
        return -1
    return 0


cdef void widen(Valued* e, Py_ssize_t m, const uint32_t* cs) noexcept nogil:
    """m ranks at the start of room for m pairs become (rank, case) pairs (Pair),
    the last one first: pair i covers words 2i and 2i + 1, past every rank not
    yet read."""
    cdef Py_ssize_t i
    cdef Valued r
    for i in range(m - 1, -1, -1):
        if cs != NULL and i >= ORDER_AHEAD:
            C45_PREFETCH(&cs[e[i - ORDER_AHEAD]])
        r = e[i]
        e[2 * i + 1] = <Valued> case_of(cs, r)
        e[2 * i] = r


cdef int note_finish(Deferral* df, int32_t node) noexcept nogil:
    if room_for(<void**> &df.finish, df.n_finish, 1, &df.finish_cap, sizeof(int32_t),
                64) < 0:
        return -1
    df.finish[df.n_finish] = node
    df.n_finish += 1
    return 0


cdef void settle(NodeBuffer* t, int32_t node, bint f32) noexcept nogil:
    """§2 step 11: the errors of a split node are its children's, summed in branch
    order; it collapses if they do not beat a leaf by more than epsilon."""
    cdef Node* nd = &t.nodes[node]
    cdef Py_ssize_t b
    cdef double errors = 0.0
    for b in range(nd.n_children):
        errors = rnd(f32, errors + t.nodes[nd.first_child + b].errors)
    nd.errors = errors
    collapse_if_no_better(t, node, f32)


cdef void mark_branch(Grower* g, Py_ssize_t base, Py_ssize_t m, int32_t v) noexcept nogil:
    """g.mark for the child of branch v, from the outcomes saved in the row
    list of the node at base: 1 its branch, 2 unknown outcome, 0 elsewhere."""
    cdef const Entry* rl = rows_at(g.lists, base)
    cdef Py_ssize_t i
    cdef int32_t b
    for i in range(m):
        if stop_at(g.w.data.intr, i):
            return
        b = rl[i].outcome
        g.mark[rl[i].case] = 1 if b == v else (2 if b == 0 else 0)


# A test with more branches than this makes its children's lists from an index of
# each branch's entries (index_branches, gather_one) instead of filtering all the
# parent's lists once per branch: filtering costs branches x cases (a
# 100,000-valued feature at 200,000 cases: 2e10 entry reads, 47 s), the index
# cases + branches, for 4 bytes per entry while the node's children grow.
cdef Py_ssize_t INDEX_MIN_BRANCHES = 8


cdef int index_branches(Grower* g, ListFrame* fr, Py_ssize_t n_branches) noexcept nogil:
    """fr.index: per list j, the positions in the node's list of its entries grouped
    by outcome (unknown first, then branch 1, 2, ...), each group in list order;
    then each group's start. Reads g.outcome, which holds the node's outcomes until
    its first child is entered. Returns -1 out of memory or interrupted (no
    index: the call unwinds)."""
    cdef Py_ssize_t m = fr.m, j, i
    cdef int32_t v
    cdef int32_t* index = <int32_t*> malloc(
        (g.n_lists * m + 2 * (n_branches + 1)) * sizeof(int32_t))
    cdef int32_t* start
    cdef int32_t* cursor
    cdef int32_t* out
    cdef const Entry* er
    cdef const Valued* ev
    cdef const uint32_t* cs
    if index == NULL:
        return -1
    start = index + g.n_lists * m
    cursor = start + n_branches + 1
    start[0] = 0
    for v in range(1, n_branches + 1):
        start[v] = start[v - 1] + <int32_t> g.size[fr.branch_info + v - 1]
    for j in range(g.n_lists):
        memcpy(cursor, start, (n_branches + 1) * sizeof(int32_t))
        out = index + j * m
        if j == 0:
            er = rows_at(g.lists, fr.base)
            for i in range(m):
                if stop_at(g.w.data.intr, i):
                    break
                v = outcome_of(g, er[i].case)
                out[cursor[v]] = <int32_t> i
                cursor[v] += 1
        else:
            ev = values_at(g.lists, j, fr.base, g.width)
            cs = cases_of(g, j)
            for i in range(m):
                if stop_at(g.w.data.intr, i):
                    break
                if g.width == 1 and cs != NULL and i + ORDER_AHEAD < m:
                    C45_PREFETCH(&cs[ev[i + ORDER_AHEAD]])
                v = outcome_of(g, list_case(ev, g.width, cs, i))
                out[cursor[v]] = <int32_t> i
                cursor[v] += 1
    if interrupted(g.w.data.intr):
        free(index)         # (unfinished: its positions must not be read)
        return -1
    fr.index = index
    return 0


cdef inline void gather_one(const AnyEntry* s, const int32_t* branch,
                            Py_ssize_t n_branch, const int32_t* unknown,
                            Py_ssize_t n_unknown, AnyEntry* o, double factor,
                            Interrupt* intr) noexcept nogil:
    """One list of a child from its parent's s: the branch's entries and those of
    unknown outcome (weight scaled), merged back into s's order by position, so
    the same list as filter_one makes. o may equal s: the t-th entry written comes
    from position t or later."""
    cdef Py_ssize_t a = 0, u = 0, t = 0
    cdef AnyEntry e
    while a < n_branch or u < n_unknown:
        if stop_at(intr, t):
            return
        if u == n_unknown or (a < n_branch and branch[a] < unknown[u]):
            e = s[branch[a]]
            a += 1
        else:
            e = s[unknown[u]]
            if AnyEntry is Entry:
                e.weight = e.weight * factor
            u += 1
        o[t] = e
        t += 1


cdef inline void gather_list(Grower* g, const ListFrame* fr, int32_t v, void** dst,
                             Py_ssize_t dst_base, Py_ssize_t j) noexcept nogil:
    """List j of the child of branch v, from the node's index (index_branches)."""
    cdef Py_ssize_t m = fr.m, n_branch = g.size[fr.branch_info + v]
    cdef const int32_t* start = fr.index + g.n_lists * m
    cdef double factor = g.factor[fr.branch_info + v]
    if j == 0:
        gather_one(rows_at(g.lists, fr.base), fr.index + start[v], n_branch, fr.index,
                   fr.n_unknown, rows_at(dst, dst_base), factor, g.w.data.intr)
    else:
        if g.width == 2:
            gather_one(<Pair*> values_at(g.lists, j, fr.base, 2), fr.index + j * m + start[v],
                       n_branch, fr.index + j * m, fr.n_unknown,
                       <Pair*> values_at(dst, j, dst_base, 2), factor, g.w.data.intr)
        else:
            gather_one(values_at(g.lists, j, fr.base, 1), fr.index + j * m + start[v],
                       n_branch, fr.index + j * m, fr.n_unknown,
                       values_at(dst, j, dst_base, 1), factor, g.w.data.intr)


cdef void child_lists(Grower* g, const ListFrame* fr, int32_t v, void** dst,
                      Py_ssize_t dst_base, Py_ssize_t m_child, int n_threads) noexcept nogil:
    """All the lists of the child of branch v of fr's node, list j at dst[j] +
    dst_base (in place when that is the node's own), by n_threads at once."""
    cdef double factor = g.factor[fr.branch_info + v]
    cdef Py_ssize_t j, m = fr.m
    if fr.index == NULL:
        mark_branch(g, fr.base, m, v)
        filter_lists(g, g.lists, fr.base, m, dst, dst_base, m_child, factor, n_threads)
        return
    if n_threads <= 1:
        for j in range(g.n_lists):
            gather_list(g, fr, v, dst, dst_base, j)
    else:
        for j in prange(g.n_lists, nogil=True, schedule="dynamic", num_threads=n_threads):
            gather_list(g, fr, v, dst, dst_base, j)


cdef int32_t other_branch(const Grower* g, const ListFrame* fr, const Node* nd) noexcept nogil:
    """For a split with exactly two non-empty branches, the one other than fr.last
    (the largest, grown last); 0 otherwise."""
    cdef int32_t v, small = 0
    if fr.last == 0:
        return 0
    for v in range(1, nd.n_children + 1):
        if v != fr.last and g.size[fr.branch_info + v] > 0:
            if small != 0:
                return 0                   # more than two non-empty branches
            small = v
    return small


cdef int split_binary(Grower* g, ListFrame* fr, const Node* nd,
                      const Deferral* df) noexcept nogil:
    """At the top of the tree (nodes of n/16 cases or more, which set the peak
    memory), a split with exactly two non-empty branches, neither child set
    aside: make both children's lists now, list by list (split_list), the larger
    in place over the parent's and the other right above it. Only a scratch list
    is held besides (the small child's row list, or a feature list a thread),
    not a copy of the small child's lists while the parent's are. (Below, in a
    set-aside subtree, split_pair puts the small child at the top of the arenas
    instead: no scratch and no copy.)
    Returns the smaller branch (1-based), 0 when the split does not qualify (the
    general path grows it), -1 out of memory."""
    cdef Work* w = g.w
    cdef Py_ssize_t m = fr.m, m_small, m_large, need, j
    cdef int32_t small
    cdef int n_threads
    cdef double f_small, f_large
    cdef char* scratch
    if df == NULL:
        return 0                           # a set-aside subtree: small, no need
    small = other_branch(g, fr, nd)
    if small == 0:
        return 0
    m_small = g.size[fr.branch_info + small] + fr.n_unknown
    m_large = g.size[fr.branch_info + fr.last] + fr.n_unknown
    if m_small < df.limit:
        return 0                           # the small child becomes a task
    need = fr.base + m_large + m_small - g.arena_top
    if need > 0 and arena_reserve(g, need) < 0:
        return -1
    n_threads = threads_for(g, m_large)
    if n_threads > g.n_lists - 1:
        n_threads = <int> g.n_lists - 1
    # One scratch: the row list (16-byte entries) split first, on this thread,
    # then the features' lists (4 bytes) on the threads, a part each (room for
    # the small child's entries and part_one's one more). (Room for a row list
    # on every thread was 0.1-0.2x X more at the peak of a 1M x 10 fit with
    # n_jobs=2.)
    scratch = <char*> c45_big_resize(NULL, (m_small + 1) * max(sizeof(Entry),
                                                               n_threads * sizeof(Valued)))
    if scratch == NULL:
        return -1
    # The marks first: splitting the row list overwrites the saved outcomes.
    mark_pair(g, fr.base, m, fr.last, small)
    f_small = g.factor[fr.branch_info + small]
    f_large = g.factor[fr.branch_info + fr.last]
    split_list(g, fr.base, m, scratch, m_small, m_large, f_small, f_large, 0)
    if n_threads <= 1:
        for j in range(1, g.n_lists):
            split_list(g, fr.base, m, scratch, m_small, m_large, f_small, f_large, j)
    else:
        for j in prange(1, g.n_lists, nogil=True, schedule="dynamic", num_threads=n_threads):
            split_list(g, fr.base, m, scratch + threadid() * (m_small + 1) * sizeof(Valued),
                       m_small, m_large, f_small, f_large, j)
    c45_big_free(scratch)
    return small


cdef inline void part_one(AnyEntry* e, Py_ssize_t m, AnyEntry* small,
                          const uint8_t* mark, double f_large, double f_small,
                          const uint32_t* cs, Interrupt* intr) noexcept nogil:
    """One list of a binary split in one pass: the large child's in place over
    its parent's e[.. m), the small child's to `small` (room for its entries
    and one more). mark (mark_pair's): 1 the large branch, 2 the small one, 3
    unknown outcome (both, weight scaled). The same stable filters as
    filter_one's two: every entry is written to both, and the place advances
    where it is kept; a large entry is written at or before where it was read."""
    cdef Py_ssize_t i, i0, n, tl = 0, ts = 0
    cdef uint8_t b[FILTER_BLOCK]
    cdef AnyEntry x, y
    cdef double scale_l[4]
    cdef double scale_s[4]
    scale_l[0] = scale_l[1] = scale_l[2] = 1.0
    scale_s[0] = scale_s[1] = scale_s[2] = 1.0
    scale_l[3] = f_large                # w * 1.0 == w exactly
    scale_s[3] = f_small
    i0 = 0
    while i0 < m:
        if stop_at(intr, i0 + FILTER_BLOCK - 1):
            return
        n = block_marks(e, i0, m, mark, cs, b)
        for i in range(n):
            x = e[i0 + i]
            y = x
            if AnyEntry is Entry:
                x.weight = x.weight * scale_l[b[i]]
                y.weight = y.weight * scale_s[b[i]]
            small[ts] = y
            ts += b[i] >> 1
            e[tl] = x
            tl += b[i] & 1
        i0 += n


cdef void mark_pair(Grower* g, Py_ssize_t base, Py_ssize_t m, int32_t large,
                    int32_t small) noexcept nogil:
    """g.mark for part_one, from the outcomes saved in the row list of the node
    at base: 1 the large branch, 2 the small one, 3 unknown outcome."""
    cdef const Entry* rl = rows_at(g.lists, base)
    cdef Py_ssize_t i
    cdef int32_t b
    for i in range(m):
        if stop_at(g.w.data.intr, i):
            return
        b = rl[i].outcome
        g.mark[rl[i].case] = 1 if b == large else (2 if b == small else 3)


cdef int split_pair(Grower* g, ListFrame* fr, const Node* nd,
                    const Deferral* df) noexcept nogil:
    """In a set-aside subtree (no child of it is set aside), a split with exactly
    two non-empty branches: make both children's lists in one pass over each of
    the parent's (part_one), the larger in place over the parent's, the other
    at the top of the arenas, where the general path would copy it (the same
    room: the parent's lists are kept until the smaller child is grown there).
    Reading each entry and its mark once, not once per child.
    Returns the smaller branch (1-based), 0 when the split does not qualify (the
    general path grows it), -1 out of memory."""
    cdef Py_ssize_t m = fr.m, m_small, j, at
    cdef int32_t small
    cdef double f_small, f_large
    cdef Interrupt* intr = g.w.data.intr
    if df != NULL:
        return 0
    small = other_branch(g, fr, nd)
    if small == 0:
        return 0
    m_small = g.size[fr.branch_info + small] + fr.n_unknown
    at = fr.base + m                       # (the top of the arenas)
    if arena_reserve(g, at + m_small + 1 - g.arena_top) < 0:
        return -1
    mark_pair(g, fr.base, m, fr.last, small)
    f_small = g.factor[fr.branch_info + small]
    f_large = g.factor[fr.branch_info + fr.last]
    part_one(rows_at(g.lists, fr.base), m, rows_at(g.lists, at), g.mark, f_large,
             f_small, NULL, intr)
    for j in range(1, g.n_lists):
        if g.width == 2:
            part_one(<Pair*> values_at(g.lists, j, fr.base, 2), m,
                     <Pair*> values_at(g.lists, j, at, 2), g.mark, f_large, f_small, NULL,
                     intr)
        else:
            part_one(values_at(g.lists, j, fr.base, 1), m, values_at(g.lists, j, at, 1),
                     g.mark, f_large, f_small, cases_of(g, j), intr)
    return small


cdef inline void split_list(Grower* g, Py_ssize_t base, Py_ssize_t m, char* scratch,
                            Py_ssize_t m_small, Py_ssize_t m_large, double f_small,
                            double f_large, Py_ssize_t j) noexcept nogil:
    """split_binary's list j: part_one with the small child's entries to scratch,
    then right above the large one's (e[m_large .. m_large + m_small), which may
    pass the parent's end by the cases of unknown outcome)."""
    cdef Entry* rows
    cdef Valued* vals
    if j == 0:
        rows = rows_at(g.lists, base)
        part_one(rows, m, <Entry*> scratch, g.mark, f_large, f_small, NULL, g.w.data.intr)
        memcpy(rows + m_large, scratch, m_small * sizeof(Entry))
    else:
        vals = values_at(g.lists, j, base, 1)
        part_one(vals, m, <Valued*> scratch, g.mark, f_large, f_small, cases_of(g, j),
                 g.w.data.intr)
        memcpy(vals + m_large, scratch, m_small * sizeof(Valued))


cdef int run_dfs(Grower* g, NodeBuffer* t, int32_t root, int32_t depth, Py_ssize_t m,
                 Deferral* df) noexcept nogil:
    """Grow the subtree at node root from the lists at the bottom of g's arenas,
    depth first; with df, set the small children aside as tasks and leave the
    settling of the nodes grown here to the caller. Returns -1 out of memory."""
    cdef Work* w = g.w
    cdef Py_ssize_t cap = 64, top, i, m_child
    cdef ListFrame* stack = <ListFrame*> malloc(cap * sizeof(ListFrame))
    cdef ListFrame* fr
    cdef Node* nd
    cdef int r, ok = 0
    cdef bint in_place
    cdef int32_t v, b
    if stack == NULL:
        return -1
    memset(stack, 0, sizeof(ListFrame))
    stack[0].node = root
    stack[0].depth = depth
    stack[0].base = 0
    stack[0].m = m
    g.arena_top = m
    top = 1
    while top > 0:
        if interrupted(w.data.intr):
            ok = -1
            break
        fr = &stack[top - 1]
        if fr.next == 0:
            g.arena_top = fr.base + fr.m          # (split_pair's large child: the
                                                  # rest of its parent's room goes)
            r = enter_listed(g, t, fr)
            if r < 0:
                ok = -1
                break
            if r == 0:
                g.arena_top = fr.base
                top -= 1
                continue
        nd = &t.nodes[fr.node]
        if fr.next == 1:
            i = fr.base + fr.m                    # where split_pair puts the small child
            r = split_binary(g, fr, nd, df)
            if r > 0:
                i = -1                            # (split_binary: above the large one)
            elif r == 0:
                r = split_pair(g, fr, nd, df)
            if r < 0:
                ok = -1
                break
            if r > 0:
                # Both children's lists are made: the large one in place. Grow
                # the small one first (pushed last), then the large one, as the
                # general path below would.
                if room_for(<void**> &stack, top, 2, &cap, sizeof(ListFrame), 0) < 0:
                    ok = -1
                    break
                fr = &stack[top - 1]
                fr.next = nd.n_children + 1
                v = fr.last                       # the large branch
                fr.last = 0
                b = <int32_t> r                   # the small branch
                memset(&stack[top], 0, 2 * sizeof(ListFrame))
                stack[top].node = nd.first_child + v - 1
                stack[top].depth = fr.depth + 1
                stack[top].base = fr.base
                stack[top].m = g.size[fr.branch_info + v] + fr.n_unknown
                stack[top + 1].node = nd.first_child + b - 1
                stack[top + 1].depth = fr.depth + 1
                stack[top + 1].base = fr.base + stack[top].m if i < 0 else i
                stack[top + 1].m = g.size[fr.branch_info + b] + fr.n_unknown
                g.arena_top = stack[top + 1].base + stack[top + 1].m
                top += 2
                continue
            if nd.n_children > INDEX_MIN_BRANCHES and index_branches(g, fr, nd.n_children) < 0:
                ok = -1
                break
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
            m_child = g.size[fr.branch_info + v] + fr.n_unknown
            if df != NULL and m_child < df.limit:
                if defer_child(g, df, fr, v, m_child, nd.first_child + v - 1,
                               fr.depth + 1) < 0:
                    ok = -1
                    break
                continue
            if room_for(<void**> &stack, top, 1, &cap, sizeof(ListFrame), 0) < 0:
                ok = -1
                break
            fr = &stack[top - 1]
            if in_place:
                i = fr.base              # the parent's lists are not needed any more
            elif arena_reserve(g, m_child) < 0:
                ok = -1
                break
            else:
                i = g.arena_top
            child_lists(g, fr, v, g.lists, i, m_child,
                        threads_for(g, m_child))
            g.arena_top = i + m_child
            memset(&stack[top], 0, sizeof(ListFrame))
            stack[top].node = nd.first_child + v - 1
            stack[top].depth = fr.depth + 1
            stack[top].base = i
            stack[top].m = m_child
            top += 1
            continue
        # All branches grown (or set aside).
        if nd.kind == DISCRETE:
            w.used[nd.feature] -= 1
        if df != NULL:
            if note_finish(df, fr.node) < 0:
                ok = -1
                break
        else:
            settle(t, fr.node, w.data.f32)
            if not w.data.f32:      # (float32 stores the collapsed subtrees' maps
                reclaim_collapsed(t, fr.node)   # in the order it grows them)
        free(fr.index)
        g.info_top = fr.branch_info
        g.arena_top = fr.base
        top -= 1
    while top > 0:               # unwinding after an error or an interrupt
        top -= 1
        free(stack[top].index)
    free(stack)
    return ok


cdef int grower_init(Grower* g, Work* w, const Grower* model) noexcept nogil:
    """A grower for w; with model, sharing its read-only feature tables."""
    cdef const Dataset* d = w.data
    cdef Py_ssize_t f, j
    memset(g, 0, sizeof(Grower))
    g.w = w
    g.n_lists = 1
    for f in range(d.n_features):
        if d.n_values[f] == 0:
            g.n_lists += 1
        else:
            g.any_discrete = True
    g.narrow = narrow_outcomes(d)
    if model != NULL and model.lends_cases:
        g.outcome = model.outcome
        g.mark = model.mark
        g.borrows_cases = True
    else:
        g.outcome = calloc(d.n_cases + 1, outcome_bytes(g))
        g.mark = <uint8_t*> calloc(d.n_cases + 1, sizeof(uint8_t))
    g.lists = <void**> calloc(g.n_lists, sizeof(void*))
    if g.lists == NULL:
        return -1
    g.huge = model == NULL
    g.width = 1 if model == NULL else 2
    if model != NULL:
        g.list_of = model.list_of
        g.feature_of = model.feature_of
        g.shares_tables = True
    else:
        g.list_of = <int32_t*> calloc(d.n_features + 1, sizeof(int32_t))
        g.feature_of = <int32_t*> calloc(g.n_lists + 1, sizeof(int32_t))
        if g.list_of != NULL and g.feature_of != NULL:
            j = 1
            for f in range(d.n_features):
                if d.n_values[f] == 0:
                    g.list_of[f] = <int32_t> j
                    g.feature_of[j] = <int32_t> f
                    j += 1
    if g.outcome == NULL or g.mark == NULL or g.list_of == NULL or g.feature_of == NULL:
        return -1
    return 0


cdef void grower_shed(Grower* g) noexcept nogil:
    """Free g's lists and its tables by case id (its other tables stay, which
    task workers may share, and the tables it lends): the main grower's, once
    the top of the tree is grown and only set-aside subtrees are left (8 bytes
    a case or more, beside the tree's nodes at their most)."""
    cdef Py_ssize_t j
    if g.lists != NULL:
        for j in range(g.n_lists):
            c45_big_free(g.lists[j])
        free(g.lists)
    if not g.lends_cases:
        if not g.borrows_cases:
            free(g.outcome); free(g.mark)
        g.outcome = NULL
        g.mark = NULL
    g.lists = NULL
    g.arena_cap = 0


cdef void grower_free(Grower* g) noexcept nogil:
    grower_shed(g)
    if g.lends_cases:               # (its borrowers are freed first: grow_end)
        free(g.outcome); free(g.mark)
    free(g.factor); free(g.size)
    if not g.shares_tables:
        free(g.list_of); free(g.feature_of)
    memset(g, 0, sizeof(Grower))


cdef int graft(NodeBuffer* t, Task* task) noexcept nogil:
    """Append the task's subtree to t, its node 0 becoming the task's node;
    -1 out of memory or interrupted (t.intr.stop set: t then half made)."""
    cdef NodeBuffer* sub = &task.sub
    cdef Py_ssize_t k = t.n_classes, i, base = t.count - 1, maps_base = t.maps_count
    cdef Py_ssize_t cells = 0
    cdef Node nd
    cdef int32_t at
    if buffer_reserve(t, sub.count - 1) < 0 or maps_reserve(t, sub.maps_count) < 0:
        return -1
    if sub.maps_count > 0:
        memcpy(&t.maps[maps_base], sub.maps, sub.maps_count * sizeof(int32_t))
    t.maps_count += sub.maps_count
    for i in range(sub.count):
        nd = sub.nodes[i]
        if nd.n_children > 0:
            nd.first_child = <int32_t> (nd.first_child + base)
        if nd.map_offset >= 0:
            nd.map_offset += maps_base
        at = task.node if i == 0 else <int32_t> (base + i)
        t.nodes[at] = nd
        copy_class_weights(t, at, sub, i)
        if look_by_cells(&cells, k, t.intr):
            return -1
    t.count += sub.count - 1
    return 0


cdef struct GrowPool:
    Grower* growers       # one per worker
    Task* tasks


cdef void grow_one(void* ctx, int worker, Py_ssize_t index) noexcept nogil:
    cdef GrowPool* pool = <GrowPool*> ctx
    grow_task(&pool.growers[worker], &pool.tasks[index], index)


cdef int flush_tasks(Deferral* df) noexcept nogil:
    """Grow the pending tasks on df.n_threads threads (largest first), each thread
    with its own work buffers, then graft them in the order they were made.
    -1 when memory runs out (0 when interrupted: the caller's loop unwinds on
    the stop flag). Without the GIL: it runs amid growing, and taking the GIL
    there waits out a busy thread's switch interval."""
    cdef Grower* main = df.main
    cdef const Dataset* d = main.w.data
    cdef Py_ssize_t first = df.first_pending, count = df.n_tasks - df.first_pending
    cdef int n_workers = df.n_threads if df.n_threads < count else <int> count
    cdef TaskOrder* order = NULL
    cdef GrowPool pool
    cdef Py_ssize_t i, extra
    cdef int failed = 0, saved_threads = main.w.n_threads
    cdef uint64_t saved_rng = main.w.rng
    cdef double saved_min_objs = main.w.min_objs
    cdef int32_t* saved_used
    if count <= 0:
        return 0
    # Worker 0 grows tasks with the main work: keep the top phase's path state.
    saved_used = <int32_t*> malloc((d.n_features + 1) * sizeof(int32_t))
    if saved_used == NULL:
        return -1
    memcpy(saved_used, main.w.used, d.n_features * sizeof(int32_t))
    if n_workers < 1:
        n_workers = 1
    order = <TaskOrder*> malloc(count * sizeof(TaskOrder))
    if order == NULL or workers_ready(df, n_workers) < 0:
        failed = 1
    main.w.n_threads = 1
    if failed == 0:
        for i in range(count):
            order[i].m = df.tasks[first + i].m
            order[i].index = first + i
        pool.growers = df.growers
        pool.tasks = df.tasks
        run_tasks(order, count, n_workers, grow_one, &pool)
    # The tree's room for all of them at once: one resize, not one a task; its
    # pages are first written by each graft, as each subtree is freed (zeroed
    # here, all the subtrees would be resident twice at once).
    extra = 0
    for i in range(first, df.n_tasks):
        if df.tasks[i].status == 0:
            extra += df.tasks[i].sub.count - 1
    if failed == 0 and buffer_room(df.tree, extra) < 0:
        failed = 1
    for i in range(first, df.n_tasks):
        if failed or df.tasks[i].status < 0 or graft(df.tree, &df.tasks[i]) < 0:
            failed = 1
        buffer_free(&df.tasks[i].sub)
        free(df.tasks[i].used)
        df.tasks[i].used = NULL
    df.first_pending = df.n_tasks
    df.pending = 0
    main.w.n_threads = saved_threads
    main.w.rng = saved_rng
    main.w.min_objs = saved_min_objs
    memcpy(main.w.used, saved_used, d.n_features * sizeof(int32_t))
    free(saved_used)
    free(order)
    if failed and d.intr != NULL and d.intr.stop:
        return 0        # interrupted: the caller's loop unwinds on the stop flag
    return -1 if failed else 0


cdef int workers_ready(Deferral* df, int n_workers) noexcept nogil:
    """df's first n_workers task workers, made once for all the flushes (their
    buffers, of the data's size, would otherwise be allocated and their pages
    zeroed again at every flush, while the other threads wait): worker 0 grows
    with the main work, the others with work buffers of their own that read the
    main work's tables (n log n, the classes in bytes). -1 out of
    memory (the workers made so far are kept, for free_workers)."""
    cdef int i
    if df.works == NULL:
        df.works = <Work*> calloc(df.n_threads + 1, sizeof(Work))
        df.growers = <Grower*> calloc(df.n_threads + 1, sizeof(Grower))
        if df.works == NULL or df.growers == NULL:
            return -1
    while df.n_workers < n_workers:
        i = df.n_workers
        if i > 0 and work_alloc(&df.works[i], df.main.w.data, False, df.main.w) < 0:
            return -1
        if grower_init(&df.growers[i], df.main.w if i == 0 else &df.works[i], df.main) < 0:
            grower_free(&df.growers[i])
            if i > 0:
                work_free(&df.works[i])
            return -1
        df.n_workers += 1
    return 0


cdef void free_workers(Deferral* df) noexcept nogil:
    cdef int i
    for i in range(df.n_workers):
        grower_free(&df.growers[i])
        if i > 0:
            work_free(&df.works[i])
    free(df.works)
    free(df.growers)
    df.works = NULL
    df.growers = NULL
    df.n_workers = 0


cdef void grow_task(Grower* g, Task* task, Py_ssize_t index) noexcept nogil:
    cdef Work* w = g.w
    cdef const Dataset* d = w.data
    cdef Py_ssize_t j
    task.status = -1
    if task.lists == NULL:
        return
    memcpy(w.used, task.used, d.n_features * sizeof(int32_t))
    w.rng = (d.seed + 1) * 2685821657736338717ULL ^ ((<uint64_t> index + 1)
                                                     * 11400714819323198485ULL)
    if w.rng == 0:
        w.rng = 88172645463325252ULL
    w.min_objs = d.min_objs
    memcpy(g.lists, task.lists, g.n_lists * sizeof(void*))   # the grower owns them now
    free(task.lists)
    g.arena_cap = task.m
    g.arena_top = 0
    g.info_top = 0
    task.lists = NULL
    task.sub.n_classes = d.n_classes
    task.sub.counted = d.whole_counts
    task.sub.intr = d.intr
    if buffer_reserve(&task.sub, 1) == 0:
        task.sub.count = 1
        if run_dfs(g, &task.sub, 0, task.depth, task.m, NULL) == 0:
            task.status = 0
            buffer_fit(&task.sub)      # held until grafted: no doubled room beside it
    for j in range(g.n_lists):
        c45_big_free(g.lists[j])
        g.lists[j] = NULL
    g.arena_cap = 0


cdef void grow_end(Deferral* df, Grower* g) noexcept nogil:
    """Free what growing holds (the tasks' lists, the task workers', the
    grower's): a second call frees nothing."""
    cdef Py_ssize_t i
    for i in range(df.n_tasks):
        free_lists(df.tasks[i].lists, g.n_lists)
        free(df.tasks[i].used)
        buffer_free(&df.tasks[i].sub)
    free(df.tasks)
    free(df.finish)
    df.tasks = NULL
    df.finish = NULL
    df.n_tasks = 0
    free_workers(df)
    grower_free(g)


cdef inline Py_ssize_t flush_budget(const Dataset* d, Py_ssize_t root_entries,
                                    int n_threads) noexcept nogil:
    """The pending tasks are grown once their lists hold this many entries. With
    subset tests a quarter of the root's: when they are grown decides where
    their maps are stored, and so a tree's bits (without, no bit). Otherwise
    each flush is a peak of the fit's memory: on one thread each task is grown
    at once; on n threads once they hold a sixteenth of the root's entries a
    thread (a quarter at most), work for every thread."""
    if d.subsets:
        return max(root_entries // 4, 1)
    if n_threads <= 1:
        return 1
    return max(root_entries * min(n_threads, 4) // 16, 1)


cdef bint cases_disjoint(const Dataset* d) noexcept nogil:
    """Whether no case is ever in two subtrees at once, so that the task workers
    can share the main grower's tables by case id (Grower.lends_cases): no
    unknown value (a case of unknown outcome goes down every branch) and no
    subset test. The main grower waits while they grow (flush_tasks), and those
    tables hold a node's outcomes and marks only until its children are made."""
    return not d.subsets and no_unknown_values(d)


cdef inline void drop_rank_sample(Dataset* d) noexcept nogil:
    """Free the sample of the sorted values growing searched (rank_sample_of)."""
    free(<void*> d.rank_sample)
    d.rank_sample = NULL


cdef int grow_presorted(Work* w, NodeBuffer* t) except -1:
    """Grow the tree of all cases into t (collapsed as C4.5 collapses, §2.11)."""
    cdef const Dataset* d = w.data
    cdef Grower g
    cdef Deferral df
    cdef Py_ssize_t n = d.n_cases, i
    cdef int ok = 0
    cdef bint ordered = False
    memset(&df, 0, sizeof(Deferral))
    memset(&g, 0, sizeof(Grower))
    df.limit = max(n // 16, 1000)
    df.main = &g
    df.tree = t
    df.n_threads = w.n_threads
    if n >= 0x80000000:
        raise ValueError("c45: more than 2**31 - 1 cases cannot be grown")
    try:
        with nogil:
            if not d.listed:
                rank_order(<Dataset*> d, w.n_threads)
                ordered = True
                (<Dataset*> d).rank_sample = rank_sample_of(d)
            ok = grower_init(&g, w, NULL)
            g.lends_cases = ok == 0 and cases_disjoint(d)
            df.budget = flush_budget(d, g.n_lists * n, w.n_threads)
            if ok == 0 and buffer_reserve(t, 1) < 0:
                ok = -1
            if ok == 0:
                ok = root_lists(&g)
            if ok == 0:
                t.count = 1
                ok = run_dfs(&g, t, 0, 0, n, &df)
            if ok == 0:
                # Only set-aside subtrees are left, each of fewer than df.limit
                # cases: what was the top's goes before the tree's nodes fill up.
                grower_shed(&g)
                work_trim_nlogn(w, df.limit)
                for i in range(1, df.n_workers):
                    df.works[i].nlogn = w.nlogn         # (share_tables: w's)
                    df.works[i].table_n = w.table_n
                ok = flush_tasks(&df)
            if ok == 0 and not (d.intr != NULL and d.intr.stop):
                for i in range(df.n_finish):
                    settle(t, df.finish[i], d.f32)
            grow_end(&df, &g)
            drop_rank_sample(<Dataset*> d)
            if ordered:      # the ranks back, for pruning (the lists are freed)
                rank_order(<Dataset*> d, w.n_threads)
                ordered = False
        if d.intr != NULL and d.intr.stop:
            raise_interrupt()
        if ok < 0:
            raise MemoryError("c45: out of memory while growing the tree")
    finally:
        grow_end(&df, &g)
        drop_rank_sample(<Dataset*> d)
        if ordered:
            rank_order(<Dataset*> d, w.n_threads)
        # Pruning starts from the cases in row order with their initial weights
        # (fresh pages, first touched here: looked through; interrupted, the
        # caller raises before pruning).
        for i in range(n):
            if stop_at(d.intr, i):
                break
            w.cases[i] = <int32_t> i
            w.weight[i] = initial_weight(d, i)
    return 0


cdef Py_ssize_t root_split_listed(Work* w) except -2:
    """float64 mode: evaluate every feature on all cases, as at the root, and
    choose one (§6); the per-feature results stay in w. -1 if none is usable."""
    cdef Grower g
    cdef Py_ssize_t i, chosen = -1, n = w.data.n_cases
    cdef double total = 0.0
    cdef int ok
    if n >= 0x80000000:
        raise ValueError("c45: more than 2**31 - 1 cases cannot be evaluated")
    with nogil:
        if not w.data.listed:
            rank_order(<Dataset*> w.data, w.n_threads)
        ok = grower_init(&g, w, NULL)
        if ok == 0:
            ok = root_lists(&g)
        if ok == 0:
            memset(w.dist, 0, w.data.n_classes * sizeof(double))
            for i in range(n):
                total += rows_at(g.lists, 0)[i].weight
                w.dist[w.data.y[i]] += rows_at(g.lists, 0)[i].weight
            evaluate(&g, 0, n, total)
            chosen = select_feature(w)
        grower_free(&g)
        if not w.data.listed:
            rank_order(<Dataset*> w.data, w.n_threads)
    if ok < 0:
        raise MemoryError("c45: out of memory evaluating the features")
    return chosen
