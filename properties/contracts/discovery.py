"""Underdetermination discovery: what the contracts leave open, on reachable states.

Three searches over states of random play (Dawn Under presets and the expansion):

* **legality gaps** -- over a systematic action space, actions the engine refuses that no
  contract forbids, and actions it allows that no contract permits;
* **effect perturbations** -- generic changes of the engine's successor (who moves next, whether
  the turn ends, which end of a row, who gives or receives, counts +-1, lids closed or left
  open, which reserve lid) that still satisfy every contract;
* **translation differential** -- du-en's and du-cs's contracts compared on the same states:
  one forbids what the other permits, or one rejects the successor the other's engine produced.

Each finding has a key (what kind of question it is), the clause ids in play and a minimal
witness (seed, the actions before it, the action), and is *explained* when a register entry's
other reading changes the engine exactly there (replayed), or when the discovered register
(``spec/dawn_under/discovered.toml``) lists its key.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ruleproof.errors import IllegalAction
from ruleproof.properties.contracts.core import ContractSet, broken, forbidding, permitting
from ruleproof.properties.contracts.games import Engine, RuleSet, engine_of, rule_set


@dataclass(frozen=True)
class Finding:
    """One thing the contracts leave open.

    Attributes:
        kind: ``refused-unforbidden``, ``allowed-unpermitted``, ``effect``, ``translation``,
            ``symbolic`` or ``cycle``.
        key: what is open, independent of the witness (dedupe key).
        rule_set: the rule set it was found under.
        clauses: clause ids in play.
        seed, prefix, action: the witness (actions as text).
        detail: a readable description of the two readings.
        explained_by: register entry id that covers it ('' if new).
    """

    kind: str
    key: str
    rule_set: str
    clauses: tuple[str, ...]
    seed: int
    prefix: tuple[str, ...]
    action: str
    detail: str
    explained_by: str = ""
    fields: tuple[str, ...] = ()

    def with_explanation(self, entry: str) -> Finding:
        return replace(self, explained_by=entry)


@dataclass(frozen=True)
class Budget:
    """How much to search (profiles ci, default, thorough)."""

    games: int
    max_steps: int
    stride: int  # sample every stride-th state of a game for the legality space
    seconds: float


BUDGETS = {
    "ci": Budget(games=4, max_steps=250, stride=3, seconds=100.0),
    "default": Budget(games=12, max_steps=600, stride=2, seconds=400.0),
    "thorough": Budget(games=60, max_steps=1500, stride=1, seconds=3000.0),
}


# ----------------------------------------------------------------------------- sampling


@dataclass(frozen=True)
class Step:
    seed: int
    prefix: tuple[Any, ...]
    state: Any
    action: Any
    nxt: Any


def walk(engine: Engine, games: int, max_steps: int, seed: int = 0) -> Iterator[Step]:
    """Transitions of ``games`` random games (seeded)."""
    for g in range(games):
        rng = random.Random(1_000 + seed + g)
        state = engine.chance(engine.new(seed + g))
        prefix: list[Any] = []
        for _ in range(max_steps):
            if engine.terminal(state):
                break
            legal = engine.legal(state)
            if not legal:
                break
            action = legal[rng.randrange(len(legal))]
            nxt = engine.apply(state, action)
            yield Step(seed + g, tuple(prefix), state, action, nxt)
            prefix.append(action)
            state = engine.chance(nxt)


def action_space(state: Any) -> list[Any]:
    """A systematic Dawn Under action space for ``state``: every grave opening, placements and
    garlic into the pending grave and one other, stop, both ends of hand-overs, and the
    expansion's actions (every bat and Count target, every gift receiver)."""
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
    from ruleproof.model.gruft.state import Believe, CountTo, Doubt, GiftTo, PlayBat, part

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
    return _atype(action) in SLOTS.get(phase, ())


def _situation(state: Any) -> str:
    """A coarse description of where a state is (for keys): phase and plague."""
    phase = getattr(state, "phase", None)
    name = getattr(phase, "value", str(phase))
    plague = "plague" if getattr(state, "plague", None) is not None else "turn"
    extra = ""
    return f"{name}/{plague}{extra}"


def _target(state: Any, action: Any) -> str:
    """For a placement: into the grave just opened, one opened earlier in the plague, or
    another grave."""
    if _atype(action) not in ("PlaceVampire", "PlaceGarlic", "LeaveEmpty"):
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


def _atype(action: Any) -> str:
    return type(action).__name__


