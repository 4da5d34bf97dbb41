"""Games as sequences of frames, for step-through pages: from scenario files, traces and random
play of any registered game.

A :class:`Walk` is one line of play: a caption per step and per view, and a picture
(:data:`~ruleproof.properties.render.svg.Picture`) per step and view. View 0 is always
"everything"; the others are the seats' views (hidden information). An action the model
rejects (a scenario's expected refusal) becomes a frame of its own that shows the unchanged
position and the clauses it cites, and the walk goes on from the same position.

One builder, :func:`walk`, steps any game: the game's pictures, views and captions come from
the capability ``render`` of its plugin record (:class:`ruleproof.properties.render.GameRender`),
scenarios from the one scenario loader, traces from the trace reader, random play from
:func:`ruleproof.properties.simulate.play` over the game interface.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.properties.plugin import make_game, plugin, require
from ruleproof.properties.render import CAPABILITY, GameRender
from ruleproof.properties.render.svg import Canvas, Picture
from ruleproof.spec.formats import not_a_file


@dataclass(frozen=True)
class Frame:
    """One step: ``captions[i]`` and ``pictures[i]`` for each distinct picture ``i`` (views
    that know the same share a picture, see :attr:`Walk.shows`)."""

    captions: tuple[str, ...]
    pictures: tuple[Picture, ...]


@dataclass(frozen=True)
class Walk:
    """One line of play.

    Attributes:
        title: heading (scenario title and reading).
        game: the game's name.
        views: view labels, ``everything`` first.
        canvas: picture size (the same for every frame).
        frames: frame 0 is the start position; frame ``k`` follows the ``k``-th action.
        notes: lines shown under the page heading (clauses, rule set, result).
        shows: the picture index each view shows (empty: view ``v`` shows picture ``v``).
    """

    title: str
    game: str
    views: tuple[str, ...]
    canvas: Canvas
    frames: tuple[Frame, ...]
    notes: tuple[str, ...] = ()
    shows: tuple[int, ...] = ()

    def picture_index(self, view: int) -> int:
        """The picture ``view`` shows (raises IndexError for an unknown view)."""
        if not 0 <= view < len(self.views):
            raise IndexError(f"no view {view}")
        return self.shows[view] if self.shows else view

    def picture(self, step: int, view: int) -> Picture:
        """The picture of ``view`` at ``step``."""
        return self.frames[step].pictures[self.picture_index(view)]

    def caption(self, step: int, view: int) -> str:
        """The caption of ``view`` at ``step``."""
        return self.frames[step].captions[self.picture_index(view)]


def renderer(game: str) -> GameRender:
    """The capability ``render`` of ``game``.

    Raises:
        MalformedInput: an unknown game (naming the known ones) or a game without pictures.
    """
    found: GameRender = require(plugin(game), CAPABILITY, "pictures of its positions")
    return found


def picture_count(views: tuple[str, ...], shows: tuple[int, ...]) -> int:
    """How many distinct pictures a frame holds."""
    return max(shows) + 1 if shows else len(views)


def walk(game: str, title: str, start: Any, actions: Sequence[Any], names: Sequence[str] = (),
         notes: Sequence[str] = (), expected: str | None = None) -> Walk:
    """Step ``actions`` (the game's typed actions) from ``start`` (its engine state). A
    rejected action gives a frame saying so (with the clauses it cites; ``expected`` is a
    clause a scenario expects a refusal to cite) and play goes on from the same state.

    Raises:
        MalformedInput: an unknown game or one without the capability ``render``.
    """
    r = renderer(game)
    views, shows = r.views(start, names)
    opening = (f"start: {title}",) * picture_count(views, shows)
    state = start
    frames = [Frame(opening, r.pictures(state, opening, names))]
    for number, action in enumerate(actions, start=1):
        state = r.prepare(state, action)
        try:
            new, captions = r.step(state, action, number, names)
        except IllegalAction as err:
            captions = r.refused(state, action, number, names, err, expected)
            frames.append(Frame(captions, r.pictures(state, captions, names)))
            continue
        state = new
        frames.append(Frame(captions, r.pictures(state, captions, names)))
    return Walk(title, game, views, r.canvas(start), tuple(frames), tuple(notes), shows)


def scenario_walks(path: Path) -> list[Walk]:
    """One walk per reading of a scenario file of any game (the one scenario format,
    :func:`ruleproof.properties.scenarios.load`). A scenario action that stands for several
    steps (its parsed form is a tuple) gives a frame per step.

    Raises:
        MalformedInput: a malformed file (FILE:LINE:COL).
    """
    from ruleproof.properties.scenarios import load

    sc = load(path)
    r = renderer(sc.game)
    actions: list[Any] = []
    for parsed, _, _ in sc.actions:
        actions += list(parsed) if isinstance(parsed, tuple | list) else [parsed]
    walks = []
    for reading in sc.readings:
        title = sc.title if len(sc.readings) == 1 else f"{sc.title} -- reading {reading.name}"
        notes = [f"file: {_short(path)}", *r.notes(reading.start, reading.name),
                 "clauses: " + (", ".join(sc.clauses) or "none listed")]
        if reading.refusals:
            notes.append("expected rejections: " + ", ".join(
                f"action {n + 1} by {', '.join(c)}" for n, c in sorted(reading.refusals.items())))
        expected = next((c[0] for c in reading.refusals.values() if c), None)
        walks.append(walk(sc.game, title, reading.start, actions, sc.names, notes, expected))
    return walks


def random_walk(game: str, params: dict[str, Any], seed: int,
                max_steps: int | None = None) -> Walk:
    """A random legal game (same seed, same game): the seeded set-up of the game made from
    ``params``, then the moves of its capability ``simulate`` drawn from ``random.Random(seed)``,
    at most ``max_steps`` (default: the renderer's ``random_steps``) player actions.

    Raises:
        MalformedInput: an unknown game, a bad parameter, or a game without the capabilities
            ``render`` and ``simulate``.
    """
    from ruleproof.properties.simulate import CAPABILITY as SIMULATE
    from ruleproof.properties.simulate import Simulation, play

    p = plugin(game)
    r = renderer(game)
    sim: Simulation = require(p, SIMULATE, "random play")
    made = make_game(game, **params)  # the registry's: the generic truncation and reduced too
    played = play(made, sim, seed, r.random_steps if max_steps is None else max_steps,
                  start=made.new_seeded_state(seed))
    start = played.start.model
    return walk(game, f"random game, seed {seed}", start, played.actions,
                notes=[*r.notes(start, None), sim.policy])


# ----------------------------------------------------------------------------- traces

def trace_walks(path: Path) -> list[Walk]:
    """The walk of a conformance trace (``spec/*/traces/*.jsonl``) replayed on the model.

    Raises:
        MalformedInput: the trace is malformed (TraceError is a MalformedInput).
    """
    from ruleproof.properties.conformance.games import model_of
    from ruleproof.properties.conformance.trace import read_trace

    trace = read_trace(path)
    h = trace.header
    game = model_of(h.game)
    r = renderer(h.game)
    played = game.start(h.players, h.options, h.seed, h.setup)
    state = played.model
    canvas = r.canvas(state)
    title = f"trace {path.name}"
    notes = [f"file: {_short(path)}", f"{h.game}, {h.players} players"
             + "".join(f", {k}={v}" for k, v in h.options.items())]
    if h.note:
        notes.append(h.note)
    views, shows = r.views(state, ())
    n = picture_count(views, shows)

    def frame(s: Any, caption: str) -> Frame:
        return Frame((caption,) * n, r.pictures(s, (caption,) * n, ()))

    frames = [frame(state, f"start: {title}")]
    for st in trace.steps:
        who = "chance" if st.player is None else f"P{st.player + 1}"
        caption = f"{st.number}. {who}: {st.action}"
        try:
            played = game.apply(played, st.action).state
            state = played.model
        except IllegalAction as err:
            frames.append(frame(state, f"{caption} -- REJECTED by the model: {err.reason} "
                                       f"[{', '.join(err.clauses)}]"))
            break
        except ValueError as err:
            raise MalformedInput(str(err), file=str(path), line=st.line) from None
        frames.append(frame(state, caption))
    return [Walk(title, h.game, views, canvas, tuple(frames), tuple(notes), shows)]


def walks_of(path: Path) -> list[Walk]:
    """Walks of a scenario (``.toml``, any game) or trace (``.jsonl``) file.

    Raises:
        MalformedInput: no such file, a folder, FIFO or device (saying which), unknown kind of
            file, or a malformed one.
    """
    why = not_a_file(path)
    if why:
        raise MalformedInput(why, file=str(path))
    if path.suffix == ".jsonl":
        return trace_walks(path)
    if path.suffix == ".toml":
        return scenario_walks(path)
    raise MalformedInput("expected a scenario (.toml) or a trace (.jsonl)", file=str(path))


def _short(path: Path) -> str:
    parts = path.resolve().parts
    if "spec" in parts:
        return "/".join(parts[len(parts) - parts[::-1].index("spec") - 1:])
    return str(path)
