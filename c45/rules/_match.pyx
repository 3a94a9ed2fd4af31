# cython: freethreading_compatible = False
"""Where rules hold: each a pass over the cases in one nogil call.

What a ruleset does with the cases, c4.5rules' §11.3-§11.6 and predict, needs
to know which conditions hold on which case. Beside a busy Python thread every
numpy call on the cases hands the GIL over and costs the caller a switch
interval (5 ms): a mask per condition made one prediction of 95 rules some
1,500 such calls, and a fit of 20,000 cases 37,000. Here each question is one
pass, the GIL given up once:

* ``first_two``: per case the first and second rule that fire (predict, apply);
* ``drop_rounds``: the evaluation of §11.6 and its rounds of dropping rules;
* ``covers``: per rule the cases it covers (the subset selection of §11.4);
* ``class_masks``, ``pack_bits``: the cases of each class, and masks as bits
  (§11.4, §11.5);
* ``rule_counts``: each rule's used, wrong, better and worse (§11.6);
* ``drop_conditions``: condition dropping (§11.3), every candidate's steps,
  the counts kept up to date as conditions go;
* ``subset_counts``, ``toggle_rule``: the greedy subset search's counts (§11.4);
* ``greedy_trials``: the trials of the greedy subset search, their hill-climbs
  included, and ``description_cost``, the cost it minimises (§11.4).

A short pass keeps the GIL (``releases``): handing it over costs more than the
pass.

The rules come packed (``pack_rules`` in _ruleset.py, a PackedRules, checked
once): per condition its test
(LE or GT on a row of the continuous matrix, IN a set of codes on a row of the
discrete one), its row, its cut and its codes; per rule the range of its
conditions. A case holds a condition only when its value is known: NaN fails
both <= and >, and code 0 (unknown, or a category unseen in training) is in no
set (§11: an unknown value satisfies no condition).
"""
import numpy as np

cimport numpy as cnp
from libc.math cimport exp, ldexp, log
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset
from cpython.pycapsule cimport PyCapsule_Destructor, PyCapsule_GetPointer, PyCapsule_New

from c45._interrupt cimport interrupt_init, interrupt_end, interrupted, raise_interrupt
from c45._types cimport Interrupt
from c45._gil cimport NOGIL_WORK
from c45._criterion cimport extra_errors, rnd
from c45._scratch cimport doubled, resize

cnp.import_array()

cdef enum:
    C_LE, C_GT, C_IN
LE, GT, IN = C_LE, C_GT, C_IN

# Passes of fewer condition tests than NOGIL_WORK keep the GIL (c45/_gil.pxd):
# condition dropping and the greedy search run thousands of short ones.
cdef Py_ssize_t RELEASE_FROM = NOGIL_WORK

# Passes of this many condition tests look for signals (Ctrl-C) every LOOK_EVERY
# cases: below it a pass takes a few milliseconds, less than setting up the looking.
cdef Py_ssize_t LOOK_FROM = 1 << 22
cdef enum:
    LOOK_EVERY = 1 << 12


cdef struct Packed:
    const int8_t* test          # per condition: C_LE, C_GT or C_IN
    const int32_t* row          # its row of cont (LE, GT) or of disc (IN)
    const double* cut           # its cut (LE, GT)
    const int64_t* code_start   # its codes: codes[code_start[c]:code_start[c + 1]] (IN)
    const int32_t* codes
    const int64_t* rule_start   # rule r's conditions: rule_start[r]..rule_start[r + 1]
    Py_ssize_t n_rules
    const double* cont          # the encoded cases, one row per column
    const int32_t* disc
    Py_ssize_t n                # cases (the rows' length)


cdef inline bint holds(const Packed* p, Py_ssize_t c, Py_ssize_t i) noexcept nogil:
    """Whether case i satisfies condition c."""
    cdef int8_t t = p.test[c]
    cdef int32_t v
    cdef int64_t k
    if t == C_LE:
        return p.cont[p.row[c] * p.n + i] <= p.cut[c]
    if t == C_GT:
        return p.cont[p.row[c] * p.n + i] > p.cut[c]
    v = p.disc[p.row[c] * p.n + i]
    for k in range(p.code_start[c], p.code_start[c + 1]):
        if p.codes[k] == v:
            return True
    return False


cdef inline bint rule_holds(const Packed* p, Py_ssize_t r, Py_ssize_t i) noexcept nogil:
    cdef int64_t c
    for c in range(p.rule_start[r], p.rule_start[r + 1]):
        if not holds(p, c, i):
            return False
    return True


cdef class PackedRules:
    """Rules packed for the passes (pack_rules in _ruleset.py), checked once: the
    arrays' lengths and ranges, each condition's test, and how many rows of each
    matrix of cases the conditions read. A pass then checks only that its cases
    have those rows, so that a ruleset packed once (predict's) costs no check per
    condition at each call. The arrays are copies of the ones given: what was
    checked cannot change."""
    cdef object arrays          # test, row, cut, code_start, codes, rule_start
    cdef readonly Py_ssize_t cont_rows   # rows of the continuous matrix read (the largest + 1)
    cdef readonly Py_ssize_t disc_rows   # rows of the discrete one read

    def __cinit__(self, test, row, cut, code_start, codes, rule_start):
        test = np.array(test, dtype=np.int8)
        row = np.array(row, dtype=np.int32)
        cut = np.array(cut, dtype=np.float64)
        code_start = np.array(code_start, dtype=np.int64)
        codes = np.array(codes, dtype=np.int32)
        rule_start = np.array(rule_start, dtype=np.int64)
        cdef const int8_t[::1] tv = test
        cdef const int32_t[::1] rv = row
        cdef const double[::1] kv = cut
        cdef const int64_t[::1] sv = code_start
        cdef const int32_t[::1] ov = codes
        cdef const int64_t[::1] qv = rule_start
        cdef Py_ssize_t m = tv.shape[0], c, r
        if rv.shape[0] != m or kv.shape[0] != m or sv.shape[0] != m + 1 or qv.shape[0] < 1:
            raise ValueError("c45: packed rules of inconsistent lengths")
        if sv[0] != 0 or qv[0] != 0 or qv[qv.shape[0] - 1] != m or sv[m] != ov.shape[0]:
            raise ValueError("c45: packed rules' ranges do not cover their conditions")
        for r in range(qv.shape[0] - 1):
            if qv[r + 1] < qv[r]:
                raise ValueError("c45: packed rules' ranges go backwards")
        self.cont_rows = 0
        self.disc_rows = 0
        for c in range(m):
            if sv[c + 1] < sv[c]:
                raise ValueError("c45: packed rules' code ranges go backwards")
            if rv[c] < 0:
                raise ValueError("c45: a packed condition's row is out of range")
            if tv[c] == C_IN:
                self.disc_rows = max(self.disc_rows, rv[c] + 1)
            elif tv[c] == C_LE or tv[c] == C_GT:
                self.cont_rows = max(self.cont_rows, rv[c] + 1)
            else:
                raise ValueError("c45: a packed condition's test is unknown")
        self.arrays = (test, row, cut, code_start, codes, rule_start)


cdef class _Rules:
    """The packed rules and the cases, checked to fit each other, for the passes."""
    cdef Packed p
    cdef object keep            # the arrays the pointers point into

    def __cinit__(self, cont, disc, packed):
        cdef PackedRules checked = (packed if isinstance(packed, PackedRules)
                                    else PackedRules(*packed))
        cdef const double[:, ::1] cv = cont
        cdef const int32_t[:, ::1] dv = disc
        if cv.shape[1] != dv.shape[1]:
            raise ValueError("c45: packed rules of inconsistent lengths")
        if checked.cont_rows > cv.shape[0] or checked.disc_rows > dv.shape[0]:
            raise ValueError("c45: a packed condition's row is out of range")
        test, row, cut, code_start, codes, rule_start = checked.arrays
        cdef const int8_t[::1] tv = test
        cdef const int32_t[::1] rv = row
        cdef const double[::1] kv = cut
        cdef const int64_t[::1] sv = code_start
        cdef const int32_t[::1] ov = codes
        cdef const int64_t[::1] qv = rule_start
        cdef Py_ssize_t m = tv.shape[0]
        self.keep = (cont, disc, checked)
        self.p.n = cv.shape[1]
        self.p.n_rules = qv.shape[0] - 1
        self.p.cont = &cv[0, 0] if cv.shape[0] and cv.shape[1] else NULL
        self.p.disc = &dv[0, 0] if dv.shape[0] and dv.shape[1] else NULL
        self.p.test = &tv[0] if m else NULL
        self.p.row = &rv[0] if m else NULL
        self.p.cut = &kv[0] if m else NULL
        self.p.code_start = &sv[0]
        self.p.codes = &ov[0] if ov.shape[0] else NULL
        self.p.rule_start = &qv[0]


