"""The tree as flat node arrays: growing (spec §2, §7), compaction, prediction (§9).

Nodes live in one array; node 0 is the root and the children of a node are the
contiguous nodes first_child .. first_child + n_children - 1, in branch order. The
whole build, prune and predict loops run without the GIL and without a Python call
or an allocation per node.
"""
import numpy as np
from c45._fresh import numpy_pages
from c45._bulk import as_case_weights, pickled_copy, zeros
from c45._pickling import pickled
cimport numpy as cnp
from cython.parallel cimport prange

from libc.math cimport NAN, INFINITY, isnan, isinf
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy, memset
from cpython.pycapsule cimport PyCapsule_New, PyCapsule_GetPointer
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

from c45._types cimport (Node, NodeBuffer, Dataset, Interrupt, Test, LEAF, DISCRETE, CONTINUOUS,
                         SUBSET, NO_CUT_RANK)
from c45._criterion cimport rnd
from c45._sums cimport pairwise
from c45._scratch cimport c45_big_resize, c45_big_free, c45_give_back
from c45._gil cimport NOGIL_WORK
from c45._splitter cimport (Work, work_init, work_free, work_trim_nlogn,
                            work_threads_init, total_weight,
                            class_distribution, group, sum_weights, find_split,
                            branch_lists, gather_branch, MANY_BRANCHES, settle_bar)
from c45._interrupt cimport (interrupt_init, interrupt_end, interrupted, raise_interrupt,
                             monotonic, copy_polled, look_by_cells, LOOK_CELLS)
from c45._fresh cimport unfaulted_empty
from c45._prune cimport prune_pessimistic, cut_ranks, GrownLog, log_free
from c45._nodes cimport (buffer_reserve, maps_reserve, buffer_free, buffer_fit,
                         compact_in_place, node_test,
                         maps_in_growing_order,
                         make_leaf, stays_leaf, no_test, test_kind, cut_of, cut_separates, store_map,
                         set_test, empty_branch, collapse_if_no_better, exact_counts)
from c45._presorted cimport grow_presorted, root_split_listed

from c45._threads import clamp as clamp_threads
from c45._ranks import far_table

cnp.import_array()

LEAF_KIND = LEAF
DISCRETE_KIND = DISCRETE
CONTINUOUS_KIND = CONTINUOUS
SUBSET_KIND = SUBSET


# ---------------------------------------------------------------------------
# Growing (§2): depth first, branches in order, with an explicit stack.

cdef struct Frame:
    int32_t node
    int32_t depth
    Py_ssize_t lo, hi          # the node's cases
    Py_ssize_t first_known     # [lo, first_known) are the unknown-outcome cases
    Py_ssize_t branch_end      # last case of the branch being grown
    int32_t branch             # branch being grown, 1..B; 0 before the split
    bint child_pending         # a child's subtree has just been grown
    bint saved_count_mode
    double known_weight
    double factor              # weight factor of the unknown cases in this branch
    Py_ssize_t lists           # many-valued tests: the branch lists on the arena, or -1
    Py_ssize_t arena_mark


cdef inline bint look_at(const Dataset* d, Py_ssize_t i) noexcept nogil:
    """A pass over a node's cases (all the unknown ones at every node below a
    test of a feature with unknown values) looks for Ctrl-C every 65,536."""
    return (i & 0xFFFF) == 0xFFFF and interrupted(d.intr)


cdef int enter_node(Work* w, NodeBuffer* t, Frame* fr) noexcept nogil:
    """Make the node a leaf, or give it a test and allocate its children.
    Returns 1 for a split, 0 for a leaf, -1 when memory runs out."""
    cdef const Dataset* d = w.data
    cdef bint f32 = d.f32
    cdef Py_ssize_t lo = fr.lo, hi = fr.hi, i
    cdef Py_ssize_t feature, n_branches, column
    cdef int64_t map_offset = -1
    cdef double total, threshold = NAN, x, lowest = INFINITY, highest = -INFINITY
    cdef int kind
    cdef int32_t best
    cdef Test test

    total = class_distribution(w, lo, hi)
    best = make_leaf(t, fr.node, w.dist, total, f32)
    if stays_leaf(d, w.min_objs, fr.depth, total, w.dist[best]):
        return 0
    feature = find_split(w, lo, hi, total)
    if no_test(d, w.gain, feature):
        return 0
    kind = test_kind(d, w.n_groups, feature, &n_branches)
    if kind == CONTINUOUS:
        threshold = cut_of(d, w.bar, feature)
        column = <Py_ssize_t> d.col[feature] * d.n_cases
        for i in range(lo, hi + 1):
            if look_at(d, i):
                break               # (grow raises at its next node)
            x = d.cont[column + w.cases[i]]
            if not isnan(x):
                lowest = x if x < lowest else lowest
                highest = x if x > highest else highest
        if not cut_separates(lowest, highest, threshold):
            return 0
    elif kind == SUBSET:
        map_offset = store_map(t, &w.groups[w.group_start[feature]], d.n_values[feature])
        if map_offset == -2:
            return -1
    if set_test(t, fr.node, kind, feature, threshold, n_branches, map_offset) < 0:
        return -1
    # Unknown-outcome cases first; they go down every branch with a weight factor.
    node_test(t, fr.node, &test)
    fr.first_known = group(w, &test, 0, lo, hi, NULL) + 1
    fr.lists = -1
    fr.arena_mark = w.arena_top
    if kind != CONTINUOUS and n_branches >= MANY_BRANCHES:
        fr.lists = branch_lists(w, &test, n_branches, fr.first_known, hi)
    fr.saved_count_mode = w.count_mode
    if fr.first_known > lo:
        w.count_mode = False
    fr.known_weight = rnd(f32, total - sum_weights(w, lo, fr.first_known - 1))
    if kind == DISCRETE:
        w.used[feature] += 1
    fr.branch = 1
    fr.child_pending = False
    return 1


cdef int grow(Work* w, NodeBuffer* t) except -1 nogil:
    """Grow the tree of all cases into t (collapsed as C4.5 collapses, §2.11)."""
    cdef const Dataset* d = w.data
    cdef bint f32 = d.f32
    cdef Py_ssize_t i, cap = 64, top
    cdef Frame* stack = <Frame*> malloc(cap * sizeof(Frame))
    cdef Frame* fr
    cdef Frame* grown
    cdef Node* nd
    cdef Test test
    cdef int r
    cdef int32_t child
    cdef double branch_weight
    if stack == NULL or buffer_reserve(t, 1) < 0:
        free(stack)
        with gil:
            raise MemoryError("c45: out of memory while growing the tree")
    t.count = 1
    memset(stack, 0, sizeof(Frame))
    stack[0].node = 0
    stack[0].lo = 0
    stack[0].hi = d.n_cases - 1
    top = 1
    while top > 0:
        if interrupted(d.intr):
            free(stack)
            with gil:
                raise_interrupt()
        fr = &stack[top - 1]
        if fr.branch == 0:
            r = enter_node(w, t, fr)
            if r < 0:
                free(stack)
                with gil:
                    if d.intr != NULL and d.intr.stop:     # (a long fill of the buffer's)
                        raise_interrupt()
                    raise MemoryError("c45: out of memory while growing the tree")
            if r == 0:
                top -= 1
                continue
        nd = &t.nodes[fr.node]
        if fr.child_pending:
            # Back from branch fr.branch: add its errors, regather the unknown
            # cases at the front and undo their weight factor (§2 step 9).
            child = nd.first_child + fr.branch - 1
            nd.errors = rnd(f32, nd.errors + t.nodes[child].errors)
            node_test(t, fr.node, &test)
            group(w, &test, 0, fr.lo, fr.branch_end, NULL)
            for i in range(fr.lo, fr.first_known):
                if look_at(d, i):
                    break           # (weights half restored: the loop's top raises)
                w.weight[w.cases[i]] = rnd(f32, w.weight[w.cases[i]] / fr.factor)
            fr.child_pending = False
            fr.branch += 1
        while fr.branch <= nd.n_children:
            child = nd.first_child + fr.branch - 1
            if fr.lists >= 0:
                fr.branch_end = gather_branch(w, fr.lists, fr.branch, fr.first_known)
                branch_weight = total_weight(w, fr.first_known, fr.branch_end)
            else:
                node_test(t, fr.node, &test)
                fr.branch_end = group(w, &test, fr.branch, fr.first_known, fr.hi,
                                      &branch_weight)
            if fr.branch_end < fr.first_known:
                empty_branch(t, child, fr.node)
                fr.branch += 1
                continue
            fr.factor = rnd(f32, branch_weight / fr.known_weight)
            for i in range(fr.lo, fr.first_known):
                if look_at(d, i):
                    break
                w.weight[w.cases[i]] = rnd(f32, w.weight[w.cases[i]] * fr.factor)
            fr.child_pending = True
            if top == cap:
                cap *= 2
                grown = <Frame*> realloc(stack, cap * sizeof(Frame))
                if grown == NULL:
                    free(stack)
                    with gil:
                        raise MemoryError("c45: out of memory while growing the tree")
                stack = grown
                fr = &stack[top - 1]
            memset(&stack[top], 0, sizeof(Frame))
            stack[top].node = child
            stack[top].depth = fr.depth + 1
            stack[top].lo = fr.lo
            stack[top].hi = fr.branch_end
            top += 1
            break
        else:
            # All branches grown: restore the count mode, collapse if the subtree
            # does not beat a leaf by more than epsilon (§2 step 11).
            w.count_mode = fr.saved_count_mode
            w.arena_top = fr.arena_mark
            if nd.kind == DISCRETE:
                w.used[nd.feature] -= 1
            collapse_if_no_better(t, fr.node, f32)
            top -= 1
    free(stack)
    return 0




# ---------------------------------------------------------------------------
# The Python-visible tree

# Trees are walked by C code that trusts their arrays: every Tree (grown, pruned,
# loaded from JSON or a pickle) passes check_tree_arrays (c45/_tree_checks.pyx)
# when it is made.
from c45._tree_checks import (FIELDS, DTYPES, MAX_TREE_NODES, as_field,
                              check_tree_arrays, check_soft_bounds, tree_error)

# Optional fields: a tree with soft thresholds (c45/_soft.pyx) has both, others none.
SOFT_FIELDS = ("lower", "upper")



