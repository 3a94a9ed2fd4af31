from c45._types cimport Node, NodeBuffer
from c45._splitter cimport Work

from libc.stdint cimport int32_t, uint32_t
from c45._types cimport Dataset


# What pruning changed of the grown tree, so that no whole copy of it is held
# beside the tree being pruned: each node's fields and class weights as grown,
# taken before pruning first changes them (its errors aside: every node's
# change, so the caller keeps them all). One per thread; saved is shared.
cdef struct GrownLog:
    unsigned char* saved     # per node: 1 once its grown fields are in a log
    int32_t* node
    Node* rec
    double* value            # n_classes per entry
    Py_ssize_t count
    Py_ssize_t cap
    bint failed              # out of memory (pruning then fails)

cdef uint32_t* cut_ranks(const NodeBuffer* tree, const Dataset* d) noexcept nogil
cdef int prune_pessimistic(NodeBuffer* tree, Work* w, double confidence,
                           bint subtree_raising, uint32_t* cut,
                           GrownLog* log=*) except -1 nogil
cdef void log_free(GrownLog* log) noexcept nogil
