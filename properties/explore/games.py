"""The one adapter between the explorer and the game models (switch it to
``ruleproof.model.api`` once that interface lands; nothing else in the explorer imports a game).

An :class:`ExploreGame` gives the explorer what a model checker needs and nothing more:

* ``roots()``: the initial states (Dawn Under: one per seeded deal of the reduced
  configuration; Dracula: the state before the first chance node, every chance outcome is then
  a successor, so every set-up and every draw is enumerated);
* ``successors(state)``: ``(action string, next state)`` for every legal action, in the model's
  deterministic order (chance outcomes count as actions: nondeterminism);
* ``view(state)``: the part of a state its future depends on, as a tuple of plain values whose
  ``repr`` is canonical (the fingerprint is a hash of it, see ``search.fingerprint``). Fields
  that are only observed or logged and never read by a transition are left out -- TLC calls
  such a projection a VIEW; each omission is argued below and in docs/explore.md;
* ``canonical(view)``: the view's representative under the symmetry group, if symmetry
  reduction is on (colour permutation and seat rotation for Dawn Under, see docs/explore.md);
* ``violations(state)``: every invariant of the game's invariant module, as ``name: text``;
* ``trace_header(root)``: the header of a replayable trace starting at that root.

Clauses: the component and preparation clauses of du-en (through the reduced configuration's
counts),
dracula-en:setup.secret-choice (half the locations' worth of cards each).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model.dawn_under.config import make_config, parse_options, preset_options
from ruleproof.model.dawn_under.engine import apply as du_apply
from ruleproof.model.dawn_under.engine import deal, initial_state
from ruleproof.model.dawn_under.engine import is_terminal as du_terminal
from ruleproof.model.dawn_under.engine import legal_actions as du_legal
from ruleproof.model.dawn_under.engine import step as du_step
from ruleproof.model.dawn_under.state import (
    RAT,
    Config,
    Setup,
    State,
)
from ruleproof.model.dracula import Board as DraculaBoard
from ruleproof.model.dracula import CardSet, default_cards, rules_from_mapping
from ruleproof.model.dracula import apply as dr_apply
from ruleproof.model.dracula import is_terminal as dr_terminal
from ruleproof.model.dracula import legal_actions as dr_legal
from ruleproof.model.dracula import new_game as dr_new_game
from ruleproof.model.dracula.data import COLOURS as BARRIER_COLOURS
from ruleproof.model.dracula.data import Side
from ruleproof.model.dracula.engine import State as DraculaState
from ruleproof.model.dracula.notation import parse_actions
from ruleproof.properties.contracts.core import broken
from ruleproof.properties.contracts.games import GRUFT_DROPS, RuleSet
from ruleproof.properties.dawn_under.invariants import Totals, transition_violations
from ruleproof.properties.dawn_under.invariants import violations as du_violations
from ruleproof.properties.dawn_under.scenarios import parse_action
from ruleproof.properties.dracula.invariants import INVARIANTS as DR_INVARIANTS
from ruleproof.properties.dracula.invariants import conservation_of
from ruleproof.properties.dracula.invariants import violations as dr_violations
from ruleproof.properties.explore.encoding import (
    Memo,
    encode_fields,
    fingerprint,
    state_code,
    view_fields,
)
from ruleproof.spec import manifest
from ruleproof.spec.boards import load_board
from ruleproof.spec.reduced import ReducedSpec, reduced, shipped_reduced

REDUCED_KEY = "reduced"
"""Trace headers name the reduced configuration under this key (``"reduced": NAME``)."""

View = tuple[Any, ...]


@dataclass(frozen=True)
class Root:
    """An initial state and how a trace names it.

    Attributes:
        label: e.g. ``seed 3`` or ``set-up``.
        state: the model state.
        header: the trace header fields for it (``seed`` or ``setup``, ``players``, options).
    """

    label: str
    state: Any
    header: dict[str, Any] = field(default_factory=dict)


def spec_ref(spec: ReducedSpec) -> str:
    """How a trace names the reduced configuration: its name if shipped, else its file."""
    if spec.name in shipped_reduced() and reduced(spec.name).path == spec.path:
        return spec.name
    return spec.path


class ExploreGame:
    """Base class of the two adapters (see the module docstring)."""

    name: str = ""
    spec: ReducedSpec
    symmetry: bool = False
    symmetry_note: str = "off"

    def roots(self) -> list[Root]:  # pragma: no cover - abstract
        raise NotImplementedError

    def successors(self, state: Any) -> list[tuple[str, Any]]:  # pragma: no cover
        raise NotImplementedError

    def is_terminal(self, state: Any) -> bool:  # pragma: no cover
        raise NotImplementedError

    def view(self, state: Any) -> View:  # pragma: no cover
        raise NotImplementedError

    def canonical(self, view: View) -> str | View:
        """The representative of ``view``'s orbit as a canonical string (``repr``)."""
        return repr(view)

    def fp(self, state: Any) -> int:
        """The state's 64-bit fingerprint: of the canonical form of its view."""
        return fingerprint(self.canonical(self.view(state)))

    def next_states(self, state: Any) -> list[Any]:
        """The successors of ``successors(state)``, without the action strings (which only
        traces need)."""
        return [s for _, s in self.successors(state)]

    @property
    def step_checks(self) -> bool:
        """Whether :meth:`step_violations` can report anything (else the explorer skips it)."""
        return self.rule_set is not None

    def violations(self, state: Any) -> list[str]:  # pragma: no cover
        raise NotImplementedError

    rule_set: RuleSet | None = None

    def typed(self, action: str) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def step_violations(self, before: Any, action: str, after: Any) -> list[str]:
        """The clause contracts (``properties/contracts``, ``requires``/``forbids``) broken by
        the transition ``before --action--> after``, as ``contract CLAUSE: text``."""
        if self.rule_set is None:
            return []
        return [f"contract {v.clause}: {v.how} {v.what}" for v in broken(
            self.rule_set.contracts(before), before, self.typed(action), after)]


