from c45._types cimport NodeBuffer, Dataset
from c45._splitter cimport Work

cdef int grow_presorted(Work* w, NodeBuffer* t) except -1
cdef Py_ssize_t root_split_listed(Work* w) except -2
cdef void rank_order(Dataset* d, int n_threads) noexcept nogil
