"""Games as sequences of frames, for step-through pages: from scenario files, traces and random
play of either game.

A :class:`Walk` is one line of play: a caption per step and per view, and a picture
(:data:`~ruleproof.render.svg.Picture`) per step and view. View 0 is always "everything"; the
others are the players' views (hidden information: Dracula's hands and face-down cards; in Dawn
Under, unturned lids and face-down vampires). An action the model rejects (a scenario's expected
error) becomes a frame of its own that shows the unchanged position and the clause it cites.

This module uses only the games' public functions and state fields, the scenario loaders and the
trace reader, so engine refactors behind those do not reach it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.render import dawn_under as du_pic
from ruleproof.render import dracula as dr_pic
from ruleproof.render.svg import Canvas, Picture


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
        game: ``dawn-under`` or ``dracula``.
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


# ----------------------------------------------------------------------------- Dawn Under

def _du_views(players: int, names: Sequence[str]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """View labels (everything, then each player) and the picture each shows: every player's
    view shows the same picture, because everything is shown to all players (du-en:ch1.open)
    and face-down vampires are unknown even to their owner (du-en:prep.row)."""
    labels = [names[p] if p < len(names) else f"P{p + 1}" for p in range(players)]
    return ("everything", *labels), (0, *([1] * players))


def _du_frame(state: Any, caption: str, names: Sequence[str]) -> Frame:
    return Frame((caption, caption), (du_pic.state_picture(state, None, names, caption),
                                      du_pic.state_picture(state, du_pic.PUBLIC, names, caption)))


def dawn_under_walk(title: str, start: Any, actions: Sequence[Any],
                    names: Sequence[str] = (), notes: Sequence[str] = (),
                    on_step: Callable[[], None] | None = None) -> Walk:
    """Step ``actions`` (Dawn Under action objects) from ``start``; a rejected action gives a
    frame saying so (with the clauses it cites) and play goes on from the same state."""
    from ruleproof.model.dawn_under.engine import current_player, step
    from ruleproof.model.dawn_under.render import event_text, player_name

    players = start.config.players
    state = start
    frames = [_du_frame(state, f"start: {title}", names)]
    for number, action in enumerate(actions, start=1):
        mover = current_player(state)
        who = player_name(mover, names)
        try:
            new, events = step(state, action)
        except IllegalAction as err:
            caption = (f"{number}. {who}: {action} -- REJECTED: {err.reason} "
                       f"[{', '.join(err.clauses)}]")
            frames.append(_du_frame(state, caption, names))
            continue
        said = " ".join(event_text(state, e, names) for e in events[:3])
        caption = f"{number}. {who}: {action}" + (f" -- {said}" if said else "")
        state = new
        frames.append(_du_frame(state, caption, names))
        if on_step:
            on_step()
    views, shows = _du_views(players, names)
    return Walk(title, "dawn-under", views, du_pic.canvas(start.config.board, players),
                tuple(frames), tuple(notes), shows)


def scenario_walks(path: Path) -> list[Walk]:
    """One walk per reading of a scenario file of either game (the one scenario format,
    :func:`ruleproof.properties.scenarios.load`).

    Raises:
        MalformedInput: a malformed file (FILE:LINE:COL).
    """
    from ruleproof.properties.scenarios import load

    sc = load(path)
    actions: list[Any] = []
    for parsed, _, _ in sc.actions:  # a Dracula action text may stand for several steps
        actions += list(parsed) if isinstance(parsed, tuple | list) else [parsed]
    walks = []
    for reading in sc.readings:
        title = sc.title if len(sc.readings) == 1 else f"{sc.title} -- reading {reading.name}"
        notes = [f"file: {_short(path)}", "clauses: " + (", ".join(sc.clauses) or
                                                         "none listed")]
        if sc.game == "dawn-under":
            notes.insert(1, f"rule set: preset {reading.config.preset}, "
                            f"{reading.config.players} players")
        else:
            notes.insert(1, f"reading: {reading.name}")
        if reading.refusals:
            notes.append("expected rejections: " + ", ".join(
                f"action {n + 1} by {', '.join(c)}" for n, c in sorted(reading.refusals.items())))
        if sc.game == "dawn-under":
            walks.append(dawn_under_walk(title, reading.start, actions, sc.names, notes))
        else:
            expected = next((c[0] for c in reading.refusals.values() if c), None)
            walks.append(dracula_walk(title, reading.start, actions, notes, expected))
    return walks


def dawn_under_random_walk(config: Any, seed: int, max_steps: int = 2000) -> Walk:
    """A random legal game of Dawn Under (same seed, same game)."""
    from ruleproof.model.dawn_under.engine import is_terminal, legal_actions, new_game, step

    rng = random.Random(seed)
    state = new_game(config, seed)
    start = state
    actions: list[Any] = []
    while not is_terminal(state) and len(actions) < max_steps:
        legal = legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        state, _ = step(state, action)
        actions.append(action)
    return dawn_under_walk(f"random game, seed {seed}", start, actions,
                           notes=[f"rule set: preset {config.preset}, {config.players} players",
                                  "uniformly random legal actions"])


# ----------------------------------------------------------------------------- Dracula

_SECRET = {"ChooseCard": "chooses a card", "Place": "places a card face down",
           "ChanceOutcome": "a card is dealt or drawn", "TakeBack": "takes a card back",
           "GiveTarget": "gives a target card"}
"""Actions whose content the other side does not learn (their captions are shortened)."""


def _dr_captions(number: int, mover: int, action: Any) -> tuple[str, ...]:
    from ruleproof.model.dracula.data import Side

    who = "chance" if mover not in (0, 1) else Side(mover).label
    full = f"{number}. {who}: {action}"
    hidden = _SECRET.get(type(action).__name__)
    out = [full]
    for view in (0, 1):
        if hidden is None or view == mover:
            out.append(full)
        else:
            out.append(f"{number}. {who}: {hidden}")
    return tuple(out)


def _dr_frame(state: Any, captions: tuple[str, ...]) -> Frame:
    return Frame(captions, tuple(dr_pic.state_picture(state, v, captions[i])
                                 for i, v in enumerate((None, 0, 1))))


def dracula_walk(title: str, start: Any, actions: Sequence[Any], notes: Sequence[str] = (),
                 expected_error: str | None = None, resolve: bool = True) -> Walk:
    """Step Dracula ``actions`` from ``start``. With ``resolve``, pending chance steps are
    resolved from the state's seed before each player action (as scenarios do)."""
    from ruleproof.model import CHANCE
    from ruleproof.model.dracula.engine import ChanceOutcome, apply, current_player, resolve_chance

    state = start
    frames = [_dr_frame(state, (f"start: {title}",) * 3)]
    for number, action in enumerate(actions, start=1):
        if resolve and not isinstance(action, ChanceOutcome) and current_player(state) == CHANCE:
            state = resolve_chance(state)
        mover = current_player(state)
        captions = _dr_captions(number, mover, action)
        try:
            state = apply(state, action)
        except IllegalAction as err:
            note = (" (expected)" if expected_error and expected_error in err.clauses else "")
            frames.append(_dr_frame(state, tuple(
                f"{c} -- REJECTED{note}: {err.reason} [{', '.join(err.clauses)}]"
                for c in captions)))
            break
        frames.append(_dr_frame(state, captions))
    return Walk(title, "dracula", dr_pic.VIEWS, dr_pic.canvas(start.board), tuple(frames),
                tuple(notes))


