"""The grown tree kept as what sets it apart from the final (pruned) one.

Pruning leaves most of the grown tree as it was, so a fitted model keeps the
final tree whole and the grown one as a GrownDelta against it: per grown node,
the final node in its place (or none), and, per field of Tree, the grown values
that differ from their final node's. The grown Tree is made again when asked
for, once while anyone holds it (a weak reference finds it), and a delta is
kept only when it has given the grown tree back bit for bit.

A field is kept as the values of the nodes without a final node (`loose`, in
node order) and the differing values of the others (`index`, `values`), or
whole (`dense`) when that takes less room. Two fields are kept against what
the grown tree's other fields predict, for every node: first_child against the
breadth-first layout (the children of the nodes in order, one block after
another), which every tree the core makes has; errors against the training
errors growing computes (a pessimistically pruned tree's errors are estimates,
not the grown ones). The fields are Tree's (FIELDS): a field added there is
kept here with no change.
"""
import weakref

import numpy as np
from c45._fresh import fresh_pages
from c45._bulk import pickled_copy, take_rows, zeros
from c45._pickling import pickled
cimport numpy as cnp
from libc.string cimport memcmp, memcpy
from libc.stdint cimport int32_t
from cpython.exc cimport PyErr_CheckSignals

from libc.string cimport memset
from c45._gil cimport NOGIL_WORK
from c45._types cimport LEAF, Interrupt
from c45._interrupt cimport (interrupt_init, interrupt_end, raise_interrupt,
                             look_by_cells)
from c45._criterion cimport rnd
from c45._tree import Tree
from c45._tree_checks import FIELDS, DTYPES, NOT_PER_NODE

cnp.import_array()

# This module's Python-level code is compiled too: the interpreter runs no
# signal handler inside it. Making, checking and rebuilding a delta looks for
# signals (Ctrl-C) between fields with PyErr_CheckSignals (a few ms a field at a
# million nodes; a load of a model with 4 million grown nodes was deaf for
# 0.2 s of CPU without).


cdef inline bint same_bits(double a, double b) noexcept nogil:
    return memcmp(&a, &b, sizeof(double)) == 0


def match_nodes(grown, final):
    """Per node of grown, the node of final in its place, -1 for none: the roots
    are paired, and the children of two paired nodes with the same test (kind,
    feature, threshold to the bit, number of branches) are paired branch by
    branch. A Tree's children come after their parent, so one pass in node
    order pairs a node before its children."""
    cdef Py_ssize_t n = grown.node_count, i
    out = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] m = out
    for i in range(n):
        m[i] = -1
    cdef const signed char[::1] gk = grown.kind, fk = final.kind
    cdef const int32_t[::1] gf = grown.feature, ff = final.feature
    cdef const int32_t[::1] gc = grown.first_child, fc = final.first_child
    cdef const int32_t[::1] gn = grown.n_children, fn = final.n_children
    cdef const double[::1] gt = grown.threshold, ft = final.threshold
    m[0] = 0
    if long_pass(n * 32):       # (a node's test: some 32 bytes of the two trees)
        with nogil:
            pair_children(m, gk, fk, gf, ff, gc, fc, gn, fn, gt, ft)
    else:
        pair_children(m, gk, fk, gf, ff, gc, fc, gn, fn, gt, ft)
    return out


cdef void pair_children(int32_t[::1] m, const signed char[::1] gk,
                        const signed char[::1] fk, const int32_t[::1] gf,
                        const int32_t[::1] ff, const int32_t[::1] gc,
                        const int32_t[::1] fc, const int32_t[::1] gn,
                        const int32_t[::1] fn, const double[::1] gt,
                        const double[::1] ft) noexcept nogil:
    """match_nodes' pass (m[0] set): each paired node's children paired."""
    cdef Py_ssize_t i, b
    cdef int32_t j
    for i in range(m.shape[0]):
        j = m[i]
        if (j < 0 or gk[i] == LEAF or gk[i] != fk[j] or gf[i] != ff[j]
                or gn[i] != fn[j] or not same_bits(gt[i], ft[j])):
            continue
        for b in range(gn[i]):
            m[gc[i] + b] = fc[j] + b


