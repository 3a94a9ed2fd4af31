"""A tree's arrays checked in one compiled pass: Tree's own checks (what the C
walkers need) and the loaded model's invariants (c45/_validate_tree.py).

Beside a busy Python thread each GIL release costs a switch interval, and numpy
releases the GIL in nearly every call on a large array: a check written as numpy
expressions released it about 45 times per tree. Here every check is a C loop,
run without the GIL on trees of NOGIL_NODES nodes or more and with it below
(such a pass takes less than a switch interval). The row sums (and a model's
children's weight sums) are numpy's, added in numpy's order (c45/_sums.pxd): the
sums these checks always compared.

Each check runs over all nodes in turn and the first failing check reports its
first failing node, as the checks always have: the loops run in the order of the
messages below and stop at the first failure.
"""
import numpy as np
cimport numpy as cnp

from libc.math cimport isfinite, fabs, INFINITY
from libc.float cimport FLT_MAX
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy, memcmp
from libc.stdint cimport int32_t, int64_t

from c45._types cimport LEAF, DISCRETE, CONTINUOUS, SUBSET
from c45._sums cimport pairwise, run_sum
from c45._criterion cimport rnd, extra_errors, pessimistic_coeff
from c45._interrupt cimport (interrupt_init, interrupt_end, interrupted, raise_interrupt,
                             look_by_cells, check_by_cells)
from c45._types cimport Interrupt
from c45._gil cimport NOGIL_WORK

from c45._bulk import pickled_copy, zeros     # numpy's give the GIL up from 1 kB

cnp.import_array()

# The node arrays of a Tree, in order, and their dtypes.
FIELDS = ("kind", "feature", "first_child", "n_children", "node_class",
          "threshold", "weight", "errors", "value", "map_offset", "value_map")
DTYPES = (np.int8, np.int32, np.int32, np.int32, np.int32, np.float64,
          np.float64, np.float64, np.float64, np.int64, np.int32)
# The fields of another length than one entry per node (row of value per node).
NOT_PER_NODE = ("value_map",)
MAX_TREE_NODES = 2**31 - 2          # node and child indices are int32
# Trees of this many nodes or more are checked without the GIL (one release),
# looking for signals; so are trees of NOGIL_WORK class weights or more (a pass
# over them was 0.2 s at 16k nodes of 5,000 classes).
NOGIL_NODES = 1 << 16


def row_sums(const double[:, ::1] value):
    """value.sum(axis=1), the same numbers, without a numpy call (looking for
    signals every LOOK_CELLS class weights)."""
    cdef Py_ssize_t i, n = value.shape[0], k = value.shape[1], cells = 0
    out = np.empty(n, dtype=np.float64)
    cdef double[::1] o = out
    if k:
        for i in range(n):
            o[i] = pairwise(&value[i, 0], k)
            check_by_cells(&cells, k)
    else:
        o[:] = 0.0
    return out


def tree_error(msg):
    return ValueError(f"c45: invalid tree: {msg}")


def as_field(name, dtype, arr, bint copy=True):
    """arr as a C-contiguous array of the field's dtype, refusing a cast that would
    change a value (float -> int truncation, int64 -> int32 wrap, objects). A copy
    unless copy=False and arr is already one (an array made for the tree alone)."""
    try:
        a = np.asarray(arr)
    except ValueError:                  # ragged nested lists
        raise tree_error(f"{name} is not an array") from None
    want = np.dtype(dtype)
    if a.dtype.kind not in ("iub" if want.kind == "i" else "iubf"):
        raise tree_error(f"{name} has dtype {a.dtype}, expected {want}")
    if a.dtype == want and a.flags.c_contiguous:
        # numpy's own dtype object, not an equal one an unpickled array carries,
        # so a round trip pickles to the same bytes.
        if not copy:
            return a if a.dtype is want else a.view(want)
        # Copied by pickled_copy (numpy's copy releases the GIL on a short copy;
        # a long one, hundreds of MB of class weights, looks for signals)
        return pickled_copy(a)
    # Other dtypes and layouts (trees a caller builds by hand) cast as numpy casts.
    out = np.array(a, dtype=want, copy=True, order="C").view(want)
    if a.size and want.kind == "i" and not np.array_equal(out, a):
        raise tree_error(f"{name} holds values out of the range of {want}")
    return out


def count_nonfinite(const double[::1] a):
    """np.count_nonzero(~np.isfinite(a)), with the GIL held (the JSON loader's
    check of every float array it reads)."""
    cdef Py_ssize_t i, count = 0
    for i in range(a.shape[0]):
        count += not isfinite(a[i])
    return count


# ---------------------------------------------------------------------------
# Tree's checks: what the C walkers rely on.

cdef enum:      # the checks, in the order they are reported
    OK = 0
    KIND
    CLASS
    WEIGHT
    ERRORS
    VALUE
    SUMS
    LEAF_CHILDREN
    CHILD_RANGE
    PARENTS
    TEST_WEIGHT
    CONTINUOUS_TEST
    OFFSET
    N_VALUES
    FEATURE
    KIND_MATCH
    BRANCHES
    SUBSET_RANGE
    SUBSET_MAP
    NO_MEMORY


# Either pass stopped (a signal handler raised: the caller raises it), in
# Failure.check: the passes look for signals between their loops (a few ms each
# at a million nodes) when they run without the GIL.
cdef int STOPPED = -1


cdef struct Failure:
    int check
    Py_ssize_t node
    int64_t extra               # PARENTS: the node's number of parents


cdef inline bint fail(Failure* out, int check, Py_ssize_t node) noexcept nogil:
    out.check = check
    out.node = node
    return True