cdef int start_looking(Interrupt* intr, Py_ssize_t tests) except -1:
    intr.stop = 0
    intr.owner = 0
    intr.wrapping = 0
    if tests >= LOOK_FROM:
        interrupt_init(intr)
    return 0


def releases(Py_ssize_t tests):
    """Whether a pass of this many condition tests gives the GIL up."""
    return tests >= RELEASE_FROM


# Each pass is a nogil function, which its Python-visible caller runs without the
# GIL when it is long (RELEASE_FROM), with it otherwise.


cdef void first_two_pass(const Packed* p, const uint8_t* can, int64_t* first,
                         int64_t* second, Interrupt* intr) noexcept nogil:
    cdef Py_ssize_t i, r
    cdef int64_t f, s
    for i in range(p.n):
        f = -1
        s = -1
        for r in range(p.n_rules):
            if can[r] and rule_holds(p, r, i):
                if f < 0:
                    f = r
                else:
                    s = r
                    break
        first[i] = f
        second[i] = s
        if i % LOOK_EVERY == LOOK_EVERY - 1 and interrupted(intr):
            return


def first_two(cont, disc, packed, const uint8_t[::1] can):
    """(first, second): per case the position of the first and of the second rule
    with can[r] set whose conditions all hold, -1 where there is none."""
    cdef _Rules rules = _Rules(cont, disc, packed)
    cdef Packed* p = &rules.p
    cdef Py_ssize_t n = p.n
    if can.shape[0] != p.n_rules:
        raise ValueError("c45: first_two needs one can-fire flag per rule")
    first = np.empty(n, dtype=np.int64)
    second = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] fv = first, sv = second
    cdef int64_t* fp = &fv[0] if n else NULL
    cdef int64_t* sp = &sv[0] if n else NULL
    cdef const uint8_t* cp = &can[0] if p.n_rules else NULL
    cdef Interrupt intr
    cdef Py_ssize_t tests = n * p.rule_start[p.n_rules]
    start_looking(&intr, tests)
    try:
        if tests >= RELEASE_FROM:
            with nogil:
                first_two_pass(p, cp, fp, sp, &intr)
        else:
            first_two_pass(p, cp, fp, sp, &intr)
    finally:
        interrupt_end(&intr)
    if intr.stop:
        raise_interrupt()
    return first, second


cdef void counts_pass(const int64_t* first, const int64_t* second, const int64_t* cls,
                      const int64_t* y, Py_ssize_t n, Py_ssize_t n_rules,
                      int64_t* o) noexcept nogil:
    """rule_counts' counts into o (4 rows of n_rules + 1, zeroed), first and
    second in range."""
    cdef Py_ssize_t i, w = n_rules + 1
    cdef int64_t r, p, a
    for i in range(n):
        r = first[i]
        if r < 0:
            continue
        p = cls[r]
        a = cls[second[i]] if second[i] >= 0 else cls[n_rules]
        o[r] += 1
        o[w + r] += p != y[i]
        if p != a:
            o[2 * w + r] += p == y[i]
            o[3 * w + r] += a == y[i]


def rule_counts(const int64_t[::1] first, const int64_t[::1] second,
                const int64_t[::1] cls, const int64_t[::1] y):
    """Per rule (cls: each rule's class, then the default's), over the cases it
    classifies (first): (used, wrong, better, worse). wrong: not of its class;
    of those whose next choice (second, else the default) gives another class,
    better: of its class, worse: of the next choice's."""
    cdef Py_ssize_t n = first.shape[0], n_rules = cls.shape[0] - 1, i
    if second.shape[0] != n or y.shape[0] != n or n_rules < 0:
        raise ValueError("c45: rule_counts needs first, second and y per case")
    for i in range(n):
        if first[i] >= n_rules or not -1 <= second[i] < n_rules:
            raise ValueError("c45: rule_counts given a rule out of range")
    out = np.zeros((4, n_rules + 1), dtype=np.int64)
    cdef int64_t[:, ::1] o = out
    if n:
        counts_pass(&first[0], &second[0], &cls[0], &y[0], n, n_rules, &o[0, 0])
    return out[0, :n_rules], out[1, :n_rules], out[2, :n_rules], out[3, :n_rules]


cdef Py_ssize_t drop_rounds_pass(const Packed* p, uint8_t* can, const int64_t* cls,
                                 const int64_t* y, int64_t* first, int64_t* second,
                                 int64_t** counts, Py_ssize_t* capacity, int64_t* dropped,
                                 Interrupt* intr) noexcept nogil:
    """drop_rounds' rounds; can is cleared for each rule dropped. Returns the
    rounds, or -1 when out of memory (or interrupted: intr.stop)."""
    cdef Py_ssize_t R = p.n_rules, w = 4 * (R + 1), rounds = 0, r
    cdef int64_t* o
    cdef int64_t* grown
    while True:
        if rounds == capacity[0]:
            grown = <int64_t*> realloc(counts[0], 2 * capacity[0] * w * sizeof(int64_t))
            if grown == NULL:
                return -1
            counts[0] = grown
            capacity[0] *= 2
        o = counts[0] + rounds * w
        memset(o, 0, w * sizeof(int64_t))
        first_two_pass(p, can, first, second, intr)
        if intr.stop:
            return -1
        counts_pass(first, second, cls, y, p.n, R, o)
        rounds += 1
        for r in range(R):
            # the first rule used that does more harm than good (worse > better)
            if can[r] and o[r] > 0 and o[3 * (R + 1) + r] > o[2 * (R + 1) + r]:
                can[r] = 0
                dropped[rounds - 1] = r
                break
        else:
            dropped[rounds - 1] = -1
            return rounds


def drop_rounds(cont, disc, packed, const uint8_t[::1] can, const int64_t[::1] cls,
                const int64_t[::1] y):
    """§11.6 in one pass over its rounds: evaluate the rules (those with can[r]
    set fire) on the cases of classes y, as rule_counts does (cls: each rule's
    class, then the default's), and drop the first rule used with worse > better,
    until none is. Returns (dropped, counts, default_wrong): the position of the
    rule each round dropped (-1 in the last round), each round's counts (rounds,
    4, rules: used, wrong, better, worse; zeros for rules dropped before), and the
    cases the last round left to the default that are not of its class."""
    cdef _Rules rules = _Rules(cont, disc, packed)
    cdef Packed* p = &rules.p
    cdef Py_ssize_t n = p.n, R = p.n_rules, rounds, i
    if can.shape[0] != R or cls.shape[0] != R + 1 or y.shape[0] != n:
        raise ValueError("c45: drop_rounds needs a flag and a class per rule, a class per case")
    alive = np.zeros(R + 1, dtype=np.uint8)     # + 1: never empty
    alive[:R] = can
    first = np.empty(n + 1, dtype=np.int64)
    second = np.empty(n + 1, dtype=np.int64)
    dropped = np.empty(R + 1, dtype=np.int64)   # a rule a round, and the last round
    cdef uint8_t[::1] av = alive
    cdef int64_t[::1] fv = first, sv = second, dv = dropped, ov
    cdef Py_ssize_t capacity = 4
    cdef int64_t* counts = <int64_t*> malloc(capacity * 4 * (R + 1) * sizeof(int64_t))
    if counts == NULL:
        raise MemoryError()
    cdef Interrupt intr
    cdef const int64_t* yp = &y[0] if n else NULL
    cdef int64_t default_wrong = 0
    try:
        start_looking(&intr, n * p.rule_start[R])
        try:
            if n * p.rule_start[R] >= RELEASE_FROM:
                with nogil:
                    rounds = drop_rounds_pass(p, &av[0], &cls[0], yp, &fv[0], &sv[0],
                                              &counts, &capacity, &dv[0], &intr)
            else:
                rounds = drop_rounds_pass(p, &av[0], &cls[0], yp, &fv[0], &sv[0],
                                          &counts, &capacity, &dv[0], &intr)
        finally:
            interrupt_end(&intr)
        if intr.stop:
            raise_interrupt()
        if rounds < 0:
            raise MemoryError()
        out = np.empty(rounds * 4 * (R + 1), dtype=np.int64)
        ov = out
        memcpy(&ov[0], counts, rounds * 4 * (R + 1) * sizeof(int64_t))
    finally:
        free(counts)
    for i in range(n):
        default_wrong += fv[i] < 0 and y[i] != cls[R]
    return dropped[:rounds], out.reshape(rounds, 4, R + 1)[:, :, :R], int(default_wrong)