# Every pass here is a typed loop that keeps the GIL unless the pass is long
# (long_pass): numpy's calls on a tree's arrays each gave the GIL up, and beside
# a busy Python thread each release cost a switch interval (a 20k-node model's
# pickle.loads made about 270 of them, 0.02 s alone, 19 s busy).
cdef inline bint long_pass(Py_ssize_t nbytes) noexcept nogil:
    return nbytes >= 8 * <Py_ssize_t> NOGIL_WORK


# A long pass over rows (a node's row of class weights: tens of kB at thousands
# of classes, 0.05 s a pass over a model's 650 MB of them) runs without the GIL
# and looks for signals by the bytes it has done (look_by_cells, a cell 8
# bytes, a row one at least): between start_looking and end_looking, which
# raises the interrupt of a handler that raised.
cdef int start_looking(Interrupt* intr, bint big) except -1:
    memset(intr, 0, sizeof(Interrupt))
    if big:
        interrupt_init(intr)
    return 0


cdef int end_looking(Interrupt* intr) except -1:
    interrupt_end(intr)
    if intr.stop:
        raise_interrupt()
    return 0


cdef inline Py_ssize_t row_cells(Py_ssize_t size) noexcept nogil:
    return (size >> 3) + 1


def breadth_first_children(n_children):
    """first_child as the breadth-first layout has it: each test's children
    right after those of the tests before it (node 0 the root), -1 for a leaf."""
    cdef const int32_t[::1] nch = np.ascontiguousarray(n_children, dtype=np.int32)
    cdef Py_ssize_t n = nch.shape[0], i
    cdef long long end = 1
    out = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] first = out
    for i in range(n):
        if nch[i] > 0:
            first[i] = <int32_t> end
            end += nch[i]
        else:
            first[i] = -1
    return out


cdef void errors_of(const signed char[::1] kind, const int32_t[::1] first,
                    const int32_t[::1] n_children, const int32_t[::1] node_class,
                    const double[::1] weight, const double[:, ::1] value, bint f32,
                    double[::1] errors) noexcept nogil:
    cdef Py_ssize_t n = kind.shape[0], k = value.shape[1], i, b
    cdef double e
    for i in range(n - 1, -1, -1):      # children come after their parent
        if kind[i] == LEAF:
            if weight[i] != 0 and 0 <= node_class[i] < k:
                errors[i] = rnd(f32, weight[i] - value[i, node_class[i]])
        elif first[i] > i and n_children[i] >= 0 and first[i] + n_children[i] <= n:
            e = 0.0
            for b in range(n_children[i]):
                e = rnd(f32, e + errors[first[i] + b])
            errors[i] = e


def training_errors(const signed char[::1] kind, const int32_t[::1] first,
                    const int32_t[::1] n_children, const int32_t[::1] node_class,
                    const double[::1] weight, const double[:, ::1] value, bint f32):
    """A grown tree's errors as growing makes them (§2): a leaf's, its weight less
    its class's (0 for an empty branch); a test's, its children's summed in
    branch order; each stored as growing stores it (binary32 with f32). A node
    out of these rules (a subtree collapsed into a leaf keeps its sum) is an
    exception the delta keeps. Nodes whose indices are out of range get 0 (the
    Tree made of them is refused)."""
    cdef Py_ssize_t n = kind.shape[0]
    out = zeros(n, dtype=np.float64)
    cdef double[::1] errors = out
    if (first.shape[0] != n or n_children.shape[0] != n or node_class.shape[0] != n
            or weight.shape[0] != n or value.shape[0] != n):
        return out
    if long_pass(n * (value.shape[1] + 3) * 8):
        with nogil:
            errors_of(kind, first, n_children, node_class, weight, value, f32, errors)
    else:
        errors_of(kind, first, n_children, node_class, weight, value, f32, errors)
    return out


# A field's rows as bytes: the kernels below copy and compare whole rows (a
# node's entry, or its row of class weights), whatever the field's dtype.
cdef struct Rows:
    char* data
    Py_ssize_t n, size       # rows, bytes per row


