"""The float64 fit's one sort per continuous feature (c45/_presorted.pyx reads it).

rank_columns orders a column by (value, row) with the unknown values (NaN) last in
row order, -0.0 equal to 0.0: the canonical order of project decision 7. It is an
LSD radix sort on an order-preserving 64-bit key of each value, stable, so equal
keys keep row order: three passes of 11 bits over the keys' top halves, then
each run of one top half (values within 2**-20 of one another: mostly a value
alone, or ties) sorted by its low halves (sort_runs). Several times faster than
numpy's stable argsort (a merge sort) on a million doubles, and 1.7x faster
than six passes over whole keys. rank_columns sorts a fit's
features in one section without the GIL, several at once on n_jobs threads,
and looks for Ctrl-C every CHUNK values (a column of 40M rows takes seconds).
"""
from cython.parallel cimport prange, threadid
import numpy as np
cimport numpy as cnp
cnp.import_array()
from libc.math cimport isnan, NAN
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t, int32_t

from c45._interrupt cimport (interrupt_init, interrupt_end, interrupted, raise_interrupt,
                             touch_pages)
from c45._types cimport Interrupt
from c45._gil cimport NOGIL_WORK, NOGIL_SORT
from c45._scratch cimport c45_big_resize, c45_big_free, c45_big_advise_huge
from c45._column cimport Column, column_value, fit_value, set_column, value32, cont_t
from c45._digest cimport P1, P4, feed_words, sorted_row_lanes

cdef packed struct Keyed:    # 12 bytes: two of them a row while sorting
    uint64_t key
    uint32_t row

cdef enum:
    DIGIT_BITS = 11
    BUCKETS = 2048          # 2 ** DIGIT_BITS
    PASSES = 6              # ceil(64 / DIGIT_BITS): a sort's passes over a value, at most
    HALF_PASSES = 3         # ceil(32 / DIGIT_BITS): the keys' top half, then a run's low one
    CHUNK = 1 << 18         # values between two looks for Ctrl-C (~10 ms a pass)
    INSERTION_RUN = 16      # runs of one top half sorted by insertion up to this long,
    MERGE_RUN = 4096        # by merges up to this long, beyond by the low half's digits


# sort_key of 0.0 and -0.0, and of every NaN: the keys that do not give back
# their value's bits
cdef uint64_t ZERO_KEY = 0x8000000000000000ULL
cdef uint64_t NAN_KEY = 0xFFFFFFFFFFFFFFFFULL


cdef inline uint64_t sort_key(double v) noexcept nogil:
    """Unsigned key in the order of the values: NaN largest, -0.0 as 0.0."""
    cdef uint64_t bits
    if isnan(v):
        return NAN_KEY
    if v == 0.0:
        v = 0.0
    memcpy(&bits, &v, sizeof(double))
    if bits >> 63:
        return ~bits                     # negative: larger magnitude sorts first
    return bits | 0x8000000000000000ULL


cdef inline double key_value(uint64_t key) noexcept nogil:
    """The value of a sort_key other than ZERO_KEY and NAN_KEY (its inverse)."""
    cdef uint64_t bits = (key & 0x7FFFFFFFFFFFFFFFULL) if key >> 63 else ~key
    cdef double v
    memcpy(&v, &bits, sizeof(double))
    return v


cdef inline size_t keys_bytes(Py_ssize_t n) noexcept nogil:
    """One array of n + 1 keyed items, rounded up to 64 bytes (so the next part
    of the scratch, and the sorted values made in the spare array, are aligned)."""
    cdef size_t b = (n + 1) * sizeof(Keyed) + 63
    return b - b % 64


cdef inline size_t scratch_bytes(Py_ssize_t n) noexcept nogil:
    """The room rank_sorted works in for n values (a multiple of 64 bytes): two
    arrays of keys (the sorted values are made in the spare one), the digits'
    counts."""
    return 2 * keys_bytes(n) + HALF_PASSES * BUCKETS * sizeof(Py_ssize_t)


