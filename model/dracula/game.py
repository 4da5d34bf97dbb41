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

Information (who sees what: the engine's log, each event with what each side sees and what
both see alike; dracula-en:setup.secret-choice, dracula-en:setup.deal, dracula-en:look.own-card,
dracula-en:look.opponent-card, dracula-en:meet.reveal-hands, dracula-en:special.perception,
dracula-en:special.depths-of-night, dracula-en:setup.action-cards): a history node shows
everybody who acted and the public text of its events, and each side what only it saw and its
own decision (:meth:`DraculaGame.node_view`). The information-state string is the compact
digest of that chain (perfect recall); :meth:`DraculaGame.information_state_text` prints it:
the seat's own decisions and every log line it saw, in order, then the observation. The
observation's public part (figures, barriers, life markers, piles face up, the revealed card,
how many cards each side holds) is the same for both sides; the private part is the seat, its
own hand, action cards and pool cards, and the cards it knows on the board.

A reduced set-up (``spec/dracula/reduced/``) is played with ``cards`` and ``board``: the kept
cards and the smaller board (``make_game("dracula", reduced=NAME)``).
"""

from __future__ import annotations

import random
import re
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
    Section,
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
        board: a board instead of the shipped 3 x 4 one (a reduced set-up's).
        found: target cards found before the start (a reduced set-up's, see
            :func:`~ruleproof.model.dracula.setup.initial_state`; empty in the real game).
    """

    name = GAME_NAME
    over_clauses = ("dracula-en:objective.goal",)
    chance_clauses = ("dracula-en:setup.deal",)
    chance_refused = "no such card to draw here"

    def __init__(self, options: Any = None, max_moves: int = DEFAULT_MAX_MOVES,
                 cards: CardSet | None = None, board: Board | None = None,
                 found: tuple[str, ...] = ()) -> None:
        self.rules = _rules_from(options)
        if isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1:
            raise MalformedInput(f"max_moves must be a positive whole number, got {max_moves!r}")
        self.max_moves = max_moves
        self.num_players = 2
        self.cards = cards or default_cards()
        self.board = board or default_board()
        self.found = tuple(found)
        self.table: ActionTable[Action] = ActionTable(build_actions(self.cards, self.board),
                                                      GAME_NAME)
        self._strings = [text for _, text in self.table.rows()]
        items = [c.id for c in self.cards.encounter] + [c.id for c in self.cards.action]
        self.chance_table: ActionTable[ChanceOutcome] = ActionTable(
            [ChanceOutcome(c) for c in items], GAME_NAME + " chance")
        self._layout = _Layout(self)
        try:
            self._start = new_game_unresolved(self.rules, self.cards, board=self.board,
                                              found=self.found)
        except ValueError as err:
            raise MalformedInput(f"found before the start: {err}") from None
        self._enc_index = {c.id: i for i, c in enumerate(self.cards.encounter)}
        self._hidden_kinds = {ChooseCard: 0, Place: 1}
        self.recall_width = len(self.table) + len(self.chance_table) + 3 + len(self._enc_index) + 3

    # -- hooks --------------------------------------------------------------------------------
    def initial_model(self) -> State:
        """Before the opening draws (dracula-en:setup.action-cards): chance to move."""
        return self._start

    def seeded_model(self, seed: int) -> State:
        """``new_game(seed, rules)``: the opening draws resolved from ``seed``."""
        return new_game(seed, self.rules, self.cards, self.board, found=self.found)

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
        seen = tuple("\n".join(e.seen[p] for e in fresh if e.seen[p]) for p in (0, 1))
        public = "\n".join(t for e in fresh if (t := e.public_text))
        return new, (seen[0], seen[1], public)

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
        """The opening draws (five a side, or fewer cards) and the deal of the board; then at
        most one reshuffle's draws or one Deception draw per decision."""
        per_side = [min(5, len(self.cards.action_of(side))) for side in Side]
        return sum(per_side) + self.board.size + max(1, *per_side) * self.max_moves

    @property
    def observation_size(self) -> int:
        return self._layout.size

    def __reduce__(self) -> tuple[Any, ...]:
        board = None if self.board == default_board() else self.board
        return (_remake, (self.rules, self.max_moves, self.cards, board, self.truncation))

    def state_repr(self, state: GameState) -> str:
        m = state.model
        return (f"<dracula turn {m.turn} {phase(m)} to-move {state.current_player()} "
                f"life {list(m.life)} captured {[len(c) for c in m.captured]}>")

    def __repr__(self) -> str:
        return "DraculaGame()" if self.rules == DraculaRules() else f"DraculaGame({self.rules})"

    # -- the observer -------------------------------------------------------------------------
    def observation_string(self, state: GameState, player: int) -> str:
        """What ``player`` may know now: its private part, then the public part."""
        return f"{self.private_observation_string(state, player)}\n" \
               f"{self.public_observation_string(state)}"

    def public_observation_string(self, state: GameState) -> str:
        """What both sides see now (the same text for both): the figures, barriers, life
        markers, the face-up piles, the revealed and played cards, how many cards each side
        holds, the pending step and the result."""
        m: State = state.model
        o = observation(m, 0)
        parts = [f"{name}={getattr(o, name)}" for name in _PUBLIC_FIELDS]
        parts.append(f"hands={[len(h) for h in m.hand]} current={[len(c) for c in m.current]} "
                     f"aside={[len(a) for a in m.aside]}")
        if state.is_truncated():
            parts.append("truncated")
        return "\n".join(parts)

    def private_observation_string(self, state: GameState, player: int) -> str:
        """What only ``player`` sees now: its seat, hand, action cards, its cards in the deal
        pool and the cards it knows on the board (dracula-en:look.own-card)."""
        o = observation(state.model, player)
        return "\n".join([f"player={player}", *(f"{name}={getattr(o, name)}"
                                                 for name in _PRIVATE_FIELDS)])

    def observation_sections(self) -> tuple[Section, ...]:
        return self._layout.section_list

    def node_view(self, node: Node, player: int) -> tuple[str, str]:
        """Public: who acted and the events' public text. Private: the seat's own decision
        and what it saw beyond the public text (its draws, looks, the hands shown to it)."""
        seen, public = node.seen[player], node.seen[2]
        own = f"you: {self._strings[node.action_id]}" if node.actor == player else ""
        extra = seen if seen != public else ""
        return (f"{node.actor}|{public}", f"{own}|{extra}" if own or extra else "")

    def information_state_text(self, state: GameState, player: int) -> str:
        """The seat's own decisions and every line it saw, in order, then the current
        observation."""
        strings = self._strings

        def render(n: Node) -> str:
            own = f"you: {strings[n.action_id]}" if n.actor == player else ""
            seen = str(n.seen[player])
            return f"{own}\n{seen}" if own and seen else own or seen

        text = history_text(state.node, player, render)
        return f"seat {player}\n{text}\n{self.observation_string(state, player)}"

    def recall_indices(self, node: Node, player: int) -> list[int]:
        """The node's codes: a decision or chance outcome the seat saw (its id), or the kind
        of one it did not see (a chance outcome, a secret choice, a card laid face down);
        the encounter cards named in what it saw; whether Depths of Night took a card, and
        who won if the node ended the game."""
        actions, outcomes = len(self.table), len(self.chance_table)
        seen = node.seen[player]
        out: list[int]
        if node.actor == player:
            out = [node.action_id]
        elif node.actor == CHANCE:
            item = self.chance_table.from_id(node.action_id).item
            name = self.cards.act(item).name if item in self._act_ids else item
            out = [actions + node.action_id] if _names(name, seen) else [actions + outcomes]
        else:
            action = self.table.from_id(node.action_id)
            kind = self._hidden_kinds.get(type(action))
            card = getattr(action, "card", None)
            if kind is not None and (card is None or not _names(str(card), seen)):
                out = [actions + outcomes + 1 + kind]
            else:
                out = [node.action_id]
        base = actions + outcomes + 3
        enc = self._enc_index
        out += sorted({base + enc[w] for w in _WORD.findall(seen) if w in enc})
        flags = base + len(enc)
        if "takes his" in seen or "takes a card" in seen:
            out.append(flags)
        for side, label in enumerate(_WINS):
            if label in seen:
                out.append(flags + 1 + side)
        return out

    @property
    def _act_ids(self) -> frozenset[str]:
        found: frozenset[str] | None = self.__dict__.get("_act_id_set")
        if found is None:
            found = self.__dict__["_act_id_set"] = frozenset(c.id for c in self.cards.action)
        return found

    def observation_indices(self, state: GameState, player: int,
                            memo: dict[Any, Any] | None = None) -> list[int]:
        """The indices of the 1.0 entries of the observation tensor (``memo`` unused)."""
        return self._layout.indices(state, player)

    def resample_history(self, state: GameState, player: int, rng: random.Random) -> GameState:
        """A state ``player`` cannot tell from ``state``: on a reduced board (at most
        :data:`EXACT_RESAMPLE_BOARD` locations) exact when there are at most
        :data:`EXACT_RESAMPLE_LIMIT` consistent histories (every one enumerated,
        :func:`ruleproof.model.hidden.resample_exact`); otherwise, and on the full board
        (where enumeration costs seconds a draw), by the approximate randomized walk
        :func:`ruleproof.model.hidden.resample_walk` (every drawn history consistent; the
        distribution only close to uniform, docs/interop.md)."""
        from ruleproof.model.dracula.resample import allowed_for
        from ruleproof.model.hidden import TooManyHistories, resample_exact, resample_walk

        if self.board.size <= EXACT_RESAMPLE_BOARD:
            try:
                return resample_exact(state, player, rng, EXACT_RESAMPLE_LIMIT)
            except TooManyHistories:
                pass
        kept = self.__dict__.get("_resample_pins")
        if kept is None or kept[0] is not state.node or kept[1] != player:
            # ISMCTS resamples one information state many times: its pins are kept (one entry)
            kept = self.__dict__["_resample_pins"] = (state.node, player,
                                                      allowed_for(self, state, player))
        return resample_walk(state, player, rng, allowed=kept[2])