cdef Rows rows_of(a) except *:
    """a (a C-contiguous array of 1 or 2 dimensions) as rows of bytes."""
    cdef cnp.ndarray arr = a
    cdef Rows r
    if not arr.flags.c_contiguous or arr.ndim not in (1, 2):
        raise ValueError("c45: a tree's field is not a C-contiguous array of 1 or 2 dimensions")
    r.data = <char*> cnp.PyArray_DATA(arr)
    r.n = arr.shape[0]
    r.size = arr.itemsize * (arr.shape[1] if arr.ndim == 2 else 1)
    return r


cdef Py_ssize_t find_differing(Rows g, Rows ref, const int32_t* at,
                               int32_t* out, Interrupt* intr) noexcept nogil:
    """The rows i of g that differ from ref's row at[i] (i without at; skipped
    where at[i] < 0), written to out when not NULL; their count (-1 when
    interrupted)."""
    cdef Py_ssize_t i, j, k = 0, cells = 0
    for i in range(g.n):
        j = at[i] if at != NULL else i
        if j >= 0 and memcmp(g.data + i * g.size, ref.data + j * ref.size, g.size) != 0:
            if out != NULL:
                out[k] = <int32_t> i
            k += 1
        if look_by_cells(&cells, row_cells(g.size), intr):
            return -1
    return k


cdef void gather_unmapped(Rows dst, Rows src, const int32_t* at,
                          Interrupt* intr) noexcept nogil:
    """dst's rows: src's rows i whose at[i] < 0, in order (unfinished when
    interrupted)."""
    cdef Py_ssize_t i, k = 0, cells = 0
    for i in range(src.n):
        if at[i] < 0:
            memcpy(dst.data + k * dst.size, src.data + i * src.size, dst.size)
            k += 1
        if look_by_cells(&cells, row_cells(src.size), intr):
            return


# A delta's field, as its grown rows are made of: per node its final node's row
# (base row at[i]; row i of base without at), or the next loose row where at[i]
# is -1; but the next of values at the nodes of index (increasing).
cdef struct Parts:
    Rows base, loose, values
    const int32_t* at
    const int32_t* index


cdef bint rebuild(Parts p, Rows out, bint compare, Interrupt* intr) noexcept nogil:
    """Write the field's rows to out, or (compare) whether out holds them, bit
    for bit (unfinished when interrupted)."""
    cdef Py_ssize_t i, k = 0, j = 0, cells = 0
    cdef const char* src
    for i in range(out.n):
        if p.at == NULL:
            src = p.base.data + i * p.base.size
        elif p.at[i] >= 0:
            src = p.base.data + p.at[i] * p.base.size
        else:
            src = p.loose.data + k * p.loose.size
            k += 1
        if j < p.values.n and p.index[j] == i:
            src = p.values.data + j * p.values.size
            j += 1
        if not compare:
            memcpy(out.data + i * out.size, src, out.size)
        elif memcmp(out.data + i * out.size, src, out.size) != 0:
            return False
        if look_by_cells(&cells, row_cells(out.size), intr):
            return False
    return True


cdef Parts parts_of(base, node_map, loose, index, values) except *:
    """A field's parts (node_map None: base row i for node i), their shapes
    checked (GrownDelta checked the values in node_map and index)."""
    cdef Parts p
    cdef const int32_t[::1] m, ix
    p.base, p.values = rows_of(base), rows_of(values)
    p.loose = rows_of(loose) if loose is not None else p.values
    ix = index
    p.index = &ix[0] if ix.shape[0] else NULL
    p.at = NULL
    if node_map is not None:
        m = node_map
        p.at = &m[0] if m.shape[0] else NULL
    if p.values.n != ix.shape[0] or p.values.size != p.base.size or (
            p.loose.size != p.base.size):
        raise ValueError("c45: a grown tree's field has parts of other shapes")
    return p


def unmapped_rows(a, node_map, Py_ssize_t count):
    """a's rows of the count nodes whose node_map entry is -1, in node order."""
    cdef const int32_t[::1] m = node_map
    cdef Rows src = rows_of(a), dst
    if m.shape[0] != src.n:
        raise ValueError("c45: unmapped_rows given a node map of another length")
    out = np.empty((count,) + a.shape[1:], dtype=a.dtype)
    dst = rows_of(out)
    cdef Interrupt intr
    cdef bint big = long_pass(src.n * src.size)
    if count:
        start_looking(&intr, big)
        try:
            if big:
                with nogil:
                    gather_unmapped(dst, src, &m[0], &intr)
            else:
                gather_unmapped(dst, src, &m[0], NULL)
        finally:
            end_looking(&intr)
    return out