cdef char* scratch_alloc(Py_ssize_t n, int n_threads) noexcept nogil:
    """Room for n_threads sorts of n values at once, kept from column to column
    (freed and made again, each column's buffers would be fresh pages, a page
    fault each 4 KB); NULL when memory runs out. Free with scratch_free."""
    cdef char* p = <char*> c45_big_resize(NULL, n_threads * scratch_bytes(n))
    c45_big_advise_huge(p)
    return p


cdef void scratch_free(char* p) noexcept nogil:
    c45_big_free(p)


cdef bint lsd_passes(Keyed** a, Keyed** b, Py_ssize_t n, int first_shift,
                     Py_ssize_t* count, Interrupt* intr) noexcept nogil:
    """Sort a[0][.. n) stably by the HALF_PASSES digits of the keys from bit
    first_shift up, scattering between a[0] and b[0] (swapped after each pass:
    the sorted items end in a[0]). count: room for HALF_PASSES * BUCKETS. A
    digit that is the same in every item is skipped (its pass would move
    nothing). Looks for Ctrl-C every CHUNK items: True when interrupted."""
    cdef Py_ssize_t i, i0, p, c, pos, shift
    cdef Keyed* t
    memset(count, 0, HALF_PASSES * BUCKETS * sizeof(Py_ssize_t))
    i0 = 0
    while i0 < n:
        if interrupted(intr):
            return True
        for i in range(i0, min(n, i0 + CHUNK)):
            for p in range(HALF_PASSES):
                shift = first_shift + p * DIGIT_BITS
                count[p * BUCKETS + ((a[0][i].key >> shift) & (BUCKETS - 1))] += 1
        i0 += CHUNK
    for p in range(HALF_PASSES):
        shift = first_shift + p * DIGIT_BITS
        if n == 0 or count[p * BUCKETS + ((a[0][0].key >> shift) & (BUCKETS - 1))] == n:
            continue                     # every key has this digit: nothing moves
        pos = 0
        for i in range(BUCKETS):         # bucket starts
            c = count[p * BUCKETS + i]
            count[p * BUCKETS + i] = pos
            pos += c
        i0 = 0
        while i0 < n:                    # stable scatter by this digit
            if interrupted(intr):
                return True
            for i in range(i0, min(n, i0 + CHUNK)):
                c = p * BUCKETS + ((a[0][i].key >> shift) & (BUCKETS - 1))
                b[0][count[c]] = a[0][i]
                count[c] += 1
            i0 += CHUNK
        t = a[0]; a[0] = b[0]; b[0] = t
    return False


cdef void merge_sorted(Keyed* a, Keyed* b, Py_ssize_t n) noexcept nogil:
    """Sort a[.. n) stably by key: runs of INSERTION_RUN by insertion, then
    merged in pairs through b (b: room for n; the result ends in a)."""
    cdef Py_ssize_t lo, i, j, width, mid, hi, l, r, o
    cdef Keyed item
    cdef Keyed* src = a
    cdef Keyed* dst = b
    cdef Keyed* t
    lo = 0
    while lo < n:
        hi = min(n, lo + <Py_ssize_t> INSERTION_RUN)
        for i in range(lo + 1, hi):
            item = a[i]
            j = i - 1
            while j >= lo and a[j].key > item.key:
                a[j + 1] = a[j]
                j -= 1
            a[j + 1] = item
        lo = hi
    width = INSERTION_RUN
    while width < n:
        lo = 0
        while lo < n:
            mid = min(n, lo + width)
            hi = min(n, lo + 2 * width)
            l, r, o = lo, mid, lo
            while l < mid and r < hi:
                if src[r].key < src[l].key:     # (equal keys: the left one first)
                    dst[o] = src[r]
                    r += 1
                else:
                    dst[o] = src[l]
                    l += 1
                o += 1
            if l < mid:
                memcpy(&dst[o], &src[l], (mid - l) * sizeof(Keyed))
            if r < hi:
                memcpy(&dst[o], &src[r], (hi - r) * sizeof(Keyed))
            lo = hi
        t = src; src = dst; dst = t
        width *= 2
    if src != a:
        memcpy(a, src, n * sizeof(Keyed))


