"""Dracula's part of discovery (capability ``"discovery"``, :data:`DISCOVERY`, a
:class:`~ruleproof.properties.contracts.discovery.DiscoveryGame`): what the clause contracts of
dracula-en leave open, searched by the generic searches (legality gaps, effect perturbations,
cycles).

* **Action space** (:func:`questions`): every candidate of the kind of decision the pending
  step asks for, legal or not -- a step to each of the 12 locations, a look, a stop, every
  target given away; showing hands or not; laying each card of either hand; paying with each
  of the side's ten action cards, with and without its special; every barrier colour on every
  border, or none; every target of the special in force (each location, each figure, each
  action card, each beaten enemy).
* **Situations** in keys: the pending step and the side (``move/dracula``), the special in
  force for its choice (``special-choice:pulse/dracula``), the first step of a move
  (``move-start``), a revealed card awaiting payment (``pay-revealed``).
* **Targets** in keys: what the action is aimed at in the rules' terms (a neighbour or not,
  across a barrier, the turned card; an own or an opponent's card; a current action card or
  not; a barrier colour the card does not show, a border taken, a border meeting another
  barrier at a corner or opposite it at one location...).
* **Perturbations** of a successor (:func:`perturbations`): the other side moves next, the
  move ends or goes on, a life marker more or fewer for either side, a target captured or
  not, a card learnt by its looker only or by both, the played card kept or discarded, the
  special used or not, the barrier or the figure left where it was, the winner changed.
* **Explanation** by the register (spec/dracula/ambiguities.toml): an entry whose clauses
  meet the finding's and whose other reading (its rule option), applied to the witness state,
  changes what the finding is about.
* One text (no translation); the cycle key ``cycle dracula``; no z3 query here (the symbolic
  layer proves its laws); witnesses in the scenario format (a seed, the actions).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.properties.contracts.discovery import Budget, Finding, Perturbation, kind_of
from ruleproof.properties.plugin import RuleSet

NAME = "dracula"

DEFAULT_RULE_SETS = ("dracula",)
"""The rule sets discovery searches unless told otherwise."""


def _head(s: Any) -> str:
    return s.agenda[0].kind if s.agenda and s.winner is None else "over"


def _side_name(side: int) -> str:
    return "dracula" if side == 0 else "van-helsing"


def _edges(s: Any) -> list[tuple[int, int]]:
    b = s.board
    return sorted({(min(a, c), max(a, c)) for a in range(b.size) for c in b.neighbours(a)})


def _own_special(s: Any) -> str | None:
    from ruleproof.model.dracula.state import _special

    return _special(s)


# ----------------------------------------------------------------------------- action space


def questions(s: Any) -> list[Any]:
    """The systematic action space at ``s`` for the decision its pending step asks for."""
    from ruleproof.model.dracula.actions import (
        ACCEPT,
        LOOK,
        MEET_CHOICES,
        SKIP_BARRIER,
        STOP,
        ChooseCard,
        Depths,
        Fly,
        GiveTarget,
        Move,
        Place,
        PlaceBarrier,
        PlayCard,
        Recall,
        Roar,
        TakeBack,
        TurnCard,
    )
    from ruleproof.model.dracula.data import COLOURS, Side

    k = _head(s)
    if k == "over" or not s.agenda:
        return []
    side = s.agenda[0].player
    cards = s.cards
    size = s.board.size
    own_deck = cards.encounter_of(Side(side))
    if k == "choose":
        return [ChooseCard(c) for c in own_deck]
    if k == "move":
        out: list[Any] = [Move(loc) for loc in range(size)]
        out += [LOOK, STOP]
        out += [GiveTarget(c) for c in (*s.hand[side], *s.hand[1 - side])]
        return out
    if k == "meet":
        return list(MEET_CHOICES)
    if k in ("place", "depths-place"):
        return [Place(c) for c in (*s.hand[side], *s.hand[1 - side])]
    if k == "pay":
        out = [PlayCard(c, sp) for c in cards.action_of(Side(side)) for sp in (False, True)]
        out += [GiveTarget(c) for c in s.hand[side]]
        return out
    if k == "rescue":
        return [*(GiveTarget(c) for c in (*s.hand[side], *own_deck)), ACCEPT]
    if k == "special-choice":
        out = [TakeBack(c) for c in cards.action_of(Side(side))]
        out += [Recall(c) for c in (*s.enc_discard[side], *s.hand[side])]
        out += [TurnCard(loc) for loc in range(size)]
        out += [Fly(loc) for loc in range(size)]
        out += [Depths(loc) for loc in range(size)]
        out += [Roar(Side.DRACULA), Roar(Side.VAN_HELSING)]
        return out
    if k == "barrier":
        return [*(PlaceBarrier(c, e) for c in COLOURS for e in _edges(s)), SKIP_BARRIER]
    return []


SLOTS: dict[str, tuple[str, ...]] = {
    "special-choice": ("TakeBack", "Recall", "TurnCard", "Fly", "Depths", "Roar"),
}
"""Within a special's choice only the kinds of action that special takes are compared (a
Fly offered for Pulse is another decision, not a rule question)."""

_SPECIAL_KIND = {"composure": "TakeBack", "pulse": "Recall", "reinforcement": "Recall",
                 "resistance": "TurnCard", "wings-of-night": "Fly",
                 "depths-of-night": "Depths", "roar": "Roar"}


def in_slot(s: Any, a: Any) -> bool:
    """Whether ``a`` is of the kind of decision ``s`` asks for."""
    if _head(s) != "special-choice":
        return True
    return kind_of(a) == _SPECIAL_KIND.get(_own_special(s) or "", "")


def situation(s: Any) -> str:
    """The pending step and the side; the special in force for its choice; the first step of
    a move; a revealed card awaiting payment."""
    k = _head(s)
    if k == "over":
        return "over"
    side = _side_name(s.agenda[0].player)
    if k == "move" and s.steps == 0:
        k = "move-start"
    elif k == "pay" and s.revealed is not None:
        k = "pay-revealed"
    elif k == "special-choice":
        k = f"special-choice:{_own_special(s)}"
    return f"{k}/{side}"


def target(s: Any, a: Any) -> str:
    """What ``a`` is aimed at, in the rules' terms."""
    from ruleproof.model.dracula.actions import (
        Depths,
        Fly,
        GiveTarget,
        Look,
        Move,
        Place,
        PlaceBarrier,
        PlayCard,
        Recall,
        Roar,
        Stop,
        TakeBack,
        TurnCard,
    )
    from ruleproof.model.dracula.data import Kind

    if not s.agenda or s.winner is not None:
        return ""
    side = s.agenda[0].player
    here = s.pos[side]
    if isinstance(a, Move):
        edge = (min(here, a.to), max(here, a.to))
        if a.to not in s.board.neighbours(here):
            return " to a location that is not a neighbour"
        if edge in s.barriers:
            return " across a barrier"
        if a.to == s.turned:
            return " onto the card turned by Resistance"
        if a.to == s.pos[1 - side]:
            return " onto the other figure"
        return " to a neighbour"
    if isinstance(a, Look):
        if s.steps == 0:
            return " at the location the move began"
        if s.board_cards[here] is None:
            return " at an empty location"
        return " again" if not s.can_look else ""
    if isinstance(a, Stop):
        return " before any step" if s.steps == 0 else ""
    if isinstance(a, Place):
        own = a.card in s.hand[side]
        return " an own card" if own else " an opponent's card"
    if isinstance(a, PlayCard):
        c = s.cards.act(a.card)
        where = "a current card" if a.card in s.current[side] else \
            "a set-aside card" if a.card in s.aside[side] else "a played card"
        sp = "" if not a.special else " with a special it does not have" \
            if c.special is None else " with its special"
        return f" {where}{sp}"
    if isinstance(a, GiveTarget):
        if a.card not in s.hand[side]:
            return " a card not in the own hand"
        return " a target" if s.cards.enc(a.card).kind is Kind.TARGET else " a card not a target"
    if isinstance(a, PlaceBarrier):
        colours = s.agenda[0].colours
        if a.colour not in colours:
            return " of a colour the card does not show"
        if a.edge in s.barriers:
            return " onto a border taken"
        from ruleproof.model.dracula.data import COLOURS
        from ruleproof.model.dracula.rules import side_by_side

        ci = COLOURS.index(a.colour)
        lying = [e for i, e in enumerate(s.barriers) if i != ci and e is not None]
        if any(side_by_side(s.board, a.edge, e, "corner") for e in lying):
            return " at a corner with another barrier"
        if any(side_by_side(s.board, a.edge, e, "shared-location") for e in lying):
            return " opposite another barrier at one location"
        return " onto a free border"
    if isinstance(a, TakeBack):
        return (" a current card" if a.card in s.current[side] else
                " a set-aside card" if a.card in s.aside[side] else
                " a played card" if a.card in s.adiscard[side] else " a card")
    if isinstance(a, Recall):
        return " a beaten enemy" if a.card in s.enc_discard[side] else " a card in hand"
    if isinstance(a, Fly | Depths | TurnCard):
        loc = a.loc
        what = "an empty location" if s.board_cards[loc] is None else "a location with a card"
        if loc == s.pos[side]:
            what = "the own figure's location"
        elif loc == s.pos[1 - side]:
            what = "the other figure's location"
        elif loc == s.turned:
            what = "the turned card"
        return f" to {what}"
    if isinstance(a, Roar):
        return " the own figure" if int(a.figure) == side else " the other figure"
    return ""


