"""The ``c45`` command (also ``python -m c45 ...``): C4.5 on files, from the shell.

    c45 fit -f STEM [-u] [-m 2] [-c 25] [-s] [-g] [--precision float32]
    c45 fit --csv FILE --target COL [--test FILE] ...
    c45 fit --arff FILE [--target ATT] ...
    c45 predict --model model.json (-f STEM [-u] | --csv FILE | --arff FILE)
    c45 cv -f STEM --folds 10 [--seed 0]
    c45 rules -f STEM ...            (when c45.C45RulesClassifier exists)

``fit`` prints what C4.5 Release 8 prints: the grown tree ("Decision Tree"), the
pruned tree ("Simplified Decision Tree", when pruning changed it), the evaluation
table (Size, Errors, Estimate, before and after pruning) on the training data and,
with ``-u``/``--test``, on the test data, and the confusion matrix of the pruned
tree. Exit status: 0 done, 2 bad usage or bad input (the message names the file,
the line and the field), 130 interrupted. A progress indicator is drawn on stderr
for steps longer than two seconds when stderr is a terminal (``--quiet``: never).
"""
import argparse
import csv
import os
import re
import stat
import sys
import threading
import time
import warnings

import numpy as np

from c45._files import atomic_write

PROGRESS_DELAY = 2.0


class UsageError(Exception):
    """A user error found by the command itself (exit status 2)."""


# -- progress -----------------------------------------------------------------
class Progress:
    """A spinner with the elapsed time on ``stream``, drawn only when the stream
    is a terminal, after ``delay`` seconds. The work runs in a worker thread (the
    Cython core releases the GIL while it grows a tree), the main thread draws."""

    FRAMES = "|/-\\"

    def __init__(self, stream=None, enabled=True, delay=PROGRESS_DELAY, interval=0.2):
        self.stream = sys.stderr if stream is None else stream
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = bool(enabled and isatty is not None and isatty())
        self.delay = delay
        self.interval = interval
        self.note = ""
        self.shown = 0

    def update(self, note):
        """Extra text from the worker (e.g. rows read so far)."""
        self.note = note

    def run(self, message, fn, *args, **kwargs):
        if not self.enabled:
            return fn(*args, **kwargs)
        result = {}

        def work():
            try:
                result["value"] = fn(*args, **kwargs)
            except BaseException as exc:   # handed to the main thread
                result["error"] = exc

        self.note = ""
        worker = threading.Thread(target=work, name="c45-work", daemon=True)
        start = time.monotonic()
        worker.start()
        frame = 0
        try:
            while True:
                worker.join(self.interval)
                if not worker.is_alive():
                    break
                elapsed = time.monotonic() - start
                if elapsed >= self.delay:
                    note = f" ({self.note})" if self.note else ""
                    self._draw(f"{self.FRAMES[frame % 4]} c45: {message}{note} "
                               f"{elapsed:.0f}s")
                    frame += 1
        finally:
            self._clear()
        if "error" in result:
            raise result["error"]
        return result.get("value")

    def _draw(self, text):
        pad = max(0, self.shown - len(text))
        self.stream.write("\r" + text + " " * pad)
        self.stream.flush()
        self.shown = len(text)

    def _clear(self):
        if self.shown:
            self.stream.write("\r" + " " * self.shown + "\r")
            self.stream.flush()
            self.shown = 0


# -- reading ------------------------------------------------------------------
def _names_list(values):
    out = []
    for v in values or ():
        out.extend(s.strip() for s in v.split(",") if s.strip())
    return out


class Data:
    """The training (and test) data named on the command line."""

    def __init__(self, X, y, source, n_attributes, test=None, test_source=None):
        self.X, self.y, self.source, self.n_attributes = X, y, source, n_attributes
        self.test = test
        self.test_source = test_source


def _check_source_args(args):
    given = [o for o, v in (("-f", args.stem), ("--csv", args.csv), ("--arff", args.arff))
             if v is not None]
    if len(given) != 1:
        raise UsageError("give the data as exactly one of -f STEM, --csv FILE, "
                         "--arff FILE" + (f" (got {' and '.join(given)})" if given else ""))
    if args.stem is not None and args.target is not None:
        raise UsageError("--target is for --csv and --arff; C4.5 files declare the "
                         "classes in STEM.names")
    # Given: not None (not set) nor False (a flag not set); --sep '' is given too.
    types = "declare their attribute types"
    csv_only = [(o, why) for o, v, why in (
        ("--discrete", args.discrete, types), ("--continuous", args.continuous, types),
        ("--ignore", args.ignore, types), ("--sep", args.sep, "have their own syntax"),
        ("--numeric-target-as-classes", getattr(args, "numeric_target_as_classes",
                                                False), types))
        if v is not None and v is not False]
    if csv_only and args.csv is None:
        option, why = csv_only[0]
        raise UsageError(f"{option} is for --csv files (C4.5 and ARFF files {why})")
    if getattr(args, "unseen", False) and args.stem is None:
        raise UsageError("-u evaluates on STEM.test, so it needs -f STEM; for CSV and "
                         "ARFF files give --test FILE")


def csv_sep(args):
    """--sep, or the CSV default (None on the command line: --sep was not given)."""
    return "," if args.sep is None else args.sep


