"""Dracula on the one game interface (:class:`ruleproof.model.api.GameBase`; OpenSpiel-shaped).

Parameters (the game's plugin, ``make_game("dracula", ...)``): ``options`` (rule
options, :class:`ruleproof.model.dracula.DraculaRules`, dict or ``"name=value,..."``) and
``max_moves`` (the truncation bound). Seats: 0 Dracula, 1 Van Helsing.

Chance: the opening action-card draws (dracula-en:setup.action-cards), the deal of the twelve
chosen encounter cards (dracula-en:setup.deal), the action-card reshuffle
(dracula-en:cards.cycle) and Deception's draw (dracula-en:special.deception) are chance nodes;
each outcome is one distinct card, drawn uniformly: probability 1/(cards to draw from), exactly
the engine's ``resolve_chance`` distribution. Chance outcome ids: the card's position in
(encounter cards, then action cards) of the card set. ``new_seeded_state(seed)`` is the
engine's ``new_game(seed, rules)``, whose opening draws come from the seed (same seed, same
draws); later chance nodes stay explicit.

Truncation (``interop.truncation``, docs/interop.md): nothing in the rules bounds the number of
turns (figures can walk back and forth); a game is declared over without a winner after
``max_moves`` player decisions (default 1000; random games take about 20-160). Returns: the
winner (dracula-en:objective.goal, dracula-en:early-end.last-marker) +1, the other -1; truncated:
0 each.

Information: the information-state string has perfect recall: the seat's own decisions, and
every log line the seat saw (its own looks, hands shown to it, public events), in order, then
:meth:`DraculaState.observation_string`.
"""

from __future__ import annotations

from dataclasses import fields, replace
from fractions import Fraction
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model.api import (
    CHANCE,
    TERMINAL,
    ActionTable,
    GameBase,
    GameState,
    Node,
    history_text,
    option_pairs_from,
)
from ruleproof.model.dracula import (
    CardSet,
    DraculaRules,
    Side,
    State,
    default_board,
    default_cards,
    legal_actions,
    new_game,
    observation,
    phase,
    rules_from_mapping,
)
from ruleproof.model.dracula import current_player as engine_player
from ruleproof.model.dracula.data import COLOURS, Board
from ruleproof.model.dracula.engine import (
    Accept,
    Action,
    ChanceOutcome,
    ChooseCard,
    Depths,
    Fly,
    GiveTarget,
    Look,
    Meet,
    Move,
    Place,
    PlaceBarrier,
    PlayCard,
    Recall,
    Roar,
    SkipBarrier,
    Step,
    Stop,
    TakeBack,
    TurnCard,
)
from ruleproof.model.dracula.state import EMPTY_LOG, Log

GAME_NAME = "dracula"
DEFAULT_MAX_MOVES = 1000
KINDS = ("choose", "move", "meet", "place", "pay", "rescue", "special-choice", "depths-place",
         "barrier", "draw-action", "deal", "deception-draw", "over")


def build_actions(cards: CardSet, board: Board) -> list[Action]:
    """The player action table, id = position (docs/interop.md)."""
    enc = [c.id for c in cards.encounter]
    act = [c.id for c in cards.action]
    locs = range(board.size)
    out: list[Action] = [ChooseCard(c) for c in enc]
    out += [Move(x) for x in locs]
    out += [Look(), Stop(), Meet(True), Meet(False)]
    out += [Place(c) for c in enc]
    for c in act:
        out += [PlayCard(c, False), PlayCard(c, True)]
    out += [TakeBack(c) for c in act]
    out += [Recall(c) for c in enc]
    out += [TurnCard(x) for x in locs]
    out += [Fly(x) for x in locs]
    out += [Depths(x) for x in locs]
    out += [Roar(Side.DRACULA), Roar(Side.VAN_HELSING)]
    out += [PlaceBarrier(colour, edge) for colour in COLOURS for edge in board.edges]
    out += [SkipBarrier()]
    out += [GiveTarget(c) for c in enc]
    out += [Accept()]
    return out


def _rules_from(value: Any) -> DraculaRules:
    if value is None or value == "":
        return DraculaRules()
    if isinstance(value, DraculaRules):
        return value
    if isinstance(value, dict):
        return rules_from_mapping(value)
    return rules_from_mapping(option_pairs_from(value))