def why_illegal(s: Any, a: Any) -> tuple[str, ...]:
    """The clause ids the engine names refusing ``a``."""
    from ruleproof.model.dracula.engine import _illegal

    try:
        return tuple(_illegal(s, a).clauses)
    except Exception:  # an action of another kind than the engine's message covers
        return ()


# ----------------------------------------------------------------------------- effects


def _pair(t: tuple[Any, Any], side: int, value: Any) -> tuple[Any, Any]:
    return (value, t[1]) if side == 0 else (t[0], value)


def perturbations(s: Any, a: Any, t: Any) -> Iterator[Perturbation]:
    """Alternatives to the successor ``t`` of ``s --a-->`` (see the module docstring), each
    with the fields it changes."""
    from ruleproof.model.dracula.actions import Look, Move, PlaceBarrier, PlayCard
    from ruleproof.model.dracula.state import Step

    if not s.agenda or s.winner is not None:
        return
    side = s.agenda[0].player
    if t.winner is not None:
        yield ("the other side wins", replace(t, winner=1 - t.winner), ("winner",))
        yield ("nobody wins yet", replace(t, winner=None), ("winner",))
        return
    # who moves next: at a new turn, the other side's turn instead
    if t.turn != s.turn and t.agenda and t.agenda[0].kind == "move":
        other = 1 - t.active
        yield ("the same side moves again" if other == s.active else "the other side moves",
               replace(t, active=other, agenda=(Step("move", other), *t.agenda[1:]),
                       pos=t.pos), ("active",))
    # the move ends or goes on
    if isinstance(a, Move | Look) and _head(s) == "move":
        if t.agenda and t.agenda[0].kind == "move" and t.turn == s.turn:
            yield ("the move ends", replace(t, agenda=(Step("pay", side), *t.agenda[1:])),
                   ("agenda",))
        elif t.agenda and t.agenda[0].kind in ("pay", "meet") and t.turn == s.turn:
            yield ("the move goes on", replace(t, agenda=(Step("move", side), *t.agenda[1:])),
                   ("agenda",))
    # life markers
    for p in (0, 1):
        if t.life[p] != s.life[p]:
            yield ("no life marker lost" if t.life[p] < s.life[p] else "no life marker won",
                   replace(t, life=_pair(t.life, p, s.life[p])), ("life",))
            if t.life[p] > 0:
                yield ("one life marker more lost",
                       replace(t, life=_pair(t.life, p, t.life[p] - 1)), ("life",))
        elif (s.revealed is not None or _head(s) == "meet") and t.life[p] > 0:
            yield ("a life marker is lost",
                   replace(t, life=_pair(t.life, p, t.life[p] - 1)), ("life",))
    # targets captured
    for p in (0, 1):
        if t.captured[p] != s.captured[p]:
            yield ("the target is not captured", replace(t, captured=_pair(
                t.captured, p, s.captured[p])), ("captured",))
    # who sees a card looked at: revealed to both sides, or to the looker only
    if isinstance(a, Look) and _head(s) == "move":
        here = s.pos[side]
        card = s.board_cards[here]
        other = 1 - side
        if card is not None and t.known[other][here] == card and s.known[other][here] != card:
            yield ("the card is shown to the looker only",
                   replace(t, known=_pair(t.known, other, s.known[other])), ("known",))
        elif card is not None and t.known[other][here] != card:
            row = list(t.known[other])
            row[here] = card
            yield ("the card is shown to both sides",
                   replace(t, known=_pair(t.known, other, tuple(row))), ("known",))
    # the card paid with
    if isinstance(a, PlayCard) and _head(s) == "pay":
        yield ("the played card stays current",
               replace(t, current=_pair(t.current, side, tuple(sorted((*t.current[side],
                                                                         a.card)))),
                       adiscard=_pair(t.adiscard, side, tuple(
                           c for c in t.adiscard[side] if c != a.card))),
               ("current", "adiscard"))
        if s.cards.act(a.card).special is not None and any(
                x.kind in ("special", "special-choice") for x in t.agenda):
            yield ("the special is used or not", replace(t, use_special=not t.use_special),
                   ("use_special",))
    # the barrier or the figure left where it was
    if isinstance(a, PlaceBarrier):
        yield ("the barrier stays where it was", replace(t, barriers=s.barriers), ("barriers",))
    if isinstance(a, Move) and t.pos != s.pos:
        yield ("the figure stays", replace(t, pos=s.pos), ("pos",))