cdef void pack_bits_pass(const uint8_t* masks, Py_ssize_t rows, Py_ssize_t n,
                         Py_ssize_t width, uint8_t* out) noexcept nogil:
    cdef Py_ssize_t r, i
    memset(out, 0, rows * width)
    for r in range(rows):
        for i in range(n):
            if masks[r * n + i]:
                out[r * width + (i >> 3)] |= 1 << (i & 7)


cdef void covers_pass(const Packed* p, const uint8_t* active, uint8_t* out,
                      Py_ssize_t width, uint8_t* scratch, Interrupt* intr) noexcept nogil:
    """Each rule's row of out: a flag per case, or with scratch (a row of n
    flags) packed into width bytes."""
    cdef Py_ssize_t n = p.n, i, r
    cdef int64_t c
    cdef uint8_t* row
    for r in range(p.n_rules):
        row = scratch if scratch != NULL else out + r * n
        if active != NULL and not active[r]:
            memset(row, 0, n)
        else:
            memset(row, 1, n)
            for c in range(p.rule_start[r], p.rule_start[r + 1]):
                for i in range(n):
                    if row[i] and not holds(p, c, i):
                        row[i] = 0
        if scratch != NULL:
            pack_bits_pass(scratch, 1, n, width, out + r * width)
        if interrupted(intr):
            return


def covers(cont, disc, packed, const uint8_t[::1] active=None, bint bits=False):
    """Boolean (rules, cases): whether each rule's conditions all hold on each case
    (a rule without conditions covers every case); with active, none for a rule
    whose flag is 0. With bits, each row packed as pack_bits packs it (rules x
    (cases + 7) // 8 bytes, an eighth of the flags: a ruleset of a noisy data
    set has rules in proportion to its cases)."""
    cdef _Rules rules = _Rules(cont, disc, packed)
    cdef Packed* p = &rules.p
    if active is not None and active.shape[0] != p.n_rules:
        raise ValueError("c45: covers needs one flag per rule")
    cdef Py_ssize_t width = (p.n + 7) // 8 if bits else p.n
    out = np.empty((p.n_rules, width), dtype=np.uint8)
    cdef uint8_t[:, ::1] ov = out
    cdef uint8_t* op = &ov[0, 0] if p.n_rules and p.n else NULL
    cdef const uint8_t* ap = &active[0] if active is not None and p.n_rules else NULL
    cdef Interrupt intr
    cdef Py_ssize_t tests = p.n * p.rule_start[p.n_rules]
    cdef uint8_t* scratch = NULL
    if op == NULL:
        return out if bits else out.view(bool)
    if bits:
        scratch = <uint8_t*> malloc(p.n)
        if scratch == NULL:
            raise MemoryError()
    start_looking(&intr, tests)
    try:
        if tests >= RELEASE_FROM:
            with nogil:
                covers_pass(p, ap, op, width, scratch, &intr)
        else:
            covers_pass(p, ap, op, width, scratch, &intr)
    finally:
        free(scratch)
        interrupt_end(&intr)
    if intr.stop:
        raise_interrupt()
    return out if bits else out.view(bool)


cdef void class_masks_pass(const int64_t* y, Py_ssize_t n, Py_ssize_t first,
                           Py_ssize_t k, uint8_t* out) noexcept nogil:
    cdef Py_ssize_t i
    memset(out, 0, k * n)
    for i in range(n):
        if first <= y[i] < first + k:
            out[(y[i] - first) * n + i] = 1


def class_masks(const int64_t[::1] y, Py_ssize_t first, Py_ssize_t k):
    """Boolean (k, cases): whether each case is of class first, first + 1, ...,
    first + k - 1 (y == c for every such c in one pass; numpy's comparisons give
    the GIL up each)."""
    cdef Py_ssize_t n = y.shape[0]
    out = np.empty((k, n), dtype=np.uint8)
    cdef uint8_t[:, ::1] ov = out
    if k == 0 or n == 0:
        return out.view(bool)
    if n * k >= RELEASE_FROM:
        with nogil:
            class_masks_pass(&y[0], n, first, k, &ov[0, 0])
    else:
        class_masks_pass(&y[0], n, first, k, &ov[0, 0])
    return out.view(bool)


def pack_bits(const uint8_t[:, ::1] masks):
    """Each row of 0/1 flags as bits, 8 to a byte, the first flag the lowest bit:
    np.packbits(masks, axis=1, bitorder="little") in one pass (numpy's gives the
    GIL up)."""
    cdef Py_ssize_t rows = masks.shape[0], n = masks.shape[1], width = (n + 7) // 8
    out = np.empty((rows, width), dtype=np.uint8)
    cdef uint8_t[:, ::1] ov = out
    if rows == 0 or width == 0:
        return out
    if rows * n >= RELEASE_FROM:
        with nogil:
            pack_bits_pass(&masks[0, 0], rows, n, width, &ov[0, 0])
    else:
        pack_bits_pass(&masks[0, 0], rows, n, width, &ov[0, 0])
    return out


# -- the greedy subset search's counts (§11.4) ---------------------------------
# A subset of one class's rules covers the cases at least one of its rules
# covers. What toggling rule j changes depends on the cases of j that no selected
# rule covers (up: of the class, un: not) and those one selected rule covers (sp,
# sn). Kept up to date here, a pass over the toggled rule's cases each. The
# rules' covers are bits (pack_bits' rows): a noisy data set's ruleset has rules
# in proportion to its cases, and a flag per rule and case was gigabytes.

cdef struct Subset:
    const uint8_t* cover        # rules x width bytes: bit c of row j, rule j covers case c
    Py_ssize_t width
    const uint8_t* pos          # per case: of the class
    Py_ssize_t n_rules, n
    int64_t* cnt                # per case: selected rules covering it
    int64_t* up                 # per rule: its cases uncovered, of the class
    int64_t* un                 # ... uncovered, not of the class
    int64_t* sp                 # ... covered once, of the class
    int64_t* sn                 # ... covered once, not of the class


cdef inline bint covers_case(const Subset* s, Py_ssize_t j, Py_ssize_t c) noexcept nogil:
    return (s.cover[j * s.width + (c >> 3)] >> (c & 7)) & 1


cdef void case_counts(Subset* s, Py_ssize_t c, int64_t d_up, int64_t d_single) noexcept nogil:
    """Case c's change to each rule covering it: its uncovered (up/un) and
    covered-once (sp/sn) counts."""
    cdef Py_ssize_t j
    for j in range(s.n_rules):
        if covers_case(s, j, c):
            if s.pos[c]:
                s.up[j] += d_up
                s.sp[j] += d_single
            else:
                s.un[j] += d_up
                s.sn[j] += d_single


cdef void subset_counts_pass(Subset* s, const uint8_t* inc, int64_t* totals) noexcept nogil:
    cdef Py_ssize_t j, b, c, n = s.n
    cdef int64_t k
    cdef const uint8_t* row
    for j in range(s.n_rules):
        if inc[j]:
            row = s.cover + j * s.width
            for b in range(s.width):
                if row[b]:
                    for c in range(b * 8, b * 8 + 8):
                        if (row[b] >> (c & 7)) & 1:     # (no bit past the cases)
                            s.cnt[c] += 1
    for c in range(n):
        k = s.cnt[c]
        if k > 0:
            totals[0] += 1
            totals[1] += not s.pos[c]
        else:
            totals[2] += s.pos[c]
        if k == 0:
            case_counts(s, c, 1, 0)
        elif k == 1:
            case_counts(s, c, 0, 1)


