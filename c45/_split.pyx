# cython: freethreading_compatible = False
"""The rows reduced-error pruning holds out: scikit-learn's ``train_test_split``
(stratified, or plain when a class is too small to stratify), the same rows for
the same random state, drawn in one compiled pass.

scikit-learn shuffles each class's rows with numpy's legacy ``RandomState``
(the Mersenne Twister, a bounded draw per swap), one numpy call per class and
many more to gather the rows: beside a busy Python thread each gives the GIL up,
and each release costs a switch interval. Here the generator's state is read,
the same raw draws are taken in C, and the state is written back as scikit-learn
leaves it (a RandomState passed in moves on exactly as it would there).
"""
from contextlib import nullcontext

import numpy as np

from c45._params import is_seed, random_state as numpy_random_state

cimport numpy as cnp
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t
from libc.stdlib cimport malloc, free, calloc
from libc.math cimport ceil, floor
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid

cdef extern from "numpy/random/bitgen.h":
    ctypedef struct bitgen_t:       # (numpy's public header: its first member)
        void* state

from c45._gil cimport NOGIL_WORK
from c45._interrupt cimport interrupt_init, interrupt_end, interrupted, raise_interrupt
from c45._types cimport Interrupt

cnp.import_array()

cdef enum:
    MT_N = 624
    MT_M = 397
    # draw_rows' passes over the rows look for signals (Ctrl-C) every this many
    # rows: a shuffle's swaps land anywhere in the rows (a cache miss each), 0.2 s
    # deaf for 3 million rows in one pass
    LOOK_EVERY = 1 << 16


cdef struct MT:
    uint32_t key[MT_N]
    int pos


cdef void mt_refill(MT* s) noexcept nogil:
    cdef int i
    cdef uint32_t y
    for i in range(MT_N):
        y = (s.key[i] & 0x80000000U) | (s.key[(i + 1) % MT_N] & 0x7fffffffU)
        s.key[i] = s.key[(i + MT_M) % MT_N] ^ (y >> 1) ^ (0x9908b0dfU if y & 1 else 0U)
    s.pos = 0


cdef inline uint32_t mt_next(MT* s) noexcept nogil:
    cdef uint32_t y
    if s.pos >= MT_N:
        mt_refill(s)
    y = s.key[s.pos]
    s.pos += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9d2c5680U
    y ^= (y << 15) & 0xefc60000U
    y ^= y >> 18
    return y


cdef inline uint32_t mt_interval(MT* s, uint32_t top) noexcept nogil:
    """A draw in 0..top as numpy's legacy bounded draw makes it: the smallest
    bit mask covering top, raw draws masked until one is at most top."""
    cdef uint32_t mask = top, v
    if top == 0:
        return 0
    mask |= mask >> 1
    mask |= mask >> 2
    mask |= mask >> 4
    mask |= mask >> 8
    mask |= mask >> 16
    while True:
        v = mt_next(s) & mask
        if v <= top:
            return v


cdef bint mt_shuffle(MT* s, int64_t* a, Py_ssize_t n, Interrupt* it) noexcept nogil:
    """RandomState.shuffle of a 1-D array: from the last item down, each
    swapped with one at or before it. True when interrupted (it: NULL, never)."""
    cdef Py_ssize_t i, j
    cdef int64_t t
    for i in range(n - 1, 0, -1):
        if (i & (LOOK_EVERY - 1)) == 0 and interrupted(it):
            return True
        j = mt_interval(s, <uint32_t> i)
        t = a[i]
        a[i] = a[j]
        a[j] = t
    return False


cdef bint mt_skip_shuffle(MT* s, Py_ssize_t n, Interrupt* it) noexcept nogil:
    """The draws of a shuffle of n items, the items left alone (True when
    interrupted)."""
    cdef Py_ssize_t i
    for i in range(n - 1, 0, -1):
        if (i & (LOOK_EVERY - 1)) == 0 and interrupted(it):
            return True
        mt_interval(s, <uint32_t> i)
    return False


# get_state gives the GIL up (numpy makes the key with np.zeros), and beside a busy
# Python thread each release costs a switch interval: the state is read and
# written in place instead, through the bit generator's capsule (numpy's
# bitgen_t, whose state for MT19937 is {uint32 key[624]; int pos}, as MT). That
# layout is numpy's own, not its API: it is checked once per process against
# get_state, and where it differs (or no capsule is shown) get_state is used.
cdef int _layout_checked = 0        # 0 not yet, 1 the same, -1 not