# ----------------------------------------------------------------------------- explanation


def _replay(rs: RuleSet, f: Finding) -> Any | None:
    """The engine state before the finding's action (chance settled as in discovery's walk);
    None if the witness does not replay."""
    from ruleproof.model.dracula.engine import apply, resolve_chance
    from ruleproof.properties.contracts.games import game_of, parse

    game = game_of(rs)
    try:
        s = resolve_chance(game.seeded_model(f.seed))
        for text in f.prefix:
            s = resolve_chance(apply(s, parse(game, text)))
        return s
    except (IllegalAction, MalformedInput, ValueError):
        return None


def explain(rs: RuleSet, findings: Sequence[Finding]) -> list[Finding]:
    """Mark each finding with the register entry that poses its question: one whose clauses
    meet the finding's (an effect's: the clauses that read the perturbed fields) and whose
    other reading, applied to the witness state, changes the action's legality (a legality
    finding) or the perturbed fields of the successor (an effect)."""
    from ruleproof.model.dracula.engine import apply
    from ruleproof.model.dracula.rules import rules_from_mapping
    from ruleproof.properties.contracts.games import game_of, parse
    from ruleproof.properties.dracula.ambiguities import register

    out: list[Finding] = []
    for f in findings:
        about = set(f.subject if f.kind == "effect" else f.clauses)
        hit = ""
        s = _replay(rs, f) if about else None
        if s is not None:
            a = parse(game_of(rs), f.action)
            base = _step(apply, s, a)
            for e in register():
                if hit or not about & set(e.clauses):
                    continue
                for r in e.readings:
                    if r.value == _value(s.rules, e.option):
                        continue
                    try:
                        rules = rules_from_mapping({**_options(s.rules), e.option: r.value})
                    except MalformedInput:
                        continue
                    alt = _step(apply, replace(s, rules=rules), a)
                    if _differs(f, base, alt):
                        hit = e.id
                        break
        out.append(f.with_explanation(hit) if hit else f)
    return out


