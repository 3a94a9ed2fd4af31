"""How many OpenMP threads the compiled core may start: every entry point of the
core asks ``clamp`` (so no caller, model file or pickle can start more threads
than the process has CPUs), and a process forked after the core ran OpenMP
threads runs serially.

A forked child inherits libgomp's state but not its worker threads: entering a
parallel region there can hang for ever (libgomp is not fork-safe). The child
therefore never enters one; with one thread the core takes plain serial loops.

libgomp also ends the process when a parallel region cannot start its threads (a
memory limit): ``clamp`` asks c45._tasks.startable_threads first, and runs on
fewer threads, or one, where no more can start.
"""
import os
import warnings

_parallel_used = False      # this process has run an OpenMP region with > 1 thread
_forked = False             # ... and then forked: we are the child
_warned = False


def usable_cpus():
    """CPUs this process may run on (its affinity mask, else the CPU count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):         # not on Linux
        return max(1, os.cpu_count() or 1)


def clamp(n_threads):
    """The number of threads to use for a request of n_threads (already an int >=
    1, e.g. from joblib.effective_n_jobs): at most the usable CPUs and OpenMP's
    limit (OMP_NUM_THREADS, threadpoolctl), as many as can start, 1 in a child
    forked after OpenMP threads ran."""
    global _parallel_used, _warned
    n = max(1, min(int(n_threads), usable_cpus()))
    if n > 1:
        # OpenMP's own limit, as scikit-learn's OpenMP code honours it: what
        # threadpoolctl sets (joblib gives its workers a share of the cores).
        from c45._tasks import openmp_max_threads
        n = max(1, min(n, openmp_max_threads()))
    if _forked:
        if n > 1 and not _warned:
            _warned = True
            warnings.warn(
                "c45: this process was forked after c45 ran OpenMP threads; OpenMP "
                "cannot run in a forked child, so c45 uses one thread here (use the "
                "'loky' or 'spawn' start method for parallel work in children)",
                RuntimeWarning, stacklevel=3)
        return 1
    if n > 1:
        from c45._tasks import startable_threads   # a compiled module imports this one
        k = startable_threads(n)
        if k < n:
            warnings.warn(
                f"c45: only {k} of {n} threads could be started (out of memory or "
                f"a limit on threads); running on {k}", RuntimeWarning, stacklevel=3)
            n = k
    if n > 1:
        _parallel_used = True
    return n


def _after_fork_in_child():
    global _forked
    if _parallel_used:
        _forked = True


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