class Tree:
    """A fitted C4.5 tree as flat, read-only node arrays.

    Node 0 is the root. Node ``i`` tests ``feature[i]`` (``-1`` for a leaf); its
    children are nodes ``first_child[i] .. first_child[i] + n_children[i] - 1`` in
    branch order: for a discrete feature branch ``b`` holds its ``b``-th category
    (``categories_[feature][b]`` on the classifier); for a continuous feature branch
    0 is ``value <= threshold[i]`` and branch 1 is ``value > threshold[i]``; for a
    subset test (``subset_splits=True``) category ``c`` (1-based) goes to branch
    ``value_map[map_offset[i] + c] - 1``.

    Attributes
    ----------
    node_count : int
        Number of nodes, empty leaves included (C4.5's Size).
    n_classes : int
    kind : ndarray of int8, 0 leaf, 1 discrete test, 2 continuous test, 3 subset test.
    feature, first_child, n_children, node_class : ndarray of int32
    threshold : ndarray of float64, NaN unless a continuous test.
    weight : ndarray of float64, C4.5's Items (case weight reaching the node).
    errors : ndarray of float64, C4.5's Errors: training errors in a grown tree,
        pessimistic error estimates (E + U) in a pruned one.
    value : ndarray of float64, shape (node_count, n_classes), class weights.
    map_offset : ndarray of int64, -1 unless a subset test.
    value_map : ndarray of int32, the subset tests' category -> branch maps.
    lower, upper : ndarray of float64 or None, soft thresholds' bounds
        (``soft_thresholds=True``): finite at a continuous test, with
        ``lower <= threshold <= upper``, NaN elsewhere; None without them.
    """

    _fields = FIELDS
    _dtypes = DTYPES

    def __init__(self, kind, feature, first_child, n_children, node_class,
                 threshold, weight, errors, value, map_offset=None, value_map=None,
                 n_values=None, lower=None, upper=None):
        self._set(dict(kind=kind, feature=feature, first_child=first_child,
                       n_children=n_children, node_class=node_class,
                       threshold=threshold, weight=weight, errors=errors, value=value,
                       map_offset=map_offset, value_map=value_map, lower=lower,
                       upper=upper), n_values, True)

    @classmethod
    def _of_own_arrays(cls, n_values=None, **arrays):
        """A Tree of arrays made for it (by the core, pruning, the JSON loader) that
        the caller will not write to: kept without a copy when already of their
        field's dtype and C-contiguous. They are checked all the same: the check
        is one compiled pass (cheap next to making them), and the C walkers
        trust a Tree's arrays, so a slip in the code that made them is refused
        here rather than read out of bounds later."""
        self = cls.__new__(cls)
        self._set(arrays, n_values, False)
        return self

    def _set(self, given, n_values, copy, checked=False):
        # checked: the fields are another Tree's (checked when it was made).
        kind = as_field("kind", np.int8, given["kind"], copy)
        if given.get("map_offset") is None:
            given["map_offset"] = np.full(kind.shape[:1], -1, dtype=np.int64)
        if given.get("value_map") is None:
            given["value_map"] = np.zeros(0, dtype=np.int32)
        given["kind"] = kind
        arrays = {name: as_field(name, dtype, given[name], copy and name != "kind")
                  for name, dtype in zip(FIELDS, DTYPES)}
        if n_values is not None:        # copied: the caller's (a schema's) stays its own
            n_values = as_field("n_values", np.int32, n_values)
        if not checked:
            check_tree_arrays(arrays, n_values)
        if (given.get("lower") is None) != (given.get("upper") is None):
            raise tree_error("a tree with soft thresholds needs both lower and upper")
        if given.get("lower") is not None:
            for name in SOFT_FIELDS:
                arrays[name] = as_field(name, np.float64, given[name], copy)
            check_soft_bounds(arrays["kind"], arrays["threshold"], arrays["lower"],
                              arrays["upper"])
        else:
            arrays["lower"] = arrays["upper"] = None
        for name, arr in arrays.items():
            if arr is not None:
                arr.flags.writeable = False
            setattr(self, name, arr)
        if n_values is not None:
            n_values.flags.writeable = False
        # Per feature, its number of categories (0: continuous); None only in a
        # tree unpickled from c45 < issue 17, until the classifier supplies it.
        self.n_values = n_values

    def __setstate__(self, state):
        # A pickle that sets the attributes directly goes through the checks too.
        if not isinstance(state, dict):
            raise tree_error(f"the pickled state is a {type(state).__name__}, not a dict")
        missing = [name for name in self._fields[:9] if name not in state]
        if missing:
            raise tree_error(f"the pickled state has no {missing[0]!r}")
        self.__init__(**{name: state[name]
                         for name in self._fields + ("n_values",) + SOFT_FIELDS
                         if name in state})

    @property
    def node_count(self):
        return int(self.kind.shape[0])

    @property
    def n_classes(self):
        return int(self.value.shape[1])

    @property
    def n_leaves(self):
        return int(np.count_nonzero(self.kind == LEAF))

    @property
    def max_depth(self):
        """Depth of the deepest leaf (the root alone has depth 0)."""
        return deepest(self.first_child, self.n_children)

    def branch_values(self, node, n_values):
        """For a subset test on a feature with n_values categories: per branch,
        the list of its categories' 0-based indices."""
        start = self.map_offset[node]
        groups = [[] for _ in range(self.n_children[node])]
        for v in range(1, n_values + 1):
            b = self.value_map[start + v]
            if 1 <= b <= len(groups):
                groups[b - 1].append(v - 1)
        return groups

    def __reduce__(self):
        # Copies (pickled_copy): the trees of a fitted model may share arrays
        # (n_values, a value map), unpickled ones do not, and a pickle's bytes
        # must not depend on which (a round trip pickles to the same bytes).
        # A big array (at thousands of classes, the class weights) in parts
        # (c45/_pickling.py: Ctrl-C is heard between them).
        nv = None if self.n_values is None else pickled_copy(self.n_values)
        args = tuple(pickled(getattr(self, f), pickled_copy) for f in self._fields) + (nv,)
        if self.lower is not None:      # a hard tree pickles as before
            args += (pickled(self.lower, pickled_copy), pickled(self.upper, pickled_copy))
        return (Tree, args)

    def with_soft_bounds(self, lower, upper):
        """This tree with soft thresholds' bounds (a new Tree: trees are read-only),
        sharing this tree's arrays and taking lower and upper as they are (the
        caller made them for it), checked all the same."""
        tree = Tree.__new__(Tree)
        # This tree's arrays passed check_tree_arrays when it was made (and are
        # read-only): only the bounds are new.
        tree._set(dict({f: getattr(self, f) for f in self._fields}, lower=lower,
                       upper=upper), self.n_values, False, checked=True)
        return tree

    def __repr__(self):
        return f"<c45 Tree: {self.node_count} nodes, {self.n_leaves} leaves>"


cdef Py_ssize_t deepest_strided(const char* first_child, const char* n_children,
                                size_t stride, Py_ssize_t n) except -1:
    """The depth of the deepest of n nodes, parents before children, node i's
    first child and number of children (int32) at i * stride bytes from
    first_child and n_children (a compiled loop: numpy's calls on a tree's
    arrays give the GIL up)."""
    cdef Py_ssize_t i, c, top = 0, first, count
    cdef int64_t* depth = <int64_t*> calloc(max(n, 1), sizeof(int64_t))
    if depth == NULL:
        raise MemoryError("c45: out of memory measuring a tree's depth")
    for i in range(n):
        if depth[i] > top:
            top = depth[i]
        first = (<const int32_t*> (first_child + i * stride))[0]
        count = (<const int32_t*> (n_children + i * stride))[0]
        for c in range(first, first + count):
            if 0 <= c < n:
                depth[c] = depth[i] + 1
    free(depth)
    return top


cdef Py_ssize_t deepest(const int32_t[::1] first_child, const int32_t[::1] n_children) except -1:
    """deepest_strided() of a tree's arrays."""
    if first_child.shape[0] == 0:
        return 0
    return deepest_strided(<const char*> &first_child[0], <const char*> &n_children[0],
                           sizeof(int32_t), first_child.shape[0])


cdef Py_ssize_t buffer_depth(const NodeBuffer* b) except -1:
    """deepest_strided() of a node buffer."""
    if b.count == 0:
        return 0
    return deepest_strided(<const char*> &b.nodes[0].first_child,
                           <const char*> &b.nodes[0].n_children, sizeof(Node), b.count)


cdef void free_capsule(object capsule) noexcept:
    free(PyCapsule_GetPointer(capsule, NULL))


cdef void free_big_capsule(object capsule) noexcept:
    c45_big_free(PyCapsule_GetPointer(capsule, NULL))


cdef object value_of_buffer(NodeBuffer* b):
    """The buffer's class weights as a (count, n_classes) array that owns them
    (freed with it): taken from the buffer, not copied (at many classes they are
    most of a node's bytes); binary32 counts widened, their pages given back
    as read (widened_cells). The buffer is left without them."""
    cdef cnp.npy_intp dims[2]
    cdef Py_ssize_t n = b.count, k = b.n_classes
    cdef void* kept
    if n == 0 or k == 0:
        return np.empty((n, k), np.float64)
    if b.counted:
        return widened_cells(b, True)
    kept = c45_big_resize(b.cells, n * k * sizeof(double) + 1)    # the room above count back
    # (+ 1 byte: never a request of 0 bytes, as in _nodes.buffer_reserve)
    if kept != NULL:
        b.cells = <char*> kept
    capsule = PyCapsule_New(b.cells, NULL, free_big_capsule)
    b.cells = NULL                                        # the capsule owns it now
    b.capacity = 0
    dims[0] = n
    dims[1] = k
    value = cnp.PyArray_SimpleNewFromData(2, dims, cnp.NPY_FLOAT64,
                                          PyCapsule_GetPointer(capsule, NULL))
    cnp.set_array_base(value, capsule)      # takes its own reference
    return value


cdef bint widen_cells(double* out, NodeBuffer* b, bint give_back) noexcept nogil:
    """b's binary32 counts widened into out (count x n_classes doubles), from
    the last back, LOOK_CELLS at a time (a look for signals between them, b.intr);
    give_back: the counts' pages given back once read, so that the two are never
    both whole. True when interrupted."""
    cdef Py_ssize_t top = b.count * b.n_classes, lo, i
    cdef const float* cells = <const float*> b.cells
    while top > 0:
        lo = top - LOOK_CELLS if top > LOOK_CELLS else 0
        for i in range(lo, top):
            out[i] = cells[i]
        if give_back:
            c45_give_back(&b.cells[lo * sizeof(float)], (top - lo) * sizeof(float))
        top = lo
        if top > 0 and interrupted(b.intr):
            return True
    return False


cdef object widened_cells(NodeBuffer* b, bint give_back):
    """A buffer of counts' class weights as a new (count, n_classes) float64
    array (widen_cells; the GIL given up for a long pass)."""
    cdef Py_ssize_t n = b.count, k = b.n_classes
    cdef bint stop
    with numpy_pages():     # (written a step at a time as the counts' pages go back)
        value = np.empty((n, k), np.float64)
    if n == 0 or k == 0:
        return value
    cdef double* out = <double*> cnp.PyArray_DATA(value)
    if n * k >= NOGIL_WORK:
        with nogil:
            stop = widen_cells(out, b, give_back)
    else:
        stop = widen_cells(out, b, give_back)
    if stop:
        raise_interrupt()
    return value


cdef struct TreeFields:
    signed char* kind
    int32_t* feature
    int32_t* first_child
    int32_t* n_children
    int32_t* node_class
    double* threshold
    double* weight
    double* errors
    int64_t* map_offset
    const double* errors_as_grown      # or NULL: the nodes' own


cdef enum:
    FIELDS_CHUNK = 65536                # nodes converted between two give-backs


cdef inline void put_fields(TreeFields* out, Py_ssize_t i, const Node* nd) noexcept nogil:
    """Node i's fields into a Tree's arrays."""
    out.kind[i] = <signed char> nd.kind
    out.feature[i] = nd.feature
    out.first_child[i] = nd.first_child
    out.n_children[i] = nd.n_children
    out.node_class[i] = nd.node_class
    out.threshold[i] = nd.threshold
    out.weight[i] = nd.weight
    out.errors[i] = nd.errors if out.errors_as_grown == NULL else out.errors_as_grown[i]
    out.map_offset[i] = nd.map_offset


cdef object tree_from_buffer(NodeBuffer* b, n_values, bint take=False,
                             const GrownLog* log=NULL, const double* errors=NULL):
    """The buffer as a Tree; with take, the buffer's class weights become the
    Tree's (the buffer is freed: it is not used again). log, errors: the tree
    as it was before pruning changed the buffer (the logged nodes' fields and
    class weights, every node's errors). Its copies of class weights look for
    signals (b.intr): a raise when interrupted."""
    cdef Py_ssize_t n = b.count, k = b.n_classes, i, j, cells = 0, top, lo
    cols = {name: np.empty(n, dtype) for name, dtype in zip(Tree._fields[:8], Tree._dtypes[:8])}
    map_offset = np.empty(n, np.int64)
    cdef signed char[::1] kv = cols["kind"]
    cdef int32_t[::1] fv = cols["feature"], cv = cols["first_child"]
    cdef int32_t[::1] nv = cols["n_children"], lv = cols["node_class"]
    cdef double[::1] tv = cols["threshold"], wv = cols["weight"], ev = cols["errors"]
    cdef int64_t[::1] mv = map_offset
    cdef TreeFields out
    memset(&out, 0, sizeof(TreeFields))
    if n > 0:
        out = TreeFields(&kv[0], &fv[0], &cv[0], &nv[0], &lv[0], &tv[0], &wv[0], &ev[0],
                         &mv[0], errors)
    # From the last node back; with take (the buffer is not read again) the nodes'
    # pages given back as they are read: the buffer's nodes and the Tree's fields
    # are never both held whole (56 and 45 bytes a node).
    top = n
    while top > 0:
        lo = top - FIELDS_CHUNK if top > FIELDS_CHUNK else 0
        for i in range(lo, top):
            put_fields(&out, i, &b.nodes[i])
        if take:
            c45_give_back(&b.nodes[lo], (top - lo) * sizeof(Node))
        top = lo
    for j in range(log.count if log != NULL else 0):
        put_fields(&out, log.node[j], &log.rec[j])      # a logged node, as grown
    value_map = np.empty(b.maps_count, np.int32)
    cdef int32_t[::1] mapv = value_map
    if b.maps_count > 0:
        memcpy(&mapv[0], b.maps, b.maps_count * sizeof(int32_t))
    cdef double[:, ::1] vv
    if take:
        value = value_of_buffer(b)
        buffer_free(b)
    else:
        if b.counted:
            value = widened_cells(b, False)
        else:
            value = np.empty((n, k), np.float64)
            if n > 0 and k > 0 and copy_looking(<char*> cnp.PyArray_DATA(value),
                                                <const char*> b.cells,
                                                n * k * sizeof(double), b.intr):
                raise_interrupt()
        vv = value
        if n > 0 and k > 0:
            for j in range(log.count if log != NULL else 0):
                memcpy(&vv[log.node[j], 0], &log.value[j * k], k * sizeof(double))
                if look_by_cells(&cells, k, b.intr):
                    raise_interrupt()
    return Tree._of_own_arrays(value=value, map_offset=map_offset, value_map=value_map,
                               n_values=n_values, **cols)


