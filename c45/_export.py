"""Printing a fitted tree and its evaluation the way C4.5 prints them."""
import numpy as np
from sklearn.utils.validation import check_is_fitted

from c45._encode import UNIQUE_CHUNK, _as_objects
from c45._serialize import _feature_names, check_count, name_list
from c45._tree import LEAF_KIND, CONTINUOUS_KIND, SUBSET_KIND

_WIDTH = 80     # Release 8's page width: subtree blocks and subset tests wrap to it


def tree_class_names(clf, class_names=None):
    """The label of each class column of the trees: declared_classes_ (C4.5's
    order, as it prints them), or class_names given in that order."""
    classes = clf.declared_classes_
    if class_names is None:
        return list(classes)
    return name_list(class_names, len(classes), "class_names", "classes")


def _leaf_text(tree, node, classes, show_weights=False, decimals=None):
    items = tree.weight[node]
    errors = tree.errors[node]
    label = str(classes[tree.node_class[node]])
    text = f"{label} ({items:.1f}/{errors:.1f})" if errors > 0 else f"{label} ({items:.1f})"
    if show_weights:
        # C4.5's N to one decimal; `decimals` when given (as scikit-learn's
        # export_text rounds its weights).
        d = 1 if decimals is None else decimals
        text += " weights: [" + ", ".join(f"{v:.{d}f}" for v in tree.value[node]) + "]"
    return text