def _options(rules: Any) -> dict[str, Any]:
    from dataclasses import fields

    return {x.name: getattr(rules, x.name) for x in fields(rules)}


def _value(rules: Any, option: str) -> str:
    v = getattr(rules, option)
    return str(v).lower() if isinstance(v, bool) else str(v)


def _step(apply: Any, s: Any, a: Any) -> Any:
    try:
        return apply(s, a)
    except (IllegalAction, AssertionError, IndexError, KeyError, ValueError):
        return None


def _differs(f: Finding, base: Any, alt: Any) -> bool:
    if (alt is None) != (base is None):
        return f.kind != "effect"
    if alt is None or base is None or f.kind != "effect":
        return False
    return any(getattr(base, name) != getattr(alt, name) for name in f.fields)


# ----------------------------------------------------------------------------- witnesses


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def witness(rs: RuleSet, f: Finding) -> str:
    """A scenario file replaying the finding's witness: the seeded deal, the actions up to
    and including the finding's action when the engine allows it, expecting the engine's
    facts there (who moves, the pending step, the life markers, the figures).

    Raises:
        ValueError: the witness does not replay.
    """
    import tempfile
    from pathlib import Path

    from ruleproof.model.dracula.engine import apply, legal_actions, resolve_chance
    from ruleproof.properties.contracts.games import game_of, parse
    from ruleproof.properties.scenarios import run_scenario

    s = _replay(rs, f)
    if s is None:
        raise ValueError(f"the witness of {f.key} does not replay")
    game = game_of(rs)
    actions = list(f.prefix)
    a = parse(game, f.action)
    if a in legal_actions(s):
        actions.append(f.action)
        s = resolve_chance(apply(s, a))
        note = f"the engine takes '{f.action}'"
    else:
        note = f"the engine refuses '{f.action}' here (not played)"
    over = s.winner is not None
    expect = {"to_move": "over" if over else _side_name(s.agenda[0].player) if s.agenda
              else "over", "pending": "over" if over else _head(s),
              "life.dracula": s.life[0], "life.van-helsing": s.life[1],
              "at.dracula": s.board.name(s.pos[0]), "at.van-helsing": s.board.name(s.pos[1])}
    lines = [f"# Witness found by `ruleproof ambiguities --discover`: {f.key}.",
             f"# {f.detail}; {note}.", f"title = {_toml(f.key)}", f"game = {_toml(NAME)}",
             f"clauses = {_toml(sorted(f.clauses))}", f"actions = {_toml(actions)}"]
    if rs.options:
        lines += ["", "[options]"] + [f"{k} = {_toml(v)}" for k, v in rs.options]
    lines += ["", "[setup]", f"seed = {f.seed}", "", "[expect]"]
    lines += [f"{_toml(k)} = {_toml(v)}" for k, v in expect.items()]
    text = "\n".join(lines) + "\n"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "witness.toml"
        path.write_text(text, encoding="utf-8")
        result = run_scenario(path)
        if not result.passed:
            raise ValueError(f"the witness of {f.key} does not replay: {result.detail[-500:]}")
    return text


