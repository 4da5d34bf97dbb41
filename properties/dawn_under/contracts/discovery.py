"""Dawn Under's part of discovery (capability ``"discovery"``, :data:`DISCOVERY`; the generic
searches are :mod:`ruleproof.properties.contracts.discovery`): the systematic action space and
the decision each phase asks for, the names of situations, the perturbations of a successor,
the explanation of a finding by the ambiguity register (an entry's other reading replayed on
the witness), du-en's and du-cs's contracts compared as texts, the cycle keys, the z3 stake
query, and witness scenario files.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.model.api import GameBase
from ruleproof.properties.contracts.core import (
    ContractSet,
    broken,
    contract_set,
    forbidding,
    permitting,
)
from ruleproof.properties.contracts.discovery import (
    Budget,
    Finding,
    Perturbation,
    kind_of,
    walk,
)
from ruleproof.properties.contracts.games import RuleSet, game_of, parse, rule_set

DEFAULT_RULE_SETS = ("du-en/4", "du-cs/4", "2p/2", "gruft/4")
"""The rule sets discovery searches unless told otherwise."""

TEXT_PLAYERS = (3, 4, 5, 6)
"""The player counts du-en and du-cs are compared at by ``ambiguities --search``."""


# ----------------------------------------------------------------------------- action space


def action_space(state: Any) -> list[Any]:
    """A systematic Dawn Under action space for ``state``: every grave opening, placements and
    garlic into the pending grave and one other, stop, both ends of hand-overs, and the
    expansion's actions (every bat and Count target, every gift receiver)."""
    from ruleproof.model.dawn_under.gruft.state import Believe, CountTo, Doubt, GiftTo, PlayBat, part
    from ruleproof.model.dawn_under.state import (
        End,
        GiveVampire,
        LeaveEmpty,
        OpenGrave,
        PlaceGarlic,
        PlaceVampire,
        ReceiveVampire,
        Stop,
    )

    size = state.config.board.size
    graves = sorted({state.pending if state.pending is not None else 0, 0, size // 2,
                     *(state.plague.opened if state.plague is not None else ())})
    out: list[Any] = [OpenGrave(g) for g in range(size)]
    for g in graves:
        out += [PlaceVampire(g, End.LEFT), PlaceVampire(g, End.RIGHT), PlaceGarlic(g),
                LeaveEmpty(g)]
    out += [Stop(), GiveVampire(End.LEFT), GiveVampire(End.RIGHT), ReceiveVampire(End.LEFT),
            ReceiveVampire(End.RIGHT)]
    if part(state) is not None:
        out += [PlayBat(g) for g in range(size)] + [Believe(), Doubt()]
        out += [CountTo(g) for g in range(size)]
        out += [GiftTo(p) for p in range(state.config.players)]
    return out


SLOTS: dict[str, tuple[str, ...]] = {
    "open": ("OpenGrave", "Stop", "PlayBat", "PlaceVampire", "PlaceGarlic"),
    "place": ("PlaceVampire", "PlaceGarlic", "LeaveEmpty"),
    "give": ("GiveVampire",),
    "receive": ("ReceiveVampire",),
    "count-open": ("OpenGrave", "Stop", "PlayBat"),
    "count-place": ("CountTo",),
    "count-move": ("CountTo",),
    "bat": ("Believe", "Doubt"),
    "bat-gift": ("GiftTo",),
    "put": ("PlaceVampire",),
}
"""The kinds of decision each phase asks for. Other action types at a phase are a different
decision altogether (the engine's protocol), not a question of the rules; they are left out of
the legality comparison (docs/discovery.md, "what it cannot find")."""


def in_slot(state: Any, action: Any) -> bool:
    phase = getattr(getattr(state, "phase", None), "value", "")
    return kind_of(action) in SLOTS.get(phase, ())


def situation(state: Any) -> str:
    """A coarse description of where a state is (for keys): phase and plague."""
    phase = getattr(state, "phase", None)
    name = getattr(phase, "value", str(phase))
    plague = "plague" if getattr(state, "plague", None) is not None else "turn"
    extra = ""
    return f"{name}/{plague}{extra}"


def target(state: Any, action: Any) -> str:
    """For a placement: into the grave just opened, one opened earlier in the plague, or
    another grave."""
    if kind_of(action) not in ("PlaceVampire", "PlaceGarlic", "LeaveEmpty"):
        return ""
    g = action.grave
    if g == getattr(state, "pending", None):
        return " into the grave just opened"
    plague = getattr(state, "plague", None)
    if plague is not None and g in plague.opened:
        return " into a grave opened earlier in the plague"
    return " into another grave"