cdef bint tree_failure(const signed char[::1] kind, const int32_t[::1] feature,
                       const int32_t[::1] first, const int32_t[::1] nch,
                       const int32_t[::1] node_class, const double[::1] threshold,
                       const double[::1] weight, const double[::1] errors,
                       const double[:, ::1] value, const double[::1] sums,
                       const int64_t[::1] offset, const int32_t[::1] value_map,
                       const int32_t[::1] n_values, int nv_mode,
                       Failure* out, Interrupt* intr) noexcept nogil:
    """The first failing check and its first failing node (nv_mode: 0 no n_values,
    1 given, 2 given but not 1-D). Shapes were checked by the caller."""
    cdef Py_ssize_t n = kind.shape[0], k = value.shape[1], i, c, j, cells = 0
    cdef Py_ssize_t n_maps = value_map.shape[0], n_feat = n_values.shape[0]
    cdef int64_t s, b, o, v, m, parents
    cdef int64_t* cover
    cdef double x
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if kind[i] != LEAF and kind[i] != DISCRETE and kind[i] != CONTINUOUS \
                and kind[i] != SUBSET:
            return fail(out, KIND, i)
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if node_class[i] < 0 or node_class[i] >= k:
            return fail(out, CLASS, i)
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if not (isfinite(weight[i]) and weight[i] >= 0):
            return fail(out, WEIGHT, i)
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if not (isfinite(errors[i]) and errors[i] >= 0):
            return fail(out, ERRORS, i)
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        for c in range(k):
            x = value[i, c]
            if not (isfinite(x) and x >= 0):
                return fail(out, VALUE, i)
        if look_by_cells(&cells, k, intr):
            return fail(out, STOPPED, 0)
    # Prediction divides a leaf's class weights by its weight (when > 0): a row of
    # zeros, or class weights summing to inf, would give no or NaN probabilities.
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if weight[i] > 0 and not (sums[i] > 0 and isfinite(sums[i])):
            return fail(out, SUMS, i)
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if kind[i] == LEAF and nch[i] != 0:
            return fail(out, LEAF_CHILDREN, i)
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if kind[i] != LEAF:
            s, b = first[i], nch[i]
            if b < 1 or s <= i or s + b > n:
                return fail(out, CHILD_RANGE, i)
    # Every node but the root is the child of exactly one node; as children come
    # after their parent, following parents ends at the root: no cycle.
    cover = <int64_t*> calloc(n + 1, sizeof(int64_t))
    if cover == NULL:
        return fail(out, NO_MEMORY, 0)
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if kind[i] != LEAF:
            cover[first[i]] += 1
            cover[first[i] + nch[i]] -= 1
    parents = 0
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        parents += cover[i]
        if parents != (0 if i == 0 else 1):
            free(cover)
            out.extra = parents
            return fail(out, PARENTS, i)
    free(cover)
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if kind[i] != LEAF and weight[i] <= 0:
            return fail(out, TEST_WEIGHT, i)
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if kind[i] == CONTINUOUS and (nch[i] != 2 or not isfinite(threshold[i])):
            return fail(out, CONTINUOUS_TEST, i)
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if offset[i] < -1 or offset[i] >= (n_maps if n_maps > 1 else 1):
            return fail(out, OFFSET, i)
    if nv_mode == 2:
        return fail(out, N_VALUES, 0)
    if nv_mode == 1:
        for j in range(n_feat):
            if n_values[j] < 0:
                return fail(out, N_VALUES, 0)
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if kind[i] != LEAF and (feature[i] < 0 or (nv_mode == 1 and feature[i] >= n_feat)):
            return fail(out, FEATURE, i)
    if nv_mode == 0:
        return False
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if kind[i] != LEAF and (kind[i] == CONTINUOUS) != (n_values[feature[i]] == 0):
            return fail(out, KIND_MATCH, i)
    # A discrete test has a branch per category at most, a subset test one more.
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if kind[i] == DISCRETE or kind[i] == SUBSET:
            if nch[i] > <int64_t> n_values[feature[i]] + (kind[i] == SUBSET):
                return fail(out, BRANCHES, i)
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if kind[i] == SUBSET:
            o, v = offset[i], n_values[feature[i]]
            if o < 0 or o + v >= n_maps:
                return fail(out, SUBSET_RANGE, i)
            for j in range(o, o + v + 1):
                m = value_map[j]
                if m < 0 or m > nch[i]:
                    return fail(out, SUBSET_MAP, i)
    return False


