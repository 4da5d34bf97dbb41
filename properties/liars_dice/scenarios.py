"""Liar's Dice's scenario capability for the runner (:mod:`ruleproof.properties.scenarios`).

What a scenario needs that is Liar's Dice's own: the presets and options (the readings of
spec/liars_dice/ambiguities.toml), the ``[setup]`` table (:class:`LiarsSetup`: each seat's
first roll as a string of faces, ``dice = ["13", "26"]``, and ``sides``; or ``seed``), the
action notation (``Q-F`` a bid of Q dice showing F, ``liar``, ``spot-on``, and ``roll F``
for a die still to roll), the facts (:data:`FACTS`) and the transition with its game log.
Players are ``P1`` (opening the first round) .. ``Pn`` unless ``names`` renames them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import Field

from ruleproof.model.liars_dice.rules import (
    CHANCE,
    OPTIONS,
    TERMINAL,
    Bid,
    Call,
    Roll,
    Rules,
    Table,
    act,
    chance,
    legal,
    returns,
    roll,
    to_move,
    winner,
)
from ruleproof.properties.scenarios import ActionForm, Fact, SetupProblems, player_of
from ruleproof.spec.formats import Problems, TomlFile, show
from ruleproof.spec.models import NonNegative, ScenarioTop, StrictModel

GAME = "liars-dice"
PRESETS = {"ld-wp": {}, "ld-wp-one-round": {"rounds": "one"}}

ACTIONS = (
    ActionForm("bid Q-F", "bid: at least Q dice on the table show face F (ld-wp:bid.claim, "
                      "ld-wp:bid.raise)"),
    ActionForm("liar", "challenge the standing bid (ld-wp:challenge.call)"),
    ActionForm("spot-on", "claim the standing bid is exact (ld-wp:variant.spot-on)"),
    ActionForm("roll F", "chance: the next die to roll shows F (ld-wp:round.roll)"),
)


class LiarsSetup(StrictModel):
    """Liar's Dice start: each seat's first roll (``dice``, a string of faces per seat, all of
    one length: the dice per player) and the faces of a die (``sides``); or ``seed`` alone;
    empty: before the first roll with five six-sided dice each."""

    dice: list[Annotated[str, Field(max_length=5)]] | None = Field(
        None, max_length=6, description="each seat's first roll, e.g. \"13\" (P1's first)")
    sides: int | None = Field(None, ge=2, le=6, description="faces of a die (default 6)")
    seed: NonNegative | None = Field(None, description="the roll of new_seeded_state(seed) "
                                                       "with five six-sided dice each (alone)")


@dataclass(frozen=True)
class LiarsConfig:
    """The rule set of a scenario: the player count and the options."""

    players: int = 2
    options: Mapping[str, str] = field(default_factory=dict)


def _name(p: int | None, names: Sequence[str]) -> str:
    return "none" if p is None else names[p]


def _to_move(t: Table, names: Sequence[str]) -> str:
    who = to_move(t.rules, t)
    return {CHANCE: "chance", TERMINAL: "over"}.get(who) or names[who]


def _seen(t: Table, player: int) -> str:
    from ruleproof.model.liars_dice.game import LiarsDiceGame

    return LiarsDiceGame(t.rules).from_model(t).observation_string(player)


def _last(t: Table) -> Any:
    return t.ended[-1] if t.ended else None


FACTS: dict[str, Fact] = {f.name: f for f in (
    Fact("winner", None, "the winner once the game is over, or 'none'",
         lambda s, a, c: _name(winner(s.rules, s), c.names), player=True),
    Fact("to_move", None, "the player to decide, 'chance' or 'over'",
         lambda s, a, c: _to_move(s, c.names)),
    Fact("bids", None, "this round's bids so far (list of Q-F)",
         lambda s, a, c: [f"{b.quantity}-{b.face}" for _p, b in s.bids]),
    Fact("loser", None, "the player who lost the last round, or 'none'",
         lambda s, a, c: _name(_last(s).loser if _last(s) else None, c.names), player=True),
    Fact("count", None, "the dice counted for the bid at the last showdown (-1 before one)",
         lambda s, a, c: _last(s).count if _last(s) else -1),
    Fact("rounds", None, "rounds played", lambda s, a, c: len(s.ended)),
    Fact("opener", None, "the player opening this round's bidding",
         lambda s, a, c: c.names[s.opener], player=True),
    Fact("cups", "player", "dice a player holds", lambda s, a, c: s.cups[a]),
    Fact("dice", "player", "a player's dice this round, sorted (a string of faces)",
         lambda s, a, c: "".join(map(str, sorted(s.rolled[a])))),
    Fact("returns", "player", "a player's return (0 while the game goes on)",
         lambda s, a, c: returns(s.rules, s)[a]),
    Fact("seen", "player", "what a player observes (the interface's observation string)",
         lambda s, a, c: _seen(s, a)),
)}


class _Setup(SetupProblems):
    """Builds the start table from a validated ``[setup]``."""

    def build(self, su: LiarsSetup, cfg: LiarsConfig) -> Table:
        o = dict(cfg.options)
        if su.seed is not None:
            if su.dice is not None:
                raise self.fail(("seed",), "give seed alone, or the dice")
            from ruleproof.model.liars_dice.game import LiarsDiceGame

            r = _rules(cfg.players, 5, su.sides or 6, o)
            seeded: Table = LiarsDiceGame(r).seeded_model(su.seed)
            return seeded
        sides = su.sides or 6
        cups = su.dice or []
        if cups and len(cups) != cfg.players:
            self.note(("dice",), f"{len(cups)} seats rolled, the scenario has {cfg.players} "
                                 "players")
        if len({len(c) for c in cups}) > 1 or any(not c for c in cups):
            self.note(("dice",), "every seat starts with the same number of dice, at least one "
                                 "(ld-wp:setup.dice)")
        for i, cup in enumerate(cups):
            if any(ch not in "123456789"[:sides] for ch in cup):  # ASCII: not '٤'
                self.note(("dice", i), f"{show(cup)} is not a roll of {sides}-sided dice "
                                       "(ld-wp:round.roll)")
        self.problems.raise_if_any()
        r = _rules(cfg.players, len(cups[0]) if cups else 5, sides, o)
        t = Table.start(r)
        for cup in cups:
            for ch in cup:
                t = roll(r, t, int(ch))
        return t


def _rules(players: int, dice: int, sides: int, o: Mapping[str, str]) -> Rules:
    return Rules(players, dice, sides, o.get("raise", "face"), o.get("wild", "ones"),
                 o.get("spot_on", "no"), o.get("rounds", "last"))


@dataclass(frozen=True)
class LiarsScenarios:
    """The capability ``scenarios`` of Liar's Dice."""

    setup_model: type[LiarsSetup] = LiarsSetup

    @property
    def facts(self) -> Mapping[str, Fact]:
        return FACTS

    @property
    def actions(self) -> Sequence[ActionForm]:
        return ACTIONS

    @property
    def arg_kinds(self) -> Mapping[str, str]:
        return {"player": "a player's name (P1, P2, ... unless the file names them)"}

    def configure(self, top: ScenarioTop, preset: str | None, options: Mapping[str, object],
                  problems: Problems, at: tuple[str | int, ...]) -> LiarsConfig | None:
        players = top.players or 2
        if not 2 <= players <= 6:
            problems.add(("players",), f"liars-dice takes 2..6 players; got {players}")
        chosen = preset or top.preset or "ld-wp"
        if chosen not in PRESETS:
            problems.add(("preset",), f"{'--preset: ' if preset else ''}unknown preset "
                                      f"{show(chosen)}; known: {', '.join(PRESETS)}")
            return None
        out = dict(PRESETS[chosen])
        bad = False
        for key, raw in options.items():
            value = str(raw).lower() if isinstance(raw, bool) else str(raw)
            if key not in OPTIONS:
                problems.add((*at, key), f"liars-dice has no option {show(key)}; its options: "
                                         f"{', '.join(OPTIONS)}")
                bad = True
            elif value not in OPTIONS[key]:
                problems.add((*at, key), f"{show(value)} is not one of "
                                         f"{', '.join(OPTIONS[key])}")
                bad = True
            else:
                out[key] = value
        return None if bad else LiarsConfig(players, out)

    def default_names(self, config: LiarsConfig) -> tuple[str, ...]:
        return tuple(f"P{p + 1}" for p in range(config.players))

    def start(self, config: LiarsConfig, setup: Any, names: Sequence[str],
              doc: TomlFile) -> Table:
        return _Setup(doc).build(setup, config)

    def parse_action(self, config: LiarsConfig, text: str, names: Sequence[str]
                     ) -> Bid | Call | Roll:
        from .conformance import parse_action  # the one notation of the game's actions

        try:
            return parse_action(text)
        except ValueError:
            raise ValueError(f"{show(text)} is not an action of liars-dice (bid Q-F, liar, "
                             "spot-on, roll F)") from None

    def parse_arg(self, config: LiarsConfig, kind: str, token: str, names: Sequence[str]
                  ) -> int:
        return player_of(token, names)

    def settle(self, state: Table, action: Any) -> Table:
        return state

    def to_move(self, state: Table) -> int | None:
        p = to_move(state.rules, state)
        return p if p >= 0 else None

    def apply(self, state: Table, action: Bid | Call | Roll, names: Sequence[str]
              ) -> tuple[Table, list[str]]:
        r = state.rules
        if isinstance(action, Roll):
            new = roll(r, state, action.face)
            seat = next(p for p in range(len(names)) if new.rolled[p] != state.rolled[p])
            return new, [f"chance: {names[seat]} rolls a {action.face}"]
        who = to_move(r, state)
        new = act(r, state, action)  # IllegalAction leaves ``state`` as it was
        lines = [f"{names[who]}: {action}"]
        if len(new.ended) > len(state.ended):
            s = new.ended[-1]
            lines.append(f"showdown: {s.count} dice count for {s.bid}; {names[s.loser]} loses "
                         "a die")
        w = winner(r, new)
        if w is not None:
            lines.append(f"{names[w]} wins")
        return new, lines

    def legal(self, state: Table, names: Sequence[str]) -> list[str]:
        """The legal decisions, or at a chance node the faces of the next die."""
        return sorted([str(a) for a in legal(state.rules, state)] +
                      [str(c) for c, _p in chance(state.rules, state)])

    def broken(self, start: Table, state: Table) -> list[str]:
        from .invariants import violations

        return violations(state)


SCENARIOS = LiarsScenarios()
"""The capability ``scenarios``."""

__all__ = ["ACTIONS", "FACTS", "SCENARIOS", "LiarsConfig", "LiarsScenarios", "LiarsSetup"]