def check_walkable(tree, n_values):
    """Refuse a tree the C code must not walk with data of this schema: not a Tree
    (whose arrays were checked when it was made), or made for other features."""
    if type(tree) is not Tree:
        raise TypeError(f"c45: expected a c45 Tree, got {type(tree).__name__}")
    if tree.n_values is None or not same_ints(tree.n_values, n_values):
        raise ValueError("c45: the tree was made for other features (their number of "
                         "categories differs from the model's)")


cdef bint same_ints(const int32_t[::1] a, const int32_t[::1] b):
    """a == b, element by element (a C loop: called on every predict)."""
    cdef Py_ssize_t i
    if a.shape[0] != b.shape[0]:
        return False
    for i in range(a.shape[0]):
        if a[i] != b[i]:
            return False
    return True


cdef int buffer_from_tree(object tree, NodeBuffer* b, n_values,
                          Interrupt* intr) except -1:
    """The tree's copy in b, whose passes look for signals (intr)."""
    check_walkable(tree, n_values)
    cdef Py_ssize_t n = tree.node_count, k = tree.n_classes, i
    cdef Py_ssize_t n_maps = len(tree.value_map)
    b.n_classes = k
    b.counted = False           # (a stored tree's class weights: any double)
    b.count = 0
    b.maps_count = 0
    b.intr = intr
    if buffer_reserve(b, n) < 0 or maps_reserve(b, n_maps) < 0:
        if intr.stop:
            raise_interrupt()
        raise MemoryError("c45: out of memory copying the tree")
    cdef const signed char[::1] kv = tree.kind
    cdef const int32_t[::1] fv = tree.feature, cv = tree.first_child
    cdef const int32_t[::1] nv = tree.n_children, lv = tree.node_class
    cdef const double[::1] tv = tree.threshold, wv = tree.weight, ev = tree.errors
    cdef const double[:, ::1] vv = tree.value
    cdef const int64_t[::1] mv = tree.map_offset
    cdef const int32_t[::1] mapv = tree.value_map
    for i in range(n):
        b.nodes[i].kind = kv[i]
        b.nodes[i].feature = fv[i]
        b.nodes[i].first_child = cv[i]
        b.nodes[i].n_children = nv[i]
        b.nodes[i].node_class = lv[i]
        b.nodes[i].threshold = tv[i]
        b.nodes[i].weight = wv[i]
        b.nodes[i].errors = ev[i]
        b.nodes[i].map_offset = mv[i]
        b.nodes[i].cut_rank = NO_CUT_RANK
    if n > 0 and copy_looking(b.cells, <const char*> &vv[0, 0],
                              n * k * sizeof(double), intr):
        raise_interrupt()
    if n_maps > 0:
        memcpy(b.maps, &mapv[0], n_maps * sizeof(int32_t))
    b.count = n
    b.maps_count = n_maps
    return 0


# ---------------------------------------------------------------------------
# Entry points called by the classifier

# Pruning recurses once per tree level; deeper trees are refused rather than risk
# the C stack (about 250 bytes per level: 5 MB of the usual 8 MB at this depth).
MAX_PRUNE_DEPTH = 20000


cdef class TrainingData:
    """The encoded training data a fit hands the core, by name.

    cont (n_cont, n) float32 (a float32 fit's values: c45/_encode.py's
    fit_values_dtype), NaN unknown; codes (n_disc, n) int32, 1..V, 0
    unknown; col: feature -> its row in cont or codes; n_values: feature -> V,
    0 continuous; y: class codes 0..n_classes-1; init_weight: each case's
    weight (an unweighted fit's: _bulk.unit_weights, one number); count_mode:
    every weight is 1 (totals are counts, §1.4); total_weight: N of the
    many-valued test; multival: every feature discrete with V >= 0.3 N (§6).
    f32 (R8's case array) also needs cont and each continuous feature's
    distinct values (distinct, distinct_start); float64
    needs the ranks, sorted values and known counts of c45/_ranks.pyx instead.
    The arrays of the layout not in use may be left out. A window's data in
    float64 gives distinct too: the stored cuts are then read from it (the
    values of all the cases, not only the window's: §5.4). f32 data given
    instead of the distinct values each continuous feature's order (the cases
    by value and row, c45/_encode.py's value_orders) and the known counts grow
    on the presorted lists (listed): only for data whose every sum is exact in
    binary32 whatever its order (exact_in_any_order), where R8's case order
    changes no bit; with cont None and sources, from the caller's X itself (as
    float64's sources: float64 columns, read rounded as the encoding rounds
    them; Dataset.by_source)."""
    cdef readonly object cont, codes, col, n_values, y, init_weight
    cdef readonly object distinct, distinct_start, rank, sorted_value, n_known, order
    cdef readonly object far, sources, source_addr, source_stride, source_single
    cdef readonly Py_ssize_t n_classes
    cdef readonly bint f32, count_mode, multival, cut_from_distinct, listed, by_source
    cdef readonly object sorted_digest, values_digest
    cdef readonly double total_weight

    def __init__(self, *, cont, codes, col, n_values, y, Py_ssize_t n_classes, init_weight,
                 bint f32, bint count_mode, double total_weight, bint multival,
                 distinct=None, distinct_start=None, rank=None, sorted_value=None,
                 n_known=None, order=None, far=None, sources=None,
                 sorted_digest=None, values_digest=None):
        n_features = len(col)
        if cont is not None and (not f32 or cont.dtype != np.float32):
            # (float64 grows on its ranks: the values are a float32 fit's alone)
            raise ValueError("c45: cont holds a float32 fit's values, as float32")
        # (None: a float64 zero, the training digest's placeholder as ever)
        self.cont = np.zeros((1, 1)) if cont is None else cont
        self.codes, self.col, self.n_values, self.y = codes, col, n_values, y
        self.init_weight = as_case_weights(init_weight)  # (unweighted: one number)
        self.n_classes = n_classes
        self.f32, self.count_mode, self.total_weight, self.multival = (
            f32, count_mode, total_weight, multival)
        self.cut_from_distinct = f32 or distinct is not None
        self.listed = f32 and order is not None
        self.order = np.zeros((1, 1), np.uint32) if order is None else order
        self.distinct = np.zeros(1) if distinct is None else distinct
        self.distinct_start = (np.zeros(n_features + 1, np.int64) if distinct_start is None
                               else distinct_start)
        self.rank = np.zeros((1, 1), np.uint32) if rank is None else rank
        self.sorted_value = np.zeros((1, 1)) if sorted_value is None else sorted_value
        self.n_known = np.zeros(n_features, np.int64) if n_known is None else n_known
        # float64: sources, per feature the 1-D float64 or float32 array of the
        # caller's X its values were read from (None: discrete), where every one
        # is a view (values_from_sources)
        self.sources = sources
        self.far = far
        self.by_source = False
        # float64 ranked in the sources themselves (c45/_ranks.pyx's
        # rank_sources): no sorted values were made, only each row's digest
        # lanes (the fit's fingerprint); growing reads the values from the
        # sources (values_from_sources) and far
        self.sorted_digest = sorted_digest
        # float32 on the lists read in the sources: the lanes of its values'
        # digest, as c45/_ranks.pyx's order_sources read them
        self.values_digest = values_digest
        if self.listed and cont is None:
            if sources is None or values_digest is None:
                raise ValueError("c45: float32 data without cont needs its sources")
            self._point_at_sources()
        if sorted_digest is not None and (f32 or sources is None or far is None
                                          or sorted_value is not None):
            raise ValueError("c45: data ranked in its sources needs them and far")

    def ensure_far(self):
        """float64: make Dataset.far from the sorted values (once)."""
        if (self.f32 or self.far is not None or self.by_source
                or self.sorted_value.shape[1] != len(self.y)):
            return                      # (no sorted values: a window's, or none)
        self.far = far_table(self.sorted_value, self.n_known, self.col, self.n_values)

    def values_from_sources(self):
        """float64: let go of the sorted values (8 bytes a cell), growing reading
        each cut's values from the sources instead (Dataset.by_source) and the
        cuts themselves from far (1 byte a cell). Only for a fit that reads no
        value once grown (build_tree's release_values)."""
        if self.f32 or self.sources is None or self.by_source:
            return
        self.ensure_far()
        if self.far is None:
            return
        self._point_at_sources()
        self.sorted_value = np.zeros((1, 1))

    def _point_at_sources(self):
        """Dataset.by_source's addresses, strides and kinds of the sources."""
        n = len(self.col)
        addr = np.zeros(n, np.intp)
        stride = np.zeros(n, np.intp)
        single = np.zeros(n, np.uint8)
        for f, a in enumerate(self.sources):
            if a is not None:
                addr[f] = a.ctypes.data
                stride[f] = a.strides[0]
                single[f] = a.dtype == np.float32
        if self.f32 and single.any():
            raise ValueError("c45: float32 on the lists reads float64 sources only")
        self.source_addr, self.source_stride, self.source_single = addr, stride, single
        self.by_source = True

    def forget_sources(self):
        """Hold no reference to the caller's X (data kept after the fit)."""
        if self.sorted_digest is not None:
            raise ValueError("c45: data ranked in its sources holds no values of its own")
        if not self.by_source:
            self.sources = None

    @property
    def n_cases(self):
        return len(self.y)

    @property
    def n_features(self):
        return len(self.col)


cdef class GrowOptions:
    """The growing options of a fit (C4.5's switches and the pre-pruning
    options; C45Classifier._options fills them from the parameters)."""
    cdef readonly double min_objs, min_split, max_purity, min_gain
    cdef readonly bint gain_ratio, subsets, leak_min_objs, midpoint, mdl
    cdef readonly int max_depth, max_features
    cdef readonly uint64_t seed

    def __init__(self, *, double min_objs, bint gain_ratio, bint subsets,
                 bint leak_min_objs, bint midpoint, bint mdl, int max_depth,
                 double min_split, double max_purity, double min_gain, int max_features,
                 uint64_t seed):
        self.min_objs, self.gain_ratio, self.subsets = min_objs, gain_ratio, subsets
        self.leak_min_objs, self.midpoint, self.mdl = leak_min_objs, midpoint, mdl
        self.max_depth, self.min_split, self.max_purity = max_depth, min_split, max_purity
        self.min_gain, self.max_features, self.seed = min_gain, max_features, seed


cdef int set_dataset(Dataset* d, TrainingData data, GrowOptions options) except -1:
    """Point d at the arrays of data (which keeps them alive) and copy the
    growing options."""
    if not data.f32 and not np.asarray(data.rank).flags.writeable:
        # float64 growing turns the ranks into the features' orders and back
        # in place (c45/_presorted.pyx: rank_order): its own copy of them
        data.rank = np.array(data.rank)
    cdef const float[:, ::1] cont
    cdef const int32_t[:, ::1] codes = data.codes
    cdef const int32_t[::1] col = data.col
    cdef const int32_t[::1] n_values = data.n_values
    cdef const int32_t[::1] y = data.y
    cdef const double[:] init_weight = data.init_weight      # (stride 0: unit_weights)
    cdef const double[::1] distinct
    cdef const float[::1] distinct32
    cdef const int64_t[::1] distinct_start = data.distinct_start
    cdef const uint32_t[:, ::1] rank = data.rank
    cdef const uint32_t[:, ::1] order = data.order
    cdef const double[:, ::1] sorted_value = data.sorted_value
    cdef const int64_t[::1] n_known = data.n_known
    cdef const uint8_t[:, ::1] far
    cdef const Py_ssize_t[::1] src_addr
    cdef const Py_ssize_t[::1] src_stride
    cdef const uint8_t[::1] src_single
    memset(d, 0, sizeof(Dataset))
    if data.far is not None:
        far = data.far
        d.far = &far[0, 0]
    if data.by_source:
        src_addr, src_stride, src_single = (data.source_addr, data.source_stride,
                                            data.source_single)
        d.by_source = True
        d.src_addr = &src_addr[0]
        d.src_stride = &src_stride[0]
        d.src_single = &src_single[0]
    d.rank = &rank[0, 0]
    d.order = &order[0, 0]
    d.sorted_value = &sorted_value[0, 0]
    d.n_known = &n_known[0]
    d.n_cases = y.shape[0]
    d.n_features = col.shape[0]
    d.n_classes = data.n_classes
    if data.cont.dtype == np.float32:
        cont = data.cont
        d.cont = &cont[0, 0]
    d.codes = &codes[0, 0]
    d.col = &col[0]
    d.n_values = &n_values[0]
    d.y = &y[0]
    d.init_weight = &init_weight[0]
    d.init_weight_step = init_weight.strides[0] // <Py_ssize_t> sizeof(double)
    if data.distinct.dtype == np.float32:          # (float32's values: float32 numbers)
        distinct32 = data.distinct
        d.distinct32 = &distinct32[0]
    else:
        distinct = data.distinct
        d.distinct = &distinct[0]
    d.distinct_start = &distinct_start[0]
    d.f32 = data.f32
    d.listed = data.listed
    d.cut_from_distinct = data.cut_from_distinct
    d.count_mode_init = data.count_mode
    d.total_weight = data.total_weight
    d.multival = data.multival
    d.min_objs = options.min_objs
    d.gain_ratio = options.gain_ratio
    d.subsets = options.subsets
    d.leak_min_objs = options.leak_min_objs
    d.midpoint = options.midpoint
    d.mdl = options.mdl
    d.max_depth = options.max_depth
    d.min_split = options.min_split
    d.max_purity = options.max_purity
    d.min_gain = options.min_gain
    d.max_features = options.max_features
    d.seed = options.seed
    return 0