# ----------------------------------------------------------------------------- legality


def legality_gaps(rs: RuleSet, budget: Budget, sets: Sequence[ContractSet] | None = None,
                  engine: Engine | None = None, deadline: float | None = None
                  ) -> list[Finding]:
    """Actions the engine refuses that no contract forbids, and actions it allows that no
    contract permits (first witness per key)."""
    from ruleproof.model.dawn_under.engine import why_illegal

    engine = engine or engine_of(rs)
    found: dict[str, Finding] = {}
    for i, st in enumerate(walk(engine, budget.games, budget.max_steps)):
        if deadline is not None and time.perf_counter() > deadline:
            break
        if i % budget.stride:
            continue
        s = st.state
        contracts = rs.contracts(s, sets)
        legal = set(engine.legal(s))
        for a in action_space(s):
            if rs.alias(s, a) or not in_slot(s, a):
                continue
            allowed = a in legal
            forb = forbidding(contracts, s, a)
            if not allowed and not forb:
                key = f"refused-unforbidden {_atype(a)}{_target(s, a)} at {_situation(s)}"
                if key not in found:
                    try:
                        _, clauses = why_illegal(s, a)
                    except Exception:
                        clauses = ()
                    found[key] = Finding("refused-unforbidden", key, rs.name, tuple(clauses),
                                         st.seed, tuple(map(str, st.prefix)), str(a),
                                         f"the engine refuses '{a}' (citing "
                                         f"{', '.join(clauses) or 'nothing'}); no contract "
                                         "forbids it")
            elif allowed and not permitting(contracts, s, a):
                key = f"allowed-unpermitted {_atype(a)}{_target(s, a)} at {_situation(s)}"
                if key not in found:
                    nxt = engine.apply(s, a)
                    spoke = tuple(sorted({c.clause for c in contracts if c.requires is not None
                                          and c.requires(s, a, nxt) is not None}))
                    found[key] = Finding("allowed-unpermitted", key, rs.name, spoke, st.seed,
                                         tuple(map(str, st.prefix)), str(a),
                                         f"the engine allows '{a}'; no contract permits it")
    return list(found.values())


# ----------------------------------------------------------------------------- effects


Perturbation = tuple[str, Any, tuple[str, ...]]  # (name, perturbed successor, fields changed)


def perturbations(s: Any, a: Any, t: Any) -> Iterator[Perturbation]:
    """Generic alternatives to the successor ``t`` of a Dawn Under transition."""
    from ruleproof.model.dawn_under.state import Phase, Vampire
    from ruleproof.model.gruft.state import part

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


def effect_gaps(rs: RuleSet, budget: Budget, sets: Sequence[ContractSet] | None = None,
                engine: Engine | None = None, deadline: float | None = None) -> list[Finding]:
    """Perturbed successors that still satisfy every contract (first witness per key)."""
    engine = engine or engine_of(rs)
    found: dict[str, Finding] = {}
    for st in walk(engine, budget.games, budget.max_steps):
        if deadline is not None and time.perf_counter() > deadline:
            break
        s, a, t = st.state, st.action, st.nxt
        contracts = rs.contracts(s, sets)
        for name, alt, fields in perturbations(s, a, t):
            if alt == t:
                continue
            key = f"effect '{name}' after {_atype(a)} at {_situation(s)}"
            if key in found:
                continue
            if broken(contracts, s, a, alt):
                continue
            spoke = tuple(sorted({c.clause for c in contracts if c.requires is not None
                                  and c.requires(s, a, t) is not None}))
            found[key] = Finding("effect", key, rs.name, spoke, st.seed,
                                 tuple(map(str, st.prefix)), str(a),
                                 f"'{name}' ({', '.join(fields)}) differs from the engine's "
                                 "successor and still meets every contract", "", fields)
    return list(found.values())


# ----------------------------------------------------------------------------- translations


