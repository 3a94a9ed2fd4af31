"""A Titanic classroom lab with c45: the lab's synthetic 891-passenger data
(numpy seed 42: 20% of ages, ~23% of cabins and ~2% of ports unknown), and C4.5
on it without the lab's preprocessing -- no binning of Age and Fare, no -1 for
unknown values: C4.5 cuts continuous features itself and sends a case with an
unknown value down every branch with a fractional weight. Then what the lab
computes: feature importances, the confusion matrix, precision, recall and F1,
the ROC curve and AUC, 5-fold cross-validation, a learning curve, and saving and
loading the model (c45's JSON format instead of pickle).

Run: python examples/titanic_missing_values.py [--plot roc_learning.png]
"""
import sys

import numpy as np
import pandas as pd
from sklearn.metrics import (confusion_matrix, precision_recall_fscore_support,
                             roc_auc_score, roc_curve)
from sklearn.model_selection import (StratifiedKFold, cross_val_score, learning_curve,
                                     train_test_split)

import c45
from c45 import C45Classifier

DISCRETE = ["Pclass", "Sex", "SibSp", "Parch", "Deck", "Embarked"]


def make_titanic(n=891, seed=42):
    """The lab's generator, draw for draw (numpy's legacy global RandomState)."""
    np.random.seed(seed)
    survived = np.random.binomial(1, 0.38, n)
    pclass = np.random.choice([1, 2, 3], size=n, p=[0.24, 0.21, 0.55])
    sex = np.random.choice(["male", "female"], size=n, p=[0.65, 0.35])
    age = np.clip(np.random.normal(30, 14, n), 0.5, 80)
    age[np.random.choice(range(n), size=int(n * 0.2), replace=False)] = np.nan
    sibsp = np.random.choice(range(6), size=n, p=[0.68, 0.24, 0.06, 0.01, 0.005, 0.005])
    parch = np.random.choice(range(6), size=n, p=[0.76, 0.12, 0.08, 0.02, 0.01, 0.01])
    fare = np.zeros(n)
    for cls, (lo, hi) in zip((1, 2, 3), ((30, 512), (10, 73), (0, 69))):
        fare[pclass == cls] = np.random.uniform(lo, hi, sum(pclass == cls))
    decks = ["A", "B", "C", "D", "E", "F", "G"]
    cabins = []
    for p in pclass:
        if np.random.random() > 0.77:
            cabins.append(None)
        else:
            deck = np.random.choice(decks[:3] if p == 1 else decks[2:5] if p == 2
                                    else decks[4:])
            cabins.append(f"{deck}{np.random.randint(1, 140)}")
    embarked = np.random.choice(["S", "C", "Q", np.nan], size=n, p=[0.72, 0.08, 0.18, 0.02])
    # The lab's names and tickets: drawn (so that the later draws match), then dropped.
    # (The lab's comment says 77% of cabins are unknown; its draw leaves 23% unknown.)
    for i in range(n):
        np.random.choice(range(20))
        if sex[i] == "male":
            np.random.choice(range(10))
            np.random.choice(range(6), p=[0.9, 0.02, 0.02, 0.02, 0.02, 0.02])
        else:
            np.random.choice(range(10))
            np.random.choice(range(5), p=[0.5, 0.4, 0.05, 0.03, 0.02])
    for i in range(n):
        fmt = np.random.choice([1, 2, 3], p=[0.3, 0.5, 0.2])
        if fmt == 1:
            np.random.randint(10000, 400000)
        elif fmt == 2:
            np.random.choice(range(9))
            np.random.randint(1000, 100000)
        else:
            np.random.randint(10000, 400000)
    data = pd.DataFrame({"Survived": survived, "Pclass": pclass, "Sex": sex, "Age": age,
                         "SibSp": sibsp, "Parch": parch, "Fare": fare,
                         "Deck": [c[0] if c else None for c in cabins],
                         "Embarked": [None if e == "nan" else e for e in embarked]})
    # The lab's survival rules, applied in its order.
    s = data["Survived"].to_numpy().copy()
    rules = [((data.Sex == "female") | (data.Age < 14), 0.7), (data.Pclass == 1, 0.6),
             (data.Age > 60, 0.25), (data.Sex == "male", 0.2)]
    for mask, rate in rules:
        mask = mask.to_numpy()
        s[mask] = np.random.binomial(1, rate, mask.sum())
    data["Survived"] = s
    for col in DISCRETE:
        data[col] = data[col].astype("category")
    return data.drop(columns="Survived"), data["Survived"]


