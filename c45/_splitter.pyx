"""Finding the test at a node, as C4.5 Release 8 does (spec §0.5, §3-§6).

The node's cases are a contiguous range [lo, hi] of the shared case array. The
evaluation of a continuous attribute reorders that range (unknowns first, then
sorted), and the order carries over: it decides the order of binary32 sums, so the
reordering primitives below are exactly those of the spec.
"""
from libc.math cimport isnan, log2
from libc.stdlib cimport calloc, free
from libc.string cimport memset
from libc.stdint cimport int32_t, int64_t

from c45._types cimport Dataset, LEAF, DISCRETE, CONTINUOUS
from c45._criterion cimport (rnd, unusable, log2_of, total_info, split_gain, worth,
                             EPSILON)


cdef int work_init(Work* w, const Dataset* d) except -1:
    cdef Py_ssize_t n = d.n_cases, k = d.n_classes, f, max_values = 2
    for f in range(d.n_features):
        if d.n_values[f] > max_values:
            max_values = d.n_values[f]
    memset(w, 0, sizeof(Work))
    w.data = d
    w.count_mode = d.count_mode_init
    w.cases = <int32_t*> calloc(n + 1, sizeof(int32_t))
    w.weight = <double*> calloc(n + 1, sizeof(double))
    w.dist = <double*> calloc(k, sizeof(double))
    w.freq = <double*> calloc((max_values + 1) * k, sizeof(double))
    w.totals = <double*> calloc(max_values + 1, sizeof(double))
    w.gain = <double*> calloc(d.n_features + 1, sizeof(double))
    w.info = <double*> calloc(d.n_features + 1, sizeof(double))
    w.bar = <double*> calloc(d.n_features + 1, sizeof(double))
    w.raw_gain = <double*> calloc(d.n_features + 1, sizeof(double))
    w.tries = <Py_ssize_t*> calloc(d.n_features + 1, sizeof(Py_ssize_t))
    w.used = <int32_t*> calloc(d.n_features + 1, sizeof(int32_t))
    w.sortbuf = <SortItem*> calloc(n + 1, sizeof(SortItem))
    w.cand_gain = <double*> calloc(n + 1, sizeof(double))
    w.cand_split = <double*> calloc(n + 1, sizeof(double))
    w.cand_pos = <Py_ssize_t*> calloc(n + 1, sizeof(Py_ssize_t))
    if (w.cases == NULL or w.weight == NULL or w.dist == NULL or w.freq == NULL
            or w.totals == NULL or w.gain == NULL or w.info == NULL or w.bar == NULL
            or w.raw_gain == NULL or w.tries == NULL
            or w.used == NULL or w.sortbuf == NULL or w.cand_gain == NULL
            or w.cand_split == NULL or w.cand_pos == NULL):
        work_free(w)
        raise MemoryError("c45: cannot allocate the work buffers for this data set")
    for f in range(n):
        w.cases[f] = <int32_t> f
        w.weight[f] = d.init_weight[f]
    return 0


cdef void work_free(Work* w) noexcept:
    free(w.cases); free(w.weight); free(w.dist); free(w.freq); free(w.totals)
    free(w.gain); free(w.info); free(w.bar); free(w.raw_gain); free(w.tries); free(w.used); free(w.sortbuf)
    free(w.cand_gain); free(w.cand_split); free(w.cand_pos)
    memset(w, 0, sizeof(Work))


# ---------------------------------------------------------------------------
# Totals (§1.4, §1.5)

