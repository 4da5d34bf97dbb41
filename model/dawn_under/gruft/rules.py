"""The rules of the expansion "Frische Luft für die Gruft" (gruft-en) as hooks of the base game.

Count Rucola, the post, bats and graves left open, on top of Dawn Under's base rules, which
apply otherwise (gruft-en:play.base; gruft-en:aim.win and gruft-en:end.win: winning is
unchanged). :data:`EXPANSION` is what the base engine calls
(:class:`ruleproof.model.dawn_under.expansion.Expansion`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from ruleproof.model.dawn_under.engine import (
    end_turn,
    gift_due,
    left_of,
    openable,
    others,
    place_action,
    remove_end,
    row_ends,
    set_at,
    slot_updater,
    start_turn,
    win,
    with_changes,
    writable,
)
from ruleproof.model.dawn_under.expansion import Expansion
from ruleproof.model.dawn_under.gruft.state import (
    BatClaim,
    Believe,
    CountTo,
    Doubt,
    GiftTo,
    Gruft,
    GruftEvent,
    GruftPhase,
    PlayBat,
    _GruftDraft,
)
from ruleproof.model.dawn_under.render import player_name
from ruleproof.model.dawn_under.state import (
    Action,
    Config,
    End,
    Event,
    EventKind,
    GarlicIn,
    Gift,
    OpenGrave,
    Phase,
    PlaceVampire,
    State,
    VampireIn,
)

OPTIONS: dict[str, tuple[str, ...]] = {
    # gruft-en:count.get-three: matching placements in the own turn, or in a row (plague goes
    # included).
    "gruft_three": ("one-turn", "in-a-row"),
    # gruft-en:count.empty, gruft-en:count.occupied: is garlic under the Count "occupied"?
    "gruft_garlic": ("occupied", "empty"),
    # gruft-en:play.keep-open: do the finder's open graves stay open through a rat plague?
    "gruft_plague_open": ("stay-open", "closed"),
    # gruft-en:count.place, gruft-en:count.move: any closed grave, or known empty ones only.
    "gruft_count_choice": ("blind", "empty-only"),
    # gruft-en:count.get-lost: a player who got the Count from the right stands it on a grave
    # after their own next turn or at once.
    "gruft_lost_place": ("own-turn", "at-once"),
    # gruft-en:count.get-three with gruft-en:bats.believed-empty: does a vampire put in by way
    # of a bat count toward the three (a reader's question, spec/dawn_under/discovered.toml)?
    "gruft_bat_counts": ("matching-only", "any-placement"),
}
"""The expansion's rule options (docs/gruft.md), the default first."""

BATS_PER_PLAYER = 2
"""Bats per player colour in the full game (gruft-en:components.bats, gruft-en:prep.bats;
the manifest fact ``bats_per_player``)."""
COUNT_FIGURES = 1
"""Count Rucola figures in the full game (gruft-en:components.count; the manifest fact
``count_figures``): 0 in a reduced configuration leaves the Count in the box."""


def bats_per_player(config: Config) -> int:
    """Bats each player starts with: 2 (gruft-en:prep.bats), fewer in a reduced configuration."""
    return config.expansion_count("bats_per_player", BATS_PER_PLAYER)


def count_in_play(config: Config) -> bool:
    """Whether the Count Rucola figure is in play (gruft-en:prep.count); a reduced
    configuration may leave it in the box (``count_figures`` 0): then nobody ever gets it."""
    return config.expansion_count("count_figures", COUNT_FIGURES) > 0


def _opt(state: State, name: str) -> str:
    return state.config.options.extra(name, OPTIONS[name][0])


def _p(state: State) -> Gruft:
    """The expansion's part of ``state`` (in a transition perhaps its draft, read alike)."""
    ext = state.extension
    if ext.__class__ is _GruftDraft:
        return cast(Gruft, ext)
    assert isinstance(ext, Gruft), "the expansion is not on"
    return ext


