# Growable scratch arrays: resizing with the failure handled one way, whatever
# the growth policy (the node buffer, task lists, the pruner, the walkers' path).
from libc.stdlib cimport realloc
from libc.string cimport memset


cdef inline Py_ssize_t doubled(Py_ssize_t cap, Py_ssize_t need) noexcept nogil:
    """The capacity for need elements, doubling from cap (64 at first)."""
    cap = cap * 2 if cap > 0 else 64
    while cap < need:
        cap *= 2
    return cap


cdef inline int resize(void** data, Py_ssize_t old_n, Py_ssize_t n, size_t elem,
                       bint zero) noexcept nogil:
    """Resize *data from old_n to n elements of elem bytes (with zero, the new
    ones zeroed); -1 when memory runs out, *data then unchanged and still valid."""
    cdef void* grown = realloc(data[0], n * elem)
    if grown == NULL:
        return -1
    if zero and n > old_n:
        memset(<char*> grown + old_n * elem, 0, (n - old_n) * elem)
    data[0] = grown
    return 0


cdef inline int room_for(void** data, Py_ssize_t count, Py_ssize_t extra, Py_ssize_t* cap,
                         size_t elem, Py_ssize_t first) noexcept nogil:
    """Room for extra more elements after count, the capacity growing to
    2 x cap + first (or to what is needed); -1 when memory runs out."""
    cdef Py_ssize_t grown
    if count + extra <= cap[0]:
        return 0
    grown = 2 * cap[0] + first
    if grown < count + extra:
        grown = count + extra
    if resize(data, cap[0], grown, elem, False) < 0:
        return -1
    cap[0] = grown
    return 0
