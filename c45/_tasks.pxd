# The one task pool of growing and pruning: subtrees set aside as tasks, run on
# worker threads, largest first.

# Runs task `task` with worker `worker`'s own buffers (ctx: the caller's state).
ctypedef void (*TaskRunner)(void* ctx, int worker, Py_ssize_t task) noexcept nogil

cdef struct TaskOrder:
    Py_ssize_t m          # the task's size (cases), largest run first
    Py_ssize_t index      # the task's own index, passed to the runner

cdef void run_tasks(TaskOrder* order, Py_ssize_t count, int n_workers, TaskRunner run,
                    void* ctx) noexcept nogil

# The least work (entries: cases x lists, or cases x features) worth a parallel
# region of its own at one node; team_for gives the threads for a region of some work.
cdef Py_ssize_t REGION_MIN_WORK
cdef int team_for(int n_threads, Py_ssize_t work) noexcept nogil