cdef bint sort_runs(Keyed* a, Keyed* b, Py_ssize_t n, Py_ssize_t* count,
                    Interrupt* intr) noexcept nogil:
    """a[.. n), in the order of the keys' top halves (rows in order within
    each), into the order of the whole keys: each run of one top half sorted by
    its low halves, stably (b: scratch of n). Most runs are a value alone, or
    ties (equal keys: nothing moves); a run of many values within 2**-20 of one
    another (timestamps a few minutes apart) is sorted by the low half's digits.
    True when interrupted."""
    cdef Py_ssize_t i = 0, j, next_look = CHUNK
    cdef uint64_t top
    cdef Keyed* ra
    cdef Keyed* rb
    cdef bint differ
    while i < n:
        if i >= next_look:
            if interrupted(intr):
                return True
            next_look = i + CHUNK
        top = a[i].key >> 32
        differ = False
        j = i + 1
        while j < n and a[j].key >> 32 == top:
            differ = differ or a[j].key != a[i].key
            j += 1
        if differ:
            if j - i <= MERGE_RUN:
                merge_sorted(a + i, b + i, j - i)
            else:
                ra = a + i
                rb = b + i
                if lsd_passes(&ra, &rb, j - i, 0, count, intr):
                    return True
                if ra != a + i:
                    memcpy(a + i, ra, (j - i) * sizeof(Keyed))
        i = j
    return False


cdef int64_t rank_sorted(double* values, uint32_t* ranks, uint32_t* order, Py_ssize_t n,
                         Interrupt* intr, char* scratch) noexcept nogil:
    """Sort values in place into the canonical order and set ranks[row] to each
    row's position in it; order (unless NULL) gets the rows in that order. Works
    in scratch (scratch_bytes(n), 16-byte aligned), or NULL: room of its own.
    Returns the number of known values, -1 out of memory,
    -2 interrupted (values and ranks then undefined)."""
    cdef char* own = NULL
    cdef Keyed* a
    cdef Keyed* b
    cdef double* tmp
    cdef Py_ssize_t* count
    cdef Py_ssize_t i, i0
    cdef int64_t n_known = 0
    if scratch == NULL:
        own = <char*> malloc(scratch_bytes(n))
        if own == NULL:
            return -1
        scratch = own
    if touch_pages(scratch, scratch_bytes(n), intr):    # (the scatters' room)
        free(own)
        return -2
    a = <Keyed*> scratch
    b = <Keyed*> (scratch + keys_bytes(n))
    count = <Py_ssize_t*> (scratch + 2 * keys_bytes(n))
    i0 = 0
    while i0 < n:
        if interrupted(intr):
            n_known = -2
            break
        for i in range(i0, min(n, i0 + CHUNK)):
            a[i].key = sort_key(values[i])
            a[i].row = <uint32_t> i
            if not isnan(values[i]):
                n_known += 1
        i0 += CHUNK
    # By the keys' top halves (three passes, not six), then each run of one
    # top half by its low halves: the same stable order by whole keys.
    if n_known >= 0 and (lsd_passes(&a, &b, n, 32, count, intr)
                         or sort_runs(a, b, n, count, intr)):
        n_known = -2
    tmp = <double*> b                   # the sorted values, in the spare keys' room
    if n_known >= 0 and touch_pages(ranks, n * sizeof(uint32_t), intr):
        n_known = -2                    # (the scatter below would fault in every page at once)
    i0 = 0
    while n_known >= 0 and i0 < n:      # the scattered writes: slow enough to poll
        if interrupted(intr):
            n_known = -2
            break
        for i in range(i0, min(n, i0 + CHUNK)):
            ranks[a[i].row] = <uint32_t> i
            if a[i].key == ZERO_KEY or a[i].key == NAN_KEY:
                tmp[i] = values[a[i].row]     # the key lost its sign or payload
            else:
                tmp[i] = key_value(a[i].key)  # not a read by row (a cache miss each)
            if order != NULL:
                order[i] = a[i].row
        i0 += CHUNK
    i0 = 0
    while n_known >= 0 and i0 < n:
        if interrupted(intr):
            n_known = -2
            break
        memcpy(values + i0, tmp + i0, (min(n, i0 + CHUNK) - i0) * sizeof(double))
        i0 += CHUNK
    free(own)
    return n_known


