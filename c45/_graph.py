"""Drawing a fitted tree: Graphviz DOT text and a matplotlib figure.

Both show, per node, the test (feature) or the leaf's class, the case weight N
reaching it (C4.5's Items) and its class distribution, and on each edge the
branch values: categories (multiway), category subsets (``subset_splits=True``)
or ``<= t`` / ``> t``. A picture cannot show C4.5's fractional routing of
unknown values; both outputs say how it works, in a note, since the N on each
node is what the fractions are made of.
"""
import math
import warnings

from c45._export import tree_class_names
from c45._serialize import (_branch_groups, _feature_names, _pick_tree, check_count,
                            threshold_text)
from c45._tree import CONTINUOUS_KIND, LEAF_KIND

MIN_FONTSIZE = 6.0        # plot_tree warns when a tree shrinks its text below this

MISSING_NOTE = ("This picture cannot route missing or unseen values: C4.5 sends them "
                "down every branch, weighted by the child's N / the node's N.")

# Class colours (tab10), blended with white by the node's purity.
_PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
            "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")


def _num(x, precision):
    """Case weight as text: integers plainly, fractions to `precision` decimals."""
    x = float(x)
    if x == round(x) and abs(x) < 1e15:
        return str(int(round(x)))
    s = f"{x:.{precision}f}".rstrip("0").rstrip(".")
    if s in ("0", "-0"):                   # a small fraction: significant digits
        s = f"{x:.{max(precision, 1)}g}"
    return s


def _threshold(t, precision, f32):
    """A cut as text: ``precision`` decimals (as scikit-learn's exporters round
    thresholds), or exact when ``precision`` is None."""
    if precision is None:
        return threshold_text(t, f32)
    return _num(t, precision)


def _wrap(items, per_line, sep):
    return [sep.join(items[i:i + per_line]) for i in range(0, len(items), per_line)]


LABELS = ("all", "root", "none")


def _entropy(v):
    """The entropy (bits) of a class distribution."""
    total = float(sum(v))
    return -sum(x / total * math.log2(x / total) for x in v if x > 0) if total > 0 else 0.0