cdef extern from *:
    """
    #if defined(__GLIBC__)
    #include <malloc.h>
    #define c45_trim_heap() ((void)malloc_trim(0))
    #else
    #define c45_trim_heap() ((void)0)
    #endif
    """
    void c45_trim_heap() noexcept nogil


cdef object pessimistic(Work* w, NodeBuffer* grown, double confidence,
                        bint subtree_raising, n_values, uint32_t* cut=NULL,
                        TrainingData release=None, bint with_grown=False):
    """Prune the grown tree in `grown` in place, compact it there and return it
    as a Tree (the buffer is then empty). cut: float64's cut ranks of the tree
    (taken), or NULL. release: the data whose ranks, and the Work, nothing reads
    once pruned (let go of before the trees are made). with_grown: return
    (grown Tree, pruned Tree), the grown one made once pruned, from the buffer
    and what pruning logged of the nodes it changed (no copy of the whole
    grown tree held beside the one being pruned)."""
    cdef int err
    cdef bint let_go = release is not None
    cdef GrownLog log
    cdef GrownLog* logged = NULL
    cdef double* errors = NULL
    cdef Py_ssize_t i
    memset(&log, 0, sizeof(GrownLog))
    try:
        if with_grown:
            errors = <double*> malloc(max(grown.count, 1) * sizeof(double))
            log.saved = <unsigned char*> calloc(max(grown.count, 1), 1)
            if errors == NULL or log.saved == NULL:
                free(cut)
                raise MemoryError("c45: out of memory while pruning the tree")
            for i in range(grown.count):
                errors[i] = grown.nodes[i].errors
            logged = &log
        with nogil:             # one release of the GIL: pruning, then compacting
            prune_pessimistic(grown, w, confidence, subtree_raising, cut, logged)
            if let_go:
                work_free(w)
                c45_trim_heap()     # pruning's freed blocks: not resident beside the trees
            if not with_grown:
                err = compact_in_place(grown)
        if let_go:
            release.rank = np.zeros((1, 1), np.uint32)
        kept = None
        if with_grown:          # made before the compaction drops the pruned nodes
            kept = tree_from_buffer(grown, n_values, False, logged, errors)
            free(errors); errors = NULL
            free(log.saved); log.saved = NULL
            log_free(&log)
            # a pass moving every node: short for a small tree, then with the GIL
            if grown.count * (grown.n_classes + 7) >= NOGIL_WORK:
                with nogil:
                    err = compact_in_place(grown)
            else:
                err = compact_in_place(grown)
        if err < 0 and grown.intr != NULL and grown.intr.stop:
            raise_interrupt()           # (the compaction stopped half way)
        if err < 0:
            raise MemoryError("c45: out of memory compacting the tree")
        pruned = tree_from_buffer(grown, n_values, True)
        return (kept, pruned) if with_grown else pruned
    finally:
        free(errors)
        free(log.saved)
        log_free(&log)


cdef int end_call(Work* w, Interrupt* intr) except -1:
    """The end of a call that looked for signals: w freed (its buffers of a size
    with the cases given back in polled steps, work_free), then the handlers
    given back. A handler that raised meanwhile is raised here (a stop before
    it is the caller's to raise)."""
    cdef bint stopped = intr.stop
    if w.data != NULL and w.data.n_cases >= NOGIL_WORK:
        with nogil:
            work_free(w)
    else:
        work_free(w)
    interrupt_end(intr)
    if intr.stop and not stopped:
        raise_interrupt()
    return 0


cdef bint copy_looking(char* out, const char* src, size_t n, Interrupt* intr) noexcept:
    """copy_polled, the GIL given up for a long copy only (c45/_gil.pxd)."""
    cdef bint stop
    if n < NOGIL_WORK * sizeof(int32_t):
        return copy_polled(out, src, n, intr)
    with nogil:
        stop = copy_polled(out, src, n, intr)
    return stop


cdef int compact_and_trim(NodeBuffer* raw, NodeBuffer* out) noexcept nogil:
    """The grown tree compacted in its growing buffer (no copy beside it), which
    becomes out's; -1 out of memory (raw unchanged)."""
    buffer_fit(raw)             # its room above count back first
    if compact_in_place(raw) < 0:
        return -1
    out[0] = raw[0]
    memset(raw, 0, sizeof(NodeBuffer))
    c45_trim_heap()
    return 0


# Whether build_tree may hold class weights as binary32 counts (exact_counts):
# a module global, so that tests can compare with the float64 buffer.
COUNTED_BUFFERS = True


def build_tree(TrainingData data not None, GrowOptions options not None,
               double confidence=-1.0, bint subtree_raising=True, int n_jobs=1,
               bint release_values=False):
    """Grow a tree on encoded data; with confidence > 0 also prune it pessimistically.
    Returns (grown, pruned or None, case order after growing). release_values:
    float64's tables are not read after this call, and data lets go of them: of
    the sorted values once grown (pruning reads ranks), of the ranks once
    pruned, so that neither is held beside the two trees, or once grown where
    X holds the values (by_source: pruning reads them there); float32 on the
    lists of the features' orders once grown."""
    cdef Dataset d
    cdef uint32_t* cut = NULL       # owned here until pruning takes it
    cdef uint32_t* handed
    cdef Work w
    cdef NodeBuffer raw, grown_buf
    cdef int err = 0
    cdef bint counts
    cdef Interrupt intr
    memset(&raw, 0, sizeof(NodeBuffer)); memset(&grown_buf, 0, sizeof(NodeBuffer))
    memset(&intr, 0, sizeof(Interrupt))
    data.ensure_far()
    set_dataset(&d, data, options)
    d.intr = &intr
    raw.n_classes = grown_buf.n_classes = d.n_classes
    raw.intr = grown_buf.intr = &intr
    memset(&w, 0, sizeof(Work))
    try:
        interrupt_init(&intr)           # (work_init's passes look for Ctrl-C too)
        counts = False
        if COUNTED_BUFFERS:     # (a pass over the discrete codes: long, without the GIL)
            if d.n_cases * d.n_features >= NOGIL_WORK:
                with nogil:
                    counts = exact_counts(&d)
            else:
                counts = exact_counts(&d)
        d.whole_counts = counts
        if intr.stop:
            raise_interrupt()
        raw.counted = grown_buf.counted = d.whole_counts
        work_init(&w, &d, d.f32 and not d.listed)
        work_threads_init(&w, n_jobs)
        if d.f32 and not d.listed:
            with nogil:
                grow(&w, &raw)
        else:
            grow_presorted(&w, &raw)
            # float32 on the lists: the stored maps as R8's order of growing has them
            if d.f32 and maps_in_growing_order(&raw, d.n_values) < 0:
                raise MemoryError("c45: out of memory compacting the tree")
        # Before pruning: the growing buffer is not needed any more, and the
        # pages growing freed go back (pruning's tables would stack on them).
        # Short for small data: then without giving the GIL up.
        if d.n_cases * d.n_features >= NOGIL_WORK:
            with nogil:
                err = compact_and_trim(&raw, &grown_buf)
        else:
            err = compact_and_trim(&raw, &grown_buf)
        if intr.stop:
            raise_interrupt()
        if err < 0:
            raise MemoryError("c45: out of memory compacting the tree")
        work_trim_nlogn(&w, 0)      # grown: not held beside the trees
        order = np.empty(d.n_cases, dtype=np.int32)
        if d.n_cases > 0 and copy_looking(<char*> cnp.PyArray_DATA(order), <char*> w.cases,
                                          d.n_cases * sizeof(int32_t), &intr):
            raise_interrupt()
        if confidence <= 0:
            return tree_from_buffer(&grown_buf, data.n_values, True), None, order
        # The tables nothing reads any more go before the grown tree's copy is made.
        if release_values and not d.f32 and not d.cut_from_distinct and d.by_source:
            # Pruning reads X's values (c45/_prune.pyx: source_outcome), not the
            # ranks (0.5x X's bytes), which go before it with the far table.
            data.rank = np.zeros((1, 1), np.uint32)
            d.rank = NULL
            data.far = None
            d.far = NULL
        elif release_values and not d.f32 and not d.cut_from_distinct:
            # a binary search a test: short for a small tree, then with the GIL
            if grown_buf.count * 32 >= NOGIL_WORK:
                with nogil:
                    cut = cut_ranks(&grown_buf, &d)
            else:
                cut = cut_ranks(&grown_buf, &d)
            if cut == NULL:
                raise MemoryError("c45: out of memory while pruning the tree")
            data.sorted_value = np.zeros((1, 1))
            d.sorted_value = NULL
            data.far = None             # (read only while growing)
            d.far = NULL
        if release_values and d.listed:
            # float32 on the lists: pruning reads the values by row, not the
            # features' orders
            data.order = np.zeros((1, 1), np.uint32)
            d.order = NULL
        check_depth(buffer_depth(&grown_buf))
        n_values = data.n_values
        release = data if release_values else None
        handed, cut = cut, NULL         # pruning takes it (and frees it, however it ends)
        grown, pruned = pessimistic(&w, &grown_buf, confidence, subtree_raising,
                                    n_values, handed, release, True)
        return grown, pruned, order
    finally:
        free(cut)                       # the cut ranks, unless pruning took them
        buffer_free(&raw); buffer_free(&grown_buf)
        end_call(&w, &intr)


def release_heap():
    """Give the pages of freed heap blocks back to the system (glibc; nothing
    elsewhere). glibc keeps a fit's freed buffers resident: the blocks above its
    mmap threshold, which the first large free raises to up to 32 MB, come from
    the heap, whose free pages it returns only from the top."""
    with nogil:
        c45_trim_heap()


def check_prunable(tree):
    check_depth(tree.max_depth)


def check_depth(Py_ssize_t depth):
    if depth > MAX_PRUNE_DEPTH:
        raise ValueError(
            f"c45: the grown tree is {depth} levels deep, more than "
            f"pruning supports ({MAX_PRUNE_DEPTH}); set max_depth to limit it")


def grows_with_counts(TrainingData data not None, GrowOptions options not None):
    """Whether build_tree's node buffers hold these data's class weights as
    binary32 counts (c45/_nodes.pyx: exact_counts)."""
    cdef Dataset d
    set_dataset(&d, data, options)
    return bool(exact_counts(&d))


def prune_tree(TrainingData data not None, GrowOptions options not None, grown,
               const int32_t[::1] order, double confidence, bint subtree_raising,
               int n_jobs=1, bint with_order=False):
    """Pessimistic pruning of a stored grown tree, the training cases in the order
    growing left them: the tree a fit with these settings would give (float64 on
    n_jobs threads). with_order: return (pruned tree, the case order pruning left,
    which float32's case array reorders as R8's does)."""
    cdef Dataset d
    cdef Work w
    cdef NodeBuffer buf
    cdef Interrupt intr
    memset(&buf, 0, sizeof(NodeBuffer))
    if with_order and data.listed:
        raise ValueError("c45: data grown on the presorted lists have no case order "
                         "of Release 8's to give back")
    set_dataset(&d, data, options)
    memset(&intr, 0, sizeof(Interrupt))
    check_prunable(grown)
    d.intr = &intr
    memset(&w, 0, sizeof(Work))
    try:
        interrupt_init(&intr)
        work_init(&w, &d, True)
        work_threads_init(&w, n_jobs)
        if d.n_cases > 0 and copy_looking(<char*> w.cases, <const char*> &order[0],
                                          d.n_cases * sizeof(int32_t), &intr):
            raise_interrupt()
        buffer_from_tree(grown, &buf, data.n_values, &intr)
        pruned = pessimistic(&w, &buf, confidence, subtree_raising, data.n_values)
        if not with_order:
            return pruned
        after = np.empty(d.n_cases, dtype=np.int32)
        if d.n_cases > 0 and copy_looking(<char*> cnp.PyArray_DATA(after), <char*> w.cases,
                                          d.n_cases * sizeof(int32_t), &intr):
            raise_interrupt()
        return pruned, after
    finally:
        buffer_free(&buf)
        end_call(&w, &intr)


