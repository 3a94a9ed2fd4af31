"""A pickled C45RulesClassifier's fitted state, checked before it is used.

Every rule and condition is checked against the model's own schema and
declared_classes_ (those as C45Classifier checks its own), so that a tampered pickle is refused
naming the field instead of failing at predict (a feature or class index out of
range was an IndexError there).
"""
import numbers
import reprlib

import numpy as np

from c45 import _grown
from c45._classifier import C45Classifier, class_map
from c45._state import check_held_classes, checked_schema_and_classes, checked_tree
from c45._params import SPEC, PRECISION as _PRECISION, finite_number as _finite_number
from c45.rules._builder import leaf_paths, rule_bits, tree_edges
from c45.rules._log import RECORD, PruningLog
from c45.rules._ruleset import Condition, Rule
from c45.rules._selection import _EXHAUSTIVE_MAX, _Lengths, attribute_test_bits
from c45._tree import CONTINUOUS_KIND, DISCRETE_KIND, SUBSET_KIND


_CONDITION_FIELDS = frozenset(Condition.__dataclass_fields__)
_RULE_FIELDS = frozenset(Rule.__dataclass_fields__)
_RULE_COUNTS = ("n_covered", "n_errors", "used", "wrong", "better", "worse")


_PICKLED = "the pickled rules model's"


def _refuse(where, value, expected):
    raise ValueError(f"c45: {_PICKLED} {where} is {reprlib.repr(value)}; "
                     f"expected {expected}")


def _is_count(v, low=0):
    return isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_)) and v >= low


def _same_values(got, expected):
    """Equal values of the same types (a label or category is hashable, so == is
    no array's elementwise comparison)."""
    return len(got) == len(expected) and all(
        type(a) is type(b) and a == b for a, b in zip(got, expected))


def _same_categories(got, expected):
    """Per feature, None (continuous) or the same categories as _same_values."""
    return len(got) == len(expected) and all(
        (a is None) == (b is None) and (a is None or _same_values(list(a), list(b)))
        for a, b in zip(got, expected))


def _check_condition(c, where, schema):
    """A condition as RuleBuilder._condition makes it from a test of the schema."""
    if type(c) is not Condition or set(vars(c)) != _CONDITION_FIELDS:
        _refuse(where, c, "a Condition")
    f, b = c.feature, c.branch
    if not _is_count(f) or f >= schema.n_features:
        _refuse(f"{where}.feature", f, f"a feature index in 0..{schema.n_features - 1}")
    name = f"x{f}" if schema.names is None else str(schema.names[f])
    if c.name != name:
        _refuse(f"{where}.name", c.name, f"feature {f}'s name {name!r}")
    if not _is_count(b) or not _is_count(c.node):
        _refuse(f"{where}.branch and node", (b, c.node), "non-negative integers")
    if not schema.discrete[f]:
        if b > 1 or not _same_values((c.kind, c.op, c.codes),
                                     (CONTINUOUS_KIND, ("<=", ">")[b], ())):
            _refuse(where, (c.kind, b, c.op, c.codes), f"continuous feature {f}'s "
                    f"test: kind {CONTINUOUS_KIND}, branch 0 '<=' or 1 '>', no codes")
        if not _finite_number(c.value):
            _refuse(f"{where}.value", c.value, "a finite threshold")
        return
    cats = schema.categories[f]
    codes = c.codes
    if type(codes) is not tuple or not codes or not all(
            _is_count(v, 1) and v <= len(cats) for v in codes) or len(set(codes)) < len(codes):
        _refuse(f"{where}.codes", codes, f"distinct category codes in 1..{len(cats)}")
    if _same_values((c.kind, c.op, codes), (DISCRETE_KIND, "=", (b + 1,))):
        if not _same_values((c.value,), (cats[b],)):
            _refuse(f"{where}.value", c.value, f"category {cats[b]!r}")
    elif _same_values((c.kind, c.op), (SUBSET_KIND, "in")):
        expected = [cats[v - 1] for v in codes]
        if type(c.value) is not tuple or not _same_values(c.value, expected):
            _refuse(f"{where}.value", c.value, "the categories of its codes")
    else:
        _refuse(where, (c.kind, b, c.op, codes), f"discrete feature {f}'s test: kind "
                f"{DISCRETE_KIND} '=' with codes (branch + 1,), or {SUBSET_KIND} 'in'")


