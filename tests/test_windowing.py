"""Windowing (C4.5 Release 8's -t, -w, -i): the pieces of a trial on toy data with
exact answers, the parameters and their refusals, float64, and the command.

Release 8's own output for every corpus problem under ``-t 3``, ``-t 3 -m 1`` and
``-t 1 -w W -i I`` is compared line for line in test_r8_corpus.py.
"""
import pickle
import warnings

import numpy as np
import pytest

from c45 import C45Classifier, _tree, export_text, from_json, to_json
from c45 import _windowing as W
from c45._glibc_random import GlibcRandom
from c45._params import InactiveParameterWarning
import r8_corpus as corpus


def test_release_8_window_sizes():
    # max(2 sqrt(N), N / 5) cases, a fifth of them (at least 1) per cycle.
    assert W.window_sizes(500) == (100, 20)
    assert W.window_sizes(120) == (24, 4)     # 2 sqrt(120) = 21.9 < 24
    assert W.window_sizes(15) == (7, 1)       # 2 sqrt(15) = 7.7
    assert W.window_sizes(500, 125, 25) == (125, 25)
    assert W.window_sizes(40, 100) == (40, 8)  # never more than all the cases


def test_class_targets_fill_the_rarest_classes_first():
    y = np.array([0] * 50 + [1] * 3 + [2] * 10)
    # Class 1 (3 cases) takes all of them, class 2 min(10, 17 // 2 = 8), class 0 the rest.
    assert W.class_targets(y, 3, 20).tolist() == [9, 3, 8]
    # A tie of frequencies goes to the first class.
    assert W.class_targets(np.array([0, 0, 1, 1, 2, 2, 2]), 3, 5).tolist() == [1, 2, 2]


def test_shuffle_draws_glibc_random_from_its_default_state():
    items = np.arange(4, dtype=np.int32)
    W.shuffle_cases(items, GlibcRandom(1))
    # By hand: 1804289383 / 2**31 = 0.840 of 4 positions -> 3, then 846930886 / 2**31
    # = 0.394 of 3 -> 1 (position 2), 1681692777 / 2**31 = 0.783 of 2 -> 1 (3), last 0.
    assert items.tolist() == [3, 2, 0, 1]


def python_shuffle(items, rng):
    """Release 8's shuffle as it reads: position p swaps with p + (n - p) x a draw."""
    n = len(items)
    for p in range(n):
        q = p + int((n - p) * rng.uniform())
        items[p], items[q] = items[q], items[p]


def python_pull_targets(items, y, target):
    front = 0
    for c, count in enumerate(target):
        i = front
        while count > 0:
            if y[items[i]] == c:
                items[front], items[i] = items[i], items[front]
                front += 1
                count -= 1
            i += 1