def read_data(args, progress, with_test=True):
    from c45.io import C45Files, read_arff, read_csv
    _check_source_args(args)
    test_file = getattr(args, "test", None) if with_test else None
    if args.stem is not None:
        files = C45Files(args.stem, args.encoding, args.max_columns)
        path = files.path("data")
        X, y = progress.run(f"reading {path}", files.read, "data", progress.update)
        data = Data(X, y, path, len(files.names.attributes))
        if with_test and (args.unseen or test_file):
            if test_file:
                tpath = test_file
                Xt, yt = progress.run(f"reading {tpath}", _read_c45_test, files, tpath,
                                      args.encoding)
            else:
                tpath = files.path("test")
                Xt, yt = progress.run(f"reading {tpath}", files.read, "test",
                                      progress.update)
            data.test, data.test_source = (Xt, yt), tpath
        return data
    if args.csv is not None:
        opts = dict(discrete=_names_list(args.discrete),
                    continuous=_names_list(args.continuous),
                    ignore=_names_list(args.ignore), sep=csv_sep(args),
                    encoding=args.encoding, progress=progress.update,
                    max_columns=args.max_columns)
        X, y = progress.run(f"reading {args.csv}", read_csv, args.csv, args.target, **opts)
        _check_csv_target(y, args)
        data = Data(X, y, args.csv, X.shape[1])
        if test_file:
            opts["discrete"] = [c for c in X.columns if X[c].dtype == "category"]
            opts["continuous"] = [c for c in X.columns if X[c].dtype != "category"]
            opts.pop("ignore")
            Xt, yt = progress.run(f"reading {test_file}", read_csv, test_file,
                                  y.name, features=list(X.columns), **opts)
            if yt is None:
                raise UsageError(f"{test_file} has no class column {y.name!r}")
            data.test, data.test_source = (Xt, yt), test_file
        return data
    X, y = progress.run(f"reading {args.arff}", read_arff, args.arff, args.target,
                        encoding=args.encoding, progress=progress.update,
                        max_columns=args.max_columns)
    data = Data(X, y, args.arff, X.shape[1])
    if test_file:
        Xt, yt = progress.run(f"reading {test_file}", read_arff, test_file, y.name,
                              features=list(X.columns), encoding=args.encoding,
                              max_columns=args.max_columns)
        if yt is None:
            raise UsageError(f"{test_file} has no class attribute {y.name!r}")
        data.test, data.test_source = (Xt, yt), test_file
    return data


def _check_csv_target(y, args):
    """A CSV class column of numbers is refused unless asked for: C4.5 classifies,
    and a measurement (wine's alcohol) read as classes gives one class per value.
    (ARFF declares its types, and refuses a numeric class attribute.)"""
    if getattr(args, "numeric_target_as_classes", False):
        return
    labels = [str(c) for c in y.cat.categories] if hasattr(y, "cat") else []
    try:
        numbers = [float(c) for c in labels]
    except ValueError:
        return
    if not numbers:
        return
    examples = ", ".join(labels[:4]) + (", ..." if len(labels) > 4 else "")
    raise UsageError(
        f"the class column {y.name!r} of {args.csv} holds numbers ({len(labels)} "
        f"distinct values: {examples}); C4.5 predicts classes, not numbers. If these "
        f"numbers are class labels (e.g. 0/1), add --numeric-target-as-classes; "
        f"otherwise choose another --target")


def _read_c45_test(files, path, encoding):
    from c45.io._common import open_binary
    from c45.io import _c45format
    pd = _c45format.need_pandas()
    fh, path, close = open_binary(path)
    try:
        return files._read(fh, path, pd, None)
    finally:
        if close:
            fh.close()


# -- the classifier -----------------------------------------------------------
def classifier_params(args):
    pruning = None if args.pruning == "none" else args.pruning
    return dict(min_samples_leaf=args.m, confidence=args.c / 100.0, pruning=pruning,
                subtree_raising=not args.no_subtree_raising, ccp_alpha=args.ccp_alpha,
                criterion="gain" if args.g else "gain_ratio", subset_splits=args.s,
                precision=args.precision, random_state=args.seed, n_jobs=args.jobs,
                trials=args.t, initial_window=args.w, window_increment=args.i,
                soft_thresholds=getattr(args, "p", False))


def rules_params(args):
    # -F is c4.5rules' percent; the parameter fisher is the level as a fraction.
    # The report prints no trace of condition dropping (c4.5rules' -v): none kept.
    return dict(min_samples_leaf=args.m, confidence=args.c / 100.0, redundancy=args.r,
                fisher=False if args.F is None else args.F / 100.0,
                annealing=args.a, pruning_trace=False,
                criterion="gain" if args.g else "gain_ratio", subset_splits=args.s,
                precision=args.precision, random_state=args.seed)


def check_options(args):
    """Refuse a bad option value before the command prints anything: the data
    options' combination, the output files' folders, and the parameters of the
    estimator the command would make (its checks, in the options' words)."""
    import c45
    from c45._params import check_n_jobs
    if hasattr(args, "stem"):          # the commands that read data
        _check_source_args(args)
    for dest, option in OUTPUT_FILES.items():
        if getattr(args, dest, None) is not None:
            check_output_file(option, getattr(args, dest))
    try:
        if args.command in ("fit", "cv"):
            est = make_classifier(args)
            est._check_params()
            check_n_jobs(est.n_jobs)
        elif args.command == "rules" and hasattr(c45, "C45RulesClassifier"):
            est = c45.C45RulesClassifier(**rules_params(args))
            # All its parameters (its fit checks the tree's ones as the tree grows).
            check = getattr(est, "_check_named", None)
            if check is not None:
                check(*est._parameters)
    except ValueError as exc:
        raise UsageError(in_option_words(str(exc))) from None


# The options that name a file the command writes (argparse dest: option).
OUTPUT_FILES = {"save": "--save", "output": "-o/--output"}


def check_output_file(option, path):
    """The file an option names can be written, checked before any work: it is
    not a folder, and its folder exists and takes a new file (a probe file is
    made and removed: the test that holds for root and read-only file systems
    too). A path that exists and is not a regular file (/dev/stdout, a pipe) is
    written in place, as atomic_write does."""
    import tempfile
    real = os.path.realpath(path)
    if os.path.isdir(real):
        raise UsageError(f"{option} {path}: is a folder; give a file name")
    if os.path.exists(real) and not os.path.isfile(real):
        if not os.access(real, os.W_OK):
            raise UsageError(f"{option} {path}: not writable")
        return
    folder = os.path.dirname(real) or "."
    if not os.path.exists(folder):
        raise UsageError(f"{option} {path}: the folder {os.path.dirname(path) or '.'} "
                         f"does not exist")
    if not os.path.isdir(folder):
        raise UsageError(f"{option} {path}: {os.path.dirname(path)} is not a folder")
    try:
        fd, probe = tempfile.mkstemp(prefix=".c45-probe.", dir=folder)
    except OSError as exc:
        raise UsageError(f"{option} {path}: cannot write in the folder "
                         f"{os.path.dirname(path) or '.'}: {exc.strerror or exc}") from None
    os.close(fd)
    os.unlink(probe)