cdef void toggle_pass(Subset* s, Py_ssize_t i, bint adding) noexcept nogil:
    cdef Py_ssize_t b, c
    cdef int64_t old, d_up, d_single
    cdef const uint8_t* row = s.cover + i * s.width
    for b in range(s.width):
        if not row[b]:
            continue
        for c in range(b * 8, b * 8 + 8):
            if not (row[b] >> (c & 7)) & 1:
                continue
            old = s.cnt[c]
            # what the case adds to each rule covering it: uncovered (up/un) and
            # covered once (sp/sn), before -> after
            d_up = 0
            d_single = 0
            if adding:
                s.cnt[c] = old + 1
                if old == 0:
                    d_up, d_single = -1, 1
                elif old == 1:
                    d_single = -1
            else:
                s.cnt[c] = old - 1
                if old == 1:
                    d_up, d_single = 1, -1
                elif old == 2:
                    d_single = 1
            if d_up != 0 or d_single != 0:
                case_counts(s, c, d_up, d_single)


cdef int subset_of(Subset* s, const uint8_t[:, ::1] cover, const uint8_t[::1] pos,
                   int64_t[::1] cnt, int64_t[::1] up, int64_t[::1] un,
                   int64_t[::1] sp, int64_t[::1] sn) except -1:
    cdef Py_ssize_t j
    s.n_rules, s.n, s.width = cover.shape[0], pos.shape[0], cover.shape[1]
    if (s.width != (s.n + 7) // 8 or cnt.shape[0] != s.n or up.shape[0] != s.n_rules + 1
            or un.shape[0] != s.n_rules + 1 or sp.shape[0] != s.n_rules + 1
            or sn.shape[0] != s.n_rules + 1):
        raise ValueError("c45: the subset search's arrays do not fit the cover")
    if s.n % 8:                 # (the passes read every bit of a row's bytes)
        for j in range(s.n_rules):
            if cover[j, s.width - 1] >> (s.n % 8):
                raise ValueError("c45: the subset search's cover has bits past the cases")
    s.cover = &cover[0, 0] if s.n_rules and s.n else NULL
    s.pos = &pos[0] if s.n else NULL
    s.cnt = &cnt[0] if s.n else NULL
    s.up, s.un, s.sp, s.sn = &up[0], &un[0], &sp[0], &sn[0]
    return 0


def subset_counts(const uint8_t[:, ::1] cover, const uint8_t[::1] inc,
                  const uint8_t[::1] pos):
    """For the subset inc of the rules (cover: their cases as pack_bits' rows)
    and the cases of the class (pos): (cnt, up, un, sp, sn, fires, fp, fn).
    cnt[c] is how many selected rules cover case c; per rule j the counts above
    (each with one unused last entry); fires, fp, fn the covered cases, those of
    them not of the class, and the class's cases not covered."""
    cdef Subset s
    cdef int64_t totals[3]
    cdef Py_ssize_t n_rules = cover.shape[0], n = pos.shape[0]
    if inc.shape[0] != n_rules:
        raise ValueError("c45: subset_counts needs a flag per rule")
    # np.empty, zeroed here: numpy's zeroed allocations of more than a few KB
    # give the GIL up too
    cnt = np.empty(n, dtype=np.int64)
    up, un, sp, sn = (np.empty(n_rules + 1, dtype=np.int64) for _ in range(4))
    subset_of(&s, cover, pos, cnt, up, un, sp, sn)
    memset(s.cnt, 0, n * sizeof(int64_t))
    memset(s.up, 0, (n_rules + 1) * sizeof(int64_t))
    memset(s.un, 0, (n_rules + 1) * sizeof(int64_t))
    memset(s.sp, 0, (n_rules + 1) * sizeof(int64_t))
    memset(s.sn, 0, (n_rules + 1) * sizeof(int64_t))
    cdef const uint8_t* ip = &inc[0] if n_rules else NULL
    totals[0] = totals[1] = totals[2] = 0
    if n * n_rules >= RELEASE_FROM:
        with nogil:
            subset_counts_pass(&s, ip, totals)
    else:
        subset_counts_pass(&s, ip, totals)
    return cnt, up, un, sp, sn, int(totals[0]), int(totals[1]), int(totals[2])


def toggle_rule(const uint8_t[:, ::1] cover, const uint8_t[::1] pos, Py_ssize_t i,
                bint adding, int64_t[::1] cnt, int64_t[::1] up, int64_t[::1] un,
                int64_t[::1] sp, int64_t[::1] sn):
    """Rule i added to the subset (adding) or taken out of it: cnt and the per-rule
    counts of subset_counts made up to date in place."""
    cdef Subset s
    cdef Py_ssize_t b, covered = 0
    subset_of(&s, cover, pos, cnt, up, un, sp, sn)
    if not 0 <= i < s.n_rules:
        raise ValueError("c45: toggle_rule's rule is out of range")
    for b in range(s.width):            # the pass's length: the rule's cases x rules
        covered += s.cover[i * s.width + b] != 0
    if s.width + 8 * covered * s.n_rules >= RELEASE_FROM:
        with nogil:
            toggle_pass(&s, i, adding)
    else:
        toggle_pass(&s, i, adding)


# -- the description cost of a subset, and the greedy search's trials (§11.4) ----

LN2 = 0.69314718055994530942    # log 2 as c4.5rules writes it (the code lengths' too)
cdef double C_LN2 = LN2


cdef inline double log2_(double x) noexcept nogil:
    return log(x) / C_LN2


cdef inline double biased(double n, double e, double x) noexcept nogil:
    """Bits to identify e exceptions among n cases at the expected rate x/n."""
    if x <= 1e-6:
        return 0.0 if e == 0 else 1e6
    if x >= n - 1e-6:
        return 0.0 if e == n else 1e6
    return -e * log2_(x / n) - (n - e) * log2_(1.0 - x / n)


cdef inline double cost_of(double bits, double log2fact_sel, double log2n, int64_t n,
                           int64_t fires, int64_t fp, int64_t fn) noexcept nogil:
    cdef double exc
    if fires > n / 2.0:
        exc = biased(fires, fp, (fp + fn) / 2.0) + biased(n - fires, fn, fn)
    else:
        exc = biased(fires, fp, fp) + biased(n - fires, fn, (fp + fn) / 2.0)
    return 0.5 * (bits - log2fact_sel) + (log2n + exc)


def description_cost(double bits, double log2fact_sel, double log2n, int64_t n,
                     int64_t fires, int64_t fp, int64_t fn):
    """The cost of a subset of one class's rules among n cases: bits, the sum of
    its rules' bits; log2fact_sel, log2 (its rules)!; log2n, log2 n; fires, the
    cases it covers, fp of them not of the class, fn the class's cases it does
    not cover: 0.5 (bits - log2 k!) + log2 n + the exceptions' bits."""
    return cost_of(bits, log2fact_sel, log2n, n, fires, fp, fn)


# The bits of a subset are its rules' bits summed exactly and rounded once. Here
# each rule's bits times 2**scale, an integer, and their sums are __int128: the
# caller checks that they fit (SubsetSearch._scale), so that a sum is exact and
# its conversion back the one rounding.
cdef extern from *:
    ctypedef long long int128 "__int128"


cdef inline double rounded(int128 fixed, int scale) noexcept nogil:
    return ldexp(<double>fixed, -scale)


