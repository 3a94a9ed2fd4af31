"""keep_training_data=True with trials: silently no effect (issue 26.2 class).

prune() refuses a windowed model ("its trees were chosen among its windowing
trials"), so the training data kept for it (about 1.75 times X) served nothing,
and nothing said so. Expected: an InactiveParameterWarning naming trials, and
no data kept. Prints the warnings and whether data were kept.
"""
import warnings
from c45 import C45Classifier

X, y = [[0.0], [1.0], [2.0], [3.0]], ["a", "a", "b", "b"]
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    clf = C45Classifier(trials=2, keep_training_data=True).fit(X, y)
print("warnings:", [str(x.message) for x in w])
print("data kept:", clf._train is not None)