def rebuilt(base, node_map, loose, index, values, Py_ssize_t n):
    """The field of n nodes made of its parts (Parts)."""
    out = np.empty((n,) + base.shape[1:], dtype=base.dtype)
    rebuild_looking(parts_of(base, node_map, loose, index, values), rows_of(out), False)
    return out


def rebuilds(g, base, node_map, loose, index, values):
    """Whether the field's parts make g, bit for bit."""
    if (g.dtype != base.dtype or g.shape[1:] != base.shape[1:]
            or not g.flags.c_contiguous):
        return False
    return rebuild_looking(parts_of(base, node_map, loose, index, values), rows_of(g),
                           True)


cdef bint rebuild_looking(Parts p, Rows o, bint compare) except *:
    """rebuild, without the GIL and looking for signals on a long pass."""
    cdef bint result
    cdef Interrupt intr
    cdef bint big = long_pass(o.n * o.size)
    start_looking(&intr, big)
    try:
        if big:
            with nogil:
                result = rebuild(p, o, compare, &intr)
        else:
            result = rebuild(p, o, compare, NULL)
    finally:
        end_looking(&intr)
    return result


def first_outside(index, Py_ssize_t low, Py_ssize_t high, bint increasing=False):
    """The first position of index (int32) whose value is outside [low, high),
    or (increasing) not above the one before it; -1 for none."""
    cdef const int32_t[::1] ix = index
    cdef Py_ssize_t i
    for i in range(ix.shape[0]):
        if not low <= ix[i] < high or (increasing and i and ix[i] <= ix[i - 1]):
            return i
    return -1


def count_unmapped(node_map):
    """How many nodes of node_map (int32) have no final node (-1)."""
    cdef const int32_t[::1] m = node_map
    cdef Py_ssize_t i, k = 0
    for i in range(m.shape[0]):
        k += m[i] < 0
    return k


def differing_rows(g, ref, node_map=None):
    """The nodes (int32, increasing) whose row of g differs from ref's row in its
    place, bit for bit: ref's row node_map[i] (nodes with none skipped), or row
    i without node_map."""
    cdef Rows a = rows_of(g), b = rows_of(ref)
    cdef const int32_t[::1] m
    cdef const int32_t* at = NULL
    if b.size != a.size or (node_map is None and b.n != a.n):
        raise ValueError("c45: differing_rows given fields of another shape")
    if node_map is not None:
        m = node_map
        if m.shape[0] != a.n:
            raise ValueError("c45: differing_rows given a node map of another length")
        at = &m[0] if a.n else NULL
    cdef Py_ssize_t count = 0
    cdef Interrupt intr
    cdef bint big = long_pass(a.n * a.size)
    cdef int32_t[::1] o
    start_looking(&intr, big)
    try:
        if big:
            with nogil:
                count = find_differing(a, b, at, NULL, &intr)
        else:
            count = find_differing(a, b, at, NULL, NULL)
        out = np.empty(max(count, 0), dtype=np.int32)
        o = out
        if count > 0:
            if big:
                with nogil:
                    find_differing(a, b, at, &o[0], &intr)
            else:
                find_differing(a, b, at, &o[0], NULL)
    finally:
        end_looking(&intr)
    return out


# The fields the grown tree's other fields predict, in this order (the errors
# read first_child): kept as the exceptions to the prediction, for every node.
DERIVED = ("first_child", "errors")


def _predicted(name, arrays, f32):
    if name == "first_child":
        return breadth_first_children(arrays["n_children"])
    return training_errors(arrays["kind"], arrays["first_child"], arrays["n_children"],
                           arrays["node_class"], arrays["weight"], arrays["value"], f32)


def _bits(a):
    """a's values as unsigned integers of their size: compared bit for bit (NaN
    equals its own bits, -0.0 differs from 0.0)."""
    return a.view(f"u{a.dtype.itemsize}")


cdef size_t COMPARE_STEP = 2 << 20     # bytes compared between two looks (< 1 ms)


