"""Sorts of Python values in bounded steps.

One sorted() call over millions of values (strings above all) runs for seconds
in C, where the interpreter handles no signal: Ctrl-C waits for it. Here no
call sorts more than SORT_CHUNK values, and signal handlers run between calls.
"""
import bisect

SORT_CHUNK = 1 << 16
MERGE_FAN = 16          # runs merged at a time


def sorted_in_chunks(values, key=None):
    """sorted(values, key=key), for values of distinct keys (a list or a range):
    chunks sorted, then merged MERGE_FAN runs at a time."""
    runs = [sorted(values[i:i + SORT_CHUNK], key=key)
            for i in range(0, len(values), SORT_CHUNK)]
    while len(runs) > 1:
        runs = [_merged(runs[i:i + MERGE_FAN], key)
                for i in range(0, len(runs), MERGE_FAN)]
    return runs[0] if runs else []


def _merged(runs, key):
    """Sorted runs of distinct keys as one, a step at a time: from each run, up
    to a share of a chunk, cut at the smallest key of the shares' last items
    (every item left is then above every item taken); sorted() merges the runs
    of a step in linear time."""
    step = max(1, SORT_CHUNK // len(runs))
    pos, out = [0] * len(runs), []
    while True:
        live = [r for r in range(len(runs)) if pos[r] < len(runs[r])]
        if not live:
            return out
        ends = [min(pos[r] + step, len(runs[r])) for r in live]
        cut = min((runs[r][e - 1] for r, e in zip(live, ends)), key=key)
        cut = cut if key is None else key(cut)
        piece = []
        for r, e in zip(live, ends):
            e = bisect.bisect_right(runs[r], cut, pos[r], e, key=key)
            piece += runs[r][pos[r]:e]
            pos[r] = e
        out += sorted(piece, key=key)
