# The node buffer and the rules that make its nodes while growing, for both case
# layouts (R8's case array in c45/_tree.pyx, the presorted lists in
# c45/_presorted.pyx): each rule exists here once. The rules are inline (they run
# once per node); the buffer's growth and compaction live in c45/_nodes.pyx.
from libc.math cimport NAN
from libc.string cimport memcmp, memcpy
from libc.stdint cimport int32_t, int64_t, uint32_t

from c45._types cimport (Node, NodeBuffer, Dataset, Test, LEAF, DISCRETE, CONTINUOUS, SUBSET,
                         NO_CUT_RANK)
from c45._criterion cimport rnd, EPSILON
from c45._splitter cimport global_threshold, global_threshold_near, is_subset_feature

cdef int buffer_reserve(NodeBuffer* b, Py_ssize_t extra) noexcept nogil
cdef int buffer_room(NodeBuffer* b, Py_ssize_t extra) noexcept nogil
cdef int maps_reserve(NodeBuffer* b, Py_ssize_t extra) noexcept nogil
cdef void buffer_free(NodeBuffer* b) noexcept nogil
cdef void buffer_fit(NodeBuffer* b) noexcept nogil
cdef int compact_in_place(NodeBuffer* t) noexcept nogil
cdef int maps_in_growing_order(NodeBuffer* t, const int32_t* n_values) noexcept nogil
cdef bint exact_counts(const Dataset* d) noexcept nogil
cdef bint has_unknown(const Dataset* d, Py_ssize_t f) noexcept nogil
cdef bint no_unknown_values(const Dataset* d) noexcept nogil


# A node's class weights (NodeBuffer.cells): every read and write goes through
# these, whichever of float64 and binary32 counts (counted) the buffer holds.
cdef inline Py_ssize_t cell_bytes(const NodeBuffer* t) noexcept nogil:
    return sizeof(float) if t.counted else sizeof(double)


cdef inline char* cells_of(const NodeBuffer* t, Py_ssize_t node) noexcept nogil:
    """Where the node's class weights start (n_classes cells)."""
    return t.cells + node * t.n_classes * cell_bytes(t)


cdef inline double class_weight(const NodeBuffer* t, Py_ssize_t node,
                                Py_ssize_t c) noexcept nogil:
    if t.counted:
        return (<const float*> t.cells)[node * t.n_classes + c]
    return (<const double*> t.cells)[node * t.n_classes + c]


cdef inline void get_class_weights(const NodeBuffer* t, Py_ssize_t node,
                                   double* out) noexcept nogil:
    cdef Py_ssize_t c, k = t.n_classes
    if not t.counted:
        memcpy(out, cells_of(t, node), k * sizeof(double))
        return
    for c in range(k):
        out[c] = (<const float*> t.cells)[node * k + c]


cdef inline void set_class_weights(NodeBuffer* t, Py_ssize_t node,
                                   const double* dist) noexcept nogil:
    """The node's class weights from dist (counted: whole numbers of at most
    2**24, exact as binary32)."""
    cdef Py_ssize_t c, k = t.n_classes
    if not t.counted:
        memcpy(cells_of(t, node), dist, k * sizeof(double))
        return
    for c in range(k):
        (<float*> t.cells)[node * k + c] = <float> dist[c]


cdef inline bint same_class_weights(const NodeBuffer* t, Py_ssize_t node,
                                    const double* dist) noexcept nogil:
    """The node's class weights are dist's, bit for bit (as doubles)."""
    cdef Py_ssize_t c
    cdef double v
    if not t.counted:
        return memcmp(cells_of(t, node), dist, t.n_classes * sizeof(double)) == 0
    for c in range(t.n_classes):
        v = class_weight(t, node, c)
        if memcmp(&v, &dist[c], sizeof(double)) != 0:
            return False
    return True


cdef inline void copy_class_weights(NodeBuffer* to, Py_ssize_t at,
                                    const NodeBuffer* src, Py_ssize_t node) noexcept nogil:
    """The class weights of src's node into to's node at (the same kind of cells)."""
    memcpy(cells_of(to, at), cells_of(src, node), to.n_classes * cell_bytes(to))


cdef inline void node_test(const NodeBuffer* t, Py_ssize_t node, Test* test) noexcept nogil:
    """The test of a node, for the reordering primitives."""
    cdef const Node* nd = &t.nodes[node]
    test.kind = nd.kind
    test.feature = nd.feature
    test.threshold = nd.threshold
    test.value_map = &t.maps[nd.map_offset] if nd.map_offset >= 0 else NULL


cdef inline void set_leaf(Node* nd, int32_t cls, double weight, double errors) noexcept nogil:
    nd.kind = LEAF
    nd.feature = -1
    nd.first_child = -1
    nd.n_children = 0
    nd.node_class = cls
    nd.threshold = NAN
    nd.cut_rank = NO_CUT_RANK
    nd.weight = weight
    nd.errors = errors
    nd.map_offset = -1


cdef inline int32_t make_leaf(NodeBuffer* t, Py_ssize_t node, const double* dist,
                              double total, bint f32) noexcept nogil:
    """§2 step 1: the node as a leaf of its majority class (ties to the lowest
    index), weight total and class weights dist; returns the class."""
    cdef Py_ssize_t k = t.n_classes, c
    cdef int32_t best = 0
    for c in range(1, k):
        if dist[c] > dist[best]:
            best = <int32_t> c
    set_leaf(&t.nodes[node], best, total, rnd(f32, total - dist[best]))
    set_class_weights(t, node, dist)
    return best


