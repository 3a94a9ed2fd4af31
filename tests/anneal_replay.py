"""Replay c4.5rules -a schedules against Release 8's outputs on the R8 corpus.

    python tests/anneal_replay.py [--seed S] [SCHEDULE ...]

For each problem, c45 builds the rules (``c45 rules -a``), then each schedule
anneals every class of more than 10 rules in class order, with one glibc
``random()`` stream per problem continuing across classes as in Release 8 (which
never seeds it: ``--seed 1``). A class is equal when its subset is the one
Release 8 printed (its final rules are printed before any is dropped, so they are
the selected subsets). Prints, per schedule, the annealed classes and problems
equal and the problems that differ. SCHEDULES lists the schedules; ``package`` is
c45's own (SubsetSearch.anneal). A few seconds per schedule.

This is how the schedule in c45.rules._selection was fitted: ``end`` (the climb
from where the walk stops) gives 291 of the 316 classes, ``package`` all 316; with
another seed, ``package`` gives far fewer (the draws matter, not only the search).
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import r8_corpus as corpus                      # noqa: E402
from c45._glibc_random import GlibcRandom       # noqa: E402
from c45.rules import _builder                  # noqa: E402
from c45.rules._selection import _EXHAUSTIVE_MAX, SubsetSearch   # noqa: E402


class Problem:
    """One problem's annealed classes: their searches and Release 8's subsets."""

    def __init__(self, name):
        kept = []
        run = _builder.RuleBuilder.run

        def keep(builder):
            kept.append(builder)
            return run(builder)

        _builder.RuleBuilder.run = keep
        try:
            corpus.rules_run(name, "rules-a")
        finally:
            _builder.RuleBuilder.run = run
        b = kept[0]
        text = corpus.r8_text(name, "rules-a")
        part = text[text.index("Final rules from tree 0:"):text.index("Default class:")]
        printed = {int(line.split()[1].rstrip(":")) for line in part.splitlines()
                   if line.startswith("Rule ")}
        self.name = name
        self.searches, self.targets = [], []
        for c in range(b.k):
            mine = [r for r in b.rules if r.class_index == c]
            if len(mine) <= _EXHAUSTIVE_MAX:          # the exhaustive search, no draws
                continue
            cover = np.array([b.active[r.number] for r in mine]).reshape(len(mine), len(b.y))
            self.searches.append(SubsetSearch(cover, [r.bits for r in mine], b.y == c,
                                              b.lengths))
            self.targets.append([i for i, r in enumerate(mine) if r.number in printed])


def schedule(**constants):
    """SubsetSearch.anneal with some of its constants (start, cooling, stop,
    rejections, climb_from) set otherwise: the subset it chooses."""
    return lambda s, rng: s.anneal(rng, **constants)[0]


SCHEDULES = {
    "package": schedule(),
    "end": schedule(climb_from="end"),
    "no-climb": schedule(climb_from=None),
    "stop-99": schedule(rejections=99),
    "stop-101": schedule(rejections=101),
}


def score(problems, anneal, seed=1):
    """(classes equal, annealed classes, problems that differ)."""
    equal = total = 0
    differ = []
    for p in problems:
        rng = GlibcRandom(seed)
        same = [sorted(int(i) for i in anneal(s, rng)) == t
                for s, t in zip(p.searches, p.targets)]
        equal += sum(same)
        total += len(same)
        if not all(same):
            differ.append(p.name)
    return equal, total, differ


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("schedules", nargs="*", default=["package"], choices=list(SCHEDULES))
    args = ap.parse_args(argv)
    problems = [p for p in map(Problem, corpus.problems()) if p.searches]
    for name in args.schedules:
        equal, total, differ = score(problems, SCHEDULES[name], args.seed)
        print(f"{name}: classes {equal}/{total}, problems "
              f"{len(problems) - len(differ)}/{len(problems)} with annealed classes; "
              f"differ: {' '.join(differ) or 'none'}")


if __name__ == "__main__":
    main()