def _content(state: Any, action: Any) -> str:
    g = getattr(action, "grave", None)
    if g is None or not 0 <= g < len(getattr(state, "contents", ())):
        return ""
    c = state.contents[g]
    lid = state.lids[g]
    from ruleproof.model.dawn_under.state import RAT

    base = "rat" if lid == RAT else "nolid" if lid is None else "colour"
    return f"{base}:{type(c).__name__ if c is not None else 'empty'}"




def found(state: Any, action: Any) -> str:
    """What opening a grave turns up, for effect keys: `` (a rat lid, empty)``, `` (a
    vampire)``, `` (garlic)``, `` (empty)``; '' for other actions."""
    if kind_of(action) != "OpenGrave":
        return ""
    g = action.grave
    if not 0 <= g < len(state.contents):
        return ""
    from ruleproof.model.dawn_under.state import RAT, GarlicIn, VampireIn

    c = state.contents[g]
    what = "a vampire" if isinstance(c, VampireIn) else "garlic" if isinstance(c, GarlicIn) \
        else "empty"
    return f" ({'a rat lid, ' if state.lids[g] == RAT else ''}{what})"


def why_illegal(state: Any, action: Any) -> tuple[str, ...]:
    """The clause ids the engine names when it refuses ``action`` (() if it cannot say)."""
    from ruleproof.model.dawn_under.engine import why_illegal as engine_why

    try:
        _, clauses = engine_why(state, action)
    except Exception:
        return ()
    return tuple(clauses)


def questions(state: Any) -> list[Any]:
    """:func:`action_space` at ``state`` restricted to the decision its phase asks for
    (:data:`SLOTS`)."""
    return [a for a in action_space(state) if in_slot(state, a)]


# ----------------------------------------------------------------------------- effects


