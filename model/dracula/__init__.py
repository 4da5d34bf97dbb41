"""Dracula (Kosmos 2003, M. Rieneck): a two-player hidden-information model.

API (all pure; states are frozen):

* :func:`new_game` ``(seed, rules=None, cards=None, board=None) -> State``
* :func:`legal_actions`, :func:`apply` (raises IllegalAction), :func:`is_terminal`,
  :func:`winner`, :func:`current_player`, :func:`observation`, :func:`resolve_chance`
* :func:`simulate` ``(seed, full_view, max_steps) -> list[str]``
* :func:`load_cards` ``(path) -> CardSet`` (raises MalformedInput)
* :func:`assumed_values` ``() -> list[tuple[str, str, str]]``
* the game on the one interface: :class:`ruleproof.model.dracula.game.DraculaGame`.

Modules: :mod:`.engine` (the state machine: legal actions, apply, automatic steps; re-exports
the actions and the state), one module per rule area (:mod:`.setup`, :mod:`.moving`,
:mod:`.meetings`, :mod:`.cards`, :mod:`.specials`, :mod:`.ending`), :mod:`.state` (the frozen
state and its persistent log), :mod:`.actions`, :mod:`.rules` (options and the rule functions
shared with the z3 proofs), :mod:`.data` (cards and board), :mod:`.observe`, :mod:`.notation`.

Clauses: dracula-en:objective.goal, dracula-en:objective.early.
"""

from __future__ import annotations

from dataclasses import fields

from ruleproof.spec import _read_toml, spec_path

from .data import (
    ActionCard,
    Board,
    CardSet,
    EncounterCard,
    Kind,
    Side,
    default_board,
    default_cards,
    load_board,
    load_cards,
)
from .engine import (
    CHANCE_KINDS,
    TERMINAL,
    Action,
    State,
    apply,
    current_player,
    is_terminal,
    legal_actions,
    new_game,
    phase,
    resolve_chance,
    winner,
)
from .observe import Observation, observation, play_random, sensible_choice, simulate
from .rules import DraculaRules, option_names, rules_from_mapping

__all__ = [
    "CHANCE_KINDS", "TERMINAL", "Action", "ActionCard", "Board", "CardSet",
    "DraculaRules", "EncounterCard", "Kind", "Observation", "Side", "State", "apply",
    "assumed_values", "current_player", "default_board", "default_cards", "is_terminal",
    "legal_actions", "load_board", "load_cards", "new_game", "observation", "option_names",
    "phase", "play_random", "resolve_chance", "rules_from_mapping", "sensible_choice",
    "simulate", "winner",
]


# Choices the model makes where neither the rulebook nor a public source says anything and
# that are not (yet) rule options. (what, value, why)
_MODEL_ASSUMPTIONS: tuple[tuple[str, str, str], ...] = (
    ("card backs", "identical for both decks",
     "whose card lies at a location is learned only by looking (dracula-en:look.own-card)"),
    ("resolution time of a revealed card", "after the action card is paid",
     "Inspiration and Dark of Night change the outcome, so it must wait for the card "
     "(dracula-en:pay.then-functions)"),
    ("life markers after a gift", "at most the 4 a side owns",
     "only 4 markers per side exist (dracula-en:contents.components)"),
    ("gift timing", "on one's own move/pay decisions, and when the last marker is at stake",
     "'at any time' (dracula-en:early-end.give-target) is modelled as the owner's decisions plus "
     "a rescue decision before the last marker goes"),
    ("hand proof at a meeting", "counts for both sides; the mover wins a tie",
     "both sides see both hands (dracula-en:meet.reveal-hands, dracula-en:end.simultaneous)"),
    ("stuck figure", "may end a move of 0 steps if no step is possible",
     "dracula-en:move.minimum cannot be met when walled in by a barrier and a turned card"),
    ("Wings of Night / Roar / Reinforcement landing", "no meeting, no look",
     "these are not steps of a move (dracula-en:special.wings-of-night)"),
    ("Resistance target", "any location", "dracula-en:special.resistance names no restriction"),
    ("Eyes", "move the yellow barrier, then one barrier of another colour",
     "player aid: 'move the yellow barrier and one other'"),
    ("Whisper of Night", "Van Helsing may not place or move a barrier in his next turn",
     "inferred from dracula-en:special.whisper-of-night"),
    ("Breath of Night", "+1 to vampires Van Helsing meets (and draws with Deception) in his "
     "next turn", "player aid and dracula-en:special.breath-of-night"),
    ("Pulse", "take one beaten vampire back from the discard pile into the hand", "player aid"),
    ("Deception strength", "a drawn vampire is fought at strength 1",
     "dracula-en:special.deception: strength 1 no effect, 2 or 3 costs a marker"),
    ("action-card reshuffle", "5 drawn at random as current, the rest set aside",
     "dracula-en:cards.cycle"),
    ("terminal player index", str(TERMINAL), "current_player once the game is over"),
)


def assumed_values() -> list[tuple[str, str, str]]:
    """Every assumed value: card and board data marked ``assumed``, rule-option defaults and
    model choices, as (what, value, why) triples in a fixed order."""
    out: list[tuple[str, str, str]] = []
    for v in (*default_board().values, *default_cards().values):
        if v.provenance == "assumed":
            out.append((v.what, v.value, v.source))
    data, _ = _read_toml(spec_path("dracula", "ambiguities.toml"))
    by_option = {a["option"]: a for a in data.get("ambiguity", [])}
    defaults = DraculaRules()
    for f in fields(DraculaRules):
        amb = by_option.get(f.name)
        if amb is None:  # first_player: the rulebook's default (dracula-en:play.first-player)
            continue
        why = f"{amb['id']}: {amb['why_default']}"
        value = getattr(defaults, f.name)
        out.append((f"rule option {f.name}", str(value).lower() if isinstance(value, bool)
                    else str(value), why))
    out.extend(_MODEL_ASSUMPTIONS)
    return out
