"""Dawn Under's tables for the question generators over structure (capability
``"generators"``, :data:`GENERATORS`; the searches are
:mod:`ruleproof.properties.discovery.generators`).

* **endings** and **orders**: a round of hand-overs in which two or more givers hand over their
  last vampire (own garlic, the stake gift, garlic under a doubted bat). The engine hands the
  vampires over one giver after the other, clockwise from the receiver's left, and the first
  giver to run out wins at once (du-en:end.first-empty); the other readings' successors are the
  same round in another order. A giver who owes more than they have (the 2-player game's four)
  runs out while still owing: settled by du-en:aim.win and du-en:end.first-empty.
* **totals**: the counted components (vampires, stakes, garlic per player, bats per player,
  the reserve stack) and a stake due with none left on the path.
* **chains**: a rat found during a plague (settled by du-en:ch4.end-new-rat /
  du-cs:prubeh.new-rat), a gift owed during a plague (du-en:ch4.occupied; the Czech text only
  says each grave is dealt with "as above"), Count Rucola won during a plague.
* **combinations**: every preset x player count x expansion and the clauses that define it.
* **visibility**: per source, what its clauses say about who sees each part of the state.

The targeted policies play with the whole state in view (the engine's lids and contents):
:func:`toward_gift_endings` steers toward a round of hand-overs in which two givers run out
(everyone but one collector empties their row down to one vampire without ever opening a
matching grave again, the collector gathers stakes and takes the gift-bringing one last);
:func:`stake_hungry` opens occupied graves; :func:`rat_hungry` opens rat lids.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ruleproof.model.dawn_under.engine import gift_due
from ruleproof.model.dawn_under.gruft.state import part
from ruleproof.model.dawn_under.state import (
    RAT,
    GarlicIn,
    Gift,
    LeaveEmpty,
    OpenGrave,
    Phase,
    PlaceVampire,
    State,
    Stop,
    Vampire,
    VampireIn,
)
from ruleproof.properties.contracts.games import RuleSet
from ruleproof.properties.discovery.generators import (
    Combination,
    Count,
    Field,
    Policy,
    Question,
    View,
)

# ----------------------------------------------------------------------------- policies


def _actor(s: State) -> int:
    return s.plague.current if s.plague is not None else s.turn_player


def _collector(s: State) -> int:
    """The player with the most vampires (the lowest seat on a tie)."""
    return max(range(len(s.rows)), key=lambda p: (len(s.rows[p]), -p))


def _matches(s: State, p: int, g: int) -> bool:
    row = s.rows[p]
    lid = s.lids[g]
    return bool(row) and lid is not None and lid != RAT and lid in (row[0].colour,
                                                                    row[-1].colour)


def _pick(legal: Sequence[Any], rng: random.Random, wanted: Sequence[Any]) -> Any:
    choice = [a for a in wanted if a in legal]
    return choice[rng.randrange(len(choice))] if choice else legal[rng.randrange(len(legal))]


def _open_where(s: State, legal: Sequence[Any], test: Any) -> list[Any]:
    return [a for a in legal if isinstance(a, OpenGrave) and test(a.grave)]


def toward_gift_endings(s: State, legal: Sequence[Any], rng: random.Random) -> Any:
    """Steer toward a round of hand-overs in which two or more givers run out (see the
    module docstring); anything the plan does not care about is drawn at random."""
    if s.phase is Phase.PLACE:
        p = _actor(s)
        places = [a for a in legal if isinstance(a, PlaceVampire)]
        if places and (p == _collector(s) or len(s.rows[p]) > 1):
            return _pick(legal, rng, places)
        return _pick(legal, rng, [a for a in legal if isinstance(a, LeaveEmpty)])
    if s.phase is not Phase.OPEN:
        return legal[rng.randrange(len(legal))]
    if s.plague is not None:
        return _pick(legal, rng, [a for a in legal if isinstance(a, Stop)])
    p = s.turn_player
    row = s.rows[p]
    empty_unmatched = _open_where(s, legal, lambda g: s.contents[g] is None and s.lids[g] != RAT
                                  and not _matches(s, p, g))
    stop = [a for a in legal if isinstance(a, Stop)]
    if p != _collector(s):
        if len(row) > 1:
            hits = _open_where(s, legal, lambda g: s.contents[g] is None and _matches(s, p, g))
            if hits:
                return _pick(legal, rng, hits)
        return _pick(legal, rng, stop or empty_unmatched)
    others = [q for q in range(len(s.rows)) if q != p]
    ready = sum(len(s.rows[q]) <= 1 for q in others) >= min(2, len(others))
    occupied = _open_where(s, legal, lambda g: isinstance(s.contents[g], VampireIn)
                           and s.lids[g] != RAT)
    if not gift_due(s.stakes_held[p] + 1, s.config) or ready:
        return _pick(legal, rng, occupied or empty_unmatched)
    return _pick(legal, rng, stop or empty_unmatched)


def stake_hungry(s: State, legal: Sequence[Any], rng: random.Random) -> Any:
    """Open occupied graves whenever possible (stakes, gifts, the path running low)."""
    if s.phase is Phase.OPEN:
        occupied = _open_where(s, legal, lambda g: isinstance(s.contents[g], VampireIn)
                               and s.lids[g] != RAT)
        if occupied:
            return _pick(legal, rng, occupied)
    return legal[rng.randrange(len(legal))]


def rat_hungry(s: State, legal: Sequence[Any], rng: random.Random) -> Any:
    """Open rat lids whenever possible (plagues, rats during plagues); in a plague open the
    occupied or garlic graves first (gifts during a plague)."""
    if s.phase is Phase.OPEN:
        rats = _open_where(s, legal, lambda g: s.lids[g] == RAT)
        if rats:
            return _pick(legal, rng, rats)
        if s.plague is not None:
            full = _open_where(s, legal, lambda g: s.contents[g] is not None)
            if full:
                return _pick(legal, rng, full)
    return legal[rng.randrange(len(legal))]


# ----------------------------------------------------------------------------- endings, orders


def _runners(t: State) -> list[int]:
    """Givers of the round of hand-overs pending in ``t`` who run out of vampires in it (in the
    engine's order)."""
    owed: dict[int, int] = {}
    for g in t.gifts:
        owed[g.giver] = owed.get(g.giver, 0) + 1
    return [p for p, n in owed.items() if len(t.rows[p]) <= n]


def _round_begins(s: State, t: State) -> bool:
    return t.phase is Phase.GIVE and bool(t.gifts) and not (
        s.phase in (Phase.GIVE, Phase.RECEIVE) and s.gifts and s.gifts[-1] == t.gifts[-1])


def _first(t: State, giver: int) -> State:
    """``t`` with ``giver``'s hand-overs first, the rest in the engine's order."""
    mine = tuple(g for g in t.gifts if g.giver == giver)
    return replace(t, gifts=(*mine, *(g for g in t.gifts if g.giver != giver)))


def _cause(gifts: Sequence[Gift]) -> tuple[str, ...]:
    return tuple(sorted({g.clause for g in gifts}))


END_CLAUSES = ("du-en:end.first-empty", "du-en:aim.win", "du-cs:prubeh.win")


def _endings(s: State, a: Any, t: State) -> list[Question]:
    if not _round_begins(s, t):
        return []
    runners = _runners(t)
    out: list[Question] = []
    if len(runners) >= 2:
        alts = tuple((f"P{r + 1} hands over first", _first(t, r)) for r in runners[1:])
        out.append(Question(
            "ending: two players run out of vampires in one round of hand-overs",
            "Several players each hand over their last vampire in the same round (every other "
            "player gives one to the finder of their own garlic, or to the collector of the "
            "third stake): who wins? The texts say only that the first player without "
            "vampires wins, and the round is described as happening all at once.",
            ("the first of them clockwise from the receiver's left wins (the model)",
             "another of them, by another order of the hand-overs",
             "they win together"), (*_cause(t.gifts), *END_CLAUSES), alts))
    owed = sum(1 for g in t.gifts if g.giver == t.gifts[0].giver)
    if owed > 1 and len(t.rows[t.gifts[0].giver]) < owed:
        out.append(Question(
            "ending: a player runs out while still owing vampires",
            "A giver owes more vampires than they have: do they win when the last one goes?",
            ("wins at once (the model)", "owes the rest"), (*_cause(t.gifts), *END_CLAUSES),
            settled_by=("du-en:aim.win", "du-en:end.first-empty")))
    return out


def _orders(s: State, a: Any, t: State) -> list[Question]:
    if not _round_begins(s, t):
        return []
    givers = list(dict.fromkeys(g.giver for g in t.gifts))
    runners = _runners(t)
    if len(givers) < 2 or len(runners) < 2:
        return []
    backwards = replace(t, gifts=tuple(reversed(t.gifts)))
    return [Question(
        "order: the order of one round of hand-overs decides who wins",
        "In which order do the other players hand over their vampires when they all owe one "
        "at once? With two of them giving their last vampire, the order decides the winner.",
        ("clockwise from the receiver's left (the model)", "counter-clockwise",
         "all at once"), (*_cause(t.gifts), *END_CLAUSES),
        (("counter-clockwise", backwards),))]


# ----------------------------------------------------------------------------- totals


def _stake_due(s: State, a: Any, t: State) -> list[Question]:
    if not (isinstance(a, OpenGrave) and s.phase is Phase.OPEN and s.stakes_path == 0
            and 0 <= a.grave < len(s.contents) and isinstance(s.contents[a.grave], VampireIn)
            and s.lids[a.grave] not in (None, RAT)):
        return []
    return [Question("total: a stake is due and none is left on the path",
                     "A player opens an occupied grave when every stake is held: what happens?",
                     ("no stake is taken (the model)", "it counts as the gift-bringing stake"),
                     ("du-en:ch2.stake", "du-cs:prubeh.stake", "du-en:content.stakes"))]


def _vampires(s: State) -> int:
    return (sum(map(len, s.rows)) + sum(isinstance(c, VampireIn) for c in s.contents)
            + (s.in_transit is not None))


def _garlic(s: State) -> int:
    inside = [0] * len(s.rows)
    for c in s.contents:
        if isinstance(c, GarlicIn):
            inside[c.owner] += 1
    return max(h + i for h, i in zip(s.garlic_hand, inside, strict=True))


def _counts(rs: RuleSet) -> list[Count]:
    from ruleproof.model.dawn_under.config import make_config

    cfg = make_config(rs.count, preset=rs.preset)
    vampires = cfg.vampires_per_colour * len(cfg.vampire_colours)
    out = [Count("vampires", vampires, _vampires, "du-en:content.vampires"),
           Count("stakes", cfg.stakes, lambda s: s.stakes_path + sum(s.stakes_held),
                 "du-en:content.stakes"),
           Count("garlic bundles of one player", cfg.garlic, _garlic, "du-en:content.garlic"),
           Count("reserve lids", cfg.reserve_size, lambda s: len(s.reserve),
                 "du-en:prep.reserve")]
    if dict(rs.options).get("expansion") == "gruft":
        out.append(Count("bats of one player", 2, _bats, "gruft-en:components.bats"))
    return out


def _bats(s: State) -> int:
    gp = part(s)
    return 0 if gp is None else max(b + o for b, o in zip(gp.bats, gp.bats_out, strict=True))


# ----------------------------------------------------------------------------- chains


def _chains(rs: RuleSet, s: State, a: Any, t: State) -> list[Question]:
    out: list[Question] = []
    cs = "du-cs" in rs.sources
    if s.plague is not None and t.plague is not None and t.plague.origin != s.plague.origin:
        out.append(Question("chain: a rat found during a plague",
                            "A rat turns up while a plague runs: does the old plague go on?",
                            ("the old plague ends, a new one begins", "the old one goes on"),
                            ("du-en:ch4.end-new-rat", "du-en:ch5.new-plague"),
                            settled_by=("du-cs:prubeh.new-rat",) if cs else
                            ("du-en:ch4.end-new-rat", "du-en:ch5.new-plague")))
    if s.plague is not None and t.plague is not None and _round_begins(s, t):
        out.append(Question("chain: a gift owed during a plague",
                            "A stake or garlic found in a plague brings hand-overs: may the "
                            "player go on opening neighbours afterwards?",
                            ("goes on (du-en)", "the plague passes on"),
                            ("du-en:ch4.occupied", "du-cs:prubeh.rat-resolve"),
                            settled_by=() if cs else ("du-en:ch4.occupied",), source=(
                                "du-cs" if cs else "")))
    gs, gt = part(s), part(t)
    if gs is not None and gt is not None and s.plague is not None and gt.post != gs.post \
            and gt.post is not None and gt.count_grave is None:
        out.append(Question("chain: Count Rucola won during a plague",
                            "Three matching placements, some of them in a plague: does that "
                            "win the Count ('during one turn')?",
                            ("counts (the model's gruft_three reading)", "only in one's own "
                             "turn"), ("gruft-en:count.get-three", "du-en:ch4.match"),
                            settled_by=()))
    return out


# ----------------------------------------------------------------------------- combinations


def combination(preset: str, players: int, expansion: str | None) -> Combination:
    """The texts that define a preset at a player count with or without the expansion."""
    two = players == 2
    if (preset == "2p") != two and preset != "du-cs":
        # the 2-player preset is the 2-player game, the others are for 3-6 players
        return Combination("", ("du-en:content.players",), "", ())
    if expansion is not None:
        if two:
            return Combination(
                "combination: the expansion with two players", (),
                "Can the expansion be played by two players, and with which of the 2-player "
                "exceptions (four rat lids, lidless graves, a barred grave, four vampires per "
                "gift)? Its text puts the original rules and components out and returns unused "
                "bats 'if fewer than 6 players', but never names a player count.",
                ("not playable (the model refuses)", "the 2-player rules plus the expansion"),
                ("gruft-en:prep.base", "gruft-en:prep.bats", "du-en:content.players",
                 "du-en:2p.components"))
        if preset == "du-cs":
            return Combination(
                "combination: the expansion on the Czech rules", (),
                "The expansion sits on 'the original Dawn Under rules'; played on the Czech "
                "reading, which rules hold where they differ (a placement ends the turn in the "
                "Czech text, the Count's placement lets the turn go on)?",
                ("the Czech base rules under the expansion's (the model)",
                 "the English base rules with the expansion"),
                ("gruft-en:prep.base", "gruft-en:play.base", "gruft-en:count.continue",
                 "du-cs:prubeh.match-ends"))
        return Combination("", ("gruft-en:prep.base", "gruft-en:prep.bats",
                                "du-en:content.players"), "", ())
    if preset == "du-cs":
        return Combination(
            "combination: the Czech rules' player counts", (),
            "For how many players is the Czech description? It gives neither a player count "
            "nor the number of vampires each player receives ('depends on the number of "
            "players').", ("3 to 6 players, as the English rules (the model)",
                           "any number the components allow"),
            ("du-cs:priprava.deal", "du-cs:priprava.stakes", "du-en:content.players"))
    if preset == "2p":
        return Combination("", ("du-en:content.players", "du-en:2p.components"), "", ())
    return Combination("", ("du-en:content.players",), "", ())


# ----------------------------------------------------------------------------- visibility


def _other_colour(c: int, s: State) -> int:
    options = [x for x in s.config.vampire_colours if x != c]
    return options[0]


def _perturb_contents(s: State, owner: int) -> State | None:
    for g, c in enumerate(s.contents):
        if c is not None:
            new = VampireIn(_other_colour(c.colour, s)) if isinstance(c, VampireIn) else None
            return replace(s, contents=(*s.contents[:g], new, *s.contents[g + 1:]))
    return None


def _perturb_row(face_up: bool) -> Any:
    def perturb(s: State, owner: int) -> State | None:
        row = s.rows[owner]
        for i, v in enumerate(row):
            if v.face_up == face_up:
                nv = Vampire(_other_colour(v.colour, s), v.face_up)
                rows = list(s.rows)
                rows[owner] = (*row[:i], nv, *row[i + 1:])
                return replace(s, rows=tuple(rows))
        return None
    return perturb


def _perturb_lid(known: bool) -> Any:
    def perturb(s: State, owner: int) -> State | None:
        gp = part(s)
        skip = set() if gp is None else {gp.count_grave, *gp.open_graves}
        for g, lid in enumerate(s.lids):
            if lid is not None and lid != RAT and s.known[g] == known and g not in skip:
                other = next(c for c in s.config.lid_colours if c != lid)
                return replace(s, lids=(*s.lids[:g], other, *s.lids[g + 1:]))
        return None
    return perturb


def _perturb_reserve(s: State, owner: int) -> State | None:
    if not s.reserve:
        return None
    other = next(c for c in s.config.lid_colours if c != s.reserve[0])
    return replace(s, reserve=(other, *s.reserve[1:]))


def _perturb_garlic(s: State, owner: int) -> State | None:
    h = s.garlic_hand[owner]
    if h == 0:
        return None
    return replace(s, garlic_hand=(*s.garlic_hand[:owner], h - 1, *s.garlic_hand[owner + 1:]))


def _perturb_stakes(s: State, owner: int) -> State | None:
    if s.stakes_path == 0:
        return None
    held = s.stakes_held
    return replace(s, stakes_held=(*held[:owner], held[owner] + 1, *held[owner + 1:]),
                   stakes_path=s.stakes_path - 1)


def _perturb_bats(s: State, owner: int) -> State | None:
    gp = part(s)
    if gp is None or gp.bats[owner] == 0:
        return None
    bats = (*gp.bats[:owner], gp.bats[owner] - 1, *gp.bats[owner + 1:])
    return replace(s, extension=replace(gp, bats=bats))


def _perturb_special_lid(s: State, owner: int) -> State | None:
    gp = part(s)
    if gp is None:
        return None
    for g in gp.open_graves:
        lid = s.lids[g]
        if lid is not None and lid != RAT and not s.known[g]:
            other = next(c for c in s.config.lid_colours if c != lid)
            return replace(s, lids=(*s.lids[:g], other, *s.lids[g + 1:]))
    return None


def fields(rs: RuleSet) -> list[Field]:
    """The parts of a Dawn Under state and what each source says of who sees them."""
    out = [
        Field("the lid of a grave not yet opened",
              "Who sees the underside of a lid before it is turned?", _perturb_lid(False),
              {"du-en": View("hidden", "du-en:prep.mix-rats"),
               "du-cs": View("hidden", "du-cs:priprava.graves")}, owned=False),
        Field("the lid of a grave once turned", "Who sees a lid's underside when it is turned?",
              _perturb_lid(True), {"du-en": View("public", "du-en:ch1.open"),
                                   "du-cs": View("public", "du-cs:prubeh.reveal")},
              owned=False),
        Field("what an opened grave holds",
              "When a grave is opened, does every player see what lies in it? The English "
              "rules have the lid shown to all, and say nothing of the contents.",
              _perturb_contents, {"du-cs": View("public", "du-cs:prubeh.reveal")},
              ("every player (the model; the Czech text says so)",
               "only the player who opens it"), owned=False),
        Field("a face-up vampire of a row", "Who sees the open vampires of a row?",
              _perturb_row(True), {"du-en": View("public", "du-en:prep.row"),
                                   "du-cs": View("public", "du-cs:priprava.row")}),
        Field("a face-down vampire of a row",
              "May a player look at their own face-down vampires? The English rules lay them "
              "face down and say nothing more; the Czech text says neither the owner nor anyone "
              "else knows them.", _perturb_row(False),
              {"du-cs": View("hidden", "du-cs:priprava.row")},
              ("nobody, not even the owner (the model; the Czech text)",
               "the owner may look")),
        Field("the reserve stack of lids", "Who sees the lids of the reserve stack?",
              _perturb_reserve, {"du-en": View("hidden", "du-en:prep.reserve")},
              ("nobody (the model; the English rules draw them unseen)", "face up"),
              owned=False),
        Field("the garlic bundles a player holds",
              "Who sees how many garlic bundles a player has left?", _perturb_garlic,
              {"du-en": View("public", "du-en:prep.garlic")},
              ("everybody (the model; the English rules keep them visible)", "their owner")),
        Field("the stakes a player holds",
              "Do the other players see how many stakes a player holds (the third brings the "
              "gift)? No text says where taken stakes are kept.", _perturb_stakes, {},
              ("everybody (the model)", "only the holder")),
    ]
    if dict(rs.options).get("expansion") == "gruft":
        out += [
            Field("the bats a player holds", "Who sees how many bats a player has left?",
                  _perturb_bats, {"gruft-en": View("public", "gruft-en:prep.bats")}),
            Field("the lid of a grave opened by the Count or a bat",
                  "When the Count's or a bat's grave is opened without turning its lid ('its "
                  "colour does not matter'), does anybody see the lid?", _perturb_special_lid,
                  {}, ("nobody (the model)", "every player"), owned=False),
        ]
    return out


# ----------------------------------------------------------------------------- the capability


POLICIES: dict[str, tuple[tuple[str, Policy], ...]] = {
    "endings": (("toward gift endings", toward_gift_endings),),
    "orders": (("toward gift endings", toward_gift_endings),),
    "totals": (("stake hungry", stake_hungry),),
    "chains": (("rat hungry", rat_hungry),),
}


@dataclass(frozen=True)
class _Generators:
    """Dawn Under's capability ``"generators"`` (see
    :class:`ruleproof.properties.discovery.generators.GeneratorTables`)."""

    def policies(self, generator: str) -> Sequence[tuple[str, Policy]]:
        return POLICIES.get(generator, ())

    def questions(self, generator: str, rs: RuleSet, state: Any, action: Any, nxt: Any
                  ) -> Sequence[Question]:
        if not isinstance(state, State) or not isinstance(nxt, State):
            return ()
        if generator == "endings":
            return _endings(state, action, nxt)
        if generator == "orders":
            return _orders(state, action, nxt)
        if generator == "totals":
            return _stake_due(state, action, nxt)
        if generator == "chains":
            return _chains(rs, state, action, nxt)
        return ()

    def counts(self, rs: RuleSet) -> Sequence[Count]:
        return _counts(rs)

    def combination(self, preset: str, players: int, expansion: str | None) -> Combination:
        return combination(preset, players, expansion)

    def fields(self, rs: RuleSet) -> Sequence[Field]:
        return fields(rs)


GENERATORS = _Generators()
"""The capability ``"generators"`` of Dawn Under's plugin record."""




# ----------------------------------------------------------------------------- witnesses


def witness(rs: RuleSet, f: Any, play_out: bool = False,
            facts: Sequence[str] = ("legal",)) -> str:
    """A scenario file replaying finding ``f``'s witness under ``rs``: the actions before its
    state, the finding's action when the engine takes it, and with ``play_out`` the engine's
    first legal choices until the game ends or the hand-overs are done; it expects the facts
    the engine ends in (``facts`` on top of the usual ones). A static finding (no witness
    state) replays the deal of its seed.

    Raises:
        ValueError: the witness does not replay.
    """
    from ruleproof.model.dawn_under.engine import apply, legal_actions
    from ruleproof.properties.contracts.games import game_of, parse
    from ruleproof.properties.dawn_under.contracts.discovery import _toml, scenario_text
    from ruleproof.properties.dawn_under.scenarios import action_text, default_names, fact

    game = game_of(rs)
    state = game.seeded_model(f.seed)
    actions = list(f.prefix)
    for text in actions:
        state = game.model_step(state, parse(game, text))[0]
    note = ""
    if f.action:
        try:
            a = parse(game, f.action)
        except Exception:
            a = None
        if a is not None and a in game.model_legal(state):
            actions.append(f.action)
            state = game.model_step(state, a)[0]
            note = f"the engine takes '{f.action}'"
        else:
            note = f"the engine has no such move as '{f.action}' here (not played)"
    names = default_names(state.config.players)
    while play_out and state.phase in (Phase.GIVE, Phase.RECEIVE):
        a = legal_actions(state)[0]
        actions.append(action_text(a, names))
        state = apply(state, a)
    comment = (f"Witness found by `ruleproof ambiguities --discover` ({f.search}): {f.key}.\n"
               f"{f.question}\nReadings: {'; '.join(f.readings)}.\n"
               + (f"At the end of these actions {note}." if note else ""))
    text = scenario_text(rs, f.key, f.clauses, f.seed, actions, comment)
    from ruleproof.properties.dawn_under.contracts.discovery import FACTS as USUAL

    extra = []
    for key in facts:
        if key in USUAL:
            continue
        try:
            extra.append(f"{_toml(key)} = {_toml(fact(state, key, names))}")
        except KeyError:
            continue
    return text + "".join(line + "\n" for line in extra)
