# cython: freethreading_compatible = False
"""The facade's passes over whole columns, each one compiled call.

Beside a busy Python thread every release of the GIL costs the caller a switch
interval (5 ms by default): the busy thread takes the GIL, and the caller waits
an interval to get it back. numpy releases it in nearly every call on a column
(a cast, a comparison, an ``any``, a reduction, even ``np.zeros`` and
``np.ones``), and a fit of 100k x 4 made some 250 such calls. The steps of fit
that touch every value run here instead: the continuous columns' copy and
checks, their spans, the labels' codes, the weights' checks and the digest of
the training data. Each gives the GIL up once, and only from NOGIL_WORK values
(c45/_gil.pxd): a shorter pass takes less than a switch interval holding it.
"""
import numpy as np

cimport numpy as cnp
from libc.math cimport isinf, isnan, isfinite, floor
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, free, calloc
from libc.string cimport memcmp, memcpy, memset

from cpython.exc cimport PyErr_CheckSignals
from c45._interrupt cimport (interrupt_init, interrupt_end, interrupted, raise_interrupt,
                             copy_polled, TOUCH_STEP)
from c45._types cimport Interrupt
from c45._sums cimport pairwise
from c45._gil cimport NOGIL_WORK
from c45._fresh import fresh_empty

cnp.import_array()

# fill_continuous's verdicts on a column (beside OK): an infinite value (at a
# row), or a finite value beyond float32's range in a float32 fit.
cdef enum:
    C_OK, C_INFINITE, C_BEYOND_FLOAT32
OK, INFINITE, BEYOND_FLOAT32 = C_OK, C_INFINITE, C_BEYOND_FLOAT32


# Columns this long look for signals (Ctrl-C) every LOOK_EVERY values: below it
# a pass takes well under a millisecond, less than setting up the looking.
cdef Py_ssize_t LOOK_FROM = 1 << 20
cdef enum:
    LOOK_EVERY = 1 << 16


from c45._column cimport Column, column_value, set_column, cont_t
from c45._digest cimport (P1, P2, P3, P4, rotl, mix, feed_words, feed_end,
                         sorted_row_lanes)


cdef void fill_columns(cont_t* out, Py_ssize_t width, const Column* cols,
                       const Py_ssize_t* targets, Py_ssize_t n_cols, Py_ssize_t n,
                       bint f32, int* verdict, Py_ssize_t* bad_col, Py_ssize_t* bad_row,
                       Interrupt* intr) noexcept nogil:
    """fill_continuous' pass (out NULL: the checks alone)."""
    cdef Py_ssize_t q, i, inf_row, far_row
    cdef double v
    cdef float s
    for q in range(n_cols):
        if intr.stop:
            break
        inf_row = -1
        far_row = -1
        for i in range(n):
            v = column_value(&cols[q], i)
            if isinf(v):
                if inf_row < 0:
                    inf_row = i
            elif f32:
                s = <float> v
                if isinf(s) and far_row < 0:
                    far_row = i
                v = <double> s
            if out != NULL:
                out[targets[q] * width + i] = <cont_t> (v + 0.0)
            if i % LOOK_EVERY == LOOK_EVERY - 1 and interrupted(intr):
                break
        if inf_row >= 0 or far_row >= 0:
            verdict[0] = C_INFINITE if inf_row >= 0 else C_BEYOND_FLOAT32
            bad_col[0] = q
            bad_row[0] = inf_row if inf_row >= 0 else far_row
            break


cdef void fill_into(void* dest, bint single, Py_ssize_t width, const Column* cols,
                    const Py_ssize_t* targets, Py_ssize_t n_cols, Py_ssize_t n, bint f32,
                    int* verdict, Py_ssize_t* bad_col, Py_ssize_t* bad_row,
                    Interrupt* intr) noexcept nogil:
    """fill_columns into a float32 (single) or float64 table."""
    if single:
        fill_columns(<float*> dest, width, cols, targets, n_cols, n, f32, verdict,
                     bad_col, bad_row, intr)
    else:
        fill_columns(<double*> dest, width, cols, targets, n_cols, n, f32, verdict,
                     bad_col, bad_row, intr)


def fill_continuous(out, rows, columns, bint f32, Py_ssize_t n=-1):
    """Copy each 1-D float64 or float32 array columns[q] into out[rows[q]] as C4.5
    reads a value: -0.0 as 0.0 (one zero whatever the rows' order), rounded to
    float32 in a float32 fit. out is float64, or float32 in a float32 fit (its
    values are float32 numbers: written as such, 4 bytes a value). Returns
    (OK, -1, -1), or the first column's problem: (INFINITE, q, row of its first
    infinite value), else (BEYOND_FLOAT32, q, row) for a finite value that
    float32 cannot hold. out None: the checks alone, of columns of n values (a
    fit that reads its values from X itself)."""
    cdef Py_ssize_t n_cols = len(columns), q
    cdef Column* cols
    cdef Py_ssize_t* targets
    cdef int verdict = C_OK
    cdef Py_ssize_t bad_col = -1, bad_row = -1
    cdef void* dest = NULL
    cdef bint single = False
    cdef Py_ssize_t width = 0, height = 0
    cdef double[:, ::1] out64
    cdef float[:, ::1] out32
    cdef Interrupt intr
    intr.stop = 0
    intr.owner = 0
    intr.wrapping = 0
    if out is not None:
        single = out.dtype == np.float32
        if single and not f32:
            raise ValueError("c45: a float64 fit's values do not fit float32")
        if single:
            out32 = out
            height, width = out32.shape[0], out32.shape[1]
            if height and width:
                dest = &out32[0, 0]
        else:
            out64 = out
            height, width = out64.shape[0], out64.shape[1]
            if height and width:
                dest = &out64[0, 0]
        n = width
    if n_cols == 0:
        return OK, -1, -1
    cols = <Column*> malloc(n_cols * sizeof(Column))
    targets = <Py_ssize_t*> malloc(n_cols * sizeof(Py_ssize_t))
    if cols == NULL or targets == NULL:
        free(cols); free(targets)
        raise MemoryError("c45: out of memory reading X")
    try:
        for q in range(n_cols):
            a = columns[q]
            targets[q] = 0 if out is None else rows[q]
            if out is not None and not 0 <= targets[q] < height or a.shape[0] != n:
                raise ValueError("c45: fill_continuous given a column that does not fit")
            set_column(&cols[q], a, n)
        if n * n_cols >= LOOK_FROM:
            interrupt_init(&intr)
        if n * n_cols >= NOGIL_WORK:
            with nogil:
                fill_into(dest, single, width, cols, targets, n_cols, n, f32,
                          &verdict, &bad_col, &bad_row, &intr)
        else:
            fill_into(dest, single, width, cols, targets, n_cols, n, f32,
                      &verdict, &bad_col, &bad_row, &intr)
    finally:
        free(cols); free(targets)
        interrupt_end(&intr)
    if intr.stop:
        raise_interrupt()
    return verdict, bad_col, bad_row