cdef double climb(Subset* s, uint8_t* inc, const int64_t* totals, const int128* fixed,
                  int scale, const double* log2fact, double log2n,
                  Interrupt* intr) noexcept nogil:
    """The hill-climb from the subset inc (its counts in s, its fires, fp and fn
    in totals): while toggling a rule lowers the cost, toggle the one that lowers
    it most (the first on ties). Returns the final cost; inc is the final subset
    (unfinished when interrupted: intr.stop). Each step is a pass over the rules
    and one over the cases: it looks for signals after each."""
    cdef Py_ssize_t R = s.n_rules, i, best_i
    cdef int64_t n = s.n, n_sel = 0, fires = totals[0], fp = totals[1], fn = totals[2]
    cdef int128 bits = 0
    cdef double cost, gain, best_gain
    for i in range(R):
        if inc[i]:
            bits += fixed[i]
            n_sel += 1
    cost = cost_of(rounded(bits, scale), log2fact[n_sel], log2n, n, fires, fp, fn)
    while True:
        if interrupted(intr):
            return cost
        best_i, best_gain = -1, 0.0
        for i in range(R):
            if inc[i]:
                gain = cost - cost_of(rounded(bits - fixed[i], scale), log2fact[n_sel - 1],
                                      log2n, n, fires - (s.sp[i] + s.sn[i]), fp - s.sn[i],
                                      fn + s.sp[i])
            else:
                gain = cost - cost_of(rounded(bits + fixed[i], scale), log2fact[n_sel + 1],
                                      log2n, n, fires + (s.up[i] + s.un[i]), fp + s.un[i],
                                      fn - s.up[i])
            if gain > best_gain:
                best_i, best_gain = i, gain
        if best_i < 0:
            return cost
        i = best_i
        if inc[i]:
            bits -= fixed[i]
            n_sel -= 1
            fires, fp, fn = fires - (s.sp[i] + s.sn[i]), fp - s.sn[i], fn + s.sp[i]
        else:
            bits += fixed[i]
            n_sel += 1
            fires, fp, fn = fires + (s.up[i] + s.un[i]), fp + s.un[i], fn - s.up[i]
        toggle_pass(s, i, not inc[i])
        inc[i] = not inc[i]
        cost = cost_of(rounded(bits, scale), log2fact[n_sel], log2n, n, fires, fp, fn)


cdef int greedy_pass(Subset* s, uint8_t* incs, Py_ssize_t trials, double* costs,
                     const int128* fixed, int scale, const double* log2fact,
                     double log2n, Interrupt* intr) noexcept nogil:
    cdef int64_t totals[3]
    cdef Py_ssize_t t, R = s.n_rules
    for t in range(trials):
        memset(s.cnt, 0, s.n * sizeof(int64_t))
        memset(s.up, 0, (R + 1) * sizeof(int64_t))
        memset(s.un, 0, (R + 1) * sizeof(int64_t))
        memset(s.sp, 0, (R + 1) * sizeof(int64_t))
        memset(s.sn, 0, (R + 1) * sizeof(int64_t))
        totals[0] = totals[1] = totals[2] = 0
        subset_counts_pass(s, incs + t * R, totals)
        costs[t] = climb(s, incs + t * R, totals, fixed, scale, log2fact, log2n, intr)
        if intr.stop:
            return -1
    return 0


def greedy_trials(const uint8_t[:, ::1] cover, const uint8_t[::1] pos, uint8_t[:, ::1] incs,
                  const double[::1] bits, int scale, const double[::1] log2fact,
                  double log2n):
    """The trials of the greedy search, each from its subset incs[t] (rules: rows
    of cover, pack_bits' rows; pos: the class's cases): the hill-climb of SubsetSearch.greedy, all
    in one pass. bits: each rule's bits, integers once times 2**scale (with their
    sums, under 2**126 in magnitude: the caller checks); log2fact[k] = log2 k!
    for k up to the rules + 1. Returns each trial's final cost; incs[t] holds
    its final subset."""
    cdef Subset s
    cdef Py_ssize_t R = cover.shape[0], n = pos.shape[0], trials = incs.shape[0], i
    if incs.shape[1] != R or bits.shape[0] != R or log2fact.shape[0] < R + 2:
        raise ValueError("c45: greedy_trials needs a flag and bits per rule")
    if not 0 <= scale <= 1022:
        raise ValueError("c45: greedy_trials' scale is out of range")
    cnt = np.empty(n, dtype=np.int64)
    up, un, sp, sn = (np.empty(R + 1, dtype=np.int64) for _ in range(4))
    costs = np.empty(trials + 1, dtype=np.float64)
    cdef double[::1] cv = costs
    subset_of(&s, cover, pos, cnt, up, un, sp, sn)
    cdef uint8_t* ip = &incs[0, 0] if R and trials else NULL
    cdef int128* fixed = <int128*> malloc((R + 1) * sizeof(int128))   # malloc: aligned
    cdef Interrupt intr
    if fixed == NULL:
        raise MemoryError()
    # a climb's steps are passes over the cases: R steps of n, 11 trials
    start_looking(&intr, trials * n * R)
    try:
        for i in range(R):
            fixed[i] = <int128> ldexp(bits[i], scale)
        if trials * n * R >= RELEASE_FROM:
            with nogil:
                greedy_pass(&s, ip, trials, &cv[0], fixed, scale, &log2fact[0], log2n,
                            &intr)
        else:
            greedy_pass(&s, ip, trials, &cv[0], fixed, scale, &log2fact[0], log2n, &intr)
    finally:
        free(fixed)
        interrupt_end(&intr)
    if intr.stop:
        raise_interrupt()
    return costs[:trials]


# -- condition dropping (§11.3) --------------------------------------------------
# Each candidate rule (a leaf's path) drops conditions one at a time; each step
# weighs the cases satisfying every remaining condition and, per condition, those
# failing it alone. Counted afresh at each step that was a pass over the cases per
# step of every candidate (minutes on a tree 250 levels deep); here the counts are
# kept up to date as conditions go. A case failing two or more remaining
# conditions is watched on two of them (SAT solvers' two watched literals): only
# when one of those goes does it look further along the path for another (its
# scan never goes back: a condition that holds keeps holding, one dropped stays
# dropped), or count for the condition it alone fails. The first failing
# condition comes from the tree: a case routed by the conditions to a node below
# position j of the path, and not below position j + 1, satisfies the first j and
# fails the next; the cases sorted by the node they stop at give those of a
# subtree as one range.

cdef struct Dropping:
    const Packed* p             # condition c: the edge into node c + 1
    const int64_t* y
    Py_ssize_t n
    bint routed                 # the first failure from the cases' routes
    const int64_t* order        # the cases by the pre-order of their stop node
    const int64_t* lo           # per node: its subtree's cases, order[lo[v]:hi[v]]
    const int64_t* hi
    bint f32
    double cf, coeff, fisher    # fisher < 0: no significance test
    const double* log2fact      # 0..n (fisher)
    # per case: the positions watched (w[2i], w[2i + 1]; -1: none), the
    # watch lists' links, where its scan resumes
    int64_t* w
    int64_t* nxt
    int64_t* cursor
    # per position of the path
    int64_t* head
    int64_t* add_t
    int64_t* add_e
    uint8_t* alive
    int64_t* memo_t             # the rates last computed there, for these counts
    int64_t* memo_e
    double* memo_actual
    double* memo_pess
    # the log: rows (errors, total, pess) and steps (dropped position or -1),
    # kept while logging: at most max_rows rows (-1: no bound), else dropped
    bint logging
    Py_ssize_t max_rows
    int32_t* row_e              # (counts of cases: 32-bit, as the cases' indices)
    int32_t* row_t
    double* row_p
    Py_ssize_t rows, row_cap
    int64_t* step_drop
    Py_ssize_t steps, step_cap


cdef inline void rule_rates(const Dropping* s, int64_t total, int64_t errors,
                            double default_error, double* actual, double* pess) noexcept nogil:
    """RuleBuilder's former _rates: (Actual, Pess) of a condition set covering
    total cases, errors of them wrong (as pessimistic_extra_errors and numpy's
    binary32 arithmetic give them)."""
    cdef bint f32 = s.f32
    cdef double u, e, t
    if total == 0:
        actual[0] = 0.0
        pess[0] = default_error
        return
    e = rnd(f32, <double>errors)
    t = rnd(f32, <double>total)
    u = extra_errors(f32, t, e, s.cf, s.coeff)
    if f32:
        actual[0] = rnd(True, e / t)
        pess[0] = rnd(True, rnd(True, e + rnd(True, u)) / t)
    else:
        actual[0] = e / t
        pess[0] = (e + u) / t


cdef inline double fisher_p(int64_t a, int64_t b, int64_t c, int64_t d,
                            const double* lf) noexcept nogil:
    """fisher_statistic's sum (its docstring says what it is)."""
    cdef double rows = lf[a + b] + lf[c + d]
    cdef double cols = lf[a + c] + lf[b + d]
    cdef double base = rows + cols - lf[a + b + c + d]
    cdef double p = 0.0
    while b >= 0 and c >= 0:
        p += exp(base - lf[a] - lf[b] - lf[c] - lf[d])
        a += 1
        b -= 1
        c -= 1
        d += 1
    return p