def check_tree_arrays(a, n_values=None):
    """Raise ValueError unless the arrays (a dict of FIELDS, each C-contiguous in its
    dtype, as as_field makes them) form a tree the C walkers can walk: shapes, a
    tree structure with children after their parent (so no cycles), indices in
    range, finite non-negative weights, and, given n_values (int32, per feature its
    categories; 0 continuous), tests that match their feature."""
    kind, feature, first, nch = a["kind"], a["feature"], a["first_child"], a["n_children"]
    value, value_map, offset = a["value"], a["value_map"], a["map_offset"]
    n = kind.shape[0] if kind.ndim == 1 else -1      # kind's shape refused below
    for name in FIELDS:
        want = 2 if name == "value" else 1
        if a[name].ndim != want:
            raise tree_error(f"{name} must be {want}-dimensional, got shape "
                             f"{a[name].shape}")
        if name not in NOT_PER_NODE and a[name].shape[0] != n:
            raise tree_error(f"{name} has {a[name].shape[0]} entries for {n} nodes")
    if not 1 <= n <= MAX_TREE_NODES:
        raise tree_error(f"{n} nodes (1 to {MAX_TREE_NODES} allowed)")
    k = value.shape[1]
    if k < 1:
        raise tree_error("value has no class column")
    if len(value_map) > MAX_TREE_NODES:
        raise tree_error(f"value_map has {len(value_map)} entries")
    nv_mode = 0 if n_values is None else 1 if n_values.ndim == 1 else 2
    nv = n_values if nv_mode == 1 else np.zeros(0, np.int32)
    sums = row_sums(value)              # refused below when they are not finite
    cdef Failure f
    f.check = OK
    f.extra = 0
    cdef const signed char[::1] kv = kind
    cdef const int32_t[::1] fv = feature, cv = first, bv = nch, lv = a["node_class"]
    cdef const double[::1] tv = a["threshold"], wv = a["weight"], ev = a["errors"]
    cdef const double[:, ::1] vv = value
    cdef const double[::1] sv = sums
    cdef const int64_t[::1] ov = offset
    cdef const int32_t[::1] mv = value_map, nvv = nv
    cdef int mode = nv_mode
    cdef Interrupt intr
    if n >= NOGIL_NODES or n * k >= NOGIL_WORK:
        interrupt_init(&intr)
        try:
            with nogil:
                tree_failure(kv, fv, cv, bv, lv, tv, wv, ev, vv, sv, ov, mv, nvv, mode, &f,
                             &intr)
        finally:
            interrupt_end(&intr)
        if f.check == STOPPED:
            raise_interrupt()
    else:
        tree_failure(kv, fv, cv, bv, lv, tv, wv, ev, vv, sv, ov, mv, nvv, mode, &f, NULL)
    if f.check == OK:
        return
    i, check = f.node, f.check
    if check == NO_MEMORY:
        raise MemoryError("c45: out of memory checking a tree")
    if check == KIND:
        raise tree_error(f"node {i} has unknown kind {kind[i]}")
    if check == CLASS:
        raise tree_error(f"node {i} has class index {a['node_class'][i]}, not in "
                         f"0..{k - 1}")
    if check in (WEIGHT, ERRORS):
        name = "weight" if check == WEIGHT else "errors"
        raise tree_error(f"node {i} has {name} {a[name][i]} (finite, >= 0 needed)")
    if check == VALUE:
        raise tree_error(f"node {i} has class weights {value[i].tolist()} (finite, "
                         f">= 0 needed)")
    if check == SUMS:
        raise tree_error(f"node {i} has weight {a['weight'][i]} but its class "
                         f"weights sum to {sums[i]}")
    if check == LEAF_CHILDREN:
        raise tree_error(f"node {i} is a leaf with children")
    if check == CHILD_RANGE:
        raise tree_error(f"node {i} has children out of range (first_child "
                         f"{int(first[i])}, n_children {int(nch[i])}, {n} nodes)")
    if check == PARENTS:
        raise tree_error(f"node {i} has {f.extra} parents (not a tree)")
    if check == TEST_WEIGHT:
        raise tree_error(f"node {i} is a test with weight 0 (unknown values descend "
                         f"by weight share)")
    if check == CONTINUOUS_TEST:
        raise tree_error(f"node {i}: a continuous test needs 2 branches and a finite "
                         f"threshold")
    if check == OFFSET:
        raise tree_error(f"node {i} has map_offset {offset[i]} out of range")
    if check == N_VALUES:
        raise tree_error("n_values must be a 1-D array of category counts")
    if check == FEATURE:
        raise tree_error(f"node {i} tests feature {int(feature[i])}, out of range")
    if check == KIND_MATCH:
        raise tree_error(f"node {i}: its test kind does not match feature {feature[i]}'s "
                         f"kind (a {'continuous' if kind[i] == CONTINUOUS else 'discrete'} "
                         f"test on a {'discrete' if n_values[feature[i]] else 'continuous'} "
                         f"feature)")
    if check == BRANCHES:
        raise tree_error(f"node {i} has {nch[i]} branches for feature {feature[i]}'s "
                         f"{n_values[feature[i]]} categories")
    if check == SUBSET_RANGE:
        raise tree_error(f"node {i} has a subset map out of range")
    raise tree_error(f"node {i} maps a category to a branch out of range")


# ---------------------------------------------------------------------------
# Soft thresholds' bounds (c45/_soft.pyx): optional per-node fields of a Tree.

cdef Py_ssize_t bounds_failure(const signed char[::1] kind, const double[::1] threshold,
                               const double[::1] lower, const double[::1] upper,
                               int* which) noexcept nogil:
    """The first node whose bounds are wrong (-1: none): a continuous test needs
    finite bounds with lower <= threshold <= upper (which: 1 lower, 2 upper),
    every other node NaN ones (which: 3 lower, 4 upper)."""
    cdef Py_ssize_t i
    for i in range(kind.shape[0]):
        if kind[i] == CONTINUOUS:
            if not (isfinite(lower[i]) and lower[i] <= threshold[i]):
                which[0] = 1
                return i
            if not (isfinite(upper[i]) and upper[i] >= threshold[i]):
                which[0] = 2
                return i
        elif lower[i] == lower[i]:
            which[0] = 3
            return i
        elif upper[i] == upper[i]:
            which[0] = 4
            return i
    return -1


def check_soft_bounds(kind, threshold, lower, upper):
    """Raise ValueError naming the field and node unless lower and upper (float64,
    one entry per node) are soft bounds of the tree's continuous tests."""
    for name, arr in (("lower", lower), ("upper", upper)):
        if arr.ndim != 1 or arr.shape[0] != kind.shape[0]:
            raise tree_error(f"{name} has shape {arr.shape} for {kind.shape[0]} nodes")
    cdef const signed char[::1] kv = kind
    cdef const double[::1] tv = threshold, lv = lower, uv = upper
    cdef int which = 0
    cdef Py_ssize_t i
    if kv.shape[0] >= NOGIL_NODES:
        with nogil:
            i = bounds_failure(kv, tv, lv, uv, &which)
    else:
        i = bounds_failure(kv, tv, lv, uv, &which)
    if i < 0:
        return
    name = "lower" if which in (1, 3) else "upper"
    value = float((lower if name == "lower" else upper)[i])
    if which == 1:
        raise tree_error(f"lower[{i}] is {value!r}: a soft threshold's lower bound is "
                         f"finite and at most the threshold {float(threshold[i])!r}")
    if which == 2:
        raise tree_error(f"upper[{i}] is {value!r}: a soft threshold's upper bound is "
                         f"finite and at least the threshold {float(threshold[i])!r}")
    raise tree_error(f"{name}[{i}] is {value!r}, but node {i} is not a continuous "
                     f"test (NaN there)")


# ---------------------------------------------------------------------------
# A model's invariants (their rules and messages: c45/_validate_tree.py).

cdef enum:      # the invariants, in the order they are reported
    M_OK = 0
    M_F32_WEIGHT
    M_F32_VALUE
    M_SUMS
    M_CLASS
    M_ERRORS
    M_CHILDREN
    M_LEAF_ERRORS
    M_TEST_ERRORS
    M_FEATURE
    M_DISCRETE
    M_SUBSET
    M_THRESHOLD
    M_OFFSET
    M_SHARED_MAP
    M_UNKNOWN_SLOT
    M_LEAF_FEATURE
    M_LEAF_CHILD
    M_NO_MEMORY