def export_text(clf, tree="final", feature_names=None, *, max_depth=None,
                decimals=None, class_names=None, show_weights=False, spacing=4,
                show_bounds=None):
    """The tree in C4.5's own layout.

    Each branch is a line ``att = value:`` (discrete) or ``att <= t :`` /
    ``att > t :`` (continuous, ``t`` printed with ``%g``), indented by ``|   `` per
    level; a leaf appends ``class (N)`` or ``class (N/E)``, N the case weight
    reaching it and E its errors (training errors in the grown tree, the
    pessimistic estimate in the pruned tree). As C4.5 does, at each node the
    branches ending in a leaf come first, then those with subtrees. As C4.5
    Release 8 does, a subtree whose lines would reach past column 80 (its depth
    times 4 plus its widest branch line, R8's MaxLine) is printed as a reference
    ``[Sn]`` on its branch line and then, after the tree, as a block ``Subtree
    [Sn]`` indented from the left again: the width stays bounded however deep
    the tree. (R8 numbers at most 99 blocks, printing ``[S??]`` and dropping the
    subtree after that; c45 numbers them all.) A value-subset test too long
    for 80 columns (counted from the test, not from the line's start) goes on
    in lines of its own, under its first value.

    Parameters
    ----------
    clf : fitted C45Classifier
    tree : {"final", "grown"}, default="final"
        ``"final"``: ``clf.tree_`` (pruned unless ``pruning=None``);
        ``"grown"``: ``clf.grown_tree_``, the tree before pruning.
    feature_names : list of str, optional
        Defaults to ``feature_names_in_``, else ``x0, x1, ...``.
    max_depth : int, optional
        Print branches down to this depth (the root's branches are depth 0); a
        deeper subtree is one line ``att = v: ... (subtree of depth d, N cases)``.
    decimals : int, optional
        Print thresholds with this many decimals instead of C4.5's ``%g``, which
        keeps 6 significant digits (a cut at 51885.95 prints ``51886``).
    class_names : list of str, optional
        Names for ``declared_classes_``, in its order (C4.5's class order;
        that of ``classes_`` unless y was a pandas Categorical).
    show_weights : bool, default=False
        Append each leaf's class weights, ``weights: [w1, w2, ...]`` in the order
        of ``declared_classes_`` (scikit-learn's option; one decimal, or ``decimals``).
    spacing : int, default=4
        The indent width per level: ``|`` and ``spacing - 1`` spaces (C4.5's
        ``|   ``). Release 8's 80-column rule for subtree blocks counts levels of
        this width.
    show_bounds : bool, optional
        Print a continuous test's soft bounds after its threshold, as C4.5's
        ``-p`` prints them (``x <= 6 [5.88258,6.13877]:``). By default they are
        printed when the tree has them (``soft_thresholds=True``), except where
        the two bounds are equal (Release 8 prints the test alone there).

    With the defaults the text is C4.5 Release 8's, byte for byte. Unknown and
    unseen values are not shown: C4.5 sends a case whose tested value is unknown
    down every branch, weighted by the branch's share of the node's cases (the N
    of each leaf line), and sums the leaves' class distributions.
    """
    check_is_fitted(clf, "tree_")
    if tree not in ("final", "grown"):
        raise ValueError(f"tree must be 'final' or 'grown', got {tree!r}")
    t = clf.tree_ if tree == "final" else clf.grown_tree_
    feature_names = _feature_names(clf, feature_names)
    classes = tree_class_names(clf, class_names)
    check_count("max_depth", max_depth)
    check_count("decimals", decimals)
    if (isinstance(spacing, bool) or not isinstance(spacing, (int, np.integer))
            or spacing < 1):
        raise ValueError(f"spacing must be an int of at least 1 (the '|' of each "
                         f"level), got {spacing!r}")
    indent = "|" + " " * (spacing - 1)
    show_weights = bool(show_weights)
    bounds = getattr(t, "lower", None) is not None and show_bounds is not False

    def leaf(node):
        return _leaf_text(t, node, classes, show_weights, decimals)

    if t.kind[0] == LEAF_KIND:
        # C4.5 prints a tree that is one leaf after a space (" k0 (15.0/7.0)").
        return " " + leaf(0) + "\n"

    def branch_label(node, b, prefix):
        f = t.feature[node]
        name = feature_names[f]
        if t.kind[node] == CONTINUOUS_KIND:
            op = "<=" if b == 0 else ">"
            cut = (f"{t.threshold[node]:g}" if decimals is None
                   else f"{t.threshold[node]:.{decimals}f}")
            if bounds and t.lower[node] < t.upper[node]:   # R8 prints none when equal
                lo, hi = (f"{v:g}" if decimals is None else f"{v:.{decimals}f}"
                          for v in (t.lower[node], t.upper[node]))
                return f"{name} {op} {cut} [{lo},{hi}]:"
            return f"{name} {op} {cut} :"
        cats = clf.categories_[f]
        if t.kind[node] == SUBSET_KIND:
            group = t.branch_values(node, len(cats))[b]
            if len(group) > 1:
                return subset_test(name, [str(cats[v]) for v in group], prefix)
            b = group[0]
        return f"{name} = {cats[b]}:"

    def shown(node, b):
        """C4.5 does not print a subset test's branches that hold no value."""
        if t.kind[node] != SUBSET_KIND:
            return True
        f = t.feature[node]
        return bool(t.branch_values(node, len(clf.categories_[f]))[b])

    # Explicit stack: (node, depth) frames, children listed leaves first.
    def ordered_branches(node):
        first, nb = t.first_child[node], t.n_children[node]
        leaves = [b for b in range(nb) if t.kind[first + b] == LEAF_KIND and shown(node, b)]
        inner = [b for b in range(nb) if t.kind[first + b] != LEAF_KIND and shown(node, b)]
        return leaves + inner

    def max_line(node):
        """Release 8's MaxLine (trees.c): the widest branch line of the node,
        counted in bytes as strlen counts: the attribute, 4, then per branch 4
        (continuous) or its value's name (value number b, even for subset
        tests), 1, and for a leaf branch its class and 6."""
        f = t.feature[node]
        cats = clf.categories_[f]
        widest = 0
        for b in range(t.n_children[node]):
            child = t.first_child[node] + b
            if t.kind[node] == CONTINUOUS_KIND:
                width = 4
            else:
                width = len(str(cats[b]).encode()) if b < len(cats) else 0
            width += 1
            if t.kind[child] == LEAF_KIND:
                width += len(str(classes[t.node_class[child]]).encode()) + 6
            widest = max(widest, width)
        return len(str(feature_names[f]).encode()) + 4 + widest

    subtrees = []           # roots printed as separate blocks, in R8's numbering

    def show(root, base=0):
        """The lines of the subtree at root, branches indented from depth 0; a
        test node at depth d with d * 4 + max_line > 80 becomes a reference
        [Sn] to a block printed after the tree (R8's Show, TabSize 4, Width 80)."""
        lines = []
        stack = [(root, 0, iter(ordered_branches(root)))]
        while stack:
            node, depth, branches = stack[-1]
            b = next(branches, None)
            if b is None:
                stack.pop()
                continue
            child = t.first_child[node] + b
            text = indent * depth + branch_label(node, b, indent * depth)
            if t.kind[child] == LEAF_KIND:
                lines.append(text + " " + leaf(child))
            elif max_depth is not None and base + depth >= max_depth:
                lines.append(f"{text} ... (subtree of depth {_depth_below(t, child)}, "
                             f"{t.weight[child]:.1f} cases)")
            elif (depth + 1) * spacing + max_line(child) > _WIDTH:
                # R8 numbers at most 99 blocks and prints "[S??]" (dropping the
                # subtree) after that; c45 goes on numbering and prints them all.
                subtrees.append((child, base + depth + 1))
                lines.append(f"{text}[S{len(subtrees)}]")
            else:
                lines.append(text)
                stack.append((child, depth + 1, iter(ordered_branches(child))))
        return lines

    parts = ["\n".join(show(0)) + "\n"]
    s = 0
    while s < len(subtrees):            # blocks may refer to further blocks
        parts.append(f"\n\nSubtree [S{s + 1}]\n\n" + "\n".join(show(*subtrees[s])) + "\n")
        s += 1
    return "".join(parts)


