"""Golden traces of Dracula: seeded random games recorded before the engine was split and sped
up (issues #10, #14), replayed here so that any change of behaviour shows.

Each recorded game is (rules, seed, policy, number of actions, winner, hash). The hash folds,
for every action, the action's string and a summary of the state after it (every rule-relevant
field and the log events the action added, with what each side saw). A few games are also kept
in full, so a divergence can be shown at the first step that differs.

Two policies: ``uniform`` picks every action (chance outcomes too) uniformly at random from
``legal_actions``; ``sensible`` uses :func:`sensible_choice` for the players and the engine's
own seeded :func:`resolve_chance` for chance steps.

Re-record (only when a rule change is intended): ``python -m tests.test_dracula_golden``.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from ruleproof.model import CHANCE
from ruleproof.model.dracula import (
    DraculaRules,
    State,
    apply,
    current_player,
    is_terminal,
    legal_actions,
    new_game,
    resolve_chance,
    sensible_choice,
)

GOLDEN = Path(__file__).parent / "golden" / "dracula"
MAX_ACTIONS = 1000

# Every rule option that changes play, at its non-default reading (spec/dracula/ambiguities.toml).
VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {"crucifix_exception": "breath-of-night"},
    {"barrier_adjacency": "corner"},
    {"barrier_optional": False},
    {"rebellion_extra_turn": "always"},
    {"vigilance_scope": "next-special"},
    {"reinforcement": "move-and-hunter"},
    {"no_look_ends_move": True},
    {"first_player": "van-helsing"},
    {"depths": "known-own-only"},
)
GAMES_DEFAULT = 60
GAMES_PER_VARIANT = 25
FULL_TRACES = 3


def summary(before: State | None, after: State) -> str:
    """A text summary of ``after``: every rule-relevant field, the pending agenda and the log
    events added since ``before`` (all of them when ``before`` is None)."""
    s = after
    agenda = ";".join(f"{st.kind}/{st.player}/{st.n}/{','.join(st.colours)}" for st in s.agenda)
    parts: list[object] = [
        s.step, agenda, s.board_cards, s.pos, s.hand, s.pool, s.enc_discard, s.captured,
        s.life, s.current, s.aside, s.adiscard, s.barriers, s.known, s.turn, s.active, s.steps,
        s.can_look, s.revealed, s.played, s.use_special, s.battle_won, s.breath_turn,
        s.whisper_turn, s.vigilance, s.turned, s.winner, s.reason,
    ]
    start = 0 if before is None else len(before.log)
    events = [f"{e.full}|{e.seen[0]}|{e.seen[1]}" for e in after.log[start:]]
    return repr(parts) + "#" + "\n".join(events)


def play(rules: DraculaRules, seed: int, policy: str) -> tuple[list[tuple[str, str]], State]:
    """One seeded random game as (action string, state summary) pairs, the first pair being
    ("start", initial summary), and the final state."""
    rng = random.Random(seed)
    s = new_game(seed, rules)
    out = [("start", summary(None, s))]
    n = 0
    while not is_terminal(s) and n < MAX_ACTIONS:
        before = s
        if policy == "sensible" and current_player(s) == CHANCE:
            s = resolve_chance(s)
            text = "resolve-chance"
        else:
            if policy == "sensible":
                action = sensible_choice(s, rng)
            else:
                options = legal_actions(s)
                action = options[rng.randrange(len(options))]
            s = apply(s, action)
            text = str(action)
        n += 1
        out.append((text, summary(before, s)))
    return out, s


def digest(trace: list[tuple[str, str]]) -> str:
    """sha256 over the whole sequence of (action, summary) pairs."""
    h = hashlib.sha256()
    for action, summ in trace:
        h.update(action.encode())
        h.update(b"\x1f")
        h.update(summ.encode())
        h.update(b"\x1e")
    return h.hexdigest()


def games() -> list[tuple[dict[str, Any], int, str]]:
    """(rule options, seed, policy) of every recorded game."""
    out: list[tuple[dict[str, Any], int, str]] = []
    for i, options in enumerate(VARIANTS):
        count = GAMES_DEFAULT if not options else GAMES_PER_VARIANT
        for k in range(count):
            seed = 1000 * i + k
            out.append((options, seed, "uniform" if k % 2 == 0 else "sensible"))
    return out


def record() -> None:
    """Write tests/golden/dracula/games.json and the full traces (re-recording)."""
    GOLDEN.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    full: list[dict[str, Any]] = []
    for options, seed, policy in games():
        rules = DraculaRules(**options)
        trace, final = play(rules, seed, policy)
        rows.append({"rules": options, "seed": seed, "policy": policy,
                     "actions": len(trace) - 1, "winner": final.winner, "hash": digest(trace)})
    # a few short games of different rule sets in full
    picked: set[str] = set()
    for row in sorted(rows, key=lambda r: (r["actions"], r["seed"])):
        key = json.dumps(row["rules"], sort_keys=True)
        if key in picked or row["winner"] is None:
            continue
        picked.add(key)
        trace, _ = play(DraculaRules(**row["rules"]), row["seed"], row["policy"])
        full.append({"rules": row["rules"], "seed": row["seed"], "policy": row["policy"],
                     "trace": [list(p) for p in trace]})
        if len(full) == FULL_TRACES:
            break
    lines = ",\n".join(json.dumps(r, sort_keys=True) for r in rows)
    (GOLDEN / "games.json").write_text(
        f'{{"format": 1, "max_actions": {MAX_ACTIONS}, "games": [\n{lines}\n]}}\n')
    (GOLDEN / "full.json").write_text(json.dumps({"format": 1, "games": full}, indent=0) + "\n")


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / name).read_text())
    return data


def test_golden_covers_every_rule_option() -> None:
    """Every non-default reading of every option is among the recorded games."""
    rows = _load("games.json")["games"]
    assert len(rows) >= 250
    seen = {json.dumps(r["rules"], sort_keys=True) for r in rows}
    defaults = DraculaRules()
    changed = {name for r in rows for name in r["rules"]}
    for f in fields(DraculaRules):
        assert f.name in changed, f"option {f.name} has no recorded game"
        assert all(r["rules"].get(f.name, getattr(defaults, f.name)) != getattr(defaults, f.name)
                   for r in rows if f.name in r["rules"])
    assert len(seen) == len(VARIANTS)
    assert sum(1 for r in rows if r["winner"] is not None) > 0.9 * len(rows)


@pytest.mark.parametrize("variant", range(len(VARIANTS)),
                         ids=lambda i: ",".join(f"{k}={v}" for k, v in VARIANTS[i].items())
                         or "default")
def test_golden_games_replay_unchanged(variant: int) -> None:
    """Each recorded game, replayed, gives the same hash, length and winner."""
    key = json.dumps(VARIANTS[variant], sort_keys=True)
    rows = [r for r in _load("games.json")["games"]
            if json.dumps(r["rules"], sort_keys=True) == key]
    assert rows, f"no recorded games for {key}"
    changed: list[str] = []
    for row in rows:
        rules = DraculaRules(**row["rules"])
        trace, final = play(rules, row["seed"], row["policy"])
        if (digest(trace) != row["hash"] or len(trace) - 1 != row["actions"]
                or final.winner != row["winner"]):
            changed.append(f"seed {row['seed']} ({row['policy']}): {len(trace) - 1} actions, "
                           f"winner {final.winner}; recorded {row['actions']}, {row['winner']}")
    assert not changed, "golden games changed:\n" + "\n".join(changed)


def test_golden_full_traces_step_by_step() -> None:
    """The games kept in full replay step by step; the first difference is shown."""
    recorded = _load("full.json")["games"]
    assert len(recorded) == FULL_TRACES
    for game in recorded:
        trace, _ = play(DraculaRules(**game["rules"]), game["seed"], game["policy"])
        for i, (want, got) in enumerate(zip(game["trace"], trace, strict=False)):
            assert list(got) == want, (f"seed {game['seed']} step {i}: got {got!r}, "
                                       f"recorded {want!r}")
        assert len(trace) == len(game["trace"])


if __name__ == "__main__":
    record()
