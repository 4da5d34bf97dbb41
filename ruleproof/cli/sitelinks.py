"""Clause ids that link: every registered clause id on a page of the site becomes a link to its
entry in the per-source clause table (``gen/clauses/<document>.md#<anchor>``).

The mkdocs hook calls :func:`link_clause_ids` on every page's Markdown. What is never touched:
fenced code blocks, headings, HTML tags and ``<script>``/``<style>`` blocks, existing links
(``[text](target)``), inline code spans that hold anything but one clause id, and a clause id
right after ``>``. Ids that are not registered are left as
they are: the link is made only where its target exists.

>>> link_clause_ids("see `a-b:c.d` and a-b:c.d.", "gen/x.md", frozenset({"a-b:c.d"}))
'see [`a-b:c.d`](clauses/a-b.md#a-b-c-d) and [a-b:c.d](clauses/a-b.md#a-b-c-d).'
>>> link_clause_ids("```\\na-b:c.d\\n```", "index.md", frozenset({"a-b:c.d"}))
'```\\na-b:c.d\\n```'
"""

from __future__ import annotations

import posixpath
import re

__all__ = ["CLAUSES_DIR", "clause_anchor", "clause_page", "link_clause_ids"]

CLAUSES_DIR = "gen/clauses"
"""Where the per-source clause tables are generated (one page per document)."""

_ID = r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*:[a-z0-9][A-Za-z0-9_.-]*[A-Za-z0-9_]"
_PROTECTED = re.compile(
    r"(?ms)^(?P<fence>```|~~~).*?^(?P=fence)[^\n]*$"     # fenced code blocks
    r"|^\#{1,6}[ \t][^\n]*$"                             # a heading (ids in it stay text)
    r"|<(?P<blk>script|style)\b.*?</(?P=blk)>"         # script and style blocks
    r"|<[A-Za-z/!][^>]*>"                              # an HTML tag
    r"|!?\[[^\]\n]*\]\([^)\n]*\)"                      # an existing link or image
    r"|(?P<code>`+)(?P<span>[^`\n]+?)(?P=code)"        # an inline code span
)
_BARE = re.compile(rf"(?<![\w/#>.:\"'=-])(?P<id>{_ID})")
_WHOLE = re.compile(rf"\s*(?P<id>{_ID})\s*")


def clause_anchor(clause_id: str) -> str:
    """The HTML id of ``clause_id``'s row in its clause table: every run of characters other
    than ASCII letters and digits becomes one ``-``.

    >>> clause_anchor("du-en:ch1.continue")
    'du-en-ch1-continue'
    """
    return re.sub(r"[^A-Za-z0-9]+", "-", clause_id).strip("-")


def clause_page(clause_id: str) -> str:
    """The site path (``gen/clauses/<document>.md``) of the table holding ``clause_id``."""
    return f"{CLAUSES_DIR}/{clause_id.split(':', 1)[0]}.md"


def _target(clause_id: str, page: str) -> str:
    rel = posixpath.relpath(clause_page(clause_id), posixpath.dirname(page) or ".")
    return f"{rel}#{clause_anchor(clause_id)}"


def link_clause_ids(markdown: str, page: str, known: frozenset[str]) -> str:
    """``markdown`` with every registered clause id (in ``known``) turned into a link.

    Args:
        markdown: a page's Markdown source.
        page: the page's path in the site (``docs``-relative, ``/``-separated), for the
            relative link targets.
        known: every registered clause id.

    Returns:
        The Markdown with the links added; unchanged where nothing matched.
    """

    def bare(text: str) -> str:
        def one(m: re.Match[str]) -> str:
            cid = m.group("id")
            return f"[{cid}]({_target(cid, page)})" if cid in known else cid
        return _BARE.sub(one, text)

    out: list[str] = []
    last = 0
    for m in _PROTECTED.finditer(markdown):
        out.append(bare(markdown[last:m.start()]))
        chunk = m.group(0)
        span = m.group("span")
        if span is not None:
            whole = _WHOLE.fullmatch(span)
            before = markdown[m.start() - 1] if m.start() else ""
            if whole is not None and whole.group("id") in known and before not in ("[", ">"):
                chunk = f"[{chunk}]({_target(whole.group('id'), page)})"
        out.append(chunk)
        last = m.end()
    out.append(bare(markdown[last:]))
    return "".join(out)
