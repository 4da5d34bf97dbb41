"""Pictures (SVG per view), step-through pages (delta encoding) and the render command."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from ruleproof.cli import app
from ruleproof.model.dawn_under import make_config, new_game
from ruleproof.model.dracula import new_game as dracula_new_game
from ruleproof.properties.dawn_under import render as du
from ruleproof.properties.dracula import render as dr
from ruleproof.properties.render.svg import Picture
from ruleproof.render.page import html_page, walk_data
from ruleproof.render.walk import walks_of
from ruleproof.spec import spec_path

runner = CliRunner()
SCEN = spec_path()


def test_board_svg_has_every_grave_and_quarter() -> None:
    board = make_config(4).board
    svg = du.board_svg(board)
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    for g in range(board.size):
        assert f'id="grave-{g}"' in svg
    for name in board.quarters:
        assert name in svg


def test_face_down_vampires_only_in_the_everything_view() -> None:
    state = new_game(make_config(4), 3)
    everything = du.state_svg(state, None)
    public = du.state_svg(state, du.PUBLIC)
    # Face-down vampires: drawn with their colour (faded) for everything, grey for players.
    assert "#vh-" in everything and "#vh-" not in public
    assert '"#vd"' in public and '"#vd"' not in everything
    # Lids not yet turned: a hidden colour swatch only in the everything view.
    assert "hidden lid" in everything and "hidden lid" not in public


def test_dracula_views_hide_the_other_hand() -> None:
    state = dracula_new_game(1)
    hand = state.hand[1]
    assert hand
    vh = dr.state_svg(state, 1)
    dracula = dr.state_svg(state, 0)
    assert hand[0] in vh
    assert f"hand: {len(hand)} face down" in dracula


def _rebuild(deltas: list[dict[str, str | None]], k: int) -> Picture:
    pic: dict[str, str] = {}
    for d in deltas[:k + 1]:
        for key, value in d.items():
            if value is None:
                pic.pop(key, None)
            else:
                pic[key] = value
    return pic


def test_page_deltas_rebuild_every_frame() -> None:
    walk = walks_of(SCEN / "dawn_under" / "scenarios" / "ch3-garlic.toml")[0]
    data = walk_data(walk)
    assert data["views"] == ["everything", "P1", "P2", "P3"]
    assert data["shows"] == [0, 1, 1, 1]  # everything, then P1..P3 sharing one picture
    for v in range(len(walk.views)):
        for k in range(len(walk.frames)):
            assert _rebuild(data["deltas"][data["shows"][v]], k) == walk.picture(k, v)
    # Deltas are much smaller than the pictures they stand for.
    full = sum(len(x) for f in walk.frames for x in f.pictures[0].values())
    sent = sum(len(x or "") for d in data["deltas"][0] for x in d.values())
    assert sent * 3 < full


def test_rejected_action_is_its_own_frame() -> None:
    walk = walks_of(SCEN / "dawn_under" / "scenarios" / "ch3-garlic.toml")[0]
    captions = [f.captions[0] for f in walk.frames]
    assert len(captions) == 10  # start + 9 actions
    assert "REJECTED" in captions[5] and "du-en:ch3.no-place" in captions[5]
    def position(k: int) -> list[dict[str, str]]:
        return [{key: v for key, v in pic.items() if key != "01title"}
                for pic in walk.frames[k].pictures]

    assert position(5) == position(4)
    assert position(4) != position(3)


def test_witness_has_a_walk_per_reading() -> None:
    walks = walks_of(SCEN / "dawn_under" / "scenarios" / "witnesses" / "du.after-match.toml")
    assert len(walks) >= 2
    assert len({w.title for w in walks}) == len(walks)


def test_page_is_self_contained() -> None:
    walks = walks_of(SCEN / "dracula" / "scenarios" / "example-turn.toml")
    page = html_page(walks, "t")
    assert "http://" not in page.replace('xmlns=\\"http://www.w3.org/2000/svg\\"', "") \
        .replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in page and "<script src" not in page and "<link" not in page
    data = re.search(r'<script type="application/json" id="walk-data">(.*?)</script>', page, re.S)
    assert data is not None
    parsed = json.loads(data.group(1))
    assert parsed["walks"][0]["views"] == ["everything", "Dracula", "Van Helsing"]


def test_render_command(tmp_path: Path) -> None:
    out = tmp_path / "p.html"
    res = runner.invoke(app, ["render", str(SCEN / "dawn_under" / "scenarios" / "ch3-garlic.toml"),
                              "--html", str(out)])
    assert res.exit_code == 0, res.output
    assert "walk-data" in out.read_text(encoding="utf-8")
    svg = tmp_path / "b.svg"
    res = runner.invoke(app, ["render", "--board", "dracula", "--svg", str(svg)])
    assert res.exit_code == 0 and "harbour" in svg.read_text(encoding="utf-8")
    pos = tmp_path / "pos.svg"
    res = runner.invoke(app, ["render", str(spec_path("dracula", "traces", "dracula-conforming.jsonl")),
                              "--svg", str(pos), "--step", "3", "--view", "2"])
    assert res.exit_code == 0, res.output
    assert "view: Van Helsing" in pos.read_text(encoding="utf-8")
    res = runner.invoke(app, ["render", "--random", "dawn-under", "--seed", "2", "--players",
                              "3", "--html", str(out)])
    assert res.exit_code == 0, res.output


def test_render_bad_input(tmp_path: Path) -> None:
    res = runner.invoke(app, ["render", str(tmp_path / "missing.toml"), "--html",
                              str(tmp_path / "x.html")])
    assert res.exit_code == 2 and "no such file" in res.output
    res = runner.invoke(app, ["render", str(SCEN / "dawn_under" / "scenarios" / "ch3-garlic.toml"), "--svg",
                              str(tmp_path / "x.svg"), "--step", "99"])
    assert res.exit_code == 2 and "--step 99" in res.output