def _check_rule(r, where, schema, classes):
    if type(r) is not Rule or set(vars(r)) != _RULE_FIELDS:
        _refuse(where, r, "a Rule")
    if not _is_count(r.number, 1):
        _refuse(f"{where}.number", r.number, "a positive integer")
    for name in _RULE_COUNTS:
        if not _is_count(getattr(r, name)):
            _refuse(f"{where}.{name}", getattr(r, name), "a non-negative integer")
    k = r.class_index
    if not _is_count(k) or k >= len(classes):
        _refuse(f"{where}.class_index", k, f"a class index in 0..{len(classes) - 1}")
    if not _same_values((r.class_,), (classes[k],)):
        _refuse(f"{where}.class_", r.class_, f"declared_classes_[{k}], {classes[k]!r}")
    if not _finite_number(r.error) or not 0 <= r.error <= 1:
        _refuse(f"{where}.error", r.error, "an error rate in [0, 1]")
    if not _finite_number(r.bits):
        _refuse(f"{where}.bits", r.bits, "a finite number of bits")
    if type(r.conditions) is not tuple or not r.conditions:
        # c4.5rules rejects a rule left without conditions: it would fire on every case.
        _refuse(f"{where}.conditions", r.conditions, "a tuple of one or more Conditions")
    for j, c in enumerate(r.conditions):
        _check_condition(c, f"{where}.conditions[{j}]", schema)


def _check_tests_of_tree(rules, name, tree, schema):
    """Each condition is an outcome of its node of the grown tree, as
    RuleBuilder._condition makes it: the node's kind and feature, a branch the
    node has, its threshold, and a subset branch's own categories (a subset
    condition's branch and node are read nowhere else, so any value loaded)."""
    for i, r in enumerate(rules):
        for j, c in enumerate(r.conditions):
            where, node = f"{name}[{i}].conditions[{j}]", c.node
            if node >= tree.node_count or tree.kind[node] != c.kind or \
                    tree.feature[node] != c.feature:
                _refuse(f"{where}.node", node, f"a test of the grown tree of kind "
                        f"{c.kind} on feature {c.feature}")
            if c.branch >= tree.n_children[node]:
                _refuse(f"{where}.branch", c.branch, f"a branch of node {node}, in "
                        f"0..{int(tree.n_children[node]) - 1}")
            if c.kind == CONTINUOUS_KIND and c.value != tree.threshold[node]:
                _refuse(f"{where}.value", c.value, f"node {node}'s threshold, "
                        f"{float(tree.threshold[node])!r}")
            if c.kind == SUBSET_KIND:
                group = tree.branch_values(node, len(schema.categories[c.feature]))[c.branch]
                if c.codes != tuple(v + 1 for v in group):
                    _refuse(f"{where}.branch and codes", (c.branch, c.codes),
                            f"a branch of node {node} with its codes (branch "
                            f"{c.branch}: {tuple(v + 1 for v in group)})")


def _check_list(state, name, item=None):
    """state[name] is a list; item(value, where) checks each entry."""
    values = state.get(name)
    if type(values) is not list:
        _refuse(name, values, "a list")
    for i, v in enumerate(values if item else ()):
        item(v, f"{name}[{i}]")
    return values


