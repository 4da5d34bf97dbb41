"""The expansion's components as reduced counts (#30): bats per player (full 2,
gruft-en:prep.bats) and the Count figure (full 1, gruft-en:components.count; 0 leaves it in
the box). A reduced file names them with their full value and a reason, checked when it is
read; the expansion's set-up deals what they say; with the Count or the bats left out none of
their clauses fires (neither a contract nor the engine's citations) and nothing else changes.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from ruleproof.errors import MalformedInput
from ruleproof.model.dawn_under import make_config, parse_options
from ruleproof.model.dawn_under.engine import deal, initial_state
from ruleproof.model.dawn_under.gruft import bats_per_player, count_in_play, part
from ruleproof.properties.dawn_under.contracts.gruft_en import CONTRACTS as GRUFT_CONTRACTS
from ruleproof.properties.dawn_under.explore import du_config
from ruleproof.properties.explore.search import explore
from ruleproof.spec.reduced import load_reduced

_HEAD = """game = "dawn-under"
name = "{name}"
description = "3 players with the expansion, 10 graves, one red vampire each, no rat, no garlic"
players = 3
preset = "du-en"
board = "dawn_under/boards/reduced-10.toml"
seeds = [3]

[count.graves]
value = 10
full = 60
why = "the reduced board"

[count.lid_colours]
value = ["red", "yellow", "white", "blue", "green"]
full = ["red", "yellow", "white", "blue", "green", "black"]
why = "five colours of two lids cover the 10 graves"

[count.coloured_lids_per_colour]
value = 2
full = 10
why = "5 x 2 = 10 graves"

[count.vampire_colours]
value = ["red"]
full = ["red", "yellow", "white", "blue", "green", "black"]
why = "one colour"

[count.vampires_per_colour]
value = 3
full = 10
why = "one vampire each"

[count.rat_lids]
value = 0
full = 6
why = "no plague"

[count.reserve_lids]
value = 0
full = 6
why = "no plague"

[count.stakes]
value = 7
full = 13
why = "two each and one more"