_gruft_with = slot_updater(Gruft, _GruftDraft)
"""``dataclasses.replace`` for the expansion's part (one call, :func:`slot_updater`); on the
part's draft it writes in place."""
_gruft_draft = _gruft_with.open_draft  # type: ignore[attr-defined]
_bat_with = slot_updater(BatClaim)
"""``dataclasses.replace`` for a bat's claim."""


def _part(state: State) -> _GruftDraft:
    """The expansion's part of the transition's draft ``state``, writable: drafted (and put
    into the state) the first time the transition changes it."""
    ext = state.extension
    if ext.__class__ is _GruftDraft:
        return ext
    assert isinstance(ext, Gruft), "the expansion is not on"
    draft: _GruftDraft = _gruft_draft(ext)
    writable(state).extension = draft
    return draft


def _g(state: State, **changes: Any) -> State:
    """``state`` (the transition's draft) with fields of its expansion part changed."""
    _gruft_with(_part(state), **changes)
    return state


def _gs(state: State, changes: Mapping[str, Any], **ext_changes: Any) -> State:
    """``state`` (the transition's draft) with the fields ``changes`` and the fields
    ``ext_changes`` of its expansion part changed."""
    _gruft_with(_part(state), **ext_changes)
    return with_changes(state, **changes)


_ANSWERS: tuple[Action, ...] = (Believe(), Doubt())
"""The answers to a bat (gruft-en:bats.ask): shared immutable action objects."""
_BATS: tuple[PlayBat, ...] = tuple(PlayBat(g) for g in range(256))
"""A bat on each grave (gruft-en:bats.declare), shared as the engine shares its actions."""


def _bat_on(grave: int) -> PlayBat:
    return _BATS[grave] if 0 <= grave < len(_BATS) else PlayBat(grave)


_EXPECT = {
    GruftPhase.COUNT_OPEN: ("the turn starts by opening the Count's grave",
                            ("gruft-en:count.open-start",)),
    GruftPhase.COUNT_PLACE: ("the Count is stood on a grave", ("gruft-en:count.place",)),
    GruftPhase.COUNT_MOVE: ("the Count moves to a grave of the next quarter",
                            ("gruft-en:count.move",)),
    GruftPhase.BAT: ("the bat's claim is believed or doubted", ("gruft-en:bats.ask",)),
    GruftPhase.BAT_GIFT: ("the vampire found under the bat is given to a player",
                          ("gruft-en:bats.believed-vampire",)),
    GruftPhase.PUT: ("an outermost vampire is put into the grave", ("gruft-en:bats.open",
                                                                    "gruft-en:count.empty")),
}