def _checked_rules(state, name, schema, classes):
    """state[name], a tuple of Rules (a list in pickles made before the rules were
    frozen), checked; as a tuple."""
    rules = state.get(name)
    if type(rules) not in (tuple, list):
        _refuse(name, rules, "a tuple of Rules")
    seen = set()
    for i, r in enumerate(rules):
        _check_rule(r, f"{name}[{i}]", schema, classes)
        if r.number in seen:            # a rule is listed once, by its own number
            _refuse(f"{name}[{i}].number", r.number, "a number no other rule has")
        seen.add(r.number)
    return tuple(rules)


def checked_assigned_rules(rules, schema, classes, position):
    """A ruleset assigned to rules_ after fit, checked as a pickle's is (each rule
    and condition as fit makes them, against the model's schema and
    declared_classes_; position: each declared class's column of classes_, -1
    for one y did not hold); as a tuple."""
    try:
        rules = _checked_rules({"rules_": rules}, "rules_", schema, classes)
        for i, r in enumerate(rules):
            if position[r.class_index] < 0:
                _refuse(f"rules_[{i}].class_", r.class_, "a class of classes_")
    except ValueError as e:             # the same words, of the assigned rules
        raise ValueError(str(e).replace(_PICKLED, "the assigned", 1)) from None
    return rules


def _check_table(table, where):
    if type(table) is not list or not all(type(line) is str for line in table):
        _refuse(where, table, "a list of lines")


def _check_rule_number(n, where):
    if not _is_count(n, 1):
        _refuse(where, n, "a rule number")


def _check_evaluation_state(state, classes):
    """What predict and export_rules(evaluation=True) read besides the rules."""
    d = state.get("_default_index")
    if not _is_count(d) or d >= len(classes):
        _refuse("_default_index", d, f"a class index in 0..{len(classes) - 1}")
    if not _same_values((state.get("default_class_"),), (classes[d],)):
        _refuse("default_class_", state.get("default_class_"), f"declared_classes_[{d}]")
    summary = state.get("_train_summary")
    if type(summary) is not tuple or len(summary) != 2 or not all(map(_is_count, summary)) \
            or summary[1] > summary[0]:
        _refuse("_train_summary", summary, "(cases, errors) with errors <= cases")
    tables = _check_list(state, "evaluation_rounds_", _check_table)
    dropped = _check_list(state, "dropped_rules_", _check_rule_number)
    if len(tables) != len(dropped) + 1:      # one table per round, a drop between two
        _refuse("evaluation_rounds_", tables, "one table more than dropped_rules_")


def _class_positions(values, classes, where):
    """Each entry of values (declared classes) as its index in classes."""
    index = {}
    for c, label in enumerate(classes.tolist()):
        index.setdefault(label, c)
    out = []
    for i, v in enumerate(values):
        c = index.get(v) if _hashable(v) else None
        if c is None or not _same_values((v,), (classes[c],)):
            _refuse(f"{where}[{i}]", v, "one of declared_classes_")
        out.append(c)
    return out


def _hashable(v):
    try:
        hash(v)
    except TypeError:
        return False
    return True


