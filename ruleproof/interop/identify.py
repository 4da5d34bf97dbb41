"""Which registered readings does an OpenSpiel game or a PettingZoo environment follow?
(``ruleproof conform --openspiel/--pettingzoo TARGET --identify``, #25)

The framework counterpart of :mod:`ruleproof.properties.conformance.identify` (which drives
``--engine`` targets over the JSON Lines protocol). A target implements the game's action
table (docs/interop.md); here the model it is compared with is built with the hypothesis's
rule options (``make_game(GAME, options=...)``), the target is never told them. The search:

1. play the target against the model under the hypothesis (the defaults at first) with
   :func:`~ruleproof.interop.conform.conform_target` (random games, the first divergence
   shrunk);
2. at a divergence, try every hypothesis one reading change away (an option of the game's
   ambiguity register set to another of its values, or set back); the first under which the
   model replays every divergent game found so far exactly as the target played it becomes
   the hypothesis. If none does, two changes are tried (a reading picked earlier may have
   explained a game by accident); if still none, the target fits none of the readings there:
   that game and its step are reported as a candidate new reading;
3. when a hypothesis survives the rest of the search budget, every other reading (the
   hypothesis with one option changed) is tried: the divergent games are replayed under it
   first, else a short search is run; a divergence excludes it, with the (shrunk) game that
   shows it; one that no game tells apart within the budget stays consistent (undecided).

Everything is read from the plugin record: the options and their values (default first) from
``option_values``, the registered readings from the game's ambiguity register
(``spec/<game>/ambiguities.toml``), and which expansion an option belongs to from the
``conformance`` capability when the game has one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.interop.conform import (
    Divergence,
    Side,
    check_shape,
    conform_target,
    openspiel_side,
    pettingzoo_side,
    play,
    shrink,
)
from ruleproof.model.api import CHANCE, RulesGame
from ruleproof.properties.conformance.readings import ambiguity_register
from ruleproof.properties.plugin import make_game, plugin


def _owners(game: str) -> Mapping[str, str]:
    """Rule option -> the expansion it belongs to ({} for a game without the ``conformance``
    capability: every option counts)."""
    if plugin(game).capability("conformance") is None:
        return {}
    from ruleproof.properties.conformance.games import model_of

    return model_of(game).option_owners()


def target_reading_space(game: str, params: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    """The readings to search for ``game`` played with ``params`` (the game's parameters as
    ``make_game`` takes them): every rule option the game's ambiguity register names, with its
    values as strings (default first), but those fixed in ``params["options"]`` and those of
    an expansion not in play; {} for a game without the parameter ``options``.

    Raises:
        MalformedInput: an unknown game; an ambiguity register that is not TOML.
    """
    record = plugin(game)
    if record.param("options") is None:
        return {}
    values = {k: tuple(str(v) for v in vs) for k, vs in record.option_values().items()}
    fixed = dict(params.get("options") or {})
    expansion = str(params.get("expansion") or "none")
    owners = _owners(game)
    out: dict[str, tuple[str, ...]] = {}
    for entry in ambiguity_register(game):
        name = entry.option
        if name in fixed or name not in values or name in out or len(values[name]) < 2:
            continue
        if owners.get(name, expansion) != expansion:
            continue
        out[name] = values[name]
    return out


@dataclass(frozen=True)
class TargetExcluded:
    """A reading the target does not follow: ``option=value``, the game that shows it (the
    target diverges from the model under it at ``witness.step``) and its actions by name."""

    option: str
    value: str
    witness: Divergence
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class TargetIdentification:
    """What :func:`identify_target` found.

    Attributes:
        game: the game's registry name; ``target``: ``FRAMEWORK:SPEC``.
        readings: the readings the target follows beyond the defaults (option -> value).
        fits: True if the target conformed to ``readings`` for the rest of the search.
        unexplained: the game (its divergence under ``readings``) where the target left every
            reading: a candidate new reading; None if it fits or nothing could be said.
        excluded: every other reading told apart, with the game that shows it.
        undecided: other readings no game told apart within the budget (consistent too).
        games, steps: games and steps compared in all.
        failure: why nothing could be said ('' otherwise: a target error, nothing compared).
        notes: the search, one line per round.
    """

    game: str
    target: str
    readings: Mapping[str, str]
    fits: bool
    unexplained: Divergence | None = None
    excluded: tuple[TargetExcluded, ...] = ()
    undecided: tuple[tuple[str, str], ...] = ()
    games: int = 0
    steps: int = 0
    failure: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)
    unexplained_names: tuple[str, ...] = ()

    def report(self) -> str:
        """A readable report: the readings identified, each excluded reading with the game
        that shows it, and the step where the target fits none."""
        if self.failure:
            return f"{self.target}: NOT IDENTIFIED: {self.failure}"
        named = ", ".join(f"{k}={v}" for k, v in sorted(self.readings.items())) or \
            "the default readings"
        lines = []
        if self.fits:
            lines.append(f"{self.target}: follows {named} of {self.game} (consistent with every "
                         f"one of {self.games} games, {self.steps} steps compared)")
        else:
            u = self.unexplained
            assert u is not None
            lines.append(f"{self.target}: FITS NONE of the registered readings of {self.game}: "
                         f"with {named} it diverges at step {u.step} of a game of "
                         f"{len(u.actions)} actions, and no other reading explains it (a "
                         "candidate new reading):")
            lines.append(f"  {u.describe()}")
            lines.append(f"  actions: {_shown(self.unexplained_names)}")
        for e in self.excluded:
            w = e.witness
            lines.append(f"  excluded {e.option}={e.value}: {w.kind} differs at step {w.step} "
                         f"of {len(w.actions)} actions: {_shown(e.names)}")
        for option, value in self.undecided:
            lines.append(f"  not told apart within the budget: {option}={value}")
        lines += [f"  {n}" for n in self.notes]
        return "\n".join(lines)


def _shown(names: tuple[str, ...], last: int = 10) -> str:
    """Action names for a report: the chance outcomes before the first decision folded, the
    last ``last`` decisions named."""
    if not names:
        return "the initial state"
    deal = 0
    while deal < len(names) and names[deal].startswith("chance "):
        deal += 1
    rest = names[deal:]
    parts = [f"{deal} chance outcomes (the deal)"] if deal else []
    if len(rest) > last:
        parts.append(f"{len(rest) - last} more actions")
        rest = rest[-last:]
    return ", ".join([*parts, *rest])


def _names(model: RulesGame, framework: str, d: Divergence) -> tuple[str, ...]:
    """The names of ``d``'s actions in ``model`` (a chance outcome as ``chance NAME``)."""
    state = model.new_seeded_state(d.seed) if framework == "pettingzoo" \
        else model.new_initial_state()
    out = []
    for a in d.actions:
        player = state.current_player()
        try:
            name = model.action_to_string(player, a)
        except MalformedInput:
            name = str(a)
        chance = player == CHANCE and not name.startswith("chance ")
        out.append(f"chance {name}" if chance else name)
        state = state.apply(a)
    return tuple(out)


