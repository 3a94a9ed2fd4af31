"""The c45 command, run as a subprocess (``python -m c45 ...``) as a user runs it.

* On the nine reference data sets, ``c45 fit -f STEM -u --precision float32``
  prints what C4.5 Release 8 printed (tests/data/reference/r8): the cases read, both
  trees, the evaluation tables (sizes, errors, estimate) and the confusion matrix.
* Malformed files and bad usage exit with status 2 and a one-line message naming
  the file and the line, never a traceback.
* predict, cv and rules; the progress indicator; a CSV read once.
"""
import io
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import c45
from c45 import cli
from c45.io import read_c45
import c45_process
from r8_output import parse_r8_output

REFERENCE = Path(__file__).resolve().parent / "data" / "reference"
DATASETS = ["golf", "labor-neg", "vote", "monk1", "monk2", "monk3", "crx", "hypo",
            "soybean"]


def run(*args, cwd=None):
    """``python -m c45 ARGS``, importing the same c45 as the tests (see c45_process)."""
    return c45_process.run(["-m", "c45", *args], cwd=cwd, timeout=300)


def run_many(commands):
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        return list(pool.map(lambda a: run(*a), commands))


@pytest.fixture(scope="module")
def r8_runs():
    """Every reference data set through the command, concurrently."""
    commands = []
    for stem in DATASETS:
        args = ["fit", "-f", REFERENCE / stem, "--precision", "float32"]
        if (REFERENCE / f"{stem}.test").exists():
            args.append("-u")
        commands.append(args)
    return dict(zip(DATASETS, run_many(commands)))


@pytest.mark.parametrize("stem", DATASETS)
def test_fit_prints_what_release_8_printed(r8_runs, stem):
    done = r8_runs[stem]
    assert done.returncode == 0, done.stderr
    assert "\r" not in done.stderr and "c45:" not in done.stderr   # no progress drawn
    ours = parse_r8_output(done.stdout)
    r8 = parse_r8_output(REFERENCE / "r8" / f"{stem}.txt")
    assert (ours.n_cases, ours.n_attributes) == (r8.n_cases, r8.n_attributes)
    assert ours.train == r8.train
    assert ours.test == r8.test
    assert [l.rstrip() for l in ours.grown_tree] == r8.grown_tree
    assert ours.pruned_printed == r8.pruned_printed
    if r8.pruned_printed:
        assert [l.rstrip() for l in ours.pruned_tree] == r8.pruned_tree


def _confusion_block(text):
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if "<-classified as" in l)
    block = [l.rstrip() for l in lines[start:]]
    while block and not block[-1]:
        block.pop()
    return block


@pytest.mark.parametrize("stem", [s for s in DATASETS if (REFERENCE / f"{s}.test").exists()])
def test_confusion_matrix_as_release_8(r8_runs, stem):
    r8 = (REFERENCE / "r8" / f"{stem}.txt").read_text(encoding="utf-8")
    assert _confusion_block(r8_runs[stem].stdout) == _confusion_block(r8)


def test_default_precision_is_float64_and_options_are_passed(capsys):
    status = cli.main(["fit", "-f", str(REFERENCE / "vote"), "-m", "5", "-c", "10", "-q"])
    out = capsys.readouterr().out
    assert status == 0
    X, y = read_c45(REFERENCE / "vote")
    clf = c45.C45Classifier(min_samples_leaf=5, confidence=0.10).fit(X, y)
    assert c45.export_text(clf) in out
    table = c45.evaluation_table(clf, X, y)
    assert table in out
    assert "Sensible test requires 2 branches with >=5 cases" in out
    assert "Pruning confidence level 10%" in out


def test_subset_and_gain_options(capsys):
    assert cli.main(["fit", "-f", str(REFERENCE / "soybean"), "-s", "--precision",
                     "float32", "-q"]) == 0
    out = capsys.readouterr().out
    # spec §10: soybean -s, raw 201 / 2 errors, pruned 125 / 20 (13.5%).
    assert re.search(r"201\s+2\(\s*0\.3%\)\s+125\s+20\(\s*2\.9%\)\s+\(13\.5%\)", out)
    assert cli.main(["fit", "-f", str(REFERENCE / "golf"), "-g", "--pruning", "none",
                     "-q"]) == 0
    out = capsys.readouterr().out
    assert "Gain criterion used" in out and "Simplified Decision Tree" not in out


