"""Shared pytest setup for the c45 test suite.

Makes the helper modules in this directory (``c45_files``, ``r8_output``) importable
by their plain names, whether or not ``tests`` is run as a package.
"""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)


def pytest_configure(config):
    # Registered here, not in pyproject.toml, so that the tests run the same from a
    # copy outside the source tree (.ci/run tests the installed wheel that way).
    config.addinivalue_line(
        "markers", "slow: long-running checks (CI runs them in a bounded form)")