# ----------------------------------------------------------------------------- Dawn Under

_DU_COUNTS = {
    # reduced count name -> Config field
    "coloured_lids_per_colour": "lids_per_colour",
    "vampires_per_colour": "vampires_per_colour",
    "rat_lids": "rat_lids",
    "rat_lids_2p": "rat_lids",
    "reserve_lids": "reserve_size",
    "reserve_lids_2p": "reserve_size",
    "stakes": "stakes",
    "garlic_per_player": "garlic",
}
_DU_LISTS = ("vampire_colours", "lid_colours")


def du_config(spec: ReducedSpec) -> Config:
    """The model configuration of a reduced Dawn Under set-up.

    Every reduced count must name a manifest fact (or ``vampire_colours``/``lid_colours``) and
    give that fact's full value, so the provenance of a reduction cannot drift from the data.

    Raises:
        MalformedInput: an unknown count, a wrong full value, or counts that cannot be dealt
            (lids not covering the graves, fewer reserve lids than rats, vampires not
            dividing among the players).
    """
    m = manifest("dawn_under")
    file = spec.path
    opts = parse_options(dict(spec.options), base=preset_options(spec.preset), where=file)
    graves = spec.count("graves", m.int("graves"))
    board = load_board(Path(spec.board), graves)
    base = make_config(spec.players, opts, board=board, preset=spec.preset)
    names = base.colours
    changes: dict[str, Any] = {}
    problems: list[str] = []
    for c in spec.counts:
        if c.name in _DU_LISTS:
            full = tuple(names[i] for i in getattr(base, c.name))
            if c.full != full:
                problems.append(f"count {c.name}: full value is {list(full)}")
            if not isinstance(c.value, tuple) or not set(c.value) <= set(names):
                problems.append(f"count {c.name}: colours must be among {', '.join(names)}")
            else:
                changes[c.name] = tuple(sorted(names.index(x) for x in c.value))
            continue
        if c.name == "graves":
            if c.full != m.int("graves"):
                problems.append(f"count graves: full value is {m.int('graves')}")
            continue
        if c.name not in _DU_COUNTS or c.name not in m.facts:
            problems.append(f"count {c.name}: not a reducible count (known: graves, "
                            f"{', '.join([*_DU_LISTS, *_DU_COUNTS])})")
            continue
        if c.full != m.int(c.name):
            problems.append(f"count {c.name}: full value is {m.int(c.name)} (manifest)")
        changes[_DU_COUNTS[c.name]] = c.value
    if problems:
        raise MalformedInput("; ".join(problems), file=file)
    config = replace(base, **changes)
    on_board = (len(config.lid_colours) * config.lids_per_colour - config.reserve_size
                + config.rat_lids)
    vampires = len(config.vampire_colours) * config.vampires_per_colour
    if config.players > 2 and on_board != board.size:
        problems.append(f"lids on the board ({on_board}) must equal the graves ({board.size})")
    if on_board > board.size:
        problems.append(f"{on_board} lids do not fit on {board.size} graves")
    if config.reserve_size < config.rat_lids:
        problems.append("fewer reserve lids than rat lids: a plague's clean-up would find no "
                        "reserve lid (du-en:ch4.cleanup)")
    if vampires % config.players or vampires == 0:
        problems.append(f"{vampires} vampires do not divide among {config.players} players")
    if problems:
        raise MalformedInput("; ".join(problems), file=file)
    return config