# -- bad input and bad usage ----------------------------------------------------
GOLF_NAMES = (REFERENCE / "golf.names").read_text()
GOLF_DATA = (REFERENCE / "golf.data").read_text()

MALFORMED = {
    "missing class line": ("\n".join(GOLF_NAMES.splitlines()[1:]), GOLF_DATA,
                           "bad.names, line 2"),
    "undeclared value": (GOLF_NAMES, GOLF_DATA.replace("rain, 70", "snow, 70"),
                         "bad.data, line 4, attribute 'outlook'"),
    "wrong field count": (GOLF_NAMES, GOLF_DATA.replace("overcast, 64, 65,",
                                                        "overcast, 64, 65, 1,"),
                          "bad.data, line 7"),
    "non-numeric continuous": (GOLF_NAMES, GOLF_DATA.replace("sunny, 72, 95",
                                                             "sunny, 72, wet"),
                               "bad.data, line 8, attribute 'humidity'"),
    "empty file": (GOLF_NAMES, "", "bad.data, line 1"),
    "binary garbage": (GOLF_NAMES, bytes(np.random.default_rng(7).integers(
        0, 256, 512, dtype=np.uint8)), "bad.data, line 1"),
}


def _write(path, content):
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")


def _assert_user_error(done, *words):
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("c45: error: ") or done.stderr.startswith("usage:")
    for w in words:
        assert w in done.stderr, done.stderr