class GruftExpansion(Expansion):
    """The hooks of gruft-en (see the module docstring)."""

    name = "gruft"
    options = OPTIONS
    phases = tuple(GruftPhase)
    components = ("bats_per_player", "count_figures")

    # -- the game interface (docs/interop.md: action table and observation tensor)
    def table_actions(self, graves: int, seats: int) -> list[Action]:
        out: list[Action] = [PlayBat(g) for g in range(graves)]
        out += [Believe(), Doubt()]
        out += [CountTo(g) for g in range(graves)]
        return out + [GiftTo(p) for p in range(seats)]

    def observation_line(self, state: State) -> str | None:
        x = _p(state)
        bat = None if x.bat is None else (x.bat.grave, x.bat.owner, x.bat.believed)
        return (f"gruft count {x.count_grave} post {x.post} bats {list(x.bats)} "
                f"out {list(x.bats_out)} open {list(x.open_graves)} bat {bat}"
                f" streak {x.streak} putter {x.putter} then {x.then_put} next {x.next_turn}")

    def tensor_sections(self, graves: int, players: int) -> list[tuple[str, int]]:
        s, p = graves, players
        return [("count_grave", s), ("post", p), ("bats", p * 3), ("bats_out", p * 3),
                ("open_graves", s), ("bat_grave", s), ("bat_owner", p), ("believed", p),
                ("streak", 4), ("putter", p), ("then_put", p), ("next_turn", p)]

    def tensor_bits(self, state: State, offset: Mapping[str, int]) -> list[int]:
        x, o = _p(state), offset
        out: list[int] = []
        if x.count_grave is not None:
            out.append(o["count_grave"] + x.count_grave)
        if x.post is not None:
            out.append(o["post"] + x.post)
        out.extend([o["bats"] + q * 3 + min(n, 2) for q, n in enumerate(x.bats)])
        out.extend([o["bats_out"] + q * 3 + min(n, 2) for q, n in enumerate(x.bats_out)])
        out.extend([o["open_graves"] + g for g in x.open_graves])
        if x.bat is not None:
            out.append(o["bat_grave"] + x.bat.grave)
            out.append(o["bat_owner"] + x.bat.owner)
            out.extend([o["believed"] + q for q in x.bat.believed])
        out.append(o["streak"] + min(x.streak, 3))
        for name, value in (("putter", x.putter), ("then_put", x.then_put),
                            ("next_turn", x.next_turn)):
            if value is not None:
                out.append(o[name] + value)
        return out

    def check_players(self, players: int) -> str | None:
        if players == 2:
            return ("the expansion 'gruft' (gruft-en:prep.base) is played on top of the 3-6 "
                    "player rules only; got 2 players")
        return None

    def initial(self, config: Config) -> object:
        """gruft-en:prep.bats: two bats per player colour (gruft-en:components.bats; fewer in
        a reduced configuration, :func:`bats_per_player`); gruft-en:prep.count: the one Count
        on the one post in the middle of the board (post None, gruft-en:components.count; a
        reduced configuration may leave it in the box, :func:`count_in_play`);
        gruft-en:prep.base otherwise."""
        return Gruft(bats=(bats_per_player(config),) * config.players,
                     bats_out=(0,) * config.players)

    # ------------------------------------------------------------------------- legal actions

    def closed_graves(self, state: State) -> frozenset[int]:
        """Graves left open this turn cannot be opened again (gruft-en:play.keep-open), and
        nobody opens the Count's grave by turning its lid, not even in a plague
        (gruft-en:count.guard, gruft-en:faq.count-plague, gruft-en:faq.rat-ignored)."""
        g = _p(state)
        # reading gruft_plague_open=closed: the finder's open graves closed when the plague
        # began
        keep = state.plague is None or _opt(state, "gruft_plague_open") == "stay-open"
        shut = set(g.open_graves) if keep else set()
        if g.count_grave is not None:
            shut.add(g.count_grave)
        return frozenset(shut)

    def extra_actions(self, state: State) -> Sequence[Action]:
        """gruft-en:bats.declare: a bat instead of opening a grave; gruft-en:bats.once."""
        if state.plague is None and _p(state).bats[state.turn_player] > 0:
            return [_bat_on(g) for g in openable(state)]
        return ()

    def current_player(self, state: State) -> int:
        phase = state.phase
        g = _p(state)
        if phase is GruftPhase.PUT:
            assert g.putter is not None
            return g.putter
        if phase is GruftPhase.BAT:
            return _next_asked(state)
        if phase is GruftPhase.BAT_GIFT:
            assert g.bat is not None
            return g.bat.owner
        assert g.post is not None
        return g.post  # the Count's phases: its holder decides

    def legal_actions(self, state: State) -> tuple[Action, ...]:
        phase = state.phase
        g = _p(state)
        if phase is GruftPhase.COUNT_OPEN:
            assert g.count_grave is not None
            return (OpenGrave(g.count_grave),)  # gruft-en:count.open-start
        if phase in (GruftPhase.COUNT_PLACE, GruftPhase.COUNT_MOVE):
            return tuple(CountTo(c) for c in count_graves(state))
        if phase is GruftPhase.BAT:
            return _ANSWERS  # gruft-en:bats.ask
        if phase is GruftPhase.BAT_GIFT:
            assert g.bat is not None
            # gruft-en:bats.believed-vampire: to any (other) player
            return tuple(GiftTo(p) for p in others(state.config, g.bat.owner))
        assert g.putter is not None and state.pending is not None
        grave = state.pending
        return tuple(place_action(grave, e) for e in row_ends(state.rows[g.putter]))

    def why_illegal(self, state: State, action: Action) -> tuple[str, tuple[str, ...]] | None:
        """Reasons with gruft-en clause ids, or None to fall back to the base diagnosis."""
        phase = state.phase
        p = _p(state)
        if isinstance(phase, GruftPhase):
            what, clauses = _EXPECT[phase]
            if phase is GruftPhase.PUT and isinstance(action, PlaceVampire):
                if action.grave != state.pending:
                    return f"only grave {state.pending} takes the vampire now", clauses
                return "a single vampire is addressed as the left end", ("du-en:ch1.outermost",)
            if isinstance(action, CountTo) and phase in (GruftPhase.COUNT_PLACE,
                                                         GruftPhase.COUNT_MOVE):
                if phase is GruftPhase.COUNT_MOVE:
                    return (f"grave {action.grave} is not a closed grave of the next quarter "
                            "clockwise", ("gruft-en:count.move",))
                return (f"the Count cannot stand on grave {action.grave}",
                        ("gruft-en:count.place", "gruft-en:play.keep-open"))
            if isinstance(action, GiftTo):
                return "the vampire goes to another player", ("gruft-en:bats.believed-vampire",)
            return f"expected: {what}", clauses
        if isinstance(action, Believe | Doubt):
            return "no bat is waiting for an answer", ("gruft-en:bats.ask",)
        if isinstance(action, CountTo):
            return "the Count is not being placed now", ("gruft-en:count.place",)
        if isinstance(action, GiftTo):
            return "no vampire from under a bat is being given", ("gruft-en:bats.believed-vampire",)
        g = getattr(action, "grave", None)
        if isinstance(action, OpenGrave | PlayBat) and phase is Phase.OPEN and g is not None \
                and 0 <= g < len(state.lids):
            if g == p.count_grave:
                if state.plague is not None:
                    return (f"grave {g} is kept by Count Rucola: not even in a plague",
                            ("gruft-en:faq.count-plague", "gruft-en:count.guard"))
                keeper = "nobody yet" if p.post is None else f"P{p.post + 1}"
                return (f"grave {g} is kept by Count Rucola for {keeper}",
                        ("gruft-en:count.guard", "gruft-en:faq.rat-ignored"))
            if g in p.open_graves:
                return (f"grave {g} is already open this turn", ("gruft-en:play.keep-open",))
            if isinstance(action, PlayBat):
                if bats_per_player(state.config) == 0:
                    return ("no bats in this game (a reduced set-up with bats_per_player "
                            "0)", ("gruft-en:prep.bats",))
                if state.plague is not None:
                    return ("bats are not played in a rat plague (reading)",
                            ("gruft-en:bats.declare",))
                if p.bats[state.turn_player] == 0:
                    return "no bat left: each bat is used once", ("gruft-en:bats.once",)
        if isinstance(action, PlayBat):
            return "a bat is put on a grave instead of opening one", ("gruft-en:bats.declare",)
        return None

    # ------------------------------------------------------------------------- transitions

    def step(self, state: State, action: Action, events: list[Event]) -> State:
        t = type(action)  # the most frequent exact types first (what the chain below does)
        if t is Believe or t is Doubt:
            return _answer_bat(state, t is Doubt, events)
        if t is PlaceVampire:
            return _put(state, action.end, events)  # type: ignore[union-attr]
        if isinstance(action, PlayBat):
            return _play_bat(state, action.grave, events)
        if isinstance(action, Believe | Doubt):
            return _answer_bat(state, isinstance(action, Doubt), events)
        if isinstance(action, GiftTo):
            bat = _p(state).bat
            assert bat is not None
            gift = Gift(bat.owner, action.player, "gruft-en:bats.believed-vampire")
            events.append(Event(EventKind.GIVE, bat.owner, None, state.in_transit, gift.clause))
            return _gs(state, {"gifts": (gift,), "phase": Phase.RECEIVE}, then_put=bat.owner)
        if isinstance(action, CountTo):
            return _count_to(state, action.grave, events)
        if isinstance(action, OpenGrave):
            return _count_open(state, events)
        assert isinstance(action, PlaceVampire)
        return _put(state, action.end, events)

    def on_opened(self, state: State, grave: int) -> State:
        """gruft-en:play.keep-open: the grave stays open until the end of the turn."""
        if state.plague is not None:
            return state
        part = _part(state)
        part.open_graves = (*part.open_graves, grave)
        return state

    def on_placed(self, state: State, player: int, events: list[Event]) -> State:
        """gruft-en:count.get-three: count matching placements; the third gets the Count
        (reading ``gruft_three``: in the own turn only, or in a row, plague goes included).
        With the Count left in the box (:func:`count_in_play`) nothing is counted."""
        if not count_in_play(state.config):
            return state
        g = _p(state)
        streak = g.streak + 1
        own_turn = state.plague is None or _opt(state, "gruft_three") == "in-a-row"
        if streak == 3 and own_turn and g.post != player:
            events.append(Event(GruftEvent.COUNT_GET, player, g.count_grave, g.post,
                                "gruft-en:count.get-three"))
            # gruft-en:count.continue: onto the post in front of the player, who goes on.
            return _g(state, streak=streak, post=player, count_grave=None)
        return _g(state, streak=streak)

    def on_unmatched(self, state: State) -> State:
        """gruft-en:count.get-three: anything but a matching placement breaks the run."""
        if _p(state).streak:
            _part(state).streak = 0
        return state

    def after_gifts(self, state: State) -> State | None:
        """gruft-en:bats.doubt-vampire, bats.doubt-garlic, bats.believed-vampire: a vampire
        goes into the emptied grave once the hand-overs are done."""
        then_put = _p(state).then_put
        if then_put is None:
            return None
        return _gs(state, {"phase": GruftPhase.PUT}, putter=then_put, then_put=None)

    def end_turn(self, state: State, nxt: int, events: list[Event]) -> State | None:
        """gruft-en:count.place: when a turn is over and the Count stands on its holder's post,
        the holder stands it on a grave (reading ``gruft_lost_place``: a player who got it from
        the right neighbour does so after their own turn, or at once)."""
        g = _p(state)
        # gruft-en:bats.close-ends, gruft-en:play.keep-open: no bat, no open grave (a part
        # that has neither already stays as it is)
        closed = g.open_graves or g.bat is not None
        if g.post is not None and g.count_grave is None and (
                g.post != nxt or _opt(state, "gruft_lost_place") == "at-once"):
            _g(state, open_graves=(), bat=None, next_turn=nxt)
            return with_changes(state, phase=GruftPhase.COUNT_PLACE, pending=None,
                                may_stop=False)
        if closed:
            part = _part(state)
            part.open_graves = ()
            part.bat = None
        return start_turn(state, nxt)

    def on_turn_start(self, state: State, player: int) -> State:
        """gruft-en:play.keep-open: the graves of the last turn are closed now; the holder of
        the Count starts by opening its grave (gruft-en:count.open-start)."""
        g = _p(state)
        if g.post == player and g.count_grave is not None:
            writable(state).phase = GruftPhase.COUNT_OPEN
        if g.open_graves or g.streak != 0 or g.next_turn is not None:
            part = _part(state)
            part.open_graves = ()
            part.streak = 0
            part.next_turn = None
        return state

    # ------------------------------------------------------------------------- logs

    def event_text(self, state: State, event: Event,
                   names: Sequence[str] | None) -> str | None:
        k = event.kind
        g = event.grave
        who = player_name(event.player, names)
        colours = state.config.colours
        colour = colours[event.value] if event.value is not None and event.value >= 0 else ""
        if k is EventKind.GIVE and event.clause == "gruft-en:bats.doubt-vampire":
            return f"{who} gets the {colour} vampire out of grave {g} as a gift."
        if k is GruftEvent.COUNT_GET:
            return f"{who} put three vampires to rest and gets COUNT RUCOLA with the post!"
        if k is GruftEvent.COUNT_PLACE:
            return f"{who} stands Count Rucola on grave {g}; it is kept for {who}."
        if k is GruftEvent.COUNT_OPEN:
            return f"{who} opens grave {g}, kept by Count Rucola (the lid is not turned)."
        if k is GruftEvent.COUNT_LOST:
            return (f"Grave {g} is occupied: {who} loses Count Rucola and the post to "
                    f"{player_name(event.value or 0, names)} (no penalty); the turn ends.")
        if k is GruftEvent.BAT:
            return f"{who} puts a bat on grave {g}: \"this grave is empty!\""
        if k is GruftEvent.BELIEVE:
            return f"{who} believes the bat."
        if k is GruftEvent.DOUBT:
            return f"{who} doubts the bat!"
        if k is GruftEvent.BAT_OPEN:
            return f"The bat of {who} is lifted and grave {g} opened (the lid is not turned)."
        if k is GruftEvent.PUT:
            return f"{who} puts a {colour} vampire into grave {g}."
        return None