def _check_attribute_bits(state, schema, rulesets):
    """attribute_bits_ in the range its formula gives (a discrete attribute's
    entropy of its values, at most log2 of their number plus one; a continuous one's 0,
    or 1 + log2(distinct values) / 2 >= 1.5), attribute_test_bits_ their
    entropy and each rule's bits its conditions' code length from them and
    redundancy, as fit computes them."""
    bits = state.get("attribute_bits_")
    if not (isinstance(bits, np.ndarray) and bits.dtype == np.float64
            and bits.shape == (schema.n_features,) and np.isfinite(bits).all()):
        _refuse("attribute_bits_", bits, f"{schema.n_features} finite float64 bits")
    for f in range(schema.n_features):
        b = float(bits[f])
        # (the values' shares of all cases, unknown ones too: at most the
        # entropy of V + 1 groups)
        most = np.log2(int(schema.n_values[f]) + 1) * (1 + 1e-3)
        if b < 0 or (schema.discrete[f] and b > most) or (
                not schema.discrete[f] and 0 < b < 1):
            _refuse(f"attribute_bits_[{f}]", b, f"0 to {most:.4g} bits (discrete)"
                    if schema.discrete[f] else "0, or 1 + log2(values) / 2 bits")
    f32 = state.get("precision") == "float32"
    test_bits = state.get("attribute_test_bits_")
    want = attribute_test_bits(bits, f32)
    if not _finite_number(test_bits) or test_bits != want:
        _refuse("attribute_test_bits_", test_bits, f"{want!r}, the entropy of "
                f"attribute_bits_")
    redundancy = state.get("redundancy", SPEC["redundancy"].default)
    if not _finite_number(redundancy) or not redundancy > 0:
        return              # refused by the parameters' own check
    lengths = _Lengths(f32)
    for name, rules in rulesets.items():
        for i, r in enumerate(rules):
            want = rule_bits(r.conditions, bits, test_bits, redundancy, schema.n_values,
                             lengths, f32)
            if r.bits != want:
                _refuse(f"{name}[{i}].bits", r.bits, f"{want!r}, its conditions' code "
                        f"length from attribute_bits_ and redundancy {redundancy!r}")


def _check_selection(state, classes, rulesets):
    """selection_ (per class, in class order: its candidate rules' count, the
    search its count and annealing call for, the selected candidates of its
    class), class_order_ (each class once) and the rules they give: ordered_rules_
    is each class's selection in class_order_, by error then number (rules_,
    which a user may assign, is checked as rules only)."""
    selection = state.get("selection_")
    if type(selection) is not dict:
        _refuse("selection_", selection, "a dict")
    keys = list(selection)
    if not _same_values(keys, list(classes)):
        _refuse("selection_", keys, f"an entry per class of declared_classes_, in "
                f"their order: {reprlib.repr(classes.tolist())}")
    numbers = [r.number for r in rulesets["candidate_rules_"]]
    if numbers != list(range(1, len(numbers) + 1)):     # numbered as they are made
        _refuse("candidate_rules_", numbers, f"rules numbered 1 to {len(numbers)} in order")
    candidates = {r.number: r for r in rulesets["candidate_rules_"]}
    annealing = state.get("annealing", SPEC["annealing"].default)
    fields = {"n_rules", "search", "empty_cost", "cost", "selected"}
    chosen = {}
    for c, key in enumerate(keys):
        where, entry = f"selection_[{key!r}]", selection[key]
        if type(entry) is not dict or set(entry) != fields:
            _refuse(where, entry, f"a dict of {sorted(fields)}")
        mine = sum(r.class_index == c for r in candidates.values())
        if not _is_count(entry["n_rules"]) or entry["n_rules"] != mine:
            _refuse(f"{where}['n_rules']", entry["n_rules"], f"{mine}, its class's "
                    f"candidate rules")
        search = ("exhaustive" if mine <= _EXHAUSTIVE_MAX else
                  "annealing" if annealing else "greedy")
        if entry["search"] != search:
            _refuse(f"{where}['search']", entry["search"], f"{search!r} ({mine} rules, "
                    f"annealing={annealing!r})")
        for name in ("empty_cost", "cost"):
            if not _finite_number(entry[name]):
                _refuse(f"{where}[{name!r}]", entry[name], "a finite number of bits")
        picked = entry["selected"]
        if type(picked) is not list or len(set(map(_hashed, picked))) < len(picked) or \
                not all(candidates.get(_hashed(n)) is not None
                        and candidates[_hashed(n)].class_index == c and _is_count(n, 1)
                        for n in picked):
            _refuse(f"{where}['selected']", picked, "distinct numbers of its class's "
                    "candidate rules")
        chosen[c] = picked
    order = state.get("class_order_")
    if type(order) is not list:
        _refuse("class_order_", order, "a list")
    order = _class_positions(order, classes, "class_order_")
    if sorted(order) != list(range(len(classes))):
        _refuse("class_order_", state["class_order_"], "each class of declared_classes_ "
                "once")
    want = [n for c in order
            for n in sorted(chosen[c], key=lambda n: (candidates[n].error, n))]
    got = [r.number for r in rulesets["ordered_rules_"]]
    if got != want:
        _refuse("ordered_rules_", got, f"the rules of selection_ in class_order_, by "
                f"error then number: {want}")


