# cython: language_level=3
"""Signals in the compiled core (Ctrl-C first of all).

Python runs its signal handlers on the main thread only, and only between
bytecodes: a long compiled call must look for them itself. Looking must never
take the GIL (beside another busy Python thread each take waits for its switch
interval: fits ran 25-380x slower), so a call made on the main thread puts a C
handler in front of Python's for every signal Python handles (_interrupt.h);
the loops read its flag, and only when a signal has come does the calling
thread take the GIL to run the Python handlers. A handler that raises
(KeyboardInterrupt) sets `stop`: every loop, on every thread, unwinds, and the
entry point raises the exception. Calls on other threads never run handlers
(Python would not run them there either); they only stop when told to.
"""
import signal
import threading

try:
    # the C function: signal.getsignal's wrapper makes an enum of every answer,
    # some 0.7 ms of Python for Python's 62 signals at each call that looks
    from _signal import getsignal as _getsignal
except ImportError:                 # pragma: no cover - not CPython
    _getsignal = signal.getsignal

from cpython.exc cimport PyErr_CheckSignals
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from libc.stdlib cimport free
from libc.string cimport memcpy
from libc.stdint cimport uintptr_t

from c45._types cimport Interrupt
from c45._scratch cimport c45_big_bytes, c45_big_free

cdef extern from "Python.h":
    unsigned long PyThread_get_thread_ident() nogil

cdef extern from "_interrupt.h":
    int C45_HAVE_SIGACTION
    int c45_signal_seen            # volatile sig_atomic_t in C
    int c45_signal_wrap(int sig) nogil
    void c45_signal_unwrap_all() nogil

# Without sigaction (or where a handler could not be wrapped) the calling thread
# takes the GIL on a timer instead: often enough for Ctrl-C to stop a call well
# within 100 ms, seldom enough to cost little beside a busy thread.
cdef double POLL_SECONDS = 0.03
cdef int wrap_depth = 0            # calls on the main thread inside each other
cdef bint wrap_timed = False       # the outermost call could not wrap every signal
cdef unsigned long MAIN_THREAD = threading.main_thread().ident
_SIGNALS = sorted(int(s) for s in signal.valid_signals())
_pending = []                      # the exception a handler raised (main thread only)


cdef double monotonic() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + 1e-9 * ts.tv_nsec


cdef int interrupt_init(Interrupt* it) except -1:
    """Start looking for signals for one call (pair with interrupt_end)."""
    global wrap_depth, wrap_timed, c45_signal_seen
    it.stop = 0
    it.last = monotonic()
    it.owner = 0
    it.timed = 0
    it.wrapping = 0
    if PyThread_get_thread_ident() != MAIN_THREAD:
        return 0
    it.owner = MAIN_THREAD
    if wrap_depth == 0:
        c45_signal_seen = 0
        wrap_timed = not C45_HAVE_SIGACTION
        for sig in _SIGNALS:
            if callable(_getsignal(sig)) and c45_signal_wrap(sig) < 0:
                wrap_timed = True
    wrap_depth += 1
    it.wrapping = 1
    it.timed = wrap_timed
    # A signal that came before its handler was wrapped (since the caller's last
    # bytecode: its arguments' conversions, its allocations) waits in Python's
    # handler, which c45_signal_seen does not show: the call would run its whole
    # length deaf to it (soft_bounds: 1.2 s here, 2.3 s with the sanitizers).
    try:
        PyErr_CheckSignals()
    except BaseException:
        interrupt_end(it)
        raise
    return 0


cdef void interrupt_end(Interrupt* it) noexcept:
    """Stop looking; the outermost call gives the signals their handlers back."""
    global wrap_depth
    if it.wrapping:
        it.wrapping = 0
        wrap_depth -= 1
        if wrap_depth == 0:
            c45_signal_unwrap_all()


cdef bint core_looks() noexcept nogil:
    """Whether a compiled call on the main thread looks for signals now (its
    handlers wrapped): its loops run the handlers and stop on what they raise,
    which nothing else must run meanwhile (c45/_fresh.pyx)."""
    return wrap_depth > 0