def root_scores(TrainingData data not None, GrowOptions options not None):
    """Evaluate every attribute on all cases, as at the root (§3-§6).

    Returns a dict of per-feature arrays: gain (MDL-penalised for continuous
    features, -0.001 if unusable), raw_gain (best cut's gain before the penalty),
    split_info, midpoint (continuous), threshold (the stored cut), tries, and
    `chosen`, the selected feature (-1 for none)."""
    cdef Dataset d
    cdef Work w
    cdef Py_ssize_t f, chosen, nf
    cdef Interrupt intr
    memset(&intr, 0, sizeof(Interrupt))
    set_dataset(&d, data, options)
    d.intr = &intr
    nf = d.n_features
    memset(&w, 0, sizeof(Work))
    try:
        interrupt_init(&intr)
        work_init(&w, &d, d.f32 and not d.listed)
        if d.f32 and not d.listed:
            with nogil:
                chosen = find_split(&w, 0, d.n_cases - 1, total_weight(&w, 0, d.n_cases - 1))
        else:
            chosen = root_split_listed(&w)
        if intr.stop:
            raise_interrupt()
        for f in range(nf):
            settle_bar(&w, f)
        out = dict(gain=np.array([w.gain[f] for f in range(nf)]),
                   raw_gain=np.array([w.raw_gain[f] for f in range(nf)]),
                   split_info=np.array([w.info[f] for f in range(nf)]),
                   midpoint=np.array([w.bar[f] if d.n_values[f] == 0 else np.nan
                                      for f in range(nf)]),
                   tries=np.array([w.tries[f] for f in range(nf)]),
                   chosen=int(chosen))
        out["threshold"] = np.array([cut_of(&d, w.bar, f)
                                     if d.n_values[f] == 0 and w.gain[f] > 0 else np.nan
                                     for f in range(nf)])
        return out
    finally:
        end_call(&w, &intr)



# ---------------------------------------------------------------------------
# Descending a fitted tree (classification, validation routing, decision paths)

cdef struct TreeView:
    const signed char* kind
    const int32_t* feature
    const int32_t* first
    const int32_t* n_children
    const double* threshold
    const double* weight
    const int64_t* map_offset
    const int32_t* value_map
    const double* lower       # soft thresholds' bounds (c45/_soft.pyx); NULL: none
    const double* upper


cdef struct Rows:
    const double* cont        # (n_cont, m), or (m, n_cont) with rows_first; NaN unknown
    const int32_t* codes      # (n_disc, m), 0 unknown or unseen
    Py_ssize_t m
    Py_ssize_t stride_col     # value of row r, column j: cont[j * stride_col + r * stride_row]
    Py_ssize_t stride_row
    const int32_t* col
    const int32_t* n_values


cdef inline int row_branch(const TreeView* t, const Rows* x, Py_ssize_t nd,
                           Py_ssize_t r) noexcept nogil:
    """The branch (1..B) row r takes at test node nd; 0 when its value is unknown
    or was never seen in training: the row then goes down every branch (§9)."""
    cdef int32_t f = t.feature[nd]
    cdef Py_ssize_t fcol = x.col[f]
    cdef double v_cont
    cdef int v
    if t.kind[nd] == CONTINUOUS:
        v_cont = x.cont[fcol * x.stride_col + r * x.stride_row]
        if isnan(v_cont):
            return 0
        return 1 if v_cont <= t.threshold[nd] else 2
    v = x.codes[fcol * x.m + r]
    if v < 0 or v > x.n_values[f]:
        return 0
    if t.kind[nd] == SUBSET and v > 0:
        v = t.value_map[t.map_offset[nd] + v]
    return v if v <= t.n_children[nd] else 0


cdef object tree_view(tree, n_values, TreeView* t):
    """Point t at the tree's arrays; returns the memoryviews that keep them."""
    check_walkable(tree, n_values)
    cdef const signed char[::1] kind = tree.kind
    cdef const int32_t[::1] feature = tree.feature, first = tree.first_child
    cdef const int32_t[::1] nch = tree.n_children
    cdef const double[::1] thr = tree.threshold, weight = tree.weight
    cdef const int64_t[::1] map_offset = tree.map_offset
    cdef const int32_t[::1] value_map = np.append(tree.value_map, np.int32(0))
    t.kind = &kind[0]
    t.feature = &feature[0]
    t.first = &first[0]
    t.n_children = &nch[0]
    t.threshold = &thr[0]
    t.weight = &weight[0]
    t.map_offset = &map_offset[0]
    t.value_map = &value_map[0]
    t.lower = t.upper = NULL
    cdef const double[::1] lower, upper
    if tree.lower is None:
        return (kind, feature, first, nch, thr, weight, map_offset, value_map)
    lower, upper = tree.lower, tree.upper
    t.lower = &lower[0]
    t.upper = &upper[0]
    return (kind, feature, first, nch, thr, weight, map_offset, value_map, lower, upper)


cdef inline double soft_share(const TreeView* t, Py_ssize_t nd, double v) noexcept nogil:
    """The share of a row's weight that goes down branch 1 of the soft continuous
    test nd (lower < upper) for the known value v: 1 at or below the lower bound,
    1/2 at the threshold, 0 at or above the upper bound, linear in between."""
    cdef double lo = t.lower[nd], hi = t.upper[nd], cut = t.threshold[nd]
    if v <= lo:
        return 1.0
    if v >= hi:
        return 0.0
    if v <= cut:
        if isinf(cut - lo):     # bounds beyond half of float64's range: halves
            return 1.0 - 0.5 * (0.5 * v - 0.5 * lo) / (0.5 * cut - 0.5 * lo)
        return 1.0 - 0.5 * (v - lo) / (cut - lo)
    if isinf(hi - cut):
        return 0.5 * (0.5 * hi - 0.5 * v) / (0.5 * hi - 0.5 * cut)
    return 0.5 * (hi - v) / (hi - cut)


cdef int row_view(const double[:, ::1] cont, const int32_t[:, ::1] codes,
                  const int32_t[::1] col, const int32_t[::1] n_values, Rows* x,
                  bint rows_first=False) except -1:
    # The walkers read row r of feature f at column col[f] of cont or codes; x
    # points into the caller's memoryviews, which outlive the walk.
    cdef Py_ssize_t n_cont = cont.shape[1] if rows_first else cont.shape[0]
    cdef Py_ssize_t f
    cdef bint discrete = False, bad = col.shape[0] != n_values.shape[0]
    for f in range(col.shape[0] if not bad else 0):
        discrete = discrete or n_values[f] > 0
        if col[f] < 0 or col[f] >= (codes.shape[0] if n_values[f] > 0 else n_cont):
            bad = True
    if bad or (not rows_first and discrete and codes.shape[1] != cont.shape[1]):
        raise ValueError("c45: the encoded rows do not match the model's features")
    x.m = cont.shape[1] if cont.shape[0] > 0 else codes.shape[1]
    x.stride_col = x.m
    x.stride_row = 1
    x.cont = &cont[0, 0]
    x.codes = &codes[0, 0]
    x.col = &col[0]
    x.n_values = &n_values[0]
    return 0


cdef struct FastNode:
    double threshold
    int32_t first
    int32_t column      # continuous test: the feature's column; LEAF_MARK; OTHER_TEST


cdef enum:
    LEAF_MARK = -1      # a leaf: the fast walk ends here
    OTHER_TEST = -2     # a discrete or subset test: the general walk


cdef enum:
    SMALL_STACK = 256   # predict_sums: one thread's stack on the C stack up to this
    ROWS_PER_THREAD_C = 2048


# predict_sums starts a thread per this many rows at most (so a call on fewer than
# twice this runs on the calling thread alone, whatever n_jobs).
ROWS_PER_THREAD = ROWS_PER_THREAD_C


cdef class Descent:
    """What descending one tree needs beyond its arrays, made once per tree and
    reused by every predict, predict_proba, apply, decision_path and validation
    routing of it (descent_for caches it on the Tree; pruning makes a new Tree,
    hence new tables). Read-only after it is made, so threads share it freely.

    It holds its own views of the tree's arrays: the walkers read nothing else."""
    cdef TreeView tv
    cdef FastNode* fast         # the nodes packed for the fast walk (16 bytes each)
    cdef int32_t* leaf_class    # per leaf, the first class of largest sum, weight 1
    cdef Py_ssize_t n_nodes, k
    cdef Py_ssize_t stack_need  # the most entries a row's stack can hold
    cdef bint laplace, f32
    cdef const int32_t[::1] col    # the rows' columns (fast[].column) it was made for
    cdef object tree_nv            # the tree's n_values array when it was made ...
    cdef const int32_t[::1] nv     # ... and a view of it (descent_for's fast check)
    cdef const signed char[::1] kind
    cdef const int32_t[::1] first, nch, ncls
    cdef const double[::1] weight
    cdef const double[:, ::1] value
    cdef object keep

    def __cinit__(self):
        self.fast = NULL
        self.leaf_class = NULL

    def __dealloc__(self):
        free(self.fast)
        free(self.leaf_class)


cdef Py_ssize_t pack_nodes(const TreeView* tv, FastNode* fast, int32_t* leaf_class,
                           int32_t* need, double* sums, Py_ssize_t n, Py_ssize_t k,
                           const signed char[::1] kind, const int32_t[::1] first,
                           const int32_t[::1] nch, const int32_t[::1] ncls,
                           const double[::1] weight, const double[:, ::1] value,
                           const int32_t[::1] col, bint laplace, bint f32,
                           Interrupt* intr) noexcept nogil:
    """make_descent's tables of the nodes; returns the stack a row needs, -1
    when interrupted (a leaf's class weights are read: it looks as it goes)."""
    cdef Py_ssize_t nd, c, top, stack_need = 1, cells = 0
    for nd in range(n):     # parents come before children (check_tree_arrays)
        fast[nd].threshold = tv.threshold[nd]
        fast[nd].first = first[nd]
        leaf_class[nd] = 0
        if kind[nd] == LEAF:
            fast[nd].column = LEAF_MARK
            for c in range(k):
                sums[c] = 0.0
            add_leaf(sums, nd, 1.0, k, weight, value, ncls, laplace, f32)
            leaf_class[nd] = <int32_t> first_max(sums, k)
            if look_by_cells(&cells, k, intr):
                return -1
            continue
        fast[nd].column = col[tv.feature[nd]] if kind[nd] == CONTINUOUS \
            else OTHER_TEST
        if tv.lower != NULL and kind[nd] == CONTINUOUS \
                and tv.lower[nd] < tv.upper[nd]:
            fast[nd].column = OTHER_TEST      # a soft test: the general walk
        # A row descending every branch leaves nch - 1 of them on its stack.
        top = need[nd] - 1 + nch[nd]
        stack_need = max(stack_need, top)
        for c in range(nch[nd]):
            need[first[nd] + c] = <int32_t> top
    return stack_need


cdef Descent make_descent(tree, n_values, const int32_t[::1] col, bint laplace, bint f32):
    cdef Descent d = Descent()
    d.keep = tree_view(tree, n_values, &d.tv)
    d.tree_nv = tree.n_values
    d.nv = d.tree_nv
    d.kind, d.first, d.nch = tree.kind, tree.first_child, tree.n_children
    d.ncls, d.weight, d.value = tree.node_class, tree.weight, tree.value
    d.laplace, d.f32 = laplace, f32
    d.col = np.array(col, dtype=np.int32)
    d.n_nodes, d.k = d.kind.shape[0], d.value.shape[1]
    cdef Py_ssize_t n = d.n_nodes, k = d.k, nd, c, top
    if col.shape[0] != len(n_values):
        raise ValueError("c45: the tree does not match the model's features")
    d.fast = <FastNode*> malloc((n + 1) * sizeof(FastNode))
    d.leaf_class = <int32_t*> malloc((n + 1) * sizeof(int32_t))
    cdef int32_t* need = <int32_t*> malloc((n + 1) * sizeof(int32_t))
    cdef double* sums = <double*> malloc((k + 1) * sizeof(double))
    if d.fast == NULL or d.leaf_class == NULL or need == NULL or sums == NULL:
        free(need); free(sums)
        raise MemoryError("c45: out of memory setting up prediction")
    need[0] = 1
    cdef Interrupt intr
    memset(&intr, 0, sizeof(Interrupt))
    # (the nodes of a tree of thousands pack in well under a switch interval;
    # a big one, or one of many classes, without the GIL, looking for signals)
    try:
        if n >= NOGIL_WORK // 64 or n * k >= NOGIL_WORK:
            interrupt_init(&intr)
            with nogil:
                d.stack_need = pack_nodes(&d.tv, d.fast, d.leaf_class, need, sums, n, k,
                                          d.kind, d.first, d.nch, d.ncls, d.weight,
                                          d.value, col, laplace, f32, &intr)
        else:
            d.stack_need = pack_nodes(&d.tv, d.fast, d.leaf_class, need, sums, n, k,
                                      d.kind, d.first, d.nch, d.ncls, d.weight, d.value,
                                      col, laplace, f32, NULL)
    finally:
        free(need)
        free(sums)
        interrupt_end(&intr)
    if d.stack_need < 0:
        raise_interrupt()
    return d


