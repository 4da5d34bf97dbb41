"""Dracula's rule sites for the mutant search (capability ``"mutants"``, :data:`MUTANTS`; the
operators and the search are :mod:`ruleproof.properties.discovery.mutants`).

Sites cover the special actions' timing, the meeting, looking, barriers, life markers, paying
and the endings (dracula-en). Each reading is a mutant engine around the unchanged engine: the
engine under another rule option (the register's readings), its legal actions or successor
changed, or the engine's own step functions run with the agenda changed between the action and
the automatic steps that follow it (the order of paying, resolving and the special action).
States are compared without their log (:func:`same`); what each side sees is compared through
the observations at the visibility sites.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from ruleproof.model.api import GameBase
from ruleproof.model.dracula import engine as E
from ruleproof.model.dracula import state as St
from ruleproof.model.dracula.actions import (
    LOOK,
    Depths,
    GiveTarget,
    Look,
    Meet,
    Move,
    Place,
    PlayCard,
    Stop,
    TakeBack,
)
from ruleproof.model.dracula.data import COLOURS
from ruleproof.model.dracula.ending import hand_proves
from ruleproof.model.dracula.rules import DraculaRules, option_choices
from ruleproof.model.dracula.state import Event, State
from ruleproof.properties.contracts.discovery import Finding
from ruleproof.properties.discovery.mutants import (
    Legal,
    Reading,
    Site,
    SiteList,
    Step,
    mutant,
    refusing,
)
from ruleproof.properties.plugin import RuleSet

# ----------------------------------------------------------------------------- the engine


def _shown(m: State, new: State) -> tuple[str, str]:
    """What each side saw of a step (as the game's ``model_step`` reports it)."""
    fresh = new.log[len(m.log):]
    return ("\n".join(e.seen[0] for e in fresh if e.seen[0]),
            "\n".join(e.seen[1] for e in fresh if e.seen[1]))


def _apply(s: State, a: Any, fix: Callable[[State], State] | None = None,
           check: bool = True) -> State:
    """The engine's transition with ``fix`` applied to the state between the action's own
    step and the automatic steps after it (``check``: refuse an action the engine refuses)."""
    if check and a not in E.legal_actions(s):
        raise E._illegal(s, a)
    s2 = St._with(s, step=s.step + 1)
    s3 = E._TRANSITIONS[type(a)](s2, s2.agenda[0], a)
    if fix is not None:
        s3 = fix(s3)
    return St._publish(E._settle(s3))


def _fixing(fix_for: Callable[[State, Any], Callable[[State], State] | None],
            check: bool = True) -> Step:
    """A transition running the engine's own step with a fix chosen per (state, action)
    (None: the base's transition)."""
    def step(base: GameBase[Any], m: Any, a: Any) -> tuple[Any, Any]:
        fix = fix_for(m, a) if isinstance(m, State) else None
        if fix is None:
            return base.model_step(m, a)
        new = _apply(m, a, fix, check)
        return new, _shown(m, new)
    return step


def _changed(t: State, **changes: Any) -> State:
    return St._publish(St._with(t, **changes))


def _after(label: str, transform: Callable[[State, Any, State], State],
           legal: Legal | None = None) -> Callable[[GameBase[Any]], GameBase[Any]]:
    """A mutant changing the engine's successor; what each side saw of the step is read off
    the changed successor's log."""
    def step(base: GameBase[Any], m: Any, a: Any) -> tuple[Any, Any]:
        t, seen = base.model_step(m, a)
        if not (isinstance(m, State) and isinstance(t, State)):
            return t, seen
        t2 = transform(m, a, t)
        return (t, seen) if t2 is t else (t2, _shown(m, t2))

    def make(base: GameBase[Any]) -> GameBase[Any]:
        return mutant(base, legal=legal, step=step, label=label)
    return make


def _head(s: State) -> str:
    return s.agenda[0].kind if s.agenda and s.winner is None else "over"


def _relog(m: State, t: State, seen: Callable[[Event], Event]) -> State:
    """``t`` with the events of its last step rewritten by ``seen``."""
    log = m.log
    for e in t.log[len(m.log):]:
        log = log.add(seen(e))
    return _changed(t, log=log)


def _fixed(value: str) -> Callable[[RuleSet], str]:
    def engine(rs: RuleSet) -> str:
        return value
    return engine


# ----------------------------------------------------------------------------- option sites


def _rules_with(rules: DraculaRules, name: str, value: str) -> DraculaRules:
    typed: Any = value == "true" if name in ("barrier_optional", "no_look_ends_move") else value
    return replace(rules, **{name: typed})


def _under_rule(name: str, value: str) -> Callable[[GameBase[Any]], GameBase[Any]]:
    def legal(base: GameBase[Any], m: Any) -> Sequence[Any]:
        if not isinstance(m, State):
            return base.model_legal(m)
        return base.model_legal(_changed(m, rules=_rules_with(m.rules, name, value)))

    def step(base: GameBase[Any], m: Any, a: Any) -> tuple[Any, Any]:
        if not isinstance(m, State):
            return base.model_step(m, a)
        new, seen = base.model_step(_changed(m, rules=_rules_with(m.rules, name, value)), a)
        return _changed(new, rules=m.rules), seen

    def make(base: GameBase[Any]) -> GameBase[Any]:
        return mutant(base, legal=legal, step=step, label=f"{name}={value}")
    return make


def _current(name: str) -> Callable[[RuleSet], str]:
    def engine(rs: RuleSet) -> str:
        opts = dict(rs.options)
        if name in opts:
            return str(opts[name])
        value = getattr(DraculaRules(), name)
        return str(value).lower() if isinstance(value, bool) else str(value)
    return engine


def _rule_site(operator: str, name: str, option: str, clauses: tuple[str, ...], question: str,
               entry: str, summaries: dict[str, str]) -> Site:
    readings = tuple(Reading(v, summaries.get(v, v), _under_rule(option, v))
                     for v in option_choices(option))
    return Site(operator, name, clauses, question, readings, _current(option), entry=entry)


def _option_sites() -> list[Site]:
    return [
        _rule_site("eligibility", "crucifix-exception", "crucifix_exception",
                   ("dracula-en:power.exception", "dracula-en:special.dark-of-night"),
                   "Which Dracula card spares him the life marker for an uncovered crucifix?",
                   "crucifix-exception", {"dark-of-night": "Dark of Night",
                                          "breath-of-night": "Breath of Night"}),
        _rule_site("eligibility", "barrier-side-by-side", "barrier_adjacency",
                   ("dracula-en:barriers.side-by-side",),
                   "When do two barriers lie 'next to each other at the same location'?",
                   "barrier-side-by-side", {"shared-location": "on borders of one location",
                                            "corner": "only meeting at a corner"}),
        _rule_site("optional", "barrier-optional", "barrier_optional",
                   ("dracula-en:barriers.colour", "dracula-en:empty.barrier-ends-turn"),
                   "Must the player place or move a barrier every turn?", "barrier-optional",
                   {"true": "placing or moving it is optional",
                    "false": "a barrier must be placed or moved"}),
        _rule_site("turn-ends", "rebellion-extra-turn", "rebellion_extra_turn",
                   ("dracula-en:special.rebellion",),
                   "Does Rebellion always cost Dracula his next turn, or only when Van Helsing "
                   "beats a vampire with it?", "rebellion-extra-turn",
                   {"on-win": "only after a won battle", "always": "always"}),
        _rule_site("timing", "vigilance-scope", "vigilance_scope",
                   ("dracula-en:special.vigilance",),
                   "Does Vigilance block Dracula's special action for his next turn, or until "
                   "he next plays a card with a special action?", "vigilance-scope",
                   {"next-turn": "his next turn", "next-special": "his next special card"}),
        _rule_site("eligibility", "reinforcement", "reinforcement",
                   ("dracula-en:special.reinforcement",),
                   "What does Reinforcement do beyond the return to the carriage station?",
                   "reinforcement-return", {"move-only": "the return only",
                                            "move-and-hunter": "also a hunter back"}),
        _rule_site("turn-ends", "no-look-ends-move", "no_look_ends_move",
                   ("dracula-en:look.no-look", "dracula-en:example.pass-without-look"),
                   "Does declining to look at a card end the move?", "no-look-ends-move",
                   {"false": "the figure may walk on", "true": "the move ends there"}),
        _rule_site("eligibility", "depths-target", "depths",
                   ("dracula-en:special.depths-of-night",),
                   "Which location may Depths of Night pick?", "depths-of-night-target",
                   {"look-and-return": "any card, looked at and put back if not his",
                    "known-own-only": "only a card Dracula knows to be his"}),
    ]


# ----------------------------------------------------------------------------- meeting


def _meet_other(s: State, a: Any, t: State) -> State:
    """The figure that was met, not the mover, decides whether hands are shown."""
    if t.agenda and t.agenda[0].kind == "meet" and t.agenda[0].player == t.active \
            and t.winner is None:
        head = t.agenda[0]
        return _changed(t, agenda=(replace(head, player=1 - head.player), *t.agenda[1:]))
    return t


def _meet_mover(s: State, a: Any, t: State) -> State:
    """The mover decides (the engine's reading, imposed)."""
    if t.agenda and t.agenda[0].kind == "meet" and t.agenda[0].player != t.active \
            and t.winner is None:
        head = t.agenda[0]
        return _changed(t, agenda=(replace(head, player=t.active), *t.agenda[1:]))
    return t


def _mover_sees_only(s: State, a: Any) -> Callable[[State], State] | None:
    """Shown hands: only the mover sees the other's hand; only the mover can prove."""
    if not (isinstance(a, Meet) and a.reveal and _head(s) == "meet"):
        return None
    mover = s.active

    def fix(d: State) -> State:
        # the engine's _meet ran already on the draft (it is the step of Meet): rebuild it
        d = St._with(d, log=s.log, winner=None, reason="", agenda=s.agenda[1:])
        other = s.hand[1 - mover]
        text = ", ".join(other) or "-"
        seen = ["", ""]
        seen[mover] = f"hands shown at the meeting; {St._name(1 - mover)}'s hand: {text}"
        seen[1 - mover] = f"{St._name(mover)} looks at your hand"
        d = St._log(d, f"{St._name(mover)} meets {St._name(1 - mover)} and looks at the hand: "
                       f"{text}", seen[0], seen[1])
        if hand_proves(d, mover):
            from ruleproof.model.dracula.ending import _win

            return _win(d, mover, "all remaining targets seen in the opponent's hand "
                                  "(dracula-en:end.hand-proof)")
        return d
    return fix


def _other_wins_both(s: State, a: Any, t: State) -> State:
    """Both prove at once at a meeting: the side not on turn wins."""
    if not (isinstance(a, Meet) and a.reveal) or t.winner != s.active:
        return t
    if hand_proves(s, s.active) and hand_proves(s, 1 - s.active):
        return _changed(t, winner=1 - s.active, reason="both proved; the other side wins")
    return t


def _meeting_sites() -> list[Site]:
    return [
        Site("next-seat", "meeting-decider", ("dracula-en:meet.reveal-hands",),
             "When one figure moves onto the other, who decides whether hands are shown?",
             (Reading("mover", "the player who moved", _after("the mover decides", _meet_mover)),
              Reading("other", "the player met", _after("the met player decides", _meet_other))),
             _fixed("mover")),
        Site("forced", "meeting-reveal", ("dracula-en:meet.reveal-hands",),
             "When the figures meet, must the hands be shown?",
             (Reading("optional", "the mover may decline", lambda b: b),
              Reading("forced", "hands are always shown", lambda b: mutant(b, legal=refusing(
                  lambda m, a: isinstance(a, Meet) and not a.reveal), label="reveal forced"))),
             _fixed("optional")),
        Site("visibility", "meeting-view", ("dracula-en:meet.reveal-hands", "dracula-en:end.hand-proof"),
             "When hands are shown at a meeting, does each player see the other's hand, or "
             "only the player who moved?",
             (Reading("each-other", "both see each other's hand", lambda b: b),
              Reading("mover-only", "only the mover sees the other's hand",
                      lambda b: mutant(b, step=_fixing(_mover_sees_only),
                                       label="only the mover sees"))),
             _fixed("each-other"), observe=True),
        Site("ending-order", "simultaneous-proof", ("dracula-en:end.simultaneous",),
             "When both players prove at once, who wins?",
             (Reading("on-turn", "the player whose turn it is", lambda b: b),
              Reading("other", "the other player", _after("the other wins", _other_wins_both))),
             _fixed("on-turn")),
    ]


# ----------------------------------------------------------------------------- looking


def _looked_opponent(s: State, a: Any) -> bool:
    if not (isinstance(a, Look) and _head(s) == "move"):
        return False
    card = s.board_cards[s.pos[s.active]]
    return card is not None and int(s.cards.enc(card).owner) != s.active


def _looked_own(s: State, a: Any) -> bool:
    if not (isinstance(a, Look) and _head(s) == "move"):
        return False
    card = s.board_cards[s.pos[s.active]]
    return card is not None and int(s.cards.enc(card).owner) == s.active


def _reveal_to_looker(s: State, a: Any, t: State) -> State:
    """A revealed opposing card is seen by the looker only."""
    if not _looked_opponent(s, a):
        return t
    other = 1 - s.active
    loc = s.pos[s.active]
    known = list(t.known)
    known[other] = s.known[other]
    t = _changed(t, known=(known[0], known[1]))

    def hide(e: Event) -> Event:
        seen = list(e.seen)
        seen[other] = f"{St._name(s.active)} looks at a card at {s.board.label(loc)}"
        return Event(e.full, (seen[0], seen[1]))
    return _relog(s, t, hide)


def _show_own(s: State, a: Any, t: State) -> State:
    """An own card taken into the hand is shown to the opponent."""
    if not _looked_own(s, a):
        return t
    other = 1 - s.active

    def show(e: Event) -> Event:
        seen = list(e.seen)
        seen[other] = e.full
        return Event(e.full, (seen[0], seen[1]))
    return _relog(s, t, show)


def _own_look_ends(s: State, a: Any) -> Callable[[State], State] | None:
    """After an own card is looked at and a card laid, the move ends."""
    if not (isinstance(a, Place) and _head(s) == "place" and s.agenda[1:2]
            and s.agenda[1].kind == "move" and s.log and "own card" in s.log[-1].full):
        return None

    def fix(d: State) -> State:
        if d.agenda and d.agenda[0].kind == "move":
            return St._push(d, St.Step("pay", d.active))
        return d
    return fix


def _look_forced(m: State, a: Any) -> bool:
    """While a card may be looked at, the figure neither walks on nor stops without looking."""
    return isinstance(a, Move | Stop) and _head(m) == "move" and m.can_look and m.steps > 0


def _look_at_start_legal(base: GameBase[Any], m: Any) -> Sequence[Any]:
    out = tuple(base.model_legal(m))
    if isinstance(m, State) and _head(m) == "move" and m.steps == 0 \
            and m.board_cards[m.pos[m.active]] is not None and LOOK not in out:
        return (*out, LOOK)
    return out


def _look_at_start(s: State, a: Any) -> Callable[[State], State] | None:
    if isinstance(a, Look) and _head(s) == "move" and s.steps == 0:
        return lambda d: d
    return None


def _looking_sites() -> list[Site]:
    return [
        Site("visibility", "revealed-card", ("dracula-en:look.opponent-card",),
             "When a player looks at an opposing card and reveals it, does the opponent see "
             "it too?",
             (Reading("both", "both players see it", lambda b: b),
              Reading("looker", "only the looker sees it",
                      _after("revealed to the looker only", _reveal_to_looker))),
             _fixed("both"), observe=True),
        Site("visibility", "own-card-taken", ("dracula-en:look.own-card",),
             "When a player looks at one of their own cards and takes it into the hand, does "
             "the opponent learn which card it is?",
             (Reading("hidden", "the opponent does not see it", lambda b: b),
              Reading("shown", "the opponent sees it", _after("own card shown", _show_own))),
             _fixed("hidden"), observe=True),
        Site("turn-ends", "own-look-move", ("dracula-en:look.own-card", "dracula-en:example.own-swap"),
             "After looking at one of his own cards and laying a card, may the player move on?",
             (Reading("may-continue", "he may move on", lambda b: b),
              Reading("move-ends", "the move ends there",
                      lambda b: mutant(b, step=_fixing(_own_look_ends),
                                       label="the move ends after an own card"))),
             _fixed("may-continue")),
        Site("forced", "look-choice", ("dracula-en:move.look-choice",),
             "At each location, may the player pass without looking, or must he look?",
             (Reading("optional", "looking is optional", lambda b: b),
              Reading("must-look", "a card that may be looked at must be",
                      lambda b: mutant(b, legal=refusing(_look_forced), label="look forced"))),
             _fixed("optional")),
        Site("eligibility", "start-location-look", ("dracula-en:move.start-location",),
             "May a player look at the card where the turn began without leaving it first?",
             (Reading("after-leaving", "only after coming back", lambda b: b),
              Reading("at-once", "at once", lambda b: mutant(
                  b, legal=_look_at_start_legal, step=_fixing(_look_at_start, check=False),
                  label="look at the start location"))),
             _fixed("after-leaving")),
    ]


# ----------------------------------------------------------------------------- paying, endings


def _losses_after_resolve(s: State, a: Any) -> Callable[[State], State] | None:
    """Life markers owed for extra steps are paid after the revealed card is resolved."""
    if not (isinstance(a, PlayCard) and _head(s) == "pay"):
        return None

    def fix(d: State) -> State:
        ag = list(d.agenda)
        if len(ag) > 1 and ag[0].kind == "loss" and ag[1].kind == "resolve":
            ag[0], ag[1] = ag[1], ag[0]
            return St._with(d, agenda=tuple(ag))
        return d
    return fix


def _one_marker(s: State, a: Any) -> Callable[[State], State] | None:
    """Overpaying costs one life marker, however many steps too many."""
    if not (isinstance(a, PlayCard) and _head(s) == "pay"):
        return None

    def fix(d: State) -> State:
        if d.agenda and d.agenda[0].kind == "loss" and d.agenda[0].n > 1:
            return St._with(d, agenda=(replace(d.agenda[0], n=1), *d.agenda[1:]))
        return d
    return fix


def _special_after(s: State, a: Any) -> Callable[[State], State] | None:
    """The revealed card first, then the special action (the engine's reading, imposed)."""
    if not (isinstance(a, PlayCard) and _head(s) == "pay"):
        return None

    def fix(d: State) -> State:
        kinds = [x.kind for x in d.agenda]
        if "resolve" in kinds and "special" in kinds:
            i, j = kinds.index("resolve"), kinds.index("special")
            if j < i:
                ag = list(d.agenda)
                ag[i], ag[j] = ag[j], ag[i]
                return St._with(d, agenda=tuple(ag))
        return d
    return fix


def _special_first(s: State, a: Any) -> Callable[[State], State] | None:
    """The special action is carried out before the revealed card is resolved."""
    if not (isinstance(a, PlayCard) and a.special and _head(s) == "pay"):
        return None

    def fix(d: State) -> State:
        ag = list(d.agenda)
        kinds = [x.kind for x in ag]
        if "resolve" in kinds and "special" in kinds:
            i, j = kinds.index("resolve"), kinds.index("special")
            if i < j:
                ag[i], ag[j] = ag[j], ag[i]
                return St._with(d, agenda=tuple(ag))
        return d
    return fix


def _uncapped_life(s: State, a: Any, t: State) -> State:
    """A target given away brings two life markers back, even above the four."""
    if not isinstance(a, GiveTarget) or t.winner is not None:
        return t
    p = s.agenda[0].player if s.agenda else s.active
    extra = s.life[p] + 2 - min(s.board.life_markers, s.life[p] + 2)
    if extra <= 0:
        return t
    life = list(t.life)
    life[p] += extra
    return _changed(t, life=(life[0], life[1]))


def _capped_life(s: State, a: Any, t: State) -> State:
    """Life markers never above the four a side owns (the engine's reading, imposed)."""
    cap = s.board.life_markers
    if not isinstance(a, GiveTarget) or max(t.life) <= cap:
        return t
    return _changed(t, life=(min(t.life[0], cap), min(t.life[1], cap)))


def _rescue_only(m: State, a: Any) -> bool:
    return isinstance(a, GiveTarget) and _head(m) != "rescue"


def _paying_sites() -> list[Site]:
    return [
        Site("ending-order", "overpay-order", ("dracula-en:pay.overpay",
                                               "dracula-en:pay.then-functions"),
             "When a move is paid with too low a card, are the life markers for the extra "
             "steps lost before or after the revealed card is resolved (a fifth target "
             "captured, or the last life marker lost: which comes first)?",
             (Reading("loss-first", "the markers first", lambda b: b),
              Reading("resolve-first", "the card first",
                      lambda b: mutant(b, step=_fixing(_losses_after_resolve),
                                       label="losses after resolving"))),
             _fixed("loss-first")),
        Site("cap", "overpay-cost", ("dracula-en:pay.overpay",),
             "How many life markers does moving too far cost: one per extra location, or one?",
             (Reading("per-step", "one per extra location", lambda b: b),
              Reading("one", "one whatever the excess",
                      lambda b: mutant(b, step=_fixing(_one_marker), label="one marker"))),
             _fixed("per-step")),
        Site("timing", "special-before-battle", ("dracula-en:pay.then-functions",
                                                 "dracula-en:empty.special-timing"),
             "Is the played card's special action carried out after the revealed card is "
             "resolved, or before?",
             (Reading("after", "after the revealed card", lambda b: mutant(
                 b, step=_fixing(_special_after), label="special after the card")),
              Reading("before", "before it", lambda b: mutant(
                  b, step=_fixing(_special_first), label="special first"))),
             _fixed("after")),
        Site("cap", "life-cap", ("dracula-en:early-end.give-target",
                                 "dracula-en:contents.components"),
             "Can giving away a target raise a player's life markers above the four they "
             "started with?",
             (Reading("four", "never above four", _after("life capped", _capped_life)),
              Reading("no-cap", "two back in any case", _after("no life cap", _uncapped_life))),
             _fixed("four")),
        Site("eligibility", "target-gift-when", ("dracula-en:early-end.give-target",),
             "May a target be given away for life markers at any time, or only when the "
             "last life marker is at stake?",
             (Reading("any-time", "at any time (below four markers)", lambda b: b),
              Reading("last-marker", "only when the last marker is at stake",
                      lambda b: mutant(b, legal=refusing(_rescue_only),
                                       label="gift only at the last marker"))),
             _fixed("any-time")),
    ]


# ----------------------------------------------------------------------------- specials, cards


def _breath_later(s: State, a: Any, t: State) -> State:
    """Breath of Night acts in Van Helsing's turn after next."""
    if t.breath_turn == s.breath_turn or t.breath_turn < 0:
        return t
    return _changed(t, breath_turn=t.breath_turn + 2)


def _whisper_later(s: State, a: Any, t: State) -> State:
    """Whisper of Night bars Van Helsing's barrier in his turn after next."""
    if t.whisper_turn == s.whisper_turn or t.whisper_turn < 0:
        return t
    return _changed(t, whisper_turn=t.whisper_turn + 2)


def _resistance_end(s: State, a: Any, t: State) -> State:
    """The card turned by Resistance is turned back at the end of Van Helsing's next turn."""
    if t.turn == s.turn or s.turned is None or t.winner is not None:
        return t
    played = s.played is not None and s.use_special and \
        s.cards.act(s.played).special == "resistance"
    if t.active == 1 and t.turned is None:
        return _changed(t, turned=s.turned)  # kept through his turn
    if t.active == 0 and s.active == 1 and not played and t.turned is not None:
        return _changed(t, turned=None)
    return t


def _resistance_start(s: State, a: Any, t: State) -> State:
    """The card is turned back at the start of Van Helsing's next turn (the engine's reading,
    imposed)."""
    if t.turn == s.turn or t.winner is not None:
        return t
    if t.active == 1 and t.turned is not None:
        return _changed(t, turned=None)
    return t


def _any_colour(s: State, a: Any, t: State) -> State:
    """The barrier step offers every colour, whatever the card's bar."""
    if t.agenda and t.agenda[0].kind == "barrier" and set(t.agenda[0].colours) != set(COLOURS):
        return _changed(t, agenda=(replace(t.agenda[0], colours=COLOURS), *t.agenda[1:]))
    return t


def _composure_self_legal(base: GameBase[Any], m: Any) -> Sequence[Any]:
    out = tuple(base.model_legal(m))
    if isinstance(m, State) and _head(m) == "special-choice" and \
            St._special(m) == "composure":
        more = [TakeBack(c) for c in sorted((*m.aside[1], *m.adiscard[1]))
                if m.cards.act(c).special == "composure"]
        return (*out, *[x for x in more if x not in out])
    return out


def _composure_self(s: State, a: Any) -> Callable[[State], State] | None:
    return (lambda d: d) if isinstance(a, TakeBack) else None


def _depths_free(m: State, a: Any) -> bool:
    return isinstance(a, Depths) and a.loc in m.pos


def _special_sites() -> list[Site]:
    return [
        Site("timing", "breath-turn", ("dracula-en:special.breath-of-night",),
             "In which of Van Helsing's turns is a vampire one stronger after Breath of Night?",
             (Reading("next", "his following turn", lambda b: b),
              Reading("after-next", "the turn after that",
                      _after("Breath acts a turn later", _breath_later))),
             _fixed("next")),
        Site("timing", "whisper-turn", ("dracula-en:special.whisper-of-night",),
             "In which of Van Helsing's turns may he not place or move a barrier after Whisper "
             "of Night?",
             (Reading("next", "his following turn", lambda b: b),
              Reading("after-next", "the turn after that",
                      _after("Whisper acts a turn later", _whisper_later))),
             _fixed("next")),
        Site("timing", "resistance-turn-back", ("dracula-en:special.resistance",),
             "When is the card turned by Resistance turned back: at the start or at the end of "
             "Van Helsing's next turn?",
             (Reading("start", "at the start of his next turn",
                      _after("turned back at his turn's start", _resistance_start)),
              Reading("end", "at the end of his next turn",
                      _after("turned back at his turn's end", _resistance_end))),
             _fixed("start")),
        Site("eligibility", "barrier-colour", ("dracula-en:barriers.colour", "dracula-en:cards.bar"),
             "Which barrier may be placed or moved: the one of the card's colour, or any?",
             (Reading("card-colour", "the colour of the card's bar", lambda b: b),
              Reading("any", "any barrier", _after("any barrier colour", _any_colour))),
             _fixed("card-colour")),
        Site("eligibility", "composure-self", ("dracula-en:special.composure",),
             "May Composure take back Composure itself?",
             (Reading("except-itself", "any card except Composure", lambda b: b),
              Reading("itself-too", "Composure too", lambda b: mutant(
                  b, legal=_composure_self_legal, step=_fixing(_composure_self, check=False),
                  label="Composure takes itself"))),
             _fixed("except-itself")),
        Site("eligibility", "depths-where", ("dracula-en:special.depths-of-night",),
             "May Depths of Night exchange a card where a figure stands?",
             (Reading("also-under-figures", "also where a figure stands", lambda b: b),
              Reading("not-under-figures", "not where a figure stands", lambda b: mutant(
                  b, legal=refusing(_depths_free), label="not under a figure"))),
             _fixed("also-under-figures")),
    ]


# ----------------------------------------------------------------------------- the capability


def sites(rs: RuleSet) -> list[Site]:
    """Every site of the Dracula engine of ``rs``."""
    every = [*_option_sites(), *_meeting_sites(), *_looking_sites(), *_paying_sites(),
             *_special_sites()]
    return [s for s in every if s.applies(rs)]


_LOG = St._FIELDS.index("log")


def same(a: Any, b: Any) -> bool:
    """Equal states, the logs left aside (what each side saw is compared through the
    observations at visibility sites); two finished games are the same when the same side
    won."""
    if isinstance(a, State) and isinstance(b, State):
        if a.winner is not None and b.winner is not None:
            return a.winner == b.winner
        x, y = St._field_values(a), St._field_values(b)
        return bool(x[:_LOG] == y[:_LOG] and x[_LOG + 1:] == y[_LOG + 1:])
    return bool(a == b)


FACTS = ("to_move", "pending", "turn", "winner")


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def witness(rs: RuleSet, f: Finding) -> str:
    """A scenario file replaying the finding's witness in the engine: the seed's deal, the
    actions before it and (when the engine takes it) the action, expecting the engine's
    facts.

    Raises:
        ValueError: the actions do not replay.
    """
    from ruleproof.properties.contracts.games import game_of, parse, settle
    from ruleproof.properties.dracula.scenarios import FACTS as KNOWN
    from ruleproof.properties.dracula.scenarios import SIDES
    from ruleproof.properties.scenarios import RunContext

    game = game_of(rs)
    state = settle(rs, game.new_seeded_state(f.seed))
    actions = list(f.prefix)
    try:
        for text in actions:
            state = settle(rs, state.apply_typed(parse(game, text)))
        action = parse(game, f.action)
    except Exception as exc:
        raise ValueError(f"the witness does not replay: {exc}") from None
    if action in state.legal_typed_actions():
        actions.append(f.action)
        state = settle(rs, state.apply_typed(action))
        note = f"the engine takes '{f.action}'"
    else:
        note = f"the engine refuses '{f.action}' here (not played)"

    context = RunContext(SIDES)
    lines = [f"# Witness found by `ruleproof ambiguities --discover`: {f.key}.",
             f"# {f.detail}; {note}.", f"title = {_toml(f.key)}", 'game = "dracula"',
             f"clauses = {_toml(sorted(f.clauses))}", f"actions = {_toml(actions)}"]
    if rs.options:
        lines += ["", "[options]"] + [f"{k} = {_toml(v)}" for k, v in rs.options]
    lines += ["", "[setup]", f"seed = {f.seed}", "", "[expect]"]
    for key in FACTS:
        lines.append(f"{key} = {_toml(KNOWN[key].value(state.model, None, context))}")
    return "\n".join(lines) + "\n"


MUTANTS = SiteList(sites, witness, same)
"""The capability ``"mutants"`` of Dracula's plugin record."""

__all__ = ["MUTANTS", "same", "sites", "witness"]