def make_classifier(args, cls=None):
    from c45 import C45Classifier
    return (cls or C45Classifier)(**classifier_params(args))


# The option that sets each parameter, as the warnings and errors name it.
_OPTIONS = {"min_samples_leaf": "-m", "confidence": "-c", "ccp_alpha": "--ccp-alpha",
            "subtree_raising": "--no-subtree-raising", "random_state": "--seed",
            "redundancy": "-r", "fisher": "-F", "annealing": "-a", "criterion": "-g",
            "subset_splits": "-s",
            "precision": "--precision", "pruning": "--pruning", "n_jobs": "-j/--jobs",
            "trials": "-t", "initial_window": "-w", "window_increment": "-i",
            "soft_thresholds": "-p"}


# The options given in other units than their parameters (-c: a percentage).
_OPTION_SCALES = {"confidence": 100}


def in_option_words(message):
    """An estimator's message about its parameters, with each parameter named
    by its option (_OPTIONS): "random_state must be ..., got -1" is "--seed must
    be ..., got -1", "precision='float64'" is "--precision float64", and a value
    given right after a parameter in the option's units ("confidence 1e-46" is
    "-c 1e-44"). A value elsewhere in the message is left as the parameter's."""
    names = "|".join(sorted(map(re.escape, _OPTIONS), key=len, reverse=True))

    def option(m):
        name, value = m.group(1), m.group(2) or m.group(3)
        if value is None:
            return _OPTIONS[name]
        value = value.strip(chr(39) + chr(34))
        if name in _OPTION_SCALES:
            try:
                value = f"{float(value) * _OPTION_SCALES[name]:g}"
            except ValueError:
                pass
        return f"{_OPTIONS[name]} {value}"
    return re.sub(rf"(?<![\w-])({names})\b(?:=('[^']*'|\"[^\"]*\"|[^\s,;)]+)"
                  rf"| ([-+]?\d[\d.e+-]*))?", option, message)


def warn_idle_options(args, params_of, names, acting=()):
    """A warning line for each option given that has no effect under the others
    (c45._params.ONLY_ACTS_WHEN, in the options' words); given: set to another
    value than the command's default. acting: parameters the command itself uses
    (cv's --seed draws the folds)."""
    from c45 import _params
    params, defaults = params_of(args), params_of(args.subparser.parse_args([]))
    given = {n for n in params if params[n] != defaults[n]} - set(acting)
    for name, whens in _params.inactive(names, params, given, estimator=False):
        option = _OPTIONS.get(name, name)
        flags = [w.flag for w in whens if w.flag]
        if flags:
            _warn(f"{option} has no effect: it acts only with {' or '.join(flags)}")
        else:
            _warn(f"{option} has no effect: {name} acts only when "
                  f"{' or '.join(w.text for w in whens)}, which no option of "
                  f"'c45 {args.command}' sets")


def stem_name(args):
    """The file stem of -f, without a .names, .data or .test given with it."""
    stem = args.stem
    for ext in (".names", ".data", ".test"):
        if stem.endswith(ext):
            stem = stem[:-len(ext)]
    return stem


def option_lines(args, data_source, class_column=None, what="Trees", extra_lines=None):
    """C4.5's options block. Release 8 prints an option's line when it reads the
    option, so the lines come in the order of the command line (``-u -c 10``:
    the unseen cases first); extra_lines: the command's own options' lines, by
    the argparse dest that sets them."""
    lines = ["    Options:"]
    named = {}
    if args.stem is not None:
        named["stem"] = f"\tFile stem <{stem_name(args)}>"
    else:
        named["csv" if args.csv is not None else "arff"] = \
            f"\tFile <{data_source}>, class {class_column!r}"
    if args.s:
        named["s"] = "\tTests on discrete attribute groups"
    if args.m != 2:
        named["m"] = f"\tSensible test requires 2 branches with >={args.m:g} cases"
    if args.c != 25:
        named["c"] = f"\tPruning confidence level {args.c:g}%"
    if args.g:
        named["g"] = "\tGain criterion used"
    if getattr(args, "t", None) is not None:
        named["t"] = f"\tWindowing enabled with {args.t} trials"
    if getattr(args, "w", None) is not None:
        named["w"] = f"\tInitial window size of {args.w} items"
    if getattr(args, "i", None) is not None:
        named["i"] = f"\tMaximum window increment of {args.i} items"
    if getattr(args, "p", False):
        named["p"] = "\tProbability thresholds used"
    if getattr(args, "unseen", False):
        named["unseen"] = f"\t{what} evaluated on unseen cases"
    elif getattr(args, "test", None):
        named["test"] = f"\t{what} evaluated on unseen cases"
    named.update(extra_lines or {})
    order = getattr(args, "given_order", [])
    lines += [named.pop(d) for d in order if d in named]
    lines += named.values()          # set otherwise than on the command line
    extra = [f"precision {args.precision}"]
    if args.pruning != "pessimistic":
        extra.append(f"pruning {args.pruning}" + (
            f" (alpha {args.ccp_alpha:g})" if args.pruning == "cost_complexity" else ""))
    elif args.no_subtree_raising:
        extra.append("no subtree raising")
    lines.append("\t" + ", ".join(extra))
    return lines


def given_order(subparser, argv):
    """The argparse dests of the options on the command line, in their order."""
    actions = subparser._option_string_actions
    order = []
    for token in argv or ():
        action = actions.get(str(token).split("=", 1)[0])
        if action is not None and action.dest not in order:
            order.append(action.dest)
    return order


