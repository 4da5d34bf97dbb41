"""The checks the clause contracts add to ``ruleproof check`` (properties/suite.py), for every
game whose plugin has the capability ``"contracts"``: refinement (every transition satisfies the
clause contracts of its sources) per contract rule set, and in each game's shared group the
endless-games search and perfect recall on the rule set the game names.
"""

from __future__ import annotations

from ruleproof.properties.contracts.games import Recall, RuleSet, contracts_of
from ruleproof.properties.contracts.refinement import refinement_property
from ruleproof.properties.endless import endless_property
from ruleproof.properties.plugin import plugin
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


def recall_check(name: str, recall: Recall) -> Check:
    """Perfect recall of what ``recall`` reads, searched on rule set ``name``
    (properties/recall.py)."""
    from ruleproof.properties.recall import recall_property

    def run(profile: Profile) -> tuple[bool, int, str]:
        return recall_property(name, recall.info(),
                               max(recall.least, profile.games // recall.per_games),
                               every=recall.every, depth=recall.depth)

    return Check(f"perfect recall of the {recall.what} ({name})", "search", run)


def refinement_checks(rule_set: RuleSet) -> list[Check]:
    """The refinement property of each contract rule set the game ties to ``rule_set`` (none
    for a game without contracts)."""
    cap = contracts_of(plugin(rule_set.game))
    if cap is None:
        return []
    return [refinement_check(rs) for rs in cap.refinement_rule_sets(rule_set)]


ENDLESS = "endless games"
RECALL = "perfect recall"


def shared_checks(game: str) -> list[Check]:
    """The endless-games search and perfect recall of ``game``'s shared group (none for a
    game without contracts or without a searched rule set)."""
    return shared_plan(game)[0]


def shared_plan(game: str) -> tuple[list[Check], list[tuple[str, str]]]:
    """:func:`shared_checks`, and ``(property, reason)`` for each of the two that does not
    run for ``game`` (:data:`ENDLESS`, :data:`RECALL`): what its plugin record lacks."""
    cap = contracts_of(plugin(game))
    if cap is None or not cap.searched_rule_set:
        why = (f"{game} has no contracts capability" if cap is None else
               f"{game}'s contracts capability names no searched rule set")
        return [], [(ENDLESS, why), (RECALL, why)]
    out = [endless_check(cap.searched_rule_set)]
    if cap.recall is None:
        return out, [(RECALL, f"{game}'s contracts capability gives no recall (what an "
                              "information state reads)")]
    out.append(recall_check(cap.searched_rule_set, cap.recall))
    return out, []