MODEL_CHECKS = {M_F32_WEIGHT: "float32 weight", M_F32_VALUE: "float32 value",
                M_SUMS: "sums", M_CLASS: "class", M_ERRORS: "errors",
                M_CHILDREN: "children", M_LEAF_ERRORS: "leaf errors",
                M_TEST_ERRORS: "test errors", M_FEATURE: "feature", M_DISCRETE: "discrete",
                M_SUBSET: "subset", M_THRESHOLD: "threshold", M_OFFSET: "map_offset",
                M_SHARED_MAP: "shared map", M_UNKNOWN_SLOT: "unknown slot",
                M_LEAF_FEATURE: "leaf feature", M_LEAF_CHILD: "leaf first_child",
                M_NO_MEMORY: "memory"}


cdef inline bint not_f32(double x) noexcept nogil:
    # |x| > FLT_MAX is no binary32 number (and would round to inf or FLT_MAX).
    return fabs(x) > FLT_MAX or <double> <float> x != x


cdef inline bint off(double got, double want, double rtol, double atol) noexcept nogil:
    """got differs from want by more than fit's rounding could make it (the
    expression numpy evaluated: |got - want| > rtol * max(got, want) + atol)."""
    return fabs(got - want) > rtol * (got if got >= want else want) + atol


cdef inline bint off_leaf(double got, double want, double weight, double rtol,
                          double atol) noexcept nogil:
    """A leaf's errors got differ from want by more than fit's rounding: errors
    are weight less a class's weight, and a collapsed subtree's the sum of such
    differences, so they are rounded on the scale of the weight, not of their
    own (a float32 leaf of weight 5.57 holds errors 8.15e-5 one weight's ulp,
    4.8e-7, above its own 8.11e-5)."""
    cdef double scale = got if got >= want else want
    scale = weight if weight > scale else scale
    return fabs(got - want) > rtol * scale + atol


# How a tree's errors were made (ERRORS_RULES: c45/_validate_tree.py names them).
cdef enum:
    ERRORS_TRAINING = 0     # grown: training errors, a test the sum of its children's
    ERRORS_KEPT             # pruned without estimates: leaves as grown, tests unchecked
    ERRORS_PESSIMISTIC      # pessimistic estimates, a test the sum of its children's
    ERRORS_RANGE            # only the range check (a rule not known)

ERRORS_RULES = {"training": ERRORS_TRAINING, "kept": ERRORS_KEPT,
                "pessimistic": ERRORS_PESSIMISTIC, "range": ERRORS_RANGE}
# A subtree collapsed into a leaf while growing keeps its errors' sum, which is
# less than the leaf's own training errors by less than this (C4.5's epsilon).
cdef double COLLAPSE_MARGIN = 1e-3


cdef inline double leaf_errors(bint f32, double weight, double best, int rule, double cf,
                               double coeff) noexcept nogil:
    """A leaf's errors as fit stores them: weight less its class's weight (0 for
    an empty leaf), plus the pessimistic extra errors U(N, E) under that rule."""
    cdef double e = rnd(f32, weight - best) if weight > 0 else 0.0
    if rule == ERRORS_PESSIMISTIC:
        return rnd(f32, e + extra_errors(f32, weight, e, cf, coeff))
    return e


cdef Py_ssize_t run_off(const signed char[::1] kind, const int32_t[::1] first,
                        const Py_ssize_t[::1] starts, const double[::1] run_value,
                        const double[::1] node_value, double rtol, double atol,
                        Failure* out) noexcept nogil:
    """The first test whose run of children (run_value[j] for the run starting
    at starts[j]) is off its own node_value, out.extra the run; -1 if none, -2
    out of memory."""
    cdef Py_ssize_t i, j, n = kind.shape[0]
    cdef int32_t* rank = <int32_t*> malloc(n * sizeof(int32_t))
    if rank == NULL:
        return -2
    for j in range(starts.shape[0]):
        rank[starts[j]] = <int32_t> j
    for i in range(n):
        if kind[i] != LEAF and off(run_value[rank[first[i]]], node_value[i], rtol, atol):
            out.extra = rank[first[i]]
            free(rank)
            return i
    free(rank)
    return -1


