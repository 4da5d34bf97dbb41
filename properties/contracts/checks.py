"""The checks this package adds to ``ruleproof check``: refinement (every transition satisfies
the clause contracts of its sources) and endless games, as :class:`Check` objects per rule set.
Functions the integrator can call directly: :func:`refinement_check`, :func:`endless_check`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ruleproof.properties.contracts.games import GRUFT_DROPS, RuleSet, rule_set
from ruleproof.properties.contracts.refinement import refinement_property
from ruleproof.properties.endless import endless_property
from ruleproof.properties.report import Check, Outcome, Profile


def refinement_check(rs: RuleSet) -> Check:
    """"every transition satisfies the clause contracts of <sources>" for one rule set."""
    def run(profile: Profile) -> Outcome:
        return refinement_property(rs, max(2, profile.games // 2), min(profile.max_steps, 800))

    # seeded random games (random.Random per game), not hypothesis: "sampled"
    return Check(f"every transition satisfies the clause contracts of {'+'.join(rs.sources)} "
                 f"({rs.name})", "sampled", run)


def endless_check(name: str) -> Check:
    """Cycles searched, endings reachable from sampled states, game lengths (one rule set)."""
    def run(profile: Profile) -> tuple[bool, int, str]:
        return endless_property(name, max(2, profile.games // 3))

    return Check(f"endless games: cycles, endings reachable, lengths ({name})", "search", run)


def recall_checks() -> list[tuple[str, Check]]:
    """Perfect recall of the information states of both games (properties/recall.py)."""
    from ruleproof.properties.recall import information_state, recall_property

    return [("dawn-under", Check("perfect recall of the information state (du-en/4)", "search",
                                 lambda p: recall_property("du-en/4", information_state,
                                                           max(1, p.games // 12)))),
            ("dracula", Check("perfect recall of the observation (dracula)", "search",
                              lambda p: recall_property("dracula", information_state,
                                                        max(2, p.games // 4))))]


def suite_checks(game: str, preset: str, options: Sequence[tuple[str, str]],
                 players: Sequence[int], shared: bool) -> list[Check]:
    """The checks this package adds to one rule set of ``ruleproof check`` (properties/suite.py):
    refinement against the clause contracts for each player count of a shipped Dawn Under rule
    set (only the expansion may be added to a preset: other options are readings the contracts
    do not state) and for Dracula's default rules; endless games and perfect recall in each
    game's shared group."""
    if shared:
        names = ("du-en/4",) if game == "dawn-under" else ("dracula",)
        return [endless_check(n) for n in names] + [c for g, c in recall_checks() if g == game]
    if game == "dracula":
        return [refinement_check(rule_set("dracula"))] if not options else []
    extra = dict(options)
    if set(extra) - {"expansion"}:
        return []
    gruft = extra.get("expansion") == "gruft"
    sources = ("du-cs",) if preset == "du-cs" else ("du-en",)
    out = []
    for n in players:
        name = f"{preset}{' + gruft' if gruft else ''}/{n}"
        rs = RuleSet("dawn-under", name, preset, tuple(sorted(extra.items())), (n,),
                     sources=(*sources, "gruft-en") if gruft else sources,
                     drop=GRUFT_DROPS if gruft else ())
        out.append(refinement_check(rs))
    return out