def translation_gaps(players: int, budget: Budget, deadline: float | None = None,
                     sets: tuple[ContractSet, ContractSet] | None = None) -> list[Finding]:
    """du-en's contracts against du-cs's on the states of both presets' random play: one
    forbids what the other permits, or one rejects the other engine's successor."""
    from ruleproof.properties.contracts.core import contract_set

    en_set, cs_set = sets or (contract_set("du-en"), contract_set("du-cs"))
    found: dict[str, Finding] = {}
    for preset, other_preset in (("du-en", "du-cs"), ("du-cs", "du-en")):
        rs = rule_set(f"{preset}/{players}")
        other = engine_of(rule_set(f"{other_preset}/{players}"))
        engine = engine_of(rs)
        for i, st in enumerate(walk(engine, budget.games, budget.max_steps)):
            if deadline is not None and time.perf_counter() > deadline:
                break
            s = st.state
            en = en_set.active(s)
            cs = cs_set.active(s)
            if i % budget.stride == 0:
                legal = set(engine.legal(s))
                for a in action_space(s):
                    if en_set.alias(s, a) or not in_slot(s, a):
                        continue
                    fe, fc = forbidding(en, s, a), forbidding(cs, s, a)
                    pe, pc = permitting(en, s, a), permitting(cs, s, a)
                    for what, forb, perm in (("du-en forbids, du-cs permits", fe, pc),
                                             ("du-cs forbids, du-en permits", fc, pe)):
                        if forb and perm:
                            key = f"translation {what}: {_atype(a)} at {_situation(s)} " \
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
                alt = other.apply(replace(s, config=_config_of(other, s)), a)
            except (IllegalAction, AssertionError, IndexError, KeyError, TypeError):
                continue
            alt = replace(alt, config=s.config)
            mine = en if preset == "du-en" else cs
            theirs = cs if preset == "du-en" else en
            bad_alt = broken(mine, s, a, alt)
            bad_own = broken(theirs, s, a, st.nxt)
            if bad_alt and not broken(theirs, s, a, alt) and bad_own:
                clauses = sorted({v.clause for v in (*bad_alt, *bad_own)})
                key = f"translation successors: {_atype(a)} at {_situation(s)} " \
                      f"{_content(s, a)} ({', '.join(clauses)})"
                if key not in found:
                    found[key] = Finding(
                        "translation", key, rs.name, tuple(clauses), st.seed,
                        tuple(map(str, st.prefix)), str(a),
                        f"{preset}'s contracts reject the {other_preset} successor "
                        f"({', '.join(v.clause for v in bad_alt)}) and {other_preset}'s reject "
                        f"the {preset} successor ({', '.join(v.clause for v in bad_own)})")
    return list(found.values())


def _config_of(engine: Engine, like: Any) -> Any:
    return engine.new(0).config


# ----------------------------------------------------------------------------- explanation


def register_entries() -> list[tuple[str, tuple[str, ...], str | None, tuple[str, ...], Any]]:
    """(id, clauses, option, reading values, entry) of the shipped register."""
    from ruleproof.properties.dawn_under.ambiguities import register

    return [(e.id, e.clauses, e.option, tuple(r.value for r in e.readings), e)
            for e in register()]


@dataclass(frozen=True)
class Accepted:
    """An accepted finding of ``spec/dawn_under/discovered.toml``."""

    id: str
    title: str
    clauses: tuple[str, ...]
    question: str
    keys: tuple[str, ...]
    witnesses: tuple[str, ...]
    readings: tuple[tuple[str, str], ...]
    option: str | None = None


def load_discovered(path: Any = None) -> tuple[Accepted, ...]:
    """Load and validate the discovered register.

    Raises:
        MalformedInput: naming file and line: unknown clause, missing witness file, fewer than
            two readings, an unknown option, a duplicate id or key.
    """
    from ruleproof.errors import MalformedInput
    from ruleproof.model.dawn_under.config import option_values
    from ruleproof.spec import _read_toml, all_clause_ids, spec_path, table_lines

    path = path or spec_path("dawn_under", "discovered.toml")
    data, text = _read_toml(path)
    lines = table_lines(text, "finding")
    known = all_clause_ids()
    out: list[Accepted] = []
    ids: set[str] = set()
    keys: set[str] = set()
    for i, e in enumerate(data.get("finding", [])):
        line = lines[i] if i < len(lines) else None

        def fail(what: str, eid: object = e.get("id"), line: int | None = line
                 ) -> MalformedInput:
            return MalformedInput(f"finding {eid}: {what}", file=str(path), line=line)

        eid = e.get("id")
        if not isinstance(eid, str) or eid in ids:
            raise fail("missing or duplicate id")
        ids.add(eid)
        for c in e.get("clauses", []):
            if c not in known:
                raise fail(f"unknown clause {c}")
        witnesses = (e.get("witness"), *e.get("witnesses", []))
        for w in witnesses:
            if not isinstance(w, str) or not spec_path(*w.split("/")).is_file():
                raise fail(f"witness file {w} is missing")
        readings = tuple((str(r["value"]), str(r.get("summary", "")))
                         for r in e.get("reading", []))
        if len(readings) < 2:
            raise fail("needs at least two readings")
        option = e.get("option")
        if option is not None and option not in option_values():
            raise fail(f"unknown option {option}")
        for k in e.get("keys", []):
            if k in keys:
                raise fail(f"key {k!r} is listed twice")
            keys.add(str(k))
        out.append(Accepted(eid, str(e.get("title", eid)), tuple(e.get("clauses", [])),
                            str(e.get("question", "")), tuple(map(str, e.get("keys", []))),
                            tuple(map(str, witnesses)), readings, option))
    return tuple(out)


