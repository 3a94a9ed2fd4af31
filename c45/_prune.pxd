from c45._types cimport NodeBuffer
from c45._splitter cimport Work

cdef int prune_pessimistic(NodeBuffer* tree, Work* w, double confidence,
                           bint subtree_raising) except -1 nogil