def _hashed(n):
    return n if _hashable(n) else None


def _record_of_list(log, leaves, labels, classes):
    """The record of a pruning_log_ pickled as a list of dicts (before the log
    was kept as arrays), each entry checked against its leaf: its
    leaf_conditions and class_ the leaf's, its steps' rows those of the
    conditions left (a condition dropped is gone from the next step's)."""
    rule, step_start, dropped, rows = [], [0], [], []
    fields = {"leaf_conditions", "class_", "steps", "rule"}
    for i, (entry, (path, c)) in enumerate(zip(log, leaves)):
        where = f"pruning_log_[{i}]"
        if type(entry) is not dict or set(entry) != fields:
            _refuse(where, entry, f"a dict of {sorted(fields)}")
        text = [labels[node - 1] for node in path]
        if entry["leaf_conditions"] != text:
            _refuse(f"{where}['leaf_conditions']", entry["leaf_conditions"],
                    f"its leaf's path {text}")
        if not _same_values((entry["class_"],), (classes[c],)):
            _refuse(f"{where}['class_']", entry["class_"], f"its leaf's class "
                    f"{classes[c]!r}")
        number = entry["rule"]
        if number is not None and not _is_count(number, 1):
            _refuse(f"{where}['rule']", number, "None or a rule number")
        rule.append(number or 0)
        steps = entry["steps"]
        if type(steps) is not list or not all(
                type(s) is dict and set(s) == {"rows", "dropped"} for s in steps):
            _refuse(f"{where}['steps']", steps, "a list of {'rows', 'dropped'} dicts")
        left = list(text)
        for j, step in enumerate(steps):
            got = step["rows"]
            if type(got) is not list or len(got) != len(left) + 1 or not all(
                    type(r) is tuple and len(r) == 4 and _is_count(r[0]) and _is_count(r[1])
                    and isinstance(r[2], float) and r[3] == (left[q - 1] if q else None)
                    for q, r in enumerate(got)):
                _refuse(f"{where}['steps'][{j}]['rows']", got, "(errors, cases, "
                        "pessimistic error, condition) of the rule and each condition left")
            rows += [r[:3] for r in got]
            last = j == len(steps) - 1
            if step["dropped"] is None and last:
                dropped.append(-1)
                continue
            after = [r[3] for r in steps[j + 1]["rows"][1:]] if not last else None
            gone = [q for q in range(len(left)) if left[:q] + left[q + 1:] == after]
            if not gone or step["dropped"] != left[gone[0]]:
                _refuse(f"{where}['steps'][{j}]['dropped']", step["dropped"], "None in "
                        "the last step, before it the condition gone from the next")
            dropped.append(gone[0])
            del left[gone[0]]
        step_start.append(len(dropped))
    rows = np.array(rows, dtype=object).reshape(-1, 3)
    return {"rule": np.array(rule, dtype=np.int64),
            "step_start": np.array(step_start, dtype=np.int64),
            "dropped": np.array(dropped, dtype=np.int64),
            "errors": rows[:, 0].astype(np.int32), "total": rows[:, 1].astype(np.int32),
            "pess": rows[:, 2].astype(np.float64)}