def discovered_register() -> dict[str, Accepted]:
    """The accepted findings by discovery key."""
    return {k: a for a in load_discovered() for k in a.keys}


def replay(rs: RuleSet, f: Finding, options: dict[str, str] | None = None
           ) -> tuple[Any, Any] | None:
    """The state before the finding's action and the engine's successor, replayed from the
    witness (under extra ``options``); None if the witness does not replay."""
    from ruleproof.properties.contracts.games import dawn_under_engine

    opts = dict(rs.options)
    opts.update(options or {})
    engine = dawn_under_engine(replace(rs, options=tuple(sorted(opts.items()))))
    assert engine.parse is not None
    try:
        s = engine.new(f.seed)
        for text in f.prefix:
            s = engine.apply(s, engine.parse(text))
        a = engine.parse(f.action)
        try:
            return s, engine.apply(s, a)
        except IllegalAction:
            return s, None
    except (IllegalAction, ValueError):
        return None


def explain(rs: RuleSet, findings: list[Finding]) -> list[Finding]:
    """Mark each finding with the register entry that covers it: an entry whose other reading,
    replayed on the witness, changes the engine's legality of the action or its successor;
    or an accepted entry of the discovered register listing the key."""
    accepted = discovered_register()
    out: list[Finding] = []
    entries = register_entries()
    for f in findings:
        if f.key in accepted:
            out.append(f.with_explanation(accepted[f.key].id))
            continue
        if f.kind == "translation" or rs.game != "dawn-under":
            hit = _by_clauses(f, entries)
            out.append(f.with_explanation(hit) if hit else f)
            continue
        base = replay(rs, f)
        hit = ""
        gruft = dict(rs.options).get("expansion") == "gruft"
        if base is not None:
            for eid, _clauses, option, values, entry in entries:
                if option is None or hit:
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
        return True
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


def cycle_findings(names: Sequence[str], accepted: dict[str, Accepted]) -> list[Finding]:
    """A reachable loop per rule set (search, properties/endless.py), as findings."""
    from ruleproof.properties.endless import find_cycle, replay_cycle

    out: list[Finding] = []
    for name in names:
        rs = rule_set(name)
        c = find_cycle(rs, games=2)
        if c is None or not replay_cycle(rs, c):
            continue
        key = f"cycle {rs.preset if rs.preset != 'du-en' or not rs.options else 'gruft'}"
        f = Finding("cycle", key, name, ("du-en:end.first-empty",), c.seed, c.prefix,
                    " ".join(c.loop), f"the loop {list(c.loop)} returns to the same state")
        out.append(f.with_explanation(accepted[key].id) if key in accepted else f)
    return out


# ----------------------------------------------------------------------------- all of it


@dataclass
class Report:
    """Everything discovery found, with timings.

    Attributes:
        findings: in the order of the searches (per rule set legality then effects, the
            translation differential, cycles per rule set, the symbolic search).
        seconds: wall-clock time.
        searched: rule set -> legality and effect findings before explanation.
        cut: the searches still running when the profile's time ran out (their findings
            depend on speed; without cuts a run on Ray equals a single process's).
        workers: searches run at a time (1: this process, no Ray).
    """

    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0
    searched: dict[str, int] = field(default_factory=dict)
    cut: list[str] = field(default_factory=list)
    workers: int = 1

    @property
    def new(self) -> list[Finding]:
        return [f for f in self.findings if not f.explained_by]


KINDS = ("legality", "effect", "translation", "cycles", "symbolic")
"""The discovery searches, in report order."""

DEFAULT_RULE_SETS = ("du-en/4", "du-cs/4", "2p/2", "gruft/4")
"""The rule sets discovery searches unless told otherwise."""


