"""Dawn Under on the one game interface (:class:`ruleproof.model.api.GameBase`; OpenSpiel-shaped).

Parameters (the game's plugin, ``make_game("dawn-under", ...)``): ``players`` 2-6 (2
selects the 2-player rules, preset ``2p``, du-en:2p.components), ``preset`` ``du-en`` | ``du-cs``
| ``2p``, ``options`` (rule options on top of the preset, docs/rules-options.md), ``expansion``
None | ``"gruft"`` (gruft-en), ``max_moves`` (the truncation bound, below), ``board`` (a board
file instead of the assumed default).

Chance: the set-up (du-en:prep.reserve, du-en:prep.mix-rats, du-en:prep.deal, du-en:2p.lids) is
a sequence of chance nodes of the engine (:mod:`ruleproof.model.dawn_under.dealing`), one item at a
time: first the reserve stack top first (coloured lids only), then the lid of each grave in
grave order (a colour, a rat, or, with 2 players, no lid), then each player's row left to right
(vampire colours). Each outcome has probability (items of that kind left) / (items left), so
the deal is the uniform arrangement that the engine's shuffles produce, and every deal is one
path. Outcome ids: ``0..5`` colour, ``6`` rat lid, ``7`` no lid. ``new_seeded_state(seed)`` is
``new_game(config, seed)`` (same seed, same deal); :meth:`DawnUnderGame.setup_outcomes` turns
any set-up into its chance path.

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

from fractions import Fraction
from functools import cached_property
from itertools import compress
from operator import is_not, ne
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
    legal_actions,
    make_config,
    new_game,
    parse_options,
    step,
)
from ruleproof.model.dawn_under.config import preset_options
from ruleproof.model.dawn_under.dealing import (
    DEAL_CLAUSES,
    NO_LID_OUTCOME,
    OUTCOMES,
    RAT_OUTCOME,
    Dealing,
    DealItem,
    chance_string,
    deal_length,
    deal_outcomes,
    deal_step,
    setup_outcomes,
)
from ruleproof.model.dawn_under.engine import pooled_actions, pooled_lists, step_legal
from ruleproof.model.dawn_under.expansion import all_expansions

GAME_NAME = "dawn-under"
DEFAULT_MAX_MOVES = 3000
MAX_SEATS = 6
CHANCE_NAMES = ("colour", "rat", "no-lid")

_PHASES: tuple[Any, ...] = (*Phase, *(p for x in all_expansions() for p in x.phases))
_PHASE_INDEX = {p: i for i, p in enumerate(_PHASES)}
_OVER = Phase.OVER
_PHASE_AT = {id(p): i for i, p in enumerate(_PHASES)}
"""``_PHASE_INDEX`` by ``id`` (an enum member lives as long as its class; hashing a member
runs Python code, ``id`` does not)."""


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


class DawnUnderGame(GameBase[Dealing | State]):
    """Dawn Under with fixed parameters. Raises MalformedInput for bad parameters.

    Args:
        players: 2..6 (2: the 2-player rules).
        preset: ``du-en`` (default; ``2p`` with 2 players), ``du-cs`` or ``2p``.
        options: rule options on top of the preset (dict, or ``"name=value,name=value"``).
        expansion: None or the name of an expansion (``gruft``).
        max_moves: truncation bound on player decisions (>= 1).
        board: a board file to play on instead of the assumed default.
        config: a whole configuration instead (a reduced set-up's, spec/dawn_under/reduced/;
            its players and board win over ``players`` and ``board``).
    """

    name = GAME_NAME
    over_clauses = ("du-en:end.first-empty",)
    chance_clauses = DEAL_CLAUSES
    chance_refused = "no such item is left to deal"

    def __init__(self, players: int = 4, preset: str | None = None, options: Any = None,
                 expansion: str | None = None, max_moves: int = DEFAULT_MAX_MOVES,
                 board: Any = None, config: Config | None = None) -> None:
        if config is not None:  # a configuration made elsewhere (a reduced set-up's)
            players, board = config.players, config.board
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
        self.config: Config = config if config is not None else \
            make_config(players, opts, board, preset=preset)
        self._given_config = config
        self.board_file = board
        self.preset = preset
        self.expansion = opts.expansion if opts.expansion != "none" else None
        self.option_pairs = tuple(sorted(pairs.items()))
        self.max_moves = max_moves
        self.num_players = self.config.players
        c = self.config
        self.graves = c.board.size
        self.table: ActionTable[Action] = ActionTable(build_actions(self.graves), GAME_NAME)
        self.chance_table: ActionTable[DealItem] = ActionTable(
            [DealItem(k) for k in range(OUTCOMES)], GAME_NAME + " chance")
        self._strings = [text for _, text in self.table.rows()]
        total_vampires = c.vampires_per_colour * len(c.vampire_colours)
        self.deal_length = deal_length(c)
        self.max_row = total_vampires
        self._layout = _Layout(self)
        self._items = tuple(DealItem(k) for k in range(OUTCOMES))
        self._own_step = type(self).model_step is DawnUnderGame.model_step
        self._own_ids = type(self).model_legal_ids is DawnUnderGame.model_legal_ids
        self._own_chance = type(self).model_chance is DawnUnderGame.model_chance
        self._pooled_ids = {id(a): self.table._ids[a] for a in pooled_actions(self.graves)}
        # the engine's shared legal-action tuples (by id; each kept alive here as well), with
        # their ids in order and sorted
        self._pooled_lists: dict[int, tuple[tuple[Action, ...], list[int], list[int]]] = {}
        for acts in pooled_lists(self.graves):
            ids = [self.table._ids[a] for a in acts]
            self._pooled_lists[id(acts)] = (acts, ids, sorted(set(ids)))

    # -- hooks --------------------------------------------------------------------------------
    def initial_model(self) -> Dealing:
        """Before the deal (every item of the set-up is a chance node, dealing.py)."""
        return Dealing(self.config)

    def seeded_model(self, seed: int) -> State:
        """``new_game(config, seed)``: the set-up the engine deals from ``seed``."""
        return new_game(self.config, seed)

    def model_to_move(self, m: Dealing | State) -> int:
        if type(m) is Dealing:
            return CHANCE
        return TERMINAL if m.phase is _OVER else current_player(m)  # type: ignore[union-attr, arg-type]

    def model_legal(self, m: Dealing | State) -> tuple[Action, ...]:
        return () if type(m) is Dealing else legal_actions(m)  # type: ignore[arg-type]

    def model_legal_ids(self, m: Dealing | State) -> list[int]:
        """The ids of the engine's legal actions, its shared action objects found by identity
    (:func:`~ruleproof.model.dawn_under.engine.pooled_actions`), others by hashing."""
        if type(m) is Dealing:
            return []
        acts = legal_actions(m)  # type: ignore[arg-type]
        hit = self._pooled_lists.get(id(acts))
        if hit is not None:  # one of the engine's shared tuples: its ids are known
            return list(hit[1])
        return self._ids_of(acts)

    def _ids_of(self, acts: tuple[Action, ...]) -> list[int]:
        ids = self.table._ids
        pooled = self._pooled_ids
        out = []
        for a in acts:
            i = pooled.get(id(a))
            out.append(ids[a] if i is None else i)
        return out

    def model_legal_ids_sorted(self, m: Dealing | State) -> list[int]:
        """:meth:`model_legal_ids` distinct and sorted; for the engine's shared tuples (e.g.
        opening any grave) kept from the start. A subclass that replaces
        :meth:`model_legal_ids` (a planted mutant) gets the default over its own."""
        if not self._own_ids:
            return super().model_legal_ids_sorted(m)
        if type(m) is Dealing:
            return []
        acts = legal_actions(m)  # type: ignore[arg-type]
        hit = self._pooled_lists.get(id(acts))
        if hit is not None:
            return list(hit[2])
        ids: list[Any] = list(map(self._pooled_ids.get, map(id, acts)))  # shared objects
        if None in ids:
            ids = self._ids_of(acts)
        return sorted(set(ids))

    def model_chance(self, m: Dealing | State) -> list[tuple[DealItem, Fraction]]:
        if type(m) is not Dealing:
            return []
        return [(self._items[k], p) for k, p in deal_outcomes(m)]

    def model_chance_ids(self, m: Dealing | State) -> list[tuple[int, Fraction]]:
        """The deal's outcomes by id: a chance outcome's id is its code (``DealItem(k)`` has
        id ``k``), and :func:`deal_outcomes` lists them by code already. A subclass that
        replaces :meth:`model_chance` (a planted mutant) gets the default over its own."""
        if not self._own_chance:
            return super().model_chance_ids(m)
        if type(m) is not Dealing:
            return []
        return deal_outcomes(m)

    def model_step(self, m: Dealing | State, action: Any) -> tuple[Dealing | State, Any]:
        if type(m) is Dealing:
            return deal_step(m, action.code), (
                ("no-lid",) if action.code == NO_LID_OUTCOME else ())
        return step(m, action)  # type: ignore[arg-type]

    def model_step_legal(self, m: Dealing | State, action: Any) -> tuple[Dealing | State, Any]:
        """:meth:`model_step` without the engine's legality check (``action`` is one of the
        legal ids of ``m``, :func:`~ruleproof.model.dawn_under.engine.step_legal`); a subclass
        that replaces :meth:`model_step` (a planted mutant) gets its own ``model_step``."""
        if type(m) is Dealing or not self._own_step:
            return self.model_step(m, action)
        return step_legal(m, action)  # type: ignore[arg-type]

    def model_winner(self, m: Dealing | State) -> int | None:
        return m.winner if isinstance(m, State) and m.phase is Phase.OVER else None

    # -- more of the game ---------------------------------------------------------------------
    @property
    def params(self) -> dict[str, Any]:
        return {"players": self.config.players, "preset": self.preset,
                "options": dict(self.option_pairs), "expansion": self.expansion,
                "max_moves": self.max_moves}

    @property
    def observation_size(self) -> int:
        return self._layout.size

    @property
    def max_chance_nodes(self) -> int:
        return self.deal_length

    def from_setup(self, setup: Setup) -> GameState:
        """The state after an explicit set-up (raises MalformedInput if it does not fit)."""
        return self.from_model(initial_state(self.config, setup))

    def setup_outcomes(self, setup: Setup) -> list[int]:
        """The chance path (outcome ids, in deal order) that deals ``setup``."""
        return setup_outcomes(setup)

    def _render(self, n: Node) -> str:
        """One line of the public history (information_state_string)."""
        if n.actor == CHANCE:
            return "deal: a grave without a lid" if n.seen else ""
        line = f"p{n.actor}: {self._strings[n.action_id]}"
        shown = [f"{e.grave}={e.value}" for e in n.seen if e.kind is EventKind.REVEAL]
        return line + " shows " + ",".join(shown) if shown else line

    def node_view(self, node: Node, player: int) -> tuple[str, str]:
        """Everything is public (du-en:ch1.open) but the deal: a dealt item shows only whether
        a grave got no lid, nobody sees a face-down vampire or lid (du-en:prep.row); a
        decision shows its actor, the action and the lids it revealed. The same for every seat
        (no private part)."""
        return (self._render(node) or "deal", "")

    def observation_sections(self) -> tuple[Section, ...]:
        """Every section is public but ``observer`` (the seat itself)."""
        return tuple(Section(name, width, name == "observer")
                     for name, width in self._layout.sections)

    def public_observation_string(self, state: GameState) -> str:
        """The observation string without the observer's seat (the same for every seat)."""
        return self.observation_string(state, 0).split(" ", 1)[1]

    def __reduce__(self) -> tuple[Any, ...]:
        return (_make_game, (self.config.players, self.preset, dict(self.option_pairs),
                             self.max_moves, self.board_file, self._given_config))

    def state_repr(self, state: GameState) -> str:
        m = state.model
        if type(m) is Dealing:
            return f"<dawn-under dealing {len(m.dealt)}/{self.deal_length}>"
        assert isinstance(m, State)
        return (f"<dawn-under {self.config.players}p {m.phase.value} "
                f"to-move {state.current_player()} moves {state.moves} "
                f"rows {[len(r) for r in m.rows]}>")

    def __repr__(self) -> str:
        extra = f", expansion={self.expansion!r}" if self.expansion else ""
        return f"DawnUnderGame(players={self.config.players}, preset={self.preset!r}{extra})"

    # -- the observer -------------------------------------------------------------------------
    def observation_string(self, state: GameState, player: int) -> str:
        """The public view (with the observer): lids seen, contents, rows, counters."""
        m = state.model
        if type(m) is Dealing:
            return f"p{player} dealing {len(m.dealt)}/{self.deal_length}"
        assert isinstance(m, State)
        lids = "".join(
            "_" if lid is None else ("R" if lid == RAT else str(lid)) if k else "?"
            for lid, k in zip(m.lids, m.known, strict=True))
        contents = "".join(
            "." if x is None else str(x.colour) if type(x) is VampireIn
            else "g" + str(x.owner) if type(x) is GarlicIn else "?" for x in m.contents)
        rows = " | ".join("".join(str(v.colour) if v.face_up else "?" for v in row)
                          for row in m.rows)
        lines = [f"p{player} to-move {state.current_player()} phase {m.phase.value} "
                 f"turn {m.turn_player} moves {state.moves}",
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
        if state.is_truncated():
            lines.append("truncated")
        return "\n".join(lines)

    def information_state_string(self, state: GameState, player: int) -> str:
        """Perfect recall: the seat, every decision (actor: action), every lid revealed and
        every grave dealt without a lid, in order, then the observation string."""
        text = history_text(state.node, "public", self._render)
        return f"seat {player}\n{text}\n{self.observation_string(state, player)}"

    def observation_indices(self, state: GameState, player: int,
                            memo: dict[Any, Any] | None = None) -> list[int]:
        """Layout in docs/interop.md; ``memo`` (owned by the caller, e.g. an environment
        stepping through one game) remembers unchanged sections by the identity of the
        engine's tuples; the result is the same with or without it."""
        return self._layout.indices(state, player, memo)

    def observation_index_parts(self, state: GameState, player: int,
                                memo: dict[Any, Any] | None = None) -> list[list[int]]:
        """The indices in sections; an unchanged section is the same list object as in the
        previous call with the same ``memo`` (callers cache conversions)."""
        return self._layout.parts(state, player, memo)

    def observation_writer(self) -> _Writer | None:
        """A writer that keeps one tensor buffer equal to the observation tensor of the
        states (of this game) and seats it is handed, writing only what changed
        (``write(state, player, out)``, ``forget()``: see :class:`_Writer`); None for a
        subclass that replaces the observation (a planted mutant)."""
        cls = type(self)
        if cls.observation_indices is not DawnUnderGame.observation_indices or \
                cls.observation_index_parts is not DawnUnderGame.observation_index_parts:
            return None
        return _Writer(self._layout)


DawnUnderState = GameState
"""Dawn Under's states are the one :class:`~ruleproof.model.api.GameState`."""


def _make_game(players: int, preset: str, options: dict[str, str], max_moves: int,
               board: Any = None, config: Config | None = None) -> DawnUnderGame:
    return DawnUnderGame(players, preset, options, None, max_moves, board, config)


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

    def _lid_entry(self, m: State, g: int) -> int:
        lid = m.lids[g]
        return self.offset["lids"] + g * self.lid_width + (
            8 if lid is None else 0 if not m.known[g] else 7 if lid == RAT else 1 + lid)

    def lid_changes(self, m: State, old_lids: Any, old_known: Any) -> set[int] | None:
        """The graves whose lid or known flag is another object than in ``old_lids`` /
        ``old_known`` (an earlier state's tuples); None when the lengths differ or more than
        a quarter changed (then rebuilding the whole section is as cheap)."""
        n = len(m.lids)
        if len(old_lids) != n or len(old_known) != n or len(m.known) != n:
            return None
        changed = set() if m.lids is old_lids else \
            set(compress(range(n), map(is_not, m.lids, old_lids)))
        if m.known is not old_known:
            changed.update(compress(range(n), map(is_not, m.known, old_known)))
        return None if len(changed) * 4 > n else changed

    def _lids_from(self, m: State, hit: tuple[Any, Any, list[int]]) -> list[int]:
        """:meth:`_lids` from the section of an earlier state (``hit``: its lids, known flags
        and section): only the graves whose lid or flag is another object are recomputed
        (the others' entries depend on equal values, so they are the same)."""
        changed = self.lid_changes(m, hit[0], hit[1])
        if changed is None or len(hit[2]) != len(m.lids):
            return self._lids(m)
        out = list(hit[2])
        for g in changed:
            out[g] = self._lid_entry(m, g)
        return out

    def _contents(self, m: State) -> list[int]:
        base = self.offset["contents"]
        w = self.content_width
        return [base + g * w + (0 if x is None else 1 + x.colour if type(x) is VampireIn
                                else 7 + x.owner)  # type: ignore[union-attr]
                for g, x in enumerate(m.contents)]

    def _content_entry(self, m: State, g: int) -> int:
        x = m.contents[g]
        return self.offset["contents"] + g * self.content_width + (
            0 if x is None else 1 + x.colour if type(x) is VampireIn
            else 7 + x.owner)  # type: ignore[union-attr]

    def content_changes(self, m: State, old: Any) -> list[int] | None:
        """The graves whose content is another object than in ``old`` (an earlier state's
        tuple); None as for :meth:`lid_changes`."""
        n = len(m.contents)
        if len(old) != n:
            return None
        changed = list(compress(range(n), map(is_not, m.contents, old)))
        return None if len(changed) * 4 > n else changed

    def _contents_from(self, m: State, hit: tuple[Any, Any, list[int]]) -> list[int]:
        """:meth:`_contents` from the section of an earlier state (``hit``: its contents and
        section), recomputing only the graves whose content is another object."""
        changed = self.content_changes(m, hit[0])
        if changed is None or len(hit[2]) != len(m.contents):
            return self._contents(m)
        out = list(hit[2])
        for g in changed:
            out[g] = self._content_entry(m, g)
        return out

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

    def indices(self, state: GameState, player: int,
                memo: dict[Any, Any] | None = None) -> list[int]:
        """The 1.0 entries (see :meth:`parts`)."""
        return [i for part in self.parts(state, player, memo) for i in part]

    def parts(self, state: GameState, player: int,
              memo: dict[Any, Any] | None = None) -> list[list[int]]:
        """The 1.0 entries in sections: the small ones first, then the graves' lids, their
        contents, each row, and the stakes and garlic each player holds. ``memo`` (owned by
        the caller, e.g. an environment) reuses a section (the same list object) while the
        engine keeps the same tuples (identity)."""
        m = state.model
        if type(m) is Dealing:
            return [[self.offset["observer"] + player]]
        parts: list[list[int]] = [self.small(state, m, player)]
        if memo is None:
            parts.append(self._lids(m))
            parts.append(self._contents(m))
            parts.extend(self._row(q, row) for q, row in enumerate(m.rows))
            parts.append(self._holdings(m))
        else:
            hit = memo.get("lids")
            if hit is None:
                hit = memo["lids"] = (m.lids, m.known, self._lids(m))
            elif hit[0] is not m.lids or hit[1] is not m.known:
                hit = memo["lids"] = (m.lids, m.known, self._lids_from(m, hit))
            parts.append(hit[2])
            hit = memo.get("contents")
            if hit is None:
                hit = memo["contents"] = (m.contents, None, self._contents(m))
            elif hit[0] is not m.contents:
                hit = memo["contents"] = (m.contents, None, self._contents_from(m, hit))
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
        return parts

    def small(self, state: GameState, m: State, player: int) -> list[int]:
        """The first section of :meth:`parts` (of a state past the deal): the observer, the
        counters and flags that change every few steps, and the expansion's entries."""
        o = self.offset
        out = [self.o_observer + player, self.o_phase + _PHASE_AT[id(m.phase)],
               self.o_turn + m.turn_player, self.o_path + min(m.stakes_path, self.stakes),
               self.o_reserve + len(m.reserve), self.o_rats + m.removed_rats]
        cp = state.current_player()
        if cp >= 0:
            out.append(self.o_to_move + cp)
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
        return out

    @cached_property
    def names(self) -> list[tuple[str, int, int]]:
        """(section, first index, width) for docs."""
        return [(n, self.offset[n], w) for n, w in self.sections]


_UNSEEN = object()
"""A field value no state holds (:class:`_Fields` before anything is written)."""


class _Fields:
    """The engine state's field values whose entries :class:`_Writer` wrote (a field that is
    the same object in the next state shows the same entries: a frozen state's fields are
    immutable values)."""

    __slots__ = ("gifts", "in_transit", "may_stop", "pending", "phase", "plague", "removed_rats",
                 "reserve", "stakes_path", "turn_player", "winner")

    def __init__(self) -> None:
        self.phase: Any = _UNSEEN
        self.pending: Any = _UNSEEN
        self.in_transit: Any = _UNSEEN
        self.turn_player: Any = _UNSEEN
        self.gifts: Any = _UNSEEN
        self.may_stop: Any = _UNSEEN
        self.plague: Any = _UNSEEN
        self.stakes_path: Any = _UNSEEN
        self.reserve: Any = _UNSEEN
        self.removed_rats: Any = _UNSEEN
        self.winner: Any = _UNSEEN


# the one-entry sections of _Layout.small, by slot (_Writer.slot)
(_SEAT, _MOVER, _TRUNCATED, _PHASE, _PENDING, _TRANSIT, _TURN, _GIVER, _RECEIVER, _MAY_STOP,
 _HOLDER, _CURRENT, _PATH, _RESERVE, _RATS, _WINNER) = range(16)
_SLOT_SECTIONS = ("observer", "to_move", "truncated", "phase", "pending", "transit",
                  "turn_player", "gift_giver", "gift_receiver", "may_stop", "plague_holder",
                  "plague_current", "stakes_path", "reserve", "removed_rats", "winner")


class _Writer:
    """Keeps one observation tensor (any buffer with item assignment, e.g. a numpy array or a
    memoryview of one) equal to :meth:`_Layout.indices` of the states it is handed, for any
    seat in any order, writing only the entries that changed.

    It remembers the engine state's field values the buffer shows (:class:`_Fields`, and
    the lids, known flags, contents, rows and holdings: a frozen state's fields are immutable
    values, so a field that is the same object shows the same entries), the entry written for
    each one-entry section of :meth:`_Layout.small` (``slot``, -1: none) and for each grave,
    row slot and player's holding. A call rewrites only what depends on a field that is
    another object than the one written (a grave, a row slot or a holding only if its entry
    differs); the seat, the player to move and the truncation flag are checked every call
    (they do not follow from one field). The buffer must be all zeros at the start (and after
    :meth:`forget`) and written by nobody else. Pure Python (no numpy in the model)."""

    __slots__ = ("content_at", "contents", "extra", "fields", "garlic", "garlic_at",
                 "held", "held_at", "known", "layout", "lid_at", "lids", "row_at", "rows",
                 "slot", "slot_base")

    def __init__(self, layout: _Layout) -> None:
        self.layout = layout
        o = layout.offset
        self.slot_base: tuple[int, ...] = tuple(o[name] for name in _SLOT_SECTIONS)
        self.forget()

    def forget(self) -> None:
        """Assume an all-zero buffer from now on."""
        self.slot: list[int] = [-1] * len(_SLOT_SECTIONS)
        self.fields: _Fields | None = None
        self.extra: list[int] = []
        self.lids: Any = None
        self.known: Any = None
        self.lid_at: list[int] = []
        self.contents: Any = None
        self.content_at: list[int] = []
        self.rows: Any = None
        self.row_at: list[list[int]] = []
        self.held: Any = None
        self.held_at: list[int] = []
        self.garlic: Any = None
        self.garlic_at: list[int] = []

    def _clear(self, out: Any) -> None:
        """Zero every entry written and forget them."""
        for part in (self.slot, self.extra, self.lid_at, self.content_at, self.held_at,
                     self.garlic_at, *self.row_at):
            for i in part:
                if i >= 0:
                    out[i] = 0.0
        self.forget()

    def _set(self, out: Any, k: int, i: int) -> None:
        """Make entry ``i`` (-1: none) the one written for slot ``k``."""
        j = self.slot[k]
        if i != j:
            if j >= 0:
                out[j] = 0.0
            if i >= 0:
                out[i] = 1.0
            self.slot[k] = i

    def write(self, state: GameState, player: int, out: Any) -> None:
        """Make ``out`` the observation tensor of ``state`` for ``player``."""
        m = state.model
        slot = self.slot
        if type(m) is Dealing:
            if self.fields is not None:
                self._clear(out)  # a state past the deal was written: start afresh
                slot = self.slot
            i = self.slot_base[_SEAT] + player
            if slot[_SEAT] != i:  # the deal shows only the seat
                self._set(out, _SEAT, i)
            return
        base = self.slot_base
        # checked every call: the seat, the player to move, the truncation flag
        i = base[_SEAT] + player
        if slot[_SEAT] != i:
            j = slot[_SEAT]
            if j >= 0:
                out[j] = 0.0
            out[i] = 1.0
            slot[_SEAT] = i
        cp = state._cp  # kept once asked (the usual case: the caller asked whose turn)
        if cp is None:
            cp = state.current_player()
        i = base[_MOVER] + cp if cp >= 0 else -1
        if slot[_MOVER] != i:
            j = slot[_MOVER]
            if j >= 0:
                out[j] = 0.0
            if i >= 0:
                out[i] = 1.0
            slot[_MOVER] = i
        if state.moves >= state.game.max_moves or slot[_TRUNCATED] >= 0:
            self._set(out, _TRUNCATED, base[_TRUNCATED] if state.is_truncated() else -1)
        # the fields that are other objects than those written (the commonest first; the
        # one-entry sections written inline, the others by their methods)
        f = self.fields
        if f is None:
            f = self.fields = _Fields()
        v = m.phase
        if v is not f.phase:
            i = base[_PHASE] + _PHASE_AT[id(v)]
            j = slot[_PHASE]
            if i != j:
                if j >= 0:
                    out[j] = 0.0
                out[i] = 1.0
                slot[_PHASE] = i
            f.phase = v
        v = m.pending
        if v is not f.pending:
            i = -1 if v is None else base[_PENDING] + v
            j = slot[_PENDING]
            if i != j:
                if j >= 0:
                    out[j] = 0.0
                if i >= 0:
                    out[i] = 1.0
                slot[_PENDING] = i
            f.pending = v
        if m.rows is not self.rows:
            self._write_rows(m, out)
        v = m.in_transit
        if v is not f.in_transit:
            i = -1 if v is None else base[_TRANSIT] + v
            j = slot[_TRANSIT]
            if i != j:
                if j >= 0:
                    out[j] = 0.0
                if i >= 0:
                    out[i] = 1.0
                slot[_TRANSIT] = i
            f.in_transit = v
        v = m.turn_player
        if v is not f.turn_player:
            i = base[_TURN] + v
            j = slot[_TURN]
            if i != j:
                if j >= 0:
                    out[j] = 0.0
                out[i] = 1.0
                slot[_TURN] = i
            f.turn_player = v
        if m.gifts is not f.gifts:
            self._gifts(m, out)
            f.gifts = m.gifts
        if m.contents is not self.contents:
            self._write_contents(m, out)
        if m.known is not self.known or m.lids is not self.lids:
            self._write_lids(m, out)
        if m.may_stop is not f.may_stop:
            self._set(out, _MAY_STOP, base[_MAY_STOP] if m.may_stop else -1)
            f.may_stop = m.may_stop
        if m.garlic_hand is not self.garlic:
            self._garlic(m, out)
            self.garlic = m.garlic_hand
        if m.plague is not f.plague:
            self._plague(m, out)
            f.plague = m.plague
        if m.stakes_held is not self.held:
            self._held(m, out)
            self.held = m.stakes_held
        if m.stakes_path is not f.stakes_path:
            self._path(m, out)
            f.stakes_path = m.stakes_path
        if m.reserve is not f.reserve:
            self._set(out, _RESERVE, base[_RESERVE] + len(m.reserve))
            f.reserve = m.reserve
        if m.removed_rats is not f.removed_rats:
            self._set(out, _RATS, base[_RATS] + m.removed_rats)
            f.removed_rats = m.removed_rats
        if m.winner is not f.winner:
            self._set(out, _WINNER, -1 if m.winner is None else base[_WINNER] + m.winner)
            f.winner = m.winner
        if m.config.expansion is not None:
            self._write_extra(m, out)

    # -- what depends on each field ----------------------------------------------------------
    def _gifts(self, m: State, out: Any) -> None:
        gifts = m.gifts
        base = self.slot_base
        self._set(out, _GIVER, base[_GIVER] + gifts[0].giver if gifts else -1)
        self._set(out, _RECEIVER, base[_RECEIVER] + gifts[0].receiver if gifts else -1)

    def _plague(self, m: State, out: Any) -> None:
        plague = m.plague
        base = self.slot_base
        self._set(out, _HOLDER, -1 if plague is None else base[_HOLDER] + plague.holder)
        self._set(out, _CURRENT, -1 if plague is None else base[_CURRENT] + plague.current)
        if m.config.expansion is None:  # else _write_extra runs every call
            self._write_extra(m, out)

    def _path(self, m: State, out: Any) -> None:
        v, top = m.stakes_path, self.layout.stakes
        self._set(out, _PATH, self.slot_base[_PATH] + (v if v < top else top))

    def _write_extra(self, m: State, out: Any) -> None:
        """The entries of variable number: the graves opened in a plague, the expansion's."""
        lay = self.layout
        plague = m.plague
        extra = [] if plague is None or not plague.opened else \
            [lay.offset["plague_opened"] + g for g in plague.opened]
        expansion = m.config.expansion
        if expansion is not None:
            extra += expansion.tensor_bits(m, lay.offset)
        if extra != self.extra:
            self._rewrite(out, self.extra, extra)
            self.extra = extra

    def _held(self, m: State, out: Any) -> None:
        lay = self.layout
        top = lay.stakes
        base, width = lay.offset["stakes_held"], top + 1
        new = [base + q * width + (n if n < top else top) for q, n in enumerate(m.stakes_held)]
        self._patch(out, self.held_at, new)
        self.held_at = new

    def _garlic(self, m: State, out: Any) -> None:
        lay = self.layout
        top = m.config.garlic
        base, width = lay.offset["garlic"], top + 1
        new = [base + q * width + (n if n < top else top) for q, n in enumerate(m.garlic_hand)]
        self._patch(out, self.garlic_at, new)
        self.garlic_at = new

    def _write_lids(self, m: State, out: Any) -> None:
        """Rewrite the graves whose lid or known flag is another object than written."""
        lay = self.layout
        at = self.lid_at
        n = len(m.lids)
        if self.lids is None or len(at) != n or len(self.lids) != n or len(self.known) != n \
                or len(m.known) != n:
            new = lay._lids(m)
            self._rewrite(out, at, new)
            self.lid_at = new
        else:
            graves = range(n)
            for now, was in ((m.lids, self.lids), (m.known, self.known)):
                if now is was:
                    continue
                for g in compress(graves, map(is_not, now, was)):
                    i, j = lay._lid_entry(m, g), at[g]
                    if i != j:
                        out[j] = 0.0
                        out[i] = 1.0
                        at[g] = i
        self.lids, self.known = m.lids, m.known

    def _write_contents(self, m: State, out: Any) -> None:
        """Rewrite the graves whose content is another object than written."""
        lay = self.layout
        at = self.content_at
        n = len(m.contents)
        if self.contents is None or len(at) != n or len(self.contents) != n:
            new = lay._contents(m)
            self._rewrite(out, at, new)
            self.content_at = new
        else:
            for g in compress(range(n), map(is_not, m.contents, self.contents)):
                i, j = lay._content_entry(m, g), at[g]
                if i != j:
                    out[j] = 0.0
                    out[i] = 1.0
                    at[g] = i
        self.contents = m.contents

    def _write_rows(self, m: State, out: Any) -> None:
        """Rewrite the slots of the rows whose vampire is another object than written (a
        vampire placed or handed over from the right end changes one slot, from the left
        end every slot)."""
        lay = self.layout
        rows = m.rows
        old_rows = self.rows
        if old_rows is None or len(old_rows) != len(rows):
            for part in self.row_at:
                for i in part:
                    out[i] = 0.0
            old_rows = ((),) * len(rows)
            self.row_at = [[] for _ in rows]
        row_at = self.row_at
        first = lay.offset["rows"]
        span = lay.max_row * 7
        for q in compress(range(len(rows)), map(is_not, rows, old_rows)):
            row, at = rows[q], row_at[q]  # at: the entries of old_rows[q], slot by slot
            base = first + q * span
            n, k = min(len(row), lay.max_row), len(at)
            for i in compress(range(n if n < k else k), map(is_not, row, old_rows[q])):
                v = row[i]
                e = base + i * 7 + (1 + v.colour if v.face_up else 0)
                if e != at[i]:
                    out[at[i]] = 0.0
                    out[e] = 1.0
                    at[i] = e
            if k > n:
                for i in at[n:]:
                    out[i] = 0.0
                del at[n:]
            for i in range(k, n):
                v = row[i]
                e = base + i * 7 + (1 + v.colour if v.face_up else 0)
                out[e] = 1.0
                at.append(e)
        self.rows = rows

    @staticmethod
    def _patch(out: Any, old: list[int], new: list[int]) -> None:
        """Rewrite ``old`` (the entries written, one per slot of equal width) as ``new``
        slot by slot: only the slots whose entry differs, then the slots one list has past
        the other's end."""
        for k in compress(range(len(new)), map(ne, old, new)):
            out[old[k]] = 0.0
            out[new[k]] = 1.0
        if len(old) > len(new):
            for i in old[len(new):]:
                out[i] = 0.0
        elif len(new) > len(old):
            for i in new[len(old):]:
                out[i] = 1.0

    @staticmethod
    def _rewrite(out: Any, old: list[int], new: list[int]) -> None:
        for i in old:
            out[i] = 0.0
        for i in new:
            out[i] = 1.0




def is_over(state: GameState) -> bool:
    """Terminal by the rules (a winner), not by truncation."""
    return state.is_over()


__all__ = ["DEFAULT_MAX_MOVES", "GAME_NAME", "NO_LID_OUTCOME", "RAT_OUTCOME", "DawnUnderGame",
           "DawnUnderState", "build_actions", "chance_string", "is_over"]