cdef double sum_weights(Work* w, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """Binary32 (or binary64) sum of the weights in array order."""
    cdef bint f32 = w.data.f32
    cdef double s = 0.0
    cdef Py_ssize_t i
    for i in range(lo, hi + 1):
        s = rnd(f32, s + w.weight[w.cases[i]])
    return s


cdef double total_weight(Work* w, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """C4.5's total weight of a range: the case count in count mode, else the sum."""
    if w.count_mode:
        return <double> (hi - lo + 1)
    return sum_weights(w, lo, hi)


cdef double class_distribution(Work* w, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """Fill w.dist with the class sums of the range, in array order."""
    cdef const Dataset* d = w.data
    cdef bint f32 = d.f32
    cdef Py_ssize_t i
    cdef int32_t c
    memset(w.dist, 0, d.n_classes * sizeof(double))
    for i in range(lo, hi + 1):
        c = w.cases[i]
        w.dist[d.y[c]] = rnd(f32, w.dist[d.y[c]] + w.weight[c])
    return 0.0


# ---------------------------------------------------------------------------
# Reordering primitives (§0.5)

cdef int outcome(const Dataset* d, int32_t kind, int32_t feature, double threshold,
                 int32_t case) noexcept nogil:
    """Branch (1..B) a case takes at a test, 0 if its value is unknown."""
    cdef double x
    if kind == CONTINUOUS:
        x = d.cont[<Py_ssize_t> d.col[feature] * d.n_cases + case]
        if isnan(x):
            return 0
        return 1 if x <= threshold else 2
    return d.codes[<Py_ssize_t> d.col[feature] * d.n_cases + case]


cdef Py_ssize_t group(Work* w, int32_t kind, int32_t feature, double threshold,
                      int v, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """Swap the cases with outcome v to the front of [lo, hi]; return the last one's
    position (lo - 1 if there are none)."""
    cdef Py_ssize_t i, write = lo
    cdef int32_t tmp
    for i in range(lo, hi + 1):
        if outcome(w.data, kind, feature, threshold, w.cases[i]) == v:
            tmp = w.cases[i]
            w.cases[i] = w.cases[write]
            w.cases[write] = tmp
            write += 1
    return write - 1


cdef inline void swap_items(SortItem* a, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
    cdef SortItem tmp = a[i]
    a[i] = a[j]
    a[j] = tmp


cdef void heapsort_items(SortItem* a, Py_ssize_t n) noexcept nogil:
    """O(n log n) fallback for the float64 mode when the quicksort degenerates."""
    cdef Py_ssize_t start, end, root, child
    start = n // 2
    end = n
    while end > 1:
        if start > 0:
            start -= 1
        else:
            end -= 1
            swap_items(a, 0, end)
        root = start
        while 2 * root + 1 < end:
            child = 2 * root + 1
            if child + 1 < end and a[child].value < a[child + 1].value:
                child += 1
            if a[root].value < a[child].value:
                swap_items(a, root, child)
                root = child
            else:
                break


cdef void quicksort_items(SortItem* a, Py_ssize_t lo, Py_ssize_t hi,
                          bint exact) noexcept nogil:
    """C4.5 Release 8's quicksort (§0.5), with an explicit stack of ranges.

    A range that is already in order is left as it is, which is what the
    quicksort itself would do, at linear cost. With exact false (float64 mode) a
    range that keeps degenerating is finished by heapsort, so the cost stays
    n log n; the order of equal values then differs, which only moves float64
    sums by an ulp."""
    cdef Py_ssize_t stack_lo[128]
    cdef Py_ssize_t stack_hi[128]
    cdef int stack_depth[128]
    cdef int top = 0, depth = 0, limit
    cdef Py_ssize_t i, j, m, q, n = hi - lo + 1
    cdef double pivot
    cdef bint ordered
    if n < 2:
        return
    limit = 4 * (<int> log2(<double> n)) + 32
    stack_lo[0] = lo; stack_hi[0] = hi; stack_depth[0] = 0; top = 1
    while top > 0:
        top -= 1
        lo = stack_lo[top]; hi = stack_hi[top]; depth = stack_depth[top]
        if lo >= hi:
            continue
        ordered = True
        for i in range(lo, hi):
            if a[i].value > a[i + 1].value:
                ordered = False
                break
        if ordered:
            continue
        if not exact and depth > limit:
            heapsort_items(a + lo, hi - lo + 1)
            continue
        pivot = a[hi].value
        m = lo
        for i in range(lo, hi):
            if a[i].value <= pivot:
                if i != m:
                    swap_items(a, i, m)
                m += 1
        q = m - 1
        j = m - 1
        while j >= lo:
            if a[j].value == pivot:
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
            stack_lo[top] = lo; stack_hi[top] = q; stack_depth[top] = depth + 1; top += 1
            stack_lo[top] = m + 1; stack_hi[top] = hi; stack_depth[top] = depth + 1; top += 1
        else:
            stack_lo[top] = m + 1; stack_hi[top] = hi; stack_depth[top] = depth + 1; top += 1
            stack_lo[top] = lo; stack_hi[top] = q; stack_depth[top] = depth + 1; top += 1


cdef void sort_range(Work* w, const double* values, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """Sort the cases of [lo, hi] by their value of one continuous attribute."""
    cdef Py_ssize_t i
    cdef SortItem* a = w.sortbuf
    for i in range(lo, hi + 1):
        a[i].case = w.cases[i]
        a[i].value = values[w.cases[i]]
    quicksort_items(a, lo, hi, w.data.f32)
    for i in range(lo, hi + 1):
        w.cases[i] = a[i].case


# ---------------------------------------------------------------------------
# Evaluating one attribute at a node

cdef void eval_continuous(Work* w, Py_ssize_t f, Py_ssize_t lo, Py_ssize_t hi,
                          double total) noexcept nogil:
    """Best cut of a continuous attribute (§5): sets gain (MDL-penalised), info, bar."""
    cdef const Dataset* d = w.data
    cdef bint f32 = d.f32
    cdef Py_ssize_t k = d.n_classes, i, j, first, n_cand = 0, best_j = -1
    cdef const double* values = d.cont + <Py_ssize_t> d.col[f] * d.n_cases
    cdef double* freq = w.freq
    cdef double u = 0.0, known, unknown_frac, base, min_split, low = 0.0, wt, best, val
    cdef double penalty, min_objs = d.min_objs
    cdef int32_t c, cls, tmp
    memset(freq, 0, 3 * k * sizeof(double))
    w.gain[f] = unusable(f32)
    w.info[f] = 0.0
    w.raw_gain[f] = unusable(f32)
    w.tries[f] = 0
    # Unknowns to the front, their class weights in row 0.
    first = lo
    for i in range(lo, hi + 1):
        c = w.cases[i]
        if isnan(values[c]):
            freq[d.y[c]] = rnd(f32, freq[d.y[c]] + w.weight[c])
            tmp = w.cases[i]; w.cases[i] = w.cases[first]; w.cases[first] = tmp
            first += 1
    for j in range(k):
        u = rnd(f32, u + freq[j])
    known = rnd(f32, total - u)
    unknown_frac = rnd(f32, 1.0 - rnd(f32, known / total))
    if known < 2 * min_objs:
        return
    sort_range(w, values, first, hi)
    for i in range(first, hi + 1):
        c = w.cases[i]
        freq[2 * k + d.y[c]] = rnd(f32, freq[2 * k + d.y[c]] + w.weight[c])
    base = rnd(f32, total_info(f32, freq + 2 * k, k, 1) / known)
    min_split = rnd(f32, 0.10 * known / k)
    if min_split <= min_objs:
        min_split = min_objs
    elif min_split > 25:
        min_split = 25
    for i in range(first, hi):
        c = w.cases[i]
        cls = d.y[c]
        wt = w.weight[c]
        low = rnd(f32, low + wt)
        freq[k + cls] = rnd(f32, freq[k + cls] + wt)
        freq[2 * k + cls] = rnd(f32, freq[2 * k + cls] - wt)
        if low < min_split:
            continue
        if low > rnd(f32, known - min_split):
            break
        if values[c] < values[w.cases[i + 1]] - 1e-5:
            w.totals[0] = u
            w.totals[1] = low
            w.totals[2] = rnd(f32, known - low)
            w.cand_gain[n_cand] = split_gain(f32, freq, w.totals, 2, k, known,
                                             unknown_frac, base, min_objs)
            w.cand_split[n_cand] = rnd(f32, total_info(f32, w.totals, 3, 1) / total)
            w.cand_pos[n_cand] = i
            n_cand += 1
    w.tries[f] = n_cand
    for j in range(n_cand):
        if w.cand_gain[j] > w.raw_gain[f]:
            w.raw_gain[f] = w.cand_gain[j]
    # Release 8's MDL correction: log2(number of cuts tried) / N off every gain.
    penalty = rnd(f32, log2_of(f32, <double> n_cand) / total)
    best = 0.0
    for j in range(n_cand):
        val = rnd(f32, w.cand_gain[j] - penalty)
        if val > best:
            best = val
            best_j = j
    if best_j < 0:
        return
    i = w.cand_pos[best_j]
    w.gain[f] = best
    w.info[f] = w.cand_split[best_j]
    w.bar[f] = rnd(f32, rnd(f32, values[w.cases[i]] + values[w.cases[i + 1]]) / 2)


cdef void eval_discrete(Work* w, Py_ssize_t f, Py_ssize_t lo, Py_ssize_t hi,
                        double total) noexcept nogil:
    """Multiway test on every declared value (§3, §4.1-4.2): sets gain and info."""
    cdef const Dataset* d = w.data
    cdef bint f32 = d.f32
    cdef Py_ssize_t k = d.n_classes, n_values = d.n_values[f], i, v, j
    cdef const int32_t* codes = d.codes + <Py_ssize_t> d.col[f] * d.n_cases
    cdef double* freq = w.freq
    cdef double* totals = w.totals
    cdef double u, known, unknown_frac, base, m, s
    cdef int32_t c
    memset(freq, 0, (n_values + 1) * k * sizeof(double))
    w.gain[f] = unusable(f32)
    w.raw_gain[f] = unusable(f32)
    w.info[f] = 0.0
    for i in range(lo, hi + 1):
        c = w.cases[i]
        j = codes[c] * k + d.y[c]
        freq[j] = rnd(f32, freq[j] + w.weight[c])
    for v in range(n_values + 1):
        s = 0.0
        for j in range(k):
            s = rnd(f32, s + freq[v * k + j])
        totals[v] = s
    u = totals[0]
    if total <= u:
        return
    known = rnd(f32, total - u)
    unknown_frac = rnd(f32, u / total)
    s = 0.0
    for j in range(k):
        m = 0.0
        for v in range(1, n_values + 1):
            m = rnd(f32, m + freq[v * k + j])
        s += m * log2_of(f32, m)
    base = rnd(f32, (known * log2_of(f32, known) - s) / known)
    w.info[f] = rnd(f32, total_info(f32, totals, n_values + 1, 1) / total)
    w.gain[f] = split_gain(f32, freq, totals, n_values, k, known, unknown_frac, base,
                           d.min_objs)
    w.raw_gain[f] = w.gain[f]


cdef Py_ssize_t find_split(Work* w, Py_ssize_t lo, Py_ssize_t hi, double total) noexcept nogil:
    """Evaluate every attribute and choose one (§6); -1 if no split is sensible."""
    cdef const Dataset* d = w.data
    cdef bint f32 = d.f32
    cdef Py_ssize_t f, best = -1, possible = 0
    cdef double sum_gain = 0.0, av_gain, val, best_val
    for f in range(d.n_features):
        if d.n_values[f] == 0:
            eval_continuous(w, f, lo, hi, total)
        elif w.used[f] > 0:
            w.gain[f] = unusable(f32)    # a plain discrete test is never repeated
            w.info[f] = 0.0
        else:
            eval_discrete(w, f, lo, hi, total)
    for f in range(d.n_features):
        if w.gain[f] > -EPSILON and (d.multival or d.n_values[f] < 0.3 * d.total_weight):
            sum_gain = rnd(f32, sum_gain + w.gain[f])
            possible += 1
    av_gain = rnd(f32, sum_gain / possible) if possible > 0 else 1e6
    best_val = unusable(f32)
    for f in range(d.n_features):
        if w.gain[f] > -EPSILON:
            val = worth(f32, w.info[f], w.gain[f], av_gain)
            if val > best_val:
                best_val = val
                best = f
    return best


cdef double global_threshold(const Dataset* d, Py_ssize_t feature, double bar) noexcept nogil:
    """The stored cut (§5.4): the largest training value of the feature <= bar."""
    cdef const double* v = d.distinct + d.distinct_start[feature]
    cdef Py_ssize_t lo = 0, hi = d.distinct_start[feature + 1] - d.distinct_start[feature]
    cdef Py_ssize_t mid
    # v[0..hi) ascending; find the last index with v <= bar.
    while lo < hi:
        mid = (lo + hi) // 2
        if v[mid] <= bar:
            lo = mid + 1
        else:
            hi = mid
    return v[lo - 1] if lo > 0 else bar
