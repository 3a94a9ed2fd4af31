# Finding the test at a node (spec §3-§6): the case array and its reordering
# primitives, continuous cuts, multiway discrete tests, value subsets, selection.
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.math cimport isnan
from c45._types cimport Dataset, Valued, Test, Interrupt
from c45._column cimport value32

cdef struct SortItem:
    double value
    int32_t case

cdef struct CutScan:
    Py_ssize_t tries        # cuts evaluated (Release 8's Tries)
    Py_ssize_t kept         # cuts kept in the candidate arrays
    double best_gain        # best raw gain so far
    bint failed             # out of memory growing the arrays
    Py_ssize_t position     # position of the cut being evaluated

cdef struct RankItem:
    uint32_t key            # a sort key: the case's rank in the feature (float64
                            # mode), its value's float32 key (float32's case array)
    int32_t case

# Mutable state shared by growing and pruning: the case array C4.5 reorders in
# place, the current case weights, the count mode of §1.4, the MINOBJS in force,
# and scratch buffers allocated once per fit (no allocation per node).
cdef struct Work:
    const Dataset* data
    int32_t* cases          # case ids; every node owns a contiguous range
    double* weight          # current weight of each case id (travels with the case)
    bint count_mode         # totals are case counts (no fractional case above)
    double min_objs         # MINOBJS in force (subset evaluation lowers it, §4.4)
    uint64_t rng            # state of the max_features draws
    double* dist            # k: class distribution of the current node
    double* freq            # (max_values + 1) x k class counts per outcome
    double* totals          # max_values + 1 outcome weights
    int32_t* slot           # max_values + 1: value -> row of a sparse table (else 0)
    double* block_freq      # (max_values + 2) x k: value groups being merged (§4.4)
    double* block_totals    # max_values + 2
    double* trial_freq      # (max_values + 2) x k: a tentative merge
    double* trial_totals    # max_values + 2
    double* gain            # per feature: gain (penalised for continuous), -eps unusable
    double* info            # per feature: split info
    double* bar             # per feature: chosen midpoint of a continuous feature
    double* bar_at          # per feature, 2: float64 lists (far): the ranks either
                            # side of the chosen cut, its bar not taken yet
                            # (settle_bar); -1: bar is taken
    double* raw_gain        # per feature: best gain before the MDL penalty
    Py_ssize_t* cut_at      # per feature: the chosen cut's position in the scan (float64
                            # lists: its lower entry's in the node's list)
    Py_ssize_t* tries       # per feature: number of cuts evaluated
    int32_t* used           # per feature: discrete tests on the current path
    int32_t* drawn          # per feature: drawn for this node (max_features)
    int32_t* perm           # per feature: permutation scratch of the draw
    int32_t* groups         # per feature (subsets): value -> branch, group_start offsets
    int64_t* group_start    # n_features + 1
    int32_t* n_groups       # per feature (subsets): number of branches
    SortItem* sortbuf       # n_cases
    RankItem* rankbuf       # n_cases
    RankItem* ranktmp       # n_cases (also group's scratch for n doubles)
    double* cand_gain       # the cuts that may still be chosen: gains,
    double* cand_split      # split infos,
    double* cand_below      # value just below each cut,
    double* cand_above      # value just above it
    double* cand_pos        # and its position in the scan (float64 lists: cuts are
                            # evaluated block by block, not in order)
    double* snap            # float64 lists: the scan's state at block boundaries
    double* phi             # float64 lists: 2 x k cached n*log2(n) of rows 1, 2 of freq
    uint8_t* phi_dirty      # k: the class's counts moved since they were cached
    int32_t* moved          # k: the classes marked in phi_dirty, n_moved of them
    Py_ssize_t n_moved
    double phi_sum          # the sum of the 2k cached terms, kept up to date as
    Py_ssize_t phi_updates  # they change (approximate); changes since it was summed
    Py_ssize_t* left_count  # k: the unit-weight scan's left class counts,
    Py_ssize_t* all_count   # k: and the known cases' (scan_estimated)
    int32_t* checkpoint     # scan_estimated: left class counts every few cases
    Py_ssize_t checkpoint_cap
    Py_ssize_t snap_cap
    Py_ssize_t cand_cap
    double* nlogn           # n_cases + 1: i * L(i), the whole-count logarithms
    uint8_t* y8             # float64 and float32 on the lists, at most 256 classes:
                            # Dataset.y in one byte a case
    const uint8_t* far      # float64 lists: the feature being scanned's Dataset.far
    Py_ssize_t vstride      # float32 on the lists: bytes between two rows' values of
                            # the feature being scanned (list_stride); 0: vals[key]
    bint vsingle            # float32 on the lists: those values float32 (list_single)
    Py_ssize_t feat         # column (NULL otherwise: cuts by value), and the feature
    Py_ssize_t table_n
    # Parallel evaluation of a node's features (float64 mode): per-thread copies
    # of this struct with their own scratch, sharing the case array read-only.
    int n_threads
    Work* threads
    bint owns_scratch
    bint shares_tables      # nlogn and y8 are another Work's (work_alloc's share)
    # Gathering the branches of many-valued tests (see branch_lists)
    int32_t* pos_of         # n_cases: position of a case in the case array
    int64_t* arena          # stack of per-node branch lists
    Py_ssize_t arena_top
    Py_ssize_t arena_cap