def _check_record(log, lengths):
    """pruning_log_'s record (c45.rules._log.RECORD, or its rule alone: no
    steps kept) of the right types and shapes for leaves of these path
    lengths: steps of one entry between one and the path's conditions plus
    one, each but the last dropping a condition left, rows as many as the
    steps' conditions left plus one."""
    if type(log) is not dict or set(log) not in (set(RECORD), {"rule"}):
        _refuse("pruning_log_", log, f"a dict of {sorted(RECORD)} or of ['rule'] alone "
                f"(or a list of dicts)")
    for name in log:
        a, dtype = log[name], RECORD[name]
        if not isinstance(a, np.ndarray) or a.dtype != dtype or a.ndim != 1:
            _refuse(f"pruning_log_['{name}']", a, f"a 1-d {np.dtype(dtype)} array")
    K = len(lengths)
    if len(log["rule"]) != K:
        _refuse("pruning_log_['rule']", len(log["rule"]), f"{K} entries, one per leaf "
                f"of the grown tree of weight 1 or more")
    if "step_start" not in log:
        return
    start, dropped = log["step_start"], log["dropped"]
    if len(start) != K + 1:
        _refuse("pruning_log_['step_start']", len(start), f"{K + 1} entries, one per "
                f"leaf of the grown tree of weight 1 or more, and the end")
    steps = np.diff(start)
    if start[0] != 0 or start[-1] != len(dropped) or (steps < 1).any() or \
            (steps > lengths + 1).any():
        _refuse("pruning_log_['step_start']", start, "from 0 to the steps' count, "
                "1 to a path's conditions + 1 steps per entry")
    last = np.zeros(len(dropped), dtype=bool)
    last[start[1:] - 1] = True
    entry = np.repeat(np.arange(K), steps)
    left = lengths[entry] - (np.arange(len(dropped)) - start[:-1][entry])
    if (dropped[last] != -1).any() or (dropped[~last] < 0).any() or \
            (dropped[~last] >= left[~last]).any():
        _refuse("pruning_log_['dropped']", dropped, "per step a position among the "
                "conditions left, -1 in each entry's last")
    rows = int((left + 1).sum())
    for name in ("errors", "total", "pess"):
        if len(log[name]) != rows:
            _refuse(f"pruning_log_['{name}']", log[name], f"{rows} rows, one per step "
                    f"and condition left")


def _check_pruning_log(state, schema, classes, tree, rulesets):
    """pruning_log_ (its record, or a list of dicts as pickled before): an entry
    per leaf of the grown tree giving a candidate rule, in its order, with the
    leaf's conditions and class (the tree's), the rule it became (or None;
    each rule first named in the order of the numbers, its conditions some of
    that leaf's, those of ordered_rules_ the same) and its condition-dropping
    steps. Returns the PruningLog."""
    log = state.get("pruning_log_")
    names = [f"x{j}" for j in range(schema.n_features)] if schema.names is None \
        else list(schema.names)
    leaves, start, nodes, parent = leaf_paths(tree)
    lengths = np.diff(start)
    labels = [str(c) for c in tree_edges(tree, names, schema.categories)]
    classes_of = tree.node_class[leaves].tolist()
    if type(log) is list:
        if len(log) != len(leaves):
            _refuse("pruning_log_", log, f"{len(leaves)} entries, one per leaf of the "
                    f"grown tree of weight 1 or more")
        log = _record_of_list(log, ((nodes[start[k]:start[k + 1]].tolist(), c)
                                    for k, c in enumerate(classes_of)), labels, classes)
    _check_record(log, lengths)
    numbers = {r.number: r.class_index for r in rulesets["candidate_rules_"]}
    seen = []               # the rules named, in the order first named
    first_path = {}         # and the path (nodes) of the leaf that made each
    for i, (rule, c) in enumerate(zip(log["rule"].tolist(), classes_of)):
        if rule and numbers.get(rule) != c:
            _refuse(f"pruning_log_ entry {i}'s rule", rule,
                    "None or a candidate rule of its class")
        if rule and rule not in first_path:
            seen.append(rule)
            first_path[rule] = nodes[start[i]:start[i + 1]].tolist()
    if seen != sorted(numbers):     # a rule is numbered when its first leaf makes it
        _refuse("pruning_log_", seen, f"the leaves naming every candidate rule, "
                f"first in the order of their numbers 1 to {len(numbers)}")
    made = {}
    for i, r in enumerate(rulesets["candidate_rules_"]):
        # (a condition is its node's branch: the node below it on the path)
        path = set(first_path[r.number])
        if not all(int(tree.first_child[c.node]) + c.branch in path for c in r.conditions):
            _refuse(f"candidate_rules_[{i}].conditions", r.conditions, "conditions of "
                    "the path of the leaf that made it")
        made[r.number] = r.conditions
    for i, r in enumerate(rulesets["ordered_rules_"]):
        if r.conditions != made[r.number]:
            _refuse(f"ordered_rules_[{i}].conditions", r.conditions, f"those of "
                    f"candidate rule {r.number}")
    return PruningLog(log, leaves, lengths, parent, labels,
                      classes[tree.node_class[leaves]])


