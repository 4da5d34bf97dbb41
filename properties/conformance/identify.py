"""Which registered readings does an engine follow? (``ruleproof conform --identify``, #25)

An engine that implements another registered reading of the rules (a value of a rule option
the game's ambiguity register names) is nonconforming to the default rules at the first step
where the readings differ. :func:`identify` searches the option space instead of enumerating
it: it plays the engine against the model under a hypothesis (default readings at first;
the engine is *not* told the hypothesis), and at each divergence tries the single reading
changes that make the model replay that game exactly as the engine did (and every earlier
game too); the first that does joins the hypothesis, and the search goes on until the engine
conforms to the hypothesis within the budget, or no reading change explains a divergence --
then the engine fits none of the readings there, and that game and step are a candidate new
reading. Every other reading is then tried on its own against the final hypothesis, with a
short search: one the engine diverges from is excluded, with the game that shows it (its
shortest distinguishing trace found); one no game tells apart within the budget stays
consistent.

The hypothesis is hidden from the engine through a view of the game whose set-ups are made
with those options (:func:`under`); the engine gets only what the caller fixed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from ruleproof.errors import MalformedInput
from ruleproof.properties.conformance.differential import ConformResult, Played, conform, play
from ruleproof.properties.conformance.engine import EngineFactory
from ruleproof.properties.conformance.games import (
    EXPANSION_KEY,
    ConformanceGame,
    GameModel,
)
from ruleproof.properties.conformance.readings import ambiguity_register


class _Under:
    """A conformance capability whose set-ups are made under extra rule options (the
    hypothesis), everything else delegated."""

    def __init__(self, spec: ConformanceGame, readings: Mapping[str, str]) -> None:
        self._spec = spec
        self._readings = dict(readings)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._spec, name)

    def start(self, players: int, options: Mapping[str, str], seed: int | None,
              setup: Mapping[str, Any] | None) -> Any:
        return self._spec.start(players, {**options, **self._readings}, seed, setup)

    def setup_of(self, players: int, options: Mapping[str, str], seed: int) -> dict[str, Any]:
        return self._spec.setup_of(players, {**options, **self._readings}, seed)


def under(game: GameModel, readings: Mapping[str, str]) -> GameModel:
    """``game`` with every set-up made under ``readings`` (rule option -> value) on top of the
    options a game is played with; the engine is not sent them."""
    if not readings:
        return game
    return GameModel(game.plugin, cast(ConformanceGame, _Under(game.spec, readings)))


def reading_space(game: GameModel, fixed: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """The registered readings to search: every rule option the game's ambiguity register
    names, with its values (default first), but those ``fixed`` and those of an expansion not
    fixed in play."""
    values = game.option_values()
    owners = game.option_owners()
    expansion = str(fixed.get(EXPANSION_KEY, "none"))
    out: dict[str, tuple[str, ...]] = {}
    for entry in ambiguity_register(game.name):
        name = entry.option
        if name in fixed or name not in values or name in out:
            continue
        if owners.get(name, expansion) != expansion:
            continue
        out[name] = values[name]
    return out


@dataclass(frozen=True)
class Excluded:
    """A reading the engine does not follow: ``option=value`` and the game that shows it
    (the engine diverges from the model under it at ``witness.divergence.step``)."""

    option: str
    value: str
    witness: Played


@dataclass(frozen=True)
class Identification:
    """What :func:`identify` found.

    Attributes:
        game: the game's name.
        readings: the readings the engine follows, beyond the defaults (option -> value);
            consistent with every game played, if ``fits``.
        fits: True if the engine conformed to ``readings`` within the budget; False if it
            fits none of the readings (``unexplained`` holds the game and its step) or the
            run proved nothing (``failure``).
        unexplained: the game where the engine left every reading (a candidate new reading).
        excluded: every other reading the games told apart, with the game that shows it.
        undecided: other readings no game told apart within the budget (consistent too).
        games: games compared in all.
        failure: why nothing could be said ('' otherwise); ``unsupported``: the engine
            declined everything.
    """

    game: str
    readings: Mapping[str, str]
    fits: bool
    unexplained: Played | None = None
    excluded: tuple[Excluded, ...] = ()
    undecided: tuple[tuple[str, str], ...] = ()
    games: int = 0
    failure: str = ""
    unsupported: str = ""
    steps: tuple[str, ...] = field(default_factory=tuple)

    def report(self) -> str:
        """A readable report: the readings identified, each excluded reading with its
        distinguishing game, and the step where the engine fits none."""
        if self.unsupported:
            return f"{self.game}: UNSUPPORTED by the engine (not a mismatch): {self.unsupported}"
        if self.failure:
            return f"{self.game}: NOT IDENTIFIED: {self.failure}"
        named = ", ".join(f"{k}={v}" for k, v in sorted(self.readings.items())) or \
            "the default readings"
        lines = []
        if self.fits:
            lines.append(f"{self.game}: the engine follows {named} (consistent with every one "
                         f"of {self.games} games)")
        else:
            u = self.unexplained
            assert u is not None and u.divergence is not None
            lines.append(f"{self.game}: the engine FITS NONE of the registered readings: with "
                         f"{named} it diverges at step {u.divergence.step} of a game of "
                         f"{len(u.actions)} actions, and no single other reading explains it "
                         "(a candidate new reading):")
            lines.append("  " + u.divergence.describe().replace("\n", "\n  "))
            lines.append("  actions: " + (", ".join(a for _, a in u.actions) or "(none)"))
        for e in self.excluded:
            d = e.witness.divergence
            assert d is not None
            lines.append(f"  excluded {e.option}={e.value}: step {d.step} of "
                         f"{len(e.witness.actions)} actions ({d.kind}): "
                         + (", ".join(a for _, a in e.witness.actions)
                            or "the set-up alone"))
        for option, value in self.undecided:
            lines.append(f"  not told apart within the budget: {option}={value}")
        lines += [f"  {s}" for s in self.steps]
        return "\n".join(lines)


def _replay(game: GameModel, factory: EngineFactory, played: Played,
            max_steps: int) -> Played | None:
    """``played``'s game played again by a fresh engine against ``game`` (its set-up and
    actions; None if ``game`` refuses the set-up)."""
    engine = factory()
    try:
        return play(game, engine, played.players, played.options, played.seed,
                    lambda n: 0, max(max_steps, len(played.actions)),
                    script=[a for _, a in played.actions], setup=played.setup)
    except MalformedInput:
        return None
    finally:
        engine.close()


def _replays(game: GameModel, factory: EngineFactory, played: Played, max_steps: int) -> bool:
    """Whether the engine plays ``played``'s game exactly as ``game`` does (no divergence)."""
    again = _replay(game, factory, played, max_steps)
    return again is not None and again.divergence is None


