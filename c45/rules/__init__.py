"""C4.5 Release 8's rule generator ``c4.5rules`` as a scikit-learn classifier.

The rules are read off the *unpruned* tree (``grown_tree_``), one candidate per leaf
holding at least one case. Each candidate loses the conditions whose removal does
not raise its pessimistic error estimate; duplicates merge. Each class then keeps the
subset of its rules with the shortest description (MDL: rule bits plus exception
bits), the classes are ordered by their false positives, a default class covers what
no rule covers, and rules that do more harm than good on the training data are
dropped one at a time.

Everything after the tree is Python and NumPy, but for where the conditions hold:
each such question (the rule firing on each case, each rule's cover, the counts of
condition dropping) is one compiled pass over the cases (``_match``), which gives
the GIL up once; condition dropping is one call for every candidate, its counts
kept up to date as conditions go. The subset searches work on coverage bitsets held as Python ints.

Choices where the specification is silent are marked **(choice)** in the comments and
listed in ``C45RulesClassifier``'s Notes.

The modules, one job each:

``_estimator``  C45RulesClassifier
``_export``     export_rules, evaluation_text: c4.5rules' printed reports
``_ruleset``    Condition, Rule (frozen), and how a ruleset classifies (firing, tally,
                counted: the evaluation's counts on copies of the rules)
``_match``      where conditions hold: the passes over the cases, each one nogil call
``_builder``    RuleBuilder: §11 on a grown tree, from leaves to the final ruleset
``_selection``  the description lengths and the per-class subset search (§11.4),
                drawing from glibc's random() (c45._glibc_random, shared with windowing)
``_log``        PruningLog: pruning_log_, the condition-dropping trace kept as arrays,
                an entry built when read
``_state``      the checks of a pickled C45RulesClassifier's fitted state
"""
from c45.rules._estimator import C45RulesClassifier
from c45.rules._export import evaluation_text, export_rules
from c45._glibc_random import GlibcRandom
from c45.rules._ruleset import Condition, Rule

__all__ = ["C45RulesClassifier", "export_rules", "evaluation_text", "GlibcRandom",
           "Condition", "Rule"]

# A pickle names the class of each object it holds by module: these are found
# here, whichever module defines them, so that moving one does not break the
# pickles already made. (Pickles made before c45.rules are found by the shim
# c45/_rules.py.)
for _cls in (C45RulesClassifier, Condition, Rule):
    _cls.__module__ = __name__
del _cls
