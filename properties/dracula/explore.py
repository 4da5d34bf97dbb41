"""Dracula's side of exhaustive exploration: the ``explore`` capability of its plugin record
(:data:`EXPLORE`, :class:`~ruleproof.properties.explore.games.ExploreSupport`).

* The game's part of a reduced file (``spec/dracula/reduced/*.toml``) lists the kept cards
  instead of a board file and seeds (every set-up and every chance outcome is enumerated)::

      encounter = ["vampire1", ...]    # ids of the shipped card data kept
      action = ["strength", ...]
      rows = 1                         # the board grid: 1..3 rows
      columns = 4                      # optional (default 4); 2..4
      life_markers = 1                 # 1..4
      found = ["victim2", ...]         # optional: targets found before the start

* :class:`DraculaExplore`: one root before the first chance node (every set-up and every draw
  is then a successor), successors through the engine directly, the view with the
  abstractions argued in its docstring, the invariants of ``properties/dracula/invariants.py``
  with conservation for the reduced deck. No symmetry.

Location names: index ``i`` of any board is named as index ``i`` of the full board
(:meth:`~ruleproof.model.dracula.data.Board.name`): one row keeps ``a1, b1, ...``; a 2 x 2
board is ``a1 b1`` above ``c1 d1`` (its borders ``a1-b1``, ``a1-c1``, ``b1-d1``, ``c1-d1``).
Two rows are the fewest on which a barrier fits (on one row every border would cut the board,
dracula-en:pay.barrier-restrictions).

``found`` starts the set-up as if earlier turns had found those targets (each on the pile of
the side that hunts it: a victim Dracula's, a coffin Van Helsing's; at most four a side, and
each must be a kept encounter card): with one target a side on the board, a side that has
found four elsewhere wins by finding the fifth (dracula-en:target.all-five,
dracula-en:end.all-captured), which no set-up without them reaches. What the exploration
then proves is about play from that start, not from the opening of a real game.

Clauses: dracula-en:setup.secret-choice (half the locations' worth of cards each),
dracula-en:pay.barrier-restrictions (no barrier fits a one-row board),
dracula-en:target.capture (where a found target lies).
"""

from __future__ import annotations

import contextlib
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
from ruleproof.model.dracula.engine import Look, Move, PlaceBarrier, PlayCard
from ruleproof.model.dracula.engine import State as DraculaState
from ruleproof.model.dracula.notation import parse_actions
from ruleproof.model.dracula.setup import initial_state
from ruleproof.properties.dracula.invariants import INVARIANTS as DR_INVARIANTS
from ruleproof.properties.dracula.invariants import conservation_of
from ruleproof.properties.dracula.invariants import violations as dr_violations
from ruleproof.properties.dracula.plugin import NAME
from ruleproof.properties.explore.games import REDUCED_KEY, ExploreGame, Root, View, spec_ref
from ruleproof.properties.plugin import RuleSet
from ruleproof.spec.reduced import ReducedSpec

KEYS = ("encounter", "action", "rows", "columns", "life_markers", "found")
"""The keys of Dracula's part of a reduced file (the module docstring)."""


@dataclass(frozen=True)
class DraculaReduced:
    """Dracula's part of a reduced configuration, validated.

    Attributes:
        encounter, action: ids of the kept cards (of the shipped card data).
        rows, columns: the board grid.
        life_markers: life markers per side.
        cards: the kept card set.
        board: the reduced board.
        found: targets found before the start (the module docstring).
    """

    encounter: tuple[str, ...]
    action: tuple[str, ...]
    rows: int
    columns: int
    life_markers: int
    cards: CardSet
    board: DraculaBoard
    found: tuple[str, ...] = ()


def _at(spec: ReducedSpec, what: str, key: str) -> MalformedInput:
    """``spec.error`` for the top-level ``key``, with the column of its value (file:line:col)."""
    exc = spec.error(what, key)
    if exc.line is not None:
        text = spec.text.splitlines()[exc.line - 1]
        eq = text.find("=")
        if text.lstrip().startswith(key) and eq >= 0:
            col = eq + 1 + len(text[eq + 1:]) - len(text[eq + 1:].lstrip()) + 1
            return MalformedInput(what, file=spec.path, line=exc.line, col=col)
    return exc