cdef bint far_column(const double* v, uint8_t* q, Py_ssize_t nk,
                     Interrupt* intr) noexcept nogil:
    """One continuous feature's row of Dataset.far from its sorted values v (nk
    of them known): at each rank r, the first rank r2 whose value is more than
    1e-5 above r's (v[r] < v[r2] - 1e-5, the scans' cut test) as r2 - r - 1,
    255 for 255 or more. v[r2] - 1e-5 rises with r2, and the r2 of r with r:
    one pass, which looks for Ctrl-C every CHUNK ranks: True when interrupted."""
    cdef Py_ssize_t r, r0 = 0, j = 0, gap
    while r0 < nk:
        if interrupted(intr):
            return True
        for r in range(r0, min(nk, r0 + CHUNK)):
            if j <= r:
                j = r + 1
            while j < nk and not v[r] < v[j] - 1e-5:
                j += 1
            gap = j - r - 1
            q[r] = 255 if gap >= 255 else <uint8_t> gap
        r0 += CHUNK
    return False


def far_table(const double[:, ::1] sorted_value, const int64_t[::1] n_known,
              const int32_t[::1] col, const int32_t[::1] n_values):
    """Dataset.far of float64's sorted values (far_column of each continuous
    feature), for data ranked without it; looks for Ctrl-C every CHUNK ranks."""
    far = np.empty((sorted_value.shape[0], sorted_value.shape[1]), np.uint8)
    cdef uint8_t[:, ::1] out = far
    cdef Py_ssize_t f, cells = 0
    cdef Interrupt intr
    cdef bint stopped = False
    for f in range(col.shape[0]):
        if n_values[f] == 0 and not (0 <= col[f] < out.shape[0]
                                     and 0 <= n_known[f] <= out.shape[1]):
            raise ValueError("c45: far_table given a column that does not fit")
        if n_values[f] == 0:
            cells += n_known[f]
    memset(&intr, 0, sizeof(Interrupt))
    try:
        if cells >= NOGIL_WORK:         # a short table keeps the GIL (c45/_gil.pxd)
            interrupt_init(&intr)
            with nogil:
                for f in range(col.shape[0]):
                    if n_values[f] == 0 and far_column(
                            &sorted_value[col[f], 0], &out[col[f], 0], n_known[f], &intr):
                        stopped = True
                        break
        else:
            for f in range(col.shape[0]):
                if n_values[f] == 0:
                    far_column(&sorted_value[col[f], 0], &out[col[f], 0], n_known[f], NULL)
    finally:
        interrupt_end(&intr)
    if stopped or intr.stop:
        raise_interrupt()
    return far


cdef check_columns(Py_ssize_t n_rows, Py_ssize_t n, Py_ssize_t out_rows,
                   Py_ssize_t out_cols, const int32_t[::1] rows, str out_name):
    """The arguments of a call that sorts the rows `rows` of an (n_rows, n) array
    into an (out_rows, out_cols) one."""
    cdef Py_ssize_t j
    if out_cols < n or out_rows < n_rows:
        raise ValueError(f"{out_name} is smaller than values")
    if n >= 0xFFFFFFFF:
        raise ValueError("a column of more than 2**32 - 2 rows cannot be ranked")
    for j in range(rows.shape[0]):
        if not 0 <= rows[j] < n_rows:
            raise ValueError(f"row {rows[j]} is out of range")


cdef raise_failures(const int64_t[::1] known, const Interrupt* intr):
    """Raise what rank_sorted's results say went wrong (-2 interrupted, -1 out of
    memory), after the sorts."""
    cdef Py_ssize_t j
    for j in range(known.shape[0]):
        if known[j] == -2 or intr.stop:
            raise_interrupt()
        if known[j] == -1:
            raise MemoryError("c45: out of memory sorting a feature")


