"""Shared pytest setup for the c45 test suite.

Makes the helper modules in this directory (``c45_files``, ``r8_output``) importable
by their plain names, whether or not ``tests`` is run as a package.
"""

import os
import sys

import pytest

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


@pytest.fixture
def small_regions():
    """The top nodes' own parallel regions (features evaluated, children's lists
    made, pruning's lists grouped and merged, subtrees set aside) from 1,000
    entries: by default they start at 500,000 (more than most nodes in the tests
    have), where waking the team pays off on a busy machine."""
    from c45._tasks import set_region_min_work
    old = set_region_min_work(1000)
    yield
    set_region_min_work(old)


def pytest_configure(config):
    # Registered here, not in pyproject.toml, so that the tests run the same from a
    # copy outside the source tree (.ci/run tests the installed wheel that way).
    config.addinivalue_line(
        "markers", "slow: long-running checks (CI runs them in a bounded form)")


# Scheduling on pytest-xdist workers (`--dist loadscope`, pyproject's addopts). A
# module is one unit of work, so its module-scoped fixtures are made once; but the
# R8 corpus module alone is 40% of the suite's CPU time, and plain loadscope sends
# it whole to one worker while the other runs everything else. Here the corpus is
# cut into units of CORPUS_CHUNK problems (every test of those problems, so the
# files a problem's commands share are parsed once); its other shared state, the
# extracted archive, costs about a second per worker. The units start longest
# first, so the short ones fill in at the end: HEAVY_FIRST names the modules that
# take longest (CPU seconds measured with `--durations`; their order only decides
# which start first).
CORPUS_MODULE = "test_r8_corpus.py"
CORPUS_CHUNK = 25
HEAVY_FIRST = ("test_concurrency.py", "test_reliability.py", "test_io_limits.py",
               "test_hardening.py", "test_properties.py", "test_cli.py",
               "test_core_vs_oracle.py", "test_docs.py", "test_variants.py",
               "test_dask.py", "test_tree_checks.py")


def _scope(nodeid):
    """The unit of work of a test: its module, or its chunk of corpus problems."""
    module, _, rest = nodeid.partition("::")
    problem = rest.partition("[")[2][:5]        # test_rules_options[r0123-rules-a]
    if not module.endswith(CORPUS_MODULE) or not problem[1:].isdigit():
        return nodeid.rsplit("::", 1)[0]
    return f"{module}::r{int(problem[1:]) // CORPUS_CHUNK}"


def _start_rank(scope):
    name = scope.partition("::")[0].rsplit("/", 1)[-1]
    if name in HEAVY_FIRST:
        return HEAVY_FIRST.index(name)
    return len(HEAVY_FIRST) + (0 if name == CORPUS_MODULE else 1)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getoption("dist") != "loadscope":
        return None     # another --dist given on the command line is kept
    from collections import OrderedDict

    from xdist.scheduler import LoadScopeScheduling

    class CorpusSplitScheduling(LoadScopeScheduling):
        _ordered = False

        def _split_scope(self, nodeid):
            return _scope(nodeid)

        def _assign_work_unit(self, node):
            if not self._ordered:     # the first assignment: the whole queue is known
                self._ordered = True
                order = sorted(self.workqueue, key=_start_rank)
                self.workqueue = OrderedDict((s, self.workqueue[s]) for s in order)
            super()._assign_work_unit(node)

    return CorpusSplitScheduling(config, log)