def test_the_compiled_shuffle_and_pull_are_the_python_ones():
    """The compiled trial order (shuffle_cases, pull_targets) against the rule as
    written in Python, drawing from GlibcRandom: same cases in the same order on
    sizes from 1 to past a LOOK_EVERY block, trial after trial, and the
    generator left where the Python draws leave it."""
    rng = np.random.default_rng(4)
    for n in [1, 2, 3, 7, 100, 1000, 70_000]:
        ours, theirs = GlibcRandom(1), GlibcRandom(1)
        y = rng.integers(0, 3, n)
        a = np.arange(n, dtype=np.int32)
        b = a.tolist()
        target = W.class_targets(y, 3, max(1, n // 4))
        for _ in range(3):
            W.shuffle_cases(a, ours)
            python_shuffle(b, theirs)
            assert a.tolist() == b, n
            W.pull_targets(a, y, target)
            python_pull_targets(b, y, target)
            assert a.tolist() == b, n
        assert [ours.random() for _ in range(40)] == [theirs.random() for _ in range(40)]


def test_pull_targets_keeps_each_class_in_shuffled_order():
    y = np.array([1, 0, 1, 0, 1, 0])
    items = np.array([5, 4, 3, 2, 1, 0], dtype=np.int32)
    W.pull_targets(items, y, np.array([1, 2]))
    assert items[:3].tolist() == [5, 4, 2]      # class 0's first, then class 1's two
    assert sorted(items.tolist()) == list(range(6))
    with pytest.raises(ValueError, match="fewer than 4 cases of class 1"):
        W.pull_targets(items, y, np.array([1, 4]))


@pytest.mark.parametrize("precision", ["float32", "float64"])
def test_a_window_tree_stores_the_cut_among_all_cases(precision):
    """§5.4: the stored threshold is the largest value of all the training cases
    not above the cut, the cases outside the window included."""
    X = np.array([[1.0], [2.0], [3.0], [4.0], [7.0], [10.0], [11.0], [12.0], [13.0]])
    y = np.array(["a"] * 4 + ["b"] * 5)
    clf = C45Classifier(precision=precision)
    schema, _, data = clf._prepare(X, y, None)
    values = np.asarray(data.cont) if data.f32 else W.values_of(schema, data)
    run = W.Windowing(schema, data, values, clf._options(1, data.total_weight), clf._cf(),
                      True)
    rows = np.array([0, 1, 2, 3, 5, 6, 7, 8], dtype=np.int32)    # 7.0 is outside
    grown, _, _ = _tree.build_tree(run.window_data(rows), run.options, -1.0, True, 1)
    assert grown.threshold[0] == 7.0          # the window alone would store 4
    assert grown.weight[0] == 8


@pytest.mark.parametrize("precision", ["float32", "float64"])
def test_trials_keep_the_best_pruned_tree(precision):
    (X, y), _ = corpus.data("r0000")
    clf = C45Classifier(precision=precision, trials=3).fit(X, y)
    assert len(clf.trials_) == 3
    estimates = [t.pruned.errors[0] for t in clf.trials_]
    assert clf.best_trial_ == int(np.argmin(estimates))
    best = clf.trials_[clf.best_trial_]
    assert clf.tree_ is best.pruned and clf.grown_tree_ is best.grown
    n = len(y)
    for trial in clf.trials_:
        kept = min(trial.cycles, key=lambda c: c.errors)
        assert trial.grown.node_count == kept.size
        assert trial.cycles[-1].other_errors == 0
        for c in trial.cycles:
            assert c.window + c.other == n
        # The pruned tree counts all the cases.
        assert trial.pruned.weight[0] == n
    # The same trees on every fit: Release 8 never seeds its generator.
    again = C45Classifier(precision=precision, trials=3, random_state=7).fit(X, y)
    assert [t.cycles for t in again.trials_] == [t.cycles for t in clf.trials_]
    assert export_text(again) == export_text(clf)
    assert export_text(again, tree="grown") == export_text(clf, tree="grown")


def test_float64_trials_do_not_depend_on_n_jobs():
    (X, y), _ = corpus.data("r0001")
    one = C45Classifier(trials=2, n_jobs=1).fit(X, y)
    two = C45Classifier(trials=2, n_jobs=2).fit(X, y)
    for tree in ("final", "grown"):
        assert export_text(one, tree=tree) == export_text(two, tree=tree)
    assert [t.cycles for t in one.trials_] == [t.cycles for t in two.trials_]


def test_float32_trials_equal_release_8s_figures():
    (X, y), (Xt, yt) = corpus.data("r0000")
    clf = C45Classifier(precision="float32", trials=3).fit(X, y)
    want = corpus.extra()["r0000"]["t3"]
    y, yt = np.asarray(y, dtype=object), np.asarray(yt, dtype=object)
    assert (clf.grown_tree_.node_count, clf.tree_.node_count) == (
        want["unpruned_size"], want["pruned_size"])
    assert int(np.sum(clf.predict(X, tree="grown") != y)) == want["unpruned_errors"]
    assert int(np.sum(clf.predict(X) != y)) == want["pruned_errors"]
    assert int(np.sum(clf.predict(Xt) != yt)) == want["test_pruned_errors"]


def test_one_trial_with_a_window_of_all_cases_is_one_cycle():
    (X, y), _ = corpus.data("r0000")
    clf = C45Classifier(precision="float32", trials=1, initial_window=10 ** 6).fit(X, y)
    (cycle,) = clf.trials_[0].cycles
    assert (cycle.window, cycle.other, cycle.other_errors) == (len(y), 0, 0)
    plain = C45Classifier(precision="float32").fit(X, y)
    assert clf.trials_[0].grown.node_count == plain.grown_tree_.node_count


def test_windowed_model_round_trips():
    (X, y), _ = corpus.data("r0002")
    clf = C45Classifier(precision="float32", trials=2).fit(X, y)
    back = pickle.loads(pickle.dumps(clf))
    assert back.best_trial_ == clf.best_trial_
    assert np.array_equal(back.predict(X), clf.predict(X))
    assert np.array_equal(from_json(to_json(clf)).predict(X), clf.predict(X))
    # A fit without windowing afterwards leaves no trials behind.
    clf.set_params(trials=None).fit(X, y)
    assert clf.trials_ is None and clf.best_trial_ is None


def _tampered_trials(state, clf):
    """Ways to damage a windowed model's pickled trials."""
    other = C45Classifier().fit([[0.0], [1.0], [2.0]], ["a", "b", "c"])    # 3 classes
    return {
        "trials_ is a str": dict(trials_="junk"),
        "best_trial_ beyond the trials": dict(best_trial_=len(clf.trials_)),
        "best_trial_ a bool": dict(best_trial_=True),
        "best_trial_ without trials_": dict(trials_=None),
        "trials_ empty": dict(trials_=[]),
        "a trial of another type": dict(trials_=[object()] * len(clf.trials_)),
        "a trial's tree of other classes": dict(trials_=[
            W.Trial(t.cycles, other.grown_tree_, t.pruned) for t in clf.trials_]),
    }


def test_tampered_trials_in_a_pickle_are_refused():
    # They loaded, and then the trials' table (and the command's) raised
    # AttributeError or IndexError, or walked trees of other classes.
    X, y = [[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]], ["a", "a", "b", "b", "a", "b"]
    clf = C45Classifier(trials=2).fit(X, y)
    for what, change in _tampered_trials(clf.__getstate__(), clf).items():
        state = clf.__getstate__()
        state.update(change)
        with pytest.raises(ValueError, match="trials_|best_trial_"):
            C45Classifier.__new__(C45Classifier).__setstate__(state)
    back = pickle.loads(pickle.dumps(clf))      # the untouched pickle loads
    assert back.best_trial_ == clf.best_trial_ and len(back.trials_) == 2


def _noisy(n=300):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 2))
    return X, ((X[:, 0] + 0.8 * rng.normal(size=n)) > 0) * 1 + (X[:, 1] > 1)


