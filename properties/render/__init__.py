"""Pictures of positions and step-through captions, written once: the capability ``render``.

Presentation only: nothing here is part of the rules. A game's plugin record gives its
renderer as the capability ``render`` (a :class:`GameRender`, in ``properties/<game>/render.py``);
the one walk builder (:mod:`ruleproof.render.walk`: scenarios, traces and random play of any
game), the step-through page, ``ruleproof render`` and the documentation site reach the game
only through it. The SVG helpers the renderers draw with are :mod:`.svg` (keyed SVG elements,
:data:`~.svg.Picture`).

States handed to a renderer are the game's engine states (``GameState.model``, the states of
its scenario capability and of its conformance traces); actions are its typed actions.

A *view* is what one reader may see: view 0 is always ``everything``; the others are the
seats' views (hidden information). Views that know the same share one *picture*, so a frame
holds a caption and a picture per distinct picture, and :meth:`GameRender.views` says which
picture each view shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from ruleproof.errors import IllegalAction
from ruleproof.properties.render.svg import Canvas, Picture

CAPABILITY = "render"
"""The plugin capability the walk builder, ``ruleproof render`` and the site need."""


class GameRender(Protocol):
    """A game's pictures and captions (the capability ``render``).

    Attributes:
        random_steps: the most player actions a random walk of ``ruleproof render --random``
            draws.
        sample: (seed, player actions) of the sample position on the site's boards page.
        board_text: Markdown introducing the game's board on the boards page.
        sample_text: Markdown introducing the sample position's pictures there.
    """

    random_steps: int
    sample: tuple[int, int]
    board_text: str
    sample_text: str

    def views(self, start: Any, names: Sequence[str]) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The view labels (``everything`` first, then each seat's view, seats called by
        ``names`` where given) and the picture index each view shows (empty: view ``v`` shows
        picture ``v``)."""
        ...

    def canvas(self, start: Any) -> Canvas:
        """The picture size for a whole game from ``start`` (fixed, so frames line up)."""
        ...

    def pictures(self, state: Any, captions: Sequence[str], names: Sequence[str]
                 ) -> tuple[Picture, ...]:
        """``state`` drawn once per distinct picture, picture ``i`` titled ``captions[i]``.

        Raises:
            ValueError: a view the game does not have.
        """
        ...

    def prepare(self, state: Any, action: Any) -> Any:
        """The state ready for ``action``: automatic steps the game takes before it (chance
        drawn from the state's own seed, say), or ``state`` itself."""
        ...

    def step(self, state: Any, action: Any, number: int, names: Sequence[str]
             ) -> tuple[Any, tuple[str, ...]]:
        """(successor, a caption per picture) of action ``number`` (1-based), taken in
        ``state``; captions may differ per view (an action the other seats do not see).

        Raises:
            IllegalAction: the model refuses ``action`` (``state`` is untouched).
        """
        ...

    def refused(self, state: Any, action: Any, number: int, names: Sequence[str],
                err: IllegalAction, expected: str | None) -> tuple[str, ...]:
        """The captions (a caption per picture) of action ``number`` that the model refused
        with ``err``; ``expected`` is a clause id the scenario expects a refusal to cite."""
        ...

    def notes(self, start: Any, reading: str | None) -> tuple[str, ...]:
        """Lines under a walk's heading describing its rule set (``reading``: the scenario
        reading's name, None for random play)."""
        ...

    def board_svg(self, board: Path | None) -> str:
        """The board alone as an SVG document: the shipped one, or the board file ``board``
        (for a game whose plugin has the parameter ``board``).

        Raises:
            MalformedInput: a malformed board file, or a file for a game without board files.
        """
        ...


__all__ = ["CAPABILITY", "Canvas", "GameRender", "Picture"]
