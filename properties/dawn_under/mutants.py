"""Dawn Under's rule sites for the mutant search (capability ``"mutants"``, :data:`MUTANTS`;
the operators and the search are :mod:`ruleproof.properties.discovery.mutants`).

Each site applies one operator at one rule site of the engine (du-en, du-cs, the 2-player game,
the expansion gruft-en), names the clauses the site implements, asks its question in plain
words and gives every reading as a mutant engine: the engine run under another rule option
(where the register already has the reading as an option), under other component numbers, or
with its legal actions, transition or observation changed around the unchanged engine. The
engine's source is never edited.

Some readings need a note the engine does not keep (which player's turn a chain of plagues
began in): the mutant keeps it in the state's ``extension`` slot, which the base game leaves
empty, and :func:`same` ignores it when comparing states.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from ruleproof.model.api import GameBase, GameState
from ruleproof.model.dawn_under import config as du_config
from ruleproof.model.dawn_under import engine as E
from ruleproof.model.dawn_under.gruft.state import Gruft, GruftPhase, part
from ruleproof.model.dawn_under.state import (
    RAT,
    Config,
    End,
    GarlicIn,
    Gift,
    GiveVampire,
    LeaveEmpty,
    OpenGrave,
    Phase,
    PlaceGarlic,
    PlaceVampire,
    ReceiveVampire,
    State,
    Stop,
    Vampire,
    VampireIn,
    option_value,
)
from ruleproof.properties.contracts.discovery import Finding
from ruleproof.properties.discovery.mutants import (
    Legal,
    Observe,
    Reading,
    Site,
    SiteList,
    Step,
    ToMove,
    mutant,
    post,
    refusing,
)
from ruleproof.properties.plugin import RuleSet

# ----------------------------------------------------------------------------- rule sets


def _three_plus(rs: RuleSet) -> bool:
    return rs.count >= 3


def _two(rs: RuleSet) -> bool:
    return rs.count == 2


def _gruft(rs: RuleSet) -> bool:
    return rs.expansion == "gruft"


def _plain(rs: RuleSet) -> bool:
    """No expansion (its turn ends and notes are its own)."""
    return rs.expansion is None


def _plain_three(rs: RuleSet) -> bool:
    return _plain(rs) and _three_plus(rs)


def _options(rs: RuleSet) -> Any:
    return du_config.parse_options({k: v for k, v in rs.options},
                                   base=du_config.preset_options(rs.preset))


def _current(option: str) -> Callable[[RuleSet], str]:
    def engine(rs: RuleSet) -> str:
        return option_value(_options(rs), option)
    return engine


def _fixed(value: str) -> Callable[[RuleSet], str]:
    def engine(rs: RuleSet) -> str:
        return value
    return engine


# ----------------------------------------------------------------------------- mutant parts


@cache
def _with_options(config: Config, pairs: tuple[tuple[str, str], ...]) -> Config:
    return replace(config, options=du_config.parse_options(dict(pairs), base=config.options))


@cache
def _with_numbers(config: Config, numbers: tuple[tuple[str, int], ...]) -> Config:
    changes: dict[str, Any] = dict(numbers)
    return replace(config, **changes)


def _configured(change: Callable[[Config], Config]) -> tuple[ToMove, Legal, Step]:
    """Who decides, the legal actions and the transition of the engine run under a changed
    configuration (rule options or component numbers); the successor keeps the state's own
    configuration, so the contracts judge it by the rule set's."""
    def to_move(base: GameBase[Any], m: Any) -> int:
        if not isinstance(m, State):
            return base.model_to_move(m)
        return base.model_to_move(E.with_changes(m, config=change(m.config)))

    def legal(base: GameBase[Any], m: Any) -> Sequence[Any]:
        if not isinstance(m, State):
            return base.model_legal(m)
        return base.model_legal(E.with_changes(m, config=change(m.config)))

    def step(base: GameBase[Any], m: Any, action: Any) -> tuple[Any, Any]:
        if not isinstance(m, State):
            return base.model_step(m, action)
        nxt, seen = base.model_step(E.with_changes(m, config=change(m.config)), action)
        return E.with_changes(nxt, config=m.config), seen
    return to_move, legal, step


def _under_option(option: str, value: str) -> Callable[[GameBase[Any]], GameBase[Any]]:
    pairs = ((option, value),)
    to_move, legal, step = _configured(lambda c: _with_options(c, pairs))

    def make(base: GameBase[Any]) -> GameBase[Any]:
        return mutant(base, legal=legal, step=step, to_move=to_move, label=f"{option}={value}")
    return make


def _under_numbers(label: str, **numbers: int) -> Callable[[GameBase[Any]], GameBase[Any]]:
    items = tuple(sorted(numbers.items()))
    to_move, legal, step = _configured(lambda c: _with_numbers(c, items))

    def make(base: GameBase[Any]) -> GameBase[Any]:
        return mutant(base, legal=legal, step=step, to_move=to_move, label=label)
    return make


def _after(label: str, transform: Callable[[Any, Any, Any], Any],
           legal: Legal | None = None) -> Callable[[GameBase[Any]], GameBase[Any]]:
    """A mutant changing the engine's successor (only of dealt states)."""
    def change(s: Any, a: Any, t: Any) -> Any:
        return transform(s, a, t) if isinstance(s, State) and isinstance(t, State) else t

    def make(base: GameBase[Any]) -> GameBase[Any]:
        return mutant(base, legal=legal, step=post(change), label=label)
    return make


def _refusing(label: str, refuse: Callable[[Any, Any], bool]
              ) -> Callable[[GameBase[Any]], GameBase[Any]]:
    def make(base: GameBase[Any]) -> GameBase[Any]:
        return mutant(base, legal=refusing(
            lambda m, a: isinstance(m, State) and refuse(m, a)), label=label)
    return make


def _left(s: State, p: int) -> int:
    return (p + 1) % s.config.players


def _right(s: State, p: int) -> int:
    return (p - 1) % s.config.players


def _actor(s: State) -> int:
    return s.plague.current if s.plague is not None else s.turn_player


def _over(s: State) -> bool:
    return s.phase is Phase.OVER


