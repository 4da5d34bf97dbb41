"""The one game interface, checked: a public conformance function for any :class:`RulesGame`.

:func:`api_test` plays random games through the interface (ids only, as a framework would) and
checks what every implementation owes its users, whatever the game (after pgx's ``api_test``
and OpenSpiel's ``random_sim_test``):

* ``current_player()`` is a seat, CHANCE or TERMINAL, and TERMINAL exactly when
  ``is_terminal()``;
* legal action ids are sorted, distinct and inside the game's id space; at a chance node they are
  the ids of ``chance_outcomes()``, whose exact probabilities are positive and sum to 1;
* every legal id round-trips: id -> typed action (one of ``legal_typed_actions()``) -> id, and
  id -> string -> id;
* ``apply`` returns a new state and leaves the old one as it was (strings and tensors equal);
  an id that is not legal raises IllegalAction and leaves the state as it was;
* observation and information-state tensors have the declared shapes, for every seat;
* a game never takes more than ``max_game_length`` decisions nor ``max_chance_nodes`` chance
  nodes; at the end ``returns()`` has a value per seat and sums to 0 (the documented zero-sum
  scheme).

Games start both from the chance nodes (``new_initial_state``) and from seeded set-ups, so both
paths are exercised. A run that plays no game fails.
"""

from __future__ import annotations

import random
from fractions import Fraction

from ruleproof.errors import IllegalAction
from ruleproof.model.api import CHANCE, TERMINAL, RulesGame, RulesState


def _snapshot(state: RulesState, players: int) -> tuple[object, ...]:
    """What must not change when a state is used: its strings and tensors for every seat."""
    return (state.current_player(), tuple(state.legal_actions()),
            tuple(state.information_state_string(p) for p in range(players)),
            tuple(tuple(state.observation_tensor(p)) for p in range(players)))


def _size(shape: tuple[int, ...]) -> int:
    total = 1
    for n in shape:
        total *= n
    return total


def check_state(game: RulesGame, state: RulesState, rng: random.Random) -> str | None:
    """The per-state obligations; a one-line reason when one is broken, else None."""
    n = game.num_players
    player = state.current_player()
    terminal = state.is_terminal()
    if terminal != (player == TERMINAL):
        return f"is_terminal() is {terminal} but current_player() is {player}"
    if not (player in (CHANCE, TERMINAL) or 0 <= player < n):
        return f"current_player() {player} is neither a seat, CHANCE nor TERMINAL"
    legal = state.legal_actions()
    if terminal:
        if legal:
            return f"a terminal state lists legal actions {legal[:5]}"
        returns = state.returns()
        if len(returns) != n or abs(sum(returns)) > 1e-9:
            return f"returns {returns} are not one value per seat summing to 0"
        low, high = game.min_utility, game.max_utility
        if any(not low - 1e-9 <= r <= high + 1e-9 for r in returns):
            return f"returns {returns} leave the game's declared range {low}..{high}"
        return None
    if not legal:
        return "a non-terminal state has no legal action (a dead end)"
    if legal != sorted(set(legal)):
        return f"legal action ids are not sorted and distinct: {legal[:8]}"
    space = game.max_chance_outcomes if player == CHANCE else game.num_distinct_actions
    if legal[0] < 0 or legal[-1] >= space:
        return f"legal ids {legal[0]}..{legal[-1]} leave the id space 0..{space - 1}"
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        if [a for a, _ in outcomes] != legal:
            return "chance_outcomes() ids differ from legal_actions()"
        if any(not isinstance(p, Fraction) or p <= 0 for _, p in outcomes):
            return "a chance outcome has a probability that is not a positive Fraction"
        if sum(p for _, p in outcomes) != 1:
            return f"chance probabilities sum to {sum(p for _, p in outcomes)}, not 1"
    else:
        typed = set(state.legal_typed_actions())
        for a in rng.sample(legal, min(len(legal), 8)):
            action = game.id_to_action(a)
            if action not in typed:
                return f"id {a} maps to {action}, which is not a legal typed action"
            if game.action_to_id(action) != a:
                return f"id {a} -> {action} -> id {game.action_to_id(action)}"
            text = game.action_to_string(player, a)
            if game.string_to_action(player, text) != a:
                return f"id {a} -> {text!r} -> another id"
    for p in range(n):
        if len(state.observation_tensor(p)) != _size(game.observation_tensor_shape):
            return f"observation tensor of seat {p} does not have shape " \
                   f"{game.observation_tensor_shape}"
        if getattr(game, "provides_information_state_tensor", True) and \
                len(state.information_state_tensor(p)) != _size(game.information_state_tensor_shape):
            return f"information-state tensor of seat {p} does not have shape " \
                   f"{game.information_state_tensor_shape}"
    return None


def api_test(game: RulesGame, games: int, seed: int = 0) -> tuple[bool, int, str, int, int]:
    """Play ``games`` random games through the interface and check every obligation of the
    module docstring on every state. Even games start from the chance nodes, odd ones from a
    seeded set-up.

    Returns:
        (passed, states checked, detail, games, decisions): detail names the game, the step
        and the broken obligation on failure.
    """
    rng = random.Random(f"api-test/{game.name}/{seed}")
    checked = decisions = played = 0
    n = game.num_players
    for g in range(games):
        state = game.new_initial_state() if g % 2 == 0 else game.new_seeded_state(seed + g)
        start = "chance nodes" if g % 2 == 0 else f"seeded set-up {seed + g}"
        moves = chance = 0
        played += 1
        while True:
            reason = check_state(game, state, rng)
            checked += 1
            where = f"{game.name} game {g} ({start}), after {moves} decisions"
            if reason:
                return False, checked, f"{where}: {reason}", played, decisions
            if state.is_terminal():
                break
            legal = state.legal_actions()
            if state.current_player() == CHANCE:
                chance += 1
                ids, weights = zip(*state.chance_outcomes(), strict=True)
                action = rng.choices(ids, weights=[float(w) for w in weights])[0]
            else:
                moves += 1
                action = rng.choice(legal)
                illegal = next((i for i in (legal[-1] + 1, legal[0] - 1)
                                if 0 <= i < game.num_distinct_actions and i not in legal), None)
                if illegal is not None and rng.random() < 0.05:
                    kept = _snapshot(state, n)
                    try:
                        state.apply(illegal)
                        return False, checked, f"{where}: illegal id {illegal} was applied", \
                            played, decisions
                    except IllegalAction:
                        if _snapshot(state, n) != kept:
                            return False, checked, f"{where}: a refused id changed the state", \
                                played, decisions
            before = _snapshot(state, n) if rng.random() < 0.05 else None
            successor = state.apply(action)
            if before is not None and _snapshot(state, n) != before:
                return False, checked, f"{where}: apply({action}) changed the old state", \
                    played, decisions
            state = successor
            if moves > game.max_game_length or chance > game.max_chance_nodes:
                return False, checked, (f"{where}: over max_game_length {game.max_game_length} "
                                        f"or max_chance_nodes {game.max_chance_nodes}"), \
                    played, decisions
        decisions += moves
    return played > 0, checked, (f"{played} games through the interface ({decisions} decisions, "
                                 f"{checked} states): every obligation held"), played, decisions