cdef bint same_bytes(x, y) except -1:
    """Whether two arrays of a Tree (C-contiguous, of their field's dtype) hold the
    same shape, dtype and bytes: memcmp with the GIL held (numpy's comparisons
    of a tree's arrays each give it up, a switch interval beside a busy thread)."""
    cdef cnp.ndarray a = x, b = y
    # (x.shape, the tuples: a typed array's own .shape is a C pointer)
    if x.shape != y.shape or a.dtype != b.dtype:
        return False
    if not (a.flags.c_contiguous and b.flags.c_contiguous):
        return np.array_equal(_bits(a), _bits(b))
    # in steps, looking for signals between them (a tree's class weights at
    # thousands of classes: hundreds of MB, 0.1 s in one memcmp)
    cdef const char* p = <const char*> cnp.PyArray_DATA(a)
    cdef const char* q = <const char*> cnp.PyArray_DATA(b)
    cdef size_t n = a.nbytes, at = 0
    while at < n:
        if at > 0:
            PyErr_CheckSignals()
        if memcmp(p + at, q + at, min(COMPARE_STEP, n - at)) != 0:
            return False
        at += COMPARE_STEP
    return True


def same_trees(a, b, bint bounds=True):
    """Whether two Trees hold the same arrays, bit for bit, the same features and
    (bounds) the same soft thresholds' bounds (or none)."""
    for name in ("n_values", "lower", "upper") if bounds else ("n_values",):
        x, y = getattr(a, name), getattr(b, name)
        if (x is None) != (y is None) or (x is not None and not same_bytes(x, y)):
            return False
    for name in FIELDS:
        PyErr_CheckSignals()
        if not same_bytes(getattr(a, name), getattr(b, name)):
            return False
    return True


def delta_error(msg):
    return ValueError(f"c45: the grown tree kept against the final one: {msg}")