def identify(game: GameModel, factory: EngineFactory, *, players: int | None = None,
             options: Mapping[str, str] | None = None, budget: float = 30.0, seed: int = 0,
             max_steps: int = 400, shrink_budget: float = 2.0,
             on_step: Callable[[str], None] | None = None) -> Identification:
    """Identify the registered readings an engine follows (see the module docstring).

    ``budget`` seconds in all: 60 % for the search of the hypothesis, the rest shared by the
    other readings' short searches (each at least 0.5 s). ``options`` are fixed and sent to
    the engine (the preset, the expansion ...); they are not searched.

    Raises:
        MalformedInput: as :func:`~ruleproof.properties.conformance.differential.conform`.
    """
    fixed = dict(options or {})
    space = reading_space(game, fixed)
    start = time.monotonic()
    search_until = start + 0.6 * budget
    hypothesis: dict[str, str] = {}
    witnesses: list[Played] = []
    steps: list[str] = []
    games = 0
    round_no = 0
    result: ConformResult | None = None
    unexplained: Played | None = None

    def note(text: str) -> None:
        steps.append(text)
        if on_step is not None:
            on_step(text)

    while True:
        left = search_until - time.monotonic()
        if left <= 0.2:
            break
        result = conform(under(game, hypothesis), factory, players=players, options=fixed,
                         budget=left, seed=seed + round_no, max_steps=max_steps,
                         shrink_budget=min(shrink_budget, max(left / 4, 0.2)))
        round_no += 1
        games += result.coverage.games
        if result.unsupported:
            return Identification(game.name, hypothesis, False, games=games,
                                  unsupported=result.unsupported)
        found = result.found
        if found is None or found.divergence is None:
            break
        if found.divergence.kind == "engine-failure":
            return Identification(game.name, hypothesis, False, games=games,
                                  failure=f"the engine failed: {found.divergence.detail}")
        witnesses.append(found)
        chosen: tuple[str, str] | None = None
        for name, values in space.items():
            for value in values:
                if hypothesis.get(name, values[0]) == value:
                    continue
                trial = {**hypothesis, name: value}
                trial = {k: v for k, v in trial.items() if v != space[k][0]}
                if all(_replays(under(game, trial), factory, w, max_steps) for w in witnesses):
                    chosen = (name, value)
                    break
            if chosen:
                break
        if chosen is None:
            unexplained = found
            note(f"round {round_no}: step {found.divergence.step} of a game of "
                 f"{len(found.actions)} actions fits no single further reading")
            break
        hypothesis[chosen[0]] = chosen[1]
        hypothesis = {k: v for k, v in hypothesis.items() if v != space[k][0]}
        note(f"round {round_no}: the game of {len(found.actions)} actions diverging at step "
             f"{found.divergence.step} is replayed exactly under {chosen[0]}={chosen[1]}")
    if result is not None and unexplained is None and result.found is None and result.failure:
        return Identification(game.name, hypothesis, False, games=games,
                              failure=result.failure, steps=tuple(steps))
    others = [(n, v) for n, values in space.items() for v in values
              if hypothesis.get(n, values[0]) != v]
    excluded: list[Excluded] = []
    undecided: list[tuple[str, str]] = []
    each = max(0.5, (start + budget - time.monotonic()) / max(1, len(others)))
    for name, value in others:
        trial = {k: v for k, v in {**hypothesis, name: value}.items() if v != space[k][0]}
        shown: Played | None = None
        for w in sorted(witnesses, key=lambda w: len(w.actions)):
            again = _replay(under(game, trial), factory, w, max_steps)
            if again is not None and again.divergence is not None:
                shown = again
                break
        if shown is None:
            probe = conform(under(game, trial), factory, players=players, options=fixed,
                            budget=each, seed=seed, max_steps=max_steps,
                            shrink_budget=min(shrink_budget, each))
            games += probe.coverage.games
            shown = probe.found
        if shown is None or shown.divergence is None:
            undecided.append((name, value))
            continue
        excluded.append(Excluded(name, value, shown))
    return Identification(game.name, hypothesis, unexplained is None, unexplained,
                          tuple(excluded), tuple(undecided), games, steps=tuple(steps))


__all__ = ["Excluded", "Identification", "identify", "reading_space", "under"]