def _du_setup_json(config: Config, state: State) -> dict[str, Any]:
    names = config.colours

    def lid(v: int | None) -> str | None:
        return None if v is None else "rat" if v == RAT else names[v]

    return {"lids": [lid(v) for v in state.lids], "reserve": [lid(v) for v in state.reserve],
            "rows": [[names[v.colour] for v in row] for row in state.rows],
            "start_player": state.turn_player}


class DawnUnderExplore(ExploreGame):
    """Dawn Under through the typed model ``ruleproof.model.dawn_under``.

    View: every :class:`State` field except ``config`` (fixed for a run), ``known`` (which lids
    everybody has seen: read by observations only, never by a transition) and
    ``placed_this_turn`` (written, never read).

    Symmetry (``symmetry=True``): colours are labels (the manifest calls them that) and seats
    are arranged in a circle, so renaming colours within a class (colours with the same
    vampire and lid counts) and rotating seats map the transition relation onto itself: no
    rule reads a colour except to compare two colours, and every rule names players relative
    to each other (left neighbour, finder, holder). Actions of the base game name graves and
    ends only, never a colour or a player. Not used with the expansion (gift actions name a
    player) -- refused there.
    """

    name = "dawn-under"

    def __init__(self, spec: ReducedSpec, *, symmetry: bool = False,
                 contracts: bool = False) -> None:
        self.spec = spec
        self.config = du_config(spec)
        self.totals = Totals.of_manifest(self.config)
        gruft = self.config.options.expansion != "none"
        base = "du-cs" if spec.preset == "du-cs" else "du-en"
        self.rule_set = RuleSet("dawn-under", spec.name, spec.preset, players=(spec.players,),
                                sources=(base, "gruft-en") if gruft else (base,),
                                drop=GRUFT_DROPS if gruft and base == "du-en" else ()
                                ) if contracts else None
        if symmetry and self.config.options.expansion != "none":
            raise MalformedInput("symmetry reduction is not offered with the expansion "
                                 "(its gift action names a player)")
        self.symmetry = symmetry
        self.symmetry_note = ("colour permutation within colour classes and seat rotation"
                              if symmetry else "off")
        c = self.config
        classes: dict[tuple[bool, bool], list[int]] = {}
        for colour in range(len(c.colours)):
            key = (colour in c.vampire_colours, colour in c.lid_colours)
            classes.setdefault(key, []).append(colour)
        self._class_of = {colour: tuple(ids) for ids in classes.values() for colour in ids}
        self._memo: Memo = {}
        self._last_legal: tuple[State, tuple[Any, ...]] | None = None

    def roots(self) -> list[Root]:
        out = []
        options = dict(self.spec.options)
        seen: set[Setup] = set()
        for seed in self.spec.seeds:
            dealt = deal(self.config, random.Random(seed))
            images = self.images(dealt) if self.spec.images else [dealt]
            for i, setup in enumerate(images):
                if setup in seen:
                    continue
                seen.add(setup)
                state = initial_state(self.config, setup)
                out.append(Root(f"seed {seed}" + (f" image {i}" if i else ""), state, {
                    "players": self.config.players, "preset": self.spec.preset,
                    "options": {**options, REDUCED_KEY: spec_ref(self.spec)},
                    "setup": _du_setup_json(self.config, state)}))
        return out

    def images(self, setup: Setup) -> list[Setup]:
        """``setup`` and its images under every renaming of colours within their classes and
        every seat rotation (the first is ``setup`` itself)."""
        classes = sorted({cls for c, cls in self._class_of.items()
                          if c in self.config.vampire_colours or c in self.config.lid_colours})
        perms: list[dict[int, int]] = [{}]
        for cls in classes:
            perms = [{**p, **dict(zip(cls, q, strict=True))} for p in perms
                     for q in itertools.permutations(cls)]
        n = self.config.players
        out = [setup]
        for k in range(n):
            for p in perms:
                def col(c: int | None, p: dict[int, int] = p) -> int | None:
                    return c if c is None or c == RAT else p.get(c, c)
                rows = tuple(tuple(p.get(c, c) for c in row) for row in setup.rows)
                img = Setup(tuple(col(x) for x in setup.lids),
                            tuple(p.get(x, x) for x in setup.reserve),
                            rows[k:] + rows[:k], (setup.start_player - k) % n)
                if img not in out:
                    out.append(img)
        return out

    def successors(self, state: State) -> list[tuple[str, State]]:
        return [(str(a), du_apply(state, a)) for a in self._legal(state)]

    def next_states(self, state: State) -> list[State]:
        return [du_apply(state, a) for a in self._legal(state)]

    def _legal(self, state: State) -> tuple[Any, ...]:
        """The legal actions of ``state``, computed once for both the invariants (the dead-end
        part of flow-consistent) and the successors: the explorer asks for both in a row."""
        last = self._last_legal
        if last is not None and last[0] is state:
            return last[1]
        legal = du_legal(state)
        self._last_legal = (state, legal)
        return legal

    def is_terminal(self, state: State) -> bool:
        return du_terminal(state)

    def view(self, state: State) -> View:
        """Without symmetry: the compact code of the view (:func:`state_code`, a tuple of ints
        in 0..255, an injective encoding of the fields listed in the class docstring). With
        symmetry: those fields as a tuple, which :meth:`canonical` encodes under every seat
        rotation and colour renaming."""
        if self.symmetry:
            return view_fields(state)
        return state_code(state, self._memo)

    def canonical(self, view: View) -> View:
        """Without symmetry the code itself; with symmetry the smallest code over every seat
        rotation, colours renamed within their classes in order of first appearance (rows,
        graves, lids, reserve, the vampire in transit): the representative of the orbit."""
        if not self.symmetry:
            return view
        n = self.config.players
        return min(encode_fields(view, k, n, self._class_of) for k in range(n))

    def violations(self, state: State) -> list[str]:
        return du_violations(state, self.totals, legal=self._legal(state))

    def typed(self, action: str) -> Any:
        return parse_action(action)

    def step_violations(self, before: State, action: str, after: State) -> list[str]:
        out = super().step_violations(before, action, after)
        if before.extension is None:
            return out
        _, events = du_step(before, parse_action(action))
        return out + transition_violations(before, events, after)

    @property
    def step_checks(self) -> bool:
        return self.rule_set is not None or self.config.options.expansion != "none"