class _Layout:
    """The nodes to draw, in preorder, with their texts, colours and positions."""

    def __init__(self, clf, tree, feature_names, class_names, max_depth, precision,
                 label="all", impurity=False, node_ids=False, proportion=False):
        if not isinstance(label, str) or label not in LABELS:
            raise ValueError(f"label must be one of {list(LABELS)}, got {label!r}")
        self.label = label
        self.impurity, self.node_ids, self.proportion = (
            bool(impurity), bool(node_ids), bool(proportion))
        t = _pick_tree(clf, tree)
        self.names = _feature_names(clf, feature_names)
        self.class_names = [str(c) for c in tree_class_names(clf, class_names)]
        check_count("max_depth", max_depth)
        check_count("precision", precision)
        self.t, self.clf, self.precision = t, clf, precision
        self.decimals = 2 if precision is None else int(precision)   # case weights
        self.f32 = clf._fit_value("precision") == "float32"
        # Preorder records: node, depth, parent record, edge label, truncated.
        self.records = []
        stack = [(0, 0, -1, None)]
        while stack:
            node, depth, parent, edge = stack.pop()
            truncated = max_depth is not None and depth > max_depth
            self.records.append(dict(node=node, depth=depth, parent=parent, edge=edge,
                                     truncated=truncated))
            if t.kind[node] != LEAF_KIND and not truncated:
                me = len(self.records) - 1
                for label, child in reversed(self.branches(node)):
                    stack.append((child, depth + 1, me, label))
        self._place()

    def branches(self, node):
        """(edge label, child) for each branch shown: subset branches holding no
        category are not (C4.5 does not print them; they carry no weight)."""
        t = self.t
        first = int(t.first_child[node])
        f = int(t.feature[node])
        if t.kind[node] == CONTINUOUS_KIND:
            s = _threshold(t.threshold[node], self.precision, self.f32)
            return [(f"<= {s}", first), (f"> {s}", first + 1)]
        out = []
        for b, group in enumerate(_branch_groups(t, node, self.clf.categories_[f])):
            if not group:
                continue
            values = [str(v) for v in group]
            label = values[0] if len(values) == 1 else \
                "{" + ",\n".join(_wrap(values, 3, ", ")) + "}"
            out.append((label, first + b))
        return out

    def _place(self):
        """x: leaves in consecutive slots, a test centred over its children; y: depth."""
        recs = self.records
        children = [[] for _ in recs]
        for i, r in enumerate(recs):
            if r["parent"] >= 0:
                children[r["parent"]].append(i)
        slot = 0
        for i, r in enumerate(recs):               # leaves left to right (preorder)
            if not children[i]:
                r["x"] = float(slot)
                slot += 1
        for i in range(len(recs) - 1, -1, -1):
            if children[i]:
                xs = [recs[c]["x"] for c in children[i]]
                recs[i]["x"] = (xs[0] + xs[-1]) / 2.0
        self.children = children
        self.n_slots = slot
        self.depth = max(r["depth"] for r in recs)

    def lines(self, rec):
        """The text of a node, line by line: its id (node_ids), the feature tested
        or the leaf's class, its entropy (impurity), N and the class distribution
        (as shares with proportion), labelled as `label` says."""
        t, node = self.t, rec["node"]
        if rec["truncated"]:
            return ["(...)"]
        labels = self.label == "all" or (self.label == "root" and rec["parent"] < 0)
        d = self.decimals
        out = []
        if self.node_ids:
            out.append(f"node #{node}" if labels else str(node))
        if t.kind[node] == LEAF_KIND:
            out.append(self.class_names[t.node_class[node]])
        else:
            out.append(self.names[t.feature[node]])
        weight = float(t.weight[node])
        if self.impurity and weight > 0:
            h = _num(_entropy(t.value[node]), d)
            out.append(f"entropy = {h}" if labels else h)
        root = float(t.weight[0])
        n = (_num(100.0 * weight / root, d) + "%" if root > 0 else "0%") \
            if self.proportion else _num(weight, d)
        out.append(f"N = {n}" if labels else n)
        if weight <= 0:
            return out                 # an empty leaf: no cases, it answers its class
        v = t.value[node]
        total = float(v.sum())
        shares = [x / total for x in v] if self.proportion else list(v)
        if labels:
            # "class: weight", so that integer classes read clearly (0: 4 · 1: 139).
            dist = [f"{self.class_names[c]}: {_num(x, d)}"
                    for c, x in enumerate(shares) if v[c] > 0]
            out += _wrap(dist, 3, " \u00b7 ")
        else:
            out.append("[" + ", ".join(_num(x, d) for x in shares) + "]")
        return out

    def colour(self, rec):
        """Fill colour: the node's class colour, paler the less pure the node."""
        t, node = self.t, rec["node"]
        v = t.value[node]
        total = v.sum()
        k = len(v)
        share = v.max() / total if total > 0 and t.weight[node] > 0 else 1.0 / k
        alpha = (share - 1.0 / k) / (1.0 - 1.0 / k) if k > 1 else 1.0
        alpha = 0.15 + 0.6 * max(0.0, min(1.0, alpha))
        base = _PALETTE[int(t.node_class[node]) % len(_PALETTE)]
        rgb = [int(base[i:i + 2], 16) for i in (1, 3, 5)]
        mixed = [round(255 - alpha * (255 - c)) for c in rgb]
        return "#" + "".join(f"{c:02x}" for c in mixed)


# ---------------------------------------------------------------------------
# Graphviz

def _dot_quote(s):
    s = str(s).replace("\\", "\\\\").replace('"', '\\"')
    return '"' + s.replace("\r", "").replace("\n", "\\n") + '"'