class GrownDelta:
    """The grown tree as a delta against the final tree (`base`); `tree()` makes it.

    node_map : int32 per grown node, its final node or -1.
    fields : a tuple in the order of FIELDS (kept as a dict by name): for a
        field of one value per node the tuple (dense, loose, index, values)
        (dense: the whole field, or None; loose: the values of the unmapped
        nodes, none for DERIVED fields; index: int32 nodes whose values differ
        from their final node's or the predicted ones, values: theirs); for a
        field of another length (value_map), the grown tree's, or None when it
        is the final tree's.
    errors_f32 : whether the predicted errors are stored in binary32.
    """

    def __init__(self, base, node_map, fields, errors_f32=False):
        # Checked as a Tree checks its arrays: a pickle calls this too.
        if type(base) is not Tree:
            raise delta_error(f"its final tree is a {type(base).__name__}, not a c45 Tree")
        self.base = base
        with fresh_pages():     # (the checks' arrays: c45/_fresh.pyx)
            self.node_map = _checked_map(node_map, base.node_count)
            if not isinstance(fields, tuple) or len(fields) != len(FIELDS):
                raise delta_error(f"its fields are not a tuple of {len(FIELDS)}: {FIELDS}")
            loose = count_unmapped(self.node_map)
            self.fields = {name: _checked_field(name, dtype, kept, base,
                                                len(self.node_map), loose)
                           for name, dtype, kept in zip(FIELDS, DTYPES, fields)}
        if type(errors_f32) is not bool:
            raise delta_error(f"errors_f32 is a {type(errors_f32).__name__}, not a bool")
        self.errors_f32 = errors_f32
        self._made = None

    @classmethod
    def of(cls, grown, final):
        """The delta of grown against final (not yet checked to give grown back)."""
        node_map = match_nodes(grown, final)
        PyErr_CheckSignals()
        n_loose = count_unmapped(node_map)
        arrays = {name: getattr(grown, name) for name in FIELDS}
        # Growing stores errors in binary32 or not: the rule that fits more nodes.
        errors_f32 = bool(len(differing_rows(
            arrays["errors"], _predicted("errors", arrays, True))) < len(differing_rows(
                arrays["errors"], _predicted("errors", arrays, False))))
        fields = {}
        for name in FIELDS:
            PyErr_CheckSignals()
            g = arrays[name]
            if name in NOT_PER_NODE:
                fields[name] = None if same_bytes(g, getattr(final, name)) else g
                continue
            if name in DERIVED:
                index = differing_rows(g, _predicted(name, arrays, errors_f32))
                loose = np.empty((0,) + g.shape[1:], g.dtype)   # no view: it would hold g
            else:
                index = differing_rows(g, getattr(final, name), node_map)
                loose = unmapped_rows(g, node_map, n_loose)
            values = take_rows(g, index)
            kept = index.nbytes + values.nbytes + loose.nbytes
            fields[name] = ((g, None, None, None) if kept >= g.nbytes
                            else (None, loose, index, values))
        return cls(final, node_map, tuple(fields[name] for name in FIELDS), errors_f32)

    def _parts(self, name, arrays):
        """The field's parts (Parts' order: base, node_map, loose, index,
        values), a DERIVED field's base predicted from arrays' other fields."""
        dense, loose, index, values = self.fields[name]
        if name in DERIVED:
            return _predicted(name, arrays, self.errors_f32), None, None, index, values
        return getattr(self.base, name), self.node_map, loose, index, values

    def arrays(self):
        """The grown tree's arrays, by field (DERIVED ones last: from the others)."""
        n = len(self.node_map)
        out = {}
        for name in sorted(FIELDS, key=lambda f: f in DERIVED):    # (a stable sort)
            PyErr_CheckSignals()
            kept = self.fields[name]
            if name in NOT_PER_NODE:
                out[name] = getattr(self.base, name) if kept is None else kept
            elif kept[0] is not None:
                out[name] = kept[0]
            else:
                out[name] = rebuilt(*self._parts(name, out), n)
        return {name: out[name] for name in FIELDS}

    def gives_back(self, grown):
        """Whether arrays() would give grown's arrays back bit for bit, checked a
        field at a time against grown's own (no copy of the grown tree is made
        beside it and the final tree)."""
        arrays = {name: getattr(grown, name) for name in FIELDS}
        for name in FIELDS:
            PyErr_CheckSignals()
            kept, g = self.fields[name], arrays[name]
            if name in NOT_PER_NODE:
                if not same_bytes(getattr(self.base, name) if kept is None else kept, g):
                    return False
            elif kept[0] is not None:
                if not same_bytes(kept[0], g):
                    return False
            elif g.shape[0] != len(self.node_map) or not rebuilds(g, *self._parts(name, arrays)):
                # (a DERIVED field predicted from grown's other fields, found
                # equal to the delta's before it: FIELDS' order)
                return False
        return True

    def tree(self):
        """The grown Tree: the one made last while anyone still holds it."""
        made = self._made() if self._made is not None else None
        if made is None:
            with fresh_pages():         # (the fields' arrays: c45/_fresh.pyx)
                arrays = self.arrays()
                PyErr_CheckSignals()
                made = Tree._of_own_arrays(n_values=self.base.n_values, **arrays)
            self._made = weakref.ref(made)
        return made

    @property
    def nbytes(self):
        """Bytes of the arrays kept here (the final tree's not counted)."""
        total = self.node_map.nbytes
        for kept in self.fields.values():
            for a in (kept if isinstance(kept, tuple) else (kept,)):
                total += 0 if a is None else a.nbytes
        return total

    def __reduce__(self):
        def fresh(a):       # (a big one in parts, as Tree's)
            return pickled(a, pickled_copy)
        # The fields by position: a name would be memoised by pickle or not
        # depending on whether the same string object came before.
        fields = tuple(tuple(map(fresh, kept)) if isinstance(kept, tuple) else fresh(kept)
                       for kept in self.fields.values())
        return (GrownDelta, (self.base, fresh(self.node_map), fields, self.errors_f32))

    def __setstate__(self, state):
        # A pickle that sets the attributes directly goes through the checks too.
        if not isinstance(state, dict):
            raise delta_error(f"the pickled state is a {type(state).__name__}, not a dict")
        self.__init__(state.get("base"), state.get("node_map"), state.get("fields"),
                      state.get("errors_f32"))

    def __repr__(self):
        return (f"<c45 GrownDelta: {len(self.node_map)} nodes against "
                f"{self.base.node_count}, {self.nbytes} bytes>")


def _plain(a):
    """An ndarray subclass (joblib's memmaps) as a plain array of its own."""
    return np.array(a) if isinstance(a, np.ndarray) and type(a) is not np.ndarray else a