# ----------------------------------------------------------------------------- Dracula


def dracula_parts(spec: ReducedSpec) -> tuple[CardSet, DraculaBoard]:
    """The kept cards and the reduced board of a reduced Dracula set-up.

    Raises:
        MalformedInput: an unknown card id.
    """
    full = default_cards()
    known_enc = {c.id for c in full.encounter}
    known_act = {c.id for c in full.action}
    bad = [c for c in spec.encounter if c not in known_enc] + [
        c for c in spec.action if c not in known_act]
    if bad:
        raise MalformedInput(f"unknown card id(s) {', '.join(bad)} (ids of spec/dracula/cards.toml)",
                             file=spec.path)
    cards = CardSet(tuple(c for c in full.encounter if c.id in spec.encounter),
                    tuple(c for c in full.action if c.id in spec.action), (), spec.path)
    for side in Side:
        if not cards.encounter_of(side) or not cards.action_of(side):
            raise MalformedInput(f"{side.label} needs at least one encounter and one action card",
                                 file=spec.path)
    columns = spec.columns
    size = spec.rows * columns
    board = DraculaBoard(spec.rows, columns, 0, size - 1, spec.life_markers, BARRIER_COLOURS, ())
    return cards, board


class DraculaExplore(ExploreGame):
    """Dracula through ``ruleproof.model.dracula``; every chance outcome is a successor.

    View: every :class:`~ruleproof.model.dracula.engine.State` field except ``rules``,
    ``cards``, ``board`` (fixed), ``seed`` and ``step`` (read only when chance is resolved
    from a seed, which exploration never does) and ``log`` (observations only), with
    three finite abstractions that are bisimulations:

    * ``turn`` is read only by ``breath_turn == turn`` and ``whisper_turn == turn`` and to set
      them to ``turn + 1``: the view keeps ``breath_turn - turn`` (or -1 once it has passed);
    * ``steps`` is read by ``steps >= 1`` and by the overpayment ``steps - move``; once it
      exceeds the largest move number plus the life markers every payment takes every life
      marker, so the view caps it there;
    * a pending ``loss``/``rescue`` of more markers than a side can hold acts like losing
      one more than that: the view caps the agenda's count there;
    * ``known`` (which card each side has seen where) is read by a transition only under the
      Depths of Night reading ``depths=known-own-only``; under the other reading it is left
      out (observation only).

    No symmetry: the two sides play different rules and barrier colours are tied to cards.
    """

    name = "dracula"

    def __init__(self, spec: ReducedSpec, *, symmetry: bool = False,
                 contracts: bool = False) -> None:
        if symmetry:
            raise MalformedInput("dracula has no symmetry to reduce (the sides differ, barrier "
                                 "colours are tied to cards); run without --symmetry")
        self.spec = spec
        self.cards, self.board = dracula_parts(spec)
        self.rules = rules_from_mapping(dict(spec.options), file=spec.path)
        self.cap_life = spec.life_markers + 1
        self.cap_steps = max(c.move for c in self.cards.action) + spec.life_markers + 1
        enc = len(self.cards.encounter)
        per_side = {len(self.cards.action_of(s)) for s in Side}
        self.rule_set = RuleSet("dracula", spec.name, "dracula", players=(2,),
                                sources=("dracula-en",)) if contracts else None
        self.invariants = {**DR_INVARIANTS, "conservation": conservation_of(
            enc, max(per_side) if len(per_side) == 1 else -1, cards=self.cards)}

    def roots(self) -> list[Root]:
        state = dr_new_game(0, self.rules, self.cards, self.board, resolve=False)
        return [Root("set-up", state, {"players": 2, "options": {
            **dict(self.spec.options), REDUCED_KEY: spec_ref(self.spec)}, "seed": 0})]

    def successors(self, state: DraculaState) -> list[tuple[str, DraculaState]]:
        return [(str(a), dr_apply(state, a)) for a in dr_legal(state)]

    def is_terminal(self, state: DraculaState) -> bool:
        return dr_terminal(state)

    def view(self, s: DraculaState) -> View:
        t = s.turn
        cap = self.cap_life
        agenda = tuple((st.kind, st.player, min(st.n, cap) if st.kind in ("loss", "rescue")
                        else st.n, st.colours) for st in s.agenda)
        # ``known`` (what each side has seen where) is read by a transition only under the
        # Depths of Night reading ``known-own-only``; otherwise it is observation only.
        known = s.known if self.rules.depths == "known-own-only" else None
        return (agenda, s.board_cards, s.pos, s.hand, s.pool, s.enc_discard, s.captured, s.life,
                s.current, s.aside, s.adiscard, s.barriers, known, s.active,
                min(s.steps, self.cap_steps), s.can_look, s.revealed, s.played, s.use_special,
                s.battle_won, s.breath_turn - t if s.breath_turn >= t else -1,
                s.whisper_turn - t if s.whisper_turn >= t else -1, s.vigilance, s.turned,
                s.winner)

    def violations(self, state: DraculaState) -> list[str]:
        return dr_violations(state, self.invariants)

    def typed(self, action: str) -> Any:
        found = parse_actions(self.board, action)
        if len(found) != 1:
            raise ValueError(f"{action!r} is not one action")
        return found[0]


