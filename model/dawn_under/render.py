"""Readable logs of Dawn Under games, in the rulebook's terms."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ruleproof.model.dawn_under.engine import deal, initial_state, legal_actions, step
from ruleproof.model.dawn_under.state import (
    RAT,
    Action,
    Config,
    Event,
    EventKind,
    GarlicIn,
    Phase,
    Row,
    State,
    VampireIn,
)


def player_name(player: int, names: Sequence[str] | None = None) -> str:
    """``names[player]`` if given, else ``P1``, ``P2``... (1-based for readers)."""
    if names and player < len(names):
        return names[player]
    return f"P{player + 1}"


def lid_name(config: Config, lid: int | None) -> str:
    """``green lid``, ``rat lid`` or ``no lid``."""
    if lid is None:
        return "no lid"
    return "rat lid" if lid == RAT else f"{config.colours[lid]} lid"


def colour_initials(config: Config) -> tuple[str, ...]:
    """One distinct capital letter per colour (first letter, else last): ``R Y W B G K``."""
    out: list[str] = []
    for name in config.colours:
        for ch in (name[0], name[-1], *name[1:-1]):
            if ch.upper() not in out:
                out.append(ch.upper())
                break
        else:
            out.append(str(len(out)))
    return tuple(out)


def row_text(config: Config, row: Row) -> str:
    """A row as colour initials, face-down vampires as ``.``: ``G Y . . R B``."""
    initials = colour_initials(config)
    return " ".join(initials[v.colour] if v.face_up else "." for v in row)


def event_text(state: State, event: Event, names: Sequence[str] | None = None) -> str:
    """One event as a sentence (``state`` is the state *before* the transition)."""
    cfg = state.config
    who = player_name(event.player, names)
    g = event.grave
    colour = cfg.colours[event.value] if event.value is not None and \
        0 <= event.value < len(cfg.colours) else ""  # stake events carry a count, not a colour
    k = event.kind
    if cfg.expansion is not None:
        text = cfg.expansion.event_text(state, event, names)
        if text is not None:
            return text
    if k is EventKind.REVEAL:
        assert g is not None
        quarter = cfg.board.quarters[cfg.board.quarter_of[g]]
        content = state.contents[g]
        inside = ("empty" if content is None else
                  f"a {cfg.colours[content.colour]} vampire inside"
                  if isinstance(content, VampireIn) else
                  f"garlic of {player_name(content.owner, names)} inside"
                  if isinstance(content, GarlicIn) else "")
        if event.value == RAT:
            inside = "RAT"
        return f"{who} opens grave {g} ({quarter}): {lid_name(cfg, event.value)}, {inside}."
    if k is EventKind.PLACE_VAMPIRE:
        return f"{who} puts a {colour} vampire to rest in grave {g}."
    if k is EventKind.PLACE_GARLIC:
        return f"{who} puts garlic into grave {g}."
    if k is EventKind.LEAVE_EMPTY:
        return f"{who} leaves grave {g} empty."
    if k is EventKind.STAKE:
        return f"{who} takes a wooden stake (now holds {event.value})."
    if k is EventKind.STAKES_BACK:
        return f"{who} collected the third stake: the stakes go back to the path; gift time!"
    if k is EventKind.GARLIC_BACK:
        return f"{who} takes the garlic back out of grave {g}."
    if k is EventKind.GIVE:
        return f"{who} hands over a {colour} vampire."
    if k is EventKind.RECEIVE:
        return f"{who} puts the received {colour} vampire face up into the row."
    if k is EventKind.PLAGUE_START:
        return f"RAT PLAGUE at grave {g}! {who} has the rat lid and starts."
    if k is EventKind.PLAGUE_PASS:
        return f"{who} stops turning lids in the plague."
    if k is EventKind.PLAGUE_END:
        return f"The rat plague of grave {g} ends; its grave gets a lid from the reserve."
    if k is EventKind.RAT_HANDED_OVER:
        return (f"{who} started the plague and found the new rat too: it goes to "
                f"{player_name(event.value or 0, names)}.")
    if k is EventKind.STOP:
        return f"{who} ends the turn."
    if k is EventKind.TURN:
        return f"-- {who}'s turn."
    return f"*** {who} has no vampires left and WINS! ***"


@dataclass(frozen=True)
class Played:
    """A played game: the set-up state, actions, final state and the log lines."""

    initial: State
    actions: tuple[Action, ...]
    final: State
    log: tuple[str, ...]


def setup_log(state: State, seed: int, names: Sequence[str] | None = None) -> list[str]:
    """The first lines of a game's log: the seed, the player count, the legend of the row
    notation, every row, who starts."""
    config = state.config
    log = [f"Set-up (seed {seed}): {config.players} players; rows:"]
    legend = ", ".join(f"{i} {name}" for i, name in zip(colour_initials(config), config.colours,
                                                          strict=True))
    log.append(f"  (each row left end to right end: {legend}; . a face-down vampire)")
    for p, row in enumerate(state.rows):
        log.append(f"  {player_name(p, names)}: {row_text(config, row)}")
    log.append(f"-- {player_name(state.turn_player, names)}'s turn.")
    return log


def step_log(before: State, events: Sequence[Event], after: State,
             names: Sequence[str] | None = None) -> list[str]:
    """The log lines of one transition: each event as a sentence (no turn line once the game
    is over) and, at a new turn, that player's row."""
    log: list[str] = []
    for event in events:
        if event.kind is EventKind.TURN and after.phase is Phase.OVER:
            continue
        log.append(event_text(before, event, names))
        if event.kind is EventKind.TURN:
            log.append(f"   row of {player_name(event.player, names)}: "
                       f"{row_text(before.config, after.rows[event.player])}")
    return log


def result_log(final: State, actions: int, max_steps: int,
               names: Sequence[str] | None = None) -> str:
    """The last line of a game's log: the winner, or no winner at the step cap."""
    if final.winner is None:
        return f"No winner after {actions} actions (step cap {max_steps})."
    return f"Winner: {player_name(final.winner, names)} after {actions} actions."


def play_random(config: Config, seed: int, max_steps: int = 100_000,
                names: Sequence[str] | None = None) -> Played:
    """Deal with ``seed`` and play uniformly random legal actions until the game ends.

    The same seed gives the same game in any process (only ``random.Random(seed)`` is used).
    """
    rng = random.Random(seed)
    state = initial_state(config, deal(config, rng))
    start = state
    log = setup_log(state, seed, names)
    actions: list[Action] = []
    while state.phase is not Phase.OVER and len(actions) < max_steps:
        legal = legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        new, events = step(state, action)
        actions.append(action)
        log += step_log(state, events, new, names)
        state = new
    log.append(result_log(state, len(actions), max_steps, names))
    return Played(start, tuple(actions), state, tuple(log))