cdef bint model_failure(const signed char[::1] kind, const int32_t[::1] feature,
                        const int32_t[::1] first, const int32_t[::1] nch,
                        const int32_t[::1] node_class, const double[::1] threshold,
                        const double[::1] weight,
                        const double[::1] errors, const double[:, ::1] value,
                        const double[::1] sums, const Py_ssize_t[::1] starts,
                        const double[::1] child_sums, const int64_t[::1] offset,
                        const int32_t[::1] value_map, const int32_t[::1] n_values,
                        const double[::1] child_errors,
                        bint f32, double rtol, double atol, int rule, double cf,
                        Failure* out, Interrupt* intr) noexcept nogil:
    """The first failing invariant and its first failing node. child_sums[j] is
    the weight sum of the run of children starting at starts[j] (sorted),
    child_errors[j] its errors' sum. rule: ERRORS_*; cf: the pessimistic CF."""
    cdef Py_ssize_t n = kind.shape[0], k = value.shape[1], i, c, j, cells = 0
    cdef Py_ssize_t n_feat = n_values.shape[0], n_maps = value_map.shape[0]
    cdef int64_t o, v, b, m
    cdef double best, limit, low, want
    cdef double coeff = pessimistic_coeff(f32, cf) if rule == ERRORS_PESSIMISTIC else 0.0
    cdef int64_t* held
    cdef unsigned char* mapped
    if f32:
        for i in range(n):
            if not_f32(weight[i]):
                return fail(out, M_F32_WEIGHT, i)
        for i in range(n):
            for c in range(k):
                if not_f32(value[i, c]):
                    return fail(out, M_F32_VALUE, i)
            if look_by_cells(&cells, k, intr):
                return fail(out, STOPPED, 0)
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if weight[i] > 0 and off(sums[i], weight[i], rtol, atol):
            return fail(out, M_SUMS, i)
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if weight[i] > 0:
            best = value[i, 0]
            for c in range(1, k):
                best = value[i, c] if value[i, c] > best else best
            if value[i, node_class[i]] < best:
                return fail(out, M_CLASS, i)
        if look_by_cells(&cells, k, intr):
            return fail(out, STOPPED, 0)
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        limit = weight[i] if rule == ERRORS_TRAINING else 2 * weight[i]
        low = errors[i] if errors[i] <= limit else limit
        if off(low, errors[i], rtol, atol):
            return fail(out, M_ERRORS, i)
    if starts.shape[0]:
        i = run_off(kind, first, starts, child_sums, weight, rtol, atol, out)
        if i != -1:
            return fail(out, M_CHILDREN, i) if i >= 0 else fail(out, M_NO_MEMORY, 0)
    if rule != ERRORS_RANGE:
        for i in range(n):
            if kind[i] != LEAF:
                continue
            want = leaf_errors(f32, weight[i], value[i, node_class[i]], rule, cf, coeff)
            if errors[i] > want and off_leaf(errors[i], want, weight[i], rtol, atol):
                return fail(out, M_LEAF_ERRORS, i)
            # (a collapsed subtree's sum, within the margin below a leaf's own)
            low = want - COLLAPSE_MARGIN if rule != ERRORS_PESSIMISTIC else want
            if errors[i] < low and off_leaf(errors[i], low, weight[i], rtol, atol):
                return fail(out, M_LEAF_ERRORS, i)
    if starts.shape[0] and (rule == ERRORS_TRAINING or rule == ERRORS_PESSIMISTIC):
        i = run_off(kind, first, starts, child_errors, errors, rtol, atol, out)
        if i != -1:
            return fail(out, M_TEST_ERRORS, i) if i >= 0 else fail(out, M_NO_MEMORY, 0)
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):          # the tree was checked for other features
        if kind[i] != LEAF and not 0 <= feature[i] < n_feat:
            return fail(out, M_FEATURE, i)
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if kind[i] == DISCRETE and nch[i] != n_values[feature[i]]:
            return fail(out, M_DISCRETE, i)
    held = <int64_t*> malloc((n_maps + 2) * sizeof(int64_t))
    if held == NULL:
        return fail(out, M_NO_MEMORY, 0)
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if kind[i] != SUBSET:
            continue
        o, v, b = offset[i], n_values[feature[i]], nch[i]
        # Tree checked o + v < len(value_map) and every map entry in 0..b.
        if b > n_maps or o < 0 or o + v >= n_maps:
            free(held)
            return fail(out, M_SUBSET, i)
        for j in range(b + 1):
            held[j] = 0
        for j in range(o + 1, o + v + 1):
            m = value_map[j]
            if 0 <= m <= b:
                held[m] += 1
        for j in range(1, b + 1):
            if held[j] == 0:
                out.extra = j - 1
                free(held)
                return fail(out, M_SUBSET, i)
    free(held)
    # What fit leaves empty off a test's kind: a value there is a damaged file,
    # and a map read by two nodes is no map fit makes.
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if kind[i] != CONTINUOUS and threshold[i] == threshold[i]:
            return fail(out, M_THRESHOLD, i)
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if kind[i] != SUBSET and offset[i] != -1:
            return fail(out, M_OFFSET, i)
    mapped = <unsigned char*> calloc(n_maps + 1, 1)
    if mapped == NULL:
        return fail(out, M_NO_MEMORY, 0)
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if kind[i] == SUBSET:
            for j in range(offset[i], offset[i] + n_values[feature[i]] + 1):
                if mapped[j]:
                    free(mapped)
                    return fail(out, M_SHARED_MAP, i)
                mapped[j] = 1
    free(mapped)
    # Nor reads a walk: a subset map's first slot (an unknown value goes down
    # every branch; fit sets 0) and a leaf's feature and first child (fit: -1).
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if kind[i] == SUBSET and value_map[offset[i]] != 0:
            out.extra = offset[i]
            return fail(out, M_UNKNOWN_SLOT, i)
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if kind[i] == LEAF and feature[i] != -1:
            return fail(out, M_LEAF_FEATURE, i)
    if interrupted(intr):
        return fail(out, STOPPED, 0)
    for i in range(n):
        if kind[i] == LEAF and first[i] != -1:
            return fail(out, M_LEAF_CHILD, i)
    return False


def first_of_kind(const signed char[::1] kind, signed char which):
    """The first node of kind `which`, -1 if none (a pass holding the GIL: no
    numpy comparison that gives it up on a big tree)."""
    cdef Py_ssize_t i
    for i in range(kind.shape[0]):
        if kind[i] == which:
            return i
    return -1


def tested_features(const signed char[::1] kind, const int32_t[::1] feature):
    """The features the tests of a (checked) tree test, in increasing order
    (np.unique(feature[kind != LEAF]) without numpy's GIL releases)."""
    cdef Py_ssize_t n = kind.shape[0], i, top = -1
    for i in range(n):
        if kind[i] != LEAF and feature[i] > top:
            top = feature[i]
    cdef unsigned char[::1] mark = zeros(top + 1, np.uint8)
    for i in range(n):
        if kind[i] != LEAF:
            mark[feature[i]] = 1
    return [f for f in range(top + 1) if mark[f]]


def child_run_starts(const signed char[::1] kind, const int32_t[::1] first):
    """The tests' first children, sorted: where each test's run of children starts
    (Tree checked that the runs partition nodes 1..n-1)."""
    cdef Py_ssize_t n = kind.shape[0], i, count = 0
    cdef unsigned char[::1] mark = zeros(n, np.uint8)
    for i in range(n):
        if kind[i] != LEAF:
            mark[first[i]] = 1
            count += 1
    starts = np.empty(count, np.intp)
    cdef Py_ssize_t[::1] sv = starts
    count = 0
    for i in range(n):
        if mark[i]:
            sv[count] = i
            count += 1
    return starts


def run_sums(const double[::1] a, const Py_ssize_t[::1] starts):
    """np.add.reduceat(a, starts) for ascending starts, the same numbers, without
    a numpy call: the sums of the runs from each start to the next (the last to
    the end)."""
    cdef Py_ssize_t j, m = starts.shape[0], n = a.shape[0], end
    out = np.empty(m, dtype=np.float64)
    cdef double[::1] o = out
    for j in range(m):
        end = starts[j + 1] if j + 1 < m else n
        if not (0 <= starts[j] < end <= n):
            raise ValueError(f"c45: run {j} of a tree's children is out of order")
        o[j] = run_sum(&a[starts[j]], end - starts[j])
    return out


def first_not_binary32(const double[::1] a):
    """The first index whose value is not a binary32 number (NaN and infinities
    are), -1 for none."""
    cdef Py_ssize_t i
    cdef double x
    for i in range(a.shape[0]):
        x = a[i]
        if x == x and fabs(x) != INFINITY and not_f32(x):
            return i
    return -1