EXPANSION = GruftExpansion()
"""The expansion's hooks, found by the base game through ``ruleproof.model.dawn_under.expansions``."""


# ----------------------------------------------------------------------------- the Count


def _next_asked(state: State) -> int:
    """gruft-en:bats.ask: the other players are asked in turn order, from the left neighbour."""
    bat = _p(state).bat
    assert bat is not None
    # others(config, owner)[k], without building the tuple: the k-th player clockwise
    # from the owner's left neighbour (IndexError past the last, as the tuple's)
    k = len(bat.believed)
    n = state.config.players
    if k >= n - 1:
        raise IndexError("every other player has answered the bat")
    return (bat.owner + 1 + k) % n


def count_graves(state: State) -> tuple[int, ...]:
    """Graves the Count may be stood on now (gruft-en:count.place; after a placement only the
    next quarter clockwise, gruft-en:count.move). Reading ``gruft_count_choice=blind``: any
    closed grave with a lid (it is chosen without looking); ``empty-only``: only graves known
    to be empty (if there is none, any closed grave)."""
    board = state.config.board
    p = _p(state)
    shut = set(p.open_graves)
    if p.count_grave is not None:
        shut.add(p.count_grave)
    graves = [g for g, lid in enumerate(state.lids) if lid is not None and g not in shut]
    if state.phase is GruftPhase.COUNT_MOVE:
        assert state.pending is not None
        quarter = (board.quarter_of[state.pending] + 1) % len(board.quarters)
        graves = [g for g in graves if board.quarter_of[g] == quarter]
    if _opt(state, "gruft_count_choice") == "empty-only":
        empty = [g for g in graves if state.contents[g] is None]
        graves = empty or graves
    return tuple(graves)


