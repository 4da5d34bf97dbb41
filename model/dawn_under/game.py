"""Dawn Under as a :class:`ruleproof.model.api.RulesGame` (OpenSpiel-shaped, typed).

Parameters (:func:`ruleproof.model.registry.make_game` ``"dawn-under"``): ``players`` 2-6 (2
selects the 2-player rules, preset ``2p``, du-en:2p.components), ``preset`` ``du-en`` | ``du-cs``
| ``2p``, ``options`` (rule options on top of the preset, docs/rules-options.md), ``expansion``
None | ``"gruft"`` (gruft-en), ``max_moves`` (the truncation bound, below).

Chance: the set-up (du-en:prep.reserve, du-en:prep.mix-rats, du-en:prep.deal, du-en:2p.lids) is
a sequence of chance nodes, one item at a time: first the reserve stack top first (coloured lids
only), then the lid of each grave in grave order (a colour, a rat, or, with 2 players, no lid),
then each player's row left to right (vampire colours). Each outcome has probability
(items of that kind left) / (items left), so the deal is the uniform arrangement that the
engine's shuffles produce, and every deal is one path. Outcome ids: ``0..5`` colour, ``6`` rat
lid, ``7`` no lid. ``new_seeded_state(seed)`` is ``new_game(config, seed)`` (same seed, same
deal); :meth:`DawnUnderGame.setup_outcomes` turns any set-up into its chance path.

Truncation (``interop.truncation``, docs/interop.md): Dawn Under's rules do not bound a game's
length (play can cycle forever: a finding registered separately); the game is
declared over without a winner after ``max_moves`` player decisions (default 3000; random games
take a few hundred). Returns: the winner (du-en:aim.win, du-en:end.first-empty) +1, the others
-1/(n-1); truncated: all 0.

Information: every lid turned and every placement is seen by all (du-en:ch1.open), nobody knows
a face-down vampire (du-en:prep.row), so observations are public. The information-state string
has perfect recall: every decision (actor and action) and every lid revealed, in order, then
the current observation.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
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
from ruleproof.model.dawn_under import (
    RAT,
    Action,
    Config,
    End,
    EventKind,
    GarlicIn,
    GiveVampire,
    LeaveEmpty,
    OpenGrave,
    Phase,
    PlaceGarlic,
    PlaceVampire,
    ReceiveVampire,
    Setup,
    State,
    Stop,
    VampireIn,
    current_player,
    initial_state,
    is_terminal,
    legal_actions,
    make_config,
    new_game,
    parse_options,
    step,
)
from ruleproof.model.dawn_under.config import preset_options
from ruleproof.model.dawn_under.expansion import all_expansions

GAME_NAME = "dawn-under"
DEFAULT_MAX_MOVES = 3000
MAX_SEATS = 6
RAT_OUTCOME = 6
NO_LID_OUTCOME = 7
CHANCE_NAMES = ("colour", "rat", "no-lid")

_PHASES: tuple[Any, ...] = (*Phase, *(p for x in all_expansions() for p in x.phases))
_PHASE_INDEX = {p: i for i, p in enumerate(_PHASES)}


def build_actions(graves: int) -> list[Action]:
    """The action table over a board of ``graves`` graves, id = position (docs/interop.md)."""
    out: list[Action] = [OpenGrave(g) for g in range(graves)]
    for g in range(graves):
        out += [PlaceVampire(g, End.LEFT), PlaceVampire(g, End.RIGHT)]
    out += [PlaceGarlic(g) for g in range(graves)]
    out += [LeaveEmpty(g) for g in range(graves)]
    out += [Stop(), GiveVampire(End.LEFT), GiveVampire(End.RIGHT), ReceiveVampire(End.LEFT),
            ReceiveVampire(End.RIGHT)]
    for expansion in all_expansions():  # every expansion's, so ids do not depend on the choice
        out += expansion.table_actions(graves, MAX_SEATS)
    return out


class DawnUnderGame:
    """Dawn Under with fixed parameters. Raises MalformedInput for bad parameters.

    Args:
        players: 2..6 (2: the 2-player rules).
        preset: ``du-en`` (default; ``2p`` with 2 players), ``du-cs`` or ``2p``.
        options: rule options on top of the preset (dict, or ``"name=value,name=value"``).
        expansion: None or ``"gruft"``.
        max_moves: truncation bound on player decisions (>= 1).
    """

    def __init__(self, players: int = 4, preset: str | None = None, options: Any = None,
                 expansion: str | None = None, max_moves: int = DEFAULT_MAX_MOVES) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise MalformedInput(f"players must be a whole number, got {players!r}")
        if preset in (None, ""):
            preset = "2p" if players == 2 else "du-en"
        assert preset is not None
        pairs = option_pairs_from(options)
        if expansion not in (None, "", "none"):
            pairs["expansion"] = str(expansion)
        opts = parse_options(pairs, base=preset_options(preset))
        if isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1:
            raise MalformedInput(f"max_moves must be a positive whole number, got {max_moves!r}")
        self.config: Config = make_config(players, opts, preset=preset)
        self.preset = preset
        self.expansion = opts.expansion if opts.expansion != "none" else None
        self.option_pairs = tuple(sorted(pairs.items()))
        self.max_moves = max_moves
        c = self.config
        self.graves = c.board.size
        self.table: ActionTable[Action] = ActionTable(build_actions(self.graves), GAME_NAME)
        self._strings = [text for _, text in self.table.rows()]
        self.lid_counts = tuple(c.lids_per_colour if k in c.lid_colours else 0 for k in range(6))
        self.vampire_counts = tuple(
            c.vampires_per_colour if k in c.vampire_colours else 0 for k in range(6))
        total_vampires = sum(self.vampire_counts)
        self.share = total_vampires // c.players
        self.deal_length = c.reserve_size + self.graves + self.share * c.players
        self.max_row = total_vampires
        self._layout = _Layout(self)

    # -- RulesGame ------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return GAME_NAME

    @property
    def params(self) -> dict[str, Any]:
        return {"players": self.config.players, "preset": self.preset,
                "options": dict(self.option_pairs), "expansion": self.expansion,
                "max_moves": self.max_moves}

    @property
    def num_players(self) -> int:
        return self.config.players

    @property
    def num_distinct_actions(self) -> int:
        return len(self.table)

    @property
    def max_chance_outcomes(self) -> int:
        return 8

    @property
    def max_game_length(self) -> int:
        return self.max_moves

    @property
    def max_chance_nodes(self) -> int:
        return self.deal_length

    @property
    def observation_tensor_shape(self) -> tuple[int, ...]:
        return (self._layout.size,)

    @property
    def information_state_tensor_shape(self) -> tuple[int, ...]:
        return (self._layout.size,)

    def new_initial_state(self) -> DawnUnderState:
        """Before the deal: :data:`CHANCE` to move."""
        return DawnUnderState(self, None, (), None, 0, None)

    def new_seeded_state(self, seed: int) -> DawnUnderState:
        """``new_game(config, seed)``: the set-up the engine deals from ``seed``."""
        model = new_game(self.config, seed)
        return DawnUnderState(self, model, (), None, 0, model)

    def from_setup(self, setup: Setup) -> DawnUnderState:
        """The state after an explicit set-up (raises MalformedInput if it does not fit)."""
        model = initial_state(self.config, setup)
        return DawnUnderState(self, model, (), None, 0, model)

    def from_model(self, model: State, moves: int = 0) -> DawnUnderState:
        """Wrap an engine state (history starts here; ``moves`` decisions already made)."""
        return DawnUnderState(self, model, (), None, moves, model)

    def _render(self, n: Node) -> str:
        """One line of the public history (information_state_string)."""
        if n.actor == CHANCE:
            return "deal: a grave without a lid" if n.seen else ""
        line = f"p{n.actor}: {self._strings[n.action_id]}"
        shown = [f"{e.grave}={e.value}" for e in n.seen if e.kind is EventKind.REVEAL]
        return line + " shows " + ",".join(shown) if shown else line

    def __reduce__(self) -> tuple[Any, ...]:
        return (_make_game, (self.config.players, self.preset, dict(self.option_pairs),
                             self.max_moves))

    def __copy__(self) -> DawnUnderGame:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> DawnUnderGame:
        return self

    def action_to_id(self, action: Any) -> int:
        return self.table.to_id(action)

    def id_to_action(self, action_id: int) -> Action:
        return self.table.from_id(action_id)

    def action_to_string(self, player: int, action_id: int) -> str:
        if player == CHANCE:
            return chance_string(action_id)
        return str(self.table.from_id(action_id))

    def string_to_action(self, player: int, text: str) -> int:
        if player == CHANCE:
            for i in range(8):
                if chance_string(i) == text.strip():
                    return i
            raise MalformedInput(f"{text!r} is not a Dawn Under chance outcome")
        return self.table.from_string(text)

    def setup_outcomes(self, setup: Setup) -> list[int]:
        """The chance path (outcome ids, in deal order) that deals ``setup``."""
        out = [int(x) for x in setup.reserve]
        out += [NO_LID_OUTCOME if lid is None else RAT_OUTCOME if lid == RAT else int(lid)
                for lid in setup.lids]
        for row in setup.rows:
            out += [int(x) for x in row]
        return out

    def __repr__(self) -> str:
        extra = f", expansion={self.expansion!r}" if self.expansion else ""
        return f"DawnUnderGame(players={self.config.players}, preset={self.preset!r}{extra})"


def _make_game(players: int, preset: str, options: dict[str, str],
               max_moves: int) -> DawnUnderGame:
    return DawnUnderGame(players, preset, options, None, max_moves)


def _rebuild(game: DawnUnderGame, base: State | None, moves: int,
             ids: tuple[int, ...]) -> DawnUnderState:
    state = game.new_initial_state() if base is None else game.from_model(base, moves)
    for i in ids:
        state = state.apply(i)
    return state


def chance_string(outcome: int) -> str:
    """Notation of a deal outcome: ``colour 0``..``colour 5``, ``rat``, ``no-lid``."""
    if 0 <= outcome < 6:
        return f"colour {outcome}"
    if outcome == RAT_OUTCOME:
        return "rat"
    if outcome == NO_LID_OUTCOME:
        return "no-lid"
    raise MalformedInput(f"chance outcome {outcome} is not in 0..7")


@dataclass(frozen=True, slots=True, eq=False)
class DawnUnderState(ImmutableHistory):
    """A frozen Dawn Under state (see the module docstring).

    Attributes:
        game: its :class:`DawnUnderGame`.
        model: the engine state (None while the set-up is dealt).
        dealt: chance outcomes drawn so far (only while ``model`` is None).
        node: the history (a :class:`ruleproof.model.api.Node` list; payload: the public events).
        moves: player decisions made (for the truncation rule).
        base: the engine state the history starts from (None: before the deal); with the
            history it rebuilds the state (pickling).
    """

    game: DawnUnderGame
    model: State | None
    dealt: tuple[int, ...]
    node: Node | None
    moves: int
    base: State | None

    def __reduce__(self) -> tuple[Any, ...]:
        first = walk(self.node)
        base_moves = self.moves - sum(1 for n in first if n.actor != CHANCE)
        return (_rebuild, (self.game, self.base, base_moves, tuple(n.action_id for n in first)))

    # -- flow -----------------------------------------------------------------------------
    def current_player(self) -> int:
        m = self.model
        if m is None:
            return CHANCE
        if m.phase is Phase.OVER or self.moves >= self.game.max_moves:
            return TERMINAL
        return current_player(m)

    def is_terminal(self) -> bool:
        m = self.model
        return m is not None and (m.phase is Phase.OVER or self.moves >= self.game.max_moves)

    def is_truncated(self) -> bool:
        m = self.model
        return m is not None and m.phase is not Phase.OVER and self.moves >= self.game.max_moves

    def returns(self) -> list[float]:
        m = self.model
        winner = m.winner if m is not None and m.phase is Phase.OVER else None
        return zero_sum_returns(self.game.config.players, winner)

    def legal_typed_actions(self) -> tuple[Action, ...]:
        if self.model is None or self.is_terminal():
            return ()
        return legal_actions(self.model)

    def legal_actions(self) -> list[int]:
        if self.model is None:
            return [o for o, _ in self.chance_outcomes()]
        if self.is_terminal():
            return []
        return sorted(self.legal_ids_unsorted())

    def legal_ids_unsorted(self) -> list[int]:
        """The legal ids in the engine's order (for masks; :meth:`legal_actions` sorts).
        ``open g`` has id ``g`` (the table's first block), read without hashing the action."""
        if self.model is None or self.is_terminal():
            return []
        ids = self.game.table._ids
        return [a.grave if type(a) is OpenGrave else ids[a] for a in legal_actions(self.model)]

    def chance_outcomes(self) -> list[tuple[int, Fraction]]:
        if self.model is not None:
            return []
        counts = self._remaining()
        total = sum(counts)
        return [(k, Fraction(n, total)) for k, n in enumerate(counts) if n]

    def _remaining(self) -> list[int]:
        g = self.game
        c = g.config
        k = len(self.dealt)
        if k < c.reserve_size:
            counts = [*g.lid_counts, 0, 0]
            for x in self.dealt:
                counts[x] -= 1
            return counts
        if k < c.reserve_size + g.graves:
            lids_on_board = sum(g.lid_counts) - c.reserve_size + c.rat_lids
            counts = [*g.lid_counts, c.rat_lids, g.graves - lids_on_board]
            for x in self.dealt:
                counts[x] -= 1
            return counts
        counts = [*g.vampire_counts, 0, 0]
        for x in self.dealt[c.reserve_size + g.graves:]:
            counts[x] -= 1
        return counts

    def apply(self, action_id: int) -> DawnUnderState:
        """The successor. Raises IllegalAction (typed action or outcome, clause ids)."""
        g = self.game
        if self.model is None:
            if not any(o == action_id for o, _ in self.chance_outcomes()):
                raise IllegalAction(f"chance {action_id}", "no such item is left to deal",
                                    ("du-en:prep.deal",))
            dealt = (*self.dealt, int(action_id))
            node = Node(self.node, CHANCE, int(action_id),
                        ("no-lid",) if action_id == NO_LID_OUTCOME else ())
            if len(dealt) < g.deal_length:
                return DawnUnderState(g, None, dealt, node, 0, self.base)
            return DawnUnderState(g, initial_state(g.config, self._setup(dealt)), (), node, 0,
                                  self.base)
        if self.is_terminal():
            raise IllegalAction(f"action {action_id}", "the game is over",
                                ("du-en:end.first-empty",))
        try:
            action = g.table.from_id(action_id)
        except MalformedInput as err:
            raise IllegalAction(f"action {action_id}", err.what, ()) from None
        return self._step(action, action_id)

    def apply_typed(self, action: Any) -> DawnUnderState:
        """The successor under a typed action. Raises IllegalAction."""
        if self.model is None or self.is_terminal():
            raise IllegalAction(action, "no player decides here", ("du-en:prep.deal",))
        action_id = self.game.table._ids.get(action)
        if action_id is None:
            raise IllegalAction(action, "not an action of this game", ())
        return self._step(action, action_id)

    def _step(self, action: Action, action_id: int) -> DawnUnderState:
        m = self.model
        assert m is not None
        actor = current_player(m)
        new, events = step(m, action)
        return DawnUnderState(self.game, new, (), Node(self.node, actor, action_id, events),
                              self.moves + 1, self.base)

    def _setup(self, dealt: tuple[int, ...]) -> Setup:
        c = self.game.config
        r, b = c.reserve_size, self.game.graves
        reserve = dealt[:r]
        lids: tuple[int | None, ...] = tuple(
            None if x == NO_LID_OUTCOME else RAT if x == RAT_OUTCOME else x for x in dealt[r:r + b])
        rest = dealt[r + b:]
        share = self.game.share
        rows = tuple(rest[p * share:(p + 1) * share] for p in range(c.players))
        return Setup(lids, reserve, rows, 0)

    # -- information ----------------------------------------------------------------------
    def observation_string(self, player: int) -> str:
        """The public view (with the observer): lids seen, contents, rows, counters."""
        self._check_player(player)
        m = self.model
        if m is None:
            return f"p{player} dealing {len(self.dealt)}/{self.game.deal_length}"
        lids = "".join(
            "_" if lid is None else ("R" if lid == RAT else str(lid)) if k else "?"
            for lid, k in zip(m.lids, m.known, strict=True))
        contents = "".join(
            "." if x is None else str(x.colour) if type(x) is VampireIn
            else "g" + str(x.owner) if type(x) is GarlicIn else "?" for x in m.contents)
        rows = " | ".join("".join(str(v.colour) if v.face_up else "?" for v in row)
                          for row in m.rows)
        lines = [f"p{player} to-move {self.current_player()} phase {m.phase.value} "
                 f"turn {m.turn_player} moves {self.moves}",
                 f"lids {lids}", f"graves {contents}", f"rows {rows}",
                 f"stakes {list(m.stakes_held)} path {m.stakes_path} garlic {list(m.garlic_hand)} "
                 f"reserve {len(m.reserve)} rats-out {m.removed_rats}",
                 f"pending {m.pending} may-stop {int(m.may_stop)} transit {m.in_transit} "
                 f"gifts {[(x.giver, x.receiver) for x in m.gifts]} winner {m.winner}"]
        if m.plague is not None:
            p = m.plague
            lines.append(f"plague origin {p.origin} holder {p.holder} current {p.current} "
                         f"turns {p.turns} opened {list(p.opened)} idle {p.idle}")
        if m.config.expansion is not None:
            line = m.config.expansion.observation_line(m)
            if line is not None:
                lines.append(line)
        if self.is_truncated():
            lines.append("truncated")
        return "\n".join(lines)

    def information_state_string(self, player: int) -> str:
        """Perfect recall: the seat, every decision (actor: action), every lid revealed and
        every grave dealt without a lid, in order, then :meth:`observation_string`."""
        self._check_player(player)
        text = history_text(self.node, "public", self.game._render)
        return f"seat {player}\n{text}\n{self.observation_string(player)}"

    def observation_tensor(self, player: int) -> list[float]:
        """Dense one-hot/binary floats, layout in docs/interop.md (:meth:`observation_indices`)."""
        out = [0.0] * self.game._layout.size
        for i in self.observation_indices(player):
            out[i] = 1.0
        return out

    def information_state_tensor(self, player: int) -> list[float]:
        """Same as :meth:`observation_tensor` (a Markov summary; the string has perfect recall)."""
        return self.observation_tensor(player)

    def observation_indices(self, player: int, memo: dict[Any, Any] | None = None) -> list[int]:
        """The indices of the 1.0 entries of :meth:`observation_tensor` (fast path for numpy).

        ``memo``: a dict owned by the caller (an environment stepping through one game), in
        which unchanged sections are remembered by the identity of the engine's tuples; the
        result is the same with or without it."""
        self._check_player(player)
        return self.game._layout.indices(self, player, memo)

    def observation_index_parts(self, player: int,
                                memo: dict[Any, Any] | None = None) -> list[list[int]]:
        """:meth:`observation_indices` in sections; an unchanged section is the same list
        object as in the previous call with the same ``memo`` (callers cache conversions)."""
        self._check_player(player)
        return self.game._layout.parts(self, player, memo)

    def _check_player(self, player: int) -> None:
        if not 0 <= player < self.game.config.players:
            raise MalformedInput(f"no player {player} in a {self.game.config.players}-player game")

    def __repr__(self) -> str:
        m = self.model
        if m is None:
            return f"<dawn-under dealing {len(self.dealt)}/{self.game.deal_length}>"
        return (f"<dawn-under {self.game.config.players}p {m.phase.value} "
                f"to-move {self.current_player()} moves {self.moves} "
                f"rows {[len(r) for r in m.rows]}>")

    def __str__(self) -> str:
        return self.observation_string(0) if self.model is not None else repr(self)


class _Layout:
    """Offsets of the observation tensor (documented in docs/interop.md)."""

    def __init__(self, game: DawnUnderGame) -> None:
        c = game.config
        s, p = game.graves, c.players
        self.s, self.p = s, p
        self.lid_width = 9  # unknown lid, colour 0..5, rat, no lid
        self.content_width = 1 + 6 + p  # empty, vampire colour, garlic of a player
        self.slot_width = 7  # face-down, colour 0..5
        sections = [
            ("observer", p), ("to_move", p), ("phase", len(_PHASES)), ("turn_player", p),
            ("lids", s * self.lid_width), ("contents", s * self.content_width),
            ("rows", p * game.max_row * self.slot_width),
            ("stakes_held", p * (c.stakes + 1)), ("stakes_path", c.stakes + 1),
            ("garlic", p * (c.garlic + 1)), ("reserve", c.reserve_size + 1),
            ("removed_rats", c.rat_lids + 1), ("may_stop", 1), ("pending", s),
            ("plague_holder", p), ("plague_current", p), ("plague_opened", s),
            ("gift_giver", p), ("gift_receiver", p), ("transit", 6), ("winner", p),
            ("truncated", 1)]
        if c.expansion is not None:
            sections += c.expansion.tensor_sections(s, p)
        self.sections = sections
        self.offset: dict[str, int] = {}
        at = 0
        for name, width in sections:
            self.offset[name] = at
            at += width
        self.size = at
        self.max_row = game.max_row
        self.stakes = c.stakes
        o = self.offset
        self.o_observer, self.o_to_move, self.o_phase = o["observer"], o["to_move"], o["phase"]
        self.o_turn, self.o_path = o["turn_player"], o["stakes_path"]
        self.o_reserve, self.o_rats = o["reserve"], o["removed_rats"]

    def _lids(self, m: State) -> list[int]:
        base = self.offset["lids"]
        w = self.lid_width
        return [base + g * w + (8 if lid is None else 0 if not k else 7 if lid == RAT else 1 + lid)
                for g, (lid, k) in enumerate(zip(m.lids, m.known, strict=True))]

    def _contents(self, m: State) -> list[int]:
        base = self.offset["contents"]
        w = self.content_width
        return [base + g * w + (0 if x is None else 1 + x.colour if type(x) is VampireIn
                                else 7 + x.owner)  # type: ignore[union-attr]
                for g, x in enumerate(m.contents)]

    def _holdings(self, m: State) -> list[int]:
        o = self.offset
        st = self.stakes + 1
        gw = m.config.garlic + 1
        out = [o["stakes_held"] + q * st + min(n, self.stakes)
               for q, n in enumerate(m.stakes_held)]
        out += [o["garlic"] + q * gw + min(n, gw - 1) for q, n in enumerate(m.garlic_hand)]
        return out

    def _row(self, q: int, row: tuple[Any, ...]) -> list[int]:
        start = self.offset["rows"] + q * self.max_row * 7
        return [start + i * 7 + (1 + v.colour if v.face_up else 0)
                for i, v in enumerate(row[:self.max_row])]

    def indices(self, state: DawnUnderState, player: int,
                memo: dict[Any, Any] | None = None) -> list[int]:
        """The 1.0 entries (see :meth:`parts`)."""
        return [i for part in self.parts(state, player, memo) for i in part]

    def parts(self, state: DawnUnderState, player: int,
              memo: dict[Any, Any] | None = None) -> list[list[int]]:
        """The 1.0 entries in sections: the small ones first, then the graves' lids, their
        contents, each row, and the stakes and garlic each player holds. ``memo`` (owned by
        the caller, e.g. an environment) reuses a section (the same list object) while the
        engine keeps the same tuples (identity)."""
        o = self.offset
        m = state.model
        if m is None:
            return [[o["observer"] + player]]
        out = [self.o_observer + player, self.o_phase + _PHASE_INDEX[m.phase],
               self.o_turn + m.turn_player, self.o_path + min(m.stakes_path, self.stakes),
               self.o_reserve + len(m.reserve), self.o_rats + m.removed_rats]
        cp = state.current_player()
        if cp >= 0:
            out.append(self.o_to_move + cp)
        parts: list[list[int]] = [out]
        if memo is None:
            parts.append(self._lids(m))
            parts.append(self._contents(m))
            parts.extend(self._row(q, row) for q, row in enumerate(m.rows))
            parts.append(self._holdings(m))
        else:
            hit = memo.get("lids")
            if hit is None or hit[0] is not m.lids or hit[1] is not m.known:
                hit = memo["lids"] = (m.lids, m.known, self._lids(m))
            parts.append(hit[2])
            hit = memo.get("contents")
            if hit is None or hit[0] is not m.contents:
                hit = memo["contents"] = (m.contents, None, self._contents(m))
            parts.append(hit[2])
            for q, row in enumerate(m.rows):
                hit = memo.get(q)
                if hit is None or hit[0] is not row:
                    hit = memo[q] = (row, None, self._row(q, row))
                parts.append(hit[2])
            hit = memo.get("holdings")
            if hit is None or hit[0] is not m.stakes_held or hit[1] is not m.garlic_hand:
                hit = memo["holdings"] = (m.stakes_held, m.garlic_hand, self._holdings(m))
            parts.append(hit[2])
        if m.may_stop:
            out.append(o["may_stop"])
        if m.pending is not None:
            out.append(o["pending"] + m.pending)
        if m.plague is not None:
            out.append(o["plague_holder"] + m.plague.holder)
            out.append(o["plague_current"] + m.plague.current)
            out.extend([o["plague_opened"] + g for g in m.plague.opened])
        if m.gifts:
            out.append(o["gift_giver"] + m.gifts[0].giver)
            out.append(o["gift_receiver"] + m.gifts[0].receiver)
        if m.in_transit is not None:
            out.append(o["transit"] + m.in_transit)
        if m.winner is not None:
            out.append(o["winner"] + m.winner)
        if state.is_truncated():
            out.append(o["truncated"])
        if m.config.expansion is not None:
            out.extend(m.config.expansion.tensor_bits(m, o))
        return parts

    @cached_property
    def names(self) -> list[tuple[str, int, int]]:
        """(section, first index, width) for docs."""
        return [(n, self.offset[n], w) for n, w in self.sections]


def is_over(state: DawnUnderState) -> bool:
    """Terminal by the rules (a winner), not by truncation."""
    return state.model is not None and is_terminal(state.model)


__all__ = ["DEFAULT_MAX_MOVES", "GAME_NAME", "DawnUnderGame", "DawnUnderState", "build_actions",
           "chance_string", "is_over"]