# Whole-array fills write this many bytes between two looks for signals.
cdef size_t FILL_STEP = TOUCH_STEP


def zeros(shape, dtype):
    """np.zeros(shape, dtype), giving the GIL up only for a large array (numpy's
    gives it up for any array of a few pages); signals (Ctrl-C) are looked for
    every FILL_STEP bytes (the GIL held, by the interpreter's own flag)."""
    arr = np.empty(shape, dtype=dtype)
    cdef cnp.ndarray a = arr
    cdef size_t nbytes = <size_t> a.nbytes, i = 0
    cdef char* data = <char*> cnp.PyArray_DATA(a)
    cdef Interrupt intr
    memset(&intr, 0, sizeof(Interrupt))
    if nbytes >= 8 * <size_t> NOGIL_WORK:
        try:
            interrupt_init(&intr)
            with nogil:
                while i < nbytes and not interrupted(&intr):
                    memset(data + i, 0, min(FILL_STEP, nbytes - i))
                    i += FILL_STEP
        finally:
            interrupt_end(&intr)
        if intr.stop:
            raise_interrupt()
    else:
        while i < nbytes:
            memset(data + i, 0, min(FILL_STEP, nbytes - i))
            i += FILL_STEP
            if i < nbytes:
                PyErr_CheckSignals()
    return arr


def unit_weights(Py_ssize_t n):
    """n weights of 1.0 in 8 bytes: a read-only float64 array whose stride is 0
    (an unweighted fit's; an array of ones would hold 8 bytes a case through
    the whole fit). Whatever reads case weights here takes any stride
    (weight_step); the compiled core reads it as Dataset.init_weight_step 0."""
    return np.broadcast_to(np.float64(1.0), (n,))


def repeats_one_number(a):
    """Whether a is a 1-D float64 array of stride 0 (unit_weights' kind)."""
    return (isinstance(a, np.ndarray) and a.ndim == 1 and a.dtype == np.float64
            and a.strides[0] == 0)


def as_case_weights(w):
    """Case weights as the compiled passes read them: a C-contiguous float64
    array, or unit_weights' one number as it is (copied, it would be the array
    of ones it stands for)."""
    return w if repeats_one_number(w) else np.ascontiguousarray(w, np.float64)


cdef Py_ssize_t weight_step(const double[:] w) except -1:
    """w's step in elements: 1 (contiguous), 0 (unit_weights) or another."""
    if w.strides[0] % <Py_ssize_t> sizeof(double) or w.strides[0] < 0:
        raise ValueError("c45: case weights must be a float64 array of aligned elements")
    return w.strides[0] // <Py_ssize_t> sizeof(double)


def weight_facts(const double[::1] w):
    """(copy, first_bad, first_negative, any_positive, total, ones): w copied,
    the row of its first weight that is not finite (-1 for none), of its first
    negative one (-1), whether one is above 0, numpy's sum of w (its pairwise
    summation) and whether every weight above 0 is 1; in one pass."""
    cdef Py_ssize_t n = w.shape[0]
    copy = np.empty(n, dtype=np.float64)
    cdef double[::1] c = copy
    cdef Py_ssize_t facts[2]
    cdef bint flags[2]
    cdef Interrupt intr
    memset(&intr, 0, sizeof(Interrupt))
    facts[0] = facts[1] = -1
    flags[0] = False
    flags[1] = True
    try:
        if n >= LOOK_FROM:
            interrupt_init(&intr)
        if n >= NOGIL_WORK:
            with nogil:
                scan_weights(&w[0], &c[0], n, facts, flags, &intr)
        elif n:
            scan_weights(&w[0], &c[0], n, facts, flags, &intr)
    finally:
        interrupt_end(&intr)
    if intr.stop:
        raise_interrupt()
    total = pairwise(&c[0], n) if n else 0.0
    return copy, facts[0], facts[1], bool(flags[0]), total, bool(flags[1])


cdef void scan_weights(const double* w, double* copy, Py_ssize_t n, Py_ssize_t* facts,
                       bint* flags, Interrupt* intr) noexcept nogil:
    cdef Py_ssize_t i
    cdef double v
    for i in range(n):
        v = w[i]
        copy[i] = v
        if not isfinite(v):
            if facts[0] < 0:
                facts[0] = i
        elif v < 0:
            if facts[1] < 0:
                facts[1] = i
        elif v > 0:
            flags[0] = True
            if v != 1.0:
                flags[1] = False
        if i % LOOK_EVERY == LOOK_EVERY - 1 and interrupted(intr):
            return


def count_positive(const double[:] w):
    """How many of w are above 0 (NaN is not)."""
    cdef Py_ssize_t n = w.shape[0], count = 0, step = weight_step(w)
    if n >= NOGIL_WORK:
        with nogil:
            count = positive(&w[0], step, n)
    elif n:
        count = positive(&w[0], step, n)
    return count