cdef inline Py_ssize_t next_failing(const Dropping* s, const int64_t* path, Py_ssize_t m,
                                    Py_ssize_t i, Py_ssize_t start) noexcept nogil:
    """The first remaining position >= start of the path (its nodes below the
    root) whose condition case i fails, m if none."""
    cdef Py_ssize_t q
    for q in range(start, m):
        if s.alive[q] and not holds(s.p, path[q] - 1, i):      # (node c: condition c - 1)
            return q
    return m


cdef inline void watch(Dropping* s, int64_t slot, Py_ssize_t q) noexcept nogil:
    s.w[slot] = q
    s.nxt[slot] = s.head[q]
    s.head[q] = slot


cdef inline void first_failures(Dropping* s, const int64_t* path, Py_ssize_t m,
                                Py_ssize_t i, Py_ssize_t f1, int64_t target) noexcept nogil:
    """Case i, failing position f1 first: watched on it and the next failing one,
    or counted for f1 alone."""
    cdef Py_ssize_t f2 = next_failing(s, path, m, i, f1 + 1)
    watch(s, 2 * i, f1)
    if f2 == m:
        s.w[2 * i + 1] = -1
        s.add_t[f1] += 1
        s.add_e[f1] += s.y[i] != target
    else:
        watch(s, 2 * i + 1, f2)
        s.cursor[i] = f2 + 1


cdef void stop_logging(Dropping* s) noexcept nogil:
    """The log dropped (its buffers freed): past its bound, or never kept."""
    free(s.row_e); free(s.row_t); free(s.row_p); free(s.step_drop)
    s.row_e = s.row_t = NULL
    s.row_p = NULL
    s.step_drop = NULL
    s.rows = s.steps = s.row_cap = s.step_cap = 0
    s.logging = False


cdef int log_room(Dropping* s, Py_ssize_t rows) noexcept nogil:
    """Room in the log for a step of this many rows (doubling), or the log
    dropped when it would pass max_rows; -1: no memory."""
    cdef Py_ssize_t c
    if not s.logging:
        return 0
    if s.max_rows >= 0 and s.rows + rows > s.max_rows:
        stop_logging(s)
        return 0
    if s.rows + rows > s.row_cap:
        c = doubled(s.row_cap, s.rows + rows)
        if (resize(<void**> &s.row_e, s.row_cap, c, sizeof(int32_t), False) < 0
                or resize(<void**> &s.row_t, s.row_cap, c, sizeof(int32_t), False) < 0
                or resize(<void**> &s.row_p, s.row_cap, c, sizeof(double), False) < 0):
            return -1
        s.row_cap = c
    if s.steps + 1 > s.step_cap:
        c = doubled(s.step_cap, s.steps + 1)
        if resize(<void**> &s.step_drop, s.step_cap, c, sizeof(int64_t), False) < 0:
            return -1
        s.step_cap = c
    return 0


cdef inline void log_row(Dropping* s, int64_t errors, int64_t total, double pess) noexcept nogil:
    if s.logging:
        s.row_e[s.rows] = errors
        s.row_t[s.rows] = total
        s.row_p[s.rows] = pess
        s.rows += 1


cdef inline void log_step(Dropping* s, int64_t dropped) noexcept nogil:
    if s.logging:
        s.step_drop[s.steps] = dropped
        s.steps += 1


cdef int drop_one(Dropping* s, const int64_t* path, Py_ssize_t m, int64_t target,
                  double default_error, int64_t* out, double* out_error,
                  uint8_t* kept, Interrupt* intr) noexcept nogil:
    """One candidate's condition dropping, its steps appended to the log; out:
    (cases covered, of them wrong), out_error its Pess, kept its conditions
    left. -1: out of memory (or interrupted: intr.stop)."""
    cdef Py_ssize_t q, j, i, k, left, best, best_at, at, v, below
    cdef int64_t total0 = 0, errors0 = 0, slot, after, t, e, other
    cdef double actual0, pess0, best_pess = 0.0
    cdef bint drop
    for q in range(m):
        s.head[q] = -1
        s.add_t[q] = 0
        s.add_e[q] = 0
        s.alive[q] = 1
        s.memo_t[q] = -1
    if s.routed:
        v = 0
        for j in range(m + 1):
            # position j's cases: routed into node v, not into the next node of
            # the path (below: the path's leaf, whose cases satisfy every condition)
            if j == m:
                for k in range(s.lo[v], s.hi[v]):
                    total0 += 1
                    errors0 += s.y[s.order[k]] != target
                break
            below = path[j]             # (its cases skipped: they go on)
            for k in range(s.lo[v], s.lo[below]):
                first_failures(s, path, m, s.order[k], j, target)
                if k % LOOK_EVERY == 0 and interrupted(intr):
                    return -1
            for k in range(s.hi[below], s.hi[v]):
                first_failures(s, path, m, s.order[k], j, target)
                if k % LOOK_EVERY == 0 and interrupted(intr):
                    return -1
            v = below
    else:
        for i in range(s.n):
            j = next_failing(s, path, m, i, 0)
            if j == m:
                total0 += 1
                errors0 += s.y[i] != target
            else:
                first_failures(s, path, m, i, j, target)
            if i % LOOK_EVERY == LOOK_EVERY - 1 and interrupted(intr):
                return -1
    left = m
    while True:
        if interrupted(intr):
            return -1
        if log_room(s, left + 1) < 0:
            return -1
        rule_rates(s, total0, errors0, default_error, &actual0, &pess0)
        log_row(s, errors0, total0, pess0)
        if left == 0:
            log_step(s, -1)
            break
        best = -1
        best_at = -1
        at = 0
        drop = False
        for q in range(m):
            if not s.alive[q]:
                continue
            t = total0 + s.add_t[q]
            e = errors0 + s.add_e[q]
            if s.memo_t[q] != t or s.memo_e[q] != e:
                rule_rates(s, t, e, default_error, &s.memo_actual[q], &s.memo_pess[q])
                s.memo_t[q] = t
                s.memo_e[q] = e
            log_row(s, e, t, s.memo_pess[q])
            if best < 0 or s.memo_pess[q] <= best_pess:      # later on ties
                best, best_at, best_pess = q, at, s.memo_pess[q]
            if not drop:
                if s.memo_pess[q] <= pess0 or s.memo_actual[q] <= actual0:
                    drop = True
                elif s.fisher >= 0 and fisher_p(total0 - errors0, errors0,
                                                s.add_t[q] - s.add_e[q], s.add_e[q],
                                                s.log2fact) > s.fisher:
                    # among the cases satisfying the other conditions: condition
                    # q holds or not x the rule's class or not
                    drop = True
            at += 1
        log_step(s, best_at if drop else -1)
        if not drop:
            break
        # best goes: the cases failing it alone now satisfy every condition
        # left; those it was one of two watches of look for another
        s.alive[best] = 0
        left -= 1
        total0 += s.add_t[best]
        errors0 += s.add_e[best]
        slot = s.head[best]
        while slot >= 0:
            after = s.nxt[slot]
            i = slot >> 1
            other = s.w[slot ^ 1]
            if other >= 0:
                q = next_failing(s, path, m, i, s.cursor[i])
                if q < m:
                    watch(s, slot, q)
                    s.cursor[i] = q + 1
                else:
                    s.w[slot] = -1
                    s.add_t[other] += 1
                    s.add_e[other] += s.y[i] != target
            else:
                s.w[slot] = -1
            slot = after
    out[0] = total0
    out[1] = errors0
    out_error[0] = pess0
    for q in range(m):
        kept[q] = s.alive[q]
    return 0


cdef int route_cases(Dropping* s, const int32_t* first_child, const int32_t* n_children,
                     Py_ssize_t nodes, int64_t* stop) noexcept nogil:
    """Each case's stop node: followed down from the root while exactly one
    branch's condition holds. 1 if some case satisfied two branches' (then no
    routing: not a tree's tests)."""
    cdef Py_ssize_t i, v, b, c, went, held
    for i in range(s.n):
        v = 0
        while n_children[v] > 0:
            held = 0
            went = -1
            for b in range(n_children[v]):
                c = first_child[v] + b
                if holds(s.p, c - 1, i):
                    held += 1
                    went = c
            if held == 0:
                break
            if held > 1:
                return 1
            v = went
        stop[i] = v
    return 0