def _malformed_stem(tmp_path, case):
    d = tmp_path / re.sub(r"\W", "_", case)
    d.mkdir()
    names, data, _ = MALFORMED[case]
    _write(d / "bad.names", names)
    _write(d / "bad.data", data)
    return d / "bad"


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_c45_files_exit_2_naming_the_line(tmp_path, capsys, case):
    assert cli.main(["fit", "-f", str(_malformed_stem(tmp_path, case))]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("c45: error: ") and captured.err.count("\n") == 1
    assert MALFORMED[case][2] in captured.err


def test_malformed_file_as_a_subprocess_exits_2_without_traceback(tmp_path):
    done = run("fit", "-f", _malformed_stem(tmp_path, "binary garbage"))
    _assert_user_error(done, MALFORMED["binary garbage"][2], "not a text file")
    assert done.stdout == ""


def test_malformed_csv_and_arff_exit_2(tmp_path, capsys):
    _write(tmp_path / "short.csv", "a,b,cls\n1,x,p\n2,q\n")
    _write(tmp_path / "nan.csv", "a,b,cls\n1,x,p\n2,y,q\nhigh,x,p\n")
    _write(tmp_path / "bad.arff", "@relation r\n@attribute a numeric\n"
           "@attribute c {p,q}\n@data\n1,p\n2,r\n")
    _write(tmp_path / "garbage.csv", bytes(range(256)))
    for argv, words in [
            (["--csv", "short.csv"], ["short.csv, line 3", "2 fields, expected 3"]),
            (["--csv", "nan.csv", "--continuous", "a"],
             ["nan.csv, line 4, column 'a'", "'high' is not a number"]),
            (["--csv", "short.csv", "--target", "nope"], ["target column 'nope'"]),
            (["--arff", "bad.arff"], ["bad.arff, line 6, attribute 'c'",
                                      "'r' is not declared"]),
            (["--csv", "garbage.csv"], ["garbage.csv, line 1", "not a text file"])]:
        argv[1] = str(tmp_path / argv[1])
        assert cli.main(["fit", *argv]) == 2
        err = capsys.readouterr().err
        assert err.startswith("c45: error: ")
        for w in words:
            assert w in err, err


@pytest.mark.parametrize("extra, words", [
    (["--encoding", "bogus"], ["unknown text encoding 'bogus'"]),
    (["-c", "1e-50", "--precision", "float32"], ["is 0 in float32"]),
])
def test_bad_options_exit_2_with_one_line(extra, words):
    """A LookupError and an AttributeError (no pruned tree) were tracebacks."""
    done = run("fit", "-f", REFERENCE / "golf", *extra)
    _assert_user_error(done, *words)
    assert done.stderr.count("\n") == 1


def test_bad_csv_separator_and_non_utf8_model_exit_2(tmp_path, capsys):
    _write(tmp_path / "g.csv", "a,cls\n1,p\n2,q\n")
    assert cli.main(["fit", "--csv", str(tmp_path / "g.csv"), "--sep", "ab"]) == 2
    assert "sep must be one character" in capsys.readouterr().err
    _write(tmp_path / "m.json", bytes(range(128, 256)))
    assert cli.main(["predict", "--model", str(tmp_path / "m.json"), "-f",
                     str(REFERENCE / "golf")]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'm.json'} is not a c45 model: c45 model file is not UTF-8" in err


@pytest.mark.parametrize("argv, words", [
    ([], ["usage:"]),
    (["fit"], ["exactly one of -f STEM, --csv FILE, --arff FILE"]),
    (["fit", "-f", "x", "--csv", "y.csv"], ["exactly one of"]),
    (["fit", "--csv", "y.csv", "-u"], ["-u evaluates on STEM.test"]),
    (["fit", "-f", "x", "--target", "c"], ["--target is for --csv"]),
    (["fit", "-f", "x", "--discrete", "c"], ["--discrete is for --csv"]),
    (["fit", "-f", "nowhere/none"], ["nowhere/none.names: no such file"]),
    (["cv", "-f", str(REFERENCE / "golf"), "--folds", "1"], ["--folds must be at least 2"]),
    (["cv", "-f", str(REFERENCE / "golf"), "--folds", "15"], ["more than the 14 cases"]),
    (["predict", "--model", "none.json", "-f", str(REFERENCE / "golf")],
     ["cannot read the model none.json"]),
])
def test_usage_errors_in_process(capsys, argv, words):
    status = cli.main(argv) if argv else cli.main(argv)
    err = capsys.readouterr().err
    assert status == 2
    for w in words:
        assert w in err, err


@pytest.mark.parametrize("argv", [["fit", "-f", "x", "-c", "0"], ["fit", "-f", "x", "-c", "150"],
                                  ["fit", "-f", "x", "-m", "-1"], ["fit", "-f", "x", "-m", "two"],
                                  ["cv", "--pruning", "bogus"], ["frobnicate"]])
def test_argparse_errors_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as info:
        cli.main(argv)
    assert info.value.code == 2
    assert "usage:" in capsys.readouterr().err


# -- predict, cv, rules ---------------------------------------------------------
def test_save_and_predict_round_trip(tmp_path, capsys):
    model = tmp_path / "crx.json"
    out = tmp_path / "pred.csv"
    assert cli.main(["fit", "-f", str(REFERENCE / "crx"), "--save", str(model), "-q"]) == 0
    assert f"Tree saved to {model}" in capsys.readouterr().out
    assert cli.main(["predict", "--model", str(model), "-f", str(REFERENCE / "crx"), "-u",
                     "--proba", "-o", str(out)]) == 0
    pred_err = capsys.readouterr().err
    X, y = read_c45(REFERENCE / "crx")
    Xt, yt = read_c45(REFERENCE / "crx", "test")
    clf = c45.C45Classifier().fit(X, y)
    table = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert list(table.columns) == ["predicted", "P(+)", "P(-)", "actual"]
    np.testing.assert_array_equal(table["predicted"], clf.predict(Xt).astype(str))
    np.testing.assert_allclose(table[["P(+)", "P(-)"]].astype(float), clf.predict_proba(Xt),
                               rtol=1e-5)
    errors = int((clf.predict(Xt).astype(object) != np.asarray(yt, dtype=object)).sum())
    assert f"{errors} of 200 cases misclassified" in pred_err


def test_predict_csv_with_a_model_fitted_on_csv(tmp_path, capsys):
    csv_text = "outlook,temperature,humidity,windy,play\n" + "".join(
        ",".join(v.strip() for v in line.split(",")) + "\n"
        for line in GOLF_DATA.splitlines() if line.strip())
    _write(tmp_path / "golf.csv", csv_text)
    model = tmp_path / "golf.json"
    assert cli.main(["fit", "--csv", str(tmp_path / "golf.csv"), "--target", "play",
                     "--save", str(model), "-q"]) == 0
    capsys.readouterr()
    _write(tmp_path / "new.csv", "windy,humidity,outlook,temperature\n"
           "true,90,sunny,70\nfalse,?,overcast,80\nfalse,70,hail,75\n")
    assert cli.main(["predict", "--model", str(model), "--csv", str(tmp_path / "new.csv"),
                     "--proba"]) == 0
    table = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert table["predicted"].tolist() == ["Don't Play", "Play", "Play"]
    assert np.allclose(table.filter(like="P(").sum(axis=1), 1.0)


def test_csv_and_arff_with_a_test_file(tmp_path, capsys):
    rows = [",".join(v.strip() for v in line.split(","))
            for line in GOLF_DATA.splitlines() if line.strip()]
    header = "outlook,temperature,humidity,windy,play"
    _write(tmp_path / "golf.csv", "\n".join([header] + rows) + "\n")
    _write(tmp_path / "new.csv", "\n".join([header] + rows[:5] + ["hail,70,?,true,Play"])
           + "\n")
    assert cli.main(["fit", "--csv", str(tmp_path / "golf.csv"), "--test",
                     str(tmp_path / "new.csv"), "-q"]) == 0
    out = capsys.readouterr().out
    assert "Read 14 cases (4 attributes) from" in out
    assert "Evaluation on test data (6 items)" in out
    arff = ("@relation golf\n@attribute outlook {sunny, overcast, rain}\n"
            "@attribute temperature numeric\n@attribute humidity numeric\n"
            "@attribute windy {true, false}\n@attribute play {Play, \"Don't Play\"}\n"
            "@data\n" + "\n".join(r.replace("Don't Play", '"Don\'t Play"') for r in rows)
            + "\n")
    _write(tmp_path / "golf.arff", arff)
    assert cli.main(["fit", "--arff", str(tmp_path / "golf.arff"), "--test",
                     str(tmp_path / "golf.arff"), "--precision", "float32", "-q"]) == 0
    out = capsys.readouterr().out
    r8 = parse_r8_output(REFERENCE / "r8" / "golf.txt")
    ours = parse_r8_output(out)
    assert ours.train == r8.train and ours.test.errors_after == 0
    assert [l.rstrip() for l in ours.grown_tree] == r8.grown_tree


def test_cv_is_stratified_seeded_and_summarised(capsys):
    argv = ["cv", "-f", str(REFERENCE / "vote"), "--folds", "5", "--seed", "3", "-q"]
    assert cli.main(argv) == 0
    first = capsys.readouterr().out
    assert cli.main(argv) == 0
    assert capsys.readouterr().out == first
    rows = [l.split() for l in first.splitlines() if re.match(r"\s+\d+\s", l)]
    assert [int(r[0]) for r in rows] == [1, 2, 3, 4, 5]
    errors_after = [int(r[5]) for r in rows]
    assert sum(errors_after) <= 30            # vote: ~4-5% error
    mean = next(l for l in first.splitlines() if l.strip().startswith("Mean"))
    assert float(mean.split()[5]) == pytest.approx(np.mean(errors_after), abs=0.05)
    assert "Mean error after pruning" in first


@pytest.mark.skipif(not hasattr(c45, "C45RulesClassifier"), reason="no rules yet")
def test_rules_command(capsys):
    assert cli.main(["rules", "-f", str(REFERENCE / "labor-neg"), "-u", "--precision",
                     "float32", "-q"]) == 0
    out = capsys.readouterr().out
    X, y = read_c45(REFERENCE / "labor-neg")
    clf = c45.C45RulesClassifier(precision="float32", random_state=0).fit(X, y)
    assert c45.export_rules(clf, evaluation=True) in out
    assert "Evaluation on test data (17 items)" in out


def test_rules_options_as_release8_takes_and_prints_them(capsys):
    """-F takes c4.5rules' percent; the options' lines come in the order of the
    command line, as Release 8 prints them; c4.5rules reads from the stem."""
    stem = str(REFERENCE / "labor-neg")
    assert cli.main(["rules", "-F", "10", "-f", stem, "-a", "-u", "-c", "10", "-q"]) == 0
    out = capsys.readouterr().out
    head = out[out.index("    Options:"):out.index("Read ")].splitlines()
    assert head[1:6] == ["\tSignificance test in rule pruning, threshold 10%",
                         f"\tFile stem <{stem}>",
                         "\tSimulated annealing for selecting rules",
                         "\tRulesets evaluated on unseen cases",
                         "\tPruning confidence level 10%"]
    assert f"Read 40 cases (16 attributes) from {stem}\n" in out
    X, y = read_c45(REFERENCE / "labor-neg")
    clf = c45.C45RulesClassifier(fisher=0.1, annealing=True, confidence=0.1).fit(X, y)
    assert c45.export_rules(clf, evaluation=True) in out


@pytest.mark.parametrize("level", ["0", "100", "-5", "150", "nan", "x"])
def test_rules_significance_is_a_percent_strictly_inside_0_100(level, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["rules", "-f", str(REFERENCE / "golf"), "-F", level])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "argument -F" in err


# -- the demo, progress, reading once -------------------------------------------
def test_no_arguments_still_runs_the_demo():
    done = run()
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("=== golf: 14 cases")
    assert "=== weather: 12 cases" in done.stdout


class FakeTerminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_draws_on_a_terminal_only():
    import time
    tty = FakeTerminal()
    p = cli.Progress(tty, delay=0.0, interval=0.02)
    assert p.run("growing", lambda: (time.sleep(0.2), 42)[1]) == 42
    drawn = tty.getvalue()
    assert "c45: growing" in drawn and drawn.endswith("\r")      # line cleared at the end
    pipe = io.StringIO()
    assert cli.Progress(pipe, delay=0.0).run("growing", lambda: 7) == 7
    assert pipe.getvalue() == ""
    quiet = FakeTerminal()
    cli.Progress(quiet, enabled=False, delay=0.0).run("x", time.sleep, 0.1)
    assert quiet.getvalue() == ""
    with pytest.raises(ZeroDivisionError):                     # errors come through
        cli.Progress(FakeTerminal(), delay=0.0).run("x", lambda: 1 / 0)


def test_fit_reads_the_csv_once(tmp_path, monkeypatch, capsys):
    from c45.io import _common
    rng = np.random.default_rng(1)
    n = 30_000
    frame = pd.DataFrame({"a": rng.normal(size=n).round(3), "b": rng.integers(0, 9, n),
                          "c": rng.choice(["r", "g", "b"], n)})
    frame["y"] = np.where(frame.a + (frame.c == "r") > 0.5, "p", "q")
    path = tmp_path / "big.csv"
    frame.to_csv(path, index=False)
    opened = []
    real_open = open

    def counting_open(file, mode="r", *args, **kwargs):
        fh = real_open(file, mode, *args, **kwargs)
        opened.append((os.fspath(file), fh))
        return fh

    monkeypatch.setattr(_common, "open", counting_open, raising=False)
    assert cli.main(["fit", "--csv", str(path), "-q"]) == 0
    assert f"Evaluation on training data ({n} items)" in capsys.readouterr().out
    assert [f for f, _ in opened] == [str(path)]              # opened once
    assert opened[0][1].closed


@pytest.mark.slow
def test_large_csv_fits_in_one_pass(tmp_path):
    """A large CSV through the command. C45_BIG_CSV_ROWS sets the size (1,000,000
    takes about 10 s and 350 MB); the default keeps the suite fast."""
    n = int(os.environ.get("C45_BIG_CSV_ROWS", "100000"))
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.normal(size=n).round(3), "b": rng.integers(0, 100, n),
                          "c": rng.choice(["red", "green", "blue"], n)})
    frame["y"] = np.where(frame.a + (frame.b > 50) + (frame.c == "red")
                          + rng.normal(size=n) * 0.5 > 1, "yes", "no")
    path = tmp_path / "big.csv"
    frame.to_csv(path, index=False)
    done = run("fit", "--csv", path, "--target", "y")
    assert done.returncode == 0, done.stderr
    assert f"Read {n} cases (3 attributes)" in done.stdout
    ours = parse_r8_output(done.stdout)
    assert ours.train.items == n and ours.train.errors_after < 0.2 * n