def _tampered_cycles_and_best():
    """Trials whose cycles, kept trees or best trial are not what fit makes."""
    import dataclasses
    other = C45Classifier(trials=3).fit(*_noisy())     # trials of different trees
    best = other.best_trial_
    worse = max(range(3), key=lambda t: other.trials_[t].pruned.errors[0])

    def cycles(change):
        return [W.Trial(change(t.cycles), t.grown, t.pruned) for t in other.trials_]

    def each(**fields):
        return cycles(lambda cs: [dataclasses.replace(c, **fields) for c in cs])
    swapped = list(other.trials_)
    swapped[best] = W.Trial(swapped[best].cycles, swapped[worse].grown, swapped[worse].pruned)
    return other, {
        "a window of 0 (the cycle table divided by it)": dict(trials_=each(window=0)),
        "a size in text": dict(trials_=each(size="7")),
        "a negative count": dict(trials_=each(other_errors=-1)),
        "more errors than cases": dict(trials_=each(window_errors=10 ** 6)),
        "no cycles": dict(trials_=cycles(lambda cs: [])),
        "the last cycle dropped": dict(trials_=cycles(lambda cs: cs[:-1] or [cs[0]] * 2)),
        "a cycle repeated": dict(trials_=cycles(lambda cs: cs + cs[-1:])),
        "another trial named best": dict(best_trial_=worse),
        "the best trial's trees another's": dict(trials_=swapped),
    }


