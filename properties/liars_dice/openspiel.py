"""Liar's Dice's capability ``openspiel``: the adapter between OpenSpiel's C++ ``liars_dice``
and the model, and the comparison behind the table of docs/liars-dice.md.

OpenSpiel's game takes ``players`` (2 only: its minimum and maximum), ``numdice`` (per player;
``numdice0``, ``numdice1`` per seat), ``dice_sides`` and ``bidding_rule`` (``reset-face`` or
``reset-quantity``). Its ids: chance outcome ``k`` rolls face ``k+1``; a bid of ``Q`` dice of
face ``F`` is ``(Q-1)*sides + F-1`` under ``reset-face`` and ``(F-1)*total + Q-1`` under
``reset-quantity`` (``total`` the dice on the table); ``Liar`` is ``total*sides``. The model's
action table numbers its bids the same way when its parameter ``order`` is ``quantity``
(``reset-face``) or ``face`` (``reset-quantity``), so the generic ``conform --openspiel``
drives OpenSpiel by the model's ids unchanged; :meth:`OpenSpielAdapter.action` checks that
by OpenSpiel's own ``ActionToString`` (``Q-F``, ``Liar``, ``Roll F``).

The comparison runs, for each setting of :data:`SETTINGS`, the command ``ruleproof conform
--openspiel --identify --json`` (:func:`compare`, in a process of its own: this layer does not
import the interop layer) and the exhaustive one-bid comparison (:func:`exhaustive`), saves the
shortest trace of every difference (``ruleproof replay`` reruns it) and writes the tables.
Regenerate them with::

    python -m ruleproof.properties.liars_dice.openspiel --write docs/liars-dice.md

which replaces the text between the markers ``<!-- openspiel-table -->`` and
``<!-- /openspiel-table -->`` of that page.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model.liars_dice.rules import LIAR, Bid, Call, Roll


@dataclass(frozen=True)
class Setting:
    """One parameter setting of OpenSpiel's ``liars_dice`` (two players)."""

    numdice: int
    sides: int
    bidding_rule: str

    @property
    def game_string(self) -> str:
        """OpenSpiel's game string."""
        return (f"liars_dice(numdice={self.numdice},dice_sides={self.sides},"
                f"bidding_rule={self.bidding_rule})")

    @property
    def order(self) -> str:
        """The model's action numbering matching OpenSpiel's ids."""
        return "quantity" if self.bidding_rule == "reset-face" else "face"

    def params(self) -> dict[str, Any]:
        """The model's parameters for this setting (size in the option map, as ``conform``
        passes them)."""
        return {"players": 2, "options": {"dice": str(self.numdice), "sides": str(self.sides),
                                          "order": self.order}}

    @property
    def label(self) -> str:
        return f"numdice={self.numdice}, dice_sides={self.sides}, {self.bidding_rule}"


SETTINGS = tuple(Setting(n, s, b) for b in ("reset-face", "reset-quantity")
                 for n, s in ((1, 6), (2, 6), (1, 3), (2, 3), (3, 2)))
"""The settings compared: both bidding rules, one to three dice, two to six sides (OpenSpiel
takes two players only)."""


class OpenSpielAdapter:
    """The capability ``openspiel`` (see the module docstring)."""

    settings = SETTINGS

    def action(self, spiel_state: Any, action_id: int) -> Bid | Call | Roll:
        """The model's typed action of OpenSpiel's id at ``spiel_state``, read from
        OpenSpiel's ``ActionToString``.

        Raises:
            MalformedInput: a string the adapter does not know.
        """
        text = spiel_state.action_to_string(spiel_state.current_player(), action_id)
        if text == "Liar":
            return LIAR
        if text.startswith("Roll "):
            return Roll(int(text.split()[1]))
        q, sep, f = text.partition("-")
        if sep and q.isdigit() and f.isdigit():
            return Bid(int(q), int(f))
        raise MalformedInput(f"OpenSpiel liars_dice action {action_id} prints {text!r}, "
                             "which names no bid, call or roll")


OPENSPIEL = OpenSpielAdapter()
"""The capability ``openspiel``."""


@dataclass(frozen=True)
class Row:
    """What the comparison found for one setting."""

    setting: Setting
    report: str
    readings: dict[str, str]
    fits: bool
    excluded: tuple[str, ...]
    undecided: tuple[str, ...]
    divergence: str
    trace: str
    games: int
    steps: int