# -- output -------------------------------------------------------------------
def _letters(k):
    """C4.5's class labels (a), (b), ... (then aa, ab, ... past 26 classes)."""
    out = []
    for i in range(k):
        s, i2 = "", i
        while True:
            s = chr(ord("a") + i2 % 26) + s
            i2 = i2 // 26 - 1
            if i2 < 0:
                break
        out.append(s)
    return out


def confusion_matrix_text(classes, y_true, y_pred):
    """C4.5's confusion matrix: rows the true classes, columns the predicted
    ones, zero cells left blank. A class of y_true the model was not trained on
    (a test case's) gets a row after the model's classes; the tree never predicts
    it, so each of its cases is an error, as the evaluation tables count it."""
    classes = list(classes)
    index = {c: i for i, c in enumerate(classes)}
    for t in dict.fromkeys(np.asarray(y_true, dtype=object)):
        if t not in index:
            index[t] = len(classes)
            classes.append(t)
    k = len(classes)
    m = np.zeros((k, k), dtype=np.int64)
    for t, p in zip(np.asarray(y_true, dtype=object), np.asarray(y_pred, dtype=object)):
        m[index[t], index[p]] += 1
    labels = _letters(k)
    # C4.5's 5-character columns; wider when a count has 5 digits or more, so that
    # cells never run together.
    w = max(4, max(len(s) + 2 for s in labels), len(str(int(m.max(initial=0)))))
    out = ["", "", "\t" + "".join(f"({s})".rjust(w + 1) for s in labels)
           + "\t<-classified as",
           "\t" + "".join(" " + "-" * w for _ in labels)]
    for i in range(k):
        cells = "".join((f"{m[i, j]:{w + 1}d}" if m[i, j] else " " * (w + 1))
                        for j in range(k))
        out.append(f"\t{cells}\t({labels[i]}): class {classes[i]}")
    return "\n".join(out) + "\n"


def unseen_classes_text(classes, y_true):
    """The line saying how many cases (of test data) have a class absent from
    training, or "" when none has."""
    known = set(classes)
    y = np.asarray(y_true, dtype=object)
    unseen = [t for t in dict.fromkeys(y) if t not in known]
    if not unseen:
        return ""
    n = int(sum(np.count_nonzero(y == t) for t in unseen))
    names = ", ".join(str(t) for t in unseen[:5]) + (", ..." if len(unseen) > 5 else "")
    return (f"\n\t{n} test case{'s' if n != 1 else ''} had classes unseen in training "
            f"({names}), each counted as an error\n")


def _same_tree(a, b, classes=True):
    if a.node_count != b.node_count:
        return False
    fields = ("kind", "feature", "n_children", "first_child") + (
        ("node_class",) if classes else ())
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in fields) \
        and np.array_equal(a.threshold, b.threshold, equal_nan=True)


def _pruning_changed(clf, classes=True):
    """Whether C4.5 prints a "Simplified Decision Tree": pruning changed the tree.
    Under -s the subset cleanup after pruning does not count (R8 prints no
    simplified tree when only the cleanup dropped empty branches: corpus r0034).
    classes=False: a node whose class alone changed does not count either (a
    window's tree pruned on all the cases, whose counts change every node's
    class sums)."""
    from c45._pruning import subset_cleanup
    grown = clf.grown_tree_
    if clf.subset_splits and clf.pruning == "pessimistic":
        grown = subset_cleanup(grown, clf._schema.n_values)
    return not _same_tree(clf.tree_, grown, classes)


def _fit(clf, progress, X, y, what):
    from c45._params import InactiveParameterWarning

    def fit():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            clf.fit(X, y)
        return caught
    for w in progress.run(what, fit):
        # The options said so already, once and in their own words.
        if not issubclass(w.category, InactiveParameterWarning):
            _warn(str(w.message))
    return clf


_QUIET = [False]


def _warn(message):
    if not _QUIET[0]:
        sys.stderr.write(f"c45: warning: {message}\n")


def _serializer(name):
    import c45
    fn = getattr(c45, name, None)
    if fn is None:
        raise UsageError(f"this c45 cannot {'save' if name == 'to_json' else 'load'} "
                         f"models: c45.{name} is not available in version "
                         f"{c45.__version__}")
    return fn


def _write_trees(clf, out, classes=True):
    """The grown tree, and the pruned one when pruning changed it."""
    from c45 import export_text
    out.write("\nDecision Tree:\n\n" + export_text(clf, tree="grown"))
    if _pruning_changed(clf, classes):
        out.write("\n\nSimplified Decision Tree:\n\n" + export_text(clf, show_bounds=False))


def write_trials(clf, out, trees=True):
    """Windowing's trials as Release 8 prints them: per trial its cycles, the tree
    it kept and that tree pruned (when pruning changed it); then the best trial."""
    from c45._export_windowing import cycle_table, trial_view
    out.write("\n")
    for i, trial in enumerate(clf.trials_):
        out.write(f"--------\nTrial {i}\n--------\n\n" + cycle_table(trial))
        if trees:
            _write_trees(trial_view(clf, trial), out, classes=False)
        out.write("\n\n")
    out.write("--------\n\n")
    if len(clf.trials_) > 1:
        out.write(f"Best tree from trial {clf.best_trial_}\n")


