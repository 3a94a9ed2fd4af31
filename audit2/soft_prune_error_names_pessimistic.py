"""prune(pruning="cost_complexity") on a soft-threshold model without its data
says "pessimistic pruning needs the training cases" (issue 25/26 unclear errors).

Cost-complexity and no pruning need no training data, but soft_thresholds=True
recomputes the pruned tree's bounds on them. Expected: the error names the soft
thresholds' bounds; for a model loaded from a file, too.
"""
import c45
from c45.datasets import load_golf

X, y = load_golf()
clf = c45.C45Classifier(soft_thresholds=True).fit(X, y)
for call in (lambda: clf.prune(pruning="cost_complexity", ccp_alpha=0.5),
             lambda: c45.from_json(c45.to_json(clf)).prune(X, y, pruning=None)):
    try:
        call()
        print("pruned")
    except ValueError as e:
        print("ValueError:", e)
