# What the compiled modules share of c45/_fresh.pyx's allocator.
cimport numpy as cnp
from c45._interrupt cimport TOUCH_STEP


cdef inline bint faulted_whole(size_t nbytes) noexcept nogil:
    """True for an array that fresh_pages' allocator faults in whole before
    numpy hands it over: 2 x TOUCH_STEP bytes or more (smaller ones take a few
    ms at most and are left to their first writes)."""
    return nbytes >= 2 * <size_t> TOUCH_STEP


cdef object unfaulted_empty(int nd, cnp.npy_intp* dims, int typenum)
