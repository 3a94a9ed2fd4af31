"""Shared pytest setup for the c45 test suite.

Makes the helper modules in this directory (``c45_files``, ``r8_output``) importable
by their plain names, whether or not ``tests`` is run as a package.
"""

import os
import sys

# OpenMP settings of the machine running the tests (a CI runner may set
# OMP_NUM_THREADS=1) would change what the threading tests exercise: n_jobs=2
# would run serially and their assertions would test nothing, or fail. libgomp
# reads them once, when c45's core loads, so they go before any test imports it;
# the tests that are about these variables set them in a child's environment.
# Children inherit this cleared environment (tests/c45_process.py).
OPENMP_SETTINGS = ("OMP_NUM_THREADS", "OMP_THREAD_LIMIT", "OMP_DYNAMIC", "OMP_WAIT_POLICY",
                   "GOMP_SPINCOUNT", "OMP_STACKSIZE", "GOMP_STACKSIZE", "OMP_PROC_BIND",
                   "OMP_PLACES", "OMP_MAX_ACTIVE_LEVELS", "OMP_NESTED")
for _name in OPENMP_SETTINGS:
    os.environ.pop(_name, None)

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)


def pytest_configure(config):
    # Registered here, not in pyproject.toml, so that the tests run the same from a
    # copy outside the source tree (.ci/run tests the installed wheel that way).
    config.addinivalue_line(
        "markers", "slow: long-running checks (CI runs them in a bounded form)")