cdef int work_init(Work* w, const Dataset* data, bint rows) except -1
cdef int work_alloc(Work* w, const Dataset* data, bint rows,
                    const Work* share=*) noexcept nogil
cdef int work_threads_init(Work* w, int n_threads) except -1
cdef void work_free(Work* w) noexcept nogil
cdef void work_trim_nlogn(Work* w, Py_ssize_t keep) noexcept nogil

cdef double total_weight(Work* w, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil
cdef double class_distribution(Work* w, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil
cdef int outcome(const Dataset* d, const Test* t, int32_t case) noexcept nogil
cdef Py_ssize_t group(Work* w, const Test* t, int v, Py_ssize_t lo,
                      Py_ssize_t hi, double* weight) noexcept nogil
cdef double sum_weights(Work* w, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil
cdef Py_ssize_t find_split(Work* w, Py_ssize_t lo, Py_ssize_t hi, double total) noexcept nogil
cdef double global_threshold(const Dataset* d, Py_ssize_t feature, double bar) noexcept nogil
cdef double global_threshold_near(const Dataset* d, Py_ssize_t feature, double bar,
                                  uint32_t below, uint32_t above,
                                  uint32_t* rank) noexcept nogil
cdef uint32_t cut_rank(const Dataset* d, Py_ssize_t feature, double threshold) noexcept nogil
cdef double* rank_sample_of(const Dataset* d) noexcept nogil
cdef bint is_subset_feature(const Dataset* d, Py_ssize_t feature) noexcept nogil
cdef Py_ssize_t branch_lists(Work* w, const Test* t, Py_ssize_t n_branches,
                             Py_ssize_t first_known, Py_ssize_t hi) noexcept nogil
cdef Py_ssize_t gather_branch(Work* w, Py_ssize_t lists, Py_ssize_t v,
                              Py_ssize_t first_known) noexcept nogil
cdef Py_ssize_t MANY_BRANCHES
cdef Py_ssize_t select_feature(Work* w) noexcept nogil
cdef void settle_bar(Work* w, Py_ssize_t f) noexcept nogil
cdef void draw_features(Work* w) noexcept nogil
cdef void evaluate_feature(Work* w, Py_ssize_t f, Py_ssize_t lo, Py_ssize_t hi,
                           double total, bint sample) noexcept nogil
cdef void eval_continuous_list(Work* w, Py_ssize_t f, const Valued* e, Py_ssize_t width,
                               Py_ssize_t n, const double* cw, const double* counts,
                               double total) noexcept nogil



cdef inline const double* list_values(const Dataset* d, Py_ssize_t f) noexcept nogil:
    """The column a Valued entry's key indexes for continuous feature f: its values
    sorted (float64, key = rank), or by row (float32, key = row: cont's float32
    numbers, or by_source X's own float64 column; list_stride bytes a row, read
    by listed_value, whatever the pointer's type); NULL where float64 holds no
    sorted values (by_source: sorted_at)."""
    cdef Py_ssize_t at = <Py_ssize_t> d.col[f] * d.n_cases
    if d.f32:
        return (<const double*> d.src_addr[f] if d.by_source
                else <const double*> (d.cont + at))
    return NULL if d.by_source else d.sorted_value + at


cdef inline Py_ssize_t list_stride(const Dataset* d, Py_ssize_t f) noexcept nogil:
    """float32: the bytes between two rows' values of list_values(d, f)."""
    return d.src_stride[f] if d.by_source else sizeof(float)


cdef inline bint list_single(const Dataset* d) noexcept nogil:
    """float32: whether list_values's values are float32 numbers (cont's), not
    float64 ones (X's own, by_source: rounded as they are read)."""
    return not d.by_source


cdef inline double listed_value(const double* vals, Py_ssize_t stride, bint single,
                                Py_ssize_t row) noexcept nogil:
    """float32: a row's value (vals, stride, single: list_values, list_stride,
    list_single) as the encoding reads it (value32; cont's are so already)."""
    cdef const char* p = <const char*> vals + row * stride
    if single:
        return (<const float*> p)[0]
    return value32((<const double*> p)[0])


cdef inline double source_value(const Dataset* d, Py_ssize_t f, Py_ssize_t case) noexcept nogil:
    """Feature f's value of a case read from the caller's X as the encoding reads
    it (c45/_bulk.pyx: fill_continuous): -0.0 as 0.0, float32 widened."""
    cdef const char* p = <const char*> d.src_addr[f] + case * d.src_stride[f]
    cdef double x = (<const float*> p)[0] if d.src_single[f] else (<const double*> p)[0]
    return x + 0.0                      # (fill_columns' -0.0 mended alike)


cdef inline double sorted_at(const Dataset* d, Py_ssize_t f, Py_ssize_t r) noexcept nogil:
    """float64: the value of rank r of feature f (NaN from n_known[f] on); by_source
    reads it through the feature's order, so only while the ranks are orders."""
    cdef Py_ssize_t at = <Py_ssize_t> d.col[f] * d.n_cases
    if d.by_source:
        return source_value(d, f, d.order[at + r])
    return d.sorted_value[at + r]


cdef inline double key_value(const Dataset* d, Py_ssize_t f, Py_ssize_t key) noexcept nogil:
    """The value of a list entry's key (Valued): by row (float32 on the lists),
    by rank (float64)."""
    if d.listed:
        return listed_value(list_values(d, f), list_stride(d, f), list_single(d), key)
    return sorted_at(d, f, key)


cdef inline bint key_unknown(const Dataset* d, Py_ssize_t f, Py_ssize_t key) noexcept nogil:
    """Whether a list entry's key is a case of unknown value (float64: the
    unknown values rank last, from n_known[f] on)."""
    if d.listed:
        return isnan(key_value(d, f, key))
    return key >= d.n_known[f]


cdef inline bint ranks_apart(const Dataset* d, const uint8_t* far, Py_ssize_t f,
                             Py_ssize_t r1, Py_ssize_t r2) noexcept nogil:
    """float64: sorted_at(r1) < sorted_at(r2) - 1e-5 (a cut between them), for
    known ranks r1 < r2, mostly from far (far: f's column of Dataset.far). The
    test is monotone in r2 (so is the value at r2, and x - 1e-5 in x): it holds
    exactly from the first rank r1 + 1 + far[r1] on; far[r1] = 255 says only
    that it fails before r1 + 256, beyond which the values decide."""
    cdef Py_ssize_t q = far[r1]
    if q < 255:
        return r2 > r1 + q
    if r2 - r1 < 256:
        return False
    return sorted_at(d, f, r1) < sorted_at(d, f, r2) - 1e-5


cdef inline const uint8_t* list_far(const Dataset* d, Py_ssize_t f) noexcept nogil:
    """Feature f's column of Dataset.far (float64), NULL for float32."""
    if d.f32 or d.far == NULL:
        return NULL
    return d.far + <Py_ssize_t> d.col[f] * d.n_cases


cdef inline const uint32_t* list_cases(const Dataset* d, Py_ssize_t f) noexcept nogil:
    """The column that gives a Valued entry's case for continuous feature f: the
    feature's order (float64, key = rank), or NULL: the key is the case (float32
    on the lists)."""
    if d.listed:
        return NULL
    return d.order + <Py_ssize_t> d.col[f] * d.n_cases


cdef inline int32_t case_of(const uint32_t* cs, Valued key) noexcept nogil:
    """The case of a list entry (cs: list_cases)."""
    return <int32_t> (key if cs == NULL else cs[key])


cdef inline int32_t list_case(const Valued* e, Py_ssize_t width, const uint32_t* cs,
                              Py_ssize_t i) noexcept nogil:
    """The case of entry i of a feature's list of `width` words an entry: a
    set-aside subtree's lists carry it (2: rank, case), the top of the tree's
    give it through cs (1: the rank alone, case_of)."""
    if width == 2:
        return <int32_t> e[2 * i + 1]
    return case_of(cs, e[i])