cdef int64_t rank_row(double[:, ::1] values, uint32_t[:, ::1] ranks, uint8_t[:, ::1] far,
                      int32_t r, bint with_far, Interrupt* intr, char* scratch) noexcept nogil:
    """rank_columns' work on row r: its known count (-2: far_column failed)."""
    cdef int64_t known = rank_sorted(&values[r, 0], &ranks[r, 0], NULL, values.shape[1],
                                     intr, scratch)
    if with_far and known >= 0 and far_column(&values[r, 0], &far[r, 0], known, intr):
        return -2
    return known


def rank_columns(double[:, ::1] values, uint32_t[:, ::1] ranks, const int32_t[::1] rows,
                 int n_threads=1, uint8_t[:, ::1] far=None):
    """For each row r of `rows`: sort values[r] in place into the canonical order
    (by value, then row; NaN last) and fill ranks[r] with each row's position in
    it (and far[r] with far_column's, far given), n_threads rows at once.
    Returns the known counts, one per row of `rows`."""
    cdef Py_ssize_t n = values.shape[1], j, m = rows.shape[0]
    cdef Interrupt intr
    cdef int64_t[::1] known
    cdef int status = 0
    cdef bint with_far = far is not None
    check_columns(values.shape[0], n, ranks.shape[0], ranks.shape[1], rows, "ranks")
    if with_far:
        check_columns(values.shape[0], n, far.shape[0], far.shape[1], rows, "far")
    out = np.zeros(m, dtype=np.int64)
    known = out
    if m == 0 or n == 0:
        return out
    n_threads = max(1, min(n_threads, <int> m))
    cdef size_t room = scratch_bytes(n)
    cdef char* scratch = scratch_alloc(n, n_threads)
    if scratch == NULL:
        raise MemoryError("c45: out of memory sorting a feature")
    memset(&intr, 0, sizeof(Interrupt))
    try:
        interrupt_init(&intr)
        if m * n < NOGIL_SORT:      # (c45/_gil.pxd: windowing sorts its window a cycle)
            for j in range(m):
                known[j] = rank_row(values, ranks, far, rows[j], with_far, &intr, scratch)
        else:
            with nogil:
                if n_threads > 1:     # one thread runs no OpenMP region (fork safety)
                    for j in prange(m, schedule="dynamic", num_threads=n_threads):
                        known[j] = rank_row(values, ranks, far, rows[j], with_far, &intr,
                                            scratch + threadid() * room)
                else:
                    for j in range(m):
                        known[j] = rank_row(values, ranks, far, rows[j], with_far, &intr,
                                            scratch)
    finally:
        interrupt_end(&intr)
        scratch_free(scratch)
    raise_failures(known, &intr)
    return out


cdef int64_t rank_source(const Column* c, uint32_t* ranks, uint8_t* far, Py_ssize_t n,
                         Interrupt* intr, char* scratch, double* values,
                         double* facts, uint64_t* lanes) noexcept nogil:
    """rank_sorted and far_column of a column of the caller's X, read into values
    (n of them, sorted there, then let go), and what else is read of its sorted
    values: facts gets their smallest and largest known value (NaN: none) and
    the cuts between known neighbours that differ and those closer than 1e-5
    (_bulk.cut_counts'), lanes their digest's (sorted_row_lanes). Returns
    rank_sorted's."""
    cdef Py_ssize_t i, i0 = 0
    cdef int64_t known
    while i0 < n:
        if interrupted(intr):
            return -2
        for i in range(i0, min(n, i0 + CHUNK)):
            values[i] = fit_value(c, i)
        i0 += CHUNK
    known = rank_sorted(values, ranks, NULL, n, intr, scratch)
    if known < 0:
        return known
    if far_column(values, far, known, intr) or sorted_facts(values, known, facts, intr):
        return -2
    sorted_row_lanes(values, n, lanes, intr)
    if intr.stop:
        return -2
    return known


