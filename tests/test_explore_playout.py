"""Set-ups that start late in a game (``[playout]`` in a reduced file, #30): the root is where
a seeded random playout of legal actions leads from the game's own start, so a rule that
comes up only in long games (rows of five under du-cs, du-cs:priprava.refill) is explored
exhaustively from a position reachable from the real start, and every trace begins with the
playout's actions, so it replays from that start."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ruleproof.cli import app
from ruleproof.errors import MalformedInput
from ruleproof.properties.explore.games import configuration, explore_game, started_roots
from ruleproof.properties.explore.search import explore
from ruleproof.properties.explore.simulate import _trace
from ruleproof.spec.reduced import reduced

runner = CliRunner()
SETUP = "du-cs-3p-1v-v5-p2x24"


def test_a_playout_root_is_reached_by_its_prefix_from_the_real_start() -> None:
    game = explore_game(SETUP)
    [root] = started_roots(game)
    [start] = game.roots()
    assert len(root.prefix) == 24 and start.prefix == ()
    state = start.state
    for action in root.prefix:
        state = dict(game.successors(state))[action]
    assert game.view(state) == game.view(root.state)
    again = started_roots(explore_game(SETUP))  # deterministic (every Ray worker agrees)
    assert again[0].prefix == root.prefix
    # the playout leaves a row of five (a face-down vampire) beside rows of one and two
    assert sorted(len(r) for r in root.state.rows) == [1, 2, 5]
    trace = _trace(game, root, ["stop"], "note")
    assert [s["action"] for s in trace[1:]] == [*root.prefix, "stop"]


@pytest.mark.parametrize(("name", "states", "clause"), [
    (SETUP, 388, "du-cs:priprava.refill"),
    # the Count on a grave and the rat still hidden: a plague with the Count out
    ("gruft-3p-1v-s3-red4l3r1-p329x16", 45, "gruft-en:faq.count-plague"),
    # Liar's Dice: two dice each, so a lost die leaves another round
    ("ld-2d2-p2x12", 98, "ld-wp:round.next"),
])
def test_a_late_start_fires_its_rule_and_breaks_nothing(name: str, states: int,
                                                        clause: str) -> None:
    res = explore(configuration(name).path, coverage=True, contracts=True, keep_graph=False)
    assert res.complete and res.distinct_states == states
    assert res.violations == 0 and res.errors == 0
    assert (res.fired or {}).get(clause, 0) > 0


def test_a_trace_from_a_late_start_replays_from_the_real_start(tmp_path: Path) -> None:
    """Dracula too (the playout is generic): a cycle of dr-1x2 after six actions."""
    body = Path(configuration("dr-1x2").path).read_text(encoding="utf-8")
    path = tmp_path / "dr-late.toml"
    path.write_text(body.replace('name = "dr-1x2"', 'name = "dr-late"')
                    + "\n[playout]\nseed = 3\nactions = 6\n", encoding="utf-8")
    out = tmp_path / "out"
    r = runner.invoke(app, ["explore", str(path), "--allow", "cycles", "--out", str(out)])
    assert r.exit_code == 0, r.output
    traces = sorted(out.glob("cycle-*.jsonl"))
    assert traces
    r = runner.invoke(app, ["replay", str(traces[0])])
    assert r.exit_code == 0 and "conforms" in r.output, r.output
    game = explore_game(str(path))
    [root] = started_roots(game)
    steps = traces[0].read_text(encoding="utf-8").splitlines()[1:7]
    assert [s.split('"action": ')[1].rstrip("}").strip('"') for s in steps] == list(root.prefix)


@pytest.mark.parametrize(("table", "why", "where"), [
    # (the [playout] text, the message, (line offset from the table's first line, column))
    ("[playout]\nseed = 2\n", "needs 'actions'", (0, 1)),
    ("[playout]\nactions = 3\n", "needs 'seed'", (0, 1)),
    ("[playout]\nseed = -1\nactions = 3\n", "seed must be a whole number 0..", (1, 1)),
    ("[playout]\nseed = 2\nactions = 0\n", "actions must be a whole number 1..100,000", (2, 1)),
    ("[playout]\nseed = 2\n  actions = \"24\"\n", "got '24'", (2, 3)),
    ("[playout]\nseed = 2\nactions = 3\nsteps = 4\n", "unknown key 'steps' in [playout]", (3, 1)),
    ("[playout]\nseed = 2\nactions = 1000000000\n", "1..100,000", (2, 1)),
    ("playout = 24\n", "must be a table", (0, 1)),
    ("[playout]\nseed = 2\nactions = 500\n", "ends after", (0, 1)),
    ("[playout]\nseed = 2\nactions = 28\n", "the game ends after 28 actions", (0, 1)),
])
def test_a_bad_playout_is_one_line_at_its_place(tmp_path: Path, table: str, why: str,
                                                where: tuple[int, int]) -> None:
    """Each problem is named at its key or value (file:line:col); a playout that reaches the
    end of the game -- or ends exactly on it: a start with the game over proves nothing --
    is refused too; nothing is written (not even a checkpoint's lock file)."""
    body = Path(configuration(SETUP).path).read_text(encoding="utf-8")
    body = "# a comment naming [playout] first\n" + body[:body.index("[playout]")].replace(
        f'name = "{SETUP}"', 'name = "bad"')
    path = tmp_path / "bad.toml"
    if table.startswith("["):
        path.write_text(body + table, encoding="utf-8")
        first = 1 + body.count("\n")
    else:  # a top-level key: before the first table
        path.write_text(table + body, encoding="utf-8")
        first = 1
    before = sorted(tmp_path.iterdir())
    r = runner.invoke(app, ["explore", str(path), "--checkpoint", str(tmp_path / "ck.json")])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
    assert f"{path}:{first + where[0]}:{where[1]}:" in r.output and why in r.output, r.output
    assert sorted(tmp_path.iterdir()) == before  # no checkpoint, no lock file
    with pytest.raises(MalformedInput):
        started_roots(explore_game(str(path)))


def test_resuming_a_checkpoint_of_another_start_is_refused(tmp_path: Path) -> None:
    """A finished checkpoint has no frontier to replay, so a changed [playout] (or deal) went
    unnoticed: the old counts were reported for the new start, or the traces crashed. The
    roots it recorded must be the set-up's roots now."""
    body = Path(configuration("ld-1d2").path).read_text(encoding="utf-8")
    path = tmp_path / "ld.toml"
    path.write_text(body.replace('name = "ld-1d2"', 'name = "ld-x"'), encoding="utf-8")
    ck = tmp_path / "ck.json"
    r = runner.invoke(app, ["explore", str(path), "--checkpoint", str(ck)])
    assert r.exit_code == 0, r.output
    sealed = ck.read_bytes()
    path.write_text(path.read_text(encoding="utf-8") + "\n[playout]\nseed = 1\nactions = 2\n",
                    encoding="utf-8")
    reduced.cache_clear()  # a new process reads the edited file; this one cached it
    r = runner.invoke(app, ["explore", str(path), "--checkpoint", str(ck), "--resume"])
    assert r.exit_code == 2 and "its roots are not those of" in r.output, r.output
    assert ck.read_bytes() == sealed
    r = runner.invoke(app, ["explore", "--checkpoint", str(tmp_path / "none.json"), "--resume"])
    assert r.exit_code == 2 and "no such file" in r.output
    assert not (tmp_path / ".none.json.lock").exists()


@pytest.mark.parametrize(("wild", "fires"), [("ones", True), ("none", False)])
def test_liars_dice_cites_wild_ones_only_where_a_one_counted(tmp_path: Path, wild: str,
                                                             fires: bool) -> None:
    """ld-wp:round.wild was cited by no transition (uncovered in every set-up): a call now
    cites it when, under ``wild = ones``, a one was shown for a bid on another face."""
    body = Path(configuration("ld-1d2").path).read_text(encoding="utf-8")
    path = tmp_path / "ld-wild.toml"
    path.write_text(body.replace('name = "ld-1d2"', 'name = "ld-wild"').replace(
        "players = 2\n", f'players = 2\n\n[options]\nwild = "{wild}"\n', 1), encoding="utf-8")
    res = explore(str(path), coverage=True, contracts=True, keep_graph=False)
    assert res.complete and res.violations == 0
    assert ((res.fired or {}).get("ld-wp:round.wild", 0) > 0) is fires


def test_the_report_says_the_set_up_starts_late() -> None:
    """The counts of a late start are of what is reachable from there: the report says so."""
    r = runner.invoke(app, ["explore", "ld-2d2-p2x12"])
    assert r.exit_code == 0 and "from a late start: where 12 random legal actions" in r.output
    r = runner.invoke(app, ["explore", "ld-2d2-p2x12", "--json"])
    assert r.exit_code == 0 and '"playout": {\n    "seed": 2,\n    "actions": 12\n  }' in r.output
    r = runner.invoke(app, ["explore", "ld-1d2", "--json"])
    assert r.exit_code == 0 and '"playout": null' in r.output
