"""A classroom lab with c45: iris, a stratified 1/3 hold-out, C4.5 with
pre-pruning and with post-pruning, 5-fold cross-validation of accuracy and of macro
precision, recall and F1, then the hold-out test.

Run: python examples/iris_pruning_cv.py
"""
import numpy as np
from sklearn.datasets import load_iris
from sklearn.metrics import accuracy_score, f1_score, precision_score, recall_score
from sklearn.model_selection import StratifiedKFold, cross_validate, train_test_split

from c45 import C45Classifier, export_text

MODELS = {
    # Pre-pruning: stop growing at depth 3 or below 10 cases; no post-pruning.
    "pre-pruned C4.5": C45Classifier(pruning=None, max_depth=3, min_samples_split=10),
    # Post-pruning: grow fully, then C4.5's pessimistic pruning (CF 25%).
    "post-pruned C4.5": C45Classifier(pruning="pessimistic"),
    # Post-pruning on a validation set (reduced-error, J48 -R), as the lab's own code.
    "reduced-error C4.5": C45Classifier(pruning="reduced_error", random_state=0),
}
SCORING = {"accuracy": "accuracy", "precision": "precision_macro",
           "recall": "recall_macro", "f1": "f1_macro"}


def main(verbose=True):
    iris = load_iris(as_frame=True)
    X, y = iris.data, iris.target_names[iris.target]
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=1 / 3, stratify=y, random_state=0)
    cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    results = {}
    for name, model in MODELS.items():
        scores = cross_validate(model, X_train, y_train, cv=cv, scoring=SCORING)
        fitted = model.fit(X_train, y_train)
        pred = fitted.predict(X_test)
        results[name] = {
            "cv": {k: float(np.mean(scores[f"test_{k}"])) for k in SCORING},
            "test": {"accuracy": accuracy_score(y_test, pred),
                     "precision": precision_score(y_test, pred, average="macro"),
                     "recall": recall_score(y_test, pred, average="macro"),
                     "f1": f1_score(y_test, pred, average="macro")},
            "nodes": fitted.tree_.node_count, "depth": fitted.get_depth(),
            "tree": export_text(fitted)}
    if verbose:
        print(f"iris: {len(X_train)} training cases, {len(X_test)} test cases "
              f"(stratified 1/3 hold-out)\n")
        for name, r in results.items():
            print(f"== {name}: {r['nodes']} nodes, depth {r['depth']}")
            print(r["tree"])
            print("  5-fold CV   " + "  ".join(f"{k} {v:.4f}" for k, v in r["cv"].items()))
            print("  hold-out    " + "  ".join(f"{k} {v:.4f}" for k, v in r["test"].items()))
            print()
    return results


if __name__ == "__main__":
    main()