def _model(game: str, params: Mapping[str, Any], readings: Mapping[str, str]) -> RulesGame:
    """``game`` with ``params`` and the readings on top of the fixed options."""
    given = dict(params)
    options = {**dict(given.get("options") or {}), **readings}
    if options:
        given["options"] = options
    return make_game(game, **given)


def _clean(hypothesis: Mapping[str, str],
           space: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    """The hypothesis without the readings that are the defaults."""
    return {k: v for k, v in hypothesis.items() if v != space[k][0]}


def _neighbours(hypothesis: Mapping[str, str],
                space: Mapping[str, tuple[str, ...]]) -> list[dict[str, str]]:
    """Every hypothesis one reading change away, in register order."""
    out = []
    for name, values in space.items():
        for value in values:
            if hypothesis.get(name, values[0]) != value:
                out.append(_clean({**hypothesis, name: value}, space))
    return out


def identify_target(game: str, framework: str, target: str, *,
                    params: Mapping[str, Any] | None = None, budget: float = 60.0,
                    seed: int = 0, games: int = 20, max_steps: int = 3000,
                    shrink_budget: float = 2.0, make_side: Callable[[], Side] | None = None,
                    on_step: Callable[[str], None] | None = None) -> TargetIdentification:
    """Identify the registered readings an OpenSpiel game or PettingZoo environment follows
    (see the module docstring).

    ``params``: the game's parameters (players, preset, expansion, fixed ``options``), as
    ``make_game`` takes them; they are not searched. ``budget`` seconds in all: 60 % for the
    search of the hypothesis (rounds of up to ``games`` random games), the rest shared by the
    other readings' checks. ``make_side``: the target already loaded (tests); default: load
    ``target`` once (``MODULE:NAME``, or an OpenSpiel game name).

    Raises:
        MalformedInput: an unknown framework, game or parameter; a target that cannot be
            loaded.
    """
    fixed = dict(params or {})
    space = target_reading_space(game, fixed)
    _model(game, fixed, {})  # bad parameters: refused before the target is loaded
    if make_side is None:
        if framework == "openspiel":
            loaded: Side = openspiel_side(target)
        elif framework == "pettingzoo":
            loaded = pettingzoo_side(target)
        else:
            raise MalformedInput(f"unknown framework {framework!r}")
        check_shape(_model(game, fixed, {}), loaded, target)

        def make_side() -> Side:
            return loaded

    side_factory = make_side
    name = f"{framework}:{target}"
    start = time.monotonic()
    search_until = start + 0.6 * budget
    hypothesis: dict[str, str] = {}
    witnesses: list[Divergence] = []
    notes: list[str] = []
    totals = [0, 0]
    compared = [False]  # the last search compared a step (no pass on zero work)
    unexplained: Divergence | None = None
    round_no = 0
    fitted = False

    def note(text: str) -> None:
        notes.append(text)
        if on_step is not None:
            on_step(text)

    def search(readings: Mapping[str, str], seconds: float, at: int) -> Divergence | None:
        try:
            result = conform_target(_model(game, fixed, readings), framework, target,
                                    games=games, seed=at, budget=seconds, max_steps=max_steps,
                                    shrink_budget=min(shrink_budget, max(seconds / 4, 0.2)),
                                    make_side=side_factory)
        except MalformedInput:  # nothing compared: the target ended at once
            compared[0] = False
            return None
        compared[0] = result.steps > 0
        totals[0] += result.games
        totals[1] += result.steps
        return result.divergence

    def replays(readings: Mapping[str, str], w: Divergence) -> Divergence | None:
        """The divergence replaying ``w``'s game under ``readings`` (None: replayed exactly)."""
        model = _model(game, fixed, readings)
        div, _, _ = play(model, side_factory(), framework, w.seed, list(w.actions), None,
                         len(w.actions) + 1)
        return div

    def explains(readings: Mapping[str, str]) -> bool:
        return all(replays(readings, w) is None for w in witnesses)

    while True:
        left = search_until - time.monotonic()
        if left <= 0.2 and round_no == 0:
            break
        # a hypothesis just chosen is searched at least once (1 s), even past the budget
        found = search(hypothesis, max(left, 1.0), seed + round_no)
        round_no += 1
        if found is None:
            fitted = compared[0]
            break
        if found.kind == "error":
            return TargetIdentification(game, name, hypothesis, False, games=totals[0],
                                        steps=totals[1], failure=f"the target failed: "
                                        f"{found.describe()}", notes=tuple(notes))
        witnesses.append(found)
        chosen = next((h for h in _neighbours(hypothesis, space) if explains(h)), None)
        if chosen is None:
            chosen = next((h2 for h1 in _neighbours(hypothesis, space)
                           for h2 in _neighbours(h1, space)
                           if h2 != hypothesis and explains(h2)), None)
        if chosen is None:
            unexplained = found
            note(f"round {round_no}: the game of {len(found.actions)} actions diverging at "
                 f"step {found.step} fits no other reading")
            break
        changed = ", ".join(f"{k}={chosen.get(k, space[k][0])}" for k in space
                            if chosen.get(k) != hypothesis.get(k))
        note(f"round {round_no}: the game of {len(found.actions)} actions diverging at step "
             f"{found.step} is replayed exactly under {changed}")
        hypothesis = chosen
    if not fitted and unexplained is None:
        return TargetIdentification(game, name, hypothesis, False, games=totals[0],
                                    steps=totals[1], failure="no game was compared within the "
                                    "budget (raise --budget)", notes=tuple(notes))
    excluded: list[TargetExcluded] = []
    undecided: list[tuple[str, str]] = []
    if unexplained is None:
        others = _neighbours(hypothesis, space)
        each = max(0.5, (start + budget - time.monotonic()) / max(1, len(others)))
        for trial in others:
            option = next(k for k in space if trial.get(k) != hypothesis.get(k))
            value = trial.get(option, space[option][0])
            shown: Divergence | None = None
            for w in sorted(witnesses, key=lambda w: len(w.actions)):
                shown = replays(trial, w)
                if shown is not None:
                    shown = shrink(_model(game, fixed, trial), side_factory, framework, shown,
                                   min(shrink_budget, each))
                    break
            if shown is None:
                shown = search(trial, each, seed)
            if shown is None:
                undecided.append((option, value))
            else:
                excluded.append(TargetExcluded(option, value, shown, _names(
                    _model(game, fixed, trial), framework, shown)))
    return TargetIdentification(
        game, name, hypothesis, unexplained is None, unexplained, tuple(excluded),
        tuple(undecided), totals[0], totals[1], notes=tuple(notes),
        unexplained_names=() if unexplained is None else _names(
            _model(game, fixed, hypothesis), framework, unexplained))


__all__ = ["TargetExcluded", "TargetIdentification", "identify_target", "target_reading_space"]
