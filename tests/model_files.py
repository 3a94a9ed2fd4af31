"""Model files made by hand (test helper): the checksum rules of
docs/model-format.md written out again here, apart from c45's own code, so that
the tests check c45 against the document.

Formats 2 and 3 (c45 writes 3; the checksum rule is 2's): the file ends with the member
``"checksum": "sha256:<hex>"``, and the digest is of the file's UTF-8 bytes
before the comma that precedes it. Format 1: the digest is of the document
without its checksum, written canonically (sorted keys, no spaces).
"""
import hashlib
import json
import re

MEMBER = re.compile(rb',[ \t\n\r]*"checksum"[ \t\n\r]*:[ \t\n\r]*'
                    rb'"sha256:([0-9a-f]{64})"[ \t\n\r]*}[ \t\n\r]*')


def body(doc):
    return {k: v for k, v in doc.items() if k != "checksum"}


def sealed(doc):
    """doc as format-2 text (json.dumps's defaults), its checksum recomputed as an
    attacker would."""
    head = json.dumps(body(doc))[:-1]                   # without the closing }
    digest = hashlib.sha256(head.encode("utf-8")).hexdigest()
    return f'{head}, "checksum": "sha256:{digest}"}}'


def checksum_matches(text):
    """Format 2's rule, as docs/model-format.md gives it."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    comma = data.rindex(b",", 0, data.rindex(b'"checksum"'))
    member = MEMBER.fullmatch(data, comma)
    return member is not None and \
        hashlib.sha256(data[:comma]).hexdigest() == member[1].decode()


def canonical_checksum(doc):
    """Format 1's checksum of doc."""
    canonical = json.dumps(body(doc), sort_keys=True, separators=(",", ":"),
                           ensure_ascii=False, allow_nan=False).encode("utf-8")
    return "sha256:" + hashlib.sha256(canonical).hexdigest()


def sealed_format1(doc):
    """doc as format-1 text, its checksum recomputed."""
    doc = dict(body(doc), format_version=1)
    doc["checksum"] = canonical_checksum(doc)
    return json.dumps(doc)