[count.garlic_per_player]
value = 0
full = 3
why = "no garlic"
"""


def _setup(tmp_path: Path, name: str, *, bats: int | None = None, count: int | None = None,
           bats_full: int = 2, expansion: bool = True) -> Path:
    text = _HEAD.format(name=name)
    if bats is not None:
        text += (f"\n[count.bats_per_player]\nvalue = {bats}\nfull = {bats_full}\n"
                 "why = \"fewer bats\"\n")
    if count is not None:
        text += "\n[count.count_figures]\nvalue = 0\nfull = 1\nwhy = \"the Count in the box\"\n" \
            if count == 0 else f"\n[count.count_figures]\nvalue = {count}\nfull = 1\nwhy = \"x\"\n"
    if expansion:
        text += '\n[options]\nexpansion = "gruft"\n'
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _count_clause(clause: str) -> bool:
    return clause.startswith("gruft-en:count.") or clause == "gruft-en:faq.count-plague"


def test_full_game_keeps_two_bats_and_the_count() -> None:
    config = make_config(4, parse_options({"expansion": "gruft"}))
    assert dict(config.expansion_counts) == {"bats_per_player": 2, "count_figures": 1}
    assert bats_per_player(config) == 2 and count_in_play(config)
    assert make_config(4).expansion_counts == ()  # the base game has none


def test_reduced_counts_are_dealt(tmp_path: Path) -> None:
    config = du_config(load_reduced(_setup(tmp_path, "r", bats=1, count=0)))
    assert bats_per_player(config) == 1 and not count_in_play(config)
    start = initial_state(config, deal(config, random.Random(3)))
    gp = part(start)
    assert gp is not None and gp.bats == (1, 1, 1) and gp.post is None


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"bats": 3}, "count bats_per_player: value must be 0 to 2"),
    ({"bats": 1, "bats_full": 3}, "count bats_per_player: full value is 2 (manifest)"),
    ({"count": 2}, "count count_figures: value must be 0 to 1"),
    ({"bats": 1, "expansion": False}, "count bats_per_player: not a reducible count"),
])
def test_reduction_is_checked_when_read(tmp_path: Path, kwargs: dict[str, object],
                                        message: str) -> None:
    path = _setup(tmp_path, "bad", **kwargs)  # type: ignore[arg-type]
    with pytest.raises(MalformedInput, match=re.escape(message)) as err:
        du_config(load_reduced(path))
    # at the line of the offending count's table, not of the file's first [count.*] table
    name = message.split(":")[0].removeprefix("count ")
    lines = path.read_text().splitlines()
    assert err.value.line == lines.index(f"[count.{name}]") + 1


def test_a_common_count_problem_names_its_own_table(tmp_path: Path) -> None:
    path = _setup(tmp_path, "no-why", bats=1)
    path.write_text(path.read_text().replace('why = "fewer bats"\n', ""))
    with pytest.raises(MalformedInput, match="bats_per_player: 'why'") as err:
        load_reduced(path)
    assert err.value.line == path.read_text().splitlines().index("[count.bats_per_player]") + 1


def test_count_left_out_fires_no_count_clause_and_changes_nothing_else(
        tmp_path: Path) -> None:
    """Rows of one: nobody gets three placements, so the Count only stands on its post. Left
    in the box, the same states are reached and the same clauses fire; the Count's contracts
    are in force with it (they would speak on any Count move) and out of force without it."""
    path_with = _setup(tmp_path, "with-count", bats=1)
    path_without = _setup(tmp_path, "no-count", bats=1, count=0)
    with_count = explore(str(path_with), coverage=True, contracts=True)
    without = explore(str(path_without), coverage=True, contracts=True)
    for res in (with_count, without):
        assert res.complete and res.distinct_states > 0
        assert res.violations == 0 and res.errors == 0
        assert [f.message for f in res.findings if f.kind != "cycle"] == []
    assert (with_count.distinct_states, with_count.depth, with_count.terminal) == (
        without.distinct_states, without.depth, without.terminal)
    fired_with = {c for c, n in (with_count.fired or {}).items() if n}
    fired_without = {c for c, n in (without.fired or {}).items() if n}
    assert not any(_count_clause(c) for c in fired_without)
    assert fired_with == fired_without  # no Count clause fires with rows of one either
    # the comparison has teeth: the Count's contracts apply with it in play, not without
    in_force = [c for c in GRUFT_CONTRACTS.contracts if _count_clause(c.clause)]
    assert in_force and all(c.applies(du_config(load_reduced(path_with))) for c in in_force)
    assert not any(c.applies(du_config(load_reduced(path_without))) for c in in_force)


def test_no_bats_fire_no_bat_clause(tmp_path: Path) -> None:
    with_bats = explore(str(_setup(tmp_path, "bats", bats=1, count=0)), coverage=True,
                        contracts=True)
    without = explore(str(_setup(tmp_path, "no-bats", bats=0, count=0)), coverage=True,
                      contracts=True)
    assert without.complete and without.violations == 0 and without.errors == 0
    assert [f.message for f in without.findings if f.kind != "cycle"] == []
    assert 0 < without.distinct_states < with_bats.distinct_states
    assert any(c.startswith("gruft-en:bats.") for c, n in (with_bats.fired or {}).items() if n)
    assert not any(c.startswith("gruft-en:bats.") for c, n in (without.fired or {}).items()
                   if n)


def test_a_bat_in_a_game_without_bats_is_refused_as_such(tmp_path: Path) -> None:
    """With no bats dealt (``bats_per_player`` 0) a bat is refused because the game has none
    (gruft-en:prep.bats), not because it was used (gruft-en:bats.once); the state is kept."""
    from ruleproof.errors import IllegalAction
    from ruleproof.model.dawn_under.engine import apply
    from ruleproof.model.dawn_under.gruft.state import PlayBat

    config = du_config(load_reduced(_setup(tmp_path, "nobats", bats=0, count=0)))
    start = initial_state(config, deal(config, random.Random(3)))
    with pytest.raises(IllegalAction, match="no bats in this game") as err:
        apply(start, PlayBat(0))
    assert "gruft-en:prep.bats" in str(err.value)
    # also during a rat plague (whose own refusal of bats is a reading): the game has none
    from dataclasses import replace

    from ruleproof.model.dawn_under.state import Plague

    plague = replace(start, plague=Plague(origin=0, holder=0, current=0, turns=1, opened=(),
                                          idle=0, current_opened=False))
    with pytest.raises(IllegalAction, match="no bats in this game"):
        apply(plague, PlayBat(1))
    one = du_config(load_reduced(_setup(tmp_path, "onebat", bats=1, count=0)))
    s1 = initial_state(one, deal(one, random.Random(3)))
    s2 = apply(s1, PlayBat(0))
    assert part(s2) is not None