def cmd_fit(args, out, progress):
    from c45._export import evaluation_table
    to_json = _serializer("to_json") if args.save else None
    from c45._params import CLASSIFIER
    warn_idle_options(args, classifier_params, CLASSIFIER)
    data = read_data(args, progress)
    X, y = data.X, data.y
    out.write("\nC4.5 [release 8] decision tree generator (c45)\n")
    out.write("----------------------------------------\n\n")
    out.write("\n".join(option_lines(args, data.source, y.name)) + "\n\n")
    out.write(f"Read {len(y)} cases ({data.n_attributes} attributes) from "
              f"{data.source}\n")
    clf = _fit(make_classifier(args), progress, X, y,
               f"growing and pruning a tree on {len(y)} cases")
    if clf.trials_ is not None:
        write_trials(clf, out, trees=not args.no_trees)
    elif not args.no_trees:
        _write_trees(clf, out)
    if not args.no_trees and clf.soft_thresholds:
        # Release 8 reports the bounds, then prints the final tree with them.
        from c45._export import export_text, softening_text
        out.write("\n" + softening_text(clf) + "\nDecision Tree:\n\n" + export_text(clf))
    out.write("\n\n")
    if args.save:
        text = to_json(clf)
        try:
            with atomic_write(args.save) as fh:
                fh.write(text)
        except OSError as exc:
            raise UsageError(f"cannot write {args.save}: {exc.strerror or exc}") from None
        out.write(f"Tree saved to {args.save}\n\n")
    # Release 8's own evaluation under -p classifies with the hard thresholds
    # (its tables equal those without -p on all 600 runs of the corpus); the
    # bounds act in predict.
    clf = _hard_thresholds(clf)
    if clf.trials_ is not None and len(clf.trials_) > 1:
        from c45._export_windowing import trials_evaluation_table as evaluation_table
    out.write("\n" + evaluation_table(clf, X, y, "training data"))
    shown_X, shown_y = X, y
    if data.test is not None:
        Xt, yt = data.test
        out.write("\n" + evaluation_table(clf, Xt, yt, "test data"))
        shown_X, shown_y = Xt, yt
    out.write(confusion_matrix_text(clf.declared_classes_, shown_y, clf.predict(shown_X)))
    out.write(unseen_classes_text(clf.declared_classes_, shown_y))
    out.write("\n")
    return 0


def _hard_thresholds(clf):
    """clf itself, or with soft thresholds a shallow copy whose final tree has no
    bounds (its tests as the hard thresholds classify)."""
    t = clf.tree_
    if getattr(t, "lower", None) is None:
        return clf
    import copy
    from c45._tree import Tree
    hard = copy.copy(clf)
    hard.__dict__["tree_"] = Tree(*(getattr(t, f) for f in t._fields), n_values=t.n_values)
    return hard


def cmd_cv(args, out, progress):
    from sklearn.base import clone
    from sklearn.model_selection import StratifiedKFold
    if args.folds < 2:
        raise UsageError(f"--folds must be at least 2, got {args.folds}")
    from c45._params import CLASSIFIER
    warn_idle_options(args, classifier_params, CLASSIFIER, acting=("random_state",))
    data = read_data(args, progress, with_test=False)
    X, y = data.X, data.y
    n = len(y)
    labels = np.asarray(y.cat.codes if hasattr(y, "cat") else y)
    check_folds(args.folds, data.source, y)
    splitter = StratifiedKFold(n_splits=args.folds, shuffle=True, random_state=args.seed)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        folds = list(splitter.split(np.zeros((n, 1)), labels))
    for w in caught:
        if not str(w.message).startswith("The least populated class"):  # check_folds's
            _warn(str(w.message))
    base = make_classifier(args)
    out.write(f"{args.folds}-fold stratified cross-validation of {data.source} "
              f"({n} cases, seed {args.seed})\n")
    out.write("\n".join(option_lines(args, data.source, y.name)[1:]) + "\n\n")
    out.write(f"{'':4}  {'Before pruning':^26}  {'After pruning':^36}".rstrip() + "\n"
              f"{'Fold':>4}  {'Size':>8}{'Errors':>9}{'(%)':>9}  {'Size':>8}{'Errors':>9}"
              f"{'(%)':>9}{'Estimate':>10}\n")
    rows = []
    for k, (train, test) in enumerate(folds, 1):
        clf = _fit(clone(base), progress, X.iloc[train], y.iloc[train],
                   f"fold {k}/{args.folds}")
        Xt, yt = X.iloc[test], np.asarray(y.iloc[test], dtype=object)
        e0 = int(np.sum(clf.predict(Xt, tree="grown").astype(object) != yt))
        e1 = int(np.sum(clf.predict(Xt).astype(object) != yt))
        t = clf.tree_
        est = 100.0 * t.errors[0] / t.weight[0] if t.weight[0] > 0 else 0.0
        row = (clf.grown_tree_.node_count, e0, 100.0 * e0 / len(test), t.node_count, e1,
               100.0 * e1 / len(test), est)
        rows.append(row)
        out.write(f"{k:4d}  {row[0]:8d}{row[1]:9d}{row[2]:8.1f}%  {row[3]:8d}{row[4]:9d}"
                  f"{row[5]:8.1f}%{row[6]:9.1f}%\n")
    a = np.asarray(rows, dtype=float)
    mean = a.mean(axis=0)
    se = a.std(axis=0, ddof=1) / np.sqrt(len(a))
    out.write("\n")
    for label, v in (("Mean", mean), ("SE", se)):
        out.write(f"{label:>4}  {v[0]:8.1f}{v[1]:9.1f}{v[2]:8.1f}%  {v[3]:8.1f}{v[4]:9.1f}"
                  f"{v[5]:8.1f}%{v[6]:9.1f}%\n")
    out.write(f"\nMean error after pruning {mean[5]:.1f}% (SE {se[5]:.1f}%), mean tree "
              f"size {mean[3]:.1f} nodes ({mean[0]:.1f} before pruning).\n")
    return 0


def check_folds(folds, source, y):
    """--folds against the data, in the option's words: stratified folds are no
    more than the cases of the largest class (so no more than the cases), and
    with fewer cases in the smallest class than folds some folds lack it."""
    from collections import Counter
    counts = Counter(str(c) for c in np.asarray(y, dtype=object)).most_common()
    (big, n_big), (small, n_small) = counts[0], counts[-1]
    if folds > n_big:
        many = ("is more than the" if folds > len(y) else "is too many for the")
        raise UsageError(f"--folds {folds} {many} {len(y)} cases of "
                         f"{source}: stratified folds are no more than the cases of the "
                         f"largest class ({n_big}, class '{big}'); give --folds {n_big} "
                         f"or fewer")
    if folds > n_small:
        _warn(f"--folds {folds} is more than the {n_small} cases of the smallest "
              f"class '{small}' of {source}: some folds have none of them")