def test_tampered_cycles_and_best_trial_in_a_pickle_are_refused():
    # Each loaded: the cycle table then divided by zero or failed to format a
    # size, and best_trial_ named a trial whose trees the model does not have.
    clf, changes = _tampered_cycles_and_best()
    assert len({t.pruned.errors[0] for t in clf.trials_}) > 1
    for what, change in changes.items():
        state = clf.__getstate__()
        state.update(change)
        with pytest.raises(ValueError, match=r"trials_\[\d+\]|best_trial_"):
            C45Classifier.__new__(C45Classifier).__setstate__(state)
    for kw in ({}, {"soft_thresholds": True}, {"precision": "float32"}):
        X, y = _noisy()
        fitted = C45Classifier(trials=3, **kw).fit(X, y)
        back = pickle.loads(pickle.dumps(fitted))   # untouched pickles load
        assert np.array_equal(back.predict_proba(X), fitted.predict_proba(X))


@pytest.mark.parametrize("name,value", [
    ("trials", 0), ("trials", -2), ("trials", 1.5), ("trials", True), ("trials", "3"),
    ("initial_window", 0), ("initial_window", 2.0), ("window_increment", 0),
    ("window_increment", False)])
def test_bad_windowing_parameters_are_refused(name, value):
    X, y = [[0.0], [1.0], [2.0], [3.0]], ["a", "a", "b", "b"]
    params = {"trials": 1, name: value}
    with pytest.raises(ValueError, match=f"{name} must be None or an integer of at least 1"):
        C45Classifier(**params).fit(X, y)


def test_trials_have_an_upper_bound(capsys):
    """A count of trials far beyond any use (each keeps its trees) is refused at
    once, by the estimator and by -t, rather than run until stopped."""
    from c45 import cli
    from c45._params import MAX_TRIALS
    X, y = [[0.0], [1.0], [2.0], [3.0]], ["a", "a", "b", "b"]
    for trials in (MAX_TRIALS + 1, 10 ** 20):
        with pytest.raises(ValueError, match=f"trials must be at most {MAX_TRIALS:,}"):
            C45Classifier(trials=trials).fit(X, y)
        with pytest.raises(SystemExit) as exc:
            cli.main(["fit", "-f", "golf", "-t", str(trials)])
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert f"argument -t: at most {MAX_TRIALS:,} trials" in err, err
    C45Classifier(trials=2).set_params(trials=MAX_TRIALS)._check_params()   # the bound


def test_windowing_refuses_what_release_8_has_no_meaning_for():
    X, y = [[0.0], [1.0], [2.0], [3.0]], ["a", "a", "b", "b"]
    with pytest.raises(ValueError, match="takes no sample_weight or class_weight"):
        C45Classifier(trials=2).fit(X, y, sample_weight=[1, 2, 1, 1])
    with pytest.raises(ValueError, match="takes no sample_weight or class_weight"):
        C45Classifier(trials=2, class_weight="balanced").fit(X, y)
    with pytest.raises(ValueError, match="needs pruning='pessimistic'"):
        C45Classifier(trials=2, pruning=None).fit(X, y)
    clf = C45Classifier(trials=2).fit(X, y)
    with pytest.raises(ValueError, match="windowing trials"):
        clf.prune(X, y, confidence=0.1)


def test_window_parameters_without_trials_warn():
    X, y = [[0.0], [1.0], [2.0], [3.0]], ["a", "a", "b", "b"]
    with pytest.warns(InactiveParameterWarning, match="initial_window=10 has no effect"):
        C45Classifier(initial_window=10).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        C45Classifier(trials=1, initial_window=3, window_increment=1).fit(X, y)


def test_keep_training_data_with_trials_warns_and_keeps_nothing():
    # prune() refuses a windowed model, so the kept data (1.75 times X) served
    # nothing, silently.
    X, y = [[0.0], [1.0], [2.0], [3.0]], ["a", "a", "b", "b"]
    with pytest.warns(InactiveParameterWarning, match="keep_training_data=True has no "
                      "effect: it acts only when trials is None"):
        clf = C45Classifier(trials=2, keep_training_data=True).fit(X, y)
    assert clf._train is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert C45Classifier(keep_training_data=True).fit(X, y)._train is not None


