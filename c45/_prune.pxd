from c45._types cimport NodeBuffer
from c45._splitter cimport Work

from libc.stdint cimport uint32_t
from c45._types cimport Dataset

cdef uint32_t* cut_ranks(const NodeBuffer* tree, const Dataset* d) noexcept nogil
cdef bint cut_ranks_known(const NodeBuffer* tree) noexcept nogil
cdef int prune_pessimistic(NodeBuffer* tree, Work* w, double confidence,
                           bint subtree_raising, uint32_t* cut) except -1 nogil
