from c45._types cimport NodeBuffer
from c45._splitter cimport Work

cdef int grow_presorted(Work* w, NodeBuffer* t) except -1
cdef Py_ssize_t root_split_listed(Work* w) except -2
