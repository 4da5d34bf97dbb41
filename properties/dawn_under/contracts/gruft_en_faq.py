"""Contracts of the expansion's FAQ ("Frequently Asked Questions" of gruft-en), written from its
two answers alone: the part ``gruft-en:faq`` (clause ids ``gruft-en:faq.*``), compared with
the expansion's chapters (and the base rules they sit on) by discovery's ``chapters`` search.

The first answer is one "No" to a question in two parts ("Am I allowed to open a grave that
holds the Count Rucola figure or one of my bats, and does the rat on the reverse side of its
lid cause a plague?"); its explanation speaks only of the rat, so the contract names both
readings: the "No" is about the plague only, or it also says such a grave is not opened.

Only the state vocabulary of du-en's module is shared (small helpers, no contract).
"""

from __future__ import annotations

from typing import Any

from ruleproof.model.dawn_under.gruft.rules import count_in_play
from ruleproof.model.dawn_under.gruft.state import Believe, Doubt, GruftPhase, PlayBat
from ruleproof.model.dawn_under.state import Config, OpenGrave, State
from ruleproof.properties.contracts.core import Alternative, Contract, ContractSet
from ruleproof.properties.dawn_under.contracts.du_en import G, _alias

S = State
A = Any


def gruft(cfg: Config) -> bool:
    return cfg.options.expansion == "gruft"


def count_on(cfg: Config) -> bool:
    """The expansion with the Count in play (a reduced configuration may leave it in the box:
    then the Count's FAQ answer has nothing to speak about)."""
    return gruft(cfg) and count_in_play(cfg)


def _count_grave(s: S) -> int | None:
    return G(s).count_grave


def _opens_count_grave(s: S, a: A) -> bool:
    g = _count_grave(s)
    return g is not None and isinstance(a, OpenGrave) and a.grave == g


def _bat_grave_opened(s: S, a: A) -> int | None:
    """The grave under a bat, when ``a`` settles the bat's claim (a doubt or the last belief)
    and the grave is opened."""
    bat = G(s).bat
    if bat is None or s.phase is not GruftPhase.BAT:
        return None
    if isinstance(a, Doubt) or (isinstance(a, Believe)
                                and len(bat.believed) + 1 == s.config.players - 1):
        return int(bat.grave)
    return None


def _no_plague(s: S, a: A, t: S) -> bool | None:
    """The reverse side of such a grave's lid has no significance: opening it starts no plague
    and does not turn the lid."""
    g = a.grave if _opens_count_grave(s, a) else _bat_grave_opened(s, a)
    if g is None:
        return None
    fresh = t.plague is None or (s.plague is not None and t.plague == s.plague) or (
        s.plague is not None and t.plague.origin == s.plague.origin)
    return fresh and t.known[g] == s.known[g]


def _not_opened_forbids(s: S, a: A) -> bool:
    """Reading 'not-opened': "Am I allowed to open a grave that holds the Count Rucola figure
    ...? No." -- nobody opens the Count's grave (nor a grave under one's bat)."""
    return _opens_count_grave(s, a) or (isinstance(a, PlayBat) and a.grave == _count_grave(s))


def _count_plague_forbids(s: S, a: A) -> bool:
    """"Am I allowed to open the grave that holds the Count Rucola figure during a plague? No,
    even if the post is in front of you.\""""
    return s.plague is not None and _opens_count_grave(s, a)


C = Contract
CONTRACTS = ContractSet(
    source="gruft-en",
    part="faq",
    contracts=(
        C("gruft-en:faq.rat-ignored", requires=_no_plague, applies=gruft,
          what="the rat under the Count's or a bat's grave causes no plague",
          alternatives=(
              Alternative("no-plague",
                          what="the 'No' says only that the rat causes no plague"),
              Alternative("not-opened", forbids=_not_opened_forbids,
                          what="the 'No' also says such a grave is not opened")),
          question="The FAQ answers one 'No' to 'Am I allowed to open a grave that holds the "
                   "Count Rucola figure or one of my bats, and does the rat on its lid cause a "
                   "plague?'. Is opening the Count's grave (at the start of the holder's turn, "
                   "as the chapter says) not allowed, or does the 'No' only mean no plague?"),
        C("gruft-en:faq.count-plague", forbids=_count_plague_forbids, applies=count_on,
          what="nobody opens the Count's grave during a plague, not even its holder"),
    ),
    uncovered={},
    alias=_alias,
)
"""The part ``gruft-en:faq``: the expansion's FAQ as a contract set of its own."""