cdef tuple _KEYS = ((False, False), (False, True), (True, False), (True, True))


cdef Descent descent_for(tree, const int32_t[::1] n_values, const int32_t[::1] col,
                         bint laplace, bint f32):
    """The tree's Descent for rows of these columns, made on first use and cached
    on the tree. Threads that race here each make a correct one; one is kept.

    The usual call finds it cached: then the tree is a Tree, its n_values is the
    very array the Descent holds a view of (so equal to n_values exactly when the
    view is) and the columns are those it was made for, which is all that
    check_walkable would check, without making memoryviews of the tree's arrays."""
    cdef Descent d = None
    key = _KEYS[2 * laplace + f32]
    if type(tree) is Tree:
        cache = tree.__dict__.get("_descents")
        if cache is not None:
            d = cache.get(key)
            if (d is not None and d.tree_nv is tree.n_values and same_ints(d.nv, n_values)
                    and same_ints(d.col, col)):
                return d
    check_walkable(tree, n_values)
    cache = tree.__dict__.get("_descents")
    if cache is None:
        cache = tree.__dict__.setdefault("_descents", {})
    d = cache.get(key)
    if d is None:
        d = cache.setdefault(key, make_descent(tree, n_values, col, laplace, f32))
    if not same_ints(d.col, col):      # rows of another layout: not cached
        d = make_descent(tree, n_values, col, laplace, f32)
    return d


cdef struct Poll:
    # Looking for signals by work done: a row with unknown values follows every
    # branch, so one row (or one block of rows) can take seconds on a big tree.
    Interrupt* intr       # looked at every POLL_NODES nodes visited (a C flag read)
    Py_ssize_t left       # nodes to visit before the next look
    bint armed            # signals are looked for; else the walk pauses, at the end
                          # of the row that used up `left`, to set that up


cdef enum:
    POLL_NODES = 1 << 14  # about 0.1 ms of the general walk
    # A call on few rows walks this many nodes (a few ms) before it sets up
    # looking for signals (about 0.25 ms: not worth it for one-row calls).
    PAUSE_NODES = 1 << 20


cdef struct Blocks:
    # Rows in blocks of about 10 ms of work: between blocks the walk looks for
    # signals (c45/_interrupt.pyx: a C flag, no GIL), so that every walker over
    # many rows stops within a fraction of a second; within a block it looks by
    # nodes visited (Poll). The whole walk runs without the GIL: taking it back
    # between blocks would wait on any busy Python thread.
    Py_ssize_t lo, hi, m, size
    double t0
    Interrupt intr
    Poll poll


# Fewer rows than this take well under a millisecond: no signal set-up (one-row
# latency), no looking.
cdef Py_ssize_t BLOCKS_POLL_MIN_ROWS = 4096


cdef inline int blocks_init(Blocks* b, Py_ssize_t m, Py_ssize_t row_work=0) except -1:
    """row_work: the most a row's walk can count down (Poll) beyond its nodes;
    past PAUSE_NODES a single row could run long before the pause at its end
    (a row of unknowns summing every leaf's 5,000 class weights: 0.07 s at 16k
    nodes), so looking is set up at once."""
    b.lo, b.hi, b.m, b.size, b.t0 = 0, 0, m, 16, 0.0
    memset(&b.intr, 0, sizeof(Interrupt))
    b.poll.intr = &b.intr
    b.poll.armed = m >= BLOCKS_POLL_MIN_ROWS or row_work >= PAUSE_NODES
    b.poll.left = POLL_NODES if b.poll.armed else PAUSE_NODES
    if b.poll.armed:
        interrupt_init(&b.intr)
    return 0


cdef inline bint blocks_resume(Blocks* b) except -1:
    """After blocks_next returned False: True when the walk paused to set up
    looking for signals (done here, with the GIL), so it goes on from the row
    after the one it paused at."""
    if b.poll.armed or b.intr.stop or b.poll.left > 0 or b.hi >= b.m:
        return False
    interrupt_init(&b.intr)
    b.poll.armed = True
    b.poll.left = POLL_NODES
    return True


cdef inline int blocks_end(Blocks* b, bint raising) except -1:
    """Stop looking for signals; raise the interrupt that stopped the walk."""
    interrupt_end(&b.intr)
    if b.intr.stop and raising:
        raise_interrupt()
    return 0


cdef inline Py_ssize_t next_block_size(Py_ssize_t size, double took) noexcept nogil:
    """The rows of the next block, after one of `size` rows took `took` seconds:
    blocks of 2-20 ms (a row can visit the whole tree, so no fixed count)."""
    if took < 0.002 and size < (1 << 24):
        return size * 2
    if took > 0.02 and size > 1:
        return size // 2
    return size


cdef bint blocks_next(Blocks* b) noexcept nogil:
    """Advance to the next block (lo .. hi - 1); False when none is left or a
    signal handler raised (blocks_end raises it), or when the walk paused
    (blocks_resume)."""
    if b.intr.stop:         # (also when it came in the block's first row)
        return False
    if b.hi > b.lo:
        b.size = next_block_size(b.size, monotonic() - b.t0)
        if interrupted(&b.intr) or not b.poll.armed and b.poll.left <= 0:
            return False
    b.lo = b.hi
    if b.lo >= b.m:
        return False
    b.hi = min(b.m, b.lo + b.size)
    b.t0 = monotonic()
    return True


cdef inline Py_ssize_t push_branches(Descent d, const Rows* rows, Py_ssize_t nd,
                                     Py_ssize_t r, double wt, int32_t* stack_node,
                                     double* stack_w, Py_ssize_t top,
                                     bint f32) noexcept nogil:
    """Push the branches row r takes at test node nd with weight wt onto the
    stack; returns the new top. A known value takes its branch with all of wt;
    an unknown one every branch, with wt times the branch's share of the node's
    training weight (§9), pushed in reverse so that branches are visited in
    order (the order of the binary32 sums)."""
    cdef Py_ssize_t b, v = row_branch(&d.tv, rows, nd, r)
    cdef int32_t child = d.first[nd]
    cdef double p, x
    if v > 0 and d.tv.lower != NULL and d.tv.kind[nd] == CONTINUOUS \
            and d.tv.lower[nd] < d.tv.upper[nd]:
        x = rows.cont[rows.col[d.tv.feature[nd]] * rows.stride_col + r * rows.stride_row]
        p = soft_share(&d.tv, nd, x)
        if 0.0 < p < 1.0:       # between the bounds: both branches, branch 1 on top
            stack_node[top] = child + 1
            stack_w[top] = rnd(f32, wt * (1.0 - p))
            stack_node[top + 1] = child
            stack_w[top + 1] = rnd(f32, wt * p)
            return top + 2
        v = 1 if p >= 1.0 else 2
    if v > 0:
        stack_node[top] = child + <int32_t> v - 1
        stack_w[top] = wt
        return top + 1
    for b in range(d.nch[nd] - 1, -1, -1):
        stack_node[top] = child + <int32_t> b
        stack_w[top] = rnd(f32, rnd(f32, wt * d.weight[child + b]) / d.weight[nd])
        top = top + 1
    return top


# What the one descent does with the nodes a row reaches (its sink).
cdef enum:
    SINK_SUMS = 0      # the leaves' answers added to the row's class sums (§9)
    SINK_REACH = 1     # every node's weight of the row's class (reduced-error pruning)
    SINK_PATH = 2      # every node (and its share of the row's weight): decision_path
    SINK_COUNT = 3     # how many nodes each row reaches (the room SINK_PATH needs)
    SINK_LEAF = 4      # the leaf with the largest share of the row's weight (apply)

cdef struct Sink:
    int kind
    double* sums              # SINK_SUMS: (m, k) C-ordered class sums, or with ...
    bint classes_only         # ... classes_only each row's class index instead:
    Py_ssize_t* cls_out       # (m,), the first class of largest sum, or with ...
    const Py_ssize_t* held    # ... held (k,) its held[c] among the classes held >= 0
    double* reach             # SINK_REACH: (nodes, k) C-ordered ...
    const int32_t* y          # ... and each row's class
    int32_t* node             # SINK_PATH: the nodes visited so far (all rows) ...
    double* weight            # ... and their weights (or NULL), in room for cap
    Py_ssize_t count, cap     # (counted first by SINK_COUNT: no growth, no waste)
    int64_t* indptr           # ... and where each row's nodes end (m + 1)
    int64_t* leaf             # SINK_LEAF: (m,) each row's leaf


cdef inline bint descend_row(Descent d, const Rows* rows, Py_ssize_t r, Py_ssize_t start,
                             int32_t* stack_node, double* stack_w, Sink* s,
                             double* sums, int32_t cls, Poll* p) noexcept nogil:
    """The weighted descent of §9, the one every walker takes: row r goes down
    from node start with weight 1 (start: where the fast walk of a known path
    stopped, or the root), and each node it reaches, with the share of the row's
    weight that reaches it, goes to the sink: the leaves' answers into sums, the
    weight into the node's class cls, or the node onto the path. False when
    memory runs out. For the leaf sink, the first leaf (in branch order) of the
    largest share. Counts the nodes down p.left (a leaf's sums as k / 8 nodes),
    looking for signals when armed; False too when interrupted. (walk_rows is its one caller, so that it is
    inlined there.)"""
    cdef Py_ssize_t top = 1, nd, k = d.k, best_leaf = -1, left = p.left
    cdef int kind = s.kind
    cdef bint f32 = d.f32, laplace = d.laplace
    cdef double wt, best = -1.0
    cdef Rows rw = rows[0]      # a local copy: the stack's stores cannot alias it
    stack_node[0] = <int32_t> start
    stack_w[0] = 1.0
    while top > 0:
        top = top - 1
        nd = stack_node[top]
        wt = stack_w[top]
        left -= 1
        if left <= 0 and p.armed:
            left = POLL_NODES
            if interrupted(p.intr):
                p.left = left
                return False
        if kind == SINK_REACH:
            s.reach[nd * k + cls] += wt
        elif kind == SINK_PATH:
            if s.count == s.cap:        # more than SINK_COUNT counted: never
                return False
            s.node[s.count] = <int32_t> nd
            if s.weight != NULL:
                s.weight[s.count] = wt
            s.count += 1
        elif kind == SINK_COUNT:
            s.count += 1
        if d.kind[nd] != LEAF:
            top = push_branches(d, &rw, nd, r, wt, stack_node, stack_w, top, f32)
        elif kind == SINK_SUMS:
            add_leaf(sums, nd, wt, k, d.weight, d.value, d.ncls, laplace, f32)
            left -= k >> 3      # (a leaf's k sums: counted as nodes' work, so that
                                # thousands of classes do not stretch the polls)
        elif kind == SINK_LEAF and wt > best:
            best, best_leaf = wt, nd
    p.left = left
    if kind == SINK_LEAF:
        s.leaf[r] = best_leaf
    return True


cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static Py_ssize_t c45_claim(Py_ssize_t *next, Py_ssize_t n)
    { return (Py_ssize_t) _InterlockedExchangeAdd64((volatile __int64 *) next, (__int64) n); }
    #else
    static Py_ssize_t c45_claim(Py_ssize_t *next, Py_ssize_t n)
    { return __atomic_fetch_add(next, n, __ATOMIC_RELAXED); }
    #endif
    """
    # The first of n rows claimed from the shared cursor *next (atomically).
    Py_ssize_t c45_claim(Py_ssize_t* next, Py_ssize_t n) noexcept nogil


cdef void walk_claimed(Descent d, Py_ssize_t m, Py_ssize_t* cursor, const Rows* rows,
                       int32_t* stack_node, double* stack_w, double* scratch, Sink* s,
                       Interrupt* intr) noexcept nogil:
    """walk_rows over blocks of rows claimed from the threads' shared cursor until
    none of the m is left, each block of about the Blocks' time (sized as
    blocks_next sizes them: a row can visit the whole tree), looking for signals
    between blocks and every POLL_NODES nodes of the general walk (threads run
    only on enough rows for Blocks to have set up looking for signals: armed from
    the start). A thread the scheduler sets aside holds back one block, not a
    fixed share of the rows: the others walk the rest (with a half each, the
    calling thread waited for a busy machine to run its worker's whole half)."""
    cdef Py_ssize_t at, size = 16, end
    cdef double t0
    cdef Poll p
    p.intr, p.left, p.armed = intr, POLL_NODES, True
    while True:
        at = c45_claim(cursor, size)
        if at >= m:
            return
        end = min(m, at + size)
        t0 = monotonic()
        walk_rows(d, at, end, rows, stack_node, stack_w, scratch, s, &p)
        size = next_block_size(size, monotonic() - t0)
        if interrupted(intr):
            return


cdef Py_ssize_t walk_rows(Descent d, Py_ssize_t lo, Py_ssize_t hi, const Rows* rows_p,
                          int32_t* stack_node, double* stack_w, double* scratch,
                          Sink* s, Poll* p) noexcept nogil:
    """Rows lo .. hi - 1 down the tree into the sink, with one thread's stack and
    scratch sums (k, for classes_only). For class sums and leaves, a row whose
    path meets only continuous tests with known values takes the fast walk over
    the packed nodes and the leaf's answer for weight 1 (its precomputed class,
    or the leaf itself); every other row, and every row of the other sinks,
    takes descend_row. Threads share
    a class-sums sink (they write their own rows only); the other sinks are
    filled by one thread. Returns the row after the last one walked: hi, or less
    when interrupted or paused (Poll); -1 when memory runs out."""
    cdef Rows rows = rows_p[0]
    cdef const FastNode* fast = d.fast
    cdef const double* xc = rows.cont
    cdef Py_ssize_t k = d.k
    cdef int kind = s.kind
    cdef Py_ssize_t r, c, nd
    cdef double x
    cdef double* target = scratch
    cdef int32_t cls = 0
    for r in range(lo, hi):
        nd = 0
        if kind == SINK_SUMS or kind == SINK_LEAF:
            while fast[nd].column >= 0:
                x = xc[fast[nd].column * rows.stride_col + r * rows.stride_row]
                if isnan(x):
                    break
                nd = fast[nd].first + (1 if x > fast[nd].threshold else 0)
            if kind == SINK_SUMS and not s.classes_only:
                # Zeroed row by row, here: a memset of the whole output up front
                # would touch every page of it before the first poll.
                target = s.sums + r * k
                for c in range(k):
                    target[c] = 0.0
            if fast[nd].column == LEAF_MARK:
                if kind == SINK_LEAF:
                    s.leaf[r] = nd
                elif s.classes_only:
                    c = d.leaf_class[nd]
                    if s.held == NULL:
                        s.cls_out[r] = c
                    elif s.held[c] >= 0:
                        s.cls_out[r] = s.held[c]
                    else:       # the leaf's sums, to choose among the held classes
                        for c in range(k):
                            scratch[c] = 0.0
                        add_leaf(scratch, nd, 1.0, k, d.weight, d.value, d.ncls,
                                 d.laplace, d.f32)
                        s.cls_out[r] = first_max_held(scratch, k, s.held)
                else:   # onto zero sums: the numbers the general walk would give
                    add_leaf(target, nd, 1.0, k, d.weight, d.value, d.ncls,
                             d.laplace, d.f32)
                continue
            # The general walk, from where the fast one stopped (the path above it
            # has weight 1 and no leaf).
            if kind == SINK_SUMS and s.classes_only:
                for c in range(k):
                    scratch[c] = 0.0
        elif kind == SINK_REACH:
            cls = s.y[r]
        if not descend_row(d, &rows, r, nd, stack_node, stack_w, s, target, cls, p):
            return r if p.intr.stop else -1
        if kind == SINK_PATH or kind == SINK_COUNT:
            s.indptr[r + 1] = s.count
        elif kind == SINK_SUMS and s.classes_only:
            s.cls_out[r] = (first_max(scratch, k) if s.held == NULL
                            else first_max_held(scratch, k, s.held))
        if p.left <= 0 and not p.armed:
            return r + 1
    return hi


cdef bint walk_blocks(Descent d, Blocks* b, const Rows* rows, int32_t* stack_node,
                      double* stack_w, double* scratch, Sink* s) noexcept nogil:
    """walk_rows over the blocks until done, interrupted or paused (then
    blocks_resume says whether to go on). False when memory runs out."""
    cdef Py_ssize_t end
    while blocks_next(b):
        end = walk_rows(d, b.lo, b.hi, rows, stack_node, stack_w, scratch, s, &b.poll)
        if end < 0:
            return False
        b.hi = end
    return True


cdef void rows_to_proba(double* sums, Py_ssize_t m, Py_ssize_t k,
                        Interrupt* intr) noexcept nogil:
    """Each row of sums divided by its total (by 1 where the total is 0). Looks
    for Ctrl-C every LOOK_CELLS sums (a row's k: 20,000 rows of 5,000 classes
    were 0.24 s between two looks by rows); interrupted, stops (the call
    raises)."""
    cdef Py_ssize_t i, c, cells = 0
    cdef double t
    for i in range(m):
        if look_by_cells(&cells, k, intr):
            return
        t = 0.0 + pairwise(sums + i * k, k)     # as sums / sums.sum(1)
        if not t > 0:
            t = 1.0
        for c in range(k):
            sums[i * k + c] = sums[i * k + c] / t


cdef void rows_to_columns(const double* sums, Py_ssize_t m, Py_ssize_t k,
                          const Py_ssize_t* columns, Py_ssize_t n_out, bint proba,
                          double* out, Interrupt* intr) noexcept nogil:
    """out (m x n_out): each row's sums of the classes `columns`, divided by
    their total for proba when they are fewer than k. Looks for Ctrl-C every
    LOOK_CELLS sums (rows_to_proba); interrupted, stops (the call raises)."""
    cdef Py_ssize_t i, j, cells = 0
    cdef double t
    for i in range(m):
        if look_by_cells(&cells, n_out, intr):
            return
        for j in range(n_out):
            out[i * n_out + j] = sums[i * k + columns[j]]
        if proba and n_out < k:
            t = 0.0 + pairwise(out + i * n_out, n_out)
            if not t > 0:
                t = 1.0
            for j in range(n_out):
                out[i * n_out + j] = out[i * n_out + j] / t


cdef const Py_ssize_t* class_index_array(a, Py_ssize_t n) except NULL:
    """The data of a 1-D C-contiguous intp array of class indices (of n of them
    unless n < 0)."""
    if (not isinstance(a, np.ndarray) or cnp.PyArray_TYPE(<cnp.ndarray> a) != cnp.NPY_INTP
            or cnp.PyArray_NDIM(<cnp.ndarray> a) != 1
            or not cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray> a)
            or (n >= 0 and cnp.PyArray_DIM(<cnp.ndarray> a, 0) != n)):
        raise ValueError("c45: a class index array of the wrong type or length")
    return <const Py_ssize_t*> cnp.PyArray_DATA(<cnp.ndarray> a)