def test_demo_runs_the_bundled_job():
    out = run("demo")
    assert out.returncode == 0, out.stderr
    assert "=== golf: 14 cases" in out.stdout and "=== weather: 12 cases" in out.stdout
    assert "\t   8    0( 0.0%)      8    0( 0.0%)    (38.5%)   <<" in out.stdout


# -- a newcomer's first runs -----------------------------------------------------
def test_demo_prints_no_simplified_tree_when_pruning_changed_nothing():
    out = run("demo")
    golf = out.stdout.split("=== weather")[0]
    assert "Simplified Decision Tree" not in golf        # golf: pruning keeps 8 nodes
    assert "Pruning changed nothing" in golf


def test_confusion_matrix_widens_for_counts_of_five_digits():
    y = ["a"] * 163703 + ["b"] * 58699 + ["a"] * 12
    p = ["a"] * 163703 + ["b"] * 58699 + ["b"] * 12
    text = cli.confusion_matrix_text(["a", "b"], y, p)
    lines = text.splitlines()
    assert lines[2] == "\t    (a)    (b)\t<-classified as"
    assert lines[4] == "\t 163703     12\t(a): class a"
    assert lines[5] == "\t         58699\t(b): class b"
    # Below 10,000 the columns stay C4.5's five characters.
    small = cli.confusion_matrix_text(["a", "b"], ["a"] * 9999 + ["b"], ["a"] * 10000)
    assert small.splitlines()[2] == "\t  (a)  (b)\t<-classified as"
    assert small.splitlines()[4] == "\t 9999     \t(a): class a"


