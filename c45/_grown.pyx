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
from c45._bulk import zeros
cimport numpy as cnp
from libc.string cimport memcmp
from libc.stdint cimport int32_t

from c45._types cimport LEAF
from c45._criterion cimport rnd
from c45._tree import Tree
from c45._tree_checks import FIELDS, DTYPES, NOT_PER_NODE

cnp.import_array()


cdef inline bint same_bits(double a, double b) noexcept nogil:
    return memcmp(&a, &b, sizeof(double)) == 0


def match_nodes(grown, final):
    """Per node of grown, the node of final in its place, -1 for none: the roots
    are paired, and the children of two paired nodes with the same test (kind,
    feature, threshold to the bit, number of branches) are paired branch by
    branch. A Tree's children come after their parent, so one pass in node
    order pairs a node before its children."""
    cdef Py_ssize_t n = grown.node_count, i, b
    out = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] m = out
    for i in range(n):
        m[i] = -1
    cdef const signed char[::1] gk = grown.kind, fk = final.kind
    cdef const int32_t[::1] gf = grown.feature, ff = final.feature
    cdef const int32_t[::1] gc = grown.first_child, fc = final.first_child
    cdef const int32_t[::1] gn = grown.n_children, fn = final.n_children
    cdef const double[::1] gt = grown.threshold, ft = final.threshold
    cdef int32_t j
    m[0] = 0
    with nogil:
        for i in range(n):
            j = m[i]
            if (j < 0 or gk[i] == LEAF or gk[i] != fk[j] or gf[i] != ff[j]
                    or gn[i] != fn[j] or not same_bits(gt[i], ft[j])):
                continue
            for b in range(gn[i]):
                m[gc[i] + b] = fc[j] + b
    return out


def breadth_first_children(n_children):
    """first_child as the breadth-first layout has it: each test's children
    right after those of the tests before it (node 0 the root), -1 for a leaf."""
    ends = np.cumsum(n_children, dtype=np.int64)
    return np.where(n_children > 0, ends - n_children + 1, -1).astype(np.int32)


def training_errors(const signed char[::1] kind, const int32_t[::1] first,
                    const int32_t[::1] n_children, const int32_t[::1] node_class,
                    const double[::1] weight, const double[:, ::1] value, bint f32):
    """A grown tree's errors as growing makes them (§2): a leaf's, its weight less
    its class's (0 for an empty branch); a test's, its children's summed in
    branch order; each stored as growing stores it (binary32 with f32). A node
    out of these rules (a subtree collapsed into a leaf keeps its sum) is an
    exception the delta keeps. Nodes whose indices are out of range get 0 (the
    Tree made of them is refused)."""
    cdef Py_ssize_t n = kind.shape[0], k = value.shape[1], i, b
    cdef double e
    out = zeros(n, dtype=np.float64)
    cdef double[::1] errors = out
    if (first.shape[0] != n or n_children.shape[0] != n or node_class.shape[0] != n
            or weight.shape[0] != n or value.shape[0] != n):
        return out
    with nogil:
        for i in range(n - 1, -1, -1):      # children come after their parent
            if kind[i] == LEAF:
                if weight[i] != 0 and 0 <= node_class[i] < k:
                    errors[i] = rnd(f32, weight[i] - value[i, node_class[i]])
            elif first[i] > i and n_children[i] >= 0 and first[i] + n_children[i] <= n:
                e = 0.0
                for b in range(n_children[i]):
                    e = rnd(f32, e + errors[first[i] + b])
                errors[i] = e
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


def _rows_differ(a, b, at=None):
    """Per row i, whether a[i] and b[at[i]] (b[i] without at) differ in any bit;
    2-D arrays a column at a time, so that no copy of all the rows is made."""
    if a.ndim == 1:
        return _bits(a) != _bits(b if at is None else b[at])
    out = np.zeros(a.shape[0], dtype=bool)
    for c in range(a.shape[1]):
        col = np.ascontiguousarray(b[:, c]) if at is None else b[:, c][at]
        out |= _bits(np.ascontiguousarray(a[:, c])) != _bits(col)
    return out


