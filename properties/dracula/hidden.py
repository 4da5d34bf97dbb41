"""Hidden information: resample what a side cannot know, keeping its observation.

Used to check that the legal actions of the side to move depend only on its observation
(dracula-en:setup.secret-choice, dracula-en:setup.deal, dracula-en:look.own-card).
"""

from __future__ import annotations

import random
from dataclasses import replace

from ruleproof.model.dracula.engine import State


def resample(s: State, player: int, rng: random.Random) -> State:
    """A state that differs from ``s`` only in what ``player`` cannot know: the cards at
    locations it has no knowledge of, the opponent's hand and secret deal-pool cards, the split
    of the opponent's unplayed action cards, and the chance seed."""
    o = 1 - player
    owner = {c.id: int(c.owner) for c in s.cards.encounter}
    unknown = [loc for loc, c in enumerate(s.board_cards)
               if c is not None and s.known[player][loc] is None and loc != s.revealed]
    opp_pool = [c for c in s.pool if owner[c] == o]
    cards = [s.board_cards[loc] for loc in unknown]
    pool_cards = [c for c in cards if c is not None] + list(s.hand[o]) + opp_pool
    opp = [c for c in pool_cards if owner[c] == o]
    rng.shuffle(opp)
    nh = len(s.hand[o])
    new_hand = tuple(sorted(opp[:nh]))
    new_opp_pool = opp[nh:nh + len(opp_pool)]
    taken = set(new_hand) | set(new_opp_pool)
    rest = [c for c in pool_cards if c not in taken]
    rng.shuffle(rest)
    board = list(s.board_cards)
    for loc, c in zip(unknown, rest, strict=True):
        board[loc] = c
    hand = (new_hand, s.hand[1]) if o == 0 else (s.hand[0], new_hand)
    pool = tuple(sorted([c for c in s.pool if owner[c] == player] + new_opp_pool))
    unplayed = [*s.current[o], *s.aside[o]]
    rng.shuffle(unplayed)
    nc = len(s.current[o])
    cur = tuple(sorted(unplayed[:nc]))
    aside = tuple(sorted(unplayed[nc:]))
    current = (cur, s.current[1]) if o == 0 else (s.current[0], cur)
    asides = (aside, s.aside[1]) if o == 0 else (s.aside[0], aside)
    return replace(s, board_cards=tuple(board), hand=hand, pool=pool, current=current,
                   aside=asides, seed=rng.randrange(2**31))