def export_graphviz(clf, out_file=None, *, tree="final", feature_names=None,
                    class_names=None, max_depth=None, label="all", filled=False,
                    impurity=False, node_ids=False, proportion=False, rounded=True,
                    precision=3, rotate=False, fontname="Helvetica", note=True):
    """The tree in Graphviz's DOT language.

    Each node shows its test's feature (a leaf: its class), ``N``, the case
    weight reaching it (C4.5's Items, fractional where unknown values were
    split), and its class distribution; each edge its branch values: a category
    (one edge per category of a multiway test), ``{a, b}`` for a subset branch,
    ``<= t`` / ``> t`` for a continuous cut (``t`` to ``precision`` decimals).
    Render it with the ``graphviz`` package or the ``dot`` program, e.g.
    ``graphviz.Source(export_graphviz(clf)).render("tree", format="png")``.

    Missing and unseen values are not routed by the picture: with ``note=True``
    a caption (and a DOT comment) says how C4.5 routes them, every branch
    weighted by its N over the node's N, which the drawn N values allow to follow.

    Parameters
    ----------
    clf : fitted C45Classifier
    out_file : str, path or file object, optional
        Where to write the DOT text; None returns it.
    tree : {"final", "grown"}, default="final"
    feature_names, class_names : list of str, optional
        Displayed names (defaults: ``feature_names_in_`` or ``x0, ...``;
        ``declared_classes_``, in whose order given class names are).
    max_depth : int, optional
        Draw nodes down to this depth; deeper subtrees become ``(...)``.
    label : {"all", "root", "none"}, default="all"
        Where the values are labelled (``N = 14``, ``entropy = 0.94``, ``Play: 9``):
        at every node, at the root only, or nowhere (then ``14`` and the class
        distribution as ``[9, 5]``, in the order of ``declared_classes_``), as
        scikit-learn's ``label``.
    filled : bool, default=False
        Fill nodes with their class colour, paler when less pure.
    impurity : bool, default=False
        Show each node's entropy in bits (of its class weights). Off by default,
        unlike scikit-learn's, so that a node shows what C4.5 prints of it: N
        and the class distribution (from which the entropy follows).
    node_ids : bool, default=False
        Show each node's index in the tree (``node #3``: the index ``apply``
        returns and ``tree_``'s arrays use).
    proportion : bool, default=False
        Show N as a percentage of the root's and the class distribution as
        shares of the node's weight.
    rounded : bool, default=True
    precision : int or None, default=3
        Decimals of thresholds, of fractional case weights, entropies and shares
        (as scikit-learn's ``precision``); None prints each threshold exactly
        (the shortest decimal that reads back as the stored value).
    rotate : bool, default=False
        Left to right instead of top down.
    fontname : str, default="Helvetica"
        Graphviz picks a fallback font (fontconfig) for characters it lacks, so
        CJK names render where a CJK font is installed.
    note : bool, default=True
        Add the caption on missing values.

    Returns
    -------
    str or None
    """
    lay = _Layout(clf, tree, feature_names, class_names, max_depth, precision, label,
                  impurity, node_ids, proportion)
    style = ["filled"] if filled else []
    if rounded:
        style.append("rounded")
    font = _dot_quote(fontname)
    out = ["digraph C45Tree {"]
    if note:
        out.append("// " + MISSING_NOTE)
    node_attr = ["shape=box"]
    if style:
        node_attr.append(f"style={_dot_quote(', '.join(style))}")
    node_attr += ['color="black"', f"fontname={font}"]
    out.append(f"node [{', '.join(node_attr)}] ;")
    out.append(f"edge [fontname={font}] ;")
    if rotate:
        out.append("rankdir=LR ;")
    if note:
        out.append(f"label={_dot_quote(MISSING_NOTE)} ;")
        out.append(f'labelloc="b" ; fontname={font} ; fontsize=10 ;')
    for i, rec in enumerate(lay.records):
        attrs = [f"label={_dot_quote(chr(10).join(lay.lines(rec)))}"]
        if filled:
            attrs.append(f'fillcolor="{lay.colour(rec)}"')
        out.append(f"{i} [{', '.join(attrs)}] ;")
        if rec["parent"] >= 0:
            out.append(f"{rec['parent']} -> {i} [label={_dot_quote(rec['edge'])}] ;")
    out.append("}")
    text = "\n".join(out) + "\n"
    if out_file is None:
        return text
    if hasattr(out_file, "write"):
        out_file.write(text)
    else:
        from c45._files import atomic_write
        with atomic_write(out_file) as fh:
            fh.write(text)
    return None


