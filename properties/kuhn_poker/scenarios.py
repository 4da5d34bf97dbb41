"""Kuhn poker's scenario capability for the runner (:mod:`ruleproof.properties.scenarios`).

What a scenario needs that is Kuhn poker's own: the one preset (``kuhn-wp``, no options), the
``[setup]`` table (:class:`KuhnSetup`: the dealt cards, or a seed), the action notation (the
action table's: ``pass``, ``bet``, and ``deal J|Q|K`` for a card still to deal), the facts
(:data:`FACTS`) and the transition with its game log. The players are ``P1`` (deciding first,
kuhn-wp:rules.first) and ``P2`` unless ``names`` renames them. States are the model's hands
(:class:`~ruleproof.model.kuhn_poker.rules.Hand`); nothing happens automatically between two
actions.

A set-up ``cards = ["K", "J"]`` deals the king to P1 and the jack to P2 (kuhn-wp:rules.deal);
with fewer cards the rest is dealt by ``deal X`` actions; ``seed = N`` deals as
``new_seeded_state(N)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field

from ruleproof.model.kuhn_poker.rules import (
    CHANCE,
    RANKS,
    TERMINAL,
    Card,
    Hand,
    Move,
    act,
    chance,
    deal,
    legal,
    pot,
    returns,
    shown,
    to_move,
    winner,
)
from ruleproof.properties.scenarios import ActionForm, Fact, SetupProblems, player_of
from ruleproof.spec.formats import Problems, TomlFile, show
from ruleproof.spec.models import Name, NonNegative, ScenarioTop, StrictModel

GAME = "kuhn-poker"
PRESET = "kuhn-wp"
NAMES = ("P1", "P2")
"""The default player names, in seat order (P1 decides first)."""

ACTIONS = (
    ActionForm("pass", "check, or fold when facing a bet (kuhn-wp:rules.first, "
                       "kuhn-wp:rules.fold)"),
    ActionForm("bet", "bet one chip, or call a bet (kuhn-wp:rules.first, "
                      "kuhn-wp:rules.facing-bet)"),
    ActionForm("deal J|Q|K", "chance: deal the next player a card (when the set-up leaves one "
                             "to deal, kuhn-wp:rules.deal)"),
)


class KuhnSetup(StrictModel):
    """Kuhn poker start: the dealt ``cards`` (P1's first), or ``seed`` alone for a seeded
    deal; empty: before the deal."""

    cards: list[Annotated[Name, Field(max_length=1)]] | None = Field(
        None, max_length=2, description="the cards dealt so far, P1's first: J, Q or K "
                                        "(the rest is dealt by 'deal X' actions)")
    seed: NonNegative | None = Field(None, description="the deal of new_seeded_state(seed) "
                                                       "(alone)")


@dataclass(frozen=True)
class KuhnConfig:
    """The rule set of a Kuhn poker scenario: always kuhn-wp with two players."""

    preset: str = PRESET


def _name(p: int | None, names: Sequence[str]) -> str:
    return "none" if p is None else names[p]


def _to_move(h: Hand, names: Sequence[str]) -> str:
    who = to_move(h)
    return {CHANCE: "chance", TERMINAL: "over"}.get(who) or names[who]


def ending(h: Hand) -> str:
    """``fold`` or ``showdown`` once the hand is over (kuhn-wp:rules.fold,
    kuhn-wp:rules.showdown), else ``""``."""
    if winner(h) is None:
        return ""
    return "showdown" if shown(h) else "fold"


def _seen(h: Hand, player: int) -> str:
    from ruleproof.model.kuhn_poker.game import KuhnPokerGame

    return KuhnPokerGame().from_model(h).observation_string(player)


FACTS: dict[str, Fact] = {f.name: f for f in (
    Fact("winner", None, "the player who took the pot, or 'none'",
         lambda s, a, c: _name(winner(s), c.names), player=True),
    Fact("to_move", None, "the player to decide, 'chance' or 'over'",
         lambda s, a, c: _to_move(s, c.names)),
    Fact("ending", None, "fold, showdown, or '' while the hand goes on", lambda s, a, c: ending(s)),
    Fact("moves", None, "the decisions so far (list of pass/bet)",
         lambda s, a, c: [str(m) for m in s.moves]),
    Fact("shown", None, "the cards turned up at a showdown, in seat order (list; empty "
                        "otherwise)", lambda s, a, c: [RANKS[x] for x in shown(s)]),
    Fact("card", "player", "a player's card (J, Q, K; '' before it is dealt)",
         lambda s, a, c: RANKS[s.cards[a]] if len(s.cards) > a else ""),
    Fact("pot", "player", "chips a player has put into the pot (ante included)",
         lambda s, a, c: pot(s)[a]),
    Fact("returns", "player", "chips a player won (+) or lost (-); 0 while the hand goes on",
         lambda s, a, c: int(returns(s)[a])),
    Fact("seen", "player", "what a player observes (the interface's observation string)",
         lambda s, a, c: _seen(s, a)),
)}


class _Setup(SetupProblems):
    """Builds the start hand from a validated ``[setup]`` (errors at their key path)."""

    def build(self, su: KuhnSetup) -> Hand:
        if su.seed is not None:
            if su.cards is not None:
                raise self.fail(("seed",), "give seed alone, or the cards")
            from ruleproof.model.kuhn_poker.game import KuhnPokerGame

            seeded: Hand = KuhnPokerGame().seeded_model(su.seed)
            return seeded
        ranks: list[int] = []
        for i, card in enumerate(su.cards or []):
            if card not in RANKS:
                self.note(("cards", i), f"{show(card)} is not a card (J, Q, K; "
                                        "kuhn-wp:rules.deck)")
            elif RANKS.index(card) in ranks:
                self.note(("cards", i), f"{card} is dealt twice (kuhn-wp:rules.deal)")
            else:
                ranks.append(RANKS.index(card))
        self.problems.raise_if_any()
        return Hand(tuple(ranks))


@dataclass(frozen=True)
class KuhnScenarios:
    """The capability ``scenarios`` of Kuhn poker
    (a :class:`ruleproof.properties.scenarios.ScenarioFacts`)."""

    setup_model: type[KuhnSetup] = KuhnSetup

    @property
    def facts(self) -> Mapping[str, Fact]:
        """Kuhn poker's facts."""
        return FACTS

    @property
    def actions(self) -> Sequence[ActionForm]:
        """The action notation."""
        return ACTIONS

    @property
    def arg_kinds(self) -> Mapping[str, str]:
        """What a fact argument may be."""
        return {"player": "a player's name (P1, P2 unless the file names them)"}

    def configure(self, top: ScenarioTop, preset: str | None, options: Mapping[str, object],
                  problems: Problems, at: tuple[str | int, ...]) -> KuhnConfig | None:
        if top.players not in (None, 2):
            problems.add(("players",), f"kuhn-poker is played by 2 players; got {top.players}")
        chosen = preset or top.preset or PRESET
        if chosen != PRESET:
            problems.add(("preset",), f"{'--preset: ' if preset else ''}unknown preset "
                                      f"{show(chosen)}; known: {PRESET}")
            return None
        for key in options:
            problems.add((*at, key), f"kuhn-poker has no rule options (got {show(key)})")
        return None if options else KuhnConfig()

    def default_names(self, config: KuhnConfig) -> tuple[str, ...]:
        return NAMES

    def start(self, config: KuhnConfig, setup: Any, names: Sequence[str],
              doc: TomlFile) -> Hand:
        return _Setup(doc).build(setup)

    def parse_action(self, config: KuhnConfig, text: str, names: Sequence[str]
                     ) -> Move | Card:
        for move in Move:
            if text == str(move):
                return move
        words = text.split()
        if len(words) == 2 and words[0] == "deal" and words[1] in RANKS:
            return Card(RANKS.index(words[1]))
        raise ValueError(f"{show(text)} is not an action of kuhn-poker (pass, bet, deal J|Q|K)")

    def parse_arg(self, config: KuhnConfig, kind: str, token: str, names: Sequence[str]
                  ) -> int:
        return player_of(token, names)

    def settle(self, state: Hand, action: Move | Card | None) -> Hand:
        return state

    def to_move(self, state: Hand) -> int | None:
        p = to_move(state)
        return p if p in (0, 1) else None

    def apply(self, state: Hand, action: Move | Card, names: Sequence[str]
              ) -> tuple[Hand, list[str]]:
        if isinstance(action, Card):
            new = deal(state, action.rank)
            lines = [f"chance: {names[len(state.cards)]} is dealt {RANKS[action.rank]}"]
        else:
            who = to_move(state)
            new = act(state, action)  # IllegalAction leaves ``state`` as it was
            lines = [f"{names[who]}: {action}"]
        w = winner(new)
        if w is not None:
            how = "showdown " + " vs ".join(RANKS[c] for c in shown(new)) if shown(new) \
                else f"{names[1 - w]} folds"
            lines.append(f"{how}: {names[w]} takes the pot and wins {pot(new)[1 - w]}")
        return new, lines

    def legal(self, state: Hand, names: Sequence[str]) -> list[str]:
        """The legal decisions, or at a chance node the cards left to deal."""
        return sorted([str(a) for a in legal(state)] + [str(c) for c, _p in chance(state)])

    def broken(self, start: Hand, state: Hand) -> list[str]:
        from ruleproof.properties.kuhn_poker.invariants import violations

        return violations(state)


SCENARIOS = KuhnScenarios()
"""The capability ``scenarios``."""

__all__ = ["ACTIONS", "FACTS", "NAMES", "SCENARIOS", "KuhnConfig", "KuhnScenarios", "KuhnSetup",
           "ending"]
