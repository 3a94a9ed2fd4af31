# Ctrl-C (and every signal with a Python handler) in the compiled core.
from c45._types cimport Interrupt

cdef double monotonic() noexcept nogil
cdef int interrupt_init(Interrupt* it) except -1
cdef void interrupt_end(Interrupt* it) noexcept
cdef bint interrupted(Interrupt* it) noexcept nogil
cdef int raise_interrupt() except -1
cdef bint touch_pages(void* p, size_t n, Interrupt* it) noexcept nogil
cdef bint copy_polled(void* out, const void* src, size_t n, Interrupt* it) noexcept nogil
cdef void free_looking(void* p, size_t n, Interrupt* it) noexcept nogil