@dataclass(frozen=True)
class Search:
    """One independent discovery search: ``kind`` (of :data:`KINDS`) on ``rule_set`` (''
    for the translation differential and the symbolic search)."""

    kind: str
    rule_set: str = ""

    def describe(self) -> str:
        return f"{self.kind} {self.rule_set}".strip()


def searches(names: Sequence[str], kinds: Sequence[str]) -> list[Search]:
    """The searches of a discovery run, in report order."""
    out = [Search(k, n) for n in names for k in ("legality", "effect") if k in kinds]
    if "translation" in kinds:
        out.append(Search("translation"))
    if "cycles" in kinds:
        out += [Search("cycles", n) for n in names]
    if "symbolic" in kinds:
        out.append(Search("symbolic"))
    return out


@dataclass(frozen=True)
class SearchRun:
    """Runs ``plan[i]`` under ``profile`` until the wall-clock deadline ``until`` (seconds
    since the epoch); a picklable callable for Ray workers. Returns the explained findings
    and whether the deadline passed before the search ended."""

    plan: tuple[Search, ...]
    profile: str
    until: float
    sets_for: Callable[[RuleSet], Sequence[ContractSet] | None] | None = None
    engine_for: Callable[[RuleSet], Engine | None] | None = None

    def __call__(self, index: int) -> tuple[list[Finding], bool]:
        unit = self.plan[index]
        budget = BUDGETS[self.profile]
        deadline = time.perf_counter() + (self.until - time.time())
        found: list[Finding]
        if unit.kind in ("legality", "effect"):
            rs = rule_set(unit.rule_set)
            sets = self.sets_for(rs) if self.sets_for else None
            engine = self.engine_for(rs) if self.engine_for else None
            search = legality_gaps if unit.kind == "legality" else effect_gaps
            found = explain(rs, search(rs, budget, sets, engine, deadline))
        elif unit.kind == "translation":
            found = explain(rule_set("du-en/4"), translation_gaps(4, budget, deadline))
        elif unit.kind == "cycles":
            found = cycle_findings([unit.rule_set], accepted=discovered_register())
        elif unit.kind == "symbolic":
            from ruleproof.properties.symbolic.contracts import symbolic_findings

            found = list(symbolic_findings())
        else:
            raise ValueError(f"unknown discovery search {unit.kind!r}")
        return found, time.time() > self.until and unit.kind in ("legality", "effect",
                                                                  "translation")


def discover(profile: str = "ci", rule_sets: Sequence[str] | None = None,
             sets_for: Callable[[RuleSet], Sequence[ContractSet] | None] | None = None,
             engine_for: Callable[[RuleSet], Engine | None] | None = None,
             kinds: Sequence[str] = KINDS, *, workers: int = 1, address: str | None = None,
             progress: Callable[[str], None] | None = None) -> Report:
    """Run every discovery search under ``profile`` (``ci``, ``default``, ``thorough``).

    ``sets_for``/``engine_for`` replace the contracts or the engine of a rule set (teeth
    tests: a weakened contract, a planted silent decision). With ``workers`` > 1 or an
    ``address`` the independent searches (:func:`searches`) run on Ray workers (a local Ray,
    or the cluster at ``address``); all share the profile's deadline, and the findings, in the
    same order, equal a single process's unless a search was cut (``Report.cut``).
    ``progress`` is called with each finished search's name.

    Raises:
        MalformedInput: Ray missing, or nothing listens at ``address``.
    """
    from ruleproof.properties.explore.distributed import fan_out_until

    start = time.perf_counter()
    names = list(rule_sets or DEFAULT_RULE_SETS)
    plan = tuple(searches(names, kinds))
    run = SearchRun(plan, profile, time.time() + BUDGETS[profile].seconds, sets_for,
                    engine_for)

    def done(index: int, result: tuple[list[Finding], bool]) -> None:
        if progress is not None:
            progress(plan[index].describe())

    results = fan_out_until(range(len(plan)), run, workers=workers, address=address,
                            done=done)
    report = Report(searched=dict.fromkeys(names, 0),
                    workers=workers if workers > 1 or address else 1)
    for index, (found, cut) in results:
        unit = plan[index]
        report.findings += found
        if unit.kind in ("legality", "effect"):
            report.searched[unit.rule_set] = report.searched.get(unit.rule_set, 0) + len(found)
        if cut:
            report.cut.append(unit.describe())
    report.seconds = time.perf_counter() - start
    return report
