"""The node buffer: a growable array of nodes with their class distributions and
the subset tests' value maps, and its compaction into the stored tree's layout.
The rules that fill it while growing are inline in _nodes.pxd."""
from libc.math cimport NAN
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset
from libc.stdint cimport int32_t, int64_t, uint8_t

from c45._types cimport Node, NodeBuffer, Dataset, Interrupt, LEAF, CONTINUOUS
from c45._scratch cimport resize, doubled, c45_big_resize, c45_big_free
from c45._interrupt cimport interrupted, look_by_cells, LOOK_CELLS


cdef bint zero_looking(char* v, Py_ssize_t n, Py_ssize_t size, Interrupt* it) noexcept nogil:
    """memset of n cells of size bytes in steps of LOOK_CELLS, looking for
    signals between them (not before the first: a short fill never looks);
    True when interrupted (v then unfinished)."""
    cdef Py_ssize_t i = 0
    while i < n:
        if i > 0 and interrupted(it):
            return True
        memset(&v[i * size], 0, min(<Py_ssize_t> LOOK_CELLS, n - i) * size)
        i += LOOK_CELLS
    return False


cdef int buffer_reserve(NodeBuffer* b, Py_ssize_t extra) noexcept nogil:
    """Make room for `extra` more nodes, zeroed (the nodes about to be made: trees
    and their pickles are deterministic); -1 if memory runs out. The doubled
    room above them is not touched, so that it is not resident: at the end of a
    large fit a doubling was 0.9 times X's bytes of pages, written only to
    be given back by the compaction. A long fill (many nodes of many classes)
    looks for signals: -1 too when interrupted (b.intr.stop set)."""
    cdef Py_ssize_t k = b.n_classes
    if buffer_room(b, extra) < 0:
        return -1
    if extra > 0:
        memset(&b.nodes[b.count], 0, extra * sizeof(Node))
        if zero_looking(cells_of(b, b.count), extra * k, cell_bytes(b), b.intr):
            return -1
    return 0


cdef int buffer_room(NodeBuffer* b, Py_ssize_t extra) noexcept nogil:
    """The capacity for `extra` more nodes, untouched (not resident until
    written); -1 if memory runs out."""
    cdef Py_ssize_t cap, k = b.n_classes
    cdef void* grown
    if b.count + extra > b.capacity:
        cap = doubled(b.capacity, b.count + extra)
        # Both arrays are big blocks (c45/_scratch.pxd): grown by mremap, not
        # copied by realloc, which at thousands of classes copied hundreds of MB
        # unpolled (a sanitizer build's allocator always copies), and a task
        # worker's subtree leaves no resident pages in its thread's heap.
        # (+ 1 byte: never a request of 0 bytes, which a plain realloc, the
        # fallback, answers with NULL.)
        grown = c45_big_resize(b.nodes, cap * sizeof(Node) + 1)
        if grown == NULL:
            return -1
        b.nodes = <Node*> grown
        grown = c45_big_resize(b.cells, cap * k * cell_bytes(b) + 1)
        if grown == NULL:
            return -1
        b.cells = <char*> grown
        b.capacity = cap
    return 0


cdef int maps_reserve(NodeBuffer* b, Py_ssize_t extra) noexcept nogil:
    """Make room for `extra` more value-map entries; -1 if memory runs out."""
    cdef Py_ssize_t cap
    if b.maps_count + extra <= b.maps_capacity:
        return 0
    cap = doubled(b.maps_capacity, b.maps_count + extra)
    if resize(<void**> &b.maps, b.maps_capacity, cap, sizeof(int32_t), True) < 0:
        return -1
    b.maps_capacity = cap
    return 0


cdef void buffer_free(NodeBuffer* b) noexcept nogil:
    c45_big_free(b.nodes)
    c45_big_free(b.cells)
    free(b.maps)
    b.nodes = NULL
    b.cells = NULL
    b.maps = NULL
    b.count = b.capacity = b.maps_count = b.maps_capacity = 0
cdef int maps_in_growing_order(NodeBuffer* t, const int32_t* n_values) noexcept nogil:
    """Store the subset tests' maps in the order R8's depth-first growing makes
    them (a node's map before its branches', branches in order), the maps of
    collapsed subtrees (kept in the stored tree) included: the order of the
    float32 case array's grower, for a tree grown in another order. -1 out of
    memory."""
    cdef Py_ssize_t top = 0, at = 0, length
    cdef int32_t* maps
    cdef int32_t* stack
    cdef int32_t node, b
    cdef Node* nd
    if t.maps_count == 0 or t.count == 0:
        return 0
    maps = <int32_t*> malloc(t.maps_count * sizeof(int32_t))
    stack = <int32_t*> malloc(t.count * sizeof(int32_t))
    if maps == NULL or stack == NULL:
        free(maps)
        free(stack)
        return -1
    stack[0] = 0
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        nd = &t.nodes[node]
        if nd.map_offset >= 0:
            length = n_values[nd.feature] + 1
            memcpy(&maps[at], &t.maps[nd.map_offset], length * sizeof(int32_t))
            nd.map_offset = <int64_t> at
            at += length
        for b in range(nd.n_children - 1, -1, -1):      # a collapsed node's too
            stack[top] = nd.first_child + b
            top += 1
    memcpy(t.maps, maps, at * sizeof(int32_t))
    t.maps_count = at
    free(maps)
    free(stack)
    return 0


