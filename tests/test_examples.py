"""The examples under examples/ run and print what they compute."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run_example(name):
    import c45
    env = dict(os.environ)
    # The subprocess imports the same c45 as the tests (installed or built in place).
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(c45.__file__).resolve().parent.parent), env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, str(EXAMPLES / name)], capture_output=True,
                         text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_iris_pruning_cv():
    sys.path.insert(0, str(EXAMPLES))
    try:
        import iris_pruning_cv as lab
    finally:
        sys.path.pop(0)
    results = lab.main(verbose=False)
    printed = run_example("iris_pruning_cv.py")
    assert "100 training cases, 50 test cases" in printed
    for name, r in results.items():
        block = printed.split(f"== {name}:")[1].split("==")[0]
        assert f"{r['nodes']} nodes, depth {r['depth']}" in block
        for kind in ("cv", "test"):
            label = "5-fold CV" if kind == "cv" else "hold-out"
            line = next(l for l in block.splitlines() if l.strip().startswith(label))
            shown = dict(re.findall(r"(\w+) ([0-9.]+)", line.split(label)[1]))
            for metric, value in r[kind].items():
                assert float(shown[metric]) == pytest.approx(value, abs=5e-5)
                assert 0.85 <= value <= 1.0, (name, kind, metric, value)
    assert results["pre-pruned C4.5"]["depth"] <= 3