def dracula_random_walk(seed: int, max_steps: int = 400) -> Walk:
    """A random game of Dracula (the model's sensible random player); chance steps are resolved
    from the state's seed between the players' actions, as in :func:`dracula_walk`."""
    from ruleproof.model import CHANCE
    from ruleproof.model.dracula import (
        apply,
        current_player,
        is_terminal,
        new_game,
        resolve_chance,
        sensible_choice,
    )

    rng = random.Random(seed)
    state = new_game(seed)
    start = state
    actions: list[Any] = []
    while not is_terminal(state) and len(actions) < max_steps:
        if current_player(state) == CHANCE:
            state = resolve_chance(state)
            continue
        action = sensible_choice(state, rng)
        state = apply(state, action)
        actions.append(action)
    return dracula_walk(f"random game, seed {seed}", start, actions, resolve=True,
                        notes=["random legal play (the model's sensible random player)"])


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
    played = game.start(h.players, h.options, h.seed, h.setup)
    state = played.model
    title = f"trace {path.name}"
    notes = [f"file: {_short(path)}", f"{h.game}, {h.players} players"
             + "".join(f", {k}={v}" for k, v in h.options.items())]
    if h.note:
        notes.append(h.note)
    frame: Callable[[Any, tuple[str, ...]], Frame]
    views: tuple[str, ...]
    shows: tuple[int, ...] = ()
    if h.game == "dracula":
        frame, views, canvas = _dr_frame, dr_pic.VIEWS, dr_pic.canvas(state.board)
    else:
        def frame(s: Any, c: tuple[str, ...]) -> Frame:
            return _du_frame(s, c[0], ())

        views, shows = _du_views(h.players, ())
        canvas = du_pic.canvas(state.config.board, h.players)
    n = len(views)
    frames = [frame(state, (f"start: {title}",) * n)]
    for st in trace.steps:
        who = "chance" if st.player is None else f"player {st.player}"
        caption = f"{st.number}. {who}: {st.action}"
        try:
            played = game.apply(played, st.action).state
            state = played.model
        except IllegalAction as err:
            frames.append(frame(state, (f"{caption} -- REJECTED by the model: {err.reason} "
                                        f"[{', '.join(err.clauses)}]",) * n))
            break
        except ValueError as err:
            raise MalformedInput(str(err), file=str(path), line=st.line) from None
        frames.append(frame(state, (caption,) * n))
    return [Walk(title, h.game, views, canvas, tuple(frames), tuple(notes), shows)]


def walks_of(path: Path) -> list[Walk]:
    """Walks of a scenario (``.toml``, either game) or trace (``.jsonl``) file.

    Raises:
        MalformedInput: unknown kind of file, or a malformed one.
    """
    if not path.is_file():
        raise MalformedInput("no such file", file=str(path))
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