def _check_fit_record(state, schema, classes, tree, rulesets):
    """What fit records beside the rules (read by no prediction or report, but
    a model's attributes): checked against the rules, the grown tree and the
    classes they describe. Returns the pruning log."""
    _check_attribute_bits(state, schema, rulesets)
    _check_selection(state, classes, rulesets)
    return _check_pruning_log(state, schema, classes, tree, rulesets)


def checked_rules_state(state):
    """The fitted parts of a pickled C45RulesClassifier, each of the type, shape and
    range fit gives it, checked against the model's schema and declared_classes_
    (those as C45Classifier checks its own; a pickle made before
    declared_classes_ had the rules' class order in classes_)."""
    schema, classes, out = checked_schema_and_classes(state)
    tree = checked_tree(state, "grown_tree_", schema, classes)
    if not state.get("subset_splits") and (tree.kind == SUBSET_KIND).any():
        # the rules' subset conditions are its subset tests: what fit made
        # only with subset_splits=True
        _refuse("grown_tree_", tree, f"no subset test, as subset_splits is "
                f"{state.get('subset_splits')!r}")
    check_held_classes(tree, out["classes_"], classes,
                       "c45: the pickled rules model's grown_tree_")
    est = state.get("tree_estimator_")
    if type(est) is not C45Classifier or not np.array_equal(
            getattr(est, "declared_classes_", None), classes) or not np.array_equal(
            getattr(est, "classes_", None), out["classes_"]):
        _refuse("tree_estimator_", est, "the fitted C45Classifier of its classes")
    # ... that grew grown_tree_ (pruning=None) on the same features: another
    # tree of the same classes loaded, and tree_estimator_ predicted with it.
    if est.pruning is not None or not _grown.same_trees(est.grown_tree_, tree) or \
            not _same_categories(est.categories_, schema.categories):
        _refuse("tree_estimator_", est, "the C45Classifier (pruning=None) that grew "
                "grown_tree_, on the model's features")
    if state.get("precision") not in _PRECISION:
        _refuse("precision", state.get("precision"), f"one of {list(_PRECISION)}")
    rulesets = {name: _checked_rules(state, name, schema, classes)
                for name in ("rules_", "ordered_rules_", "candidate_rules_")}
    for name, rules in rulesets.items():
        _check_tests_of_tree(rules, name, tree, schema)
    _check_evaluation_state(state, classes)
    # predict names the class of a rule, or the default, by its place in classes_.
    position = class_map(out).position
    for name, rules in rulesets.items():
        for i, r in enumerate(rules):
            if position[r.class_index] < 0:
                _refuse(f"{name}[{i}].class_", r.class_, "a class of classes_")
    if position[state["_default_index"]] < 0:
        _refuse("default_class_", state.get("default_class_"), "a class of classes_")
    log = _check_fit_record(state, schema, classes, tree, rulesets)
    return dict(out, grown_tree_=tree, pruning_log_=log, **rulesets)