cdef int drop_all(Dropping* s, const int32_t* first_child, const int32_t* n_children,
                  Py_ssize_t nodes, const int64_t* pre, const int64_t* size, int64_t* stop,
                  int64_t* start, int64_t* order, int64_t* lo, int64_t* hi,
                  const int64_t* path_start, const int64_t* path_nodes,
                  const int64_t* targets, const double* default_error, int64_t* covered,
                  double* error, uint8_t* kept, int64_t* step_start, Py_ssize_t K,
                  Interrupt* intr) noexcept nogil:
    """drop_conditions' work: the cases routed (and sorted by the pre-order of
    their stop node: start holds nodes + 1 zeros), then each candidate's
    dropping. -1: out of memory or interrupted (intr.stop)."""
    cdef Py_ssize_t k, v
    s.routed = not route_cases(s, first_child, n_children, nodes, stop)
    if s.routed:
        for k in range(s.n):
            start[pre[stop[k]] + 1] += 1
        for k in range(nodes):
            start[k + 1] += start[k]
        for v in range(nodes):
            lo[v] = start[pre[v]]
            hi[v] = start[pre[v] + size[v]]
        for k in range(s.n):
            order[start[pre[stop[k]]]] = k
            start[pre[stop[k]]] += 1
        s.order, s.lo, s.hi = order, lo, hi
    step_start[0] = 0
    for k in range(K):
        if drop_one(s, path_nodes + path_start[k], path_start[k + 1] - path_start[k],
                    targets[k], default_error[k], covered + 2 * k, error + k,
                    kept + path_start[k], intr) < 0:
            return -1
        step_start[k + 1] = s.steps
    return 0


cdef void free_buffer(object capsule) noexcept:
    free(PyCapsule_GetPointer(capsule, NULL))


cdef object owned(void** buf, Py_ssize_t n, int typenum, size_t item):
    """An array of the n items of a malloc'd buffer (shrunk to them), which it
    then owns and frees; buf[0] is emptied."""
    cdef cnp.npy_intp dims = n
    cdef void* data = realloc(buf[0], (n if n else 1) * item)
    if data != NULL:
        buf[0] = data
    capsule = PyCapsule_New(buf[0], NULL, <PyCapsule_Destructor> free_buffer)
    data = buf[0]
    buf[0] = NULL
    arr = cnp.PyArray_SimpleNewFromData(1, &dims, typenum, data)
    cnp.set_array_base(arr, capsule)
    return arr


cdef object filled(Py_ssize_t n, int64_t value):
    """An int64 array of n values, filled here: numpy's np.full, np.zeros and
    np.ones give the GIL up for all but the smallest (a switch interval each
    beside a busy Python thread)."""
    out = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] v = out
    cdef Py_ssize_t i
    for i in range(n):
        v[i] = value
    return out


cdef Py_ssize_t walk(const int32_t* first_child, const int32_t* n_children,
                     Py_ssize_t nodes, const int8_t* kind, int leaf_kind, int64_t* parent,
                     int64_t* by_pre, str who) except -1:
    """The nodes the root reaches, in pre-order with branches in order (by_pre),
    each one's parent (parent, filled with -1 by the caller), below nodes of
    kind leaf_kind none (kind NULL: down to the nodes without children).
    Returns how many it reached; refuses (ValueError naming who) a child out of
    range or of two parents (so no cycle either). by_pre holds the stack."""
    cdef Py_ssize_t top = 1, seen = 0, v, b, c
    by_pre[nodes - 1] = 0               # the stack grows down from the end
    while top:
        v = by_pre[nodes - top]
        top -= 1
        by_pre[seen] = v                # (seen < nodes - top: never over the stack)
        seen += 1
        if kind != NULL and kind[v] == leaf_kind:
            continue
        if n_children[v] < 0 or (n_children[v] and (
                first_child[v] < 1 or first_child[v] > nodes - n_children[v])):
            raise ValueError(f"c45: {who}' tree has a child out of range")
        for b in range(n_children[v] - 1, -1, -1):     # popped in branch order
            c = first_child[v] + b
            if parent[c] >= 0:
                raise ValueError(f"c45: {who}' tree has a node of two parents")
            parent[c] = v
            top += 1
            by_pre[nodes - top] = c
    return seen