cdef bint run_handlers(Interrupt* it) noexcept with gil:
    """Run Python's pending signal handlers; stop if one raised."""
    global c45_signal_seen
    c45_signal_seen = 0
    try:
        PyErr_CheckSignals()
    except BaseException as exc:
        _pending.append(exc)
        it.stop = 1
    return it.stop != 0


cdef bint interrupted(Interrupt* it) noexcept nogil:
    """True when the call must unwind. A plain read of two flags, but on the
    calling (main) thread after a signal came, or on the fallback timer."""
    cdef double now
    if it == NULL:
        return False
    if it.stop:
        return True
    if it.owner == 0:
        return False
    if c45_signal_seen == 0:
        if not it.timed:
            return False
        if PyThread_get_thread_ident() != it.owner:
            return False
        now = monotonic()
        if now - it.last < POLL_SECONDS:
            return False
        it.last = now
    elif PyThread_get_thread_ident() != it.owner:
        return False
    return run_handlers(it)


cdef enum:
    PAGE = 4096
    RELEASE_STEP = 16 << 20 # bytes given back between two looks (about 1-3 ms)


cdef bint touch_pages(void* p, size_t n, Interrupt* it) noexcept nogil:
    """Fault in the pages of n bytes of scratch at p (whose contents do not
    matter: one byte a page is overwritten), looking for signals every
    TOUCH_STEP bytes; True when interrupted. A pass that scatters writes over
    fresh memory faults in all its pages at once: seconds deaf for a big one."""
    cdef volatile char* c = <volatile char*> p
    cdef size_t i = 0, end
    while i < n:
        if interrupted(it):
            return True
        end = min(n, i + TOUCH_STEP)
        while i < end:
            c[i] = 0
            i += PAGE
    return False


cdef bint copy_polled(void* out, const void* src, size_t n, Interrupt* it) noexcept nogil:
    """memcpy of n bytes in TOUCH_STEP steps (a few ms each into fresh pages),
    looking for signals between them: True when interrupted (out then
    unfinished)."""
    cdef size_t i = 0
    while i < n:
        if interrupted(it):
            return True
        memcpy(<char*> out + i, <const char*> src + i, min(<size_t> TOUCH_STEP, n - i))
        i += TOUCH_STEP
    return False


cdef extern from * nogil:
    """
    #if !defined(_WIN32)
    #include <sys/mman.h>
    #endif
    #if defined(MADV_DONTNEED)
    #define c45_drop_pages(p, n) ((void)madvise((p), (n), MADV_DONTNEED))
    #else
    #define c45_drop_pages(p, n) ((void)0)
    #endif
    """
    void c45_drop_pages(void* p, size_t n)


cdef void drop_looking(void* p, size_t n, Interrupt* it) noexcept nogil:
    """The pages of a block of n bytes at p given back in RELEASE_STEP steps,
    signal handlers run between them, before it is freed: one free of a few
    hundred MB was a munmap of 0.05-0.1 s CPU, deaf. Only the whole pages inside
    the block are dropped (its allocator's header lies before p)."""
    cdef uintptr_t lo = (<uintptr_t> p + PAGE - 1) & ~(<uintptr_t> PAGE - 1)
    cdef uintptr_t hi = (<uintptr_t> p + n) & ~(<uintptr_t> PAGE - 1)
    if p != NULL and n >= RELEASE_STEP:
        while lo < hi:
            interrupted(it)
            c45_drop_pages(<void*> lo, min(<uintptr_t> RELEASE_STEP, hi - lo))
            lo += RELEASE_STEP


cdef void free_looking(void* p, size_t n, Interrupt* it) noexcept nogil:
    """free() of malloc's block of n bytes, its pages given back first
    (drop_looking); it always frees all (a stop is seen by the caller's next
    look)."""
    drop_looking(p, n, it)
    free(p)


cdef void big_free_looking(void* p, Interrupt* it) noexcept nogil:
    """free_looking for a big block (c45/_scratch.pxd)."""
    drop_looking(p, c45_big_bytes(p), it)
    c45_big_free(p)


cdef int raise_interrupt() except -1:
    """Raise the exception a handler raised (KeyboardInterrupt for Ctrl-C)."""
    if _pending:
        exc = _pending.pop()
        del _pending[:]
        raise exc
    raise KeyboardInterrupt
