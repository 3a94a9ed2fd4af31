"""The one task pool of growing (c45/_presorted.pyx) and pruning (c45/_prune.pyx).

Both set subtrees aside as tasks, each with its own copy of its cases, and run
them on worker threads. A task computes exactly what the single-threaded walk
computes at its node and writes only its own results, so the order in which
they run and the number of workers change no bit; largest first keeps the
workers busy to the end."""
from cython.parallel cimport prange, threadid
from libc.stdlib cimport qsort


# Every parallel region wakes its team and ends at a barrier. On idle cores a
# sleeping thread (c45's waits are passive: c45/_openmp.py) takes tens of
# microseconds to wake; on a busy machine a thread the scheduler has set aside
# holds the barrier for a scheduler slice (milliseconds), while the thread that
# got there first sleeps. Hundreds of small regions per fit (pruning grouped
# every node of n / 16 cases or more in two, growing copied 10,000-case lists)
# made n_jobs=2 slower than one thread beside busy processes. So a node's work
# gets a region only from this many entries (milliseconds of work on one thread;
# below, the wait at the barrier can cost more than a second thread saves), and
# the calling thread does smaller work alone. Set-aside subtrees (run_tasks) are
# the rest of the parallelism: many nodes' work per region.
cdef Py_ssize_t REGION_MIN_WORK = 500000


cdef int team_for(int n_threads, Py_ssize_t work) noexcept nogil:
    """The threads of a region of work entries: n_threads from REGION_MIN_WORK on,
    else 1 (no region: a forked child never enters one either)."""
    return n_threads if n_threads > 1 and work >= REGION_MIN_WORK else 1


def set_region_min_work(Py_ssize_t work):
    """Set REGION_MIN_WORK, returning the old value: the tests run the parallel
    paths of the top nodes on data small enough to fit quickly."""
    global REGION_MIN_WORK
    old = REGION_MIN_WORK
    REGION_MIN_WORK = max(work, 0)
    return old


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


# ---------------------------------------------------------------------------
# Starting libgomp's threads. libgomp ends the process (exit 1, "Thread creation
# failed") when a parallel region cannot start its threads, as under a memory
# limit. So before a calling thread first runs a team of n threads, n - 1 plain
# threads of libgomp's stack size are started and joined (their stacks stay in
# the C library's cache for libgomp to reuse) and a first region starts the team
# at once; libgomp keeps a calling thread's team, so that thread then runs any
# team up to n threads without starting one. Fewer startable: fewer threads.

cdef extern from "_stack.h":
    size_t c45_worker_stack() noexcept nogil

cdef extern from *:
    """
    #if defined(__linux__) || defined(__APPLE__) || defined(__unix__)
    #include <pthread.h>
    static __thread int c45_team_ready = 1;   /* the largest team this thread has run */
    static void *c45_idle_thread(void *arg) { return arg; }
    static int c45_threads_startable(int n, size_t stack)
    {
        pthread_t t[256];
        pthread_attr_t attr;
        int i, made = 0;
        if (n > 257)
            n = 257;
        if (pthread_attr_init(&attr) != 0)
            return 1;
        if (stack != 0 && pthread_attr_setstacksize(&attr, stack) != 0) {
            pthread_attr_destroy(&attr);
            return 1;
        }
        for (i = 0; i < n - 1; i++) {
            if (pthread_create(&t[i], &attr, c45_idle_thread, NULL) != 0)
                break;
            made++;
        }
        for (i = 0; i < made; i++)
            pthread_join(t[i], NULL);
        pthread_attr_destroy(&attr);
        return made + 1;
    }
    #else
    static int c45_team_ready = 1 << 30;      /* no libgomp here: nothing to check */
    static int c45_threads_startable(int n, size_t stack) { (void)stack; return n; }
    #endif
    """
    int c45_team_ready
    int c45_threads_startable(int n, size_t stack) noexcept nogil


cdef extern from *:
    """
    #ifdef _OPENMP
    #include <omp.h>
    #define c45_omp_max_threads() omp_get_max_threads()
    #else
    #define c45_omp_max_threads() (1 << 30)
    #endif
    """
    int c45_omp_max_threads() noexcept nogil


def openmp_max_threads():
    """OpenMP's limit for the calling thread's next region: OMP_NUM_THREADS, or
    what threadpoolctl (scikit-learn's, joblib's workers) set."""
    return c45_omp_max_threads()


cdef void start_team(int n) noexcept nogil:
    """A first region of n threads: libgomp starts the team now."""
    cdef int q
    cdef int slots[256]
    for q in prange(n, schedule="static", num_threads=n):
        slots[q % 256] = q


def startable_threads(int n):
    """How many of n threads (the caller and n - 1 workers) the calling thread
    can run in a parallel region; 1 means run serially."""
    global c45_team_ready
    cdef int k
    if n <= c45_team_ready:
        return n
    with nogil:
        k = c45_threads_startable(n, c45_worker_stack())
        if k > 1:
            start_team(k)
    if k > c45_team_ready:
        c45_team_ready = k
    return k