def test_fit_no_trees_leaves_only_the_evaluation(capsys):
    stem = REFERENCE / "golf"
    assert cli.main(["fit", "-f", str(stem), "--no-trees", "-q"]) == 0
    out = capsys.readouterr().out
    assert "Decision Tree" not in out and "outlook" not in out
    assert "Evaluation on training data (14 items)" in out and "<-classified as" in out


def test_csv_numeric_target_is_refused_unless_asked(tmp_path, capsys):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.normal(size=40), "alcohol": rng.normal(13, 1, 40).round(2)})
    frame.to_csv(tmp_path / "wine.csv", index=False)
    argv = ["fit", "--csv", str(tmp_path / "wine.csv"), "--target", "alcohol", "-q"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "class column 'alcohol'" in err and "holds numbers" in err
    assert "--numeric-target-as-classes" in err
    assert cli.main(argv + ["--numeric-target-as-classes"]) == 0
    assert "Evaluation on training data (40 items)" in capsys.readouterr().out


def test_output_into_a_closed_pipe_has_no_traceback():
    done = subprocess.run(f"'{sys.executable}' -m c45 | head -1", shell=True,
                          cwd=c45_process.HOME, env=c45_process.child_env(),
                          capture_output=True, text=True, timeout=300)
    assert done.stdout.startswith("=== golf")
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr


def test_help_does_not_import_scikit_learn():
    code = ("import sys, contextlib, io\nfrom c45 import cli\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    try: cli.main(['--help'])\n    except SystemExit: pass\n"
            "print('sklearn' in sys.modules, 'pandas' in sys.modules)")
    done = c45_process.run_python(code)
    assert done.stdout.split() == ["False", "False"], done.stderr


# -- options that have no effect under the others -------------------------------
@pytest.mark.parametrize("command, options, warned", [
    ("fit", ["--ccp-alpha", "2"], ["--ccp-alpha has no effect: it acts only with "
                                   "--pruning cost_complexity"]),
    ("fit", ["--pruning", "none", "-c", "10", "--no-subtree-raising"],
     ["-c has no effect: it acts only with --pruning pessimistic",
      "--no-subtree-raising has no effect: it acts only with --pruning pessimistic"]),
    ("fit", ["--seed", "3"], ["--seed has no effect: it acts only with --pruning "
                              "reduced_error"]),
    ("cv", ["--folds", "2", "--ccp-alpha", "2", "--seed", "3"],
     ["--ccp-alpha has no effect"]),
    ("rules", ["--seed", "3"], ["--seed has no effect: random_state acts only when "
                                "max_features is not None, which no option of 'c45 "
                                "rules' sets"]),
    ("fit", ["--pruning", "cost_complexity", "--ccp-alpha", "2"], []),
    ("fit", ["--pruning", "reduced_error", "--seed", "3", "-c", "25"], []),
    ("rules", ["-c", "10"], []),
    ("cv", ["--folds", "2", "--seed", "3"], []),
])
def test_an_option_without_effect_gets_one_warning_line(capsys, command, options, warned):
    status = cli.main([command, "-f", str(REFERENCE / "golf"), *options])
    err = capsys.readouterr().err
    assert status == 0
    lines = [l for l in err.splitlines() if "has no effect" in l]
    assert len(lines) == len(warned), err            # once, not once per fold
    for line, expected in zip(lines, warned):
        assert line.startswith("c45: warning: ") and expected in line
    assert cli.main([command, "-f", str(REFERENCE / "golf"), *options, "-q"]) == 0
    assert "has no effect" not in capsys.readouterr().err


# -- options refused before any output, the subcommand's own usage ---------------

@pytest.mark.parametrize("argv", [
    ["fit", "-f", str(REFERENCE / "golf"), "-j", "0"],
    ["fit", "-f", str(REFERENCE / "golf"), "-m", "0"],
    ["cv", "-f", str(REFERENCE / "golf"), "-j", "0"],
    ["rules", "-f", str(REFERENCE / "golf"), "-m", "-1"],
])
def test_a_bad_option_prints_nothing_but_the_error(argv, capsys):
    """The header came out before -j 0 was refused; now every option is checked
    first (by argparse or by the estimator the command makes)."""
    try:
        status = cli.main(argv)
    except SystemExit as exc:      # argparse's own refusal
        status = exc.code
    assert status == 2
    captured = capsys.readouterr()
    assert captured.out == "", captured.out
    assert "error" in captured.err


def test_a_misspelt_option_shows_the_subcommand_usage(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["fit", "-f", str(REFERENCE / "golf"), "--precison", "float32"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: c45 fit"), err[:200]
    assert "unrecognized arguments: --precison" in err


def test_help_offers_only_the_commands_options(capsys):
    with pytest.raises(SystemExit):
        cli.main(["cv", "--help"])
    out = capsys.readouterr().out
    assert "-u" not in out.replace("--", "")


def test_a_csv_of_another_separator_gets_a_hint(tmp_path, capsys):
    path = tmp_path / "semi.csv"
    path.write_text("a;b;c\n1;2;x\n3;4;y\n")
    assert cli.main(["fit", "--csv", str(path), "-q"]) == 2
    assert "separated by ';'" in capsys.readouterr().err


# -- every option checked before any output, named as the user typed it ----------
GOLF = str(REFERENCE / "golf")


def _refused(capsys, argv):
    """cli.main(argv) exits 2 with nothing on stdout and one error line: that line."""
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "", captured.out[:200]
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("c45: error: "), captured.err
    return lines[0]


@pytest.mark.parametrize("where, words", [
    ("none/m.json", ["the folder", "none", "does not exist"]),
    ("afile/m.json", ["afile is not a folder"]),
    ("adir", ["is a folder"]),
])
def test_an_output_file_is_checked_before_any_output(tmp_path, capsys, where, words):
    """--save (fit) and -o (predict) into a folder that is missing, a file, or
    the path itself a folder: refused before the header and the fit."""
    (tmp_path / "afile").write_text("x")
    (tmp_path / "adir").mkdir()
    path = str(tmp_path / where)
    model = tmp_path / "golf.json"
    assert cli.main(["fit", "-f", GOLF, "--save", str(model), "-q"]) == 0
    capsys.readouterr()
    for argv, option in ((["fit", "-f", GOLF, "--save", path], "--save"),
                         (["predict", "--model", str(model), "-f", GOLF, "-o", path],
                          "-o/--output")):
        line = _refused(capsys, argv)
        assert f"{option} {path}:" in line
        for w in words:
            assert w in line, line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["adir", "afile", "golf.json"]


def test_an_output_folder_that_takes_no_file_is_refused_before_the_fit(
        tmp_path, capsys, monkeypatch):
    """A folder where no file can be made (permissions, a read-only file system:
    the probe file's creation fails as the system says) is refused up front."""
    import tempfile

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    path = str(tmp_path / "m.json")
    line = _refused(capsys, ["fit", "-f", GOLF, "--save", path])
    assert (f"--save {path}: cannot write in the folder {tmp_path}: Permission denied"
            in line)


def test_an_output_file_check_leaves_no_probe_behind(tmp_path, capsys):
    model = tmp_path / "m.json"
    assert cli.main(["fit", "-f", GOLF, "--save", str(model), "-q"]) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]


def test_cv_folds_beyond_the_largest_class_name_folds_and_the_cases(capsys):
    """golf: 14 cases, 9 'Play' and 5 "Don't Play": 10 folds (the default) cannot
    be stratified; 9 can, with folds lacking the smallest class (a warning)."""
    line = _refused(capsys, ["cv", "-f", GOLF])
    assert "--folds 10" in line and "14 cases" in line and "(9, class 'Play')" in line
    assert "give --folds 9 or fewer" in line and "n_splits" not in line
    assert cli.main(["cv", "-f", GOLF, "--folds", "9"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("9-fold stratified cross-validation")
    assert captured.err == ("c45: warning: --folds 9 is more than the 5 cases of the "
                            "smallest class 'Don't Play' of golf.data: some folds have "
                            "none of them\n".replace("golf.data", GOLF + ".data"))


@pytest.mark.parametrize("source", [["-f", GOLF], ["--arff", "x.arff"]])
@pytest.mark.parametrize("command", ["fit", "cv", "rules"])
def test_sep_is_refused_without_csv_as_the_other_csv_options(capsys, source, command):
    line = _refused(capsys, [command, *source, "--sep", ";"])
    assert "--sep is for --csv files" in line


def test_sep_is_refused_without_csv_in_predict_before_the_model_is_read(capsys):
    line = _refused(capsys, ["predict", "--model", "none.json", "-f", GOLF, "--sep", ";"])
    assert "--sep is for --csv files" in line


@pytest.mark.parametrize("argv, option, parameter", [
    (["fit", "-f", GOLF, "--seed", "-1", "--pruning", "reduced_error"], "--seed",
     "random_state"),
    (["cv", "-f", GOLF, "--seed", "4294967296"], "--seed", "random_state"),
    (["fit", "-f", GOLF, "-j", "0"], "-j/--jobs", "n_jobs"),
    (["cv", "-f", GOLF, "--jobs", "0"], "-j/--jobs", "n_jobs"),
    (["rules", "-f", GOLF, "--seed", "-1"], "--seed", "random_state"),
    (["fit", "-f", GOLF, "-c", "1e-44", "--precision", "float32"], "-c", "confidence"),
])
def test_a_parameter_error_names_the_option(capsys, argv, option, parameter):
    line = _refused(capsys, argv)
    assert line.startswith(f"c45: error: {option} "), line
    assert parameter not in line and "precision=" not in line, line
    if option == "-c":           # a percentage on the command line, a fraction in Python
        assert "-c 1e-44 is 0 in float32" in line and "give -c 1e-40 or more" in line


def test_parameter_names_become_option_names():
    words = cli.in_option_words
    assert words("n_jobs must be None, -1 or a non-zero integer, got 0") == \
        "-j/--jobs must be None, -1 or a non-zero integer, got 0"
    assert words("use precision='float64' or min_samples_leaf=2") == \
        "use --precision float64 or -m 2"
    assert words("the random_states, my_confidence") == "the random_states, my_confidence"