def parse(spec: ReducedSpec) -> DraculaReduced:
    """Dracula's part of ``spec``: the kept cards and the reduced board.

    Raises:
        MalformedInput: a missing or mistyped field (file and line), an unknown card id, a
            side left without an encounter or an action card, or a ``found`` list naming a
            card not kept, not a target, twice, five of a side's targets, or every encounter
            card of a side (file:line:col of ``found``).
    """
    if spec.game != NAME:
        raise spec.error(f"reduced configuration {spec.name!r} is for {spec.game}, not {NAME}",
                         "game")
    spec.refuse_unknown(KEYS)
    table = spec.table
    enc, act = table.get("encounter"), table.get("action")
    if not isinstance(enc, list) or not enc or not all(isinstance(c, str) for c in enc):
        raise spec.error("'encounter' must list the kept encounter card ids", "encounter")
    if not isinstance(act, list) or not act or not all(isinstance(c, str) for c in act):
        raise spec.error("'action' must list the kept action card ids", "action")
    rows, life = table.get("rows"), table.get("life_markers")
    if not isinstance(rows, int) or isinstance(rows, bool) or not 1 <= rows <= 3:
        raise _at(spec, "'rows' must be 1..3 (the full board has 3)", "rows")
    if not isinstance(life, int) or isinstance(life, bool) or not 1 <= life <= 4:
        raise _at(spec, "'life_markers' must be 1..4", "life_markers")
    columns = table.get("columns", 4)
    if not isinstance(columns, int) or isinstance(columns, bool) or not 2 <= columns <= 4:
        raise _at(spec, "'columns' must be 2..4 (the full board has 4)", "columns")
    encounter, action = tuple(enc), tuple(act)
    full = default_cards()
    known_enc = {c.id for c in full.encounter}
    known_act = {c.id for c in full.action}
    for key, ids, known in (("encounter", encounter, known_enc), ("action", action, known_act)):
        bad = [c for c in ids if c not in known]
        if bad:
            raise _at(spec, f"unknown card id(s) {', '.join(bad)} (ids of "
                      "spec/dracula/cards.toml)", key)
        twice = sorted({c for c in ids if ids.count(c) > 1})
        if twice:
            raise _at(spec, f"'{key}' lists {', '.join(twice)} twice (a card is kept or not)",
                      key)
    cards = CardSet(tuple(c for c in full.encounter if c.id in encounter),
                    tuple(c for c in full.action if c.id in action), (), spec.path)
    for side in Side:
        if not cards.encounter_of(side) or not cards.action_of(side):
            raise MalformedInput(f"{side.label} needs at least one encounter and one action card",
                                 file=spec.path)
    size = rows * columns
    board = DraculaBoard(rows, columns, 0, size - 1, life, BARRIER_COLOURS, ())
    found = table.get("found", [])
    if not isinstance(found, list) or not all(isinstance(c, str) for c in found):
        raise _at(spec, "'found' must list target card ids found before the start", "found")
    stray = [c for c in found if c not in encounter]
    if stray:
        raise _at(spec, f"'found' names {', '.join(map(repr, stray))}, not among the kept "
                        f"'encounter' cards", "found")
    try:
        initial_state(0, None, cards, board, tuple(found))
    except ValueError as err:
        raise _at(spec, f"'found': {err}", "found") from None
    for side in Side:
        if all(c in found for c in cards.encounter_of(side)):
            raise _at(spec, f"'found' leaves {side.label} no encounter card to choose for the "
                            f"board (dracula-en:setup.secret-choice)", "found")
    # the counts that describe the reduction must say what the table keeps (a count per side
    # is the larger side's where the sides differ, as grown set-ups write it)
    kept = {"locations": size,
            "encounter_cards_per_side": max(len(cards.encounter_of(x)) for x in Side),
            "action_cards_per_side": max(len(cards.action_of(x)) for x in Side)}
    for c in spec.counts:
        if c.name in kept and kept[c.name] != c.value:
            raise MalformedInput(
                f"count {c.name}: value {c.value!r}, but the set-up keeps {kept[c.name]} "
                "(rows x columns; cards: the side with the most)", file=spec.path,
                line=spec.count_line(c.name))
    return DraculaReduced(encounter, action, int(rows), int(columns), int(life), cards, board,
                          tuple(found))


def dracula_parts(spec: ReducedSpec) -> tuple[CardSet, DraculaBoard]:
    """The kept cards and the reduced board of a reduced Dracula set-up (:func:`parse`).

    Raises:
        MalformedInput: as :func:`parse`.
    """
    part = parse(spec)
    return part.cards, part.board