def _count_to(state: State, grave: int, events: list[Event]) -> State:
    holder = _p(state).post
    assert holder is not None
    if state.phase is GruftPhase.COUNT_MOVE:
        events.append(Event(GruftEvent.COUNT_PLACE, holder, grave, None, "gruft-en:count.move"))
        # gruft-en:count.empty-continue: the turn goes on (a vampire was placed).
        return _gs(state, {"phase": Phase.OPEN, "may_stop": True, "pending": None},
                   count_grave=grave)
    events.append(Event(GruftEvent.COUNT_PLACE, holder, grave, None, "gruft-en:count.place"))
    nxt = _p(state).next_turn
    assert nxt is not None
    return start_turn(_g(state, count_grave=grave, next_turn=None), nxt)


def _count_open(state: State, events: list[Event]) -> State:
    """gruft-en:count.open-start: opened without turning the lid (gruft-en:faq.rat-ignored)."""
    p = _p(state)
    grave = p.count_grave
    holder = p.post
    assert grave is not None and holder is not None
    events.append(Event(GruftEvent.COUNT_OPEN, holder, grave, None, "gruft-en:count.open-start"))
    state = _g(state, open_graves=(*p.open_graves, grave))
    content = state.contents[grave]
    if isinstance(content, GarlicIn):
        state = _garlic_home(state, grave, content, events)
        if _opt(state, "gruft_garlic") == "empty":
            content = None
    if content is None:
        # gruft-en:count.empty: any outermost vampire, whatever the colour.
        return _gs(state, {"phase": GruftPhase.PUT, "pending": grave}, putter=holder)
    # gruft-en:count.occupied, gruft-en:count.no-penalty: no stake, no vampires; the Count and
    # the post go to the left neighbour (gruft-en:count.get-lost) and the turn ends
    # (gruft-en:count.occupied-ends).
    left = left_of(state.config, holder)
    events.append(Event(GruftEvent.COUNT_LOST, holder, grave, left, "gruft-en:count.get-lost"))
    state = _g(state, post=left, count_grave=None)
    return end_turn(state, events, "gruft-en:count.occupied-ends")