def _names(setting: Setting, options: dict[str, str], actions: Sequence[int]) -> list[str]:
    """The model's names of ``actions`` (rolls as ``roll F``) under ``options``."""
    from ruleproof.properties.plugin import make_game

    params = setting.params()
    params["options"] = {**params["options"], **options}
    model = make_game("liars-dice", **params)
    st = model.new_initial_state()
    out = []
    for a in actions:
        out.append(model.action_to_string(st.current_player(), a))
        st = st.apply(a)
    return out


def compare(setting: Setting, budget: float, seed: int = 0) -> Row:
    """Identify the readings OpenSpiel follows under ``setting`` by ``ruleproof conform
    --openspiel --identify --json`` run in a process of its own.

    Raises:
        MalformedInput: the command failed (OpenSpiel missing, the setting refused).
    """
    import json
    import subprocess
    import sys

    opts = ",".join(f"{k}={v}" for k, v in setting.params()["options"].items())
    cmd = [sys.executable, "-m", "ruleproof", "conform", "--openspiel", setting.game_string,
           "--game", "liars-dice", "-P", f"options={opts}", "--identify", "--json",
           "--budget", str(budget), "--seed", str(seed)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        raise MalformedInput(f"{' '.join(cmd[2:])}: exit {done.returncode}: "
                             f"{(done.stderr or done.stdout).strip()[:300]}")
    found = json.loads(done.stdout)
    readings = {str(k): str(v) for k, v in found["readings"].items()}
    divergence = ""
    u = found.get("unexplained")
    if u:
        names = _names(setting, readings, u["actions"])
        divergence = (f"step {u['step']}: {u['kind']} differs: model {u['model']}; target "
                      f"{u['target']}; actions: {', '.join(names)}")
    excluded = tuple(f"{e['option']}={e['value']} (step {e['game']['step']}: "
                     f"{e['game']['kind']})" for e in found["excluded"])
    report = json.dumps(found, indent=1)
    return Row(setting, report, readings, bool(found["fits"]), excluded,
               tuple(found["undecided"]), divergence, "", int(found["games"]),
               int(found["steps"]))


@dataclass(frozen=True)
class Finding:
    """How one reading (``option=value``) fares in the exhaustive one-bid comparison:
    ``positions`` compared of the aspect the option governs, ``differ`` of them differing,
    and the first shortest one (``divergence``) with its actions by name."""

    option: str
    value: str
    positions: int
    differ: int
    divergence: Difference | None = None
    names: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Difference:
    """Where OpenSpiel and the model part: after ``actions`` (ids, rolls included), the
    ``kind`` (``legal``, ``terminal``, ``returns``) differs; what each says, and what OpenSpiel
    reported there (its legal ids, its returns)."""

    kind: str
    model: str
    target: str
    actions: tuple[int, ...]
    legal: tuple[int, ...] = ()
    returns: tuple[float, ...] = ()

    @property
    def step(self) -> int:
        return len(self.actions)


ASPECT = {"raise": "legal", "spot_on": "legal", "rounds": "terminal", "wild": "returns"}
"""What each option governs in a one-bid game: the legal set (after the roll and after one
bid), whether a challenge ends the game, the returns of a challenge that ends it."""


def exhaustive(setting: Setting) -> list[Finding]:
    """Every roll of the dice, every opening bid, then a challenge: OpenSpiel's legal sets,
    end and returns against the model's under each reading, one option at a time, each judged
    only on the aspect it governs (:data:`ASPECT`); the other options at the value that
    differs least from OpenSpiel (found by a first pass with the others at their defaults).

    Raises:
        MalformedInput: OpenSpiel missing or the setting refused.
    """
    import itertools

    from ruleproof.model.liars_dice.rules import OPTIONS

    try:
        import pyspiel
    except ImportError:
        raise MalformedInput('the comparison needs open_spiel (pip install ".[openspiel]")'
                             ) from None
    spiel = pyspiel.load_game(setting.game_string)
    rolls = list(itertools.product(range(setting.sides), repeat=2 * setting.numdice))
    first_pass = _pass(setting, spiel, rolls, {})
    best: dict[str, str] = {}
    for option in OPTIONS:
        mine = [f for f in first_pass if f.option == option]
        best[option] = min(mine, key=lambda f: f.differ).value
    return _pass(setting, spiel, rolls, best)


def _pass(setting: Setting, spiel: Any, rolls: list[tuple[int, ...]],
          base: dict[str, str]) -> list[Finding]:
    """One pass of :func:`exhaustive`: each reading with the other options at ``base``."""
    from ruleproof.model.liars_dice.rules import OPTIONS
    from ruleproof.properties.plugin import make_game

    total = 2 * setting.numdice
    out: list[Finding] = []
    for option, values in OPTIONS.items():
        aspect = ASPECT[option]
        for value in values:
            params = setting.params()
            params["options"] = {**params["options"], **base, option: value}
            model = make_game("liars-dice", **params)
            positions = differ = 0
            first: Difference | None = None
            for roll in rolls:
                ss, ms = spiel.new_initial_state(), model.new_initial_state()
                for k in roll:
                    ss.apply_action(k)
                    ms = ms.apply(k)
                done = list(roll)

                def found(kind: str, m: str, t: str, acts: list[int], player: int,
                          legal: list[int] | None = None,
                          ret: list[float] | None = None) -> Difference:
                    return Difference(kind, m, t, tuple(acts), tuple(legal or ()),
                                      tuple(ret or ()))

                if aspect == "legal":
                    positions += 1
                    if sorted(ss.legal_actions()) != ms.legal_actions():
                        differ += 1
                        first = first or found("legal", str(ms.legal_actions()),
                                               str(sorted(ss.legal_actions())), done,
                                               ss.current_player(), sorted(ss.legal_actions()))
                common = sorted(set(ss.legal_actions()) & set(ms.legal_actions()))
                for b in common:
                    s2, m2 = ss.child(b), ms.apply(b)
                    acts = [*done, b]
                    if aspect == "legal":
                        positions += 1
                        if sorted(s2.legal_actions()) != m2.legal_actions():
                            differ += 1
                            if first is None or len(first.actions) > len(acts):
                                first = found("legal", str(m2.legal_actions()),
                                              str(sorted(s2.legal_actions())), acts,
                                              s2.current_player(), sorted(s2.legal_actions()))
                        continue
                    liar = total * setting.sides
                    if liar not in s2.legal_actions() or liar not in m2.legal_actions():
                        continue
                    s3, m3 = s2.child(liar), m2.apply(liar)
                    acts = [*acts, liar]
                    positions += 1
                    if aspect == "terminal" and s3.is_terminal() != m3.is_terminal():
                        differ += 1
                        first = first or found("terminal", str(m3.is_terminal()),
                                               str(s3.is_terminal()), acts,
                                               int(s3.current_player()))
                    elif aspect == "returns" and s3.is_terminal() and m3.is_terminal() and \
                            list(s3.returns()) != m3.returns():
                        differ += 1
                        first = first or found("returns", str(m3.returns()), str(s3.returns()),
                                               acts, int(s3.current_player()),
                                               ret=list(s3.returns()))
            names: tuple[str, ...] = ()
            if first is not None:
                st = model.new_initial_state()
                named = []
                for a in first.actions:
                    named.append(model.action_to_string(st.current_player(), a))
                    st = st.apply(a)
                names = tuple(named)
            out.append(Finding(option, value, positions, differ, first, names,
                               tuple(sorted({**base, option: value}.items()))))
    return out


def exhaustive_table(setting: Setting, findings: Sequence[Finding], traces: Path | None
                     ) -> tuple[str, list[str]]:
    """(the per-setting Markdown table of :func:`exhaustive`'s findings, lines), saving the
    shortest trace of every differing reading under ``traces``."""
    lines = [f"#### `{setting.game_string}`", "",
             "| option | reading | positions compared | differing | verdict | shortest trace |",
             "| --- | --- | --- | --- | --- | --- |"]
    follows: list[str] = []
    for f in findings:
        if f.differ == 0:
            verdict, trace = "follows", "-"
            follows.append(f"{f.option}={f.value}")
        else:
            assert f.divergence is not None
            verdict = f"differs ({f.divergence.kind})"
            trace = " ".join(f.names)
            if traces is not None:
                name = (f"openspiel-{setting.numdice}d{setting.sides}-{setting.bidding_rule}-"
                        f"{f.option}-{f.value}.jsonl")
                (traces / name).write_text(trace_text(setting, f), encoding="utf-8")
                trace += f" (`ruleproof replay spec/liars_dice/traces/{name}`)"
        lines.append(f"| {f.option} | {f.value} | {f.positions} | {f.differ} | {verdict} | "
                     f"{trace} |")
    return "\n".join(lines), follows


def trace_text(setting: Setting, f: Finding) -> str:
    """The difference of ``f`` as a trace ``ruleproof replay`` reads: the header names the
    model's options and the first roll as the set-up, the bid (and call) as steps, and what
    OpenSpiel reported there as the last line's facts (its legal actions, that the game is
    over, its winner). Replaying it reports the difference (exit 1).

    Raises:
        ValueError: the trace would replay as conforming (cannot happen for a real
            difference).
    """
    from ruleproof.properties.conformance.replay import replay
    from ruleproof.properties.conformance.trace import dump_lines, header_object, parse_trace
    from ruleproof.properties.plugin import make_game

    d = f.divergence
    assert d is not None
    params = setting.params()
    params["options"] = {**params["options"], **dict(f.options)}
    model = make_game("liars-dice", **params)
    total = 2 * setting.numdice
    rolls, moves = d.actions[:total], d.actions[total:]
    dice = ["".join(str(k + 1) for k in rolls[p * setting.numdice:(p + 1) * setting.numdice])
            for p in range(2)]
    header = header_object("liars-dice", 2, {k: str(v) for k, v in params["options"].items()},
                           setup={"dice": dice}, engine=f"openspiel:{setting.game_string}",
                           note=f"nonconforming: {d.kind} differs after {d.step} actions: "
                                f"model {d.model}; OpenSpiel {d.target}")
    st = model.new_initial_state()
    for a in rolls:
        st = st.apply(a)
    objects: list[dict[str, Any]] = [header]
    for a in moves:
        player = st.current_player()
        objects.append({"step": len(objects), "player": player,
                        "action": model.action_to_string(player, a)})
        st = st.apply(a)
    if d.kind == "legal":
        facts: dict[str, Any] = {"legal": [model.action_to_string(st.current_player(), a)
                                           for a in d.legal if a < len(model.table)]}
    elif d.kind == "terminal":
        facts = {"state": {"to_move": None}}
    else:
        best = max(d.returns)
        facts = {"state": {"winner": d.returns.index(best)}}
    objects[-1] = {**objects[-1], **facts}
    text = dump_lines(objects)
    if replay(parse_trace(text, file="<openspiel trace>")).conforms:
        raise ValueError(f"the trace of {f.option}={f.value} would replay as conforming")
    return text


def table(rows: Sequence[Row], budget: float) -> str:
    """The Markdown table of docs/liars-dice.md."""
    out = ["| OpenSpiel setting | readings it follows | excluded (first game that shows it) | "
           "not told apart | divergence no reading explains |",
           "| --- | --- | --- | --- | --- |"]
    for r in rows:
        follows = ", ".join(f"{k}={v}" for k, v in sorted(r.readings.items())) or "the defaults"
        div = r.divergence or "none"
        out.append(f"| `{r.setting.game_string}` | {follows} | {'; '.join(r.excluded) or '-'} | "
                   f"{', '.join(r.undecided) or '-'} | {div} |")
    out += ["", f"{sum(r.games for r in rows)} games, {sum(r.steps for r in rows)} steps "
            f"compared ({budget:g} s of search per setting, seed 0)."]
    return "\n".join(out)


START, END = "<!-- openspiel-table -->", "<!-- /openspiel-table -->"


def main(argv: Sequence[str] | None = None) -> int:
    """Compare every setting, print the table, and with ``--write PAGE`` put it between the
    page's markers. Exit 0 (2 for bad input)."""
    from ruleproof.spec import spec_path

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budget", type=float, default=30.0, help="seconds per setting")
    ap.add_argument("--write", type=Path, help="the page whose table to replace")
    ap.add_argument("--traces", type=Path, default=spec_path("liars_dice", "traces"),
                    help="where to save the traces")
    args = ap.parse_args(argv)
    rows = []
    parts: list[str] = []
    try:
        args.traces.mkdir(parents=True, exist_ok=True)
        for s in SETTINGS:
            row = compare(s, args.budget)
            print(row.report, flush=True)
            rows.append(row)
            part, _follows = exhaustive_table(s, exhaustive(s), args.traces)
            print(part, flush=True)
            parts.append(part)
    except (MalformedInput, ValueError) as exc:
        print(f"error: {exc.one_line() if isinstance(exc, MalformedInput) else exc}")
        return 2
    text = "\n".join(["### Search: `conform --openspiel --identify`", "",
                          table(rows, args.budget), "",
                          "### Exhaustive: every roll, every opening bid, then a challenge",
                          "", "\n\n".join(parts)])
    print(text)
    if args.write is not None:
        page = args.write.read_text(encoding="utf-8")
        if START not in page or END not in page:
            print(f"error: {args.write} has no {START} ... {END} markers")
            return 2
        head, _, rest = page.partition(START)
        _, _, tail = rest.partition(END)
        args.write.write_text(f"{head}{START}\n{text}\n{END}{tail}", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
