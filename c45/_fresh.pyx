# cython: language_level=3
"""numpy arrays on fresh pages, faulted in a step at a time with looks for
signals between the steps.

The first touch of memory the process never had costs the kernel a page clear
and, on a VM, the host a page of its own: 0.06-0.3 GB/s measured on a loaded
VM, a few GB/s on a quiet machine. numpy writes a new array's pages in the C
call that makes it (np.empty of an object array fills it with None; astype,
arange, a ufunc's output): 16 MB of them kept the interpreter from handling
Ctrl-C for 0.28 s, 40 MB (an object array of 5 million labels) for 0.44 s.

Inside `with fresh_pages():` numpy takes every array's memory of 2 x TOUCH_STEP
bytes or more from an allocator (numpy's memory handler, NEP 49: a context
variable, so other threads and other code keep numpy's own) that faults the
pages in TOUCH_STEP steps and, called with the GIL held as numpy calls it when
it makes an array, runs Python's signal handlers between them. An exception a
handler raises (KeyboardInterrupt) is kept and raised when the block ends;
until then big allocations fail, so that the block ends soon.
"""
import numpy as np
cimport numpy as cnp
from cpython.exc cimport PyErr_CheckSignals, PyErr_Occurred
from cpython.pycapsule cimport PyCapsule_New
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport strcpy
from libc.stdint cimport uintptr_t

from c45._interrupt cimport TOUCH_STEP, core_looks

cnp.import_array()

cdef extern from "Python.h":
    ctypedef struct PyObject
    void Py_DecRef(PyObject*)
    int PyGILState_Check() nogil
    unsigned long PyThread_get_thread_ident() nogil

cdef extern from "numpy/ndarraytypes.h":
    ctypedef struct DataAllocator "PyDataMemAllocator":
        void* ctx
        void* (*malloc)(void* ctx, size_t size) noexcept nogil
        void* (*calloc)(void* ctx, size_t nelem, size_t elsize) noexcept nogil
        void* (*realloc)(void* ctx, void* ptr, size_t size) noexcept nogil
        void (*free)(void* ctx, void* ptr, size_t size) noexcept nogil
    PyObject* set_numpy_handler "PyDataMem_SetHandler"(PyObject* handler)
    ctypedef struct DataHandler "PyDataMem_Handler":
        char name[127]
        unsigned char version
        DataAllocator allocator

TOUCH_BYTES = TOUCH_STEP            # (for Python code that writes in steps)
_pending = []                       # what a signal handler raised in the allocator
cdef unsigned long stopping = 0     # the thread where one has (Python's main
                                    # thread), whose big allocations fail (a
                                    # MemoryError) until its block ends, which
                                    # raises the handler's exception instead


cdef bint look_for_signals() noexcept with gil:
    """Python's pending signal handlers run; False once one has raised (its
    exception kept in _pending) or an exception is already set."""
    global stopping
    if PyErr_Occurred() != NULL:
        return False
    try:
        PyErr_CheckSignals()
    except BaseException as exc:
        _pending.append(exc)
        stopping = PyThread_get_thread_ident()
        return False
    return True


cdef extern from * nogil:
    """
    #if !defined(_WIN32)
    #include <sys/mman.h>
    #endif
    #if defined(MADV_HUGEPAGE)
    #define c45_huge_pages(p, n) ((void)madvise((p), (n), MADV_HUGEPAGE))
    #else
    #define c45_huge_pages(p, n) ((void)0)
    #endif
    """
    void c45_huge_pages(void* p, size_t n)


cdef bint fault_in(void* p, size_t n) noexcept nogil:
    """The pages of n bytes at p (contents free to change: malloc's, or
    calloc's zeros written as zeros) touched, signals looked for between
    TOUCH_STEP steps where the caller holds the GIL; False (unfinished) once
    a handler has raised. Not inside a compiled call that looks for signals
    itself (c45/_interrupt.pyx): a handler's exception caught here would not
    stop its loops."""
    cdef volatile char* c = <volatile char*> p
    cdef size_t i = 0, end
    cdef bint look = PyGILState_Check() != 0 and not core_looks()
    # transparent huge pages, as numpy asks for its own arrays of 4 MB or more:
    # a 4 kB page at a time faults (and later frees) more slowly
    cdef uintptr_t lo = (<uintptr_t> p + 4095) & ~(<uintptr_t> 4095)
    c45_huge_pages(<void*> lo, <uintptr_t> p + n - lo)
    while i < n:
        if look and i > 0:
            look = look_for_signals()
            if is_stopping():
                return False
        end = min(n, i + <size_t> TOUCH_STEP)
        while i < end:
            c[i] = 0
            i += 4096
        i = end
    return True


cdef inline bint is_stopping() noexcept nogil:
    return stopping != 0 and stopping == PyThread_get_thread_ident()