def _garlic_home(state: State, grave: int, garlic: GarlicIn, events: list[Event]) -> State:
    return with_changes(state, **_garlic_home_changes(state, grave, garlic, events))


def _garlic_home_changes(state: State, grave: int, garlic: GarlicIn,
                         events: list[Event]) -> dict[str, Any]:
    """du-en:ch3.garlic-back: the garlic found in ``grave`` goes back to its owner (the
    fields of ``state`` that change)."""
    hand = tuple(h + 1 if p == garlic.owner else h for p, h in enumerate(state.garlic_hand))
    events.append(Event(EventKind.GARLIC_BACK, garlic.owner, grave, None,
                        "du-en:ch3.garlic-back"))
    return {"contents": set_at(state.contents, grave, None), "garlic_hand": hand}


# ----------------------------------------------------------------------------- bats


def _play_bat(state: State, grave: int, events: list[Event]) -> State:
    """gruft-en:bats.declare; the bat leaves the player's hand for good (gruft-en:bats.once)."""
    owner = state.turn_player
    events.append(Event(GruftEvent.BAT, owner, grave, None, "gruft-en:bats.declare"))
    bats = _p(state).bats
    return _gs(state, {"phase": GruftPhase.BAT, "may_stop": False, "pending": None},
               bats=set_at(bats, owner, bats[owner] - 1), bat=BatClaim(grave, owner))


