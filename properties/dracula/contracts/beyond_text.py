"""Rule option values of Dracula that go beyond what dracula-en's text allows, with the reason
(the capability ``"contracts"``'s ``beyond_text``; see
properties/dawn_under/contracts/beyond_text.py for the format)."""

from __future__ import annotations

BEYOND_TEXT: dict[str, dict[str, str]] = {}
