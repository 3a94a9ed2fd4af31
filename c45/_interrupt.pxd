# Ctrl-C (and every signal with a Python handler) in the compiled core.
from cpython.exc cimport PyErr_CheckSignals
from c45._types cimport Interrupt

# Bytes of fresh memory (pages the process never touched) written between two
# looks for signals: one transparent huge page, faulted in whole. A first touch
# costs a page clear, and on a VM the host's page too: 0.06-0.3 GB/s measured
# on a loaded VM (35-7 ms a step), a few GB/s on a quiet machine.
cdef enum:
    TOUCH_STEP = 2 << 20

cdef double monotonic() noexcept nogil
cdef int interrupt_init(Interrupt* it) except -1
cdef void interrupt_end(Interrupt* it) noexcept
cdef bint interrupted(Interrupt* it) noexcept nogil
cdef int raise_interrupt() except -1
cdef bint touch_pages(void* p, size_t n, Interrupt* it) noexcept nogil
cdef bint copy_polled(void* out, const void* src, size_t n, Interrupt* it) noexcept nogil
cdef void free_looking(void* p, size_t n, Interrupt* it) noexcept nogil
cdef void big_free_looking(void* p, Interrupt* it) noexcept nogil
cdef bint core_looks() noexcept nogil

# A pass over nodes whose cost is each node's k class weights (thousands of
# classes: a node's weights are tens of kB) looks by the cells it has done, not
# by its nodes: once LOOK_CELLS cells since its last look (a few hundred
# microseconds of copying or summing), whatever k is. A counter's add a node:
# nothing beside a 2-class node's work.
cdef enum:
    LOOK_CELLS = 1 << 16


cdef inline bint look_by_cells(Py_ssize_t* cells, Py_ssize_t add, Interrupt* it) noexcept nogil:
    """interrupted(it), asked once LOOK_CELLS cells have been counted in
    *cells since the last time (add: this item's cells)."""
    cells[0] += add
    if cells[0] < LOOK_CELLS:
        return False
    cells[0] = 0
    return interrupted(it)


cdef inline int check_by_cells(Py_ssize_t* cells, Py_ssize_t add) except -1:
    """look_by_cells for a pass that holds the GIL: the interpreter's own
    signal check (its handlers run here; one that raises stops the pass)."""
    cells[0] += add
    if cells[0] < LOOK_CELLS:
        return 0
    cells[0] = 0
    return PyErr_CheckSignals()
