"""The loan example of Li Hang's textbook (Statistical Learning Methods): the 16 loan applications (age group,
has a job, owns a house, credit rating -> loan granted), the information gain (ID3)
and gain ratio (C4.5) of each feature at the root, the ID3 tree and the C4.5 tree
grown to purity as the textbook grows them (also as a nested dict), then
C4.5 Release 8's own defaults, and the answers for two new applicants.

Run: python examples/loan_id3_vs_c45.py
"""
import pandas as pd

from c45 import C45Classifier, export_text, split_scores, to_dict
from c45.datasets import load_loan

# As the textbook: grow until the leaves are pure, no pruning.
TEXTBOOK = dict(pruning=None, min_samples_leaf=1)
APPLICANTS = [["青年", "是", "否", "好"], ["老年", "否", "否", "非常好"]]


def main(verbose=True):
    X, y = load_loan()
    gains = split_scores(X, y, criterion="gain")
    ratios = split_scores(X, y)
    id3 = C45Classifier(criterion="gain", **TEXTBOOK).fit(X, y)
    c45 = C45Classifier(criterion="gain_ratio", **TEXTBOOK).fit(X, y)
    r8 = C45Classifier().fit(X, y)                  # -m 2 -c 25, pessimistic pruning
    new = pd.DataFrame(APPLICANTS, columns=X.columns)
    for col in X.columns:
        new[col] = pd.Categorical(new[col], categories=X[col].cat.categories)
    names = gains["feature_names"]
    results = {
        "gain": dict(zip(names, gains["gain"].round(3))),
        "gain_ratio": dict(zip(names, ratios["gain_ratio"].round(3))),
        "id3_root": names[gains["chosen"]], "c45_root": names[ratios["chosen"]],
        "id3": export_text(id3), "c45": export_text(c45), "r8": export_text(r8),
        "c45_dict": to_dict(c45),             # the {feature: {value: ...}} form
        "predictions": {"id3": id3.predict(new).tolist(), "c45": c45.predict(new).tolist(),
                        "r8": r8.predict(new).tolist()},
        "training_accuracy": {"id3": id3.score(X, y), "c45": c45.score(X, y),
                              "r8": r8.score(X, y)}}
    if verbose:
        print(f"{len(y)} loan applications; the root test:")
        for n in names:
            print(f"  {n}: information gain {results['gain'][n]:.3f}, "
                  f"gain ratio {results['gain_ratio'][n]:.3f}")
        print(f"ID3 (largest gain) tests {results['id3_root']}, C4.5 (gain ratio among "
              f"the gains above average) tests {results['c45_root']}\n")
        print("ID3 tree (criterion='gain'):\n" + results["id3"])
        print("C4.5 tree (criterion='gain_ratio'):\n" + results["c45"])
        print(f"as a nested dict: {results['c45_dict']}\n")
        print("C4.5 Release 8 defaults (-m 2 -c 25, pruned):\n" + results["r8"])
        for k, applicant in enumerate(APPLICANTS):
            answers = ", ".join(f"{m} {results['predictions'][m][k]}"
                                for m in ("id3", "c45", "r8"))
            print(f"applicant {applicant}: {answers}")
    return results


if __name__ == "__main__":
    main()