def predict_sums(tree, const double[:, ::1] cont, const int32_t[:, ::1] codes,
                 const int32_t[::1] col, const int32_t[::1] n_values, bint f32,
                 bint laplace=False, int n_jobs=1, bint rows_first=False,
                 bint classes_only=False, bint proba=False, columns=None, held=None):
    """Class sums of C4.5's classification (§9) for each row; unknown and unseen
    values descend every branch, weighted by the branches' training weights. With
    laplace, a leaf answers (n_c + 1) / (N + k) instead of n_c / N (J48's -A).
    Rows are classified by n_jobs threads. rows_first: cont is (m, n_cont) (the
    user's own C-ordered array when every feature is continuous) and codes unused.
    classes_only: return, instead of the (m, k) sums, each row's class index, the
    first class of largest sum (C4.5's choice), without writing the sums.
    proba: each row of sums divided by its total, in the same call (one release
    of the GIL for the whole prediction: each costs a switch interval beside a
    busy thread).
    held (classes_only; a model whose classes_ are not its declared classes in
    order): per class, its index in classes_ (-1: a declared class y held no case
    of); each row's index is then in classes_, of the first held class of largest
    sum (a class without cases ties at most). columns (proba): per column of the
    answer, its class; with all k classes the rows are divided by their totals,
    then their columns taken; with fewer, the columns taken are divided by their
    own totals. Both are the model's, made once (a one-row predict does no work
    that grows with the classes).

    A row whose path meets only continuous tests with known values ends in one leaf
    with weight 1: it walks the tree's packed nodes (its Descent, made once per
    tree) and takes the leaf's answer for weight 1 (or, for classes_only, the
    leaf's precomputed class). Any other row takes the general walk with its
    stack."""
    cdef Descent d = descent_for(tree, n_values, col, laplace, f32)
    cdef Rows rows
    row_view(cont, codes, col, n_values, &rows, rows_first)
    if rows_first:
        rows.m = cont.shape[0]
        rows.stride_col = 1
        rows.stride_row = cont.shape[1]
    cdef Py_ssize_t m = rows.m, k = d.k, need = d.stack_need
    # held and columns: read through their pointers (a memoryview of each would
    # cost a one-row predict a tenth of its time).
    cdef const Py_ssize_t* held_p = NULL
    cdef const Py_ssize_t* columns_v = NULL
    cdef Py_ssize_t n_out = k, j
    cdef double* taken = NULL
    if held is not None:
        held_p = class_index_array(held, k)    # its entries are only returned
    if columns is not None:
        columns_v = class_index_array(columns, -1)
        n_out = cnp.PyArray_DIM(<cnp.ndarray> columns, 0)
        for j in range(n_out):
            if not 0 <= columns_v[j] < k:
                raise ValueError("c45: columns do not match the tree's classes")
    cdef cnp.npy_intp dims[2]
    dims[0], dims[1] = (0 if classes_only else m), k
    # Every row's sums (or class) are written by the walk, which zeroes them first.
    out = unfaulted_empty(2, dims, cnp.NPY_FLOAT64)
    if columns is not None:             # out's columns, in that order
        dims[1] = n_out
        answer = unfaulted_empty(2, dims, cnp.NPY_FLOAT64)
        taken = <double*> cnp.PyArray_DATA(answer)
    dims[0] = m if classes_only else 0
    classes = unfaulted_empty(1, dims, cnp.NPY_INTP)
    cdef Sink sink
    sink.kind = SINK_SUMS
    sink.sums = <double*> cnp.PyArray_DATA(out)
    sink.classes_only = classes_only
    sink.cls_out = <Py_ssize_t*> cnp.PyArray_DATA(classes)
    sink.held = held_p
    # Threads only for enough rows to pay for starting them; one thread runs no
    # OpenMP region at all (a forked child must not enter one).
    cdef int n_threads = clamp_threads(n_jobs) if n_jobs > 1 else 1
    n_threads = <int> max(1, min(n_threads, m // ROWS_PER_THREAD_C))
    # One thread with a shallow tree (the usual one-row call): its stack and
    # scratch sums on the C stack; otherwise on the heap, per thread.
    cdef int32_t small_nodes[SMALL_STACK]
    cdef double small_ws[SMALL_STACK]
    cdef double small_scratch[SMALL_STACK + 8]
    cdef bint small = n_threads == 1 and need <= SMALL_STACK and k <= SMALL_STACK
    cdef int32_t* stack_nodes = small_nodes
    cdef double* stack_ws = small_ws
    # classes_only: each thread's sums of the row it classifies (a cache line apart)
    cdef Py_ssize_t scratch_stride = k + 8
    cdef double* scratch = small_scratch
    cdef Blocks blocks
    cdef Py_ssize_t q, cursor = 0
    if not small:
        stack_nodes = <int32_t*> malloc(n_threads * need * sizeof(int32_t))
        stack_ws = <double*> malloc(n_threads * need * sizeof(double))
        scratch = <double*> malloc(n_threads * scratch_stride * sizeof(double))
        if stack_nodes == NULL or stack_ws == NULL or scratch == NULL:
            free(stack_nodes); free(stack_ws); free(scratch)
            raise MemoryError("c45: out of memory in predict")
    blocks_init(&blocks, m, (k >> 3) * d.n_nodes)     # (a leaf's sums: k / 8 nodes' work)
    try:
        with nogil:
            if n_threads > 1:
                # One parallel region for the whole call: every region wakes the
                # sleeping workers (passive waits, c45/_openmp.py), which costs
                # far more than their work on a block of rows.
                for q in prange(n_threads, schedule="static", num_threads=n_threads):
                    walk_claimed(d, m, &cursor, &rows, stack_nodes + q * need,
                                 stack_ws + q * need, scratch + q * scratch_stride,
                                 &sink, &blocks.intr)
                if not blocks.intr.stop:    # (interrupted: rows are left unwalked)
                    blocks.hi = m
            else:
                walk_blocks(d, &blocks, &rows, stack_nodes, stack_ws, scratch, &sink)
            if proba and not classes_only and n_out == k and blocks.hi >= m:
                rows_to_proba(sink.sums, m, k, &blocks.intr)
        while blocks_resume(&blocks):      # a call on few rows paused (Poll)
            with nogil:
                walk_blocks(d, &blocks, &rows, stack_nodes, stack_ws, scratch, &sink)
                if proba and not classes_only and n_out == k and blocks.hi >= m:
                    rows_to_proba(sink.sums, m, k, &blocks.intr)
        if taken != NULL and not classes_only and blocks.hi >= m and not blocks.intr.stop:
            with nogil:
                rows_to_columns(sink.sums, m, k, columns_v, n_out, proba, taken,
                                &blocks.intr)
    finally:
        blocks_end(&blocks, False)
        if not small:
            free(stack_nodes)
            free(stack_ws)
            free(scratch)
    blocks_end(&blocks, True)
    if classes_only:
        return classes
    return out if columns is None else answer


def any_inf(const double[:, ::1] a):
    """Whether a holds an infinite value (np.isinf(a).any() without its temporary
    array and two calls: the plain-rows check of every predict)."""
    cdef Py_ssize_t n = a.shape[0] * a.shape[1]
    cdef const double* p
    cdef bint found = False
    if n == 0:
        return False
    p = &a[0, 0]
    if n >= NOGIL_WORK:
        with nogil:
            found = has_inf(p, n)
    else:
        found = has_inf(p, n)
    return found


cdef bint has_inf(const double* p, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        if isinf(p[i]):
            return True
    return False


cdef inline Py_ssize_t first_max(const double* sums, Py_ssize_t k) noexcept nogil:
    """The first class of largest sum."""
    cdef Py_ssize_t c, best = 0
    for c in range(1, k):
        if sums[c] > sums[best]:
            best = c
    return best


cdef inline Py_ssize_t first_max_held(const double* sums, Py_ssize_t k,
                                      const Py_ssize_t* held) noexcept nogil:
    """held[c] of the first class c of largest sum among those with held[c] >= 0."""
    cdef Py_ssize_t c, best = -1
    for c in range(k):
        if held[c] >= 0 and (best < 0 or sums[c] > sums[best]):
            best = c
    return held[best] if best >= 0 else 0


cdef inline void add_leaf(double* sums, Py_ssize_t nd, double wt, Py_ssize_t k,
                          const double[::1] weight, const double[:, ::1] value,
                          const int32_t[::1] ncls, bint laplace, bint f32) noexcept nogil:
    """Add a leaf's answer for a case of weight wt to its class sums (§9)."""
    cdef Py_ssize_t c
    cdef double share
    if weight[nd] > 0 and laplace:
        for c in range(k):
            share = rnd(f32, rnd(f32, wt * rnd(f32, value[nd, c] + 1))
                        / rnd(f32, weight[nd] + k))
            sums[c] = rnd(f32, sums[c] + share)
    elif weight[nd] > 0:
        for c in range(k):
            if value[nd, c] != 0:
                sums[c] = rnd(f32, sums[c] + rnd(f32, rnd(f32, wt * value[nd, c])
                                                 / weight[nd]))
    else:
        c = ncls[nd]
        sums[c] = rnd(f32, sums[c] + wt)


# route_weights walks fewer rows than this holding the GIL.
cdef Py_ssize_t ROUTE_WITH_GIL_ROWS = 1 << 16


def route_weights(tree, const double[:, ::1] cont, const int32_t[:, ::1] codes,
                  const int32_t[::1] col, const int32_t[::1] n_values,
                  const int32_t[::1] y):
    """Weight of each class reaching each node when the rows descend the tree as in
    classification (unknown values split by branch weight): (node_count, k)."""
    cdef Descent d = descent_for(tree, n_values, col, False, False)
    cdef Rows rows
    row_view(cont, codes, col, n_values, &rows)
    cdef Py_ssize_t m = y.shape[0], need = d.stack_need
    if m != rows.m:
        raise ValueError("c45: y and the rows differ in length")
    out = zeros((d.n_nodes, d.k), dtype=np.float64)
    cdef Sink sink
    sink.kind = SINK_REACH
    sink.reach = <double*> cnp.PyArray_DATA(out)
    sink.y = &y[0] if m > 0 else NULL
    cdef int32_t* stack_node = <int32_t*> malloc(need * sizeof(int32_t))
    cdef double* stack_w = <double*> malloc(need * sizeof(double))
    cdef Blocks blocks
    if stack_node == NULL or stack_w == NULL:
        free(stack_node); free(stack_w)
        raise MemoryError("c45: out of memory routing validation cases")
    blocks_init(&blocks, m)
    try:
        # Validation sets of a usual size keep the GIL (signals are looked
        # for the same way: a C flag): routing them takes about a switch
        # interval, what giving the GIL up costs beside a busy Python thread.
        if m < ROUTE_WITH_GIL_ROWS:
            walk_blocks(d, &blocks, &rows, stack_node, stack_w, NULL, &sink)
            while blocks_resume(&blocks):
                walk_blocks(d, &blocks, &rows, stack_node, stack_w, NULL, &sink)
        else:
            with nogil:
                walk_blocks(d, &blocks, &rows, stack_node, stack_w, NULL, &sink)
            while blocks_resume(&blocks):
                with nogil:
                    walk_blocks(d, &blocks, &rows, stack_node, stack_w, NULL, &sink)
    finally:
        blocks_end(&blocks, False)
        free(stack_node)
        free(stack_w)
    blocks_end(&blocks, True)
    return out


cdef int walk_all(Descent d, Rows* rows, Sink* sink, str what) except -1:
    """Every row into the sink, in blocks (signals looked for between them), with a
    stack of the descent's size; MemoryError naming what when memory runs out."""
    cdef Py_ssize_t need = d.stack_need
    cdef int32_t* stack_node = <int32_t*> malloc(need * sizeof(int32_t))
    cdef double* stack_w = <double*> malloc(need * sizeof(double))
    cdef bint failed = False
    cdef Blocks blocks
    blocks_init(&blocks, rows.m)
    try:
        if stack_node == NULL or stack_w == NULL:
            raise MemoryError(f"c45: out of memory {what}")
        with nogil:
            failed = not walk_blocks(d, &blocks, rows, stack_node, stack_w, NULL, sink)
        while not failed and blocks_resume(&blocks):
            with nogil:
                failed = not walk_blocks(d, &blocks, rows, stack_node, stack_w, NULL, sink)
        if failed:
            raise MemoryError(f"c45: out of memory {what}")
        blocks_end(&blocks, True)
    finally:
        blocks_end(&blocks, False)
        free(stack_node)
        free(stack_w)
    return 0


cdef inline void blocks_restart(Blocks* b) noexcept nogil:
    """The blocks from the first row again (a second walk), looking for signals
    as the first walk ended."""
    b.lo, b.hi, b.size = 0, 0, 16
    b.poll.left = POLL_NODES if b.poll.armed else PAUSE_NODES


# indptr fits int32 when the nodes do
cdef Py_ssize_t INT32_LIMIT = 2147483647


cdef struct Visit:
    # visit_rows' arrays, malloc'd in its walks (the arrays returned own them)
    int64_t* indptr           # (m + 1): where each row's nodes end (int32 if narrow)
    int32_t* node             # the nodes (as many as the first walk counted)
    double* weight            # their shares of the row's weight, if want_weights
    int8_t* ones              # int8 ones (an indicator's data), if want_ones
    bint want_weights, want_ones
    bint narrow               # indptr converted to int32 in place (the nodes fit)
    Py_ssize_t n              # the nodes


cdef bint visit_walks(Descent d, Blocks* b, const Rows* rows, int32_t* stack_node,
                      double* stack_w, Sink* s, Visit* v) noexcept nogil:
    """visit_rows' walks from where they are: the first (SINK_COUNT) to its end,
    then room for the path and the second (SINK_PATH), then indptr as int32 when
    the nodes fit; until done, interrupted or paused (blocks_resume). False when
    memory runs out."""
    cdef Py_ssize_t i, n
    cdef int32_t* narrow
    cdef void* kept
    if not walk_blocks(d, b, rows, stack_node, stack_w, NULL, s):
        return False
    if b.intr.stop or b.hi < b.m:
        return True                     # interrupted or paused
    if s.kind == SINK_COUNT:
        v.n = n = s.count
        v.node = <int32_t*> malloc(max(n, 1) * sizeof(int32_t))
        if v.want_weights:
            v.weight = <double*> malloc(max(n, 1) * sizeof(double))
        if v.want_ones:
            v.ones = <int8_t*> malloc(max(n, 1))
        if (v.node == NULL or (v.want_weights and v.weight == NULL)
                or (v.want_ones and v.ones == NULL)):
            return False
        if v.want_ones:
            memset(v.ones, 1, n)
        s.kind, s.cap, s.count = SINK_PATH, n, 0
        s.node, s.weight = v.node, v.weight
        blocks_restart(b)
        if not walk_blocks(d, b, rows, stack_node, stack_w, NULL, s):
            return False
        if b.intr.stop or b.hi < b.m:
            return True
    if v.n <= INT32_LIMIT and not v.narrow:
        narrow = <int32_t*> v.indptr    # in place: entry i moves from byte 8i to 4i,
        for i in range(b.m + 1):        # below every entry not read yet
            narrow[i] = <int32_t> v.indptr[i]
        v.narrow = True
        kept = realloc(v.indptr, (b.m + 1) * sizeof(int32_t))   # the half unused back
        if kept != NULL:
            v.indptr = <int64_t*> kept
    return True


cdef object owned_array(void** data, Py_ssize_t n, int typenum):
    """A 1-D array of n items over malloc'd *data, which it then owns (freed with
    it, by a capsule as its base); *data is set to NULL once the capsule has it."""
    cdef cnp.npy_intp dims = n
    capsule = PyCapsule_New(data[0], NULL, free_capsule)
    data[0] = NULL
    arr = cnp.PyArray_SimpleNewFromData(1, &dims, typenum,
                                        PyCapsule_GetPointer(capsule, NULL))
    cnp.set_array_base(arr, capsule)        # takes its own reference
    return arr


def visit_rows(tree, const double[:, ::1] cont, const int32_t[:, ::1] codes,
               const int32_t[::1] col, const int32_t[::1] n_values, bint weights=True,
               bint indicator=False):
    """The nodes each row visits in classification and (with weights) the share
    of the row's weight reaching them (several leaves when unknown values split
    the row): CSR arrays (indptr, nodes, data): data is the shares, or with
    indicator int8 ones (a 0/1 indicator's), else None. indptr is int32 when the
    nodes fit, as nodes is (scipy then neither scans nor casts them), else int64.
    The rows are walked twice, first to count the nodes, so that the arrays are
    allocated once at their size: memory is the output's (a row may reach every
    node). The walks and the arrays' making run without the GIL in one go:
    taking it back between them would wait on any busy Python thread."""
    cdef Descent d = descent_for(tree, n_values, col, False, False)
    cdef Rows rows
    row_view(cont, codes, col, n_values, &rows)
    cdef Py_ssize_t m = rows.m, need = d.stack_need
    cdef Visit v
    cdef Sink sink
    cdef Blocks blocks
    cdef bint ok
    memset(&v, 0, sizeof(Visit))
    v.want_weights, v.want_ones = weights, indicator and not weights
    cdef int32_t* stack_node = <int32_t*> malloc(need * sizeof(int32_t))
    cdef double* stack_w = <double*> malloc(need * sizeof(double))
    v.indptr = <int64_t*> malloc((m + 1) * sizeof(int64_t))
    blocks_init(&blocks, m)
    try:
        if stack_node == NULL or stack_w == NULL or v.indptr == NULL:
            raise MemoryError("c45: out of memory tracing the rows")
        v.indptr[0] = 0
        sink.kind = SINK_COUNT
        sink.indptr = v.indptr
        sink.count = 0
        with nogil:
            ok = visit_walks(d, &blocks, &rows, stack_node, stack_w, &sink, &v)
        while ok and blocks_resume(&blocks):
            with nogil:
                ok = visit_walks(d, &blocks, &rows, stack_node, stack_w, &sink, &v)
        if not ok:
            raise MemoryError("c45: out of memory tracing the rows")
        blocks_end(&blocks, True)
        indptr = owned_array(<void**> &v.indptr, m + 1,
                             cnp.NPY_INT32 if v.narrow else cnp.NPY_INT64)
        nodes = owned_array(<void**> &v.node, v.n, cnp.NPY_INT32)
        data = (owned_array(<void**> &v.weight, v.n, cnp.NPY_FLOAT64) if weights
                else owned_array(<void**> &v.ones, v.n, cnp.NPY_INT8) if indicator
                else None)
        return indptr, nodes, data
    finally:
        blocks_end(&blocks, False)
        free(stack_node)
        free(stack_w)
        free(v.indptr)          # (each NULL once an array owns it)
        free(v.node)
        free(v.weight)
        free(v.ones)


def apply_rows(tree, const double[:, ::1] cont, const int32_t[:, ::1] codes,
               const int32_t[::1] col, const int32_t[::1] n_values):
    """The leaf of each row: the one its weight reaches whole, or with unknown
    values the first (in branch order) of the largest share. (m,) int64; memory
    is the output and one descent's stack, however many leaves a row reaches."""
    cdef Descent d = descent_for(tree, n_values, col, False, False)
    cdef Rows rows
    row_view(cont, codes, col, n_values, &rows)
    cdef cnp.npy_intp dims[1]
    dims[0] = rows.m
    out = unfaulted_empty(1, dims, cnp.NPY_INT64)
    cdef Sink sink
    sink.kind = SINK_LEAF
    sink.leaf = <int64_t*> cnp.PyArray_DATA(out)
    walk_all(d, &rows, &sink, "finding the rows' leaves")
    return out
