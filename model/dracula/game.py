"""Dracula as a :class:`ruleproof.model.api.RulesGame` (OpenSpiel-shaped, typed).

Parameters (:func:`ruleproof.model.registry.make_game` ``"dracula"``): ``options`` (rule
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

from dataclasses import dataclass, fields, replace
from fractions import Fraction
from typing import Any

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.model.api import (
    CHANCE,
    TERMINAL,
    ActionTable,
    ImmutableHistory,
    Node,
    history_text,
    option_pairs_from,
    walk,
    zero_sum_returns,
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


class DraculaGame:
    """Dracula with fixed rule options. Raises MalformedInput for bad parameters."""

    def __init__(self, options: Any = None, max_moves: int = DEFAULT_MAX_MOVES,
                 cards: CardSet | None = None) -> None:
        self.rules = _rules_from(options)
        if isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1:
            raise MalformedInput(f"max_moves must be a positive whole number, got {max_moves!r}")
        self.max_moves = max_moves
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

    @property
    def name(self) -> str:
        return GAME_NAME

    @property
    def params(self) -> dict[str, Any]:
        defaults = DraculaRules()
        changed = {f.name: getattr(self.rules, f.name) for f in fields(DraculaRules)
                   if getattr(self.rules, f.name) != getattr(defaults, f.name)}
        return {"options": changed, "max_moves": self.max_moves}

    @property
    def num_players(self) -> int:
        return 2

    @property
    def num_distinct_actions(self) -> int:
        return len(self.table)

    @property
    def max_chance_outcomes(self) -> int:
        return len(self.chance_table)

    @property
    def max_game_length(self) -> int:
        return self.max_moves

    @property
    def max_chance_nodes(self) -> int:
        # opening: 10 draws + 12 deals; afterwards at most 5 draws (reshuffle) or one Deception
        # draw per decision
        return 22 + 5 * self.max_moves

    @property
    def observation_tensor_shape(self) -> tuple[int, ...]:
        return (self._layout.size,)

    @property
    def information_state_tensor_shape(self) -> tuple[int, ...]:
        return (self._layout.size,)

    def new_initial_state(self) -> DraculaState:
        """Before the opening draws: :data:`CHANCE` to move (every chance node is left to the
        caller)."""
        model = self._start
        return DraculaState(self, model, None, 0, model)

    def new_seeded_state(self, seed: int) -> DraculaState:
        """``new_game(seed, rules)``: the opening draws resolved from ``seed``."""
        model = new_game(seed, self.rules, self.cards)
        return DraculaState(self, model, None, 0, model)

    def from_model(self, model: State, moves: int = 0) -> DraculaState:
        """Wrap an engine state (history starts here)."""
        return DraculaState(self, model, None, moves, model)

    def __reduce__(self) -> tuple[Any, ...]:
        return (DraculaGame, (self.rules, self.max_moves, self.cards))

    def __copy__(self) -> DraculaGame:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> DraculaGame:
        return self

    def action_to_id(self, action: Any) -> int:
        if isinstance(action, ChanceOutcome):
            return self.chance_table.to_id(action)
        return self.table.to_id(action)

    def id_to_action(self, action_id: int) -> Action:
        return self.table.from_id(action_id)

    def action_to_string(self, player: int, action_id: int) -> str:
        if player == CHANCE:
            return str(self.chance_table.from_id(action_id))
        return str(self.table.from_id(action_id))

    def string_to_action(self, player: int, text: str) -> int:
        if player == CHANCE:
            return self.chance_table.from_string(text)
        return self.table.from_string(text)

    def __repr__(self) -> str:
        return "DraculaGame()" if self.rules == DraculaRules() else f"DraculaGame({self.rules})"


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


def _rebuild(game: DraculaGame, base: State, moves: int, ids: tuple[int, ...]) -> DraculaState:
    state = game.from_model(base, moves)
    for i in ids:
        state = state.apply(i)
    return state


@dataclass(frozen=True, slots=True, eq=False)
class DraculaState(ImmutableHistory):
    """A frozen Dracula state.

    Attributes:
        game: its :class:`DraculaGame`.
        model: the engine state.
        node: the history (payload per step: what each seat saw, as text).
        moves: player decisions made (for the truncation rule).
        base: the engine state the history starts from (pickling rebuilds from it).
    """

    game: DraculaGame
    model: State
    node: Node | None
    moves: int
    base: State

    def __reduce__(self) -> tuple[Any, ...]:
        first = walk(self.node)
        base_moves = self.moves - sum(1 for n in first if n.actor != CHANCE)
        return (_rebuild, (self.game, self.base, base_moves, tuple(n.action_id for n in first)))

    def current_player(self) -> int:
        cp = engine_player(self.model)
        if cp == CHANCE:
            return CHANCE
        if cp < 0 or self.moves >= self.game.max_moves:
            return TERMINAL
        return cp

    def is_terminal(self) -> bool:
        return self.model.winner is not None or self.moves >= self.game.max_moves \
            or engine_player(self.model) not in (0, 1, CHANCE)

    def is_truncated(self) -> bool:
        return self.model.winner is None and self.moves >= self.game.max_moves

    def returns(self) -> list[float]:
        return zero_sum_returns(2, self.model.winner)

    def legal_typed_actions(self) -> tuple[Action, ...]:
        if self.is_terminal():
            return ()
        return legal_actions(self.model)

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        if self.current_player() == CHANCE:
            return [o for o, _ in self.chance_outcomes()]
        ids = self.game.table._ids
        return sorted({ids[a] for a in legal_actions(self.model)})

    def legal_ids_unsorted(self) -> list[int]:
        """The legal ids (for masks); same set as :meth:`legal_actions`."""
        return self.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        if self.is_terminal() or self.current_player() != CHANCE:
            return []
        options = legal_actions(self.model)
        ids = self.game.chance_table._ids
        p = Fraction(1, len(options))
        return sorted((ids[a], p) for a in options if isinstance(a, ChanceOutcome))

    def apply(self, action_id: int) -> DraculaState:
        """The successor. Raises IllegalAction (typed action, clause ids)."""
        if self.is_terminal():
            raise IllegalAction(f"action {action_id}", "the game is over",
                                ("dracula-en:objective.goal",))
        table = self.game.chance_table if self.current_player() == CHANCE else self.game.table
        try:
            action = table.from_id(action_id)
        except MalformedInput as err:
            raise IllegalAction(f"action {action_id}", err.what, ()) from None
        return self._step(action, action_id)

    def apply_typed(self, action: Any) -> DraculaState:
        if self.is_terminal():
            raise IllegalAction(action, "the game is over", ("dracula-en:objective.goal",))
        table = self.game.chance_table if self.current_player() == CHANCE else self.game.table
        action_id = table._ids.get(action)
        if action_id is None:
            raise IllegalAction(action, "not an action of this game", ())
        return self._step(action, action_id)

    def _step(self, action: Action, action_id: int) -> DraculaState:
        from ruleproof.model.dracula import apply as engine_apply

        m = self.model
        actor = self.current_player()
        new = engine_apply(m, action)
        fresh = new.log[len(m.log):]
        seen = tuple("\n".join(e.seen[p] for e in fresh if e.seen[p]) for p in (0, 1))
        moves = self.moves + (actor != CHANCE)
        return DraculaState(self.game, new, Node(self.node, actor, action_id, seen), moves,
                            self.base)

    def _check_player(self, player: int) -> None:
        if player not in (0, 1):
            raise MalformedInput(f"no player {player} in Dracula (0 Dracula, 1 Van Helsing)")

    def observation_string(self, player: int) -> str:
        """What ``player`` may know now (:func:`ruleproof.model.dracula.observation` without
        its log)."""
        self._check_player(player)
        o = observation(self.model, player)
        parts = [f"{name}={getattr(o, name)}" for name in o.__dataclass_fields__ if name != "log"]
        if self.is_truncated():
            parts.append("truncated")
        return "\n".join(parts)

    def information_state_string(self, player: int) -> str:
        """Perfect recall: the seat's own decisions and every line it saw, in order, then the
        current observation."""
        self._check_player(player)
        strings = self.game._strings

        def render(n: Node) -> str:
            own = f"you: {strings[n.action_id]}" if n.actor == player else ""
            seen = str(n.seen[player])
            return f"{own}\n{seen}" if own and seen else own or seen

        text = history_text(self.node, player, render)
        return f"seat {player}\n{text}\n{self.observation_string(player)}"

    def observation_tensor(self, player: int) -> list[float]:
        out = [0.0] * self.game._layout.size
        for i in self.observation_indices(player):
            out[i] = 1.0
        return out

    def information_state_tensor(self, player: int) -> list[float]:
        """Same as :meth:`observation_tensor` (a Markov summary of what ``player`` knows; the
        string has perfect recall)."""
        return self.observation_tensor(player)

    def observation_indices(self, player: int, memo: dict[Any, Any] | None = None) -> list[int]:
        """The indices of the 1.0 entries of :meth:`observation_tensor` (``memo`` unused)."""
        self._check_player(player)
        return self.game._layout.indices(self, player)

    def __repr__(self) -> str:
        m = self.model
        return (f"<dracula turn {m.turn} {phase(m)} to-move {self.current_player()} "
                f"life {list(m.life)} captured {[len(c) for c in m.captured]}>")


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

    def indices(self, state: DraculaState, player: int) -> list[int]:
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