def main(verbose=True, plot=None):
    X, y = make_titanic()
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.2, stratify=y, random_state=0)
    clf = C45Classifier().fit(X_train, y_train)          # C4.5 R8 defaults
    unpruned = C45Classifier(pruning=None).fit(X_train, y_train)
    proba = clf.predict_proba(X_test)[:, list(clf.classes_).index(1)]
    pred = clf.predict(X_test)
    cm = confusion_matrix(y_test, pred, labels=[0, 1])
    p, r, f1, _ = precision_recall_fscore_support(y_test, pred, average="binary",
                                                  pos_label=1)
    fpr, tpr, _ = roc_curve(y_test, proba, pos_label=1)
    cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    cv_acc = cross_val_score(C45Classifier(), X, y, cv=cv)
    sizes, train_scores, test_scores = learning_curve(
        C45Classifier(), X, y, cv=cv, train_sizes=np.linspace(0.1, 1.0, 5))
    saved = c45.to_json(clf)
    loaded = c45.from_json(saved)
    results = {
        "n_train": len(y_train), "n_test": len(y_test),
        "missing": {c: int(X[c].isna().sum()) for c in ("Age", "Deck", "Embarked")},
        "nodes": clf.tree_.node_count, "depth": clf.get_depth(),
        "grown_nodes": clf.grown_tree_.node_count, "tree": c45.export_text(clf),
        "importances": dict(sorted(zip(X.columns, clf.feature_importances_),
                                   key=lambda kv: -kv[1])),
        "unpruned_importances": dict(zip(X.columns, unpruned.feature_importances_)),
        "unpruned_test_accuracy": unpruned.score(X_test, y_test),
        "confusion": cm, "accuracy": float(np.mean(pred == y_test.to_numpy())),
        "precision": p, "recall": r, "f1": f1, "auc": roc_auc_score(y_test, proba),
        "cv_accuracy": cv_acc,
        "learning_curve": (sizes, train_scores.mean(axis=1), test_scores.mean(axis=1)),
        "model_bytes": len(saved.encode()),
        "loaded_same": bool(np.array_equal(loaded.predict_proba(X_test),
                                           clf.predict_proba(X_test)))}
    if verbose:
        print(f"synthetic Titanic: {len(y)} passengers, {results['n_train']} train / "
              f"{results['n_test']} test; unknown values: {results['missing']}")
        print(f"C4.5 grows {results['grown_nodes']} nodes; pruned: {results['nodes']} "
              f"nodes, depth {results['depth']}:\n{results['tree']}")
        print("feature importances (information gain of each feature's tests), pruned "
              "tree / unpruned tree:")
        for name, v in results["importances"].items():
            print(f"  {name:9s} {v:.3f} / {results['unpruned_importances'][name]:.3f}")
        print(f"(test accuracy of the unpruned tree: "
              f"{results['unpruned_test_accuracy']:.3f})")
        print("\nconfusion matrix on the test passengers (rows: true 0/1, columns: "
              f"predicted 0/1):\n{cm}")
        print(f"accuracy {results['accuracy']:.3f}, precision {p:.3f}, recall {r:.3f}, "
              f"F1 {f1:.3f}, ROC AUC {results['auc']:.3f}")
        print(f"5-fold CV accuracy {cv_acc.mean():.3f} +- {cv_acc.std():.3f}")
        print("learning curve (training cases: train / validation accuracy):")
        for n, a, b in zip(*results["learning_curve"]):
            print(f"  {n:4d}: {a:.3f} / {b:.3f}")
        print(f"saved as c45 JSON ({results['model_bytes']} bytes); the loaded model "
              f"gives the same probabilities: {results['loaded_same']}")
    if plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
        ax1.plot(fpr, tpr, label=f"C4.5 (AUC {results['auc']:.3f})")
        ax1.plot([0, 1], [0, 1], "--", color="grey")
        ax1.set(xlabel="false positive rate", ylabel="true positive rate", title="ROC")
        ax1.legend()
        n, a, b = results["learning_curve"]
        ax2.plot(n, a, "o-", label="training")
        ax2.plot(n, b, "o-", label="validation")
        ax2.set(xlabel="training cases", ylabel="accuracy", title="learning curve")
        ax2.legend()
        fig.tight_layout()
        fig.savefig(plot)
        plt.close(fig)
    return results


if __name__ == "__main__":
    out = sys.argv[sys.argv.index("--plot") + 1] if "--plot" in sys.argv else None
    main(plot=out)