def _set(seq: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return (*seq[:i], v, *seq[i + 1:])


# ----------------------------------------------------------------------------- option sites


def _option_site(operator: str, name: str, option: str, clauses: tuple[str, ...],
                 question: str, entry: str, summaries: dict[str, str],
                 applies: Callable[[RuleSet], bool] = lambda rs: True) -> Site:
    """A site whose readings are the values of an existing rule option (the register entry
    ``entry`` poses its question)."""
    values = du_config.option_values()[option]
    readings = tuple(Reading(v, summaries.get(v, v), _under_option(option, v)) for v in values)
    return Site(operator, name, clauses, question, readings, _current(option), applies, entry)


def _option_sites() -> list[Site]:
    return [
        _option_site("optional", "match-placement", "match_placement",
                     ("du-en:ch1.match", "du-en:qr.match"),
                     "Must a matching outermost vampire be put into the grave just opened, or "
                     "may the player leave it empty or put garlic in?", "du.match-optional",
                     {"mandatory": "a matching vampire must go in",
                      "optional": "the player may leave the grave empty instead"}),
        _option_site("optional", "turn-start", "turn_start", ("du-en:ch1.open", "du-cs:prubeh.open"),
                     "Must a player open a grave on their turn, or may they pass?",
                     "du.turn-start", {"must-open": "every turn opens a grave",
                                       "may-pass": "a player may pass without opening"}),
        _option_site("turn-ends", "after-match", "after_match",
                     ("du-en:ch1.continue", "du-cs:prubeh.match-ends"),
                     "Does putting a vampire to rest end the turn, or may the player go on?",
                     "du.after-match", {"may-continue": "the player may open another grave",
                                        "turn-ends": "the turn ends after a placement"},
                     _plain),
        _option_site("turn-ends", "plague-occupied", "plague_occupied",
                     ("du-en:ch4.occupied", "du-cs:prubeh.rat-resolve"),
                     "Does a stake or garlic found in a plague end that player's part of it?",
                     "du.plague-occupied", {"continue": "the player may go on opening",
                                            "pass": "the plague passes to the next player"}),
        _option_site("cap", "plague-round", "plague_round",
                     ("du-en:ch4.end-all-passed", "du-cs:prubeh.rat-end"),
                     "Does a plague go round once, or until every player in a row declines?",
                     "du.plague-round", {"one-round": "each player has one go",
                                         "until-all-pass": "until all players in a row stop"}),
        _option_site("eligibility", "late-placement", "plague_late_placement",
                     ("du-en:ch4.just-opened", "du-en:qr.taboo"),
                     "May a grave opened earlier in a plague still take a vampire or garlic?",
                     "du.plague-late-placement",
                     {"forbidden": "only the grave just opened",
                      "allowed": "any grave opened in the plague that is still empty"}),
        _option_site("next-seat", "after-plague-turn", "after_plague_turn",
                     ("du-en:ch4.next-turn",),
                     "Who plays after a plague: the starter's left neighbour, or the left "
                     "neighbour of whoever ended it?", "du.after-plague-turn",
                     {"left-of-starter": "the plague starter's left neighbour",
                      "left-of-last": "the left neighbour of the player who ended it"}),
        _option_site("next-seat", "second-rat", "second_rat",
                     ("du-en:ch5.hand-over", "du-cs:prubeh.new-starter"),
                     "Who runs the new plague when a second rat is found?", "du.second-rat",
                     {"finder": "the finder (or their left neighbour if they began the first)",
                      "left-of-starter": "the old starter's left neighbour",
                      "opponent": "the finder's left neighbour"}, _three_plus),
        _option_site("next-seat", "second-rat-2p", "second_rat",
                     ("du-en:2p.plague", "du-en:ch5.hand-over"),
                     "With two players, who runs the plague a second rat starts?",
                     "du2p.second-rat", {"finder": "the finder", "opponent": "the opponent",
                                         "left-of-starter": "the old starter's opponent"},
                     _two),
        _option_site("next-seat", "gift-chooser", "gift_end_chooser",
                     ("du-en:ch2.gift", "du-cs:priprava.take-end"),
                     "Who picks which outermost vampire is handed over: the giver or the "
                     "receiver?", "du.gift-chooser",
                     {"giver": "the giver picks the end", "receiver": "the receiver picks"}),
        _option_site("next-seat", "received-end-chooser", "receiver_chooses_end",
                     ("du-en:ch3.received-open", "du-cs:prubeh.received-ends"),
                     "Who decides at which end a received vampire goes?", "du.received-end",
                     {"true": "the receiver", "false": "the giver"}),
        _option_site("timing", "gift-trigger", "gift_trigger",
                     ("du-en:ch2.gift", "du-cs:prubeh.gift"),
                     "Does the gift come with the third stake, or with a stake taken while "
                     "already holding three?", "du.gift-trigger",
                     {"third-stake": "the third stake brings the gift",
                      "holding-three": "a stake taken while holding three"}),
        _option_site("cap", "empty-path", "empty_path", ("du-en:ch2.stake", "du-en:content.stakes"),
                     "What happens when a stake is due but none is left on the path?",
                     "du.empty-path", {"no-stake": "nothing is taken",
                                       "gift-now": "it counts as the gift"}),
        _option_site("eligibility", "reopen-2p", "reopen_rule", ("du-en:2p.reopen",),
                     "May a player open a grave barred to them (paying a stake), or not at "
                     "all?", "du2p.reopen", {"stake-and-end": "it costs a stake, turn over",
                                             "forbidden": "it cannot be opened"}, _two),
        _option_site("eligibility", "lidless-2p", "lidless_grave", ("du-en:2p.lids",),
                     "What is a grave left without a lid in the 2-player game?",
                     "du2p.lidless-grave", {"unusable": "it cannot be used",
                                            "wild": "it takes any outermost vampire"}, _two),
        _option_site("turn-window", "count-three", "gruft_three", ("gruft-en:count.get-three",),
                     "Does the Count go to a player who places three vampires during one turn, "
                     "or three in a row?", "gruft.three-vampires",
                     {"one-turn": "three in the player's own turn",
                      "in-a-row": "three in a row, plague goes included"}, _gruft),
        _option_site("eligibility", "count-garlic", "gruft_garlic",
                     ("gruft-en:count.empty", "gruft-en:count.occupied"),
                     "Is a grave holding garlic 'occupied' for Count Rucola?",
                     "gruft.garlic-under-count", {"occupied": "garlic counts as occupied",
                                                  "empty": "garlic counts as empty"}, _gruft),
        _option_site("visibility", "plague-open-graves", "gruft_plague_open",
                     ("gruft-en:play.keep-open",),
                     "Do the graves a player left open stay open through a rat plague?",
                     "gruft.plague-open-graves", {"stay-open": "they stay open",
                                                  "closed": "they are closed"}, _gruft),
        _option_site("eligibility", "count-choice", "gruft_count_choice",
                     ("gruft-en:count.place", "gruft-en:count.move"),
                     "May the Count be stood on any closed grave, or only on one known to be "
                     "empty?", "gruft.count-choice", {"blind": "any closed grave",
                                                      "empty-only": "a grave known empty"},
                     _gruft),
        _option_site("timing", "count-lost-place", "gruft_lost_place",
                     ("gruft-en:count.get-lost", "gruft-en:count.place"),
                     "When does a player who got the Count from the right stand it on a grave?",
                     "gruft.lost-count-placement", {"own-turn": "after their own next turn",
                                                    "at-once": "at once"}, _gruft),
        _option_site("cap", "bat-counts", "gruft_bat_counts",
                     ("gruft-en:count.get-three", "gruft-en:bats.believed-empty"),
                     "Does a vampire put in by way of a bat count toward the three that win "
                     "the Count?", "gruft.bat-counts-for-count",
                     {"matching-only": "only matching placements count",
                      "any-placement": "a bat's vampire counts too"}, _gruft),
    ]


# ----------------------------------------------------------------------------- next seat


def _turn_passed(s: State, t: State) -> bool:
    """The engine passed an ordinary turn (no plague before or after, nothing owed)."""
    return (not _over(t) and s.plague is None and t.plague is None and not t.gifts
            and t.turn_player != s.turn_player)


def _pass_turn_to(who: Callable[[State, int], int]) -> Callable[[Any, Any, Any], Any]:
    def transform(s: State, a: Any, t: State) -> State:
        if not _turn_passed(s, t):
            return t
        nxt = who(s, s.turn_player)
        if nxt == t.turn_player:
            return t
        g = part(t)
        if g is not None and g.next_turn is not None:  # the Count is stood first
            return E.with_changes(t, extension=replace(g, next_turn=nxt))
        return E.start_turn(t, nxt)
    return transform


def _next_seat_sites() -> list[Site]:
    seats = {"left": _left, "right": _right, "same": lambda s, p: p}
    turn = Site(
        "next-seat", "turn-passes", ("du-en:play.clockwise",),
        "When a turn ends, who plays next?",
        tuple(Reading(v, f"the {v} player" if v != "same" else "the same player again",
                      _after(f"turn passes {v}", _pass_turn_to(f)))
              for v, f in seats.items()), _fixed("left"))

    def plague_to(who: Callable[[State, int], int]) -> Callable[[Any, Any, Any], Any]:
        def transform(s: State, a: Any, t: State) -> State:
            if s.plague is None or t.plague is None or t.plague.origin != s.plague.origin \
                    or t.plague.current == s.plague.current or _over(t):
                return t
            nxt = who(s, s.plague.current)
            return E.with_changes(t, plague=replace(t.plague, current=nxt))
        return transform

    plague = Site(
        "next-seat", "plague-passes", ("du-en:ch4.pass", "du-cs:prubeh.rat-pass"),
        "When a player stops in a plague, who may go on with it?",
        (Reading("left", "the left neighbour", _after("plague passes left", plague_to(_left))),
         Reading("right", "the right neighbour",
                 _after("plague passes right", plague_to(_right)))),
        _fixed("left"))

    def count_to(who: Callable[[State, int], int]) -> Callable[[Any, Any, Any], Any]:
        def transform(s: State, a: Any, t: State) -> State:
            g0, g1 = part(s), part(t)
            if g0 is None or g1 is None or g0.post is None or g1.post in (None, g0.post) \
                    or g0.count_grave is None or g1.count_grave is not None:
                return t
            return E.with_changes(t, extension=replace(g1, post=who(s, g0.post)))
        return transform

    count = Site(
        "next-seat", "count-lost-to", ("gruft-en:count.get-lost",),
        "When the Count's grave is found occupied, who gets the Count and the post?",
        (Reading("left", "the left neighbour", _after("Count lost left", count_to(_left))),
         Reading("right", "the right neighbour", _after("Count lost right", count_to(_right)))),
        _fixed("left"), _gruft)
    return [turn, plague, count]


# ----------------------------------------------------------------------------- effect order


def _order_gifts(clockwise: bool) -> Callable[[Any, Any, Any], Any]:
    """A new round of hand-overs from several players, ordered clockwise from the receiver's
    left, or counter-clockwise from the receiver's right."""
    def transform(s: State, a: Any, t: State) -> State:
        if s.gifts or len({g.giver for g in t.gifts}) < 2 or t.phase is not Phase.GIVE:
            return t
        n = t.config.players
        receiver = t.gifts[0].receiver

        def key(g: Gift) -> int:
            d = (g.giver - receiver) % n
            return d if clockwise else n - d

        return E.with_changes(t, gifts=tuple(sorted(t.gifts, key=key)))
    return transform


def _effect_order_sites() -> list[Site]:
    return [Site(
        "effect-order", "gift-round-order",
        ("du-en:ch2.gift", "du-en:ch3.own-garlic", "du-en:qr.stake"),
        "When every other player owes the finder a vampire (third stake, own garlic), in "
        "which order do they hand them over? A giver who hands over their last vampire wins "
        "at once, so the order can decide the winner.",
        (Reading("clockwise", "clockwise from the receiver's left",
                 _after("gifts clockwise", _order_gifts(True))),
         Reading("counter-clockwise", "counter-clockwise from the receiver's right",
                 _after("gifts counter-clockwise", _order_gifts(False)))),
        _fixed("clockwise"), _three_plus)]


# ----------------------------------------------------------------------------- caps


def _cap_sites(rs: RuleSet) -> list[Site]:
    two = rs.count == 2
    stake_gift = "4" if two else "1"
    gift_values = ("1", "2", "4")
    out = [
        Site("cap", "stakes-for-gift", ("du-en:ch2.gift", "du-en:qr.stake"),
             "How many stakes bring the gift?",
             tuple(Reading(v, f"{v} stakes", _under_numbers(f"{v} stakes for the gift",
                                                             stakes_for_gift=int(v)))
                   for v in ("3", "2", "4")), _fixed("3")),
        Site("cap", "stake-gift-size",
             ("du-en:ch2.gift", "du-en:2p.own-garlic-stake"),
             "How many vampires does each other player hand over for the third stake?",
             tuple(Reading(v, f"{v} each", _under_numbers(f"{v} per stake gift",
                                                          gift_stake=int(v)))
                   for v in gift_values), _fixed(stake_gift)),
        Site("cap", "open-per-side", ("du-en:row.refill", "du-en:qr.open-count"),
             "How many vampires lie open at each end of a row?",
             tuple(Reading(v, f"{v} open at each end",
                           _under_numbers(f"{v} open per side", open_per_side=int(v)))
                   for v in ("2", "1", "3")), _fixed("2")),
        Site("cap", "all-open-at", ("du-en:row.four-or-fewer",),
             "Below how many vampires does a whole row lie open?",
             tuple(Reading(v, f"{v} or fewer all open",
                           _under_numbers(f"all open at {v}", all_open_at_most=int(v)))
                   for v in ("4", "3", "5")), _fixed("4")),
    ]
    if rs.expansion == "gruft":
        out.append(Site(
            "cap", "count-three-size", ("gruft-en:count.get-three",),
            "How many vampires must a player put to rest to get Count Rucola?",
            tuple(Reading(v, f"{v} vampires", _after(f"Count after {v}", _count_after(int(v))))
                  for v in ("3", "2", "4")), _fixed("3"), _gruft))
        out.append(Site(
            "cap", "bat-uses", ("gruft-en:bats.once", "gruft-en:prep.bats"),
            "How often may a bat be used: once (then it goes back into the box), or again and "
            "again?",
            (Reading("once", "each bat once", lambda b: b),
             Reading("kept", "a used bat stays in front of its owner",
                     _after("bats kept after use", _bat_kept))), _fixed("once"), _gruft))
    return out


def _bat_kept(s: State, a: Any, t: State) -> State:
    """A bat set on a grave comes back to its owner: no bat is ever used up."""
    g0, g1 = part(s), part(t)
    if g0 is None or g1 is None or (g1.bats == g0.bats and g1.bats_out == g0.bats_out):
        return t
    kept = tuple(max(b0, b1) for b0, b1 in zip(g0.bats, g1.bats, strict=True))
    return E.with_changes(t, extension=replace(g1, bats=kept, bats_out=g0.bats_out))


def _count_after(need: int) -> Callable[[Any, Any, Any], Any]:
    """The Count goes to the player whose streak of matching placements reaches ``need``
    (the engine gives it at three; the streak itself is the engine's)."""
    def transform(s: State, a: Any, t: State) -> State:
        g0, g1 = part(s), part(t)
        if g0 is None or g1 is None or not isinstance(a, PlaceVampire) or _over(t):
            return t
        placer = _actor(s)
        gained = g1.post == placer and g0.post != placer
        counted = g1.streak == g0.streak + 1
        if not counted:
            return t
        own = s.plague is None or dict(t.config.options.expansion_options).get(
            "gruft_three") == "in-a-row"
        due = g1.streak == need and own and g0.post != placer
        if gained and not due:
            return E.with_changes(t, extension=replace(g1, post=g0.post,
                                                       count_grave=g0.count_grave))
        if due and not gained:
            return E.with_changes(t, extension=replace(g1, post=placer, count_grave=None))
        return t
    return transform


# ----------------------------------------------------------------------------- eligibility


def _inner(row: tuple[Vampire, ...], end: End) -> Vampire | None:
    """The open vampire next to the outermost one at ``end`` (None if there is none)."""
    if len(row) < 3:
        return None
    v = row[1] if end is End.LEFT else row[-2]
    return v if v.face_up else None


def _swap_inner(row: tuple[Vampire, ...], end: End) -> tuple[Vampire, ...]:
    if end is End.LEFT:
        return (row[1], row[0], *row[2:])
    return (*row[:-2], row[-1], row[-2])


def _place_inner_legal(base: GameBase[Any], m: Any) -> Sequence[Any]:
    out = tuple(base.model_legal(m))
    if not isinstance(m, State) or m.phase is not Phase.PLACE or m.pending is None:
        return out
    g = m.pending
    lid = m.lids[g]
    row = m.rows[_actor(m)]
    more = [PlaceVampire(g, e) for e in (End.LEFT, End.RIGHT)
            if (v := _inner(row, e)) is not None and v.colour == lid
            and PlaceVampire(g, e) not in out]
    return (*out, *more)


def _place_inner_step(base: GameBase[Any], m: Any, a: Any) -> tuple[Any, Any]:
    if isinstance(m, State) and isinstance(a, PlaceVampire) and m.phase is Phase.PLACE:
        p = _actor(m)
        row = m.rows[p]
        v = _inner(row, a.end)
        outer = row[0] if row and a.end is End.LEFT else row[-1] if row else None
        if v is not None and outer is not None and outer.colour != m.lids[a.grave] \
                and v.colour == m.lids[a.grave]:
            swapped = E.with_changes(m, rows=_set(m.rows, p, _swap_inner(row, a.end)))
            return base.model_step(swapped, a)
    return base.model_step(m, a)


def _give_inner(s: State, a: Any, t: State) -> State:
    """The giver hands over the open vampire next to the chosen end instead."""
    if not isinstance(a, GiveVampire) or s.phase is not Phase.GIVE or _over(t):
        return t
    giver = s.gifts[0].giver
    row = s.rows[giver]
    v = _inner(row, a.end)
    if v is None:
        return t
    rest = E.refill(_swap_inner(row, a.end)[1:] if a.end is End.LEFT
                    else _swap_inner(row, a.end)[:-1], s.config)
    return E.with_changes(t, rows=_set(t.rows, giver, rest), in_transit=v.colour)


def _give_outer(s: State, a: Any, t: State) -> State:
    """The giver hands over the outermost vampire at the chosen end (the engine's reading,
    imposed)."""
    if not isinstance(a, GiveVampire) or s.phase is not Phase.GIVE or _over(t):
        return t
    giver = s.gifts[0].giver
    row = s.rows[giver]
    colour, rest = E.remove_end(row, a.end, s.config)
    if t.rows[giver] == rest and t.in_transit == colour:
        return t
    return E.with_changes(t, rows=_set(t.rows, giver, rest), in_transit=colour)


def _receive_inside(s: State, a: Any, t: State) -> State:
    """The received vampire goes in next to the chosen end's outermost vampire."""
    if not isinstance(a, ReceiveVampire) or s.phase is not Phase.RECEIVE or not s.gifts:
        return t
    r = s.gifts[0].receiver
    row = t.rows[r]
    if len(row) < 3:
        return t
    moved = (row[1], row[0], *row[2:]) if a.end is End.LEFT else (*row[:-2], row[-1], row[-2])
    return E.with_changes(t, rows=_set(t.rows, r, moved))


def _spread_legal(base: GameBase[Any], m: Any) -> Sequence[Any]:
    """In a plague: also the graves next to a grave opened in it (the plague spreads)."""
    out = tuple(base.model_legal(m))
    if not isinstance(m, State) or m.plague is None or m.phase is not Phase.OPEN:
        return out
    p = m.plague
    near = m.config.board.neighbours
    allowed = set(E.openable(m))
    more = sorted({g for o in p.opened for g in near[o]} - allowed - set(p.opened)
                  - {p.origin})
    extra = [OpenGrave(g) for g in more if m.lids[g] is not None
             and (part(m) is None or g != part(m).count_grave)]  # type: ignore[union-attr]
    return (*out, *extra)


def _spread_step(base: GameBase[Any], m: Any, a: Any) -> tuple[Any, Any]:
    if isinstance(m, State) and isinstance(a, OpenGrave) and m.plague is not None \
            and a.grave not in E.openable(m):
        events: list[Any] = []
        # the engine's own step, unchecked: on a draft of ``m``, sealed after
        return E._seal(E._open_grave(E._draft(m), a, events)), tuple(events)
    return base.model_step(m, a)


def _eligibility_sites() -> list[Site]:
    return [
        Site("eligibility", "place-which", ("du-en:ch1.outermost", "du-en:ch1.match"),
             "Which vampires may be put to rest: only an outermost one, or any open one?",
             (Reading("outermost", "only an outermost vampire", lambda b: b),
              Reading("any-open", "also the open vampire next to an outermost one",
                      lambda b: mutant(b, legal=_place_inner_legal, step=_place_inner_step,
                                       label="place an inner open vampire"))),
             _fixed("outermost")),
        Site("eligibility", "give-which", ("du-en:ch2.gift", "du-en:ch3.other-garlic"),
             "Which vampire does a giver hand over: an outermost one, or any open one?",
             (Reading("outermost", "an outermost vampire",
                      _after("give an outermost vampire", _give_outer)),
              Reading("next-to-outermost", "the open vampire next to an outermost one",
                      _after("give an inner vampire", _give_inner))),
             _fixed("outermost")),
        Site("eligibility", "receive-where", ("du-en:ch3.received-open", "du-en:qr.open-count"),
             "Where does a received vampire go: at an end of the row, or among the open "
             "vampires of a side?",
             (Reading("end", "at an end of the row", lambda b: b),
              Reading("inside", "next to the outermost vampire of a side",
                      _after("received vampire inside", _receive_inside))),
             _fixed("end")),
        Site("eligibility", "plague-graves", ("du-en:ch4.only-neighbours", "du-en:ch4.neighbours"),
             "Which graves may be opened in a plague: the rat grave's neighbours only, or "
             "also the neighbours of graves opened in it?",
             (Reading("neighbours", "the rat grave's neighbours", lambda b: b),
              Reading("spreading", "also next to graves opened in the plague",
                      lambda b: mutant(b, legal=_spread_legal, step=_spread_step,
                                       label="the plague spreads"))),
             _fixed("neighbours")),
    ]


# ----------------------------------------------------------------------------- optional / forced


def _garlic_forced(m: State, a: Any) -> bool:
    """Without a match and with garlic left, garlic must go in."""
    return (isinstance(a, LeaveEmpty) and m.phase is Phase.PLACE
            and m.garlic_hand[_actor(m)] > 0
            and any(isinstance(x, PlaceGarlic) for x in E.legal_actions(m)))


def _go_on_forced(m: State, a: Any) -> bool:
    """After a placement the player must open again while a grave can be opened."""
    return (isinstance(a, Stop) and m.phase is Phase.OPEN and m.plague is None
            and m.placed_this_turn > 0 and bool(E.openable(m)))


def _plague_open_forced(m: State, a: Any) -> bool:
    """The plague's holder must open at least one grave in their first go."""
    p = m.plague
    return (isinstance(a, Stop) and m.phase is Phase.OPEN and p is not None
            and p.current == p.holder and p.turns == 1 and not p.current_opened
            and bool(E.openable(m)))


def _optional_sites() -> list[Site]:
    return [
        Site("forced", "garlic-when-no-match", ("du-en:ch1.garlic", "du-en:ch1.no-match"),
             "Without a matching vampire, may the player leave the grave empty though they "
             "still hold garlic, or must garlic go in?",
             (Reading("may", "garlic or nothing, as the player likes", lambda b: b),
              Reading("must", "garlic must go in while the player has some",
                      _refusing("garlic forced", _garlic_forced))),
             _fixed("may")),
        Site("forced", "go-on-after-match", ("du-en:ch1.continue", "du-en:qr.match"),
             "After putting a vampire to rest, may the player stop, or must they open again?",
             (Reading("may-stop", "the player may stop", lambda b: b),
              Reading("must-go-on", "the player must open another grave",
                      _refusing("going on forced", _go_on_forced))),
             _fixed("may-stop"), _plain),
        Site("forced", "plague-holder-opens", ("du-en:ch4.neighbours", "du-en:ch4.pass"),
             "Must the player who found the rat open at least one neighbouring grave, or may "
             "they pass the plague on at once?",
             (Reading("optional", "opening is optional, also for the finder", lambda b: b),
              Reading("finder-opens", "the finder must open one grave first",
                      _refusing("the finder must open", _plague_open_forced))),
             _fixed("optional")),
    ]


# ----------------------------------------------------------------------------- turn ends


def _goes_on(s: State, t: State) -> State:
    """``t`` with the turn given back to the player whose turn it was, who may go on."""
    return E.with_changes(t, turn_player=s.turn_player, phase=Phase.OPEN, may_stop=True,
                          pending=None, placed_this_turn=s.placed_this_turn,
                          windows=s.windows if s.config.players == 2 else t.windows,
                          barred=s.barred)


def _stake_now(s: State, a: Any) -> bool:
    return (isinstance(a, OpenGrave) and s.phase is Phase.OPEN and s.plague is None
            and 0 <= a.grave < len(s.lids) and s.lids[a.grave] not in (None, RAT)
            and isinstance(s.contents[a.grave], VampireIn) and a.grave not in s.barred)


def _last_receive(s: State, a: Any, clauses: tuple[str, ...]) -> bool:
    return (isinstance(a, ReceiveVampire) and s.phase is Phase.RECEIVE and len(s.gifts) == 1
            and s.plague is None and s.gifts[0].clause in clauses)


def _go_on_after(what: Callable[[State, Any], bool]) -> Callable[[Any, Any, Any], Any]:
    def transform(s: State, a: Any, t: State) -> State:
        if what(s, a) and _turn_passed(s, t):
            return _goes_on(s, t)
        return t
    return transform


def _end_after_count_move(s: State, a: Any, t: State) -> State:
    if s.phase is GruftPhase.COUNT_MOVE and t.phase is Phase.OPEN and not _over(t) \
            and t.turn_player == s.turn_player:
        return E.end_turn(t, [], "gruft-en:count.empty-continue")
    return t


def _go_on_after_bat(s: State, a: Any, t: State) -> State:
    g0, g1 = part(s), part(t)
    if g0 is None or g1 is None or s.phase is not GruftPhase.PUT or g0.bat is None \
            or _over(t) or t.turn_player == s.turn_player:
        return t
    kept = replace(g1, open_graves=g0.open_graves, bat=None, putter=None, then_put=None,
                   streak=g0.streak, next_turn=None)
    if g1.post == g0.post and g1.count_grave is None and g0.count_grave is None \
            and t.phase is GruftPhase.COUNT_PLACE:
        kept = replace(kept, next_turn=None)
    return E.with_changes(t, turn_player=s.turn_player, phase=Phase.OPEN, may_stop=True,
                          pending=None, placed_this_turn=s.placed_this_turn, extension=kept)


def _turn_end_sites() -> list[Site]:
    return [
        Site("turn-ends", "after-stake", ("du-en:ch2.ends", "du-en:qr.stake"),
             "After finding a vampire and taking a stake (and after the gift it brings), does "
             "the turn end, or may the player go on?",
             (Reading("ends", "the turn ends", lambda b: b),
              Reading("goes-on", "the player may go on",
                      _after("turn goes on after a stake", _go_on_after(
                          lambda s, a: _stake_now(s, a)
                          or _last_receive(s, a, ("du-en:ch2.gift",)))))),
             _fixed("ends"), _plain_three),
        Site("turn-ends", "after-garlic-found", ("du-en:ch3.no-place", "du-en:ch3.ends",
                                                 "du-en:qr.garlic"),
             "After finding garlic and receiving the vampires it brings, does the turn end?",
             (Reading("ends", "the turn ends", lambda b: b),
              Reading("goes-on", "the finder may go on",
                      _after("turn goes on after garlic", _go_on_after(
                          lambda s, a: _last_receive(s, a, ("du-en:ch3.other-garlic",
                                                            "du-en:ch3.own-garlic")))))),
             _fixed("ends"), _plain_three),
        Site("turn-ends", "after-no-match", ("du-en:ch1.no-match-ends", "du-en:qr.no-match"),
             "After an empty grave without a match (garlic put in or left empty), does the "
             "turn end?",
             (Reading("ends", "the turn ends", lambda b: b),
              Reading("goes-on", "the player may open another grave",
                      _after("turn goes on after no match", _go_on_after(
                          lambda s, a: isinstance(a, PlaceGarlic | LeaveEmpty)
                          and s.phase is Phase.PLACE and s.plague is None)))),
             _fixed("ends"), _plain),
        Site("turn-ends", "after-count-move", ("gruft-en:count.empty-continue",),
             "After Count Rucola has been used and moved on, does the holder's turn go on?",
             (Reading("goes-on", "the turn goes on", lambda b: b),
              Reading("ends", "the turn ends", _after("turn ends after the Count",
                                                      _end_after_count_move))),
             _fixed("goes-on"), _gruft),
        Site("turn-ends", "after-bat", ("gruft-en:bats.close-ends", "gruft-en:bats.declare"),
             "After a bat's grave has been dealt with, does the bat owner's turn end, or may "
             "they go on opening graves as after a placement?",
             (Reading("ends", "the turn ends", lambda b: b),
              Reading("goes-on", "the bat owner may go on",
                      _after("turn goes on after a bat", _go_on_after_bat))),
             _fixed("ends"), _gruft),
    ]


# ----------------------------------------------------------------------------- chains


@dataclass(frozen=True)
class ChainStart:
    """A mutant's note (in ``State.extension`` of the base game): whose turn it was when the
    running chain of plagues began."""

    player: int


def _chain_note(s: State, t: State) -> State:
    """``t`` with the chain note carried over, begun or dropped."""
    if t.plague is None:
        return E.with_changes(t, extension=None) if isinstance(t.extension, ChainStart) else t
    if s.plague is None:
        return E.with_changes(t, extension=ChainStart(s.turn_player))
    if isinstance(s.extension, ChainStart) and t.extension != s.extension:
        return E.with_changes(t, extension=s.extension)
    return t


def _noted(s: State, a: Any, t: State) -> State:
    """The engine's own successor, the chain note kept (the engine's reading)."""
    return _chain_note(s, t)


def _first_of(s: State) -> int:
    note = s.extension
    return note.player if isinstance(note, ChainStart) else s.turn_player


def _after_chain_first(s: State, a: Any, t: State) -> State:
    """After the last plague of a chain, the left neighbour of the player whose turn the
    chain began in plays."""
    ended = s.plague is not None and t.plague is None and not _over(t)
    t2 = _chain_note(s, t)
    if not ended:
        return t2
    nxt = _left(s, _first_of(s))
    return t2 if t2.turn_player == nxt else E.start_turn(t2, nxt)


def _second_rat_first(s: State, a: Any, t: State) -> State:
    """A second rat is handed on when its finder began the *first* plague of the chain."""
    t2 = _chain_note(s, t)
    old = s.plague
    if old is None or t2.plague is None or t2.plague.origin == old.origin or _over(t2):
        return t2
    finder = old.current
    want = _left(s, finder) if finder == _first_of(s) else finder
    if t2.plague.holder == want:
        return t2
    return E.with_changes(t2, plague=replace(t2.plague, holder=want, current=want),
                          turn_player=want)


def _chain_sites() -> list[Site]:
    return [
        Site("chain-role", "plague-chain-starter", ("du-en:ch4.next-turn", "du-en:ch5.hand-over"),
             "When a second rat starts a new plague, whose left neighbour plays after the "
             "plagues: the starter of the plague that ends, or of the first plague of the "
             "chain?",
             (Reading("running", "the starter of the plague that ends",
                      _after("after the chain: the running starter", _noted)),
              Reading("first", "the player whose turn the first plague began in",
                      _after("after the chain: the first starter", _after_chain_first))),
             _fixed("running"), lambda rs: _plain(rs) and _options(rs).after_plague_turn
             == "left-of-starter", "du.turn-during-plague"),
        Site("chain-role", "second-rat-starter", ("du-en:ch5.hand-over", "du-en:qr.plague"),
             "'If the same player that started the first rat plague finds another rat': is "
             "that the starter of the plague now running, or of the first plague of a chain?",
             (Reading("running", "the starter of the running plague",
                      _after("second rat: the running starter", _noted)),
              Reading("first", "the starter of the first plague of the chain",
                      _after("second rat: the first starter", _second_rat_first))),
             _fixed("running"),
             lambda rs: _plain_three(rs) and _options(rs).second_rat == "finder"),
    ]


# ----------------------------------------------------------------------------- visibility


def _lid_unseen(s: State, a: Any, t: State) -> State:
    if not isinstance(a, OpenGrave) or s.phase is not Phase.OPEN:
        return t
    g = a.grave
    if not 0 <= g < len(s.lids) or s.known[g] or t.lids[g] != s.lids[g] or not t.known[g]:
        return t
    return E.with_changes(t, known=_set(t.known, g, False))


def _lid_seen(s: State, a: Any, t: State) -> State:
    """An opened lid is shown to everybody (the engine's reading, imposed)."""
    if not isinstance(a, OpenGrave) or s.phase is not Phase.OPEN:
        return t
    g = a.grave
    if not 0 <= g < len(s.lids) or s.lids[g] is None or t.lids[g] != s.lids[g] or t.known[g]:
        return t
    return E.with_changes(t, known=_set(t.known, g, True))


def _lid_seen_without_turning(s: State, a: Any, t: State) -> State:
    """A grave opened without turning its lid (the Count's, a bat's): the lid is seen."""
    if s.phase in (GruftPhase.COUNT_OPEN, GruftPhase.BAT) and t.pending is not None:
        g = t.pending
        if t.lids[g] is not None and not t.known[g]:
            return E.with_changes(t, known=_set(t.known, g, True))
    if s.phase is GruftPhase.COUNT_OPEN and isinstance(a, OpenGrave):
        g = a.grave
        if t.lids[g] is not None and not t.known[g]:
            return E.with_changes(t, known=_set(t.known, g, True))
    return t


def _replace_line(text: str, prefix: str, line: str) -> str:
    """``text`` with its line starting with ``prefix`` replaced by ``line``."""
    return "\n".join(line if x.startswith(prefix) else x for x in text.split("\n"))


def _rows_observed(own: bool) -> Observe:
    """Each seat sees the face-up vampires of every row, and (``own``) the colours of its own
    face-down ones; otherwise a face-down vampire is unknown to all."""
    def observe(base: GameBase[Any], state: GameState, player: int) -> str:
        text = base.observation_string(state, player)
        m = state.model
        if not isinstance(m, State):
            return text
        rows = " | ".join("".join(str(v.colour) if v.face_up or (own and p == player) else "?"
                                  for v in row) for p, row in enumerate(m.rows))
        return _replace_line(text, "rows ", f"rows {rows}")
    return observe


def _contents_observed(hidden: bool) -> Observe:
    """What lies in each grave is seen by all; or (``hidden``) a closed grave hides its
    contents, and only a garlic bundle's owner knows where it lies."""
    def observe(base: GameBase[Any], state: GameState, player: int) -> str:
        text = base.observation_string(state, player)
        m = state.model
        if not isinstance(m, State):
            return text
        shown = {g for g in (m.pending,) if g is not None}
        if m.plague is not None:
            shown |= set(m.plague.opened)
        g = part(m)
        if g is not None:
            shown |= set(g.open_graves)
        cells = []
        for k, c in enumerate(m.contents):
            if c is None:
                cells.append(".")
            elif hidden and k not in shown and not (isinstance(c, GarlicIn)
                                                     and c.owner == player):
                cells.append("#")
            else:
                cells.append(str(c.colour) if isinstance(c, VampireIn) else "g" + str(c.owner))
        return _replace_line(text, "graves ", "graves " + "".join(cells))
    return observe


def _unsettled_row(rs: RuleSet) -> bool:
    """du-cs:priprava.row says that neither the owner nor anybody else knows a face-down
    vampire (a visibility no state contract can judge); the site is asked where the rule
    set's sources do not say so."""
    return "du-cs" not in rs.sources


def _visibility_sites() -> list[Site]:
    return [
        Site("visibility", "lid-shown", ("du-en:ch1.open",),
             "Is the underside of an opened lid shown to everybody, or only seen by the player "
             "who opens it?",
             (Reading("all", "everybody sees it", _after("the lid is shown", _lid_seen)),
              Reading("actor", "only the opener sees it",
                      _after("the lid is not shown", _lid_unseen))),
             _fixed("all")),
        Site("visibility", "lid-without-turning", ("gruft-en:count.open-start",
                                                   "gruft-en:bats.open", "gruft-en:faq.rat-ignored"),
             "When the Count's or a bat's grave is opened without turning its lid, does "
             "anybody learn the lid's colour?",
             (Reading("unseen", "the lid stays unseen", lambda b: b),
              Reading("seen", "the lid is seen as it is lifted",
                      _after("the lid is seen", _lid_seen_without_turning))),
             _fixed("unseen"), _gruft),
        Site("visibility", "own-face-down", ("du-en:prep.row", "du-en:prep.deal"),
             "Does a player know (having arranged them) the colours of their own face-down "
             "vampires, or does nobody know them until they are turned up?",
             (Reading("nobody", "nobody knows a face-down vampire",
                      lambda b: mutant(b, observe=_rows_observed(False),
                                       label="face-down vampires unknown")),
              Reading("owner", "each player knows their own",
                      lambda b: mutant(b, observe=_rows_observed(True),
                                       label="own face-down vampires known"))),
             _fixed("nobody"), _unsettled_row, observe=True),
        Site("visibility", "grave-contents", ("du-en:ch1.match", "du-en:ch1.garlic",
                                              "du-en:ch1.close"),
             "Is putting a vampire or garlic into a grave done in view of all (so everybody "
             "may remember what lies where), or is it hidden under the lid from the others?",
             (Reading("public", "everybody sees what goes in",
                      lambda b: mutant(b, observe=_contents_observed(False),
                                       label="grave contents public")),
              Reading("hidden", "closed graves hide their contents (garlic's owner knows)",
                      lambda b: mutant(b, observe=_contents_observed(True),
                                       label="grave contents hidden"))),
             _fixed("public"), observe=True),
    ]


# ----------------------------------------------------------------------------- endings, timing


def _round_completes(base: GameBase[Any], m: Any, a: Any) -> tuple[Any, Any]:
    """A giver who hands over their last vampire does not end the game at once: the round of
    hand-overs completes, then the first giver (in the round's order) left without vampires
    wins."""
    if not isinstance(m, State):
        return base.model_step(m, a)
    if isinstance(a, GiveVampire) and m.phase is Phase.GIVE:
        giver = m.gifts[0].giver
        if len(m.rows[giver]) == 1:
            colour = m.rows[giver][0].colour
            return E.with_changes(m, rows=_set(m.rows, giver, ()), in_transit=colour,
                                  phase=Phase.RECEIVE), ()
    if isinstance(a, ReceiveVampire) and m.phase is Phase.RECEIVE:
        empty = [p for p, r in enumerate(m.rows) if not r and p != m.gifts[0].receiver]
        if empty:
            gift = m.gifts[0]
            row = m.rows[gift.receiver]
            assert m.in_transit is not None
            v = Vampire(m.in_transit, True)
            row = (v, *row) if a.end is End.LEFT else (*row, v)
            rest = tuple(g for g in m.gifts[1:] if m.rows[g.giver])
            state = E.with_changes(m, rows=_set(m.rows, gift.receiver, row), in_transit=None,
                                   gifts=rest, phase=Phase.GIVE if rest else m.phase)
            if rest:
                return state, ()
            return E.win(state, empty[0], []), ()
    return base.model_step(m, a)


def _round_completes_legal(base: GameBase[Any], m: Any) -> Sequence[Any]:
    if isinstance(m, State) and m.phase is Phase.RECEIVE and any(
            not r for p, r in enumerate(m.rows) if m.gifts and p != m.gifts[0].receiver):
        return (ReceiveVampire(End.LEFT), ReceiveVampire(End.RIGHT)) \
            if len(m.rows[m.gifts[0].receiver]) > 1 else (ReceiveVampire(End.LEFT),)
    return base.model_legal(m)


def _stakes_back_after_gifts(s: State, a: Any, t: State) -> State:
    """The three stakes go back to the path only once the gift round is over."""
    if _stake_now(s, a) or (isinstance(a, OpenGrave) and s.plague is not None
                            and 0 <= a.grave < len(s.lids) and s.lids[a.grave] not in (None, RAT)
                            and isinstance(s.contents[a.grave], VampireIn)):
        p = _actor(s)
        held = s.stakes_held[p] + 1
        if t.gifts and t.stakes_held[p] == 0 and held >= s.config.stakes_for_gift \
                and s.stakes_path > 0:
            return E.with_changes(t, stakes_held=_set(t.stakes_held, p, held),
                                  stakes_path=t.stakes_path - held)
    if isinstance(a, ReceiveVampire) and len(s.gifts) == 1 and \
            s.gifts[0].clause == "du-en:ch2.gift":
        p = s.gifts[0].receiver
        held = t.stakes_held[p]
        if held >= s.config.stakes_for_gift:
            return E.with_changes(t, stakes_held=_set(t.stakes_held, p, 0),
                                  stakes_path=t.stakes_path + held)
    return t


def _ending_sites() -> list[Site]:
    return [
        Site("ending-order", "gift-round-win", ("du-en:end.first-empty", "du-en:aim.win",
                                                "du-en:ch2.gift"),
             "A giver hands over their last vampire in the middle of a gift round: does the "
             "game end at once, or does the round complete first?",
             (Reading("at-once", "the game ends at once", lambda b: b),
              Reading("round-completes", "the round completes, then the first emptied giver "
                      "wins", lambda b: mutant(b, legal=_round_completes_legal,
                                               step=_round_completes,
                                               label="the round completes first"))),
             _fixed("at-once"), _plain_three),
        Site("timing", "stakes-back", ("du-en:ch2.stakes-back", "du-en:ch2.gift"),
             "When do the three stakes go back to the path: with the third stake, or once "
             "the gift round is over?",
             (Reading("at-once", "with the third stake", lambda b: b),
              Reading("after-gifts", "after the gift round",
                      _after("stakes back after the gifts", _stakes_back_after_gifts))),
             _fixed("at-once"), _plain, "du.stakes-back-timing"),
    ]


# ----------------------------------------------------------------------------- the capability


def sites(rs: RuleSet) -> list[Site]:
    """Every site of the Dawn Under engine of ``rs``."""
    every = [*_option_sites(), *_next_seat_sites(), *_effect_order_sites(), *_cap_sites(rs),
             *_eligibility_sites(), *_optional_sites(), *_turn_end_sites(), *_chain_sites(),
             *_visibility_sites(), *_ending_sites()]
    return [s for s in every if s.applies(rs)]


def same(a: Any, b: Any) -> bool:
    """Equal states, a mutant's chain note left aside; two finished games are the same when
    the same player won (what is left on the table no longer matters)."""
    if isinstance(a, State) and isinstance(b, State) and _over(a) and _over(b):
        return a.winner == b.winner
    if isinstance(a, State) and isinstance(a.extension, ChainStart):
        a = E.with_changes(a, extension=None)
    if isinstance(b, State) and isinstance(b.extension, ChainStart):
        b = E.with_changes(b, extension=None)
    return bool(a == b)


def _witness(rs: RuleSet, finding: Finding) -> str:
    from ruleproof.properties.dawn_under.contracts.discovery import witness

    return witness(rs, finding)


MUTANTS = SiteList(sites, _witness, same)
"""The capability ``"mutants"`` of Dawn Under's plugin record."""


__all__ = ["MUTANTS", "ChainStart", "Gruft", "same", "sites"]