def perturbations(s: Any, a: Any, t: Any) -> Iterator[Perturbation]:
    """Alternatives to the successor ``t`` of a Dawn Under transition (who moves next, whether the
    turn or the plague ends, which end of a row, who gives or receives, counts +-1, lids seen
    or left open, which reserve lid), each with the fields it changes."""
    from ruleproof.model.dawn_under.gruft.state import part
    from ruleproof.model.dawn_under.state import Phase, Vampire

    n = t.config.players
    if t.phase is Phase.OVER:
        return
    # who moves next
    for d in (1, n - 1):
        if n > 2 or d == 1:
            yield ("who moves next", replace(t, turn_player=(t.turn_player + d) % n),
                   ("turn_player",))
    if t.plague is not None:
        yield ("who goes on in the plague",
               replace(t, plague=replace(t.plague, current=(t.plague.current + 1) % n)),
               ("plague",))
    # whether the turn ends
    if t.plague is None and s.plague is None and not t.gifts:
        if t.turn_player == s.turn_player and t.phase is Phase.OPEN:
            yield ("the turn ends", replace(t, turn_player=(t.turn_player + 1) % n,
                                            placed_this_turn=0, may_stop=False),
                   ("turn_player",))
        elif t.turn_player != s.turn_player and t.phase is Phase.OPEN:
            yield ("the turn goes on", replace(t, turn_player=s.turn_player, may_stop=True,
                                               placed_this_turn=s.placed_this_turn),
                   ("turn_player",))
    # the plague ends or goes on
    if s.plague is not None and t.plague is not None and t.phase is Phase.OPEN:
        yield ("the plague ends", replace(t, plague=None, turn_player=(s.plague.holder + 1) % n),
               ("plague",))
    # which end of a row
    for p, (b, c) in enumerate(zip(s.rows, t.rows, strict=True)):
        if len(c) == len(b) + 1 and len(c) > 1:
            v = c[0] if [x.colour for x in c[1:]] == [x.colour for x in b] else c[-1]
            other = (v, *b) if v is c[-1] else (*b, v)
            if other != c:
                yield ("which end receives", replace(t, rows=_set(t.rows, p, tuple(other))),
                       ("rows",))
        if len(c) == len(b) - 1 and len(b) > 1 and b[0].colour != b[-1].colour:
            alt = b[:-1] if [x.colour for x in c] == [x.colour for x in b[1:]] else b[1:]
            moved = b[0] if alt is b[1:] else b[-1]
            alt = tuple(Vampire(x.colour, x.face_up or not any(not y.face_up for y in c))
                        for x in alt)
            extra: dict[str, Any] = {"rows": _set(t.rows, p, tuple(alt))}
            if t.in_transit is not None:
                extra["in_transit"] = moved.colour
            yield ("which end gives", replace(t, **extra), ("rows",))
    # who gives or receives
    if t.gifts and not s.gifts:
        first = t.gifts[0]
        for q in range(n):
            if q != first.receiver:
                yield ("who receives", replace(t, gifts=tuple(replace(g, receiver=q)
                                                              for g in t.gifts)), ("gifts",))
                break
        yield ("how many give", replace(t, gifts=t.gifts[:-1] or t.gifts + t.gifts),
               ("gifts",))
    # counts +-1
    for p in range(n):
        if t.stakes_held[p] != s.stakes_held[p]:
            for d in (1, -1):
                held = t.stakes_held[p] + d
                if held >= 0 and t.stakes_path - d >= 0:
                    yield ("stakes +-1", replace(t, stakes_held=_set(t.stakes_held, p, held),
                                                 stakes_path=t.stakes_path - d),
                           ("stakes_held",))
        if t.garlic_hand[p] != s.garlic_hand[p]:
            yield ("garlic +-1", replace(t, garlic_hand=_set(t.garlic_hand, p,
                                                             s.garlic_hand[p])),
                   ("garlic_hand",))
    if s.stakes_path != t.stakes_path or any(x != y for x, y in zip(s.stakes_held,
                                                                       t.stakes_held,
                                                                       strict=True)):
        pass
    elif isinstance(getattr(a, "grave", None), int) and _is_vampire(s, a):
        p = s.plague.current if s.plague is not None else s.turn_player
        if t.stakes_path > 0:
            yield ("a stake is taken", replace(t, stakes_held=_set(t.stakes_held, p,
                                                                   t.stakes_held[p] + 1),
                                               stakes_path=t.stakes_path - 1),
                   ("stakes_held",))
    # lids closed or left open
    g = getattr(a, "grave", None)
    if isinstance(g, int) and 0 <= g < len(t.known) and t.lids[g] is not None:
        yield ("lid seen or not", replace(t, known=_set(t.known, g, not t.known[g])),
               ("known",))
        gp = part(t)
        if gp is not None:
            og = gp.open_graves
            alt = tuple(x for x in og if x != g) if g in og else (*og, g)
            yield ("grave left open", replace(t, extension=replace(gp, open_graves=alt)),
                   ("extension",))
    # which reserve lid
    if s.plague is not None and (t.plague is None or t.plague.origin != s.plague.origin) \
            and len(s.reserve) > 1 and s.reserve[0] != s.reserve[1]:
        o = s.plague.origin
        yield ("which reserve lid", replace(t, lids=_set(t.lids, o, s.reserve[1]),
                                            reserve=(s.reserve[0], *s.reserve[2:])),
               ("lids",))


def _is_vampire(s: Any, a: Any) -> bool:
    from ruleproof.model.dawn_under.state import OpenGrave, VampireIn

    return isinstance(a, OpenGrave) and 0 <= a.grave < len(s.contents) and isinstance(
        s.contents[a.grave], VampireIn)