cdef Py_ssize_t positive(const double* w, Py_ssize_t step, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i, count = 0
    for i in range(n):
        count += w[i * step] > 0
    return count


def transposed(const double[:, ::1] a):
    """np.ascontiguousarray(a.T), giving the GIL up only for a large array."""
    cdef Py_ssize_t n = a.shape[0], m = a.shape[1]
    out = np.empty((m, n), dtype=np.float64)
    cdef double[:, ::1] o = out
    if n * m >= NOGIL_WORK:
        with nogil:
            transpose_into(a, o)
    elif n * m:
        transpose_into(a, o)
    return out


cdef void transpose_into(const double[:, ::1] a, double[:, ::1] o) noexcept nogil:
    cdef Py_ssize_t i, j
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            o[j, i] = a[i, j]


def one_hot(const int64_t[::1] column, Py_ssize_t k):
    """An (n, k) float64 array of zeros with a 1 in each row's column (each
    checked in [0, k)), giving the GIL up only for a large one."""
    cdef Py_ssize_t n = column.shape[0], i
    for i in range(n):
        if not 0 <= column[i] < k:
            raise ValueError(f"c45: column {column[i]} of row {i} is not in [0, {k})")
    out = zeros((n, k), np.float64)
    cdef double[:, ::1] o = out
    for i in range(n):
        o[i, column[i]] = 1.0
    return out


# numpy gives the GIL up in a ufunc over more than this many items.
UFUNC_HOLDS = 500


def elementwise(ufunc, a):
    """ufunc(a) of a C-contiguous float64 array (an elementwise one: log, log2):
    in slices of UFUNC_HOLDS items, keeping the GIL, below NOGIL_WORK items (a
    call a slice of NOGIL_WORK, giving it up, from there, signals looked for
    between them: one call over 80 million class weights was 0.3 s deaf). The
    same numbers in any slicing."""
    flat = a.reshape(-1)
    out = fresh_empty(a.shape, a.dtype)        # (its pages: c45/_fresh.pyx)
    dst = out.reshape(-1)
    step = NOGIL_WORK if flat.shape[0] >= NOGIL_WORK else UFUNC_HOLDS
    for start in range(0, flat.shape[0], step):
        ufunc(flat[start:start + step], out=dst[start:start + step])
        if step == NOGIL_WORK:
            PyErr_CheckSignals()
    return out


def take_labels(labels, index):
    """labels.take(index) for a 1-D array of labels and an array of indices into
    it (checked), copied item by item here for labels of a fixed-size type
    (numbers, booleans, strings): numpy's take gives the GIL up."""
    if not (isinstance(labels, np.ndarray) and labels.ndim == 1):
        return labels.take(index)
    return take_rows(labels, index)


def take_rows(a, index):
    """a[index] for an ndarray a (C-contiguous, of a fixed-size type) and an array
    of row indices (checked, none negative), copied row by row here: numpy's
    fancy indexing gives the GIL up. unit_weights' kind (one number repeated):
    the same of len(index). Other arrays: a[index] itself."""
    cdef bint repeated = repeats_one_number(a)
    if not repeated and (type(a) is not np.ndarray or a.ndim < 1 or a.dtype.hasobject
                         or not a.flags.c_contiguous):
        return a[index]
    cdef cnp.ndarray lab = a
    cdef const cnp.npy_intp[::1] idx = intp_index(index)
    cdef Py_ssize_t n = idx.shape[0], k = lab.shape[0], i
    cdef Py_ssize_t size = lab.itemsize * (lab.size // k if k else 0)
    for i in range(n):
        if not 0 <= idx[i] < k:
            raise IndexError(f"c45: row {idx[i]} out of range for {k} rows")
    if repeated:
        return np.broadcast_to(a[:1], (n,))
    out = np.empty((n,) + a.shape[1:], dtype=lab.dtype)
    cdef char* dst = <char*> cnp.PyArray_DATA(<cnp.ndarray> out)
    cdef const char* src = <const char*> cnp.PyArray_DATA(lab)
    cdef Py_ssize_t i0 = 0
    cdef Interrupt intr
    memset(&intr, 0, sizeof(Interrupt))
    if n and n * size >= 8 * NOGIL_WORK:
        try:
            interrupt_init(&intr)
            with nogil:     # in steps that look for signals (out's pages are fresh)
                while i0 < n and not interrupted(&intr):
                    gather(dst + i0 * size, src, &idx[i0], min(LOOK_EVERY, n - i0), size)
                    i0 += LOOK_EVERY
        finally:
            interrupt_end(&intr)
        if intr.stop:
            raise_interrupt()
    elif n:
        gather(dst, src, &idx[0], n, size)
    return out


def take_each_row(const double[:, ::1] a, const uint32_t[:, ::1] index):
    """a[c][index[c]] for each row c (the indices checked): float64's values back
    in row order from its rank tables. Copied here, the GIL kept below
    NOGIL_WORK values (numpy's take and copies give it up, one or two a row);
    a longer copy looks for signals every LOOK_EVERY values."""
    cdef Py_ssize_t m = index.shape[0], n = index.shape[1], k = a.shape[1], c, i
    if a.shape[0] != m:
        raise ValueError("c45: take_each_row given arrays of other row counts")
    for c in range(m):
        for i in range(n):
            if index[c, i] >= k:
                raise IndexError(f"c45: index {index[c, i]} out of range for {k} values")
    out = np.empty((m, n), dtype=np.float64)
    cdef double[:, ::1] o = out
    cdef Interrupt intr
    memset(&intr, 0, sizeof(Interrupt))
    if m * n >= NOGIL_WORK:
        try:
            interrupt_init(&intr)
            with nogil:
                for c in range(m):
                    for i in range(n):
                        o[c, i] = a[c, index[c, i]]
                        if i % LOOK_EVERY == LOOK_EVERY - 1 and interrupted(&intr):
                            break
                    if intr.stop:
                        break
        finally:
            interrupt_end(&intr)
        if intr.stop:
            raise_interrupt()
    else:
        for c in range(m):
            for i in range(n):
                o[c, i] = a[c, index[c, i]]
    return out


def take_columns(a, rows, bint as_double=False):
    """a[:, rows] (C-contiguous) for a 2-D ndarray a of a fixed-size type and
    row indices (checked, none negative), copied here: numpy's take gives the
    GIL up (a windowing trial's cycles made some 340 releases). Signals are
    looked for every LOOK_EVERY values of a long copy. as_double: a float32 a's
    values taken as float64 (widened, exactly: for the walkers, which read
    float64)."""
    if (type(a) is not np.ndarray or a.ndim != 2 or a.dtype.hasobject
            or not a.flags.c_contiguous):
        out = np.ascontiguousarray(np.asarray(a)[:, rows])
        return out.astype(np.float64) if as_double and out.dtype == np.float32 else out
    cdef cnp.ndarray src = a
    cdef const cnp.npy_intp[::1] idx = intp_index(rows)
    cdef Py_ssize_t m = src.shape[0], width = src.shape[1], n = idx.shape[0], c, i
    cdef Py_ssize_t size = src.itemsize
    cdef bint widened = as_double and src.dtype == np.float32
    cdef Py_ssize_t osize = 8 if widened else size
    for i in range(n):
        if not 0 <= idx[i] < width:
            raise IndexError(f"c45: column {idx[i]} out of range for {width} columns")
    out = np.empty((m, n), dtype=np.float64 if widened else src.dtype)
    cdef char* dst = <char*> cnp.PyArray_DATA(<cnp.ndarray> out)
    cdef const char* data = <const char*> cnp.PyArray_DATA(src)
    cdef Interrupt intr
    memset(&intr, 0, sizeof(Interrupt))
    if n and m * n * size >= 8 * NOGIL_WORK:
        try:
            interrupt_init(&intr)
            with nogil:
                for c in range(m):
                    i = 0
                    while i < n and not interrupted(&intr):
                        gather(dst + (c * n + i) * osize, data + c * width * size, &idx[i],
                               min(<Py_ssize_t> LOOK_EVERY, n - i), size, widened)
                        i += LOOK_EVERY
        finally:
            interrupt_end(&intr)
        if intr.stop:
            raise_interrupt()
    elif n:
        for c in range(m):
            gather(dst + c * n * osize, data + c * width * size, &idx[0], n, size, widened)
    return out


def move_misclassified(int32_t[::1] items, predicted, y, Py_ssize_t window):
    """Windowing's step (Release 8's): the cases of items[window:] whose class
    (y[item]) is not the one predicted for them (predicted: one class a case
    of items[window:], in that order) move, in their order, to just after the
    window, swapped with the cases there; their count. One compiled pass
    (numpy's comparison, flatnonzero and a Python loop gave the GIL up four
    times a cycle; a cast of int32 labels by numpy once)."""
    cdef const cnp.npy_intp[::1] got = intp_index(predicted)
    cdef const cnp.npy_intp[::1] want = intp_index(y)
    cdef Py_ssize_t n = items.shape[0], i, moved = window
    cdef int32_t item
    if not 0 <= window <= n or got.shape[0] != n - window:
        raise ValueError("c45: move_misclassified given predictions of another length")
    for i in range(window, n):
        if not 0 <= items[i] < want.shape[0]:
            raise IndexError(f"c45: case {items[i]} out of range for {want.shape[0]} cases")
        # (position i is untouched when reached: swaps touch positions before it)
        if got[i - window] != want[items[i]]:
            item = items[moved]
            items[moved] = items[i]
            items[i] = item
            moved += 1
    return moved - window


def shuffle_cases(int32_t[::1] items, rng):
    """Release 8's shuffle of windowing's cases, in place: the case at position p
    swaps with one drawn from positions p .. end (a draw for each position, the
    last one too), each draw rng.uniform()'s (rng a GlibcRandom, whose ring of
    34 words this continues and leaves where the draws leave it). Compiled: in
    Python it was most of a trial's own time, and Python's time is what a busy
    Python thread beside it doubles."""
    cdef uint32_t ring[34]
    cdef Py_ssize_t n = items.shape[0], k
    cdef int at = rng._i
    cdef Interrupt intr
    if len(rng._r) != 34 or not 0 <= at < 34:
        raise ValueError("c45: shuffle_cases given a generator that is not glibc's")
    for k in range(34):
        ring[k] = <uint32_t> (rng._r[k] & 0xFFFFFFFF)
    look_for_signals(&intr, n)
    try:
        if n >= NOGIL_WORK:
            with nogil:
                at = glibc_shuffle(&items[0], n, ring, at, &intr)
        elif n:
            at = glibc_shuffle(&items[0], n, ring, at, &intr)
    finally:
        interrupt_end(&intr)
    if intr.stop:
        raise_interrupt()           # (rng unchanged: the fit is abandoned)
    rng._r = [int(ring[k]) for k in range(34)]
    rng._i = at


cdef int glibc_shuffle(int32_t* items, Py_ssize_t n, uint32_t* ring, int at,
                       Interrupt* intr) noexcept nogil:
    """shuffle_cases' pass; returns the ring's new oldest position (at: its
    oldest word's, as GlibcRandom._next keeps it)."""
    cdef Py_ssize_t p, q
    cdef uint32_t word
    cdef int32_t item
    for p in range(n):
        word = ring[(at + 3) % 34] + ring[(at + 31) % 34]      # (mod 2**32)
        ring[at] = word
        at = (at + 1) % 34
        q = p + <Py_ssize_t> ((n - p) * (<double> ((word >> 1) & 0x7FFFFFFF) / 2147483648.0))
        item = items[p]
        items[p] = items[q]
        items[q] = item
        if p % LOOK_EVERY == LOOK_EVERY - 1 and interrupted(intr):
            break
    return at


def pull_targets(int32_t[::1] items, y, const int64_t[::1] target):
    """Windowing's first window, in place: target[c] cases of each class c
    brought to the front of items, class by class, each class's cases in their
    order in items (y[case] its class). Compiled as shuffle_cases is."""
    cdef const cnp.npy_intp[::1] cls = intp_index(y)
    cdef Py_ssize_t n = items.shape[0], front = 0, i, c, count
    cdef int32_t item
    for c in range(target.shape[0]):
        count = target[c]
        i = front
        while count > 0:
            if i >= n:
                raise ValueError(f"c45: pull_targets: fewer than {target[c]} cases of class {c}")
            if not 0 <= items[i] < cls.shape[0]:
                raise IndexError(f"c45: case {items[i]} out of range for {cls.shape[0]} cases")
            if cls[items[i]] == c:
                item = items[front]
                items[front] = items[i]
                items[i] = item
                front += 1
                count -= 1
            i += 1


cdef intp_index(index):
    """index as a contiguous intp array; an int32 array (a tree's nodes) widened
    here, the GIL kept (numpy's cast gives it up)."""
    if not (type(index) is np.ndarray and index.dtype == np.int32 and index.ndim == 1):
        return np.ascontiguousarray(index, dtype=np.intp)
    cdef const int32_t[:] narrow = index
    out = np.empty(narrow.shape[0], dtype=np.intp)
    cdef cnp.npy_intp[::1] wide = out
    cdef Py_ssize_t i
    for i in range(narrow.shape[0]):
        wide[i] = narrow[i]
    return out


cdef void gather(char* dst, const char* src, const cnp.npy_intp* idx, Py_ssize_t n,
                 Py_ssize_t size, bint widened=False) noexcept nogil:
    """dst[i] = src[idx[i]] for n items of size bytes (widened: float32 items
    into float64 ones)."""
    cdef Py_ssize_t i
    if widened:
        for i in range(n):
            (<double*> dst)[i] = (<const float*> src)[idx[i]]
    elif size == 8:
        for i in range(n):
            (<int64_t*> dst)[i] = (<const int64_t*> src)[idx[i]]
    else:
        for i in range(n):
            memcpy(dst + i * size, src + idx[i] * size, size)


def add_distinct(values, Py_ssize_t start, Py_ssize_t stop, set present, is_missing):
    """Add to present the known values of values[start:stop] (an object array),
    is_missing(v) deciding which are not (strings never are): a typed loop that
    keeps the GIL, where pandas' unique gave it up some five times a call."""
    cdef object[:] v = values
    cdef Py_ssize_t i
    cdef object x
    for i in range(start, min(stop, v.shape[0])):
        x = v[i]
        if type(x) is str or not is_missing(x):
            present.add(x)


def code_values(values, Py_ssize_t start, Py_ssize_t stop, dict lookup, is_missing,
                int64_t[::1] out):
    """out[i] = lookup[values[i]] (a category's code) for i in [start, stop), 0 for
    a value that is missing (is_missing) or not a category: what pandas'
    factorize and a lookup of its distinct values gave, without giving the GIL
    up some five times a call."""
    cdef object[:] v = values
    cdef Py_ssize_t i
    cdef object x, code
    for i in range(start, min(stop, v.shape[0], out.shape[0])):
        x = v[i]
        if type(x) is not str and is_missing(x):
            out[i] = 0
            continue
        code = lookup.get(x)
        out[i] = 0 if code is None else <int64_t> code


def pickled_copy(a):
    """A C-contiguous copy of a (an ndarray) to pickle, with numpy's own dtype
    object: an unpickled array's dtype is an object of its own, which numpy's
    copies keep, and a pickle's bytes must not depend on which (a round trip
    pickles to the same bytes). Copied here: numpy's copy gives the GIL up (a
    tree pickles some thirty arrays)."""
    if a.dtype.hasobject:
        return np.array(a)
    cdef cnp.ndarray src = np.ascontiguousarray(a)
    out = np.empty(a.shape, dtype=np.dtype(a.dtype.str))
    copy_bytes(<char*> cnp.PyArray_DATA(<cnp.ndarray> out),
               <const char*> cnp.PyArray_DATA(src), <size_t> src.nbytes)
    return out


def put(dst, Py_ssize_t at, src):
    """dst[at:at + len(src)] = src for a 1-D float64 or float32 dst and src
    (float64 into float32: rounded as numpy's cast rounds; float32 into float64:
    widened, exactly), copied here: numpy's copies and casts give the GIL up. A
    long copy gives it up once and looks for signals."""
    cdef Py_ssize_t n, i = 0, step
    cdef double[::1] d64
    cdef float[::1] d32
    cdef const double[::1] s64
    cdef const float[::1] s32
    cdef bint f32 = dst.dtype == np.float32, from32 = src.dtype == np.float32
    if f32:
        d32 = dst
    else:
        d64 = dst
    if from32:
        s32 = src
        n = s32.shape[0]
    else:
        s64 = src
        n = s64.shape[0]
    if not 0 <= at <= (d32.shape[0] if f32 else d64.shape[0]) - n:
        raise ValueError("c45: put given a range out of its array")
    if n == 0:
        return
    if f32 == from32:
        if f32:
            copy_bytes(<char*> &d32[at], <const char*> &s32[0], n * sizeof(float))
        else:
            copy_bytes(<char*> &d64[at], <const char*> &s64[0], n * sizeof(double))
        return
    cdef Interrupt intr
    memset(&intr, 0, sizeof(Interrupt))
    if n >= NOGIL_WORK:
        try:
            interrupt_init(&intr)
            with nogil:
                while i < n and not interrupted(&intr):
                    step = min(<Py_ssize_t> LOOK_EVERY, n - i)
                    if f32:
                        narrow(&d32[at + i], &s64[i], step)
                    else:
                        widen(&d64[at + i], &s32[i], step)
                    i += step
        finally:
            interrupt_end(&intr)
        if intr.stop:
            raise_interrupt()
    elif f32:
        narrow(&d32[at], &s64[0], n)
    else:
        widen(&d64[at], &s32[0], n)


cdef void widen(double* dst, const float* src, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        dst[i] = src[i]


cdef void narrow(float* dst, const double* src, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        dst[i] = <float> src[i]


cdef int copy_bytes(char* dst, const char* src, size_t nbytes) except -1:
    """memcpy (pickled_copy's), the GIL kept below NOGIL_WORK values' bytes; a
    longer copy gives it up and looks for signals as it goes."""
    cdef bint stop = False
    cdef Interrupt intr
    memset(&intr, 0, sizeof(Interrupt))
    if nbytes >= 8 * <size_t> NOGIL_WORK:
        try:
            interrupt_init(&intr)
            with nogil:
                stop = copy_polled(dst, src, nbytes, &intr)
        finally:
            interrupt_end(&intr)
        if stop:
            raise_interrupt()
    elif nbytes:
        memcpy(dst, src, nbytes)
    return 0


def equal_items(a, b):
    """a == b item by item as a uint8 array (1 where equal), for two 1-D arrays
    of one fixed-size dtype whose items are equal when their bytes are
    (integers, booleans, strings); None for others."""
    cdef cnp.ndarray x = np.ascontiguousarray(a), y = np.ascontiguousarray(b)
    if (x.ndim != 1 or y.ndim != 1 or x.dtype != y.dtype or x.dtype.kind not in "biuU"
            or x.shape[0] != y.shape[0]):
        return None
    cdef Py_ssize_t n = x.shape[0], size = x.itemsize
    out = np.empty(n, dtype=np.uint8)
    cdef unsigned char* o = <unsigned char*> cnp.PyArray_DATA(<cnp.ndarray> out)
    cdef const char* p = <const char*> cnp.PyArray_DATA(x)
    cdef const char* q = <const char*> cnp.PyArray_DATA(y)
    if n and n * size >= 8 * NOGIL_WORK:
        with nogil:
            compare_items(o, p, q, n, size)
    elif n:
        compare_items(o, p, q, n, size)
    return out


cdef void compare_items(unsigned char* out, const char* p, const char* q, Py_ssize_t n,
                        Py_ssize_t size) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        out[i] = memcmp(p + i * size, q + i * size, size) == 0


def column_spans(const cont_t[:, ::1] values):
    """(lo, hi): each row's smallest and largest value, unknown (NaN) values
    left out; NaN where a row holds none."""
    cdef Py_ssize_t m = values.shape[0], n = values.shape[1]
    lo = np.full(m, np.nan)
    hi = np.full(m, np.nan)
    cdef double[::1] lv = lo, hv = hi
    if m * n >= NOGIL_WORK:
        with nogil:
            spans(&values[0, 0], m, n, &lv[0], &hv[0])
    elif m and n:
        spans(&values[0, 0], m, n, &lv[0], &hv[0])
    return lo, hi


cdef void spans(const cont_t* values, Py_ssize_t m, Py_ssize_t n, double* lo,
                double* hi) noexcept nogil:
    cdef Py_ssize_t j, i
    cdef double v, a, b
    cdef bint seen
    for j in range(m):
        seen = False
        a = 0.0
        b = 0.0
        for i in range(n):
            v = values[j * n + i]
            if isnan(v):
                continue
            if not seen:
                a = v
                b = v
                seen = True
            elif v < a:
                a = v
            elif v > b:
                b = v
        if seen:
            lo[j] = a
            hi[j] = b


# Labels span at most this many integers for integer_label_codes' table.
MAX_LABEL_SPAN = 1 << 20


# The label types integer_label_codes reads (each as an int64).
cdef enum:
    L_F64, L_F32, L_I64, L_I32, L_I16, L_I8, L_U32, L_U16, L_U8, L_BOOL
_LABEL_TYPES = {np.dtype(np.float64): L_F64, np.dtype(np.float32): L_F32,
                np.dtype(np.int64): L_I64,
                np.dtype(np.int32): L_I32, np.dtype(np.int16): L_I16,
                np.dtype(np.int8): L_I8, np.dtype(np.uint32): L_U32,
                np.dtype(np.uint16): L_U16, np.dtype(np.uint8): L_U8,
                np.dtype(np.bool_): L_BOOL}


cdef inline int64_t label_at(const char* p, int t) noexcept nogil:
    if t == L_I64:
        return (<const int64_t*> p)[0]
    if t == L_I32:
        return (<const int32_t*> p)[0]
    if t == L_I16:
        return (<const short*> p)[0]
    if t == L_I8:
        return (<const signed char*> p)[0]
    if t == L_U32:
        return (<const unsigned int*> p)[0]
    if t == L_U16:
        return (<const unsigned short*> p)[0]
    if t == L_U8 or t == L_BOOL:
        return (<const unsigned char*> p)[0]
    if t == L_F32:
        return <int64_t> (<const float*> p)[0]
    return <int64_t> (<const double*> p)[0]


cdef int look_for_signals(Interrupt* intr, Py_ssize_t n) except -1:
    """intr cleared, and set up to look for signals when a pass of n values is
    long enough to need it (setting up costs more than a short pass)."""
    intr.stop = 0
    intr.owner = 0
    intr.wrapping = 0
    if n >= LOOK_FROM:
        interrupt_init(intr)
    return 0


cdef bint label_span(const char* data, Py_ssize_t stride, int t, Py_ssize_t n,
                     int64_t* lo, int64_t* hi, Interrupt* intr) noexcept nogil:
    """The labels' smallest and largest; False for a label that is no whole
    number within int64's exact range (NaN is not)."""
    cdef Py_ssize_t i
    cdef double v
    cdef int64_t k
    for i in range(n):
        if t == L_F64 or t == L_F32:
            v = (<const double*> (data + i * stride))[0] if t == L_F64 \
                else (<const float*> (data + i * stride))[0]
            if not (v == floor(v) and -9.0e15 < v < 9.0e15):
                return False
            k = <int64_t> v
        else:
            k = label_at(data + i * stride, t)
        if i == 0 or k < lo[0]:
            lo[0] = k
        if i == 0 or k > hi[0]:
            hi[0] = k
        if i % LOOK_EVERY == LOOK_EVERY - 1 and interrupted(intr):
            break
    return True


def integer_label_codes(y):
    """(classes, codes) of a 1-D array of whole-number labels (any integer or bool
    type up to int64, float64 or float32), as np.unique(y, return_inverse=True) gives
    them, in one pass over a table of the labels' span, looking for Ctrl-C as it
    goes (np.unique's sort cannot be interrupted); or None where it does not apply
    (another type, a NaN, an infinite or fractional float, a span over
    MAX_LABEL_SPAN): the caller checks and encodes those cases itself."""
    cdef Py_ssize_t n = y.shape[0]
    cdef int64_t lo = 0, hi = 0, span
    cdef bint usable = True
    cdef int32_t* table
    t_obj = _LABEL_TYPES.get(y.dtype)
    if n == 0 or t_obj is None:
        return None
    cdef int t = t_obj
    cdef cnp.ndarray arr = y
    cdef const char* data = <const char*> cnp.PyArray_DATA(arr)
    cdef Py_ssize_t stride = cnp.PyArray_STRIDES(arr)[0]
    cdef Interrupt intr
    look_for_signals(&intr, n)
    try:
        if n >= NOGIL_WORK:
            with nogil:
                usable = label_span(data, stride, t, n, &lo, &hi, &intr)
        else:
            usable = label_span(data, stride, t, n, &lo, &hi, &intr)
        if intr.stop:
            raise_interrupt()
        if not usable or <uint64_t> (hi - lo) >= MAX_LABEL_SPAN:
            return None
        span = hi - lo + 1
        table = <int32_t*> calloc(span, sizeof(int32_t))
        if table == NULL:
            raise MemoryError("c45: out of memory encoding y")
        try:
            return label_codes(data, stride, t, n, lo, span, table, y.dtype, &intr)
        finally:
            free(table)
    finally:
        interrupt_end(&intr)


cdef int32_t code_labels(const char* data, Py_ssize_t stride, int t, Py_ssize_t n,
                         int64_t lo, int64_t span, int32_t* table, int32_t* codes,
                         Interrupt* intr) noexcept nogil:
    """Each label's code (its place among the distinct labels, ascending: np.unique's
    order) into codes; the number of classes."""
    cdef Py_ssize_t i
    cdef int64_t k
    cdef int32_t n_classes = 0
    for i in range(n):
        k = label_at(data + i * stride, t) - lo
        table[k] = 1
        if i % LOOK_EVERY == LOOK_EVERY - 1 and interrupted(intr):
            return 0
    for k in range(span):
        if table[k]:
            table[k] = n_classes
            n_classes += 1
        else:
            table[k] = -1
    for i in range(n):
        k = label_at(data + i * stride, t) - lo
        codes[i] = table[k]
        if i % LOOK_EVERY == LOOK_EVERY - 1 and interrupted(intr):
            break
    return n_classes


cdef object label_codes(const char* data, Py_ssize_t stride, int t, Py_ssize_t n,
                        int64_t lo, int64_t span, int32_t* table, dtype, Interrupt* intr):
    """integer_label_codes' second and third passes, with the labels' span."""
    cdef Py_ssize_t i
    cdef int64_t k
    codes = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] cv = codes
    cdef int32_t n_classes = 0
    if n + span >= NOGIL_WORK:
        with nogil:
            n_classes = code_labels(data, stride, t, n, lo, span, table, &cv[0], intr)
    else:
        n_classes = code_labels(data, stride, t, n, lo, span, table, &cv[0], intr)
    if intr.stop:
        raise_interrupt()
    values = np.empty(n_classes, dtype=dtype)
    j = 0
    for k in range(span):
        if table[k] >= 0:
            values[j] = lo + k
            j += 1
    return values, codes


cdef void add_in_order(const double* w, Py_ssize_t step, Py_ssize_t n, bint f32,
                       double* total, float* total32, Interrupt* intr) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        if f32:
            total32[0] = total32[0] + <float> w[i * step]
        else:
            total[0] = total[0] + w[i * step]
        if i % LOOK_EVERY == LOOK_EVERY - 1 and interrupted(intr):
            break


def sequential_total(const double[:] w, bint f32):
    """w's sum added in row order, in float32 after rounding each weight to
    float32 with f32 (np.cumsum(w.astype(np.float32))[-1], bit for bit: C4.5's
    total), else in float64 (np.cumsum(w)[-1]); looking for Ctrl-C as it goes."""
    cdef Py_ssize_t n = w.shape[0], step = weight_step(w)
    cdef double total = 0.0
    cdef float total32 = 0.0
    cdef Interrupt intr
    look_for_signals(&intr, n)
    try:
        if n >= NOGIL_WORK:
            with nogil:
                add_in_order(&w[0], step, n, f32, &total, &total32, &intr)
        elif n:
            add_in_order(&w[0], step, n, f32, &total, &total32, &intr)
    finally:
        interrupt_end(&intr)
    if intr.stop:
        raise_interrupt()
    return float(total32) if f32 else total


DIGEST_PREFIX = "c45d1:"        # what tells this digest from older models' blake2b
# A fit's digest since its sorted values were let alone: each row of them
# enters as its own lanes (sorted_row_digests), not its bytes.
DIGEST_ROWS_PREFIX = "c45d2:"


cdef enum:
    WIDEN_CHUNK = 512           # float32 values widened at a time for the digest


cdef void digest_words(const unsigned char** data, const Py_ssize_t* sizes,
                       const Py_ssize_t* steps, const bint* single, Py_ssize_t first,
                       Py_ssize_t m, uint64_t* lane_a, uint64_t* lane_b,
                       Interrupt* intr) noexcept nogil:
    cdef Py_ssize_t q, i, step
    cdef double wide[WIDEN_CHUNK]
    for q in range(first, m):
        if single[q]:
            # a float32 array enters as the float64 array of its values (sizes[q]
            # counts those bytes): the words a float64 table of them gives
            i = 0
            while i < sizes[q] // 8 and not intr.stop:
                step = min(<Py_ssize_t> WIDEN_CHUNK, sizes[q] // 8 - i)
                widen(wide, <const float*> data[q] + i, step)
                feed_words(<const unsigned char*> wide, step, lane_a, lane_b, intr)
                if i % (1 << 16) < WIDEN_CHUNK:
                    interrupted(intr)       # (feed_words looks only in longer runs)
                i += step
        else:
            feed_words(data[q], sizes[q] // 8, lane_a, lane_b, intr, steps[q])
        if intr.stop:
            break
        feed_end(data[q], sizes[q], q, lane_a, lane_b)


def digest(arrays, prefix=DIGEST_PREFIX, first_lanes=None, first_shape=None):
    """A 128-bit digest (hex, after prefix) of the arrays' shapes and bytes,
    each array C-contiguous, in one nogil pass; a float32 array's as the
    float64 array of its values (a float32 fit's values, held as float32
    numbers, digest as the float64 table they were once held in). first_lanes (arrays[0] None):
    the lanes after arrays[0]'s words, of first_shape, fed elsewhere (float32
    reading X itself holds no values: c45/_ranks.pyx's order_sources feeds them
    as it reads them)."""
    cdef Py_ssize_t m = len(arrays), q, nbytes, first = 0
    cdef const unsigned char** data = <const unsigned char**> malloc(max(m, 1) * sizeof(void*))
    cdef Py_ssize_t* sizes = <Py_ssize_t*> malloc(max(m, 1) * sizeof(Py_ssize_t))
    cdef Py_ssize_t* steps = <Py_ssize_t*> malloc(max(m, 1) * sizeof(Py_ssize_t))
    cdef bint* single = <bint*> calloc(max(m, 1), sizeof(bint))
    cdef uint64_t a = P1, b = P4
    cdef const unsigned char[::1] view
    cdef const double[:] repeated
    if data == NULL or sizes == NULL or steps == NULL or single == NULL:
        free(data); free(sizes); free(steps); free(single)
        raise MemoryError("c45: out of memory")
    shapes = []
    keep = []
    cdef Interrupt intr
    intr.stop = 0
    intr.owner = 0
    intr.wrapping = 0
    try:
        for q in range(m):
            if q == 0 and first_lanes is not None:
                if arrays[0] is not None:
                    raise ValueError("c45: digest's first_lanes stand for arrays[0]")
                shapes.append(str(tuple(int(v) for v in first_shape)))
                sizes[0] = 8 * int(np.prod(first_shape))
                data[0] = NULL
                a, b = first_lanes[0], first_lanes[1]
                feed_end(NULL, sizes[0], 0, &a, &b)
                first = 1
                continue
            arr = arrays[q]
            steps[q] = 8
            if repeats_one_number(arr):
                # one float64 repeated (unit_weights): the bytes of its copy,
                # without the copy
                repeated = arr
                keep.append(arr)
                shapes.append(str(arr.shape))
                sizes[q] = 8 * arr.shape[0]
                data[q] = <const unsigned char*> &repeated[0] if sizes[q] else NULL
                steps[q] = 0
                continue
            arr = np.ascontiguousarray(arr)
            keep.append(arr)
            shapes.append(str(arr.shape))
            view = arr.reshape(-1).view(np.uint8)
            single[q] = arr.dtype == np.float32
            sizes[q] = view.shape[0] * (2 if single[q] else 1)
            data[q] = &view[0] if view.shape[0] else NULL
        shape_text = "|".join(shapes).encode()
        nbytes = 0
        for q in range(first, m):
            nbytes += sizes[q]
        if nbytes >= 8 * LOOK_FROM:
            interrupt_init(&intr)
        if nbytes >= 8 * NOGIL_WORK:
            with nogil:
                digest_words(data, sizes, steps, single, first, m, &a, &b, &intr)
        else:
            digest_words(data, sizes, steps, single, first, m, &a, &b, &intr)
    finally:
        free(data); free(sizes); free(steps); free(single)
        interrupt_end(&intr)
    if intr.stop:
        raise_interrupt()
    for ch in shape_text:
        a = rotl(a + (<uint64_t> ch) * P2, 31) * P1
        b = rotl(b ^ ((<uint64_t> ch) * P3), 27) * P4 + P1
    return f"{prefix}{mix(a ^ rotl(b, 17)):016x}{mix(b + a):016x}"


def sorted_row_digests(const double[:, ::1] sorted_value):
    """Per row of float64's sorted values, its own two lanes of the digest
    (sorted_row_lanes): an (m, 2) uint64 array, what c45/_ranks.pyx's
    rank_sources gives of the columns it sorts without keeping them."""
    cdef Py_ssize_t m = sorted_value.shape[0], n = sorted_value.shape[1], r
    out = np.zeros((m, 2), np.uint64)
    cdef uint64_t[:, ::1] o = out
    cdef Interrupt intr
    if m == 0:
        return out
    look_for_signals(&intr, m * n)
    try:
        if m * n < NOGIL_WORK:
            for r in range(m):
                sorted_row_lanes(&sorted_value[r, 0], n, &o[r, 0], &intr)
        else:
            with nogil:
                for r in range(m):
                    sorted_row_lanes(&sorted_value[r, 0], n, &o[r, 0], &intr)
                    if intr.stop:
                        break
    finally:
        interrupt_end(&intr)
    if intr.stop:
        raise_interrupt()
    return out


cdef Py_ssize_t distinct_front(double[::1] x, Py_ssize_t n, Interrupt* intr) noexcept nogil:
    cdef Py_ssize_t i, j = 0
    for i in range(n):
        if j == 0 or x[i] != x[j - 1]:
            x[j] = x[i]
            j += 1
        if i % LOOK_EVERY == LOOK_EVERY - 1 and interrupted(intr):
            break
    return j


def distinct_sorted(double[::1] x, Py_ssize_t n):
    """Move the distinct values of sorted x[:n] to its front, in order (what
    np.unique keeps of a sorted array); returns their count. Looks for Ctrl-C."""
    cdef Py_ssize_t i, j = 0
    cdef Interrupt intr
    if n > x.shape[0]:
        raise ValueError("c45: distinct_sorted given more values than x holds")
    look_for_signals(&intr, n)
    try:
        if n >= NOGIL_WORK:
            with nogil:
                j = distinct_front(x, n, &intr)
        else:
            j = distinct_front(x, n, &intr)
    finally:
        interrupt_end(&intr)
    if intr.stop:
        raise_interrupt()
    return j


cdef inline double value_at(const cont_t* v, const uint32_t* order,
                            Py_ssize_t i) noexcept nogil:
    return v[i] if order == NULL else v[order[i]]


cdef void count_cuts(const cont_t* v, const uint32_t* order, Py_ssize_t n,
                     double tolerance, Py_ssize_t* possible, Py_ssize_t* blocked,
                     Interrupt* intr) noexcept nogil:
    cdef Py_ssize_t i
    cdef double a, b = value_at(v, order, 0)
    for i in range(n - 1):
        a = b
        b = value_at(v, order, i + 1)
        if a < b:
            possible[0] += 1
            if not a < b - tolerance:
                blocked[0] += 1
        if i % LOOK_EVERY == LOOK_EVERY - 1 and interrupted(intr):
            break


def cut_counts(const cont_t[::1] v, double tolerance, const uint32_t[::1] order=None):
    """(possible, blocked) of sorted values (v, or v read in the order of `order`'s
    rows): the cuts between neighbours that differ, and those of them C4.5 never
    tries (closer than tolerance). A short column keeps the GIL (a release would
    cost more beside a busy thread than the pass); a long one looks for Ctrl-C."""
    cdef Py_ssize_t n = v.shape[0] if order is None else order.shape[0]
    cdef Py_ssize_t possible = 0, blocked = 0, i
    cdef const uint32_t* o = NULL
    cdef Interrupt intr
    if n < 2:
        return 0, 0
    if order is not None:
        o = &order[0]
        for i in range(n):
            if o[i] >= <uint32_t> v.shape[0]:
                raise ValueError(f"c45: cut_counts given order[{i}] beyond the values")
    look_for_signals(&intr, n)
    try:
        if n < LOOK_FROM:
            count_cuts(&v[0], o, n, tolerance, &possible, &blocked, &intr)
        else:
            with nogil:
                count_cuts(&v[0], o, n, tolerance, &possible, &blocked, &intr)
    finally:
        interrupt_end(&intr)
    if intr.stop:
        raise_interrupt()
    return possible, blocked


cdef void scan_weights_and_unknowns(const double* w, Py_ssize_t step, Py_ssize_t n,
                                    const cont_t* cont,
                                    Py_ssize_t n_cont, const int32_t* codes,
                                    Py_ssize_t n_codes, bint* whole, double* total,
                                    bint* unknown, Interrupt* intr) noexcept nogil:
    cdef Py_ssize_t i, m = n_cont * n, q = n_codes * n
    for i in range(n):
        total[0] += w[i * step]
        if w[i * step] != floor(w[i * step]):
            whole[0] = False
        if i % LOOK_EVERY == LOOK_EVERY - 1 and interrupted(intr):
            return
    for i in range(m):
        if isnan(cont[i]):
            unknown[0] = True
            return
        if i % LOOK_EVERY == LOOK_EVERY - 1 and interrupted(intr):
            return
    for i in range(q):
        if codes[i] == 0:
            unknown[0] = True
            return
        if i % LOOK_EVERY == LOOK_EVERY - 1 and interrupted(intr):
            return


def weight_and_unknown_facts(const double[:] w, const cont_t[:, ::1] cont,
                             const int32_t[:, ::1] codes, bint check_cont,
                             bint check_codes):
    """(whole, total, unknown): every weight a whole number, their float64 sum,
    and whether an unknown value (NaN in cont, code 0 in codes; each matrix read
    only when asked: an empty one is a row of zeros) is anywhere; in one pass."""
    cdef Py_ssize_t n = w.shape[0], step = weight_step(w)
    cdef Py_ssize_t n_cont = cont.shape[0] if check_cont else 0
    cdef Py_ssize_t n_codes = codes.shape[0] if check_codes else 0
    cdef bint whole = True, unknown = False
    cdef double total = 0.0
    cdef Interrupt intr
    if (n_cont and cont.shape[1] != n) or (n_codes and codes.shape[1] != n):
        raise ValueError("c45: weight_and_unknown_facts given matrices of another width")
    look_for_signals(&intr, n * (1 + n_cont + n_codes))
    try:
        if n * (1 + n_cont + n_codes) >= NOGIL_WORK:
            with nogil:
                scan_weights_and_unknowns(&w[0], step, n, &cont[0, 0] if n_cont else NULL,
                                          n_cont, &codes[0, 0] if n_codes else NULL,
                                          n_codes, &whole, &total, &unknown, &intr)
        else:
            scan_weights_and_unknowns(&w[0] if n else NULL, step, n,
                                      &cont[0, 0] if n and n_cont else NULL, n_cont,
                                      &codes[0, 0] if n and n_codes else NULL, n_codes,
                                      &whole, &total, &unknown, &intr)
    finally:
        interrupt_end(&intr)
    if intr.stop:
        raise_interrupt()
    return bool(whole), float(total), bool(unknown)



def accuracy(const unsigned char[::1] match, weight):
    """accuracy_score's number from match (1 where y equals the prediction) and
    weight (None, or float64 per row): the share of matches, or as np.average
    weighs it, the matches' weights summed over all the weights summed (numpy's
    pairwise sums). None when a weight is not finite or they sum to 0, which
    accuracy_score refuses. A pass of a few operations per row, with the GIL."""
    cdef Py_ssize_t n = match.shape[0], i, count = 0
    if weight is None:
        for i in range(n):
            count += match[i] != 0
        return count / <double> n
    cdef const double[::1] w = weight
    if w.shape[0] != n or n == 0:
        return None
    products = np.empty(n, dtype=np.float64)
    cdef double[::1] p = products
    for i in range(n):
        if not isfinite(w[i]):
            return None
        p[i] = (1.0 if match[i] else 0.0) * w[i]
    cdef double total = pairwise(&w[0], n)
    if total == 0.0:
        return None
    return pairwise(&p[0], n) / total


def classes_left_out(const int32_t[::1] codes, const int64_t[::1] kept):
    """np.setdiff1d(codes, codes[kept]): the classes (codes >= 0) of codes that no
    row of kept has, ascending. A pass with the GIL: setdiff1d's sorts each
    give it up."""
    cdef Py_ssize_t n = codes.shape[0], i
    cdef int32_t k = 0
    for i in range(n):
        if codes[i] < 0:
            raise ValueError("c45: a negative class code")
        k = codes[i] + 1 if codes[i] + 1 > k else k
    cdef unsigned char[::1] seen = np.zeros(k, np.uint8)   # 1: in codes, 2: in kept
    for i in range(n):
        seen[codes[i]] = 1
    for i in range(kept.shape[0]):
        if not 0 <= kept[i] < n:
            raise ValueError("c45: a row out of range")
        seen[codes[kept[i]]] = 2
    return np.array([c for c in range(k) if seen[c] == 1], dtype=np.int32)