cdef int sorted_facts(const double* values, int64_t known, double* facts,
                      Interrupt* intr) noexcept nogil:
    """What the warnings read of a column's sorted values (values[:known] the
    known ones): facts gets the smallest and largest known value (NaN: none) and
    the cuts between known neighbours that differ and those closer than 1e-5
    (_bulk.cut_counts'). -2 when interrupted (facts then unset), else 0."""
    cdef Py_ssize_t i, i0 = 0
    cdef int64_t possible = 0, blocked = 0
    while i0 < known - 1:
        if interrupted(intr):
            return -2
        for i in range(i0, min(known - 1, i0 + CHUNK)):
            if values[i] < values[i + 1]:
                possible += 1
                if not values[i] < values[i + 1] - 1e-5:
                    blocked += 1
        i0 += CHUNK
    facts[0] = values[0] if known else NAN
    facts[1] = values[known - 1] if known else NAN
    facts[2] = <double> possible
    facts[3] = <double> blocked
    return 0


def rank_sources(columns, uint32_t[:, ::1] ranks, const int32_t[::1] rows,
                 int n_threads, uint8_t[:, ::1] far):
    """rank_columns of the values of the caller's X itself: columns[q], a 1-D
    float64 or float32 array of any stride, is the row rows[q] (read as the fit
    reads a value: -0.0 as 0.0), and no table of the values is made (each
    column is sorted in a buffer of its own thread's). Returns the known
    counts, one per row of `rows`, and per row of ranks what else is read of
    the sorted values (rank_source): facts, (m, 4) float64 (the smallest and
    largest known value, NaN where none, as _bulk.column_spans; the possible
    and blocked cuts, as _bulk.cut_counts), and lanes, (m, 2) uint64
    (_bulk.sorted_row_digests)."""
    cdef Py_ssize_t n = ranks.shape[1], j, m = rows.shape[0]
    cdef Interrupt intr
    cdef int64_t[::1] known
    cdef double[:, ::1] facts_v
    cdef uint64_t[:, ::1] lanes_v
    if len(columns) != m:
        raise ValueError("c45: one column a row of rows")
    check_columns(ranks.shape[0], n, ranks.shape[0], ranks.shape[1], rows, "ranks")
    check_columns(ranks.shape[0], n, far.shape[0], far.shape[1], rows, "far")
    out = np.zeros(m, dtype=np.int64)
    facts = np.full((ranks.shape[0], 4), np.nan)
    lanes = np.zeros((ranks.shape[0], 2), np.uint64)
    known, facts_v, lanes_v = out, facts, lanes
    if m == 0 or n == 0:
        return out, facts, lanes
    cdef Column* cols = <Column*> malloc(m * sizeof(Column))
    if cols == NULL:
        raise MemoryError("c45: out of memory sorting a feature")
    try:
        for j in range(m):
            set_column(&cols[j], columns[j], n)
    except BaseException:
        free(cols)
        raise
    n_threads = max(1, min(n_threads, <int> m))
    # a thread's room: rank_sorted's, then the column's values
    cdef size_t vbytes = (n * sizeof(double) + 63) // 64 * 64
    cdef size_t room = scratch_bytes(n) + vbytes
    cdef char* scratch = <char*> c45_big_resize(NULL, n_threads * room)
    if scratch == NULL:
        free(cols)
        raise MemoryError("c45: out of memory sorting a feature")
    c45_big_advise_huge(scratch)
    memset(&intr, 0, sizeof(Interrupt))
    try:
        interrupt_init(&intr)
        with nogil:
            if n_threads > 1:     # one thread runs no OpenMP region (fork safety)
                for j in prange(m, schedule="dynamic", num_threads=n_threads):
                    known[j] = rank_source(
                        &cols[j], &ranks[rows[j], 0], &far[rows[j], 0], n, &intr,
                        scratch + threadid() * room,
                        <double*> (scratch + threadid() * room + scratch_bytes(n)),
                        &facts_v[rows[j], 0], &lanes_v[rows[j], 0])
            else:
                for j in range(m):
                    known[j] = rank_source(
                        &cols[j], &ranks[rows[j], 0], &far[rows[j], 0], n, &intr,
                        scratch, <double*> (scratch + scratch_bytes(n)),
                        &facts_v[rows[j], 0], &lanes_v[rows[j], 0])
    finally:
        interrupt_end(&intr)
        c45_big_free(scratch)
        free(cols)
    raise_failures(known, &intr)
    return out, facts, lanes