def model_tree_failure(tree, n_values, bint f32, double rtol, double atol, rule,
                       double cf=0.0):
    """(invariant name, node, extra) of the first invariant tree breaks, or None.
    rule: how its errors were made (a key of ERRORS_RULES), cf: the CF of
    pessimistic estimates. extra: sums: the node's class weight sum; children:
    its children's weight sum; leaf errors: what fit would store; test errors:
    its children's errors' sum; subset: the 0-based branch given no category."""
    cdef int mode = ERRORS_RULES[rule]
    weight = tree.weight
    sums = row_sums(tree.value)
    starts = child_run_starts(tree.kind, tree.first_child)
    child_sums = run_sums(weight, starts)
    child_errors = run_sums(tree.errors, starts)
    cdef Failure f
    f.check = M_OK
    f.extra = 0
    cdef const signed char[::1] kv = tree.kind
    cdef const int32_t[::1] fv = tree.feature, cv = tree.first_child
    cdef const int32_t[::1] bv = tree.n_children, lv = tree.node_class
    cdef const double[::1] tv = tree.threshold
    cdef const double[::1] wv = weight, ev = tree.errors, sv = sums, csv = child_sums
    cdef const double[::1] cev = child_errors
    cdef const double[:, ::1] vv = tree.value
    cdef const Py_ssize_t[::1] stv = starts
    cdef const int64_t[::1] ov = tree.map_offset
    cdef const int32_t[::1] mv = tree.value_map
    cdef const int32_t[::1] nvv = np.ascontiguousarray(n_values, dtype=np.int32)
    cdef Interrupt intr
    if kv.shape[0] >= NOGIL_NODES or kv.shape[0] * vv.shape[1] >= NOGIL_WORK:
        interrupt_init(&intr)
        try:
            with nogil:
                model_failure(kv, fv, cv, bv, lv, tv, wv, ev, vv, sv, stv, csv, ov, mv, nvv,
                              cev, f32, rtol, atol, mode, cf, &f, &intr)
        finally:
            interrupt_end(&intr)
        if f.check == STOPPED:
            raise_interrupt()
    else:
        model_failure(kv, fv, cv, bv, lv, tv, wv, ev, vv, sv, stv, csv, ov, mv, nvv,
                      cev, f32, rtol, atol, mode, cf, &f, NULL)
    if f.check == M_OK:
        return None
    if f.check == M_NO_MEMORY:
        raise MemoryError("c45: out of memory checking a tree")
    if f.check == M_CHILDREN:
        return MODEL_CHECKS[f.check], f.node, float(child_sums[f.extra])
    if f.check == M_SUMS:
        return MODEL_CHECKS[f.check], f.node, float(sums[f.node])
    if f.check == M_TEST_ERRORS:
        return MODEL_CHECKS[f.check], f.node, float(child_errors[f.extra])
    if f.check == M_LEAF_ERRORS:
        i = f.node
        return MODEL_CHECKS[f.check], i, leaf_errors(
            f32, weight[i], tree.value[i, tree.node_class[i]], mode, cf,
            pessimistic_coeff(f32, cf) if mode == ERRORS_PESSIMISTIC else 0.0)
    return MODEL_CHECKS[f.check], f.node, int(f.extra)


# ---------------------------------------------------------------------------
# A final tree against its grown tree: what pruning may have changed.

cdef struct TreeView:
    # A checked Tree's arrays (the Tree holds them while a view is in use).
    Py_ssize_t n, k
    const signed char* kind
    const int32_t* feature
    const int32_t* first
    const int32_t* nch
    const int32_t* node_class
    const double* threshold
    const double* weight
    const double* errors
    const double* value
    const int64_t* offset
    const int32_t* map


cdef TreeView view_of(tree):
    cdef TreeView v
    v.n = tree.node_count
    v.k = tree.n_classes
    v.kind = <const signed char*> cnp.PyArray_DATA(tree.kind)
    v.feature = <const int32_t*> cnp.PyArray_DATA(tree.feature)
    v.first = <const int32_t*> cnp.PyArray_DATA(tree.first_child)
    v.nch = <const int32_t*> cnp.PyArray_DATA(tree.n_children)
    v.node_class = <const int32_t*> cnp.PyArray_DATA(tree.node_class)
    v.threshold = <const double*> cnp.PyArray_DATA(tree.threshold)
    v.weight = <const double*> cnp.PyArray_DATA(tree.weight)
    v.errors = <const double*> cnp.PyArray_DATA(tree.errors)
    v.value = <const double*> cnp.PyArray_DATA(tree.value)
    v.offset = <const int64_t*> cnp.PyArray_DATA(tree.map_offset)
    v.map = <const int32_t*> cnp.PyArray_DATA(tree.value_map)
    return v


cdef enum:      # what differs, in the order it is looked at, per node
    K_OK = 0
    K_NODE
    K_WEIGHT
    K_CLASS
    K_VALUE
    K_KIND
    K_FEATURE
    K_THRESHOLD
    K_BRANCHES
    K_MAP
    K_ERRORS
    K_NO_MEMORY
    K_NO_TEST       # pruned_tree_failure: no grown node at or below has the test

KEPT_FIELDS = {K_NODE: "first_child", K_WEIGHT: "weight", K_CLASS: "node_class",
               K_VALUE: "value", K_KIND: "kind", K_FEATURE: "feature",
               K_THRESHOLD: "threshold", K_BRANCHES: "n_children", K_MAP: "value_map",
               K_ERRORS: "errors"}


cdef int test_difference(const TreeView* F, Py_ssize_t f, const TreeView* G,
                         Py_ssize_t g, const int32_t* n_values,
                         bint cleaned) noexcept nogil:
    """K_OK when the test of final node f (not a leaf) is grown node g's, else the
    field that differs. A subset test may lose trailing empty branches; cleaned
    (pessimistic pruning's subset cleanup, c45/_pruning.pyx) also lets its last
    branch give categories up (mapped to 0: no case of them reaches the node)
    and go when it keeps none."""
    cdef Py_ssize_t j
    cdef int32_t fm, gm
    if F.kind[f] != G.kind[g]:
        return K_KIND
    if F.feature[f] != G.feature[g]:
        return K_FEATURE
    if F.kind[f] == CONTINUOUS and memcmp(&F.threshold[f], &G.threshold[g],
                                          sizeof(double)) != 0:
        return K_THRESHOLD
    if F.nch[f] > G.nch[g] or (cleaned and F.nch[f] != G.nch[g] and not (
            F.kind[f] == SUBSET and F.nch[f] == G.nch[g] - 1)):
        return K_BRANCHES
    if F.kind[f] == SUBSET:
        for j in range(n_values[F.feature[f]] + 1):
            fm, gm = F.map[F.offset[f] + j], G.map[G.offset[g] + j]
            if fm != gm and not (cleaned and fm == 0 and gm == G.nch[g]):
                return K_MAP
    return K_OK