class DraculaGame(GameBase[State]):
    """Dracula with fixed rule options. Raises MalformedInput for bad parameters.

    Args:
        options: rule options (:class:`~ruleproof.model.dracula.DraculaRules`, a dict, or
            ``"name=value,..."``).
        max_moves: truncation bound on player decisions (>= 1).
        cards: a card set instead of the shipped one (``spec/dracula/cards.toml``).
    """

    name = GAME_NAME
    over_clauses = ("dracula-en:objective.goal",)
    chance_clauses = ("dracula-en:setup.deal",)
    chance_refused = "no such card to draw here"

    def __init__(self, options: Any = None, max_moves: int = DEFAULT_MAX_MOVES,
                 cards: CardSet | None = None) -> None:
        self.rules = _rules_from(options)
        if isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1:
            raise MalformedInput(f"max_moves must be a positive whole number, got {max_moves!r}")
        self.max_moves = max_moves
        self.num_players = 2
        self.cards = cards or default_cards()
        self.board = default_board()
        self.table: ActionTable[Action] = ActionTable(build_actions(self.cards, self.board),
                                                      GAME_NAME)
        self._strings = [text for _, text in self.table.rows()]
        items = [c.id for c in self.cards.encounter] + [c.id for c in self.cards.action]
        self.chance_table: ActionTable[ChanceOutcome] = ActionTable(
            [ChanceOutcome(c) for c in items], GAME_NAME + " chance")
        self._layout = _Layout(self)
        self._start = new_game_unresolved(self.rules, self.cards)

    # -- hooks --------------------------------------------------------------------------------
    def initial_model(self) -> State:
        """Before the opening draws (dracula-en:setup.action-cards): chance to move."""
        return self._start

    def seeded_model(self, seed: int) -> State:
        """``new_game(seed, rules)``: the opening draws resolved from ``seed``."""
        return new_game(seed, self.rules, self.cards)

    def model_to_move(self, m: State) -> int:
        if m.winner is not None:
            return TERMINAL
        cp = engine_player(m)
        return cp if cp in (0, 1, CHANCE) else TERMINAL

    def model_legal(self, m: State) -> tuple[Action, ...]:
        return legal_actions(m)

    def model_chance(self, m: State) -> list[tuple[Any, Fraction]]:
        options = legal_actions(m)
        p = Fraction(1, len(options))
        return [(a, p) for a in options if isinstance(a, ChanceOutcome)]

    def model_step(self, m: State, action: Any) -> tuple[State, Any]:
        from ruleproof.model.dracula import apply as engine_apply

        new = engine_apply(m, action)
        fresh = new.log[len(m.log):]
        return new, tuple("\n".join(e.seen[p] for e in fresh if e.seen[p]) for p in (0, 1))

    def model_winner(self, m: State) -> int | None:
        return m.winner

    # -- more of the game ---------------------------------------------------------------------
    @property
    def params(self) -> dict[str, Any]:
        defaults = DraculaRules()
        changed = {f.name: getattr(self.rules, f.name) for f in fields(DraculaRules)
                   if getattr(self.rules, f.name) != getattr(defaults, f.name)}
        return {"options": changed, "max_moves": self.max_moves}

    @property
    def max_chance_nodes(self) -> int:
        # opening: 10 draws + 12 deals; afterwards at most 5 draws (reshuffle) or one Deception
        # draw per decision
        return 22 + 5 * self.max_moves

    @property
    def observation_size(self) -> int:
        return self._layout.size

    def __reduce__(self) -> tuple[Any, ...]:
        return (DraculaGame, (self.rules, self.max_moves, self.cards))

    def state_repr(self, state: GameState) -> str:
        m = state.model
        return (f"<dracula turn {m.turn} {phase(m)} to-move {state.current_player()} "
                f"life {list(m.life)} captured {[len(c) for c in m.captured]}>")

    def __repr__(self) -> str:
        return "DraculaGame()" if self.rules == DraculaRules() else f"DraculaGame({self.rules})"

    # -- the observer -------------------------------------------------------------------------
    def observation_string(self, state: GameState, player: int) -> str:
        """What ``player`` may know now (:func:`ruleproof.model.dracula.observation` without
        its log)."""
        o = observation(state.model, player)
        parts = [f"{name}={getattr(o, name)}" for name in o.__dataclass_fields__ if name != "log"]
        if state.is_truncated():
            parts.append("truncated")
        return "\n".join(parts)

    def information_state_string(self, state: GameState, player: int) -> str:
        """Perfect recall: the seat's own decisions and every line it saw, in order, then the
        current observation."""
        strings = self._strings

        def render(n: Node) -> str:
            own = f"you: {strings[n.action_id]}" if n.actor == player else ""
            seen = str(n.seen[player])
            return f"{own}\n{seen}" if own and seen else own or seen

        text = history_text(state.node, player, render)
        return f"seat {player}\n{text}\n{self.observation_string(state, player)}"

    def observation_indices(self, state: GameState, player: int,
                            memo: dict[Any, Any] | None = None) -> list[int]:
        """The indices of the 1.0 entries of the observation tensor (``memo`` unused)."""
        return self._layout.indices(state, player)


DraculaState = GameState
"""Dracula's states are the one :class:`~ruleproof.model.api.GameState`."""


def new_game_unresolved(rules: DraculaRules, cards: CardSet, seed: int = 0) -> State:
    """The engine's ``new_game(seed, rules, cards)`` with its ten opening action-card draws
    (dracula-en:setup.action-cards) still to do as chance steps.

    Built from the engine's own start: the seeded game with its drawn cards put back onto the
    piles and the draw steps put back onto the agenda (the engine's ``set-aside`` step then
    runs as in ``new_game``). tests/test_model_api.py checks that applying the seed's draws in
    the engine's order gives exactly ``new_game(seed)``.
    """
    resolved = new_game(seed, rules, cards)
    acts = tuple(tuple(sorted(cards.action_of(side))) for side in (Side.DRACULA, Side.VAN_HELSING))
    opening: list[Step] = []
    for side in (0, 1):
        opening += [Step("draw-action", side)] * 5 + [Step("set-aside", side)]
    return replace(resolved, agenda=(*opening, *resolved.agenda), current=((), ()),
                   aside=((), ()), adiscard=(acts[0], acts[1]),
                   log=Log(resolved.log[0], EMPTY_LOG), step=0)


