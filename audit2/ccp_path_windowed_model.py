"""cost_complexity_pruning_path on a windowed model (trials=2) fails with
"trials (windowing) ... needs pruning='pessimistic', got pruning=None", naming
a pruning the user never set (the path refits with pruning=None). Expected: an
error that says the path cannot be made under windowing and what to change.
"""
import c45
from c45.datasets import load_golf

X, y = load_golf()
clf = c45.C45Classifier(trials=2).fit(X, y)
try:
    clf.cost_complexity_pruning_path(X, y)
except ValueError as e:
    print("ValueError:", e)