cdef bint kept_failure(const TreeView* F, const TreeView* G, const int32_t* n_values,
                       Failure* out) noexcept nogil:
    """The first node of the final tree that is not its grown node as pruning
    keeps it (out.extra: the grown node). Both trees walkable, of k classes."""
    cdef Py_ssize_t n = F.n, k = F.k, f, g, c, b
    cdef int check = K_OK
    cdef int64_t* g_of = <int64_t*> malloc(n * sizeof(int64_t))
    if g_of == NULL:
        return fail(out, K_NO_MEMORY, 0)
    g_of[0] = 0
    for f in range(n):                  # children come after their parent
        g = g_of[f]
        out.extra = g
        if not 0 <= g < G.n:
            check = K_NODE
        elif F.weight[f] != G.weight[g]:
            check = K_WEIGHT
        elif F.node_class[f] != G.node_class[g]:
            check = K_CLASS
        else:
            for c in range(k):
                if F.value[f * k + c] != G.value[g * k + c]:
                    check = K_VALUE
                    break
        if check == K_OK and F.kind[f] != LEAF:
            check = test_difference(F, f, G, g, n_values, False)
            if check == K_OK and F.errors[f] != G.errors[g]:
                check = K_ERRORS
            if check == K_OK:
                for b in range(F.nch[f]):
                    g_of[F.first[f] + b] = G.first[g] + b
        if check != K_OK:
            break
    free(g_of)
    return fail(out, check, f) if check != K_OK else False


def kept_tree_failure(final, grown, n_values):
    """(field, node, grown node) of the first node where final (a tree pruned by
    cost-complexity or reduced-error: the grown tree with subtrees made leaves,
    laid out again) is not the grown tree's node it stands for, or None: tests
    keep their kind, feature, threshold, subset map and errors, every node its
    weight, class and class weights. Both trees checked (walkable)."""
    if final.n_classes != grown.n_classes:
        return "value", 0, 0
    cdef Failure f = checked_pair(kept_failure, final, grown, n_values, False)
    if f.check == K_OK:
        return None
    return KEPT_FIELDS[f.check], f.node, int(f.extra)


ctypedef bint (*PairCheck)(const TreeView* F, const TreeView* G, const int32_t* n_values,
                           Failure* out) noexcept nogil


cdef Failure checked_pair(PairCheck check, final, grown, n_values, bint both) except *:
    """check's Failure for the two trees (f.check K_OK: none), without the GIL
    from NOGIL_NODES nodes of the final tree (both: of the two); MemoryError
    when it ran out of memory."""
    cdef Failure f
    f.check = K_OK
    f.extra = 0
    nv = np.ascontiguousarray(n_values, dtype=np.int32)
    cdef const int32_t* nvp = <const int32_t*> cnp.PyArray_DATA(nv)
    cdef TreeView F = view_of(final), G = view_of(grown)
    if F.n + (G.n if both else 0) >= NOGIL_NODES:
        with nogil:
            check(&F, &G, nvp, &f)
    else:
        check(&F, &G, nvp, &f)
    if f.check == K_NO_MEMORY:
        raise MemoryError("c45: out of memory checking a tree")
    return f


# A final tree is its grown tree pruned: subtrees cut to leaves (any pruning),
# or a test replaced by its largest branch (subtree raising, C4.5's pessimistic
# pruning, c45/_prune.pyx: the node takes over the branch's test and children,
# re-estimated, and may do so again, a level at a time). So each final test is
# the test of a grown node at or below the grown node in its place, and its
# branches stand, in order, in the places of that node's branches; a leaf may
# stand for any grown node. Raising re-estimates the weights: only the tests
# are compared.

cdef inline bint hosts(const TreeView* F, Py_ssize_t f, const TreeView* G, Py_ssize_t x,
                       const int32_t* n_values) noexcept nogil:
    """Grown node x has final node f's test, and a grown test in the place of
    each of f's branches that is a test (no test stands below a grown leaf)."""
    cdef Py_ssize_t b
    if test_difference(F, f, G, x, n_values, True) != K_OK:
        return False
    for b in range(F.nch[f]):
        if F.kind[F.first[f] + b] != LEAF and G.kind[G.first[x] + b] == LEAF:
            return False
    return True


cdef Py_ssize_t host_of(const TreeView* F, Py_ssize_t f, const TreeView* G,
                        Py_ssize_t g, const int32_t* n_values,
                        int64_t* stack) noexcept nogil:
    """A grown node at or below g that hosts final node f, -1 for none: first
    down the heaviest branches (where a raised test comes from, as a rule), then
    the whole subtree in preorder (stack: room for G.n nodes). A search that
    finds its node looks only at grown nodes no other search of the walk looks
    at (those before it in preorder, outside its subtree): the walk is linear."""
    cdef Py_ssize_t x = g, b, best, top = 0
    cdef double most
    while True:
        if hosts(F, f, G, x, n_values):
            return x
        if G.kind[x] == LEAF:
            break
        best, most = G.first[x], -1.0
        for b in range(G.first[x], G.first[x] + G.nch[x]):
            if G.weight[b] >= most:         # the last of largest weight
                best, most = b, G.weight[b]
        x = best
    stack[top] = g
    top = 1
    while top:
        top -= 1
        x = stack[top]
        if hosts(F, f, G, x, n_values):
            return x
        if G.kind[x] != LEAF:
            for b in range(G.first[x] + G.nch[x] - 1, G.first[x] - 1, -1):
                stack[top] = b
                top += 1
    return -1