def _answer_bat(state: State, doubt: bool, events: list[Event]) -> State:
    """gruft-en:bats.ask / gruft-en:bats.open: the first doubt, or the last belief, opens the
    grave; the lid is not turned (gruft-en:faq.rat-ignored); the bat goes into the box.

    The changes are gathered (``changes`` for the state, ``ext`` for the expansion's part)
    and the successor is built once."""
    p = _p(state)
    bat = p.bat
    assert bat is not None
    asked = _next_asked(state)
    ext: dict[str, Any] = {}
    if not doubt:
        events.append(Event(GruftEvent.BELIEVE, asked, bat.grave, bat.owner,
                            "gruft-en:bats.ask"))
        bat = _bat_with(bat, believed=(*bat.believed, asked))
        if len(bat.believed) < state.config.players - 1:
            return with_changes(state, extension=_gruft_with(p, bat=bat))
        ext["bat"] = bat
    else:
        events.append(Event(GruftEvent.DOUBT, asked, bat.grave, bat.owner, "gruft-en:bats.ask"))
    grave, owner = bat.grave, bat.owner
    content = state.contents[grave]
    out = set_at(p.bats_out, owner, p.bats_out[owner] + 1)  # gruft-en:bats.once
    events.append(Event(GruftEvent.BAT_OPEN, owner, grave, None, "gruft-en:bats.open"))
    ext["bats_out"] = out
    ext["open_graves"] = (*p.open_graves, grave)
    changes: dict[str, Any] = {"pending": grave}
    config = state.config
    if content is None:
        if not doubt:
            # gruft-en:bats.believed-empty
            changes["phase"] = GruftPhase.PUT
            ext["putter"] = owner
        elif state.stakes_path == 0:
            # gruft-en:bats.doubt-empty, no stake left on the path: the owner puts one in
            changes["phase"] = GruftPhase.PUT
            ext["putter"] = owner
        else:
            # gruft-en:bats.doubt-empty: the doubter takes a stake at once (a third stake
            # brings the gift, du-en:ch2.gift), then the bat's owner puts a vampire in.
            held = state.stakes_held[asked] + 1
            events.append(Event(EventKind.STAKE, asked, None, held,
                                "gruft-en:bats.doubt-empty"))
            path = state.stakes_path - 1
            gifts: tuple[Gift, ...] = ()
            if gift_due(held, config):
                events.append(Event(EventKind.STAKES_BACK, asked, None, held,
                                    "du-en:ch2.stakes-back"))
                path += held
                held = 0
                gifts = tuple(Gift(g, asked, "du-en:ch2.gift") for g in others(config, asked)
                              for _ in range(config.gift_stake))
            changes["stakes_held"] = set_at(state.stakes_held, asked, held)
            changes["stakes_path"] = path
            if gifts:
                changes["gifts"] = gifts
                changes["phase"] = Phase.GIVE
                ext["then_put"] = owner
            else:
                changes["phase"] = GruftPhase.PUT
                ext["putter"] = owner
    elif isinstance(content, VampireIn):
        changes["contents"] = set_at(state.contents, grave, None)
        changes["in_transit"] = content.colour
        if not doubt:
            # gruft-en:bats.believed-vampire: the owner picks who gets it
            changes["phase"] = GruftPhase.BAT_GIFT
        else:
            # gruft-en:bats.doubt-vampire: the owner gets it, then the doubter puts one in.
            gift = Gift(owner, owner, "gruft-en:bats.doubt-vampire")
            events.append(Event(EventKind.GIVE, owner, grave, content.colour, gift.clause))
            changes["gifts"] = (gift,)
            changes["phase"] = Phase.RECEIVE
            ext["then_put"] = asked
    else:
        changes.update(_garlic_home_changes(state, grave, content, events))
        if not doubt:
            # gruft-en:bats.believed-garlic: no reward; the owner puts a vampire in.
            changes["phase"] = GruftPhase.PUT
            ext["putter"] = owner
        else:
            # gruft-en:bats.doubt-garlic: rewards as in du-en:ch3.other-garlic /
            # ch3.own-garlic.
            if content.owner == owner:
                gifts = tuple(Gift(g, owner, "gruft-en:bats.doubt-garlic")
                              for g in others(config, owner)
                              for _ in range(config.gift_own_garlic))
            else:
                gifts = (Gift(content.owner, owner, "gruft-en:bats.doubt-garlic"),) \
                    * config.gift_other_garlic
            changes["gifts"] = gifts
            changes["phase"] = Phase.GIVE
            ext["then_put"] = asked
    return with_changes(state, extension=_gruft_with(p, **ext), **changes)