def cmd_predict(args, out, progress):
    from c45.io import C45Files, read_arff, read_csv
    from_json = _serializer("from_json")
    text = read_model_file(args.model)      # bytes: from_json names a non-UTF-8 file
    try:
        clf = from_json(text)
    except Exception as exc:      # a file that is not a c45 model
        raise UsageError(f"{args.model} is not a c45 model: {exc}") from None
    names = getattr(clf, "feature_names_in_", None)
    if names is None:
        raise UsageError(f"the model in {args.model} has no feature names (it was "
                         f"fitted on an array); predict needs named columns")
    names = [str(n) for n in names]
    _check_source_args(args)
    if args.stem is not None:
        files = C45Files(args.stem, args.encoding, args.max_columns)
        part = "test" if args.unseen else "data"
        X, y = progress.run(f"reading {files.path(part)}", files.read, part,
                            progress.update)
        declared = list(X.columns)
        if declared != names:
            raise UsageError(f"{files.names.path} declares the attributes {declared}, "
                             f"the model was fitted on {names}")
    elif args.csv is not None:
        cats = clf.categories_
        X, y = progress.run(
            f"reading {args.csv}", read_csv, args.csv, args.target, features=names,
            discrete=[n for n, c in zip(names, cats) if c is not None],
            continuous=[n for n, c in zip(names, cats) if c is None], sep=csv_sep(args),
            encoding=args.encoding, progress=progress.update, max_columns=args.max_columns)
    else:
        X, y = progress.run(f"reading {args.arff}", read_arff, args.arff, args.target,
                            features=names, encoding=args.encoding,
                            progress=progress.update, max_columns=args.max_columns)
    tree = "grown" if args.unpruned else "final"
    # C4.5's classes in its order (declared_classes_, a class the training data
    # held no case of too): its columns, and ties to its first.
    proba = progress.run(f"classifying {len(X)} cases", clf._proba_declared, X, tree=tree)
    classes = clf.declared_classes_
    pred = classes.take(np.argmax(proba, axis=1))
    if args.output:
        try:
            with atomic_write(args.output, newline="") as sink:
                _write_predictions(sink, classes, pred, proba, y, args.proba)
        except OSError as exc:
            raise UsageError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    else:
        _write_predictions(out, classes, pred, proba, y, args.proba)
    if y is not None and not args.quiet:
        errors = int(np.sum(pred.astype(object) != np.asarray(y, dtype=object)))
        sys.stderr.write(f"c45: {errors} of {len(pred)} cases misclassified "
                         f"({100.0 * errors / len(pred):.1f}%)\n")
    return 0


def _write_predictions(sink, classes, pred, proba, y, with_proba):
    """The predictions as CSV, the probabilities' columns in `classes`' order."""
    w = csv.writer(sink, lineterminator="\n")
    header = ["predicted"]
    if with_proba:
        header += [f"P({c})" for c in classes]
    if y is not None:
        header.append("actual")
    w.writerow(header)
    ys = np.asarray(y, dtype=object) if y is not None else None
    for i in range(len(pred)):
        row = [pred[i]]
        if with_proba:
            row += [f"{p:.6g}" for p in proba[i]]
        if ys is not None:
            row.append(ys[i])
        w.writerow(row)


MODEL_STREAM_LIMIT = 1 << 30     # bytes read from a model that is not a regular file


def read_model_file(path):
    """The bytes of a model file, refused as soon as they cannot be one: a model
    is UTF-8 JSON text, which holds no NUL byte (a device such as /dev/zero, a
    binary file), and a stream that is not a regular file (a pipe) is read up to
    MODEL_STREAM_LIMIT bytes, so that one without end fails. The bytes gather in
    one growing buffer (a list of blocks joined at the end would need twice the
    file), and running out of memory says how much was read."""
    total, regular = 0, True
    try:
        with open(path, "rb") as fh:
            regular = stat.S_ISREG(os.fstat(fh.fileno()).st_mode)
            data = bytearray()
            while True:
                block = fh.read(1 << 20)
                if not block:
                    break
                if b"\x00" in block:
                    raise UsageError(f"{path} is not a c45 model: it holds NUL bytes "
                                     f"(byte {total + block.index(0) + 1}), and a model "
                                     f"is JSON text")
                data += block
                total += len(block)
                if not regular and total > MODEL_STREAM_LIMIT:
                    raise UsageError(f"{path} is not a c45 model: more than "
                                     f"{MODEL_STREAM_LIMIT >> 20} MiB read from a stream "
                                     f"that is not a regular file")
    except OSError as exc:
        raise UsageError(f"cannot read the model {path}: {exc.strerror or exc}") from None
    except MemoryError:
        raise UsageError(f"out of memory reading the model {path} after "
                         f"{total >> 20} MiB" + ("" if regular else
                         " (a stream that is not a regular file: does it end?)")) from None
    return data


def cmd_rules(args, out, progress):
    import c45
    cls = getattr(c45, "C45RulesClassifier", None)
    export = getattr(c45, "export_rules", None)
    if cls is None or export is None:
        raise UsageError(f"rules are not available in c45 {c45.__version__} "
                         f"(c45.C45RulesClassifier is missing)")
    from c45._params import RULES
    warn_idle_options(args, rules_params, RULES)
    data = read_data(args, progress)
    X, y = data.X, data.y
    out.write("\nC4.5 [release 8] rule generator (c45)\n")
    out.write("-------------------------------\n\n")
    own = {}
    if args.r != 1.0:
        own["r"] = f"\tRedundancy factor {args.r:g}"
    if args.F is not None:
        own["F"] = f"\tSignificance test in rule pruning, threshold {args.F:g}%"
    if args.a:
        own["a"] = "\tSimulated annealing for selecting rules"
    lines = option_lines(args, data.source, y.name, what="Rulesets", extra_lines=own)
    out.write("\n".join(lines) + "\n\n")
    # c4.5rules names the file stem here (c4.5 names STEM.data).
    source = stem_name(args) if args.stem is not None else data.source
    out.write(f"Read {len(y)} cases ({data.n_attributes} attributes) from "
              f"{source}\n\n")
    clf = cls(**rules_params(args))
    clf = _fit(clf, progress, X, y, f"growing a tree and its rules on {len(y)} cases")
    from c45.rules import evaluation_text
    # c4.5rules' report: the ruleset, its evaluation (and drops) on the training
    # data with the confusion matrix, then the same on the test data.
    out.write("------------------\nProcessing tree 0\n\n")
    out.write(export(clf, evaluation=True))
    out.write(confusion_matrix_text(clf.declared_classes_, y, clf.predict(X)))
    if data.test is not None:
        Xt, yt = data.test
        out.write("\n\n" + evaluation_text(clf, Xt, yt, "test data"))
        out.write(confusion_matrix_text(clf.declared_classes_, yt, clf.predict(Xt)))
        out.write(unseen_classes_text(clf.declared_classes_, yt))
    out.write("\n")
    return 0


