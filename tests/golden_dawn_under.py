"""Golden traces of Dawn Under: seeded random games whose every step is fingerprinted.

Recorded before the engine was restructured and sped up (issues #10, #14); replaying them after
any engine change shows that the behaviour did not change. A game is fingerprinted by the SHA-256
of the sequence of (action, events, state summary) lines of a random legal game; the summary
lists every part of the state (base and expansion) in a representation that does not depend on
how the engine stores it.

Regenerate (only when a rule change is intended, and say so in the commit)::

    PYTHONPATH=. python tests/golden_dawn_under.py
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ruleproof.model.dawn_under import make_config, new_game, parse_options
from ruleproof.model.dawn_under.engine import current_player, legal_actions, step
from ruleproof.model.dawn_under.gruft import part as gruft_part
from ruleproof.model.dawn_under.state import Config, State

GOLDEN = Path(__file__).parent / "golden" / "dawn-under.json"
FULL = Path(__file__).parent / "golden" / "dawn-under-full.jsonl.gz"

# rule set name -> (preset, option overrides); each is played with every player count it covers.
RULE_SETS: dict[str, tuple[str, dict[str, str]]] = {
    "du-en": ("du-en", {}),
    "du-cs": ("du-cs", {}),
    "2p": ("2p", {}),
    "2p-other": ("2p", {"lidless_grave": "wild", "reopen_rule": "forbidden",
                        "removed_colours": "different"}),
    "gruft-du-en": ("du-en", {"expansion": "gruft"}),
    "gruft-du-cs": ("du-cs", {"expansion": "gruft"}),
    "gruft-other": ("du-en", {"expansion": "gruft", "gruft_three": "in-a-row",
                              "gruft_garlic": "empty", "gruft_plague_open": "closed",
                              "gruft_count_choice": "empty-only", "gruft_lost_place": "at-once"}),
}
GAMES_PER_SET = 200
FULL_PER_SET = 2
MAX_STEPS = 5000


def players_of(rule_set: str) -> tuple[int, ...]:
    return (2,) if rule_set.startswith("2p") else (3, 4, 5, 6)


def config_of(rule_set: str, players: int) -> Config:
    preset, overrides = RULE_SETS[rule_set]
    from ruleproof.model.dawn_under.config import preset_options

    options = parse_options(overrides, base=preset_options(preset))
    return make_config(players, options, preset=preset)


def _extension(state: State) -> list[Any]:
    """The expansion's part of the state, as plain values (empty without the expansion)."""
    part = gruft_part(state)
    if part is None:
        return []
    bat = part.bat
    return [list(part.open_graves), part.count_grave, part.post, list(part.bats),
            list(part.bats_out), None if bat is None else [bat.grave, bat.owner, list(bat.believed)],
            part.putter, part.then_put, part.streak, part.next_turn]


def _content(c: Any) -> str:
    if c is None:
        return "-"
    return f"{type(c).__name__}:{c.colour if hasattr(c, 'colour') else c.owner}"


def summary(state: State) -> str:
    """Every part of ``state`` except the config, as one JSON line."""
    p = state.plague
    return json.dumps([
        state.phase.value, state.turn_player, current_player(state), list(state.lids),
        list(state.known), [_content(c) for c in state.contents],
        [[[v.colour, v.face_up] for v in row] for row in state.rows], list(state.stakes_held),
        state.stakes_path, list(state.garlic_hand), list(state.reserve), state.removed_rats,
        state.may_stop, state.pending,
        None if p is None else [p.origin, p.holder, p.current, p.turns, list(p.opened), p.idle,
                                p.current_opened],
        [[g.giver, g.receiver, g.clause] for g in state.gifts], state.in_transit, state.winner,
        state.placed_this_turn, [list(w) for w in state.windows], list(state.barred),
        _extension(state)], separators=(",", ":"))


def play(config: Config, seed: int) -> Iterator[str]:
    """The lines of a random legal game from ``seed``: the initial summary, then per step the
    action, its events and the successor's summary."""
    rng = random.Random(seed)
    state = new_game(config, seed, start_player=seed % config.players)
    yield summary(state)
    for _ in range(MAX_STEPS):
        legal = legal_actions(state)
        if not legal:
            break
        action = legal[rng.randrange(len(legal))]
        state, events = step(state, action)
        ev = [[e.kind.value, e.player, e.grave, e.value, e.clause] for e in events]
        yield f"{action} {json.dumps(ev, separators=(',', ':'))} {summary(state)}"


def fingerprint(lines: Iterator[str]) -> tuple[str, int, str]:
    """(sha256 of the lines, number of steps, last line's winner field as text)."""
    digest = hashlib.sha256()
    count = -1
    last = ""
    for line in lines:
        digest.update(line.encode())
        digest.update(b"\n")
        count += 1
        last = line
    winner = json.loads(last[last.index("["):] if " " not in last else last.rsplit(" ", 1)[1])[17]
    return digest.hexdigest(), count, str(winner)


def games() -> Iterator[tuple[str, int, int]]:
    """(rule set, players, seed) of every golden game."""
    for name in RULE_SETS:
        counts = players_of(name)
        for i in range(GAMES_PER_SET):
            yield name, counts[i % len(counts)], 1000 + i


def record() -> None:
    rows: list[dict[str, Any]] = []
    full = []
    for name, players, seed in games():
        config = config_of(name, players)
        lines = list(play(config, seed))
        digest, steps, winner = fingerprint(iter(lines))
        rows.append({"set": name, "players": players, "seed": seed, "steps": steps,
                     "winner": winner, "sha256": digest})
        if sum(1 for r in rows if r["set"] == name) <= FULL_PER_SET:
            full.append(json.dumps({"set": name, "players": players, "seed": seed,
                                    "lines": lines}))
    GOLDEN.parent.mkdir(exist_ok=True)
    body = ",\n".join(json.dumps(r, separators=(",", ":")) for r in rows)
    GOLDEN.write_text(f'{{"max_steps":{MAX_STEPS},"games":[\n{body}\n]}}\n')
    with gzip.open(FULL, "wt") as f:
        f.write("\n".join(full) + "\n")
    print(f"recorded {len(rows)} games, {sum(int(r['steps']) for r in rows)} steps")


if __name__ == "__main__":
    record()
