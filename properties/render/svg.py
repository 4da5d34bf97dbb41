"""Minimal SVG writing: a picture is a mapping of sortable keys to SVG element strings.

Keys fix the drawing order (sorted ascending: later keys are drawn on top) and name each element,
so two pictures of successive positions can be compared element by element; the step-through
page (:mod:`ruleproof.render.page`) ships only the elements that change from one step to the
next. Plain string building, escaped with :func:`xml.sax.saxutils`; no dependency.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

Picture = dict[str, str]
"""key -> one SVG element (a complete ``<.../>`` or ``<...>...</...>`` string)."""


def attrs(**values: object) -> str:
    """``name="value"`` pairs, escaped; ``None`` values are left out and ``_`` becomes ``-``
    (``stroke_width=2`` -> ``stroke-width="2"``; ``cls`` -> ``class``)."""
    parts = []
    for name, value in values.items():
        if value is None:
            continue
        key = "class" if name == "cls" else name.rstrip("_").replace("_", "-")
        parts.append(f"{key}={quoteattr(str(value))}")
    return " ".join(parts)


def el(tag: str, body: str | None = None, *, title: str | None = None, **values: object) -> str:
    """One element; ``body`` is inner SVG (already escaped), ``title`` a tooltip (plain text)."""
    inner = (f"<title>{escape(title)}</title>" if title else "") + (body or "")
    if not inner:
        return f"<{tag} {attrs(**values)}/>"
    return f"<{tag} {attrs(**values)}>{inner}</{tag}>"


def text(x: float, y: float, content: str, *, size: float = 11, fill: str = "#222",
         anchor: str = "middle", weight: str | None = None, title: str | None = None) -> str:
    """A text element (content is plain text, escaped here)."""
    return el("text", escape(content), title=title, x=f"{x:g}", y=f"{y:g}", font_size=f"{size:g}",
              fill=fill, text_anchor=anchor, font_weight=weight,
              font_family="DejaVu Sans, Verdana, sans-serif")


@dataclass(frozen=True)
class Canvas:
    """The size of a picture in pixels (the SVG viewBox starts at 0, 0)."""

    width: int
    height: int

    def open_tag(self, label: str) -> str:
        """The ``<svg>`` start tag, with ``label`` as its accessible name."""
        box = f"0 0 {self.width} {self.height}"
        head = attrs(viewBox=box, width=self.width, height=self.height, role="img")
        return f'<svg xmlns="http://www.w3.org/2000/svg" {head} aria-label={quoteattr(label)}>'


def document(picture: Picture, canvas: Canvas, label: str) -> str:
    """A complete SVG document: the elements of ``picture`` in key order."""
    body = "".join(picture[k] for k in sorted(picture))
    return f"{canvas.open_tag(label)}{body}</svg>"


CSS_COLOURS = {"red": "#d23a2f", "yellow": "#f2cf3a", "white": "#f4f1ea", "blue": "#2f6fd2",
               "green": "#3c9a45", "black": "#1d1d1d", "grey": "#8d8d8d", "gray": "#8d8d8d",
               "purple": "#7b3fa0", "orange": "#e48a2a", "brown": "#7a5230"}
"""Fill colours for colour names used by the games (others are passed to SVG unchanged)."""


def fill_of(name: str) -> str:
    """The fill for a colour name."""
    return CSS_COLOURS.get(name.lower(), name)


def ink_on(name: str) -> str:
    """A readable text colour on a fill of colour ``name``."""
    return "#111" if name.lower() in ("yellow", "white", "orange", "grey", "gray") else "#fff"