def _checked_map(node_map, n_final):
    node_map = _plain(node_map)
    if (type(node_map) is not np.ndarray or node_map.dtype != np.int32
            or node_map.ndim != 1 or not node_map.flags.c_contiguous or not len(node_map)):
        raise delta_error("node_map is not a 1-D int32 array of one entry per node")
    if len(node_map) > 2**31 - 2:
        raise delta_error(f"node_map has {len(node_map)} nodes")
    bad = first_outside(node_map, -1, n_final)
    if bad >= 0:
        raise delta_error(f"node_map[{bad}] is {node_map[bad]}, not a node of the "
                          f"final tree's {n_final} or -1")
    node_map.flags.writeable = False
    return node_map


def _checked_array(name, part, a, dtype, shape):
    """a as the field's part must be: of the field's dtype, C-contiguous, shape
    (shape[0] any when None)."""
    a = _plain(a)
    if (type(a) is not np.ndarray or a.dtype != np.dtype(dtype)
            or not a.flags.c_contiguous or a.ndim != len(shape)
            or any(s is not None and s != t for s, t in zip(shape, a.shape))):
        got = (f"a {a.dtype} array of shape {a.shape}" if isinstance(a, np.ndarray)
               else f"a {type(a).__name__}")
        raise delta_error(f"{name}'s {part} is {got}, expected {np.dtype(dtype)} of "
                          f"shape {tuple('n' if s is None else s for s in shape)}")
    a.flags.writeable = False
    return a


def _checked_field(name, dtype, kept, base, n, n_loose):
    if name in NOT_PER_NODE:
        return None if kept is None else _checked_array(name, "array", kept, dtype, (None,))
    row = getattr(base, name).shape[1:]
    if not (isinstance(kept, tuple) and len(kept) == 4):
        raise delta_error(f"{name} is not (dense, loose, index, values)")
    dense, loose, index, values = kept
    if dense is not None:
        if not (loose is None and index is None and values is None):
            raise delta_error(f"{name} is kept whole and in parts")
        return (_checked_array(name, "whole array", dense, dtype, (n,) + row),
                None, None, None)
    loose = _checked_array(name, "loose values", loose, dtype,
                           (0 if name in DERIVED else n_loose,) + row)
    index = _checked_array(name, "index", index, np.int32, (None,))
    values = _checked_array(name, "values", values, dtype, (len(index),) + row)
    bad = first_outside(index, 0, n, increasing=True)
    if bad >= 0:
        raise delta_error(f"{name}'s index[{bad}] is {index[bad]}, not a node of the "
                          f"grown tree's {n} above index[{bad - 1}]" if bad else
                          f"{name}'s index[0] is {index[0]}, not a node of the grown "
                          f"tree's {n}")
    return (None, loose, index, values)


# Below this many grown nodes the grown tree is kept whole: a delta saves little
# there, and making one takes some twenty numpy calls, each a GIL release that
# costs a switch interval beside a busy Python thread (0.4 ms alone, 89 ms busy,
# for 1,359 nodes). A module global, so that tests can set it to 0.
DELTA_MIN_NODES = 20000


def kept_grown(grown, final):
    """What a model keeps of its grown tree beside its final one: the final tree
    when they are the same tree, the grown tree itself when it is small
    (DELTA_MIN_NODES), a GrownDelta when it gives the grown tree back bit for
    bit, else the grown tree itself."""
    if grown is final or same_trees(grown, final):
        return final
    if grown.node_count < DELTA_MIN_NODES:
        return grown
    features = grown.n_values, final.n_values
    if grown.n_classes != final.n_classes or (features[0] is None) != (
            features[1] is None) or (features[0] is not None
                                     and not np.array_equal(*features)):
        return grown            # a delta reads the final tree's features and classes
    with fresh_pages():     # (the delta's arrays, made and checked: c45/_fresh.pyx)
        delta = GrownDelta.of(grown, final)
        PyErr_CheckSignals()
        gives_back = delta.gives_back(grown)
    if not gives_back:
        return grown
    delta._made = weakref.ref(grown)        # the grown tree itself, while it lives
    return delta


def grown_of(kept):
    """The grown Tree of what a model keeps (kept_grown's result)."""
    return kept.tree() if type(kept) is GrownDelta else kept
