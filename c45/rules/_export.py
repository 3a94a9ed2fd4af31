"""c4.5rules' printed reports of a fitted C45RulesClassifier: the ruleset, and
its evaluation tables on the training data or on other data."""
import numpy as np
from sklearn.utils.validation import check_is_fitted

from c45.rules._ruleset import counted, firing


def export_rules(clf, evaluation=False):
    """The ruleset as c4.5rules prints it.

    ::

        Final rules from tree 0:

        Rule 6:
            	wage increase first year > 2.5
            	statutory holidays > 10
        	->  class good  [93.0%]
        ...

        Default class: good

    Rules come in their final order, numbered as c4.5rules numbers them (so the
    numbers need not be consecutive). A condition line is four spaces and a tab
    then ``att = value``, ``att <= t`` / ``att > t`` (``t`` printed with ``%g``) or
    ``att in {v1, v2}``; the class line is a tab and ``->  class C  [nn.n%]``, the
    rule's confidence ``1 - error``. A case takes the class of the first rule whose
    conditions all hold; an unknown value (or a category unseen in training) makes
    a condition on its attribute fail; with no rule firing, the default class
    applies. This is exactly what ``predict`` does.

    ``evaluation=False`` prints the rules ``predict`` uses (``clf.rules_``).
    ``evaluation=True`` prints c4.5rules' own report instead, character for
    character: the rules as selected and ordered (``clf.ordered_rules_``), then
    their evaluation on the training data, where c4.5rules drops, one at a time,
    a rule that does more harm than good (``Drop rule N``, and the table again),
    then ``Tested N, errors E (p%)``. The table has one row per rule that
    classified some case: Rule, Size (conditions), Error (the pessimistic
    estimate), Used, Wrong, Advantage (``better - worse (better|worse)``), class.

    Thresholds printed with ``%g`` keep six significant digits, as c4.5rules
    prints them; ``clf.rules_[i].conditions[j].value`` holds the exact one.
    """
    check_is_fitted(clf, "rules_")
    shown = clf.ordered_rules_ if evaluation else clf.rules_
    out = ["Final rules from tree 0:", ""]
    for r in shown:
        out.append(str(r))
        out.append("")
    out.append(f"Default class: {clf.default_class_}")
    if evaluation:
        n, errors = clf._train_summary
        out += ["", "", f"Evaluation on training data ({n} items):", ""]
        for table, dropped in zip(clf.evaluation_rounds_, clf.dropped_rules_ + [None]):
            out += table
            if dropped is not None:
                out += ["", f"Drop rule {dropped}", ""]
        out += ["", tested_line(n, errors)]
    return "\n".join(out) + "\n"


def tested_line(n, errors):
    pct = 100.0 * errors / n if n else 0.0
    return f"Tested {n}, errors {errors} ({pct:.1f}%)   <<"


def rule_table(rules):
    """c4.5rules' evaluation table of the rules that classified some case. Used is
    printed in six places with the two spaces before it, as c4.5rules does (so at
    10,000 cases and more it is one space from Error, not two)."""
    out = ["Rule  Size  Error  Used  Wrong\t          Advantage",
           "----  ----  -----  ----  -----\t          ---------"]
    for r in rules:
        if r.used == 0:
            continue
        pct = 100.0 * r.wrong / r.used
        out.append(f"{r.number:4d}  {len(r.conditions):4d}  {100 * r.error:4.1f}%"
                   f"{r.used:6d}  {r.wrong:5d} ({pct:.1f}%)\t{r.advantage:6d} "
                   f"({r.better}|{r.worse}) \t{r.class_}")
    return out


def evaluation_text(clf, X, y, title="test data"):
    """c4.5rules' evaluation of the final rules on (X, y): the table of the rules
    that classified some case, and ``Tested N, errors E (p%)``."""
    check_is_fitted(clf, "rules_")
    cont, codes = clf._encode(X)
    if np.ndim(y) != 1 or len(y) != cont.shape[1]:
        raise ValueError(f"X has {cont.shape[1]} rows but y has shape {np.shape(y)}")
    y_codes = np.full(len(y), -1, dtype=np.int64)
    index = {c: i for i, c in enumerate(clf.declared_classes_)}   # the rules' order
    for i, label in enumerate(np.asarray(y, dtype=object)):
        y_codes[i] = index.get(label, -1)
    # Copies of the rules with the counts of these cases (the model's stay).
    pred, rules = counted(clf.rules_, firing(clf.rules_, cont, codes, clf._schema.col),
                          clf._default_index, y_codes)
    errors = int(np.sum(pred != y_codes))
    out = [f"Evaluation on {title} ({len(y_codes)} items):"]
    # c4.5rules leaves a blank line here exactly when the data hold no unknown
    # value (all 300 problems of the R8 corpus; the training data always get one).
    schema = clf._schema
    discrete = [schema.col[j] for j in range(len(schema.n_values)) if schema.n_values[j] > 0]
    if not (np.isnan(cont).any() or (codes[discrete] <= 0).any()):
        out.append("")
    out += rule_table(rules)
    out += ["", tested_line(len(y_codes), errors)]
    return "\n".join(out) + "\n"