cdef void buffer_fit(NodeBuffer* b) noexcept nogil:
    """Give back the room above the buffer's count (its doubled capacity, zeroed
    and so resident): before a copy of it is made. A failed shrink keeps the
    larger block."""
    cdef void* kept
    if b.capacity <= b.count or b.count == 0:
        return
    kept = c45_big_resize(b.nodes, b.count * sizeof(Node) + 1)      # (+ 1: above)
    if kept == NULL:
        return
    b.nodes = <Node*> kept
    kept = c45_big_resize(b.cells, b.count * b.n_classes * cell_bytes(b) + 1)  # (+ 1: above)
    if kept == NULL:
        b.capacity = b.count        # nodes shrunk; cells keep their (larger) block
        return
    b.cells = <char*> kept
    b.capacity = b.count


cdef int compact_in_place(NodeBuffer* t) noexcept nogil:
    """The nodes reachable from the root, breadth first, so that every node's
    children are contiguous and no abandoned node remains; a leaf's fields set
    again (set_leaf), a non-continuous test's threshold NaN. Moved along the
    cycles of the permutation (no second buffer beside t); t is then shrunk to
    them. -1 out of memory (t unchanged), or interrupted (t.intr.stop set: t
    then half moved, fit only to be freed)."""
    cdef Py_ssize_t n = t.count, k = t.n_classes, count = 1, i, j, nxt, b, cells = 0
    cdef int32_t* order              # new position -> old (reachable first)
    cdef int32_t* newpos             # old position -> new
    cdef uint8_t* done
    cdef char* tmp_value
    cdef Py_ssize_t row = k * cell_bytes(t)
    cdef Node tmp, nd
    if n == 0:
        return 0
    order = <int32_t*> malloc(n * sizeof(int32_t))
    newpos = <int32_t*> malloc(n * sizeof(int32_t))
    done = <uint8_t*> calloc(n, sizeof(uint8_t))
    tmp_value = <char*> malloc(row + 1)
    if order == NULL or newpos == NULL or done == NULL or tmp_value == NULL:
        free(order); free(newpos); free(done); free(tmp_value)
        return -1
    for i in range(n):
        newpos[i] = -1
    order[0] = 0
    newpos[0] = 0
    i = 0
    while i < count:                  # breadth first
        nd = t.nodes[order[i]]
        if nd.kind != LEAF:
            for b in range(nd.n_children):
                order[count] = nd.first_child + <int32_t> b
                newpos[nd.first_child + b] = <int32_t> count
                count += 1
        i += 1
    j = count                         # the unreachable ones after, in order
    for i in range(n):
        if newpos[i] < 0:
            order[j] = <int32_t> i
            newpos[i] = <int32_t> j
            j += 1
    for i in range(n):                # nodes[new] = old nodes[order[new]], by cycles
        if done[i] or order[i] == i:
            continue
        tmp = t.nodes[i]
        memcpy(tmp_value, cells_of(t, i), row)
        j = i
        while True:
            done[j] = 1
            nxt = order[j]
            if nxt == i:
                t.nodes[j] = tmp
                memcpy(cells_of(t, j), tmp_value, row)
                break
            t.nodes[j] = t.nodes[nxt]
            copy_class_weights(t, j, t, nxt)
            j = nxt
            if look_by_cells(&cells, k, t.intr):    # (a cycle may be every node)
                free(order); free(newpos); free(done); free(tmp_value)
                return -1
    for i in range(count):            # a leaf's fields set again, a threshold NaN
        if t.nodes[i].kind == LEAF:
            set_leaf(&t.nodes[i], t.nodes[i].node_class, t.nodes[i].weight,
                     t.nodes[i].errors)
        else:
            t.nodes[i].first_child = newpos[t.nodes[i].first_child]
            if t.nodes[i].kind != CONTINUOUS:
                t.nodes[i].threshold = NAN
    free(order); free(newpos); free(done); free(tmp_value)
    t.count = count
    buffer_fit(t)
    return 0


cdef bint exact_counts(const Dataset* d) noexcept nogil:
    """Whether every class weight a tree grown and pruned on d holds is a whole
    number of at most 2**24, exact as binary32 (NodeBuffer.counted): every
    initial weight 1, at most 2**24 cases, no unknown value (whose case goes
    down each branch with a fractional weight). The known counts tell of the
    continuous features (float64, float32 on the lists; R8's case array never
    counts); the codes are read for the discrete ones, looking for signals."""
    if not d.count_mode_init or d.n_cases > 16777216 or (d.f32 and not d.listed):
        return False
    return no_unknown_values(d)


cdef bint has_unknown(const Dataset* d, Py_ssize_t f) noexcept nogil:
    """Whether feature f has an unknown value: a continuous one's known count
    tells, a discrete one's codes are read, looking for signals (interrupted:
    True, and the caller unwinds)."""
    cdef Py_ssize_t i, n = d.n_cases
    cdef const int32_t* codes
    if d.n_values[f] == 0:
        return d.n_known[f] != n
    codes = &d.codes[<Py_ssize_t> d.col[f] * n]
    for i in range(n):
        if codes[i] <= 0 or ((i & 0xFFFF) == 0xFFFF and interrupted(d.intr)):
            return True
    return False


cdef bint no_unknown_values(const Dataset* d) noexcept nogil:
    """Whether no feature has an unknown value (has_unknown)."""
    cdef Py_ssize_t f
    for f in range(d.n_features):
        if has_unknown(d, f):
            return False
    return True
