"""Conform someone's OpenSpiel game or PettingZoo environment to the model, side by side.

The driver plays random games on the model (:mod:`ruleproof.model.api`) and feeds every action,
by its id in the documented action table (docs/interop.md), to the target. After each step it
compares, in this order: terminal status, current player, the legal action set, and at a
chance node the chance outcomes with their probabilities (OpenSpiel only), and at the end the
returns. The first difference is the divergence. It is then shrunk (delta debugging over the
action sequence: chunks are cut out while the rest stays a legal game of the model and still
diverges, within a time budget) and saved as a JSON Lines trace.

Targets: ``MODULE:NAME`` where ``NAME`` is, for OpenSpiel, a ``pyspiel.Game``, a registered
game name (string) or a callable returning a game; for PettingZoo, an AEC environment or a
callable returning one (called without arguments). ``MODULE`` is a dotted module importable
from the current directory, or a path to a ``.py`` file.

PettingZoo environments deal from ``reset(seed)``: the model side uses
``new_seeded_state(seed)`` (the documented equivalence), and a chance node of the model later
in a game (Dracula's draws) ends that game's comparison, counted and reported as
``unchecked`` (the environment resolves it internally).

Raises :class:`ruleproof.errors.MalformedInput` for a target that cannot be loaded.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from ruleproof.errors import MalformedInput, missing_extra
from ruleproof.model.api import CHANCE, TERMINAL, GameState, RulesGame, RulesState
from ruleproof.properties.conformance.games import EXPANSION_KEY, PRESET_KEY, model_of
from ruleproof.properties.conformance.jsonsafe import TraceError
from ruleproof.properties.conformance.replay import replay
from ruleproof.properties.conformance.trace import dump_lines, header_object, parse_trace
from ruleproof.system.outputs import Target, write_file

PROB_TOLERANCE = 1e-9


@dataclass(frozen=True)
class Divergence:
    """The first difference between the model and the target.

    Attributes:
        step: actions applied before it was seen (0: in the initial state).
        kind: ``terminal``, ``player``, ``legal``, ``chance``, ``returns`` or ``error``.
        model: what the model says (text). target: what the target says (text).
        actions: the action ids applied, in order (chance outcomes included).
        seed: the deal seed (PettingZoo) or the search seed of the game.
        target_player: the target's current player there (a seat, ``CHANCE`` or
            ``TERMINAL``; None if it was not asked: an ``error`` before it).
        target_legal: the target's legal action ids there (None if not asked).
        target_returns: the target's returns there (kind ``returns`` only).
    """

    step: int
    kind: str
    model: str
    target: str
    actions: tuple[int, ...]
    seed: int
    target_player: int | None = None
    target_legal: tuple[int, ...] | None = None
    target_returns: tuple[float, ...] | None = None

    def describe(self) -> str:
        """One line: where and what."""
        return (f"step {self.step}: {self.kind} differs: model {self.model}; "
                f"target {self.target}")


@dataclass
class ConformResult:
    """What a run found: ``divergence`` (None: none found), games and steps compared,
    ``unchecked`` games cut short at a chance node resolved inside a PettingZoo environment,
    and the saved trace path."""

    games: int = 0
    steps: int = 0
    unchecked: int = 0
    divergence: Divergence | None = None
    shrunk_from: int | None = None
    trace: Path | None = None
    notes: list[str] = field(default_factory=list)


# ----------------------------------------------------------------------------- targets


def _call_factory(spec: str, factory: Any) -> Any:
    """``factory()`` for a target given as a game or environment factory; anything it raises
    (it is the user's code) is bad input, not a crash of ours."""
    try:
        return factory()
    except (Exception, SystemExit) as err:
        raise MalformedInput(f"{spec}: calling it to make the game failed: "
                             f"{type(err).__name__}: {err}") from None


def load_object(spec: str) -> Any:
    """The object named by ``MODULE:NAME``. Raises MalformedInput."""
    if ":" not in spec:
        raise MalformedInput(f"target {spec!r} is not MODULE:NAME")
    module_name, _, attr = spec.rpartition(":")
    try:
        if module_name.endswith(".py"):
            path = Path(module_name)
            if not path.is_file():
                raise MalformedInput(f"no such file {module_name}")
            loaded = importlib.util.spec_from_file_location(path.stem, path)
            assert loaded is not None and loaded.loader is not None
            module = importlib.util.module_from_spec(loaded)
            sys.modules[path.stem] = module
            loaded.loader.exec_module(module)
        else:
            if "" not in sys.path and "." not in sys.path:
                sys.path.insert(0, "")
            module = importlib.import_module(module_name)
    except MalformedInput:
        raise
    except (Exception, SystemExit) as err:
        why = missing_extra(err) if isinstance(err, ImportError) else " ".join(str(err).split())
        raise MalformedInput(f"cannot import {module_name!r}: {type(err).__name__}: "
                             f"{why}") from None
    if not attr or not hasattr(module, attr):
        raise MalformedInput(f"module {module_name} has no {attr!r}")
    return getattr(module, attr)


class Side:
    """One target driven in lock step: ``reset(seed)``, ``apply(id)``, and the observed
    ``player()``, ``terminal()``, ``legal()``, ``chance()``, ``returns()``."""

    def reset(self, seed: int) -> None:
        raise NotImplementedError

    def apply(self, action_id: int) -> None:
        raise NotImplementedError

    def player(self) -> int:
        raise NotImplementedError

    def terminal(self) -> bool:
        raise NotImplementedError

    def legal(self) -> list[int]:
        raise NotImplementedError

    def chance(self) -> list[tuple[int, float]] | None:
        """Chance outcomes with probabilities, or None if the target does not show them."""
        return None

    def shape(self) -> tuple[int | None, int | None]:
        """The target's (number of players, number of distinct action ids), None where it
        does not say."""
        return None, None

    def returns(self) -> list[float]:
        raise NotImplementedError


class SpielSide(Side):
    """An OpenSpiel game: starts at ``new_initial_state()`` (the deal as chance nodes)."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.state: Any = None

    def reset(self, seed: int) -> None:
        self.state = self.game.new_initial_state()

    def apply(self, action_id: int) -> None:
        self.state.apply_action(int(action_id))

    def player(self) -> int:
        p = int(self.state.current_player())
        return TERMINAL if p < 0 and p != CHANCE else p

    def terminal(self) -> bool:
        return bool(self.state.is_terminal())

    def legal(self) -> list[int]:
        if self.state.is_chance_node():
            return sorted(int(o) for o, _ in self.state.chance_outcomes())
        return sorted(int(a) for a in self.state.legal_actions())

    def chance(self) -> list[tuple[int, float]] | None:
        return sorted((int(o), float(p)) for o, p in self.state.chance_outcomes())

    def returns(self) -> list[float]:
        return [float(r) for r in self.state.returns()]

    def shape(self) -> tuple[int | None, int | None]:
        return int(self.game.num_players()), int(self.game.num_distinct_actions())


class ZooSide(Side):
    """A PettingZoo AEC environment: ``reset(seed)`` deals; seats are ``possible_agents``."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.totals: dict[str, float] = {}

    def reset(self, seed: int) -> None:
        self.env.reset(seed=seed)
        self.totals = dict.fromkeys(self.env.possible_agents, 0.0)
        self._collect()

    def _collect(self) -> None:
        for agent, reward in self.env.rewards.items():
            self.totals[agent] = self.totals.get(agent, 0.0) + float(reward)

    def apply(self, action_id: int) -> None:
        self.env.step(int(action_id))
        self._collect()

    def _done(self) -> bool:
        env = self.env
        return not env.agents or all(env.terminations.get(a, False) or env.truncations.get(a, False)
                                     for a in env.agents)

    def player(self) -> int:
        if self._done():
            return TERMINAL
        return int(self.env.possible_agents.index(self.env.agent_selection))

    def terminal(self) -> bool:
        return self._done()

    def legal(self) -> list[int]:
        if self._done():
            return []
        obs = self.env.observe(self.env.agent_selection)
        mask = obs.get("action_mask") if isinstance(obs, dict) else None
        if mask is None:
            mask = self.env.infos.get(self.env.agent_selection, {}).get("action_mask")
        if mask is None:
            raise MalformedInput("the environment shows no action mask (observation or info)")
        return [i for i, m in enumerate(list(mask)) if m]

    def returns(self) -> list[float]:
        return [self.totals.get(a, 0.0) for a in self.env.possible_agents]

    def shape(self) -> tuple[int | None, int | None]:
        agents = list(self.env.possible_agents)
        try:
            actions = int(self.env.action_space(agents[0]).n) if agents else None
        except Exception:  # a space without a count: not said
            actions = None
        return len(agents), actions


def check_shape(game: RulesGame, side: Side, target: str) -> None:
    """Refuse a target that cannot be the model's game as set up: another number of players
    or of distinct action ids (another game, or the same game at another size: every step
    would diverge, which is a usage error, not a finding).

    Raises:
        MalformedInput: naming both counts.
    """
    players, actions = side.shape()
    if players is not None and players != game.num_players:
        raise MalformedInput(f"{target} plays {players} players; the model {game.name} is set "
                             f"up for {game.num_players} (--players)")
    if actions is not None and actions != game.num_distinct_actions:
        raise MalformedInput(f"{target} has {actions} distinct actions; the model {game.name} "
                             f"as set up has {game.num_distinct_actions}: another game or size "
                             "(--game, -P, --option)")


@contextlib.contextmanager
def _native_stderr_muted() -> Iterator[None]:
    """File descriptor 2 pointed at the null device for the block (native code writes there
    directly; what it says is in the exception it raises as well)."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def openspiel_side(spec: str) -> SpielSide:
    """Load an OpenSpiel target ``MODULE:GAME``, or a game registered with OpenSpiel by its
    name (``kuhn_poker``; ruleproof's own games as ``python_<package>``). Raises
    MalformedInput."""
    try:
        import pyspiel
    except ImportError:
        raise MalformedInput('--openspiel needs open_spiel (pip install ".[openspiel]" from the '
                             "clone)") from None
    if ":" not in spec:
        import ruleproof.interop.openspiel  # noqa: F401 - registers python_<package> games
    obj = load_object(spec) if ":" in spec else spec
    if isinstance(obj, str):
        if obj.split("(")[0] not in pyspiel.registered_names():
            raise MalformedInput(f"{spec}: OpenSpiel has no game {obj!r} (pyspiel."
                                 "registered_names(); or give MODULE:GAME)")
        try:
            with _native_stderr_muted():  # OpenSpiel prints its error before raising it
                obj = pyspiel.load_game(obj)
        except Exception as err:
            raise MalformedInput(f"{spec}: OpenSpiel cannot load the game {obj!r}: "
                                 f"{' '.join(str(err).split())[:200]}") from None
    elif not isinstance(obj, pyspiel.Game) and callable(obj):
        obj = _call_factory(spec, obj)
    if not hasattr(obj, "new_initial_state"):
        raise MalformedInput(f"{spec} is not an OpenSpiel game")
    return SpielSide(obj)


def pettingzoo_side(spec: str) -> ZooSide:
    """Load a PettingZoo target ``MODULE:ENV``. Raises MalformedInput."""
    obj = load_object(spec)
    env = _call_factory(spec, obj) if callable(obj) and not hasattr(obj, "agent_iter") else obj
    if not hasattr(env, "agent_iter") or not hasattr(env, "possible_agents"):
        raise MalformedInput(f"{spec} is not a PettingZoo AEC environment")
    return ZooSide(env)


# ----------------------------------------------------------------------------- the driver


def _fmt_chance(outcomes: list[tuple[int, float]]) -> str:
    return "{" + ", ".join(f"{o}: {p:.6g}" for o, p in outcomes) + "}"


def _compare(state: RulesState, side: Side, step: int, done: list[int],
             seed: int) -> Divergence | None:
    """The first difference in this position (with what the target reported), or None."""
    def found(kind: str, model: str, target: str, *, player: int | None = None,
              legal: list[int] | None = None,
              returns: list[float] | None = None) -> Divergence:
        return Divergence(step, kind, model, target, tuple(done), seed, player,
                          None if legal is None else tuple(legal),
                          None if returns is None else tuple(returns))

    if state.is_terminal() != side.terminal():
        return found("terminal", str(state.is_terminal()), str(side.terminal()),
                     player=side.player())
    if state.is_terminal():
        ours, theirs = state.returns(), side.returns()
        if len(ours) != len(theirs) or any(abs(a - b) > 1e-6 for a, b in
                                           zip(ours, theirs, strict=False)):
            return found("returns", str(ours), str(theirs), player=TERMINAL, returns=theirs)
        return None
    if state.current_player() != side.player():
        return found("player", str(state.current_player()), str(side.player()),
                     player=side.player())
    ours_legal, theirs_legal = state.legal_actions(), side.legal()
    if ours_legal != theirs_legal:
        extra = sorted(set(theirs_legal) - set(ours_legal))
        missing = sorted(set(ours_legal) - set(theirs_legal))
        return found("legal", f"{len(ours_legal)} actions, target lacks "
                     f"{_names(state, missing)}",
                     f"{len(theirs_legal)} actions, extra {_names(state, extra)}",
                     player=state.current_player(), legal=theirs_legal)
    if state.current_player() == CHANCE:
        theirs_chance = side.chance()
        if theirs_chance is not None:
            ours_chance = [(o, float(p)) for o, p in state.chance_outcomes()]
            if len(ours_chance) != len(theirs_chance) or any(
                    o1 != o2 or abs(p1 - p2) > PROB_TOLERANCE
                    for (o1, p1), (o2, p2) in zip(ours_chance, theirs_chance, strict=False)):
                return found("chance", _fmt_chance(ours_chance), _fmt_chance(theirs_chance),
                             player=CHANCE, legal=theirs_legal)
    return None


def _names(state: RulesState, ids: list[int]) -> str:
    game = state.game
    player = state.current_player()
    shown = []
    for i in ids[:4]:
        try:
            shown.append(f"{i} ({game.action_to_string(player, i)})")
        except MalformedInput:
            shown.append(str(i))
    more = f" and {len(ids) - 4} more" if len(ids) > 4 else ""
    return "[" + ", ".join(shown) + more + "]"


def _start(game: RulesGame, framework: str, seed: int) -> RulesState:
    return game.new_seeded_state(seed) if framework == "pettingzoo" else game.new_initial_state()


def play(game: RulesGame, side: Side, framework: str, seed: int, actions: list[int] | None,
         rng: random.Random | None, max_steps: int) -> tuple[Divergence | None, list[int], bool]:
    """Run one game in lock step: the given ``actions`` (replay) or random ones from ``rng``.

    Returns (divergence or None, actions applied, whether the game was cut at an unchecked
    chance node). An exception of the target counts as a divergence of kind ``error``.
    """
    state = _start(game, framework, seed)
    done: list[int] = []
    try:
        side.reset(seed)
    except Exception as err:  # the target's own failure is a finding, not a crash of ours
        return Divergence(0, "error", "reset", f"{type(err).__name__}: {err}", (), seed), done, \
            False
    step = 0
    while True:
        if framework == "pettingzoo" and state.current_player() == CHANCE:
            return None, done, True  # the environment resolved this draw itself
        try:
            found = _compare(state, side, step, done, seed)
        except Exception as err:
            found = Divergence(step, "error", "query", f"{type(err).__name__}: {err}",
                               tuple(done), seed)
        if found is not None:
            return found, done, False
        if state.is_terminal() or step >= max_steps:
            return None, done, False
        if actions is not None:
            if step >= len(actions):
                return None, done, False
            action = actions[step]
        else:
            assert rng is not None
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                action = rng.choices([o for o, _ in outcomes],
                                     weights=[float(p) for _, p in outcomes])[0]
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
        state = state.apply(action)
        done.append(action)
        try:
            side.apply(action)
        except Exception as err:
            return Divergence(step + 1, "error", "accepts the action",
                              f"{type(err).__name__}: {err}", tuple(done), seed), done, False
        step += 1


def _valid(game: RulesGame, framework: str, seed: int, actions: list[int]) -> bool:
    state = _start(game, framework, seed)
    for a in actions:
        if state.is_terminal() or a not in state.legal_actions():
            return False
        if framework == "pettingzoo" and state.current_player() == CHANCE:
            return False
        state = state.apply(a)
    return True


def shrink(game: RulesGame, make_side: Callable[[], Side], framework: str,
           found: Divergence, budget: float) -> Divergence:
    """Delta debugging over ``found.actions``: drop chunks while the rest is a legal game of
    the model and the replay still diverges (any kind); within ``budget`` seconds."""
    best = found
    actions = list(found.actions)
    deadline = time.monotonic() + budget
    chunk = max(1, len(actions) // 2)
    while chunk >= 1 and time.monotonic() < deadline:
        i = 0
        progressed = False
        while i < len(actions) and time.monotonic() < deadline:
            candidate = actions[:i] + actions[i + chunk:]
            if _valid(game, framework, found.seed, candidate):
                div, _, _ = play(game, make_side(), framework, found.seed, candidate, None,
                                 len(candidate) + 1)
                if div is not None and div.step <= len(candidate):
                    best = div
                    actions = list(div.actions)
                    progressed = True
                    continue
            i += chunk
        if not progressed:
            chunk //= 2
    return best


def _header_options(game: RulesGame) -> dict[str, str]:
    """The rule options of ``game`` as a trace header holds them (preset and expansion
    under their keys, :func:`~ruleproof.properties.conformance.trace.header_object`)."""
    params = game.params
    opts = {str(k): str(v).lower() if isinstance(v, bool) else str(v)
            for k, v in dict(params.get("options") or {}).items()}
    if params.get("preset") is not None:
        opts[PRESET_KEY] = str(params["preset"])
    if params.get("expansion") is not None:
        opts[EXPANSION_KEY] = str(params["expansion"])
    return opts


def _setup_of(game: RulesGame, state: RulesState) -> dict[str, Any]:
    """The explicit trace set-up of a state just after the opening chance nodes (the game's
    conformance capability writes it).

    Raises:
        MalformedInput: an unknown game or one without the ``conformance`` capability.
    """
    return model_of(game.name).spec.setup_json(cast(GameState, state))


def _recorded(framework: str, target: str, divergence: Divergence) -> dict[str, Any]:
    """The divergence as a recorded failure of the target (for what no trace field holds)."""
    return {"engine_failure": f"{framework} target {target}: {divergence.describe()}"}


def _facts(game: RulesGame, state: RulesState, divergence: Divergence) -> dict[str, Any] | None:
    """What the target reported in the diverging position, as trace expectations
    (``state``/``legal``), or None where no trace field holds it (chance probabilities,
    errors)."""
    def seat(player: int) -> int | str | None:
        return None if player == TERMINAL else "chance" if player == CHANCE else player

    if divergence.kind in ("terminal", "player") and divergence.target_player is not None:
        target = divergence.target_player
        if target not in (TERMINAL, CHANCE) and not 0 <= target < game.num_players:
            return None  # no seat of this game: recorded as the target's failure
        return {"state": {"to_move": seat(target)}}
    if divergence.kind == "legal" and divergence.target_legal is not None:
        player = state.current_player()
        try:
            return {"legal": [game.action_to_string(player, a)
                              for a in divergence.target_legal]}
        except MalformedInput:
            return None  # an id outside the action table: no action string to record
    if divergence.kind == "returns" and divergence.target_returns:
        best = max(divergence.target_returns)
        top = [i for i, r in enumerate(divergence.target_returns) if r == best]
        return {"state": {"winner": top[0] if len(top) == 1 else None}}
    return None


def trace_objects(game: RulesGame, framework: str, target: str,
                  divergence: Divergence) -> list[dict[str, Any]]:
    """The divergence as the lines of a ``ruleproof replay`` trace (JSON objects).

    The header names the target in ``engine`` (``FRAMEWORK:MODULE:NAME``) and the divergence
    in ``note``. PettingZoo: the header's ``seed`` is the ``reset`` seed (the model side
    started from ``new_seeded_state(seed)``, the trace's seeded deal). OpenSpiel: the opening
    chance nodes (the deal; Dracula's action-card draws) become the explicit ``setup``, the
    later actions step lines (a later chance node a step line without ``player``). What the
    target reported where it diverged is recorded on the last line (or the header) as the
    trace facts replay checks: the player to move (``state.to_move``), the legal actions
    (``legal``), the winner its returns name (``state.winner``); what no trace field holds
    (chance probabilities, an exception of the target, a divergence inside the deal) as a
    recorded ``engine_failure``. The trace is replayed before it is returned: if replay would
    not report a divergence from the recorded facts, they are replaced by the recorded failure,
    so a saved trace never replays as conforming.

    Raises:
        MalformedInput: a game outside the trace format (cannot happen for the registry's games).
    """
    actions = list(divergence.actions)
    state = _start(game, framework, divergence.seed)
    header_start: dict[str, Any]
    steps: list[dict[str, Any]] = []
    deal_done = True
    used = 0
    if framework == "pettingzoo":
        header_start = {"seed": divergence.seed}
    else:
        while used < len(actions) and state.current_player() == CHANCE:
            state = state.apply(actions[used])
            used += 1
        deal_done = state.current_player() != CHANCE
        header_start = ({"setup": _setup_of(game, state)} if deal_done
                        else {"seed": divergence.seed})
    if deal_done:
        for a in actions[used:]:
            player = state.current_player()
            line: dict[str, Any] = {"step": len(steps) + 1}
            if player >= 0:
                line["player"] = player
            line["action"] = game.action_to_string(player, a)
            steps.append(line)
            state = state.apply(a)
        facts = _facts(game, state, divergence) or _recorded(framework, target, divergence)
    else:
        facts = {"engine_failure": (
            f"{framework} target {target} diverged inside the deal (after the chance outcomes "
            f"{actions}), which a set-up cannot hold: {divergence.describe()}")}
    header = header_object(game.name, game.num_players, _header_options(game),
                           engine=f"{framework}:{target}",
                           note=f"nonconforming: {divergence.describe()}", **header_start)
    objects = [header, *steps]
    objects[-1] = {**objects[-1], **facts}
    try:
        conforms = replay(parse_trace(dump_lines(objects), file="<interop trace>")).conforms
    except TraceError:
        conforms = True  # a fact the trace cannot hold in this game: record it instead
    if conforms:
        objects[-1] = {k: v for k, v in objects[-1].items() if k not in facts}
        objects[-1].update(_recorded(framework, target, divergence))
    return objects


def save_trace(path: Path, game: RulesGame, framework: str, target: str,
               divergence: Divergence) -> None:
    """Write the divergence as a trace ``ruleproof replay`` reads (JSON Lines, the
    ``ruleproof-trace`` format; see :func:`trace_objects`). Replaying it reports the
    divergence (exit 1).

    The file is written whole or not at all, and only a regular file is replaced
    (:func:`ruleproof.system.outputs.write_file`).

    Raises:
        MalformedInput: the path is a symbolic link, FIFO, device or folder, or its folder is
            missing.
        OutputFailed: the file cannot be written (a full disk...), naming the path.
    """
    write_file(Target(path, "--out", "trace"),
               dump_lines(trace_objects(game, framework, target, divergence)))


def conform_target(game: RulesGame, framework: str, target: str, *, games: int = 20,
                   seed: int = 0, budget: float = 30.0, max_steps: int = 3000,
                   shrink_budget: float | None = None, out: Path | None = None,
                   make_side: Callable[[], Side] | None = None) -> ConformResult:
    """Search for a divergence of ``target`` from ``game`` with up to ``games`` random games
    (or until ``budget`` seconds pass), shrink it and save its trace to ``out``.

    Raises:
        MalformedInput: the target cannot be loaded.
    """
    if make_side is None:
        if framework == "openspiel":
            loaded: Side = openspiel_side(target)
        elif framework == "pettingzoo":
            loaded = pettingzoo_side(target)
        else:
            raise MalformedInput(f"unknown framework {framework!r}")
        check_shape(game, loaded, target)

        def make_side() -> Side:
            return loaded

    result = ConformResult()
    rng = random.Random(seed)
    deadline = time.monotonic() + budget
    for n in range(games):
        if n and time.monotonic() > deadline:
            result.notes.append(f"budget of {budget}s used after {n} games")
            break
        game_seed = seed * 100_003 + n
        div, done, cut = play(game, make_side(), framework, game_seed, None, rng, max_steps)
        result.games += 1
        result.steps += len(done)
        result.unchecked += cut
        if div is not None:
            result.shrunk_from = len(div.actions)
            result.divergence = shrink(game, make_side, framework, div,
                                       budget / 2 if shrink_budget is None else shrink_budget)
            if out is not None:
                save_trace(out, game, framework, target, result.divergence)
                result.trace = out
            break
    if result.steps == 0:
        raise MalformedInput("no step was compared: the target ended at once or no game ran")
    return result


__all__ = ["ConformResult", "Divergence", "SpielSide", "ZooSide", "check_shape", "conform_target",
           "load_object", "openspiel_side", "pettingzoo_side", "play", "save_trace", "shrink",
           "trace_objects"]