EXACT_RESAMPLE_LIMIT = 200
"""The most consistent histories Dracula's resampling enumerates before it walks instead."""
EXACT_RESAMPLE_BOARD = 4
"""The largest board (locations) on which Dracula's resampling tries the exact draw first."""
_WORD = re.compile(r"[a-z]+[0-9]+")
_WINS = tuple(f"{side.label} wins" for side in Side)
_PUBLIC_FIELDS = ("to_move", "pending", "pending_n", "pending_colours", "turn", "active", "steps",
                  "can_look", "revealed", "played", "use_special", "pos", "barriers", "life",
                  "turned", "breath_turn", "whisper_turn", "vigilance", "captured",
                  "enc_discard", "adiscard", "pool_size", "empty", "winner")
_PRIVATE_FIELDS = ("own_hand", "own_current", "own_aside", "own_pool", "known")


def _names(name: str, text: str) -> bool:
    """Whether ``text`` names the card ``name`` (an id, or an action card's printed name)."""
    return bool(text) and name in text


def _remake(rules: DraculaRules, max_moves: int, cards: CardSet, board: Board | None,
            truncation: str | float) -> DraculaGame:
    game = DraculaGame(rules, max_moves, cards, board)
    game.truncation = truncation
    return game


DraculaState = GameState
"""Dracula's states are the one :class:`~ruleproof.model.api.GameState`."""