@pytest.mark.parametrize("pruning", ["cost_complexity", "reduced_error", None,
                                     "pessimistic"])
def test_a_windowed_model_refuses_prune_loaded_or_not(pruning):
    """A model file keeps the final trees and the parameters, not trials_: the
    loaded model refuses prune() as the fitted one does, whatever the pruning
    (it refused for other reasons, or with trials set back to None pruned the
    best trial's grown tree with cost-complexity)."""
    rng = np.random.default_rng(4)
    X = rng.random((300, 3))
    y = (X[:, 0] + 0.3 * rng.random(300) > 0.6).astype(int)
    clf = C45Classifier(trials=2).fit(X, y)
    back = from_json(to_json(clf))
    assert back.trials == 2 and back.trials_ is None
    extra = dict(X_val=X, y_val=y) if pruning == "reduced_error" else {}
    data = (X, y) if pruning == "pessimistic" else ()
    for model in (clf, back, pickle.loads(pickle.dumps(clf))):
        tree = model.tree_
        with pytest.raises(ValueError, match=r"windowing trials by their pessimistic "
                           r"pruning: prune\(\) cannot prune them again"):
            model.prune(*data, pruning=pruning, **extra)
        assert model.tree_ is tree and model.pruning == "pessimistic"
        # trials set back to None: still windowing's trees
        model.set_params(trials=None)
        with pytest.raises(ValueError, match="windowing trials"):
            model.prune(*data, pruning=pruning, **extra)
        assert model.tree_ is tree
    # Set on a model fitted without windowing, trials asks for trees prune() cannot
    # make: refused too (fit would window).
    plain = C45Classifier().fit(X, y).set_params(trials=2)
    with pytest.raises(ValueError, match="trials=2 asks for windowing, which only fit"):
        plain.prune(pruning="cost_complexity")


def test_cost_complexity_path_of_a_windowed_model_says_why_not():
    # It refitted with pruning=None and failed with "trials ... needs
    # pruning='pessimistic', got pruning=None", a pruning the user never set.
    X, y = [[0.0], [1.0], [2.0], [3.0]], ["a", "a", "b", "b"]
    clf = C45Classifier(trials=2).fit(X, y)
    with pytest.raises(ValueError, match="cost_complexity_pruning_path grows the tree "
                                         "without pruning.*set trials=None"):
        clf.cost_complexity_pruning_path(X, y)
    path = clf.set_params(trials=None).cost_complexity_pruning_path(X, y)
    assert path.ccp_alphas[0] == 0.0


def test_cli_refuses_a_bad_trial_count(capsys):
    from c45 import cli
    with pytest.raises(SystemExit) as exc:
        cli.main(["fit", "-f", corpus.stem("r0000"), "-t", "0"])
    assert exc.value.code == 2
    assert "-t: must be at least 1, got 0" in capsys.readouterr().err


def test_cli_prints_the_trials_and_the_best_one():
    text, clf = corpus.window_run("r0000", "t3")
    lines = text.splitlines()
    assert "\tWindowing enabled with 3 trials" in lines
    assert [line for line in lines if line.startswith("Trial ")] == [
        "Trial 0", "Trial 1", "Trial 2"]
    assert f"Best tree from trial {clf.best_trial_}" in lines
    # The trial table marks the best trial's row, in both evaluations.
    marked = [line for line in lines if line.endswith("<<")]
    assert len(marked) == 2 and all(line.startswith(f"   {clf.best_trial_}\t")
                                    for line in marked)


def test_cli_refuses_windowing_without_pessimistic_pruning_before_any_output(capsys):
    from c45 import cli
    status = cli.main(["fit", "-f", corpus.stem("r0000"), "-t", "2", "--pruning", "none",
                       "-q"])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert "needs --pruning pessimistic" in err       # in the command's words