class _Layout:
    """Offsets of the Dracula observation tensor (docs/interop.md)."""

    def __init__(self, game: DraculaGame) -> None:
        self.enc = {c.id: i for i, c in enumerate(game.cards.encounter)}
        self.act = {c.id: i for i, c in enumerate(game.cards.action)}
        e, a, n = len(self.enc), len(self.act), game.board.size
        self.n = n
        self.edges = {edge: i for i, edge in enumerate(game.board.edges)}
        life = game.board.life_markers
        self.life = life
        sections = [
            ("observer", 2), ("to_move", 2), ("pending", len(KINDS)), ("active", 2),
            ("steps", 10), ("can_look", 1), ("use_special", 1), ("vigilance", 1),
            ("breath", 1), ("whisper", 1), ("pos", 2 * n),
            ("barriers", len(COLOURS) * (len(self.edges) + 1)), ("life", 2 * (life + 1)),
            ("turned", n + 1), ("revealed_loc", n), ("revealed_card", e), ("played", a),
            ("own_hand", e), ("own_current", a), ("own_aside", a), ("own_pool", e),
            ("captured", 2 * e), ("enc_discard", 2 * e), ("adiscard", 2 * a),
            ("other_hand", e + 1), ("other_current", a + 1), ("other_aside", a + 1),
            ("pool_size", e + 1), ("empty", n), ("known", n * (e + 1)), ("winner", 2),
            ("truncated", 1)]
        self.sections = sections
        self.offset: dict[str, int] = {}
        at = 0
        for name, width in sections:
            self.offset[name] = at
            at += width
        self.size = at
        self.e, self.a = e, a

    def indices(self, state: GameState, player: int) -> list[int]:
        o = self.offset
        ob = observation(state.model, player)
        e, a, n = self.e, self.a, self.n
        enc, act = self.enc, self.act
        out = [o["observer"] + player]
        cp = state.current_player()
        if cp >= 0:
            out.append(o["to_move"] + cp)
        kind = ob.pending if ob.pending in KINDS else "over"
        out.append(o["pending"] + KINDS.index(kind))
        out.append(o["active"] + ob.active)
        out.append(o["steps"] + min(ob.steps, 9))
        for flag in ("can_look", "use_special", "vigilance"):
            if getattr(ob, flag):
                out.append(o[flag])
        if ob.breath_turn >= 0:
            out.append(o["breath"])
        if ob.whisper_turn >= 0:
            out.append(o["whisper"])
        out += [o["pos"] + side * n + loc for side, loc in enumerate(ob.pos)]
        width = len(self.edges) + 1
        out += [o["barriers"] + i * width + (0 if edge is None else 1 + self.edges[edge])
                for i, edge in enumerate(ob.barriers)]
        out += [o["life"] + side * (self.life + 1) + min(v, self.life)
                for side, v in enumerate(ob.life)]
        out.append(o["turned"] + (n if ob.turned is None else ob.turned))
        if ob.revealed is not None:
            out.append(o["revealed_loc"] + ob.revealed[0])
            out.append(o["revealed_card"] + enc[ob.revealed[1]])
        if ob.played is not None:
            out.append(o["played"] + act[ob.played])
        out += [o["own_hand"] + enc[c] for c in ob.own_hand]
        out += [o["own_current"] + act[c] for c in ob.own_current]
        out += [o["own_aside"] + act[c] for c in ob.own_aside]
        out += [o["own_pool"] + enc[c] for c in ob.own_pool]
        for side in (0, 1):
            out += [o["captured"] + side * e + enc[c] for c in ob.captured[side]]
            out += [o["enc_discard"] + side * e + enc[c] for c in ob.enc_discard[side]]
            out += [o["adiscard"] + side * a + act[c] for c in ob.adiscard[side]]
        hand, current, aside = ob.other_sizes
        out.append(o["other_hand"] + min(hand, e))
        out.append(o["other_current"] + min(current, a))
        out.append(o["other_aside"] + min(aside, a))
        out.append(o["pool_size"] + min(ob.pool_size, e))
        out += [o["empty"] + loc for loc, empty in enumerate(ob.empty) if empty]
        out += [o["known"] + loc * (e + 1) + (e if card is None else enc[card])
                for loc, card in enumerate(ob.known)]
        if ob.winner is not None:
            out.append(o["winner"] + ob.winner)
        if state.is_truncated():
            out.append(o["truncated"])
        return out


__all__ = ["DEFAULT_MAX_MOVES", "GAME_NAME", "DraculaGame", "DraculaState", "build_actions"]