def _put(state: State, end: End, events: list[Event]) -> State:
    """An outermost vampire into ``pending`` whatever its colour (gruft-en:count.empty,
    gruft-en:bats.believed-empty and the other bat outcomes); then the Count moves on
    (gruft-en:count.move) or the bat's turn ends (gruft-en:bats.close-ends)."""
    p = _p(state)
    player = p.putter
    grave = state.pending
    assert player is not None and grave is not None
    colour, row = remove_end(state.rows[player], end, state.config)
    clause = "gruft-en:bats.open" if p.bat is not None else "gruft-en:count.empty"
    events.append(Event(GruftEvent.PUT, player, grave, colour, clause))
    rows = set_at(state.rows, player, row)
    contents = set_at(state.contents, grave, VampireIn(colour))
    if not row:
        return win(_gs(state, {"rows": rows, "contents": contents}, putter=None), player, events)
    if p.bat is not None:
        if _opt(state, "gruft_bat_counts") == "any-placement" and player == state.turn_player:
            state = _gs(state, {"rows": rows, "contents": contents}, putter=None)
            state = EXPANSION.on_placed(state, player, events)  # gruft-en:count.get-three
            state = _gs(state, {"pending": None}, bat=None)
        else:
            state = _gs(state, {"rows": rows, "contents": contents, "pending": None},
                        putter=None, bat=None)
        return end_turn(state, events, "gruft-en:bats.close-ends")
    # gruft-en:count.empty: the vampire goes in, "then close it": the Count's grave does not
    # stay open for the rest of the turn (its lid was never turned, gruft-en:count.open-start)
    return _gs(state, {"rows": rows, "contents": contents, "phase": GruftPhase.COUNT_MOVE},
               putter=None, open_graves=tuple(g for g in p.open_graves if g != grave))