FIXED: tuple[tuple[str, str, str], ...] = (
    ("a step ending the move, a card looked at shown to one side only, life markers lost or "
     "won back otherwise than the text says, a special's target outside its description",
     "contracts", "stated from dracula-en (properties/dracula/contracts/sharpened.py)"),
    ("two barriers meeting at a corner of one location, refused by the engine and forbidden "
     "by no contract", "contract", "side by side under every reading of "
     "dracula-en:barriers.side-by-side; barriers opposite each other at one location stay the "
     "question of barrier-side-by-side"),
    ("thorough profile: Van Helsing moving again after Rebellion paid with its special "
     "declined, or not moving again after using it and beating a vampire", "contract",
     "dracula-en:special.rebellion: only Rebellion used gives a second turn, and a won battle "
     "does (both readings of rebellion-extra-turn agree)"),
    ("thorough profile: the receiver of a target losing a marker, a gift bringing none back",
     "contract", "dracula-en:early-end.give-target: the giver gets one or two back (up to four), "
     "the receiver's markers stay"),
    ("thorough profile: a marker lost in a drawn battle under Breath of Night", "contract",
     "a battle is lost only below the vampire's strength, one more with Breath of Night "
     "(dracula-en:empty.battle, special.breath-of-night)"),
)
"""What Dracula's discovery found and was fixed, not registered (found, side, fix), for
docs/discovery.md."""


@dataclass(frozen=True)
class DraculaDiscovery:
    """The capability ``"discovery"`` (see the module docstring); ``fixed``: what its searches
    found that was fixed (:data:`FIXED`)."""

    default_rule_sets: tuple[str, ...] = DEFAULT_RULE_SETS
    fixed: tuple[tuple[str, str, str], ...] = FIXED

    def questions(self, state: Any) -> Sequence[Any]:
        return [a for a in questions(state) if in_slot(state, a)]

    def situation(self, state: Any) -> str:
        return situation(state)

    def target(self, state: Any, action: Any) -> str:
        return target(state, action)

    def why_illegal(self, state: Any, action: Any) -> tuple[str, ...]:
        return why_illegal(state, action)

    def perturbations(self, state: Any, action: Any, nxt: Any) -> Iterator[Perturbation]:
        return perturbations(state, action, nxt)

    def explain(self, rs: RuleSet, findings: Sequence[Finding]) -> list[Finding]:
        return explain(rs, findings)

    def translation(self, players: int, budget: Budget, deadline: float | None = None
                    ) -> list[Finding]:
        """None: one text (dracula-en)."""
        return []

    def cycle_key(self, rs: RuleSet) -> tuple[str, tuple[str, ...]]:
        """``cycle dracula``; in play: the game ends only by a win
        (dracula-en:objective.goal, dracula-en:early-end.last-marker)."""
        return f"cycle {rs.name.split('/')[0]}", ("dracula-en:objective.goal",
                                                   "dracula-en:early-end.last-marker")

    def symbolic(self) -> list[Finding]:
        """None: the symbolic layer proves its laws (properties/dracula/symbolic.py)."""
        return []

    def witness(self, rs: RuleSet, finding: Finding) -> str:
        return witness(rs, finding)


DISCOVERY = DraculaDiscovery()
"""The capability ``"discovery"`` of Dracula's plugin record."""

__all__ = ["DISCOVERY", "DraculaDiscovery", "perturbations", "questions", "situation",
           "target"]
