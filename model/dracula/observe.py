"""What one side may know: :func:`observation`, and the readable game log :func:`simulate`."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ruleproof.model import CHANCE

from .data import CardSet, Side
from .engine import (
    Action,
    Move,
    State,
    Stop,
    apply,
    current_player,
    is_terminal,
    legal_actions,
    new_game,
    phase,
    resolve_chance,
)
from .rules import DraculaRules, Edge


@dataclass(frozen=True)
class Observation:
    """Everything ``player`` may know in a state, with perfect recall.

    Public: figures, barriers, life markers, turned card, captured targets and discard piles
    (face up, dracula-en:enemy.win, dracula-en:target.capture), played action cards, hand and pile
    sizes, which locations are empty, the pending step, turn data and the result.
    Private to ``player``: own encounter hand, own current and set-aside action cards, own cards
    in the deal pool, the cards ``player`` knows at each location, and the log lines ``player``
    saw (own looks, hands shown to him, Perception, Deception draws).
    """

    player: int
    to_move: int
    pending: str
    pending_n: int
    pending_colours: tuple[str, ...]
    turn: int
    active: int
    steps: int
    can_look: bool
    revealed: tuple[int, str] | None
    played: str | None
    use_special: bool
    pos: tuple[int, int]
    barriers: tuple[Edge | None, ...]
    life: tuple[int, int]
    turned: int | None
    breath_turn: int
    whisper_turn: int
    vigilance: bool
    captured: tuple[tuple[str, ...], tuple[str, ...]]
    enc_discard: tuple[tuple[str, ...], tuple[str, ...]]
    adiscard: tuple[tuple[str, ...], tuple[str, ...]]
    own_hand: tuple[str, ...]
    own_current: tuple[str, ...]
    own_aside: tuple[str, ...]
    own_pool: tuple[str, ...]
    other_sizes: tuple[int, int, int]
    pool_size: int
    empty: tuple[bool, ...]
    known: tuple[str | None, ...]
    winner: int | None
    log: tuple[str, ...]


def observation(s: State, player: int | Side) -> Observation:
    """The observation of ``player`` (0 Dracula, 1 Van Helsing) in ``s``.

    Returns a frozen :class:`Observation`; two states with equal observations for the player
    to move must have equal legal actions (checked in ``ruleproof.properties.dracula``).
    """
    p = int(player)
    o = 1 - p
    head = s.agenda[0] if s.agenda and s.winner is None else None
    revealed = None
    if s.revealed is not None:
        card = s.board_cards[s.revealed]
        assert card is not None
        revealed = (s.revealed, card)
    mine = s.cards.encounter_of(Side(p))
    return Observation(
        player=p, to_move=current_player(s), pending=phase(s),
        pending_n=head.n if head else 0, pending_colours=head.colours if head else (),
        turn=s.turn, active=s.active, steps=s.steps, can_look=s.can_look, revealed=revealed,
        played=s.played, use_special=s.use_special, pos=s.pos, barriers=s.barriers, life=s.life,
        turned=s.turned, breath_turn=s.breath_turn, whisper_turn=s.whisper_turn,
        vigilance=s.vigilance, captured=s.captured, enc_discard=s.enc_discard,
        adiscard=s.adiscard, own_hand=s.hand[p], own_current=s.current[p], own_aside=s.aside[p],
        own_pool=tuple(c for c in s.pool if c in mine),
        other_sizes=(len(s.hand[o]), len(s.current[o]), len(s.aside[o])),
        pool_size=len(s.pool), empty=tuple(c is None for c in s.board_cards),
        known=s.known[p], winner=s.winner,
        log=tuple(e.seen[p] for e in s.log if e.seen[p]))


def sensible_choice(s: State, rng: random.Random) -> Action:
    """A random legal action, avoiding pointless overpayment: once the move is as long as the
    best current action card allows, the random player stops or looks."""
    options = legal_actions(s)
    if phase(s) == "move" and s.steps >= 1:
        best = max((s.cards.act(c).move for c in s.current[s.active]), default=0)
        if s.steps >= best or rng.random() < 0.3:
            calm = [a for a in options if not isinstance(a, Move)]
            if calm:
                return calm[rng.randrange(len(calm))]
        looks = [a for a in options if not isinstance(a, Move | Stop)]
        if looks and rng.random() < 0.5:
            return looks[rng.randrange(len(looks))]
    return options[rng.randrange(len(options))]


def play_random(seed: int, max_steps: int, cards: CardSet | None = None,
                rules: DraculaRules | None = None) -> list[State]:
    """All states of one random game from ``seed`` (secret choices included), at most
    ``max_steps`` player actions; chance outcomes come from the state's seed."""
    rng = random.Random(seed)
    s = new_game(seed, rules=rules, cards=cards)
    states = [s]
    n = 0
    while not is_terminal(s) and n < max_steps:
        if current_player(s) == CHANCE:
            s = resolve_chance(s)
        else:
            s = apply(s, sensible_choice(s, rng))
            n += 1
        states.append(s)
    return states


def simulate(seed: int, full_view: bool, max_steps: int, rules: DraculaRules | None = None,
             cards: CardSet | None = None) -> list[str]:
    """A random-play game log in the game's terms, ending with the result.

    With ``full_view`` every line shows everything; otherwise each line shows only what one side
    may see and is labelled ``[Dracula]`` or ``[Van Helsing]``. ``rules`` and ``cards`` default
    to the shipped data. Same seed, same output (deterministic across processes: only seeded
    ``random.Random`` and sorted collections).
    """
    return log_lines(play_random(seed, max_steps, cards, rules)[-1], full_view, max_steps)


def log_lines(final: State, full_view: bool, max_steps: int) -> list[str]:
    """The log of a game that ended in ``final`` (its persistent log), each side's view or
    everything, ending with the result (see :func:`simulate`)."""
    lines: list[str] = []
    for e in final.log:
        if full_view:
            lines.append(e.full)
        else:
            for p in (0, 1):
                if e.seen[p]:
                    lines.append(f"[{Side(p).label}] {e.seen[p]}")
    if final.winner is None:
        lines.append(f"No winner after {max_steps} steps.")
    elif not final.log[-1].full.startswith(Side(final.winner).label + " wins"):
        lines.append(f"{Side(final.winner).label} wins: {final.reason}")
    return lines
