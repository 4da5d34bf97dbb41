"""Dracula's side of exhaustive exploration: the ``explore`` capability of its plugin record
(:data:`EXPLORE`, :class:`~ruleproof.properties.explore.games.ExploreSupport`).

* The game's part of a reduced file (``spec/dracula/reduced/*.toml``) lists the kept cards
  instead of a board file and seeds (every set-up and every chance outcome is enumerated)::

      encounter = ["vampire1", ...]    # ids of the shipped card data kept
      action = ["strength", ...]
      rows = 1                         # the board grid: 1..3 rows
      columns = 4                      # optional (default 4); 2..4, fewer only with one row
      life_markers = 1                 # 1..4

* :class:`DraculaExplore`: one root before the first chance node (every set-up and every draw
  is then a successor), successors through the engine directly, the view with the
  abstractions argued in its docstring, the invariants of ``properties/dracula/invariants.py``
  with conservation for the reduced deck. No symmetry.

Clauses: dracula-en:setup.secret-choice (half the locations' worth of cards each),
dracula-en:pay.barrier-restrictions (no barrier fits a one-row board).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ruleproof.errors import MalformedInput
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
from ruleproof.properties.dracula.invariants import INVARIANTS as DR_INVARIANTS
from ruleproof.properties.dracula.invariants import conservation_of
from ruleproof.properties.dracula.invariants import violations as dr_violations
from ruleproof.properties.dracula.plugin import NAME
from ruleproof.properties.explore.games import REDUCED_KEY, ExploreGame, Root, View, spec_ref
from ruleproof.properties.plugin import RuleSet
from ruleproof.spec.reduced import ReducedSpec


@dataclass(frozen=True)
class DraculaReduced:
    """Dracula's part of a reduced configuration, validated.

    Attributes:
        encounter, action: ids of the kept cards (of the shipped card data).
        rows, columns: the board grid.
        life_markers: life markers per side.
        cards: the kept card set.
        board: the reduced board.
    """

    encounter: tuple[str, ...]
    action: tuple[str, ...]
    rows: int
    columns: int
    life_markers: int
    cards: CardSet
    board: DraculaBoard


def parse(spec: ReducedSpec) -> DraculaReduced:
    """Dracula's part of ``spec``: the kept cards and the reduced board.

    Raises:
        MalformedInput: a missing or mistyped field (file and line), an unknown card id, or a
            side left without an encounter or an action card.
    """
    if spec.game != NAME:
        raise spec.error(f"reduced configuration {spec.name!r} is for {spec.game}, not {NAME}",
                         "game")
    table = spec.table
    enc, act = table.get("encounter"), table.get("action")
    if not isinstance(enc, list) or not enc or not all(isinstance(c, str) for c in enc):
        raise spec.error("'encounter' must list the kept encounter card ids", "encounter")
    if not isinstance(act, list) or not act or not all(isinstance(c, str) for c in act):
        raise spec.error("'action' must list the kept action card ids", "action")
    rows, life = table.get("rows"), table.get("life_markers")
    if not isinstance(rows, int) or not 1 <= rows <= 3:
        raise spec.error("'rows' must be 1..3 (the board keeps its 4 columns)", "rows")
    if not isinstance(life, int) or not 1 <= life <= 4:
        raise spec.error("'life_markers' must be 1..4", "life_markers")
    columns = table.get("columns", 4)
    if not isinstance(columns, int) or not 2 <= columns <= 4 or (columns < 4 and rows != 1):
        raise spec.error("'columns' must be 2..4, and below 4 only with one row (location names "
                         "a1, b1, ... stay those of the full board)", "columns")
    encounter, action = tuple(enc), tuple(act)
    full = default_cards()
    known_enc = {c.id for c in full.encounter}
    known_act = {c.id for c in full.action}
    bad = [c for c in encounter if c not in known_enc] + [c for c in action if c not in known_act]
    if bad:
        raise MalformedInput(f"unknown card id(s) {', '.join(bad)} (ids of spec/dracula/cards.toml)",
                             file=spec.path)
    cards = CardSet(tuple(c for c in full.encounter if c.id in encounter),
                    tuple(c for c in full.action if c.id in action), (), spec.path)
    for side in Side:
        if not cards.encounter_of(side) or not cards.action_of(side):
            raise MalformedInput(f"{side.label} needs at least one encounter and one action card",
                                 file=spec.path)
    size = rows * columns
    board = DraculaBoard(rows, columns, 0, size - 1, life, BARRIER_COLOURS, ())
    return DraculaReduced(encounter, action, int(rows), int(columns), int(life), cards, board)


def dracula_parts(spec: ReducedSpec) -> tuple[CardSet, DraculaBoard]:
    """The kept cards and the reduced board of a reduced Dracula set-up (:func:`parse`).

    Raises:
        MalformedInput: as :func:`parse`.
    """
    part = parse(spec)
    return part.cards, part.board


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

    name = NAME

    def __init__(self, spec: ReducedSpec, *, symmetry: bool = False,
                 contracts: bool = False) -> None:
        if symmetry:
            raise MalformedInput("dracula has no symmetry to reduce (the sides differ, barrier "
                                 "colours are tied to cards); run without --symmetry")
        self.spec = spec
        self.part = parse(spec)
        self.cards, self.board = self.part.cards, self.part.board
        self.rules = rules_from_mapping(dict(spec.options), file=spec.path)
        self.cap_life = self.part.life_markers + 1
        self.cap_steps = max(c.move for c in self.cards.action) + self.part.life_markers + 1
        enc = len(self.cards.encounter)
        per_side = {len(self.cards.action_of(s)) for s in Side}
        self.rule_set = RuleSet(NAME, spec.name, NAME, players=(2,),
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


def start_state(spec: ReducedSpec, seed: int | None, setup: Mapping[str, Any] | None
                ) -> DraculaState:
    """The initial state of every trace of ``spec``: before the first chance node (the trace
    then names every chance outcome as a step; ``seed`` and ``setup`` do not matter).

    Raises:
        MalformedInput: an invalid configuration.
    """
    state: DraculaState = DraculaExplore(spec).roots()[0].state
    return state


@dataclass(frozen=True)
class DraculaExploreSupport:
    """Dracula's ``explore`` capability (see
    :class:`~ruleproof.properties.explore.games.ExploreSupport`)."""

    def parse(self, spec: ReducedSpec) -> DraculaReduced:
        return parse(spec)

    def game(self, spec: ReducedSpec, *, symmetry: bool, contracts: bool) -> DraculaExplore:
        return DraculaExplore(spec, symmetry=symmetry, contracts=contracts)

    def start_state(self, spec: ReducedSpec, seed: int | None,
                    setup: Mapping[str, Any] | None) -> DraculaState:
        return start_state(spec, seed, setup)


EXPLORE = DraculaExploreSupport()
"""The capability object the plugin record names (``capabilities["explore"]``)."""
