"""The one task pool of growing (c45/_presorted.pyx) and pruning (c45/_prune.pyx).

Both set subtrees aside as tasks, each with its own copy of its cases, and run
them on worker threads. A task computes exactly what the single-threaded walk
computes at its node and writes only its own results, so the order in which
they run and the number of workers change no bit; largest first keeps the
workers busy to the end."""
from cython.parallel cimport prange, threadid
from libc.stdlib cimport qsort


cdef int larger_first(const void* a, const void* b) noexcept nogil:
    """Larger tasks first; equal ones in the order they were made."""
    cdef const TaskOrder* x = <const TaskOrder*> a
    cdef const TaskOrder* y = <const TaskOrder*> b
    if x.m != y.m:
        return -1 if x.m > y.m else 1
    return -1 if x.index < y.index else (1 if x.index > y.index else 0)


cdef void run_tasks(TaskOrder* order, Py_ssize_t count, int n_workers, TaskRunner run,
                    void* ctx) noexcept nogil:
    """Run the count tasks of order (sorted here, largest first) on n_workers
    threads, dynamically scheduled, each call with its thread's worker index.
    One worker runs them in turn outside any OpenMP region (a forked child must
    not enter one)."""
    cdef Py_ssize_t q
    qsort(order, count, sizeof(TaskOrder), larger_first)
    if n_workers > 1:
        for q in prange(count, schedule="dynamic", num_threads=n_workers):
            run(ctx, threadid(), order[q].index)
    else:
        for q in range(count):
            run(ctx, 0, order[q].index)