cdef MT* capsule_state(rng) except? NULL:
    bit_generator = getattr(rng, "_bit_generator", None)
    capsule = getattr(bit_generator, "capsule", None)
    if capsule is None or not isinstance(bit_generator, np.random.MT19937) \
            or not PyCapsule_IsValid(capsule, "BitGenerator"):
        return NULL
    return <MT*> (<bitgen_t*> PyCapsule_GetPointer(capsule, "BitGenerator")).state


cdef MT* mt_state_of(rng) except? NULL:
    """The Mersenne Twister state of a RandomState, to read and write in place;
    NULL where that cannot be done safely (get_state and set_state then)."""
    global _layout_checked
    cdef MT* state
    cdef int i
    if _layout_checked == 0:
        probe = np.random.RandomState(20240607)
        probe.randint(0, 10, size=3)        # pos moved off 624
        state = capsule_state(probe)
        _layout_checked = -1
        if state != NULL:
            _, key, pos = probe.get_state(legacy=True)[:3]
            if pos == state.pos and all(key[i] == state.key[i] for i in range(MT_N)):
                _layout_checked = 1
    return capsule_state(rng) if _layout_checked == 1 else NULL


cdef class LegacyDraws:
    """A numpy RandomState's Mersenne Twister, drawn from in C: a copy of a
    RandomState's (written back by store), or the one RandomState(seed) starts
    with, made here (making a RandomState gives the GIL up twice)."""
    cdef MT mt
    cdef MT* state      # the RandomState's own (mt_state_of), else NULL
    cdef object rng, rest

    def __cinit__(self):
        self.state = NULL

    @staticmethod
    def of(random_state):
        """The draws of a random_state parameter as check_random_state reads it
        (None: numpy's global RandomState; an int: RandomState(int))."""
        cdef LegacyDraws self = LegacyDraws.__new__(LegacyDraws)
        cdef uint32_t seed
        cdef int i
        if is_seed(random_state):
            # numpy's legacy seeding of an integer (Matsumoto and Nishimura's)
            seed = <uint32_t> int(random_state)
            self.mt.key[0] = seed
            for i in range(1, MT_N):
                self.mt.key[i] = (1812433253U * (self.mt.key[i - 1] ^ (self.mt.key[i - 1] >> 30))
                                  + <uint32_t> i)
            self.mt.pos = MT_N
            return self
        rng = numpy_random_state(random_state)
        if not is_mersenne(rng):
            raise ValueError("c45: a RandomState of another bit generator than "
                             "MT19937 (hold_out_rows draws with train_test_split)")
        self.rng = rng
        self.state = mt_state_of(rng)
        if self.state != NULL:
            self.mt = self.state[0]
            return self
        name, key, pos, has_gauss, gauss = rng.get_state(legacy=True)
        if len(key) != MT_N or not 0 <= pos <= MT_N:
            raise ValueError(f"c45: a Mersenne Twister state of {len(key)} words at {pos}")
        for i in range(MT_N):
            self.mt.key[i] = key[i]
        self.mt.pos = pos
        self.rest = (has_gauss, gauss)
        return self

    def permutation(self, Py_ssize_t n):
        """RandomState.permutation(n)."""
        out = np.empty(n, dtype=np.int64)
        cdef int64_t[::1] a = out
        cdef Py_ssize_t i
        for i in range(n):
            a[i] = i
        if n > 1:
            mt_shuffle(&self.mt, &a[0], n, NULL)
        return out

    def randint(self, int64_t low, int64_t high):
        """RandomState.randint(low, high) of one number below 2**32 apart."""
        if not 0 < high - low <= 0xFFFFFFFF:
            raise ValueError("c45: randint's range is empty or too wide")
        if high - low - 1 == 0xFFFFFFFF:
            return low + mt_next(&self.mt)
        return low + mt_interval(&self.mt, <uint32_t> (high - low - 1))

    def store(self):
        """Write the state back into the RandomState it was read from (none for
        a seed: RandomState(seed) is made afresh at each use)."""
        if self.rng is None:
            return
        if self.state != NULL:
            self.state[0] = self.mt
            return
        key = np.empty(MT_N, dtype=np.uint32)
        cdef uint32_t[::1] k = key
        cdef int i
        for i in range(MT_N):
            k[i] = self.mt.key[i]
        self.rng.set_state(("MT19937", key, self.mt.pos) + self.rest)