def explore_game(name_or_path: str, *, symmetry: bool = False,
                 contracts: bool = False) -> ExploreGame:
    """The adapter for a reduced configuration (shipped name or file path).

    Raises:
        MalformedInput: unknown configuration, invalid file, or symmetry where it is unsound.
    """
    spec = reduced(name_or_path)
    if spec.game == "dawn-under":
        return DawnUnderExplore(spec, symmetry=symmetry, contracts=contracts)
    return DraculaExplore(spec, symmetry=symmetry, contracts=contracts)


def start_state(game: str, options: dict[str, str], seed: int | None,
                setup: dict[str, Any] | None) -> Any:
    """The initial state a replayable trace with ``"reduced"`` in its options names (used by
    the conformance adapters so that ``ruleproof replay`` replays explorer traces).

    Raises:
        MalformedInput: unknown reduced configuration or a set-up that does not fit it.
    """
    name = options[REDUCED_KEY]
    spec = reduced(name)
    if spec.game != game:
        raise MalformedInput(f"reduced configuration {name!r} is for {spec.game}, not {game}")
    if spec.game == "dracula":
        ex = DraculaExplore(spec)
        return ex.roots()[0].state
    config = du_config(spec)
    if setup is None:
        return initial_state(config, deal(config, random.Random(seed or 0)))
    from ruleproof.properties.dawn_under.conformance import setup_from_json
    return initial_state(config, setup_from_json(config, setup))


def reduced_config(options: dict[str, str]) -> Config:
    """The Dawn Under configuration named by a trace's ``reduced`` option."""
    return du_config(reduced(options[REDUCED_KEY]))


def paths_of(values: Sequence[str]) -> list[Path]:
    """Helper for the CLI: strings to paths."""
    return [Path(v) for v in values]