def rank_column(double[::1] values, uint32_t[::1] ranks, uint32_t[::1] order=None):
    """rank_columns of one column, and with order, the rows in the canonical order
    (the ranks' inverse): returns its known count."""
    cdef Py_ssize_t n = values.shape[0]
    cdef int64_t known
    cdef Interrupt intr
    if ranks.shape[0] < n or (order is not None and order.shape[0] < n):
        raise ValueError("ranks or order is shorter than values")
    if n >= 0xFFFFFFFF:
        raise ValueError("a column of more than 2**32 - 2 rows cannot be ranked")
    if n == 0:
        return 0
    memset(&intr, 0, sizeof(Interrupt))
    try:
        interrupt_init(&intr)
        if n < NOGIL_SORT:
            known = rank_sorted(&values[0], &ranks[0],
                                NULL if order is None else &order[0], n, &intr, NULL)
        else:
            with nogil:
                known = rank_sorted(&values[0], &ranks[0],
                                    NULL if order is None else &order[0], n, &intr, NULL)
    finally:
        interrupt_end(&intr)
    if known == -2 or intr.stop:
        raise_interrupt()
    if known == -1:
        raise MemoryError("c45: out of memory sorting a feature")
    return int(known)


def order_columns(const cont_t[:, ::1] values, uint32_t[:, ::1] order,
                  const int32_t[::1] rows):
    """For each row r of `rows`: order[r] gets the cases of values[r] in the
    canonical order (values left as they are: each is sorted in a copy), all in
    one call without the GIL (one release, not two per feature). Returns the known
    counts, one per row of `rows`."""
    cdef Py_ssize_t n = values.shape[1], i, j, m = rows.shape[0]
    cdef Interrupt intr
    cdef int64_t[::1] known
    cdef double* x
    cdef uint32_t* ranks
    check_columns(values.shape[0], n, order.shape[0], order.shape[1], rows, "order")
    out = np.zeros(m, dtype=np.int64)
    known = out
    if m == 0 or n == 0:
        return out
    x = <double*> malloc(n * sizeof(double))
    ranks = <uint32_t*> malloc(n * sizeof(uint32_t))
    cdef char* scratch = scratch_alloc(n, 1)
    if x == NULL or ranks == NULL or scratch == NULL:
        free(x); free(ranks); scratch_free(scratch)
        raise MemoryError("c45: out of memory sorting a feature")
    memset(&intr, 0, sizeof(Interrupt))
    try:
        interrupt_init(&intr)
        with nogil:
            for j in range(m):
                for i in range(n):
                    x[i] = values[rows[j], i]       # (float32's widened: the same)
                known[j] = rank_sorted(x, ranks, &order[rows[j], 0], n, &intr, scratch)
                if known[j] < 0:
                    break
    finally:
        interrupt_end(&intr)
        free(x); free(ranks); scratch_free(scratch)
    raise_failures(known, &intr)
    return out