def is_mersenne(rng):
    """Whether a RandomState draws from the Mersenne Twister (it may wrap
    another bit generator, whose draws are not LegacyDraws'); read off its bit
    generator where numpy shows it (get_state gives the GIL up)."""
    bit_generator = getattr(rng, "_bit_generator", None)
    if bit_generator is not None:
        return isinstance(bit_generator, np.random.MT19937)
    return rng.get_state(legacy=False)["bit_generator"] == "MT19937"


def scikit_learn_rows(Py_ssize_t n, labels, double fraction, rng):
    """hold_out_rows' rows drawn by train_test_split itself (for a RandomState
    of another bit generator)."""
    from sklearn.model_selection import train_test_split
    split = dict(test_size=fraction, random_state=rng)
    try:
        grow, val = train_test_split(np.arange(n), stratify=labels, **split)
    except ValueError:          # a class too small to stratify
        grow, val = train_test_split(np.arange(n), **split)
    return np.sort(grow), np.sort(val)


def randint(random_state, low, high):
    """check_random_state(random_state).randint(low, high), without making a
    RandomState for a seed."""
    if is_seed(random_state):
        return LegacyDraws.of(random_state).randint(low, high)
    return numpy_random_state(random_state).randint(low, high)


def hold_out_rows(codes, Py_ssize_t n_codes, labels, double fraction, random_state):
    """(grow rows, validation rows), each ascending: the rows
    train_test_split(np.arange(n), stratify=labels, test_size=fraction,
    random_state=random_state) puts in the training and test sets, or without
    stratify where a class is too small for it (scikit-learn's ValueError
    then). A RandomState moves on as there (one of another bit generator than
    the Mersenne Twister is drawn from by train_test_split). codes: each row's class,
    0..n_codes - 1; labels: the labels scikit-learn is given (it orders the
    classes as np.unique does)."""
    cdef Py_ssize_t n = len(codes), i
    cdef Py_ssize_t n_test = <Py_ssize_t> ceil(fraction * n)     # scikit-learn's sizes
    cdef Py_ssize_t n_train = n - n_test
    if n_train <= 0:
        # scikit-learn's refusal, in its words
        from sklearn.model_selection import train_test_split
        train_test_split(np.arange(n), test_size=fraction,
                         random_state=numpy_random_state(random_state))
        raise AssertionError("c45: train_test_split took an empty training set")
    if not is_seed(random_state):
        random_state = numpy_random_state(random_state)
        if not is_mersenne(random_state):
            return scikit_learn_rows(n, labels, fraction, random_state)
    codes = np.ascontiguousarray(codes, dtype=np.int32)
    first, count = code_rows(codes, n_codes)
    present = [c for c in range(n_codes) if first[c] >= 0]
    # scikit-learn's classes: the distinct labels, sorted (a row of each class
    # tells), and each code's place among them; in Python, as numpy's sorts
    # give the GIL up even on a few items
    reps = labels[[first[c] for c in present]]
    if reps.ndim == 2:
        reps = np.array([" ".join(row.astype("str")) for row in reps])
    reps = reps.tolist()
    stratum_of = np.full(n_codes, -1, dtype=np.int32)
    counts = []                 # (no negative indices: wraparound is off)
    previous = None
    for i in sorted(range(len(present)), key=reps.__getitem__):
        if not counts or reps[i] != previous:
            counts.append(0)
            previous = reps[i]
        stratum_of[present[i]] = len(counts) - 1
        counts[len(counts) - 1] += count[present[i]]
    # A RandomState's lock is held from reading its state to writing it back (numpy
    # holds it for each draw): a thread drawing from it meanwhile (the global one,
    # random_state=None, too) waits, and does not draw the same numbers again.
    lock = None if is_seed(random_state) else getattr(
        getattr(random_state, "_bit_generator", None), "lock", None)
    with (nullcontext() if lock is None else lock):
        draws = LegacyDraws.of(random_state)
        if min(counts) >= 2 and n_train >= len(counts) and n_test >= len(counts):
            n_grow = approximate_mode(counts, n_train, draws)
            n_val = approximate_mode([c - g for c, g in zip(counts, n_grow)], n_test, draws)
            n_grow, n_val = np.array(n_grow, dtype=np.int64), np.array(n_val, dtype=np.int64)
        else:
            stratum_of = np.zeros(0, dtype=np.int32)
            n_grow = n_val = np.zeros(0, dtype=np.int64)
        grow, val = draw_rows(draws, codes, stratum_of, n_grow, n_val, n_test)
        draws.store()
    return grow, val