def drop_conditions(cont, disc, packed, const int32_t[::1] first_child,
                    const int32_t[::1] n_children, const int64_t[::1] path_start,
                    const int64_t[::1] path_nodes, const int64_t[::1] y,
                    const int64_t[::1] targets, const double[::1] default_error,
                    bint f32, double cf, double coeff, double fisher,
                    const double[::1] log2fact, Py_ssize_t max_rows=-1):
    """§11.3's condition dropping of every candidate rule of a tree.

    packed: one condition per node below the root, the edge into it (condition
    c: node c + 1), on the cases cont, disc of classes y. Candidate k's path:
    the nodes path_nodes[path_start[k]:path_start[k + 1]] below the root, its
    class targets[k], its DefaultError default_error[k]. cf and coeff: the
    confidence and its z**2 as pessimistic_extra_errors takes them; fisher:
    the significance level (-1: none), log2fact the table Λ(0..cases).

    Returns (covered, error, kept, log): per candidate its cases covered and
    those of them wrong (K x 2) and its Pess, after dropping; per path entry
    whether its condition is kept; the log (step_start, dropped, errors,
    total, pess): candidate k's steps step_start[k]:step_start[k + 1], each
    step's dropped condition (its position among those left, -1: none) and
    rows (errors, total as int32 and pess as float64; per step the whole
    rule's, then those of each condition left, in path order). The log has a
    row per condition left at every step of every candidate, its size grows
    with the square of the paths' lengths: None when it would pass max_rows
    rows (-1: no bound; 0: not kept), its buffers freed as it passes."""
    cdef _Rules rules = _Rules(cont, disc, packed)
    cdef Packed* p = &rules.p
    cdef Py_ssize_t nodes = first_child.shape[0], K = targets.shape[0], n = p.n
    cdef Py_ssize_t v, b, k, j, m, max_m = 0, c
    if n_children.shape[0] != nodes or nodes < 1 or p.n_rules != nodes - 1 or \
            path_start.shape[0] != K + 1 or default_error.shape[0] != K or y.shape[0] != n:
        raise ValueError("c45: drop_conditions' arrays do not fit the tree")
    if fisher >= 0 and log2fact.shape[0] < n + 1:
        raise ValueError("c45: drop_conditions needs log2fact for 0..cases")
    # the tree: pre-order and subtree sizes; each path a chain of children
    # from the root
    parent = filled(nodes, -1)
    by_pre = np.empty(nodes, dtype=np.int64)
    pre = np.empty(nodes, dtype=np.int64)
    size = filled(nodes, 1)
    cdef int64_t[::1] par = parent, bp = by_pre, prv = pre, sz = size
    if walk(&first_child[0], &n_children[0], nodes, NULL, 0, &par[0], &bp[0],
            "drop_conditions") != nodes:
        raise ValueError("c45: drop_conditions' tree has nodes the root does not reach")
    for k in range(nodes):
        prv[bp[k]] = k
    for k in range(nodes - 1, 0, -1):                  # children before parents
        v = bp[k]
        sz[par[v]] += sz[v]
    if path_start[0] != 0 or path_start[K] != path_nodes.shape[0]:
        raise ValueError("c45: drop_conditions' paths do not cover path_nodes")
    for k in range(K):
        m = path_start[k + 1] - path_start[k]
        if m < 0:
            raise ValueError("c45: drop_conditions' paths go backwards")
        max_m = max(max_m, m)
        v = 0
        for j in range(path_start[k], path_start[k + 1]):
            c = path_nodes[j]
            if not 0 < c < nodes or par[c] != v:
                raise ValueError("c45: a drop_conditions path is no chain of children")
            v = c
    for k in range(K):
        if not 0 <= default_error[k] or not default_error[k] <= 1:
            raise ValueError("c45: drop_conditions' DefaultError out of range")
    cdef Dropping s
    memset(&s, 0, sizeof(Dropping))
    s.p = p
    s.y = &y[0] if n else NULL
    s.n = n
    s.f32, s.cf, s.coeff, s.fisher = f32, cf, coeff, fisher
    s.log2fact = &log2fact[0] if log2fact.shape[0] else NULL
    # the cases by their stop node's pre-order (a counting sort), each node's range
    stop = filled(n + 1, 0)
    order = np.empty(n + 1, dtype=np.int64)
    lo = np.empty(nodes, dtype=np.int64)
    hi = np.empty(nodes, dtype=np.int64)
    start = filled(nodes + 1, 0)
    cdef int64_t[::1] stv = stop, orv = order, lov = lo, hiv = hi, sv = start
    cdef const int64_t* pp = &path_nodes[0] if path_nodes.shape[0] else NULL
    covered = np.empty((K + 1, 2), dtype=np.int64)
    error = np.empty(K + 1, dtype=np.float64)
    kept = np.empty(path_nodes.shape[0] + 1, dtype=np.uint8)
    step_start = np.empty(K + 1, dtype=np.int64)
    cdef int64_t[:, ::1] cov = covered
    cdef double[::1] errv = error
    cdef uint8_t[::1] kv = kept
    cdef int64_t[::1] ssv = step_start
    cdef Interrupt intr
    cdef int status = 0
    cdef Py_ssize_t per_case = 2 * n + 1, per_position = max_m + 1
    s.w = <int64_t*> malloc(per_case * sizeof(int64_t))
    s.nxt = <int64_t*> malloc(per_case * sizeof(int64_t))
    s.cursor = <int64_t*> malloc(per_case * sizeof(int64_t))
    s.head = <int64_t*> malloc(per_position * sizeof(int64_t))
    s.add_t = <int64_t*> malloc(per_position * sizeof(int64_t))
    s.add_e = <int64_t*> malloc(per_position * sizeof(int64_t))
    s.alive = <uint8_t*> malloc(per_position)
    s.memo_t = <int64_t*> malloc(per_position * sizeof(int64_t))
    s.memo_e = <int64_t*> malloc(per_position * sizeof(int64_t))
    s.memo_actual = <double*> malloc(per_position * sizeof(double))
    s.memo_pess = <double*> malloc(per_position * sizeof(double))
    s.logging = max_rows != 0           # (the log's buffers grow from none)
    s.max_rows = max_rows
    try:
        if (s.w == NULL or s.nxt == NULL or s.cursor == NULL or s.head == NULL
                or s.add_t == NULL or s.add_e == NULL or s.alive == NULL
                or s.memo_t == NULL or s.memo_e == NULL or s.memo_actual == NULL
                or s.memo_pess == NULL):
            raise MemoryError()
        # (the work: at least a look at each case per condition of each path)
        start_looking(&intr, n * path_nodes.shape[0])
        try:
            if n * path_nodes.shape[0] >= RELEASE_FROM:
                with nogil:
                    status = drop_all(&s, &first_child[0], &n_children[0], nodes, &prv[0],
                                      &sz[0], &stv[0], &sv[0], &orv[0], &lov[0], &hiv[0],
                                      &path_start[0], pp, &targets[0] if K else NULL,
                                      &default_error[0] if K else NULL, &cov[0, 0],
                                      &errv[0], &kv[0], &ssv[0], K, &intr)
            else:
                status = drop_all(&s, &first_child[0], &n_children[0], nodes, &prv[0],
                                  &sz[0], &stv[0], &sv[0], &orv[0], &lov[0], &hiv[0],
                                  &path_start[0], pp, &targets[0] if K else NULL,
                                  &default_error[0] if K else NULL, &cov[0, 0],
                                  &errv[0], &kv[0], &ssv[0], K, &intr)
        finally:
            interrupt_end(&intr)
        if intr.stop:
            raise_interrupt()
        if status < 0:
            raise MemoryError()
        trace = None
        if s.logging:
            # the log's buffers handed over, not copied (a deep tree's are hundreds of MB)
            trace = (step_start,
                   owned(<void**> &s.step_drop, s.steps, cnp.NPY_INT64, sizeof(int64_t)),
                   owned(<void**> &s.row_e, s.rows, cnp.NPY_INT32, sizeof(int32_t)),
                   owned(<void**> &s.row_t, s.rows, cnp.NPY_INT32, sizeof(int32_t)),
                   owned(<void**> &s.row_p, s.rows, cnp.NPY_FLOAT64, sizeof(double)))
    finally:
        free(s.w); free(s.nxt); free(s.cursor); free(s.head); free(s.add_t)
        free(s.add_e); free(s.alive); free(s.memo_t); free(s.memo_e)
        free(s.memo_actual); free(s.memo_pess); free(s.row_e); free(s.row_t)
        free(s.row_p); free(s.step_drop)
    return covered[:K], error[:K], kept[:path_nodes.shape[0]].view(bool), trace


def fisher_statistic(int64_t a, int64_t b, int64_t c, int64_t d, const double[::1] log2fact):
    """Release 8's significance of a condition (``-F``): the one-tailed Fisher sum
    over the 2x2 table [[a, b], [c, d]] and the tables more extreme in its
    direction (rows: condition satisfied or not; columns: the rule's class or
    not), each term taken as e raised to its log2 probability, that is P**(1/ln 2)
    (c4.5rules sums log2 factorials and exponentiates them with exp); log2fact:
    Λ(0..a + b + c + d).

    In the R8 corpus, at the level 0.1, this gives Release 8's rules under -F 10
    on all 300 problems; the true Fisher p-value (the same sum of P) on 66. A
    lone term fails the level L when P > L**ln 2 (0.203 for 10%)."""
    if min(a, b, c, d) < 0 or log2fact.shape[0] <= a + b + c + d:
        raise ValueError("c45: fisher_statistic needs counts >= 0 and log2fact up to their sum")
    return fisher_p(a, b, c, d, &log2fact[0])


def leaf_paths(const int8_t[::1] kind, const double[::1] weight,
               const int32_t[::1] first_child, const int32_t[::1] n_children, int leaf_kind):
    """The leaves that give candidate rules, those of Items >= 1, depth-first,
    branches in order, the nodes below the root on each one's path and each
    node's parent: (leaves, path_start, path_nodes, parent), leaf k's
    path_nodes[path_start[k]:path_start[k + 1]], parent -1 for the root (and
    the nodes below leaves).
    One pass keeping the GIL (numpy's calls a level at a time gave it up a
    few hundred times a fit; Python lists of a deep tree's millions of path
    nodes were seconds of objects)."""
    cdef Py_ssize_t nodes = kind.shape[0], v, k, seen, K = 0, total = 0
    if weight.shape[0] != nodes or first_child.shape[0] != nodes or \
            n_children.shape[0] != nodes or nodes < 1:
        raise ValueError("c45: leaf_paths' tree arrays differ in length")
    parent = filled(nodes, -1)
    by_pre = np.empty(nodes, dtype=np.int64)
    depth = filled(nodes, 0)
    leaves = np.empty(nodes, dtype=np.int64)
    cdef int64_t[::1] par = parent, bp = by_pre, dep = depth, lv = leaves
    seen = walk(&first_child[0], &n_children[0], nodes, &kind[0], leaf_kind, &par[0],
                &bp[0], "leaf_paths")
    for k in range(seen):
        v = bp[k]
        if k:                           # (a parent before its children)
            dep[v] = dep[par[v]] + 1
        if kind[v] == leaf_kind and weight[v] >= 1.0:
            lv[K] = v
            K += 1
            total += dep[v]
    start = np.empty(K + 1, dtype=np.int64)
    path = np.empty(total + 1, dtype=np.int64)
    cdef int64_t[::1] sv = start, pv = path
    cdef int64_t at
    sv[0] = 0
    for k in range(K):
        sv[k + 1] = sv[k] + dep[lv[k]]
        v = lv[k]
        at = sv[k + 1] - 1
        while v > 0:                    # from the leaf up
            pv[at] = v
            at -= 1
            v = par[v]
    return leaves[:K], start, path[:total], parent