# ---------------------------------------------------------------------------
# matplotlib

_CJK_FAMILIES = ("Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans CJK TC",
                 "Noto Sans CJK KR", "Noto Sans SC", "Source Han Sans SC",
                 "Source Han Sans CN", "Source Han Sans", "WenQuanYi Zen Hei",
                 "WenQuanYi Micro Hei", "Microsoft YaHei", "SimHei", "PingFang SC",
                 "Heiti SC", "Hiragino Sans GB", "Noto Serif CJK SC", "Noto Serif CJK JP",
                 "AR PL UMing CN", "AR PL UKai CN", "Droid Sans Fallback",
                 "Arial Unicode MS", "SimSun")
_CJK_FILES = ("notosanscjk", "notoserifcjk", "sourcehansans", "wqy", "msyh", "simhei",
              "simsun", "pingfang", "droidsansfallback", "uming", "ukai",
              "notosanssc", "arialuni")
_cjk_font_cache = []


def _needs_cjk(texts):
    return any(ord(ch) >= 0x2E80 for s in texts for ch in s)


def _cjk_font():
    """A font family name that covers CJK, or None: from matplotlib's font list,
    else from the system's font files (which matplotlib may not have indexed)."""
    if _cjk_font_cache:
        return _cjk_font_cache[0]
    from matplotlib import font_manager as fm
    found = None
    have = {f.name for f in fm.fontManager.ttflist}
    for name in _CJK_FAMILIES:
        if name in have:
            found = name
            break
    if found is None:
        try:
            files = sorted(fm.findSystemFonts())
        except Exception:                              # pragma: no cover
            files = []
        for path in files:
            low = path.replace("-", "").replace("_", "").lower()
            if any(key in low for key in _CJK_FILES) and "bold" not in low:
                try:
                    fm.fontManager.addfont(path)
                    found = fm.FontProperties(fname=path).get_name()
                    break
                except Exception:                      # an unreadable font file
                    continue
    _cjk_font_cache.append(found)
    return found


