"""Fresh interpreters that import the same c45 as the tests (test helper).

``python -c`` and ``python -m`` put the working directory first on ``sys.path``,
ahead of ``PYTHONPATH``. Run from a source checkout whose ``c45/`` holds no compiled
modules (README's test command installs the package and runs pytest from the
checkout), a child would import that folder and fail. So every child runs in the
directory that holds the c45 under test, and that directory also leads its
``PYTHONPATH``.
"""

import os
import subprocess
import sys
import textwrap

import c45

HOME = os.path.dirname(os.path.dirname(os.path.abspath(c45.__file__)))


def child_env(**extra):
    """os.environ with HOME first on PYTHONPATH, plus `extra` variables."""
    env = dict(os.environ, **extra)
    env["PYTHONPATH"] = os.pathsep.join([HOME, os.environ.get("PYTHONPATH", "")])
    return env


def run(argv, timeout=120, env=None, cwd=None, **kwargs):
    """``python ARGV`` (text output captured, no stdin): CompletedProcess."""
    return subprocess.run([sys.executable, *map(str, argv)], env=child_env(**(env or {})),
                          cwd=HOME if cwd is None else cwd, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL, **kwargs)


def run_python(code, timeout=120, env=None):
    """``python -c CODE`` (dedented): CompletedProcess."""
    return run(["-c", textwrap.dedent(code)], timeout=timeout, env=env)