def order_sources(columns, uint32_t[:, ::1] order, const int32_t[::1] rows):
    """order_columns of the caller's X itself, as a float32 fit reads its values
    (value32): columns[q], a 1-D float64 array of any stride, is the row rows[q]
    (every row, in order: rows[q] = q), read into one buffer a column at a time
    (no table of the values is made). Returns the known counts, one per row of `rows`, facts
    (rank_sources'), and lanes, the training digest's two lanes after these
    values (_bulk.digest of the table they would make, as it reads them); None
    at the first unknown value (NaN: the fit does not take the lists)."""
    cdef Py_ssize_t n = order.shape[1], i, j, m = rows.shape[0]
    cdef Interrupt intr
    cdef int64_t[::1] known
    cdef double[:, ::1] facts_v
    cdef uint64_t[::1] lanes_v
    cdef double* x
    cdef uint32_t* ranks
    cdef char* scratch
    cdef Column* cols
    cdef bint unknown = False
    if len(columns) != m:
        raise ValueError("c45: one column a row of rows")
    check_columns(order.shape[0], n, order.shape[0], n, rows, "order")
    for j in range(m):
        if rows[j] != j or m != order.shape[0]:
            raise ValueError("c45: order_sources orders every row, in order")
    out = np.zeros(m, dtype=np.int64)
    facts = np.full((order.shape[0], 4), np.nan)
    lanes = np.array([P1, P4], dtype=np.uint64)
    known, facts_v, lanes_v = out, facts, lanes
    if m == 0 or n == 0:
        return out, facts, lanes
    cols = <Column*> malloc(m * sizeof(Column))
    if cols == NULL:
        raise MemoryError("c45: out of memory sorting a feature")
    try:
        for j in range(m):
            if columns[j].dtype != np.float64:
                raise ValueError("c45: order_sources reads float64 columns")
            set_column(&cols[j], columns[j], n)
    except BaseException:
        free(cols)
        raise
    x = <double*> malloc(n * sizeof(double))
    ranks = <uint32_t*> malloc(n * sizeof(uint32_t))
    scratch = scratch_alloc(n, 1)
    if x == NULL or ranks == NULL or scratch == NULL:
        free(cols); free(x); free(ranks); scratch_free(scratch)
        raise MemoryError("c45: out of memory sorting a feature")
    memset(&intr, 0, sizeof(Interrupt))
    try:
        interrupt_init(&intr)
        with nogil:
            for j in range(m):
                for i in range(n):
                    x[i] = value32(column_value(&cols[j], i))
                    if isnan(x[i]):
                        unknown = True
                        break
                if unknown:
                    break
                feed_words(<const unsigned char*> x, n, &lanes_v[0], &lanes_v[1], &intr)
                known[j] = rank_sorted(x, ranks, &order[rows[j], 0], n, &intr, scratch)
                if known[j] < 0:
                    break
                if sorted_facts(x, known[j], &facts_v[rows[j], 0], &intr):
                    known[j] = -2
                    break
    finally:
        interrupt_end(&intr)
        free(cols); free(x); free(ranks); scratch_free(scratch)
    raise_failures(known, &intr)
    if unknown:
        return None
    return out, facts, lanes


def count_distinct(const double[::1] values, double unknown):
    """How many distinct values the column holds, an unknown (NaN) counting as
    the value `unknown` (len(np.unique) of the column with NaN replaced): a
    sorted copy, the column left as it is. A short column keeps the GIL (a sort
    touches each value some PASSES times: c45/_gil.pxd)."""
    cdef Py_ssize_t n = values.shape[0], i, distinct = 0
    cdef int64_t known = 0
    cdef Interrupt intr
    if n >= 0xFFFFFFFF:
        raise ValueError("a column of more than 2**32 - 2 rows cannot be ranked")
    if n == 0:
        return 0
    cdef double* v = <double*> malloc(n * sizeof(double))
    cdef uint32_t* ranks = <uint32_t*> malloc(n * sizeof(uint32_t))
    memset(&intr, 0, sizeof(Interrupt))
    try:
        if v == NULL or ranks == NULL:
            raise MemoryError("c45: out of memory sorting a feature")
        for i in range(n):
            v[i] = unknown if isnan(values[i]) else values[i]
        if n * PASSES >= NOGIL_WORK:
            interrupt_init(&intr)
            with nogil:
                known = rank_sorted(v, ranks, NULL, n, &intr, NULL)
        else:
            known = rank_sorted(v, ranks, NULL, n, &intr, NULL)
        if known == -2 or intr.stop:
            raise_interrupt()
        if known == -1:
            raise MemoryError("c45: out of memory sorting a feature")
        for i in range(known):
            if i == 0 or v[i] != v[i - 1]:
                distinct += 1
        return distinct + (known < n)      # unknown itself NaN: one value more
    finally:
        interrupt_end(&intr)
        free(v)
        free(ranks)
