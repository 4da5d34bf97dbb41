"""The game side of the clause contracts: the capability a game gives (``"contracts"``, a
:class:`GameContracts`), the rule sets the contracts are checked on, and seeded play on the one
game interface (:mod:`ruleproof.model.api`).

A contract rule set (:class:`~ruleproof.properties.plugin.RuleSet`) binds one configuration of
a game (preset, options, one player count) to the source documents whose clauses it claims to
implement (``sources``) and the clause ids a later source replaces (``drop``); each game's plugin
lists its own (``contract_rule_sets``). Play goes through the interface: the game is
``make_game(rs.game, **rs.game_params())`` (or ``rs.engine``, a replacement game for teeth
tests), a game starts at ``new_seeded_state(seed)``, the contracts read ``state.model`` (the
game's engine state). Chance nodes after the set-up are settled by the capability's ``settle``,
the game's own seeded draw, so a seeded game is the same game on every run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ruleproof.model.api import GameBase, GameState
from ruleproof.properties.plugin import GamePlugin, RuleSet, make_game, plugin, plugins

CAPABILITY = "contracts"
"""The name of the capability in a game's plugin record."""


@dataclass(frozen=True)
class ScenarioRun:
    """A shipped scenario replayed by the refinement property: its name (for reports), the
    engine state it starts from and its typed actions (an illegal one is skipped)."""

    name: str
    start: Any
    actions: tuple[Any, ...]


@dataclass(frozen=True)
class Recall:
    """What the perfect-recall search of the shared group reads (properties/recall.py).

    Attributes:
        what: what is compared, for the check's name (``information state``).
        info: engine state, seat -> the text that seat has (the function
            properties/recall.py compares).
        per_games: the search plays ``max(least, profile.games // per_games)`` games.
        least: see ``per_games``.
        every: it branches at every ``every``-th decision of a game (a game of a few decisions
            needs 1).
        depth: how many actions each branch plays on.
    """

    what: str
    info: Callable[[], Callable[..., Any]]
    per_games: int
    least: int
    every: int = 9
    depth: int = 2


@dataclass(frozen=True)
class GameContracts:
    """A game's clause contracts: the capability ``"contracts"`` of its plugin record.

    Attributes:
        sets: source document -> a function giving its :class:`ContractSet` (every source the
            game has contracts for; imported on first use).
        settle: a state -> the first state from there that is not a chance node, drawn as the
            game's seeded play draws (the engine's own seeded choice), so seeded games repeat.
            A game whose only chance is the set-up returns the state itself.
        refinement_rule_sets: a rule set of ``ruleproof check`` -> the contract rule sets the
            refinement property checks for it (one per player count; none when the rule set
            is a reading the contracts do not state).
        scenario_runs: a contract rule set -> the shipped scenarios that play it (the
            refinement property replays them too); None when the game ships none for this.
        searched_rule_set: the contract rule set the shared group searches for endless games
            and perfect recall ('' for none).
        recall: what the perfect-recall search reads (None: no such check).
        parts: part name (``du-en:qr``) -> a function giving the :class:`ContractSet` of a
            section that restates its document's rules in its own words (quick reference,
            FAQ, worked example), written from that section alone; not part of any rule set's
            sources, compared with the rest of its document by discovery (``chapters``).
        beyond_text: ``option=value`` -> {contract set name: why}: the rule option values
            that go beyond what a source's text allows (checked by the options-against-sources
            test: every other value satisfies the contracts of every source its presets read).
    """

    sets: Mapping[str, Callable[[], Any]]
    settle: Callable[[GameState], GameState]
    refinement_rule_sets: Callable[[RuleSet], tuple[RuleSet, ...]]
    scenario_runs: Callable[[RuleSet], Iterable[ScenarioRun]] | None = None
    searched_rule_set: str = ""
    recall: Recall | None = None
    parts: Mapping[str, Callable[[], Any]] = field(default_factory=dict)
    beyond_text: Mapping[str, Mapping[str, str]] = field(default_factory=dict)


def contracts_of(p: GamePlugin) -> GameContracts | None:
    """The contracts capability of a game (None if it has none)."""
    found = p.capability(CAPABILITY)
    return found if isinstance(found, GameContracts) else None


def capability_of(rs: RuleSet) -> GameContracts:
    """The contracts capability of ``rs``'s game.

    Raises:
        MalformedInput: an unknown game; Unsupported: a game without contracts.
    """
    from ruleproof.properties.plugin import require

    found = require(plugin(rs.game), CAPABILITY, "checking the clause contracts")
    assert isinstance(found, GameContracts)
    return found


# ----------------------------------------------------------------------------- play


def game_of(rs: RuleSet) -> GameBase[Any]:
    """The game of ``rs`` on the one interface (``rs.engine`` when a teeth test replaced it)."""
    if rs.engine is not None:
        return rs.engine  # type: ignore[no-any-return]
    return make_game(rs.game, **rs.game_params())


def settle(rs: RuleSet, state: GameState) -> GameState:
    """``state`` with its chance nodes drawn by the game's seeded draw (see
    :attr:`GameContracts.settle`)."""
    return capability_of(rs).settle(state)


def start(rs: RuleSet, seed: int, game: GameBase[Any] | None = None) -> GameState:
    """The game of ``rs`` dealt from ``seed``, its chance nodes settled."""
    return settle(rs, (game or game_of(rs)).new_seeded_state(seed))


def parse(game: GameBase[Any], text: str) -> Any:
    """The typed action written ``text`` (the game's action table notation).

    Raises:
        MalformedInput: ``text`` names no action of the game.
    """
    return game.id_to_action(game.string_to_action(0, text))


# ----------------------------------------------------------------------------- rule sets


def rule_sets(profile: str = "ci") -> tuple[RuleSet, ...]:
    """The rule sets the contracts are checked on: every registered game's
    (:attr:`~ruleproof.properties.plugin.GamePlugin.contract_rule_sets`), each of one player
    count."""
    return tuple(rs for p in plugins().values() for rs in p.contract_rule_sets(profile))


def rule_set(name: str) -> RuleSet:
    """The rule set called ``name`` (see :func:`rule_sets`, thorough profile).

    Raises:
        KeyError: for an unknown name.
    """
    for rs in rule_sets("thorough"):
        if rs.name == name:
            return rs
    raise KeyError(name)


def sources() -> tuple[str, ...]:
    """Every source document a registered game has contracts for, in registry order."""
    out: list[str] = []
    for p in plugins().values():
        cap = contracts_of(p)
        if cap is not None:
            out += [s for s in cap.sets if s not in out]
    return tuple(out)


def parts() -> tuple[str, ...]:
    """Every part (a quick reference, FAQ or worked example stated as a contract set of its
    own, :attr:`GameContracts.parts`) of every registered game, in registry order."""
    return tuple(n for p in plugins().values() if (cap := contracts_of(p)) is not None
                 for n in cap.parts)


__all__ = ["CAPABILITY", "GameContracts", "Recall", "RuleSet", "ScenarioRun",
           "capability_of", "contracts_of", "game_of", "parse", "parts", "rule_set",
           "rule_sets", "settle", "sources", "start"]