cdef bint same_bytes(x, y) except -1:
    """Whether two arrays of a Tree (C-contiguous, of their field's dtype) hold the
    same shape, dtype and bytes: memcmp with the GIL held (numpy's comparisons
    of a tree's arrays each give it up, a switch interval beside a busy thread)."""
    cdef cnp.ndarray a = x, b = y
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if not (a.flags.c_contiguous and b.flags.c_contiguous):
        return np.array_equal(_bits(a), _bits(b))
    return a.nbytes == 0 or memcmp(cnp.PyArray_DATA(a), cnp.PyArray_DATA(b), a.nbytes) == 0


def same_trees(a, b):
    """Whether two Trees hold the same arrays, bit for bit, and the same features."""
    if (a.n_values is None) != (b.n_values is None) or (
            a.n_values is not None and not same_bytes(a.n_values, b.n_values)):
        return False
    for name in FIELDS:
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
        self.node_map = _checked_map(node_map, base.node_count)
        if not isinstance(fields, tuple) or len(fields) != len(FIELDS):
            raise delta_error(f"its fields are not a tuple of {len(FIELDS)}: {FIELDS}")
        loose = int(np.count_nonzero(self.node_map < 0))
        self.fields = {name: _checked_field(name, dtype, kept, base, len(self.node_map),
                                            loose)
                       for name, dtype, kept in zip(FIELDS, DTYPES, fields)}
        if type(errors_f32) is not bool:
            raise delta_error(f"errors_f32 is a {type(errors_f32).__name__}, not a bool")
        self.errors_f32 = errors_f32
        self._made = None

    @classmethod
    def of(cls, grown, final):
        """The delta of grown against final (not yet checked to give grown back)."""
        node_map = match_nodes(grown, final)
        mapped = node_map >= 0
        at = np.where(mapped, node_map, 0)
        arrays = {name: getattr(grown, name) for name in FIELDS}
        # Growing stores errors in binary32 or not: the rule that fits more nodes.
        errors_f32 = bool(np.count_nonzero(_rows_differ(
            arrays["errors"], _predicted("errors", arrays, True))) < np.count_nonzero(
                _rows_differ(arrays["errors"], _predicted("errors", arrays, False))))
        fields = {}
        for name in FIELDS:
            g = arrays[name]
            if name in NOT_PER_NODE:
                f = getattr(final, name)
                fields[name] = (None if g.shape == f.shape
                                and np.array_equal(_bits(g), _bits(f)) else g)
                continue
            if name in DERIVED:
                differ = _rows_differ(g, _predicted(name, arrays, errors_f32))
                loose = np.empty((0,) + g.shape[1:], g.dtype)   # no view: it would hold g
            else:
                differ = _rows_differ(g, getattr(final, name), at) & mapped
                loose = g[~mapped]
            index = np.flatnonzero(differ).astype(np.int32)
            values = g[index]
            kept = index.nbytes + values.nbytes + loose.nbytes
            fields[name] = ((g, None, None, None) if kept >= g.nbytes
                            else (None, loose, index, values))
        return cls(final, node_map, tuple(fields[name] for name in FIELDS), errors_f32)

    def arrays(self):
        """The grown tree's arrays, by field."""
        base, node_map = self.base, self.node_map
        mapped = node_map >= 0
        at = node_map[mapped]
        out = {}
        for name, dtype in zip(FIELDS, DTYPES):
            kept = self.fields[name]
            if name in NOT_PER_NODE:
                out[name] = getattr(base, name) if kept is None else kept
                continue
            dense, loose, index, values = kept
            if dense is not None:
                out[name] = dense
                continue
            if name in DERIVED:
                continue                    # from the others, below
            f = getattr(base, name)
            a = np.empty((len(node_map),) + f.shape[1:], dtype=dtype)
            a[mapped] = f[at]
            a[~mapped] = loose
            a[index] = values
            out[name] = a
        for name in DERIVED:
            dense, loose, index, values = self.fields[name]
            if dense is None:
                a = _predicted(name, out, self.errors_f32)
                a[index] = values
                out[name] = a
        return {name: out[name] for name in FIELDS}

    def gives_back(self, grown):
        """Whether arrays() would give grown's arrays back bit for bit, checked a
        field at a time and the per-node fields a block of nodes at a time
        (GIVE_BACK_BYTES), so that no copy of the grown tree is made beside it
        and the final tree."""
        base, node_map = self.base, self.node_map
        n = len(node_map)
        for name in FIELDS:
            kept, g = self.fields[name], getattr(grown, name)
            if name in NOT_PER_NODE:
                back = getattr(base, name) if kept is None else kept
                if not (back.shape == g.shape and np.array_equal(_bits(back), _bits(g))):
                    return False
                continue
            dense, loose, index, values = kept
            if g.shape[0] != n:
                return False
            if dense is not None:
                if not (dense.shape == g.shape and np.array_equal(_bits(dense), _bits(g))):
                    return False
                continue
            if name in DERIVED:
                # predicted from grown's other fields, checked equal to theirs before
                # (DERIVED's order: first_child, then errors, which reads it)
                a = _predicted(name, {f: getattr(grown, f) for f in FIELDS}, self.errors_f32)
                a[index] = values
                if not (a.shape == g.shape and np.array_equal(_bits(a), _bits(g))):
                    return False
                continue
            f = getattr(base, name)
            if g.shape[1:] != f.shape[1:] or not _sorted(index):
                return False
            loose_at = 0
            row = g.itemsize * int(np.prod(g.shape[1:], dtype=np.int64))
            block = max(GIVE_BACK_BYTES // max(row, 1), 1024)
            for s in range(0, n, block):
                e = min(s + block, n)
                at = node_map[s:e]
                mapped = at >= 0
                a = np.empty((e - s,) + f.shape[1:], dtype=f.dtype)
                a[mapped] = f[at[mapped]]
                m = e - s - int(np.count_nonzero(mapped))
                a[~mapped] = loose[loose_at:loose_at + m]
                loose_at += m
                lo, hi = np.searchsorted(index, [s, e])
                a[index[lo:hi] - s] = values[lo:hi]
                if not np.array_equal(_bits(a), _bits(g[s:e])):
                    return False
        return True

    def tree(self):
        """The grown Tree: the one made last while anyone still holds it."""
        made = self._made() if self._made is not None else None
        if made is None:
            made = Tree._of_own_arrays(n_values=self.base.n_values, **self.arrays())
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
        def fresh(a):       # numpy's own dtype object: a round trip pickles the same
            return None if a is None else np.array(a, dtype=np.dtype(a.dtype.str))
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


# Bytes of a block of gives_back (10-class weights: 13,107 nodes).
GIVE_BACK_BYTES = 1 << 20


def _sorted(index):
    return len(index) < 2 or bool(np.all(index[1:] > index[:len(index) - 1]))


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
    bad = np.flatnonzero((node_map < -1) | (node_map >= n_final))
    if len(bad):
        raise delta_error(f"node_map[{bad[0]}] is {node_map[bad[0]]}, not a node of the "
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
    bad = np.flatnonzero((index < 0) | (index >= n))
    if len(bad):
        raise delta_error(f"{name}'s index[{bad[0]}] is {index[bad[0]]}, not a node of "
                          f"the grown tree's {n}")
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
    delta = GrownDelta.of(grown, final)
    if not delta.gives_back(grown):
        return grown
    delta._made = weakref.ref(grown)        # the grown tree itself, while it lives
    return delta


def grown_of(kept):
    """The grown Tree of what a model keeps (kept_grown's result)."""
    return kept.tree() if type(kept) is GrownDelta else kept