def plot_tree(clf, *, tree="final", ax=None, feature_names=None, class_names=None,
              max_depth=None, label="all", filled=False, impurity=False, node_ids=False,
              proportion=False, rounded=True, precision=3, fontsize=None,
              fontfamily=None, note=True):
    """Draw the tree with matplotlib (imported only when called).

    Shows the same as :func:`export_graphviz`: per node the feature tested (a
    leaf: its class), N and the class distribution; per edge the branch values.
    Every subtree gets a band as wide as its widest row of boxes, so multiway
    nodes fan out without overlapping. It draws on ``ax``, else on the current
    axes (``plt.gca()``) when a figure is open, as scikit-learn's ``plot_tree``
    does; with no figure open it makes one sized to the tree (up to 60 x 40
    inches). The font shrinks until the tree fits; below 6 pt a warning gives
    the figure size that keeps the text readable and a ``max_depth`` that fits.

    Feature or class names in Chinese, Japanese or Korean need a CJK font: one
    is looked up among the installed fonts (Noto Sans CJK, Source Han Sans,
    WenQuanYi, SimHei, ...) and used as a fallback after DejaVu Sans; without
    one a warning says so and those characters are drawn as boxes.

    Parameters
    ----------
    clf : fitted C45Classifier
    tree : {"final", "grown"}, default="final"
    ax : matplotlib Axes, optional
        Drawn into; by default the current axes, or a new figure sized to the
        tree when no figure is open.
    feature_names, class_names, max_depth, label, filled, impurity, node_ids,
    proportion, rounded, precision, note :
        As in :func:`export_graphviz`.
    fontsize : float, optional
        Font size of the node texts; by default 10, shrunk to fit ``ax``.
    fontfamily : str or list of str, optional
        Overrides the font choice.

    Returns
    -------
    list of matplotlib Text
        The node boxes, in preorder.
    """
    from c45._optional import require
    plt = require("matplotlib.pyplot", "plot_tree")

    lay = _Layout(clf, tree, feature_names, class_names, max_depth, precision, label,
                  impurity, node_ids, proportion)
    recs = lay.records
    texts = ["\n".join(lay.lines(r)) for r in recs]
    edges = [r["edge"] or "" for r in recs]
    if fontfamily is None and _needs_cjk(texts + edges):
        cjk = _cjk_font()
        if cjk is None:
            warnings.warn("plot_tree: no CJK font found (install one, e.g. Debian's "
                          "fonts-noto-cjk); CJK characters will show as boxes",
                          UserWarning, stacklevel=2)
        else:
            fontfamily = ["DejaVu Sans", cjk]
    font = {} if fontfamily is None else {"fontfamily": fontfamily}
    size = 10.0 if fontsize is None else float(fontsize)
    # As scikit-learn's plot_tree: draw on the current axes (plt.gca()) when a
    # figure is open; only without one is a figure made, sized to the tree.
    own_figure = ax is None and not plt.get_fignums()
    if own_figure:
        fig = plt.figure(figsize=(6.0, 4.0))
        ax = fig.add_axes((0.01, 0.01, 0.98, 0.98))
    elif ax is None:
        ax = plt.gca()
    fig = ax.figure
    ax.set_axis_off()

    box = dict(boxstyle="round,pad=0.35" if rounded else "square,pad=0.35",
               edgecolor="black", linewidth=0.8)
    nodes = [ax.text(0, 0, texts[i], ha="center", va="center", fontsize=size,
                     zorder=3, bbox=dict(box, facecolor=lay.colour(r) if filled
                                         else "white"), **font)
             for i, r in enumerate(recs)]
    labels = [None] + [ax.text(0, 0, edges[i], ha="center", va="center",
                               fontsize=size * 0.9, zorder=2, color="0.1",
                               bbox=dict(boxstyle="round,pad=0.15", facecolor="white",
                                         edgecolor="none"), **font)
                       for i in range(1, len(recs))]
    caption = None
    if note:
        caption = ax.text(0.0, 0.0, MISSING_NOTE, transform=ax.transAxes, ha="left",
                          va="bottom", fontsize=size * 0.75, color="0.35",
                          style="italic", **font)

    # Measure every box at this font size (pixels) and lay the tree out in pixels.
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    node_w = [a.get_bbox_patch().get_window_extent(renderer).width for a in nodes]
    node_h = [a.get_bbox_patch().get_window_extent(renderer).height for a in nodes]
    edge_w = [0.0] + [a.get_window_extent(renderer).width for a in labels[1:]]
    edge_h = max([a.get_window_extent(renderer).height for a in labels[1:]] or [0.0])
    cap_h = caption.get_window_extent(renderer).height if caption is not None else 0.0
    gap = size * fig.dpi / 72.0 * 1.2
    box_h = max(node_h)
    level = box_h + edge_h + 2.0 * gap

    children = lay.children
    width = [0.0] * len(recs)
    for i in range(len(recs) - 1, -1, -1):        # children before parents
        need = max(node_w[i], edge_w[i]) + gap
        width[i] = max(need, sum(width[c] for c in children[i]))
    left = [0.0] * len(recs)
    xs, ys = [0.0] * len(recs), [0.0] * len(recs)
    for i, r in enumerate(recs):                  # parents before children
        xs[i] = left[i] + width[i] / 2.0
        ys[i] = -r["depth"] * level
        start = left[i] + (width[i] - sum(width[c] for c in children[i])) / 2.0
        for c in children[i]:
            left[c] = start
            start += width[c]
    total_w = width[0]
    top = box_h / 2.0 + gap / 2.0
    bottom = -lay.depth * level - box_h / 2.0 - gap / 2.0 - (cap_h + gap if note else 0.0)
    total_h = top - bottom

    if own_figure:
        w_in, h_in = total_w / fig.dpi / 0.98, total_h / fig.dpi / 0.98
        shrink = min(1.0, 60.0 / w_in, 40.0 / h_in)
        fig.set_size_inches(max(w_in * shrink, 4.0), max(h_in * shrink, 2.0))
        ax_w = max(w_in * shrink, 4.0) * 0.98 * fig.dpi
        ax_h = max(h_in * shrink, 2.0) * 0.98 * fig.dpi
    else:
        bb = ax.get_window_extent(renderer)
        ax_w, ax_h = bb.width, bb.height
    # Fill the axes: data units are pixels at `size`, stretched to the axes; the
    # font follows the tighter of the two stretches, so nothing overlaps.
    scale = min(ax_w / total_w, ax_h / total_h)
    ax.set_xlim(0.0, total_w)
    ax.set_ylim(bottom, top)
    if fontsize is None and scale < 1.0:
        new = size * scale
        if new < MIN_FONTSIZE:
            w_now, h_now = fig.get_size_inches()
            grow = MIN_FONTSIZE / new
            warnings.warn(
                f"plot_tree: the tree ({lay.n_slots} leaves, depth {lay.depth}) "
                f"shrinks the text to {new:.1f} pt to fit; for {MIN_FONTSIZE:g} pt "
                f"give a figure of about {w_now * grow:.0f} x {h_now * grow:.0f} "
                f"inches (plt.figure(figsize=({w_now * grow:.0f}, "
                f"{h_now * grow:.0f}))), or draw the top levels with "
                f"max_depth={_depth_that_fits(lay, 1.0 / grow)}",
                UserWarning, stacklevel=2)
        for a in nodes:
            a.set_fontsize(new)
        for a in labels[1:]:
            a.set_fontsize(new * 0.9)
        if caption is not None:
            caption.set_fontsize(new * 0.75)

    for i, r in enumerate(recs):
        nodes[i].set_position((xs[i], ys[i]))
        if r["parent"] < 0:
            continue
        p = r["parent"]
        # The branch value sits on the child's box; the edge runs from the
        # parent's box (which hides its start) to the value.
        y = ys[i] + node_h[i] / 2.0 + gap * 0.25 + edge_h / 2.0
        labels[i].set_position((xs[i], y))
        ax.plot([xs[p], xs[i]], [ys[p], y], color="0.35", linewidth=0.8, zorder=1)
    if caption is not None:
        caption.set_transform(ax.transData)
        caption.set_position((gap / 4.0, bottom + gap / 4.0))
        fig.canvas.draw()
        _fit_caption(ax, caption, fig.canvas.get_renderer())
    return nodes


def _depth_that_fits(lay, need):
    """The largest max_depth whose drawing is about ``need`` times as wide as the
    whole tree's, or less (leaf slots as the measure of width)."""
    best = 0
    for d in range(lay.depth):
        # Drawn with max_depth=d: the leaves down to depth d, and every node at
        # depth d + 1 (a leaf, or "(...)" for its subtree).
        slots = sum(1 for i, r in enumerate(lay.records)
                    if r["depth"] == d + 1 or (r["depth"] <= d and not lay.children[i]))
        if slots <= max(1.0, need * lay.n_slots):
            best = d
    return best


def _fit_caption(ax, caption, renderer):
    """Wrap the caption onto two lines, then shrink it, to fit the axes' width."""
    room = ax.get_window_extent(renderer).width
    if caption.get_window_extent(renderer).width > room and "\n" not in caption.get_text():
        caption.set_text(MISSING_NOTE.replace(": ", ":\n", 1))
    width = caption.get_window_extent(renderer).width
    if width > room:
        caption.set_fontsize(max(4.0, caption.get_fontsize() * room / width * 0.97))