def approximate_mode(class_counts, n_draws, LegacyDraws draws):
    """scikit-learn's approximate mode of the multivariate hypergeometric: each
    class's share of n_draws, floored, the rest given to the largest
    remainders, ties broken by a draw (its rng.choice without replacement: the
    first items of a permutation). In float64 as numpy computes it."""
    total = float(sum(class_counts))
    continuous = [c / total * n_draws for c in class_counts]
    floored = [float(floor(x)) for x in continuous]
    need_to_add = int(n_draws - sum(floored))          # whole numbers: exact
    if need_to_add > 0:
        remainder = [x - f for x, f in zip(continuous, floored)]
        for value in sorted(set(remainder), reverse=True):
            inds = [i for i, r in enumerate(remainder) if r == value]
            add_now = min(len(inds), need_to_add)
            for j in draws.permutation(len(inds))[:add_now]:
                floored[inds[j]] += 1
            need_to_add -= add_now
            if need_to_add == 0:
                break
    return [int(f) for f in floored]


def code_rows(const int32_t[::1] codes, Py_ssize_t n_codes):
    """(each code's first row, -1 where no row has it; each code's rows)."""
    first_out = np.full(n_codes, -1, dtype=np.int64)
    count_out = np.zeros(n_codes, dtype=np.int64)
    cdef int64_t[::1] first = first_out, count = count_out
    cdef Py_ssize_t n = codes.shape[0]
    if n >= NOGIL_WORK:
        with nogil:
            count_codes(&codes[0], n, n_codes, &first[0], &count[0])
    elif n > 0 and n_codes > 0:
        count_codes(&codes[0], n, n_codes, &first[0], &count[0])
    return first_out, count_out


cdef void count_codes(const int32_t* codes, Py_ssize_t n, Py_ssize_t n_codes,
                      int64_t* first, int64_t* count) noexcept nogil:
    cdef Py_ssize_t i
    cdef int32_t c
    for i in range(n):
        c = codes[i]
        if 0 <= c < n_codes:
            count[c] += 1
            if first[c] < 0:
                first[c] = i


cdef struct Split:
    MT* mt
    const int32_t* codes          # each row's code
    Py_ssize_t n
    const int32_t* stratum_of     # each code's class (scikit-learn's order)
    Py_ssize_t n_codes
    const int64_t* n_grow         # per class
    const int64_t* n_val
    Py_ssize_t k                  # classes; 0: the plain split
    Py_ssize_t n_test             # the plain split's validation rows
    int64_t* rows                 # scratch: n rows
    int64_t* start                # scratch: k + 1 offsets, zeroed
    uint8_t* side                 # out: per row 1 grow, 2 validate, 0 neither (zeroed)
    Interrupt* it                 # Ctrl-C looked for between steps


cdef enum:
    SPLIT_OK, SPLIT_BAD_CODE, SPLIT_INTERRUPTED


cdef int split_rows(Split* sp) noexcept nogil:
    """draw_rows' draws: SPLIT_OK, SPLIT_BAD_CODE if a code has no class, or
    SPLIT_INTERRUPTED (the draws then unfinished)."""
    cdef Py_ssize_t n = sp.n, k = sp.k, i, c, m, n_g = 0, n_v = 0
    cdef int64_t* rows = sp.rows
    cdef int64_t* start = sp.start
    cdef uint8_t* side = sp.side
    cdef Interrupt* it = sp.it
    if k == 0:
        for i in range(n):
            rows[i] = i
        if mt_shuffle(sp.mt, rows, n, it):
            return SPLIT_INTERRUPTED
        for i in range(n):
            side[rows[i]] = 2 if i < sp.n_test else 1
        return SPLIT_OK
    # each class's rows in row order (np.argsort(kind="stable")), then
    # shuffled: the first n_grow grow, the next n_val validate
    for i in range(n):
        c = sp.codes[i]
        c = sp.stratum_of[c] if 0 <= c < sp.n_codes else -1
        if not 0 <= c < k:
            return SPLIT_BAD_CODE
        start[c + 1] += 1
    for c in range(k):
        start[c + 1] += start[c]
    for i in range(n):
        c = sp.stratum_of[sp.codes[i]]
        rows[start[c]] = i
        start[c] += 1
    for c in range(k - 1, 0, -1):
        start[c] = start[c - 1]
    start[0] = 0
    for c in range(k):
        m = start[c + 1] - start[c]
        if mt_shuffle(sp.mt, rows + start[c], m, it):
            return SPLIT_INTERRUPTED
        for i in range(min(sp.n_grow[c], m)):
            side[rows[start[c] + i]] = 1
        for i in range(sp.n_grow[c], min(sp.n_grow[c] + sp.n_val[c], m)):
            side[rows[start[c] + i]] = 2
    # scikit-learn then shuffles the grow and validation rows: their draws
    # only (the rows are sorted here)
    for i in range(n):
        n_g += side[i] == 1
        n_v += side[i] == 2
    if mt_skip_shuffle(sp.mt, n_g, it) or mt_skip_shuffle(sp.mt, n_v, it):
        return SPLIT_INTERRUPTED
    return SPLIT_OK


