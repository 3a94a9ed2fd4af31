"""libgomp's wait policy for c45's threads: passive unless the user chose one.

libgomp's default makes a thread that waits (for the next parallel region, at a
barrier) spin for a while first. On a busy machine those spinning threads take
the cores from the threads doing the work: n_jobs=2 predict took 20-50x as long
as n_jobs=1 beside other busy processes, and with a passive wait (sleeping at
once) it is no slower than n_jobs=1 there. The price is paid on idle cores,
where a sleeping thread wakes later than a spinning one at every parallel region
(the core runs few: _tasks.team_for), so n_jobs=2 speeds up less there
(benchmarks/README.md has the current figures). A user with idle cores to spare
can set OMP_WAIT_POLICY=ACTIVE. libgomp reads
OMP_WAIT_POLICY once, when it is loaded, so c45 loads its core's libgomp here
with the variable set, then gives the environment back as it was. A user's own
OMP_WAIT_POLICY or GOMP_SPINCOUNT is kept; where another library loaded the same
libgomp first, its policy stands.
"""
import importlib
import os

_CHOICES = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")


def load_core_passive():
    """Import the core's first OpenMP module with a passive wait policy in force."""
    if any(k in os.environ for k in _CHOICES):
        importlib.import_module("c45._tasks")
        return
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    try:
        importlib.import_module("c45._tasks")
    finally:
        os.environ.pop("OMP_WAIT_POLICY", None)