cdef void* faulted_in(void* p, size_t size) noexcept nogil:
    """p, its pages touched (fault_in) when big; NULL (p freed) when a signal
    handler has raised: numpy's MemoryError unwinds the block at once, where a
    fill of the rest (an object array's Nones) would be seconds deaf."""
    if p == NULL or not faulted_whole(size):
        return p
    if is_stopping() or not fault_in(p, size):
        free(p)
        return NULL
    return p


cdef void* fresh_malloc(void* ctx, size_t size) noexcept nogil:
    return faulted_in(malloc(size), size)


cdef void* fresh_calloc(void* ctx, size_t nelem, size_t elsize) noexcept nogil:
    return faulted_in(calloc(nelem, elsize), nelem * elsize)


cdef void* fresh_realloc(void* ctx, void* ptr, size_t size) noexcept nogil:
    return realloc(ptr, size)       # (a resize: its new bytes left as they come)


cdef void fresh_free(void* ctx, void* ptr, size_t size) noexcept nogil:
    free(ptr)


cdef DataHandler handler
strcpy(handler.name, b"c45_fresh_pages")
handler.version = 1
handler.allocator.ctx = NULL
handler.allocator.malloc = fresh_malloc
handler.allocator.calloc = fresh_calloc
handler.allocator.realloc = fresh_realloc
handler.allocator.free = fresh_free
_handler = PyCapsule_New(&handler, b"mem_handler", NULL)


class fresh_pages:
    """`with fresh_pages():` numpy's new arrays of the block fault their pages in
    steps, signal handlers run between them (see the module's doc); what a
    handler raised is raised as the block ends."""
    __slots__ = ("_old",)

    def __enter__(self):
        self._old = cnp.PyDataMem_SetHandler(_handler)
        return self

    def __exit__(self, kind, value, tb):
        global stopping
        cnp.PyDataMem_SetHandler(self._old)
        raised = _pending[:]
        del _pending[:]
        stopping = 0
        if raised and kind is not None and issubclass(kind, MemoryError):
            raise raised[0] from None       # (the allocator's MemoryError)
        if raised:
            raise raised[0]     # (ahead of another exception too, as Python
        return False            # raises a handler's at its next bytecode)


cdef object unfaulted_empty(int nd, cnp.npy_intp* dims, int typenum):
    """An empty array for a compiled pass that writes it in order and looks
    for signals as it goes (a walk of the rows): where fresh_pages would fault
    it in whole first, numpy's own allocator, so that an early Ctrl-C leaves the
    rest of it untouched."""
    cdef cnp.dtype kind = cnp.PyArray_DescrFromType(typenum)
    if faulted_whole(<size_t> kind.itemsize * <size_t> cnp.PyArray_MultiplyList(dims, nd)):
        with numpy_pages():
            return cnp.PyArray_EMPTY(nd, dims, typenum, 0)
    return cnp.PyArray_EMPTY(nd, dims, typenum, 0)


class numpy_pages:
    """`with numpy_pages():` numpy's own allocator again (inside fresh_pages):
    for an array written sparsely, whose pages a first touch of them all would
    make resident."""
    __slots__ = ("_old",)

    def __enter__(self):
        cdef PyObject* old = set_numpy_handler(NULL)
        if old == NULL:
            raise RuntimeError("numpy's memory handler could not be set")
        self._old = <object> old
        Py_DecRef(old)                  # (the call's reference: _old holds one)
        return self

    def __exit__(self, kind, value, tb):
        cnp.PyDataMem_SetHandler(self._old)
        return False


# A call on this many rows or more makes its arrays in fresh_pages; below, its
# half microsecond is skipped (a one-row predict takes five).
cdef Py_ssize_t fresh_rows = 1 << 16
FRESH_ROWS = fresh_rows


cdef class _Unchanged:
    """A block that changes nothing (fresh_pages_for's for a small call)."""

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        return False


_UNCHANGED = _Unchanged()


cdef bint many_rows(X):
    """Whether X (any array-like) has FRESH_ROWS rows or more."""
    cdef cnp.ndarray array
    if type(X) is np.ndarray:
        array = <cnp.ndarray> X
        return array.ndim > 0 and array.shape[0] >= fresh_rows
    try:
        return (X.shape[0] if hasattr(X, "shape") else len(X)) >= fresh_rows
    except (TypeError, IndexError):
        return False


def fresh_pages_for(X):
    """`with fresh_pages_for(X):` fresh_pages() for a call on X's rows when they
    are FRESH_ROWS or more (its arrays may be big); a block that changes nothing
    for fewer."""
    return fresh_pages() if many_rows(X) else _UNCHANGED


def fresh_empty(shape, dtype):
    """np.empty(shape, dtype) in fresh_pages (an object array: Nones)."""
    with fresh_pages():
        return np.empty(shape, dtype=dtype)