def subset_test(name, values, prefix):
    """``name in {v1,v2,...}:``, wrapped as Release 8 wraps a long value list: a
    value that would take the test past 80 columns starts a new line, indented
    (after the branch's own indent ``prefix``) to sit under the first value.
    The columns are counted from the test's start, not the line's: Release 8
    prints deep subset tests whose lines reach column 94 unwrapped."""
    head = f"{name} in {{"
    parts, width = [head], len(head.encode())
    for i, v in enumerate(values):
        v += "," if i + 1 < len(values) else "}:"
        if i and width + len(v.encode()) > _WIDTH:
            parts.append("\n" + prefix + " " * len(head.encode()))
            width = len(head.encode())
        parts.append(v)
        width += len(v.encode())
    return "".join(parts)



def softening_text(clf, feature_names=None):
    """Release 8's "Softening thresholds" report of a tree with soft thresholds:
    each continuous test in depth-first branch order, its threshold and bounds."""
    check_is_fitted(clf, "tree_")
    t = clf.tree_
    if getattr(t, "lower", None) is None:
        raise ValueError("the tree has no soft thresholds (fit with "
                         "soft_thresholds=True)")
    names = _feature_names(clf, feature_names)
    lines = ["Softening thresholds", ""]
    stack = [0]
    while stack:
        node = stack.pop()
        if t.kind[node] == CONTINUOUS_KIND:
            lines += [f"Test {names[t.feature[node]]} <> {t.threshold[node]:g}",
                      f"\tLower = {t.lower[node]:g}, Upper = {t.upper[node]:g}", ""]
        first = t.first_child[node]
        stack.extend(range(first + t.n_children[node] - 1, first - 1, -1))
    return "\n".join(lines) + "\n"


def _depth_below(t, node):
    """Levels of tests below ``node`` and including it (explicit stack)."""
    deepest, stack = 0, [(node, 1)]
    while stack:
        n, d = stack.pop()
        if t.kind[n] == LEAF_KIND:
            continue
        deepest = max(deepest, d)
        first = t.first_child[n]
        stack.extend((first + b, d + 1) for b in range(t.n_children[n]))
    return deepest


def evaluation_table(clf, X, y, title="training data"):
    """C4.5's evaluation block: size and errors of the tree before and after
    pruning on (X, y), and the pruned tree's pessimistic estimate."""
    check_is_fitted(clf, "tree_")
    y = _as_objects(y)
    n = len(y)

    def block(tree_name):
        t = clf.grown_tree_ if tree_name == "grown" else clf.tree_
        pred = clf.predict(X, tree=tree_name)
        if pred.shape != y.shape:
            raise ValueError(f"X has {len(pred)} rows but y has shape {y.shape}")
        # compared chunk by chunk: one comparison of millions of labels as
        # objects is one call, deaf to Ctrl-C
        errors = sum(int(np.count_nonzero(pred[i:i + UNIQUE_CHUNK].astype(object)
                                          != y[i:i + UNIQUE_CHUNK]))
                     for i in range(0, n, UNIQUE_CHUNK))
        pct = 100.0 * errors / n if n else 0.0
        return f"{t.node_count:4d}  {errors:3d}({pct:4.1f}%)"

    t = clf.tree_
    estimate = 100.0 * t.errors[0] / t.weight[0] if t.weight[0] > 0 else 0.0
    return (f"Evaluation on {title} ({n} items):\n\n"
            "\t Before Pruning           After Pruning\n"
            "\t----------------   ---------------------------\n"
            "\tSize      Errors   Size      Errors   Estimate\n\n"
            f"\t{block('grown')}   {block('final')}    ({estimate:4.1f}%)   <<\n")
