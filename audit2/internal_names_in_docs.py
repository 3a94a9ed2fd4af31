"""Internal names in the user pages (issue 26.8 class): private module paths
(c45._x, c45/_x.py) and module constants (ALL_CAPS) named in docs/*.md (the
architecture page aside). Seen: ONLY_ACTS_WHEN and c45/_params.py
(parameters.md), c45._tree.Tree and c45/_tree_checks.pyx (model-format.md),
c45/_presorted.pyx (precision.md), c45.io._common.MAX_LINE_CHARS
(file-formats.md). Expected: none. Prints each one found.
"""
import pathlib, re

root = pathlib.Path(__file__).resolve().parent.parent
consts = set()
for f in list((root / "c45").rglob("*.py")) + list((root / "c45").rglob("*.pyx")):
    consts.update(re.findall(r"^(?:cdef\s+\w+\s+)?([A-Z][A-Z0-9_]{3,})\s*=", f.read_text(), re.M))
private = re.compile(r"c45\._(?!_)\w+|c45/_(?!_)\w+\.pyx?|\b(?:%s)\b" % "|".join(map(re.escape, consts)))
for page in sorted((root / "docs").glob("*.md")):
    if page.name != "architecture.md":
        for i, line in enumerate(page.read_text().splitlines(), 1):
            for m in private.findall(line):
                print(f"{page.name}:{i}: {m}")
