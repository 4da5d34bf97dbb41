"""PettingZoo AEC environments of every registered game (needs the ``[pettingzoo]`` extra).

::

    from ruleproof.interop.pettingzoo import env
    e = env(NAME, players=4, render_mode="ansi")   # NAME: a registered game, its parameters
    e.reset(seed=1)                                 # the set-up of new_seeded_state(1)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else int(obs["action_mask"].nonzero()[0][0])
        e.step(action)

Agents are ``player_0`` .. ``player_{n-1}`` (seat order, the plugin's seat names in
``seat_names``). Observations: ``{"observation": float32[n], "action_mask":
int8[num_distinct_actions]}`` (layout and action table: docs/interop.md); the mask is all zero
for an agent that is not to move. Rewards arrive at the end: the game's returns (winner +1,
others -1/(n-1); 0 each when truncated). ``reset(seed)`` deals ``new_seeded_state(seed)``;
chance nodes later in the game (draws during play) are sampled from the environment's generator,
seeded by ``reset``. An illegal action raises :class:`ruleproof.errors.IllegalAction`.

:func:`env` wraps the raw environment as PettingZoo's classic environments do (order
enforcing, out-of-bounds check and, in the game's turn order, an illegal move ending the game
as a loss for the mover: ``TerminateIllegalWrapper`` with the game's lowest return);
:func:`raw_env` is the bare :class:`RulesEnv`. ``metadata["name"]`` names the game and its
configuration (e.g. ``dawn_under_players-4_v0``). ``render_mode="human"`` prints the table,
``"ansi"`` returns it. Dict observations make PettingZoo's ``api_test`` warn "Observation is not
a NumPy array" (it warns for every dict-observation environment not on its own list);
docs/interop.md explains it and pytest filters it (pyproject.toml).

Turn order: by default the agent selected is the player to move (the game decides; one agent
may act several times in a row). With ``max_cycles=N`` the environment runs in *cycles*: every
agent is selected once per cycle in seat order, an action of an agent that is not to move, or
an illegal one, changes nothing (a wait), and the game is truncated after ``N`` cycles; this is
the form :func:`parallel_env` and PettingZoo's ``max_cycles_test`` need. A game that ends in
the middle of a cycle ends for every agent when the cycle is complete (the agents after the
last mover wait), so a parallel step never sends an action to a finished agent.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import aec_to_parallel

from ruleproof.model.api import CHANCE, RulesGame, RulesState
from ruleproof.properties.plugin import make_game, plugins


class RulesEnv(AECEnv):  # type: ignore[misc]
    """An AEC environment over a ruleproof game (see the module docstring).

    Args:
        game: a registered game's name (:func:`ruleproof.properties.plugin.make_game`; an
            unknown name is refused, naming the known games), or a game object.
        render_mode: None, ``"human"`` (``render()`` prints the table) or ``"ansi"``
            (returns it as text).
        max_cycles: None (turn order of the game) or the cycle bound (cycle mode).
        **params: the game's parameters (its plugin's parameter model).

    Attributes:
        seat_names: per agent, the seat's name in the game (its plugin's; ``P1``.. for a game
            the registry does not know).
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"],  # noqa: RUF012
                                "name": "ruleproof_v0", "is_parallelizable": True}
    """The class's; every instance has its own, named for its game and configuration."""

    def __init__(self, game: str | RulesGame, render_mode: str | None = None,
                 max_cycles: int | None = None, **params: Any) -> None:
        super().__init__()
        self.game: RulesGame = make_game(game, **params) if isinstance(game, str) else game
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.metadata = {**RulesEnv.metadata, "name": env_name(self.game.name, params)}
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        n = self.game.num_players
        self.possible_agents = [f"player_{p}" for p in range(n)]
        known = plugins().get(game if isinstance(game, str) else self.game.name)
        seat = known.seat_name if known is not None else (lambda p: f"P{p + 1}")
        self.seat_names = {f"player_{p}": seat(p) for p in range(n)}
        self.agents = list(self.possible_agents)
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        self._n_actions = self.game.num_distinct_actions
        (self._obs_size,) = self.game.observation_tensor_shape
        obs_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, 1.0, (self._obs_size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self._n_actions,), np.int8)})
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: gymnasium.spaces.Discrete(self._n_actions)
                              for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self.state_: RulesState = self.game.new_seeded_state(0)
        self._cycle_steps = 0
        self._memo: dict[Any, Any] = {}
        self._rewarded = False
        self._arrays: dict[int, tuple[list[int], np.ndarray[Any, Any]]] = {}
        self._base: np.ndarray[Any, Any] = np.zeros(self._obs_size, np.float32)
        self._masks: dict[tuple[int, ...], np.ndarray[Any, Any]] = {}  # legal ids -> mask
        self._parts = hasattr(self.state_, "observation_index_parts")
        self._fast = hasattr(self.state_, "observation_indices") and \
            hasattr(self.state_, "legal_ids_unsorted")

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- AEC ------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal ``new_seeded_state(seed)`` (a seed drawn from the generator when None)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            deal_seed = int(seed)
        else:
            deal_seed = int(self._rng.integers(0, 2**31 - 1))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._cycle_steps = 0
        self._memo = {}  # sections of the observation, by tuple identity
        self._rewarded = False  # some reward is not zero (only at the end of a game)
        self._arrays = {}  # section k -> (its list, as a numpy index array)
        self._base = np.zeros(self._obs_size, np.float32)  # the sections of self._arrays set
        self.state_ = self._settle(self.game.new_seeded_state(deal_seed))
        self.agent_selection = self._select()

    def _settle(self, state: RulesState) -> RulesState:
        """Sample chance nodes from the environment's generator (exact probabilities)."""
        while state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            probs = np.array([float(p) for _, p in outcomes])
            pick = int(self._rng.choice(len(outcomes), p=probs / probs.sum()))
            state = state.apply(outcomes[pick][0])
        return state

    def _select(self) -> str:
        if self.max_cycles is not None:
            return self.possible_agents[self._cycle_steps % len(self.possible_agents)]
        p = self.state_.current_player()
        return self.possible_agents[p] if p >= 0 else self.possible_agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        p = self._seat[agent]
        state = self.state_
        if self._parts:
            # section 0 (counters, flags) is new each time; the others (graves, rows) are
            # kept set in self._base and updated only where a section changed
            parts = state.observation_index_parts(p, self._memo)  # type: ignore[attr-defined]
            cache = self._arrays
            if cache and len(cache) != len(parts) - 1:  # another shape of sections: start over
                cache.clear()
                self._base = np.zeros(self._obs_size, np.float32)
            base = self._base
            for k in range(1, len(parts)):
                part = parts[k]
                hit = cache.get(k)
                if hit is None or hit[0] is not part:
                    if hit is not None:
                        base[hit[1]] = 0.0
                    hit = cache[k] = (part, np.array(part, np.intp))
                    base[hit[1]] = 1.0
            obs = base.copy()
            obs[parts[0]] = 1.0
        elif self._fast:
            obs = np.zeros(self._obs_size, np.float32)
            obs[state.observation_indices(p, self._memo)] = 1.0  # type: ignore[attr-defined]
        else:
            obs = np.array(state.observation_tensor(p), np.float32)
        if state.current_player() == p:
            ids = (state.legal_ids_unsorted() if self._fast  # type: ignore[attr-defined]
                   else state.legal_actions())
            key = tuple(ids)
            cached = self._masks.get(key)
            if cached is None:
                if len(self._masks) > 4096:  # a bounded cache of the masks seen
                    self._masks.clear()
                cached = self._masks[key] = np.zeros(self._n_actions, np.int8)
                cached[ids] = 1
            mask = cached.copy()
        else:
            mask = np.zeros(self._n_actions, np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        state = self.state_
        seat = self._seat[agent]
        if self.max_cycles is None:
            assert action is not None, "a live agent must act"
            state = state.apply(int(action))
            cp = state.current_player()
            if cp == CHANCE:
                state = self._settle(state)
                cp = state.current_player()
            self.state_ = state
            if cp >= 0:  # the game goes on: no rewards before the end
                if self._rewarded:
                    self._clear_rewards()
                self.agent_selection = self.possible_agents[cp]
                return
        else:
            if state.current_player() == seat and action is not None \
                    and int(action) in state.legal_actions():
                self.state_ = state = self._settle(state.apply(int(action)))
            self._cycle_steps += 1
        if state.is_terminal() and self.max_cycles is not None and \
                self._cycle_steps % len(self.possible_agents):
            # cycle mode: the game ended in the middle of a cycle; the agents after the mover
            # wait until the cycle is complete (a parallel step sends every agent an action)
            self._clear_rewards()
            self.agent_selection = self._select()
            self._accumulate_rewards()
            return
        if state.is_terminal():
            returns = state.returns()
            truncated = state.is_truncated()
            for a in self.agents:
                self.rewards[a] = returns[self._seat[a]]
                self.terminations[a] = not truncated
                self.truncations[a] = truncated
            self._rewarded = True
        else:
            self._clear_rewards()
            if self.max_cycles is not None and \
                    self._cycle_steps >= self.max_cycles * len(self.possible_agents):
                for a in self.agents:
                    self.truncations[a] = True
        self.agent_selection = self._select()
        self._accumulate_rewards()

    def _clear_rewards(self) -> None:
        for a in self.agents:
            self.rewards[a] = 0.0
        self._rewarded = False

    def render(self) -> str | None:
        """The table as text, the observation of the agent selected: returned
        (``render_mode="ansi"``) or printed (``"human"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without render_mode; use render_mode='human' or "
                                  "'ansi'")
            return None
        text = (f"{self.state_!r}\n"
                f"{self.state_.observation_string(self._seat[self.agent_selection])}")
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def env_name(game: str, params: dict[str, Any]) -> str:
    """``metadata["name"]`` of an environment: the game and its parameters, ``_v0``
    (``dracula_v0``, ``dawn_under_players-4_v0``)."""
    parts = [game.replace("-", "_")]
    parts += [f"{k}-{v}".replace("_", "-").replace(" ", "") for k, v in sorted(params.items())
              if v not in (None, "")]
    return "_".join([*parts, "v0"])


def raw_env(game: str | RulesGame, **kwargs: Any) -> RulesEnv:
    """The bare AEC environment (see :class:`RulesEnv`)."""
    return RulesEnv(game, **kwargs)


def env(game: str | RulesGame, **kwargs: Any) -> Any:
    """The AEC environment wrapped as PettingZoo's classic environments are: an illegal move
    ends the game as a loss for its mover (the game's lowest return; in the game's turn
    order only: in cycle mode an illegal action is a wait), then the out-of-bounds check and
    order enforcing. Attributes of :class:`RulesEnv` (``seat_names``, ``state_``, ...) read
    through the wrappers; ``env.unwrapped`` is the raw environment."""
    raw = RulesEnv(game, **kwargs)
    wrapped: Any = raw
    if raw.max_cycles is None:
        wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=raw.game.min_utility)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def parallel_env(game: str | RulesGame, max_cycles: int = 1000,
                 **kwargs: Any) -> Any:
    """A parallel environment: the cycle mode of :class:`RulesEnv` (every agent acts once per
    step; only the player to move's legal action changes the game)."""
    return aec_to_parallel(RulesEnv(game, max_cycles=max_cycles, **kwargs))


__all__ = ["RulesEnv", "env", "env_name", "parallel_env", "raw_env"]