def _set(seq: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return (*seq[:i], v, *seq[i + 1:])




# ----------------------------------------------------------------------------- translations


def translation_gaps(players: int, budget: Budget, deadline: float | None = None,
                     sets: tuple[ContractSet, ContractSet] | None = None) -> list[Finding]:
    """du-en's contracts against du-cs's on the states of both presets' random play: one
    forbids what the other permits, or one rejects the other engine's successor."""
    en_set, cs_set = sets or (contract_set("du-en"), contract_set("du-cs"))
    found: dict[str, Finding] = {}
    for preset, other_preset in (("du-en", "du-cs"), ("du-cs", "du-en")):
        rs = rule_set(f"{preset}/{players}")
        other = game_of(rule_set(f"{other_preset}/{players}"))
        game = game_of(rs)
        for i, st in enumerate(walk(rs, budget.games, budget.max_steps, game=game)):
            if deadline is not None and time.perf_counter() > deadline:
                break
            s = st.state
            en = en_set.active(s)
            cs = cs_set.active(s)
            if i % budget.stride == 0:
                legal = set(game.model_legal(s))
                for a in action_space(s):
                    if en_set.alias(s, a) or not in_slot(s, a):
                        continue
                    fe, fc = forbidding(en, s, a), forbidding(cs, s, a)
                    pe, pc = permitting(en, s, a), permitting(cs, s, a)
                    for what, forb, perm in (("du-en forbids, du-cs permits", fe, pc),
                                             ("du-cs forbids, du-en permits", fc, pe)):
                        if forb and perm:
                            key = f"translation {what}: {kind_of(a)} at {situation(s)} " \
                                  f"{_content(s, a)}"
                            if key not in found:
                                found[key] = Finding(
                                    "translation", key, rs.name, tuple(sorted({*forb, *perm})),
                                    st.seed, tuple(map(str, st.prefix)), str(a),
                                    f"{what} '{a}' (legal in the {preset} engine: "
                                    f"{a in legal})")
            # successors: each source judges the other preset's engine successor
            a = st.action
            try:
                alt = other.model_step(replace(s, config=_config_of(other)), a)[0]
            except (IllegalAction, AssertionError, IndexError, KeyError, TypeError):
                continue
            alt = replace(alt, config=s.config)
            mine = en if preset == "du-en" else cs
            theirs = cs if preset == "du-en" else en
            bad_alt = broken(mine, s, a, alt)
            bad_own = broken(theirs, s, a, st.nxt)
            if bad_alt and not broken(theirs, s, a, alt) and bad_own:
                clauses = sorted({v.clause for v in (*bad_alt, *bad_own)})
                key = f"translation successors: {kind_of(a)} at {situation(s)} " \
                      f"{_content(s, a)} ({', '.join(clauses)})"
                if key not in found:
                    found[key] = Finding(
                        "translation", key, rs.name, tuple(clauses), st.seed,
                        tuple(map(str, st.prefix)), str(a),
                        f"{preset}'s contracts reject the {other_preset} successor "
                        f"({', '.join(v.clause for v in bad_alt)}) and {other_preset}'s reject "
                        f"the {preset} successor ({', '.join(v.clause for v in bad_own)})")
    return list(found.values())


def _config_of(game: GameBase[Any]) -> Any:
    return game.seeded_model(0).config




# ----------------------------------------------------------------------------- explanation


def register_entries() -> list[tuple[str, tuple[str, ...], str | None, tuple[str, ...], Any]]:
    """(id, clauses, option, reading values, entry) of the shipped register."""
    from ruleproof.properties.dawn_under.ambiguities import register

    return [(e.id, e.clauses, e.option, tuple(r.value for r in e.readings), e)
            for e in register()]


def replay(rs: RuleSet, f: Finding, options: dict[str, str] | None = None
           ) -> tuple[Any, Any] | None:
    """The state before the finding's action and the engine's successor, replayed from the
    witness (under extra ``options``); None if the witness does not replay."""
    opts = dict(rs.options)
    opts.update(options or {})
    game = game_of(replace(rs, options=tuple(sorted(opts.items()))))
    try:
        s = game.seeded_model(f.seed)
        for text in f.prefix:
            s = game.model_step(s, parse(game, text))[0]
        a = parse(game, f.action)
        try:
            return s, game.model_step(s, a)[0]
        except IllegalAction:
            return s, None
    except (IllegalAction, ValueError, MalformedInput):
        return None  # (a witness action outside the model's notation: a component move)


def explain(rs: RuleSet, findings: Sequence[Finding]) -> list[Finding]:
    """Mark each finding with the ambiguity register entry that poses its question: for a
    translation divergence, an entry naming one of its du-cs clauses; else an entry that names
    one of the finding's clauses and whose other reading, replayed on the witness, changes
    what the finding is about (the action's legality for a legality finding, the perturbed
    fields of the successor for an effect finding)."""
    out: list[Finding] = []
    entries = register_entries()
    for f in findings:
        if f.kind == "translation":
            hit = _by_clauses(f, entries)
            out.append(f.with_explanation(hit) if hit else f)
            continue
        base = replay(rs, f)
        hit = ""
        gruft = dict(rs.options).get("expansion") == "gruft"
        if base is not None:
            for eid, clauses, option, values, entry in entries:
                about = f.subject if f.kind == "effect" else f.clauses
                if option is None or hit or not set(clauses) & set(about):
                    continue
                if dict(entry.base_options).get("expansion") == "gruft" and not gruft:
                    continue
                for value in values:
                    if value == _current(rs, option):
                        continue
                    alt = _under(rs, base[0], f, {option: value})
                    if _differs(f, base[1], alt):
                        hit = eid
                        break
        out.append(f.with_explanation(hit) if hit else f)
    return out


_ILLEGAL = object()


def _under(rs: RuleSet, state: Any, f: Finding, options: dict[str, str]) -> Any:
    """The successor of the witness state under other options (same state, other rule
    config); None if the action is then illegal, ``_ILLEGAL`` marker avoided for typing."""
    from ruleproof.model.dawn_under import config as du_config
    from ruleproof.model.dawn_under.engine import apply
    from ruleproof.properties.dawn_under.scenarios import parse_action

    opts = dict(rs.options)
    opts.update(options)
    try:
        cfg = du_config.make_config(rs.count, du_config.parse_options(
            opts, base=du_config.preset_options(rs.preset)), preset=rs.preset)
    except Exception:
        return _ILLEGAL
    try:
        return apply(replace(state, config=cfg), parse_action(f.action))
    except (IllegalAction, AssertionError, IndexError):
        return None


def _differs(f: Finding, base: Any, alt: Any) -> bool:
    """Whether another reading changes what the finding is about: the action's legality
    (legality findings) or the perturbed fields of the successor (effect findings)."""
    if alt is _ILLEGAL:
        return False
    if (alt is None) != (base is None):
        return f.kind != "effect"  # an effect's question is not whether the action is legal
    if alt is None or base is None:
        return False
    if f.kind != "effect":
        return False
    for name in f.fields:
        x = getattr(base, name)
        y = getattr(alt, name)
        if x != y:
            return True
    return False


def _current(rs: RuleSet, option: str) -> str:
    from ruleproof.model.dawn_under import config as du_config
    from ruleproof.model.dawn_under.state import option_value

    opts = du_config.parse_options(dict(rs.options), base=du_config.preset_options(rs.preset))
    return option_value(opts, option)


def _by_clauses(f: Finding, entries: list[Any]) -> str:
    """A translation divergence is explained by an entry that names a du-cs clause of it."""
    cs_clauses = {c for c in f.clauses if c.startswith("du-cs:")}
    for eid, clauses, *_ in entries:
        if cs_clauses & set(clauses):
            return str(eid)
    return ""




def cycle_key(rs: RuleSet) -> tuple[str, tuple[str, ...]]:
    """``cycle <preset>`` (``cycle gruft`` under the expansion on du-en), in play:
    du-en:end.first-empty (the game ends only when a row is empty)."""
    key = f"cycle {rs.preset if rs.preset != 'du-en' or not rs.options else 'gruft'}"
    return key, ("du-en:end.first-empty",)


def translation(players: int, budget: Budget, deadline: float | None = None) -> list[Finding]:
    """du-en against du-cs at ``players`` (:func:`translation_gaps`), explained."""
    from ruleproof.properties.contracts.discovery import explain as explain_all

    return explain_all(rule_set(f"du-en/{players}"), translation_gaps(players, budget, deadline))


def compare_texts(profile: str) -> list[Finding]:
    """du-en's and du-cs's contracts compared at every player count of :data:`TEXT_PLAYERS`
    (``ambiguities --search``): the ``ci`` budget under the ci profile, else ``default``."""
    from ruleproof.properties.contracts.discovery import BUDGETS

    budget = BUDGETS["ci" if profile == "ci" else "default"]
    return [f for n in TEXT_PLAYERS for f in translation(n, budget)]


def symbolic() -> list[Finding]:
    """The z3 stake query's findings (properties/dawn_under/contracts/symbolic.py)."""
    from ruleproof.properties.dawn_under.contracts.symbolic import symbolic_findings

    return list(symbolic_findings())


# ----------------------------------------------------------------------------- witnesses


FACTS = ("to_move", "turn", "phase", "plague", "stakes_path", "reserve", "removed_rats")


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def scenario_text(rs: RuleSet, title: str, clauses: tuple[str, ...], seed: int,
                  actions: list[str], comment: str) -> str:
    """A scenario file replaying ``actions`` from the deal of ``seed`` under ``rs``, expecting
    the facts the engine ends in.

    Raises:
        ValueError: if the actions do not replay (a stale witness).
    """
    from ruleproof.properties.dawn_under.plugin import NAME
    from ruleproof.properties.dawn_under.scenarios import fact

    game = game_of(rs)
    state = game.seeded_model(seed)
    for text in actions:
        state = game.model_step(state, parse(game, text))[0]
    lines = [f"# {line}" for line in comment.splitlines()]
    lines += [f"title = {_toml(title)}", f"game = {_toml(NAME)}", f"preset = {_toml(rs.preset)}",
              f"players = {rs.count}", f"clauses = {_toml(sorted(clauses))}",
              f"actions = {_toml(actions)}"]
    if rs.options:
        lines += ["", "[options]"] + [f"{k} = {_toml(v)}" for k, v in rs.options]
    lines += ["", "[setup]", f"seed = {seed}", "", "[expect]"]
    for key in FACTS:
        try:
            lines.append(f"{_toml(key)} = {_toml(fact(state, key, ()))}")
        except KeyError:
            continue
    return "\n".join(lines) + "\n"


def witness(rs: RuleSet, f: Finding) -> str:
    """The witness file of a finding: the actions up to and including the finding's action
    (when the engine allows it), expecting the engine's facts."""
    actions = list(f.prefix)
    game = game_of(rs)
    state = game.seeded_model(f.seed)
    for text in actions:
        state = game.model_step(state, parse(game, text))[0]
    if parse(game, f.action) in game.model_legal(state):
        actions.append(f.action)
        note = f"the engine takes '{f.action}'"
    else:
        note = f"the engine refuses '{f.action}' here (not played)"
    comment = (f"Witness found by `ruleproof ambiguities --discover`: {f.key}.\n"
               f"{f.detail}; {note}.")
    return scenario_text(rs, f.key, f.clauses, f.seed, actions, comment)


FIXED: tuple[tuple[str, str, str], ...] = (
    ("under `plague_occupied=pass` (du-cs) a stake or garlic on the last neighbouring grave "
     "passed the plague on instead of ending it", "engine",
     "the plague ends when nothing is left to open "
     "(`test_du_cs_plague_ends_once_every_neighbour_is_opened`)"),
    ("the Count's grave stayed open for the rest of the turn, showing its vampire "
     "(gruft-en:count.empty: close it once the vampire is in)", "engine",
     "closed after its vampire goes in; engine and reference engine"),
    ("garlic found in the Count's grave: back to its owner?", "contract",
     "as any garlic found (gruft-en:play.base with du-en:ch3.garlic-back)"),
    ("du-cs:prubeh.gift read as 'holding three' alone", "contract",
     "the gift needs another stake taken; with none left the text is silent (register entry "
     "du.empty-path)"),
    ("perfect recall: two histories that differ in the player's own actions with equal plain "
     "observations", "docs", "the plain observation is not an information state with perfect "
     "recall; the interface's information-state string is (no collision in the sampled pairs)"),
)
"""What Dawn Under's discovery found and was fixed, not registered (found, side, fix), for
docs/discovery.md."""


@dataclass(frozen=True)
class _Discovery:
    """Dawn Under's capability ``"discovery"`` (see
    :class:`ruleproof.properties.contracts.discovery.DiscoveryGame`); ``fixed``: what its
    searches found that was fixed (:data:`FIXED`)."""

    default_rule_sets: tuple[str, ...] = DEFAULT_RULE_SETS
    fixed: tuple[tuple[str, str, str], ...] = FIXED

    def questions(self, state: Any) -> Sequence[Any]:
        return questions(state)

    def situation(self, state: Any) -> str:
        return situation(state)

    def target(self, state: Any, action: Any) -> str:
        return target(state, action)

    def why_illegal(self, state: Any, action: Any) -> tuple[str, ...]:
        return why_illegal(state, action)

    def found(self, state: Any, action: Any) -> str:
        return found(state, action)

    def perturbations(self, state: Any, action: Any, nxt: Any) -> Iterator[Perturbation]:
        return perturbations(state, action, nxt)

    def explain(self, rs: RuleSet, findings: Sequence[Finding]) -> list[Finding]:
        return explain(rs, findings)

    def translation(self, players: int, budget: Budget, deadline: float | None = None
                    ) -> list[Finding]:
        return translation(players, budget, deadline)

    def cycle_key(self, rs: RuleSet) -> tuple[str, tuple[str, ...]]:
        return cycle_key(rs)

    def symbolic(self) -> list[Finding]:
        return symbolic()

    def witness(self, rs: RuleSet, finding: Finding) -> str:
        return witness(rs, finding)


DISCOVERY = _Discovery()
"""The capability ``"discovery"`` of Dawn Under's plugin record."""