def reduced_game(spec: ReducedSpec, **params: Any) -> Any:
    """The reduced set-up ``spec`` as a game on the one interface (the ``reduced`` game
    parameter): its cards and board with the given ``options`` and ``max_moves``.

    Raises:
        MalformedInput: as :func:`parse`; ``cards`` given besides (the set-up fixes them).
    """
    from ruleproof.model.dracula.game import DEFAULT_MAX_MOVES, DraculaGame

    if params.get("cards") not in (None, ""):
        raise MalformedInput(f"reduced configuration {spec.name}: cards cannot be given with "
                             f"it (the set-up fixes them)", file=spec.path)
    part = parse(spec)
    return DraculaGame(params.get("options"), int(params.get("max_moves") or DEFAULT_MAX_MOVES),
                       part.cards, part.board, part.found)


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
        self.played = RuleSet(NAME, spec.name, NAME, players=(2,), sources=("dracula-en",))
        self.rule_set = self.played if contracts else None
        self.invariants = {**DR_INVARIANTS, "conservation": conservation_of(
            enc, max(per_side) if len(per_side) == 1 else -1, cards=self.cards)}

    def roots(self) -> list[Root]:
        state = dr_new_game(0, self.rules, self.cards, self.board, resolve=False,
                            found=self.part.found)
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

    def probes(self, state: DraculaState) -> list[Any]:
        """The legal actions, the near misses the conformance probes an engine with
        (``DraculaConformance.probe_actions``: moves too far, cards not held, barriers on
        every edge ...) and the parts of a turn tried out of order (:func:`out_of_order`),
        typed."""
        from types import SimpleNamespace

        from ruleproof.properties.dracula.conformance import DraculaConformance

        out: list[Any] = list(dr_legal(state))
        names = DraculaConformance().probe_actions(SimpleNamespace(model=state))  # type: ignore[arg-type]
        for name in names:
            with contextlib.suppress(ValueError, KeyError, IndexError):
                out += parse_actions(self.board, name)
        return out + out_of_order(state)

    def engine_clauses(self, before: DraculaState, action: str,
                       after: DraculaState) -> tuple[str, ...]:
        """The clauses the model's log lines of the transition cite (the conformance blame's
        reading: :func:`~ruleproof.properties.dracula.conformance.transition_clauses`)."""
        from ruleproof.properties.dracula.conformance import transition_clauses

        return transition_clauses(before, after)

    def typed(self, action: str) -> Any:
        found = parse_actions(self.board, action)
        if len(found) != 1:
            raise ValueError(f"{action!r} is not one action")
        return found[0]


def out_of_order(state: DraculaState) -> list[Any]:
    """Actions a player might try at the wrong part of his turn or in the wrong place, for
    the clauses that only forbid (clause coverage, ``ExploreGame.probes``); typed, mostly
    illegal:

    * during the move, playing a current action card (dracula-en:pay.end-of-move,
      dracula-en:cards.play-after-move);
    * once the move is paid (the card played, or the barrier to place), stepping to a
      neighbour or looking (dracula-en:play.turn-parts), and at the barrier playing a second
      card (dracula-en:pay.one-card);
    * at the barrier, every colour on every border (dracula-en:barriers.colour,
      dracula-en:barriers.side-by-side, dracula-en:pay.barrier-restrictions) and each colour
      across two locations that are not neighbours, e.g. the diagonal of a 2 x 2 block
      (dracula-en:barriers.between).
    """
    if not state.agenda or state.winner is not None:
        return []
    head = state.agenda[0]
    k, side = head.kind, head.player
    board = state.board
    out: list[Any] = []
    if k == "move":
        out += [PlayCard(c, False) for c in state.current[side]]
    if k in ("pay", "barrier"):
        out += [Move(n) for n in board.neighbours(state.pos[state.active])]
        out.append(Look())
    if k == "barrier":
        out += [PlayCard(c, False) for c in state.current[side]]
        out += [PlaceBarrier(colour, edge) for colour in BARRIER_COLOURS for edge in board.edges]
        apart = [(a, b) for a in range(board.size) for b in range(a + 1, board.size)
                 if (a, b) not in board.edges]
        if apart:
            out += [PlaceBarrier(colour, apart[0]) for colour in BARRIER_COLOURS]
    return out


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