cdef bint pruned_failure(const TreeView* F, const TreeView* G, const int32_t* n_values,
                         Failure* out) noexcept nogil:
    """The first final test (in node order) that no grown node at or below the
    grown node in its place (out.extra) hosts, each test taken at the first
    grown node host_of finds."""
    cdef Py_ssize_t f, g, d, b
    cdef int64_t* g_of = <int64_t*> malloc(F.n * sizeof(int64_t))
    cdef int64_t* stack = <int64_t*> malloc(G.n * sizeof(int64_t))
    if g_of == NULL or stack == NULL:
        free(g_of)
        free(stack)
        return fail(out, K_NO_MEMORY, 0)
    g_of[0] = 0
    for f in range(F.n):                # children come after their parent
        if F.kind[f] == LEAF:
            continue
        g = g_of[f]
        d = host_of(F, f, G, g, n_values, stack)
        if d < 0:
            free(g_of)
            free(stack)
            out.extra = g
            return fail(out, K_NO_TEST, f)
        for b in range(F.nch[f]):
            g_of[F.first[f] + b] = G.first[d] + b
    free(g_of)
    free(stack)
    return False


def pruned_tree_failure(final, grown, n_values):
    """None when final is grown pruned, else (final node, grown node): the first
    final test the walk (pruned_failure) finds no host for, and the grown node
    in its place. Both trees checked (walkable, features of n_values).

    The walk takes each test at the first grown node host_of finds; where two
    grown nodes below host it and it took the wrong one (windowing's trials
    raise by all the cases a branch their window made lighter), an exhaustive
    search (pruning_exists) decides, within 64 steps a node: a final tree it
    cannot show to be a pruning in that is refused (measured: a pruning of
    357k grown nodes took under 2 steps a node; refusing it with one threshold
    changed deep down, 0.2 s of CPU)."""
    cdef Failure f = checked_pair(pruned_failure, final, grown, n_values, True)
    if f.check == K_OK:
        return None
    if pruning_exists(final, grown, np.ascontiguousarray(n_values, dtype=np.int32),
                      64 * (final.node_count + grown.node_count) + 1000000):
        return None
    return int(f.node), int(f.extra)


cdef struct Frame:
    # valid(f, g) being decided: its candidates (grown nodes at or below g, a
    # preorder stack) from base up in the candidates' stack, the one being tried
    # (d, -1 for none) and the next of f's branches to try in d's branches.
    Py_ssize_t f, g, base, d, b


cdef int search(const TreeView* F, const TreeView* G, const int32_t* n_values,
                Py_ssize_t budget, Frame* frames, Py_ssize_t** cand,
                Py_ssize_t* cap, Interrupt* intr) noexcept nogil:
    """pruning_exists' search: 1 found, 0 none, 2 out of budget, -2 out of memory,
    STOPPED (a signal handler raised; looked for every 2**16 steps). frames:
    room for F.n frames (one per level of F); cand: a candidates' stack of
    *cap entries, grown as needed."""
    cdef Py_ssize_t top = 0, n_frames = 1, steps = 0, x, c, need
    cdef Frame* fr
    cdef Py_ssize_t* grown
    cdef bint result = False
    frames[0].f, frames[0].g, frames[0].base, frames[0].d, frames[0].b = 0, 0, 0, -1, 0
    cand[0][0] = 0
    top = 1
    while n_frames:
        steps += 1
        if steps > budget:
            return 2
        if (steps & 0xFFFF) == 0 and interrupted(intr):
            return STOPPED
        fr = &frames[n_frames - 1]
        if fr.d >= 0:                   # trying d: its next branch
            if not result and fr.b > 0:
                fr.d = -1               # a branch failed: d hosts not f
                continue
            if fr.b == F.nch[fr.f]:     # every branch valid: so is f at g
                top = fr.base
                n_frames -= 1
                result = True
                continue
            x = F.first[fr.f] + fr.b
            c = G.first[fr.d] + fr.b
            fr.b += 1
            if F.kind[x] == LEAF:
                result = True
                continue
            frames[n_frames].f, frames[n_frames].g = x, c
            frames[n_frames].base, frames[n_frames].d, frames[n_frames].b = top, -1, 0
            n_frames += 1
            cand[0][top] = c
            top += 1
            continue
        if top == fr.base:              # no candidate left: f is not valid at g
            n_frames -= 1
            result = False
            continue
        top -= 1
        x = cand[0][top]
        if G.kind[x] != LEAF:
            need = top + G.nch[x] + 1
            if need > cap[0]:
                grown = <Py_ssize_t*> realloc(cand[0], 2 * need * sizeof(Py_ssize_t))
                if grown == NULL:
                    return -2
                cand[0], cap[0] = grown, 2 * need
            for c in range(G.first[x] + G.nch[x] - 1, G.first[x] - 1, -1):
                cand[0][top] = c
                top += 1
        if hosts(F, fr.f, G, x, n_values):
            fr.d, fr.b = x, 0
            result = True
    return 1 if result else 0


def pruning_exists(final, grown, n_values, Py_ssize_t budget):
    """Whether final is grown pruned, searched exhaustively (no recursion: a
    stack of frames), in at most budget steps (False beyond: not shown).
    valid(f, g), final node f stands in the place of grown node g: f is a leaf,
    or a grown node at or below g hosts f (host_of) and each branch b of f is
    valid in the place of that node's branch b. n_values: int32."""
    cdef TreeView F = view_of(final), G = view_of(grown)
    if F.kind[0] == LEAF:
        return True
    cdef const int32_t* nvp = <const int32_t*> cnp.PyArray_DATA(n_values)
    cdef Py_ssize_t cap = G.n + 1
    cdef Frame* frames = <Frame*> malloc(F.n * sizeof(Frame))
    cdef Py_ssize_t* cand = <Py_ssize_t*> malloc(cap * sizeof(Py_ssize_t))
    cdef int found = -2                 # (out of memory unless searched)
    cdef Interrupt intr
    try:
        if frames != NULL and cand != NULL:
            if F.n + G.n >= NOGIL_NODES:
                interrupt_init(&intr)
                try:
                    with nogil:
                        found = search(&F, &G, nvp, budget, frames, &cand, &cap, &intr)
                finally:
                    interrupt_end(&intr)
            else:
                found = search(&F, &G, nvp, budget, frames, &cand, &cap, NULL)
    finally:
        free(frames)
        free(cand)
    if found == STOPPED:
        raise_interrupt()
    if found < 0:
        raise MemoryError("c45: out of memory checking a tree")
    return found == 1