cdef void fill_sides(const uint8_t* side, Py_ssize_t n, int64_t[::1] grow,
                     int64_t[::1] val) noexcept:
    cdef Py_ssize_t i, g = 0, v = 0
    for i in range(n):
        if side[i] == 1:
            grow[g] = i
            g += 1
        elif side[i] == 2:
            val[v] = i
            v += 1


def draw_rows(LegacyDraws draws not None, const int32_t[::1] codes,
              const int32_t[::1] stratum_of, const int64_t[::1] n_grow,
              const int64_t[::1] n_val, Py_ssize_t n_test):
    """(grow rows, validation rows), each ascending, as train_test_split draws
    them once the sizes are known.

    stratum_of: each code's class in scikit-learn's order of classes (np.unique's);
    n_grow, n_val: how many rows of each class grow and validate (its
    _approximate_mode). With no classes (n_grow empty) the plain split: a
    permutation of the rows, its first n_test validate, the rest grow."""
    cdef Py_ssize_t n = codes.shape[0], k = n_grow.shape[0], i
    if (k > 0 and stratum_of.shape[0] == 0) or n_val.shape[0] != k:
        raise ValueError("c45: draw_rows given sizes that do not fit its classes")
    cdef int64_t* rows = <int64_t*> malloc(max(n, 1) * sizeof(int64_t))
    cdef int64_t* start = <int64_t*> calloc(k + 1, sizeof(int64_t))
    cdef uint8_t* side = <uint8_t*> calloc(max(n, 1), sizeof(uint8_t))
    cdef int verdict = SPLIT_OK
    cdef Py_ssize_t n_g = 0, n_v = 0
    cdef Split sp
    cdef Interrupt intr
    if rows == NULL or start == NULL or side == NULL:
        free(rows); free(start); free(side)
        raise MemoryError("c45: out of memory holding out validation rows")
    sp.mt = &draws.mt
    sp.codes = &codes[0] if n else NULL
    sp.n = n
    sp.stratum_of = &stratum_of[0] if stratum_of.shape[0] else NULL
    sp.n_codes = stratum_of.shape[0]
    sp.n_grow = &n_grow[0] if k else NULL
    sp.n_val = &n_val[0] if k else NULL
    sp.k = k
    sp.n_test = n_test
    sp.rows = rows
    sp.start = start
    sp.side = side
    sp.it = &intr
    intr.stop = intr.owner = intr.wrapping = 0     # no looking set up yet
    try:
        if n >= LOOK_EVERY:
            interrupt_init(&intr)
        if n >= NOGIL_WORK:
            with nogil:
                verdict = split_rows(&sp)
        else:
            verdict = split_rows(&sp)
        interrupt_end(&intr)
        if intr.stop or verdict == SPLIT_INTERRUPTED:
            raise_interrupt()       # draws unfinished: the RandomState not moved on
        if verdict == SPLIT_BAD_CODE:
            raise ValueError("c45: draw_rows given a class out of range")
        n_g = n_v = 0
        for i in range(n):
            n_g += side[i] == 1
            n_v += side[i] == 2
        grow = np.empty(n_g, dtype=np.int64)
        val = np.empty(n_v, dtype=np.int64)
        fill_sides(side, n, grow, val)
    finally:
        interrupt_end(&intr)
        free(rows); free(start); free(side)
    return grow, val