def new_game_unresolved(rules: DraculaRules, cards: CardSet, seed: int = 0,
                        board: Board | None = None, found: tuple[str, ...] = ()) -> State:
    """The engine's ``new_game(seed, rules, cards)`` with its ten opening action-card draws
    (dracula-en:setup.action-cards) still to do as chance steps.

    Built from the engine's own start: the seeded game with its drawn cards put back onto the
    piles and the draw steps put back onto the agenda (the engine's ``set-aside`` step then
    runs as in ``new_game``). tests/test_model_api.py checks that applying the seed's draws in
    the engine's order gives exactly ``new_game(seed)``.
    """
    resolved = new_game(seed, rules, cards, board, found=found)
    acts = tuple(tuple(sorted(cards.action_of(side))) for side in (Side.DRACULA, Side.VAN_HELSING))
    opening: list[Step] = []
    for side in (0, 1):
        opening += [Step("draw-action", side)] * 5 + [Step("set-aside", side)]
    return replace(resolved, agenda=(*opening, *resolved.agenda), current=((), ()),
                   aside=((), ()), adiscard=(acts[0], acts[1]),
                   log=Log(resolved.log[0], EMPTY_LOG), step=0)


_PRIVATE_SECTIONS = frozenset({"observer", "own_hand", "own_current", "own_aside", "own_pool",
                               "known"})


class _Layout:
    """Offsets of the Dracula observation tensor (docs/interop.md): the observer's seat, its
    hand, action cards, pool cards and the cards it knows on the board are private; the rest
    (hand and pile sizes per side included) is public."""

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
            ("hand_size", 2 * (e + 1)), ("current_size", 2 * (a + 1)),
            ("aside_size", 2 * (a + 1)), ("pool_size", e + 1), ("empty", n),
            ("known", n * (e + 1)), ("winner", 2), ("truncated", 1)]
        self.sections = sections
        self.section_list = tuple(Section(name, width, name in _PRIVATE_SECTIONS)
                                  for name, width in sections)
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
        m: State = state.model
        for side in (0, 1):
            out.append(o["hand_size"] + side * (e + 1) + min(len(m.hand[side]), e))
            out.append(o["current_size"] + side * (a + 1) + min(len(m.current[side]), a))
            out.append(o["aside_size"] + side * (a + 1) + min(len(m.aside[side]), a))
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
