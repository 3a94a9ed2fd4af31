"""The weather example of a Chinese C4.5 tutorial, with c45: the 12-case weather data
(Chinese labels kept), the root gains and gain ratios the tutorial works out by hand,
the tutorial's tree (one case per leaf allowed, midpoint cuts, no MDL penalty) with its
cost-complexity pruning at alpha = 2.5, then its four new samples; and, for
comparison, the tree C4.5 Release 8 grows with its own defaults.

Run: python examples/weather_cost_complexity.py
"""
import pandas as pd

from c45 import C45Classifier, export_text, split_scores
from c45.datasets import load_weather

# The tutorial's program: min leaf 1, cuts at midpoints, gain without Release 8's MDL
# penalty, cost-complexity pruning N*H(node) + alpha <= sum N_t*H(t) + alpha*T.
TUTORIAL = dict(min_samples_leaf=1, threshold="midpoint", mdl_correction=False,
            pruning="cost_complexity", ccp_alpha=2.5)
NEW_SAMPLES = [["东", "潮湿", "弱", 20], ["南", "干燥", "强", 34],
               ["北", "干燥", "强", 26], ["南", "干燥", "弱", 20]]


def main(verbose=True):
    X, y = load_weather()
    scores = split_scores(X, y, mdl_correction=False)
    clf = C45Classifier(**TUTORIAL).fit(X, y)
    new = pd.DataFrame(NEW_SAMPLES, columns=X.columns).astype({"温度": float})
    for col in X.columns[:3]:
        new[col] = pd.Categorical(new[col], categories=X[col].cat.categories)
    grown, pruned = clf.grown_tree_, clf.tree_
    r8 = C45Classifier().fit(X, y)
    results = {
        "gains": dict(zip(scores["feature_names"], scores["raw_gain"].round(3))),
        "ratios": dict(zip(scores["feature_names"], scores["gain_ratio"].round(3))),
        # The tutorial counts the leaves holding cases; C4.5 also keeps an empty leaf
        # for each declared value absent at a node.
        "leaves_before": int(((grown.kind == 0) & (grown.weight > 0)).sum()),
        "leaves_after": int(pruned.n_leaves),
        "accuracy": clf.score(X, y),
        "predictions": clf.predict(new).tolist(),
        "grown": export_text(clf, tree="grown"), "pruned": export_text(clf),
        "r8": export_text(r8)}
    if verbose:
        print("Root of the 12 weather cases (gain before the MDL penalty, gain ratio):")
        for name in scores["feature_names"]:
            print(f"  {name}: gain {results['gains'][name]:.3f}, "
                  f"ratio {results['ratios'][name]:.3f}")
        print("\nThe tutorial's tree before pruning:\n" + results["grown"])
        print(f"Cost-complexity pruning, alpha = {TUTORIAL['ccp_alpha']}:\n" + results["pruned"])
        print(f"leaves before pruning: {results['leaves_before']}, after: "
              f"{results['leaves_after']}")
        print(f"training accuracy: {results['accuracy']:.4f}")
        for sample, label in zip(NEW_SAMPLES, results["predictions"]):
            print(f"new sample {sample}: {label}")
        print("\nC4.5 Release 8 defaults (-m 2 -c 25) on the same data:\n" + results["r8"])
    return results


if __name__ == "__main__":
    main()
