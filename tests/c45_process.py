"""Fresh interpreters that import the same c45 as the tests (test helper).

``python -c`` and ``python -m`` put the working directory first on ``sys.path``,
ahead of ``PYTHONPATH``. Run from a source checkout whose ``c45/`` holds no compiled
modules (README's test command installs the package and runs pytest from the
checkout), a child would import that folder and fail. So every child runs in the
directory that holds the c45 under test, and that directory also leads its
``PYTHONPATH``.
"""

import os
import shutil
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


_CASES_LOOP = '''
import pickle, sys, traceback
with open(sys.argv[1], "rb") as _fh:
    _cases = pickle.load(_fh)
for _i, _payload in _cases:
    print(f"\\0START {_i}", flush=True)
    try:
        _outcome = str(case(_payload))
    except BaseException:
        _outcome = "RAISED " + traceback.format_exc()
    print(f"\\0END {_i} {_outcome!r}", flush=True)
'''


def run_cases(code, payloads, folder, timeout=300):
    """The outcomes of ``case(payload)`` (`code` defines it) for every payload, as
    strings, each case as if in a fresh interpreter of its own but in as few as
    possible: one child runs the cases in turn (each start costs about a second of
    imports); a case that crashes or hangs its child gets that as its outcome
    ("CRASHED ..." or "HUNG ...") and the cases after it run in a new child. An
    exception escaping case() is its outcome ("RAISED" and the traceback). `folder`
    holds the script and the cases; `timeout` is each child's, in seconds."""
    import ast
    import pickle
    script = os.path.join(folder, "c45_cases.py")
    with open(script, "w", encoding="utf-8") as fh:
        fh.write(textwrap.dedent(code) + _CASES_LOOP)
    outcomes = {}
    todo = list(range(len(payloads)))
    while todo:
        cases = os.path.join(folder, "c45_cases.pickle")
        with open(cases, "wb") as fh:
            pickle.dump([(i, payloads[i]) for i in todo], fh)
        try:
            done = run([script, cases], timeout=timeout)
            stdout, failure = done.stdout, (
                None if done.returncode == 0 else
                f"CRASHED (exit {done.returncode}): {done.stderr[-3000:]}")
        except subprocess.TimeoutExpired as exc:
            out = exc.stdout or ""
            stdout = out.decode(errors="replace") if isinstance(out, bytes) else out
            failure = f"HUNG (its child ran over {timeout} s)"
        started = None
        for line in stdout.split("\n"):
            if line.startswith("\0START "):
                started = int(line.split()[1])
            elif line.startswith("\0END "):
                _, i, outcome = line.split(" ", 2)
                outcomes[int(i)] = ast.literal_eval(outcome)
                started = None
        if failure is None:
            failure = "NOT RUN (the child ended before it)"
        # The case running when the child died; if none was, every case left
        # (the child could not even begin, or ended without running them).
        for i in [started] if started is not None else [i for i in todo
                                                          if i not in outcomes]:
            outcomes[i] = failure
        todo = [i for i in todo if i not in outcomes]
    return [outcomes[i] for i in range(len(payloads))]


# PyEval_SaveThread counted: a library in front of Python's (LD_PRELOAD) that
# numpy's and c45's compiled calls reach.
RELEASE_COUNTER = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
unsigned long long gil_releases = 0;
void *PyEval_SaveThread(void) {
    static void *(*real)(void) = 0;
    if (!real) real = (void *(*)(void)) dlsym(RTLD_NEXT, "PyEval_SaveThread");
    gil_releases++;
    return real();
}
"""


# Appended to a script that sets `work`, {call: a function}: each call's
# releases, counted around a second call (the first warms it up).
_RELEASE_LOOP = """
import ctypes as _ctypes
_counter = _ctypes.c_ulonglong.in_dll(_ctypes.CDLL(None), "gil_releases")
for _call, _f in work.items():
    _f()
    _before = _counter.value
    _f()
    print(_call, "RELEASES", _counter.value - _before, flush=True)
"""


def count_releases(tmp_path, script, n_calls):
    """{call: its GIL releases} of each call of the script's `work` dict, the
    script run with a counter in front of Python's PyEval_SaveThread."""
    cc = shutil.which("cc") or shutil.which("gcc")
    assert cc, "a C compiler builds the c45 core, and this test's release counter"
    (tmp_path / "counter.c").write_text(RELEASE_COUNTER)
    lib = tmp_path / "counter.so"
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(lib), str(tmp_path / "counter.c"),
                    "-ldl"], check=True)
    run = run_python(textwrap.dedent(script) + _RELEASE_LOOP, timeout=600,
                     env={"LD_PRELOAD": str(lib)})
    assert run.returncode == 0, (run.returncode, run.stdout[-2000:], run.stderr[-3000:])
    print(run.stdout)
    releases = {line.split()[0]: int(line.split("RELEASES")[1])
                for line in run.stdout.splitlines() if "RELEASES" in line}
    assert len(releases) == n_calls, run.stdout
    return releases
