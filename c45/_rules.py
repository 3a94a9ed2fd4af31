"""The rules' module before c45.rules, kept so that what imports it, and the
pickles it made (of c45._rules.C45RulesClassifier, Condition and Rule), still
find their names. New code imports from c45.rules."""
from c45.rules import C45RulesClassifier, Condition, GlibcRandom, Rule, export_rules
from c45.rules._builder import RuleBuilder
from c45.rules._export import evaluation_text, rule_table, tested_line
from c45.rules._ruleset import can_fire, rule_mask, tally
from c45.rules._selection import SubsetSearch, _Lengths

# The old module's names.
__all__ = ["C45RulesClassifier", "export_rules", "GlibcRandom", "Condition", "Rule",
           "RuleBuilder", "evaluation_text", "rule_table", "tested_line", "can_fire",
           "rule_mask", "tally", "SubsetSearch", "_Lengths"]