# -- argument parsing ---------------------------------------------------------
def _positive(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not v > 0 or not np.isfinite(v):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text}")
    return v


def _percent(text):
    v = _positive(text)
    if v > 100:
        raise argparse.ArgumentTypeError(f"is a percentage in (0, 100], got {text}")
    return v


def _level_percent(text):
    """c4.5rules' -F: a significance level in percent, strictly between 0 and 100."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 < v < 100:
        raise argparse.ArgumentTypeError(
            f"is a significance level in percent, above 0 and below 100 (e.g. 5 for "
            f"5%), got {text}")
    return v


def _count(text):
    """A whole number of at least 1."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text}")
    return v


def _trials(text):
    """-t: a whole number from 1 to the estimator's bound on trials."""
    from c45._params import MAX_TRIALS
    v = _count(text)
    if v > MAX_TRIALS:
        raise argparse.ArgumentTypeError(f"at most {MAX_TRIALS:,} trials (each grows and "
                                         f"keeps its own trees), got {text}")
    return v


def _non_negative(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not v >= 0 or not np.isfinite(v):
        raise argparse.ArgumentTypeError(f"must be a non-negative number, got {text}")
    return v


def _add_data_args(p, test=True, predict=False):
    from c45.io._common import MAX_COLUMNS
    g = p.add_argument_group("data")
    g.add_argument("-f", dest="stem", metavar="STEM",
                   help="C4.5 files STEM.names and STEM.data"
                        + (" (and STEM.test with -u)" if test or predict else ""))
    g.add_argument("--csv", metavar="FILE", help="a CSV file with a header row")
    g.add_argument("--arff", metavar="FILE", help="a Weka ARFF file")
    if predict:
        g.add_argument("--target", metavar="COL",
                       help="the class column of --csv / --arff, when the file has "
                            "it (adds an 'actual' column and an error count)")
        p.set_defaults(discrete=None, continuous=None, ignore=None)
    else:
        g.add_argument("--target", metavar="COL",
                       help="the class column of --csv / attribute of --arff (default: "
                            "the last one)")
        g.add_argument("--discrete", action="append", metavar="COLS",
                       help="--csv columns to read as discrete (comma-separated; "
                            "numbers otherwise make a continuous column)")
        g.add_argument("--continuous", action="append", metavar="COLS",
                       help="--csv columns that must be continuous (a non-number is an "
                            "error)")
        g.add_argument("--ignore", action="append", metavar="COLS",
                       help="--csv columns to leave out")
        g.add_argument("--numeric-target-as-classes", action="store_true",
                       help="accept a --csv class column of numbers, each value a "
                            "class (refused otherwise)")
    g.add_argument("--sep", help="--csv field separator (default ',')")
    g.add_argument("--encoding", default="utf-8", help="text encoding (default utf-8)")
    g.add_argument("--max-columns", type=int, default=MAX_COLUMNS, metavar="N",
                   help=f"refuse a file of more columns (default {MAX_COLUMNS:,}: each "
                        f"costs the data frame about 1 KiB)")
    if test:
        g.add_argument("-u", dest="unseen", action="store_true",
                       help="also evaluate on STEM.test (C4.5's -u)")
        g.add_argument("--test", metavar="FILE",
                       help="also evaluate on this file (same format as the data)")


def _add_tree_args(p, rules=False):
    g = p.add_argument_group("tree (C4.5 Release 8 options)")
    g.add_argument("-m", type=_positive, default=2.0, metavar="N",
                   help="min cases in at least two branches of a test (default 2; "
                        "below 1: a fraction of the cases)")
    g.add_argument("-c", type=_percent, default=25.0, metavar="CF",
                   help="confidence level, percent (default 25): of the pruning, or "
                        "with rules of the condition dropping")
    g.add_argument("-s", action="store_true",
                   help="tests on groups of discrete values (subset splits)")
    g.add_argument("-g", action="store_true", help="gain criterion (ID3) instead of "
                   "gain ratio")
    g.add_argument("--precision", choices=("float64", "float32"), default="float64",
                   help="float32: Release 8's single precision, bit for bit; float64 "
                        "(default): the same algorithm in double precision")
    if rules:
        g.add_argument("-r", type=_positive, default=1.0, metavar="R",
                       help="c4.5rules' redundancy factor (default 1)")
        g.add_argument("-F", type=_level_percent, default=None, metavar="PERCENT",
                       help="c4.5rules' significance test in rule pruning: conditions "
                            "also go while one of them is not significant at this "
                            "level by c4.5rules' one-tailed Fisher test, percent "
                            "(e.g. 10)")
        g.add_argument("-a", action="store_true",
                       help="c4.5rules' simulated annealing to select each class's "
                            "rules, instead of the greedy search (classes of more "
                            "than 10 rules)")
        g.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
        p.set_defaults(pruning="pessimistic", ccp_alpha=0.0, no_subtree_raising=False)
        return
    g.add_argument("-p", action="store_true",
                   help="soft thresholds: bounds around each continuous test's "
                        "threshold, printed, saved and used by predict")
    g.add_argument("--pruning", default="pessimistic",
                   choices=("pessimistic", "cost_complexity", "reduced_error", "none"),
                   help="pruning kind (default: C4.5's pessimistic pruning)")
    g.add_argument("--ccp-alpha", type=_non_negative, default=0.0, metavar="ALPHA",
                   help="penalty per leaf of --pruning cost_complexity")
    g.add_argument("--no-subtree-raising", action="store_true",
                   help="pessimistic pruning without subtree raising (J48 -S)")
    g.add_argument("--seed", type=int, default=0,
                   help="random seed (cv folds, reduced_error hold-out; default 0)")
    g.add_argument("-j", "--jobs", type=int, default=None, metavar="N",
                   help="threads for fitting and classifying (float64; -1: all cores; "
                        "the tree does not depend on it)")
    g = p.add_argument_group("windowing (C4.5 Release 8's -t, -w, -i)")
    g.add_argument("-t", type=_trials, default=None, metavar="TRIALS",
                   help="grow trees on a growing window of the cases, TRIALS times, and "
                        "keep the best (default: no windowing)")
    g.add_argument("-w", type=_count, default=None, metavar="CASES",
                   help="initial window size (default: the larger of twice the square "
                        "root of the cases and a fifth of them)")
    g.add_argument("-i", type=_count, default=None, metavar="CASES",
                   help="the most cases added to the window per cycle (default: a fifth "
                        "of the initial window)")


def build_parser():
    parser = argparse.ArgumentParser(
        prog="c45", description="Quinlan's C4.5 Release 8 decision tree on C4.5, CSV "
        "and ARFF files.", epilog="python -m c45 without arguments runs the demo on "
        "the bundled golf and weather data.")
    from c45 import __version__
    parser.add_argument("--version", action="version", version=f"c45 {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def common(p):
        p.add_argument("--quiet", "-q", action="store_true",
                       help="no progress indicator and no messages on stderr")

    p = sub.add_parser("fit", help="grow and prune a tree; print it and its evaluation",
                       description="Grow and prune a tree as C4.5 does; print the trees, "
                       "the evaluation tables and the confusion matrix.")
    _add_data_args(p)
    _add_tree_args(p)
    p.add_argument("--save", metavar="FILE", help="save the model as JSON (c45.to_json)")
    p.add_argument("--no-trees", action="store_true",
                   help="leave the trees out (print the evaluation tables and the "
                        "confusion matrix only); for large trees")
    common(p)
    p.set_defaults(run=cmd_fit, subparser=p)

    p = sub.add_parser("predict", help="classify cases with a saved model, as CSV",
                       description="Classify the cases of a file with a model saved by "
                       "'c45 fit --save'; write CSV: predicted class (, probabilities) "
                       "(, actual class when the file has it).")
    p.add_argument("--model", required=True, metavar="FILE", help="model JSON file")
    _add_data_args(p, test=False, predict=True)
    p.add_argument("-u", dest="unseen", action="store_true",
                   help="with -f: classify STEM.test instead of STEM.data")
    p.add_argument("--proba", action="store_true", help="also write class probabilities")
    p.add_argument("--unpruned", action="store_true", help="use the tree before pruning")
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    common(p)
    p.set_defaults(run=cmd_predict, subparser=p)

    p = sub.add_parser("cv", help="stratified k-fold cross-validation",
                       description="Stratified, seeded k-fold cross-validation: per fold "
                       "the tree sizes and the errors on the held-out cases, then the "
                       "means and standard errors.")
    _add_data_args(p, test=False)
    _add_tree_args(p)
    p.add_argument("--folds", type=int, default=10, help="number of folds (default 10)")
    common(p)
    p.set_defaults(run=cmd_cv, subparser=p)

    p = sub.add_parser("rules", help="c4.5rules: a rule set from the unpruned tree",
                       description="Grow a tree, turn it into production rules as "
                       "c4.5rules does, print them with their evaluation.")
    _add_data_args(p)
    _add_tree_args(p, rules=True)
    common(p)
    p.set_defaults(run=cmd_rules, subparser=p)

    p = sub.add_parser("demo", help="C4.5 on the bundled golf and weather data "
                                    "(the same as `python -m c45`)")
    common(p)
    p.set_defaults(run=cmd_demo, subparser=p)
    return parser


def cmd_demo(args, out, progress):
    from c45.__main__ import main as demo
    return demo()


def main(argv=None):
    """Run the ``c45`` command; returns the exit status."""
    from c45.io import DataFileError
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    if extra:      # a misspelt option: the subcommand's usage, not the top level's
        (getattr(args, "subparser", None) or parser).error(
            f"unrecognized arguments: {' '.join(extra)}")
    _QUIET[0] = args.quiet
    if getattr(args, "subparser", None) is not None:
        args.given_order = given_order(args.subparser, argv if argv is not None
                                       else sys.argv[1:])
    progress = Progress(enabled=not args.quiet)
    out = sys.stdout
    try:
        check_options(args)        # every option refused before any output
        status = args.run(args, out, progress)
        out.flush()
        return status
    except (DataFileError, UsageError) as exc:
        _error(exc)
        return 2
    except ImportError as exc:
        _error(exc)
        return 2
    except BrokenPipeError:   # pragma: no cover - e.g. `c45 fit ... | head`
        # Python's recipe: point stdout at devnull so the exit flush is silent.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except (ValueError, OSError) as exc:
        # Refused by the classifier (e.g. a parameter) or by the system.
        _error(exc)
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("c45: interrupted\n")
        return 130
    except MemoryError as exc:
        _error(f"out of memory{': ' + str(exc) if str(exc) else ''}")
        return 1
    except Exception as exc:      # a bug: still one line, not a traceback
        _error(f"internal error, please report it: {type(exc).__name__}: {exc}")
        return 1


def _error(message):
    """A command's error on stderr: one line, whatever the message holds."""
    text = " ".join(str(message).splitlines()) or "failed"
    sys.stderr.write(f"c45: error: {text}\n")


if __name__ == "__main__":   # pragma: no cover
    sys.exit(main())