cdef inline bint stays_leaf(const Dataset* d, double min_objs, int32_t depth,
                            double total, double best_weight) noexcept nogil:
    """The stopping rules checked before any test is evaluated: C4.5's (one class,
    fewer than 2 x MINOBJS) and the pre-pruning options (all off by default)."""
    if best_weight == total or total < 2 * min_objs:
        return True
    if d.max_depth >= 0 and depth >= d.max_depth:
        return True
    return total < d.min_split or (d.max_purity < 1.0 and best_weight >= d.max_purity * total)


cdef inline bint no_test(const Dataset* d, const double* gain, Py_ssize_t feature) noexcept nogil:
    """No usable test was found, or it gains less than min_gain: a leaf."""
    return feature < 0 or gain[feature] < d.min_gain


cdef inline int test_kind(const Dataset* d, const int32_t* n_groups, Py_ssize_t feature,
                          Py_ssize_t* n_branches) noexcept nogil:
    """The kind of test the chosen feature makes and its number of branches: a
    continuous feature two (<= and > the cut), a discrete one a branch per value,
    or with subsets (-s) a branch per value group."""
    if d.n_values[feature] == 0:
        n_branches[0] = 2
        return CONTINUOUS
    if is_subset_feature(d, feature):
        n_branches[0] = n_groups[feature]
        return SUBSET
    n_branches[0] = d.n_values[feature]
    return DISCRETE


cdef inline double cut_of(const Dataset* d, const double* bar, Py_ssize_t feature) noexcept nogil:
    """The threshold stored for the chosen cut: R8's largest training value not
    above the cut (the §13 midpoint variant: the midpoint itself)."""
    if d.midpoint:
        return bar[feature]
    return global_threshold(d, feature, bar[feature])


cdef inline double cut_of_listed(const Dataset* d, const double* bar, Py_ssize_t feature,
                                 uint32_t below, uint32_t above, uint32_t* rank) noexcept nogil:
    """cut_of on the presorted lists: below and above are the keys of the entries
    either side of the chosen cut (global_threshold_near); rank: the cut's
    Node.cut_rank, NO_CUT_RANK where the search did not give it."""
    if d.midpoint:
        rank[0] = NO_CUT_RANK
        return bar[feature]
    return global_threshold_near(d, feature, bar[feature], below, above, rank)


cdef inline bint cut_separates(double lowest_known, double highest_known,
                               double threshold) noexcept nogil:
    """Release 8 loops forever when the midpoint rounds up onto the upper value
    and every known case goes left (spec §13 Q1): a cut that leaves every known
    case of the node on one side keeps the node a leaf."""
    return lowest_known <= threshold and highest_known > threshold


cdef inline int64_t store_map(NodeBuffer* t, const int32_t* value_map,
                              Py_ssize_t n_values) noexcept nogil:
    """A subset test's value-to-branch map, stored with the tree; its offset, or
    -2 when memory runs out."""
    cdef int64_t offset
    if maps_reserve(t, n_values + 1) < 0:
        return -2
    offset = t.maps_count
    memcpy(&t.maps[offset], value_map, (n_values + 1) * sizeof(int32_t))
    t.maps_count += n_values + 1
    return offset


cdef inline int set_test(NodeBuffer* t, Py_ssize_t node, int kind, Py_ssize_t feature,
                         double threshold, Py_ssize_t n_branches,
                         int64_t map_offset) noexcept nogil:
    """The node becomes a test with n_branches children at the end of the buffer
    (its errors, the children's sum, start at 0); -1 when memory runs out."""
    cdef Node* nd
    if buffer_reserve(t, n_branches) < 0:
        return -1
    nd = &t.nodes[node]
    nd.kind = kind
    nd.feature = <int32_t> feature
    nd.threshold = threshold
    nd.first_child = <int32_t> t.count
    nd.n_children = <int32_t> n_branches
    nd.map_offset = map_offset
    nd.cut_rank = NO_CUT_RANK
    nd.errors = 0.0
    t.count += n_branches
    return 0


cdef inline void empty_branch(NodeBuffer* t, Py_ssize_t child, Py_ssize_t parent) noexcept nogil:
    """A branch no case reaches: a leaf of the parent's class and distribution."""
    set_leaf(&t.nodes[child], t.nodes[parent].node_class, 0.0, 0.0)
    copy_class_weights(t, child, t, parent)


cdef inline void reclaim_collapsed(NodeBuffer* t, Py_ssize_t node) noexcept nogil:
    """A collapsed node whose subtree was grown last, depth first (a set-aside
    subtree's own buffer): its descendants are the buffer's last nodes, which
    compaction would drop; the next nodes take their room (at 1M x 10 with 10
    classes a sixth of the nodes grown, 136 bytes each). Their subset maps stay,
    as the stored tree keeps them."""
    cdef Node* nd = &t.nodes[node]
    if nd.kind == LEAF and nd.n_children > 0 and node < nd.first_child <= t.count:
        t.count = nd.first_child
        nd.first_child = -1
        nd.n_children = 0


cdef inline void collapse_if_no_better(NodeBuffer* t, Py_ssize_t node, bint f32) noexcept nogil:
    """§2 step 11: a grown subtree (its errors the sum of its children's) that
    does not beat a leaf by more than epsilon becomes that leaf."""
    cdef Node* nd = &t.nodes[node]
    if nd.errors >= rnd(f32, nd.weight - class_weight(t, node, nd.node_class)) - EPSILON:
        nd.kind = LEAF
