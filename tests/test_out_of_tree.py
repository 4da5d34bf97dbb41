"""A rule designer's own game, out of tree (#23): a package under a temporary folder registered
through ``RULEPROOF_PLUGINS`` counts everywhere the shipped games count (its clause registry, its
citations, ``check``), and a broken registration is one line naming it while the shipped games go on.

Each test builds its own package with a fresh module name (the registry is cached per
``RULEPROOF_PLUGINS`` value and modules per name).
"""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ruleproof.cli import app
from ruleproof.errors import MalformedInput
from ruleproof.properties.plugin import ENV_PLUGINS, plugin, plugins, registry
from ruleproof.spec import (
    ENV_SPEC_PATH,
    clause_id_re,
    clause_registry,
    documents,
    game_folders,
    source_files,
)

runner = CliRunner()

GAME = '''"""A test Nim: a pile of stones, take 1 or 2, whoever takes the last stone wins ({DOC})."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.model.api import CHANCE, TERMINAL, ActionTable, GameBase, GameState


@dataclass(frozen=True, slots=True)
class Take:
    n: int

    def __str__(self) -> str:
        return f"take {self.n}"


@dataclass(frozen=True, slots=True)
class Pile:
    stones: int
    mover: int = 0
    last: int | None = None   # who took the last stone


class NimGame(GameBase[Pile]):
    name = "{DOC}"
    over_clauses = ("{DOC}:rules.win",)

    def __init__(self, stones: int = 5, max_moves: int = 100) -> None:
        if stones < 1:
            raise MalformedInput(f"stones must be at least 1, got {stones}")
        self.stones = stones
        self.max_moves = max_moves
        self.num_players = 2
        self.table: ActionTable[Take] = ActionTable([Take(1), Take(2)], "{DOC}")
        self.chance_table: ActionTable[Any] = ActionTable([], "{DOC} chance")

    def initial_model(self) -> Pile:
        return Pile(self.stones)          # {DOC}:rules.setup

    def seeded_model(self, seed: int) -> Pile:
        return Pile(self.stones)

    def model_to_move(self, m: Pile) -> int:
        return TERMINAL if m.stones == 0 else m.mover   # {DOC}:rules.win

    def model_legal(self, m: Pile) -> tuple[Take, ...]:
        if m.stones == 0:
            return ()
        return tuple(Take(n) for n in (1, 2) if n <= m.stones)   # {DOC}:rules.take

    def model_chance(self, m: Pile) -> list[tuple[Any, Fraction]]:
        return []

    def model_step(self, m: Pile, action: Any) -> tuple[Pile, Any]:
        if action not in self.model_legal(m):
            raise IllegalAction(action, f"cannot take from {m.stones}", ("{DOC}:rules.take",))
        left = m.stones - action.n
        return Pile(left, 1 - m.mover, m.mover if left == 0 else None), ()

    def model_winner(self, m: Pile) -> int | None:
        return m.last

    @property
    def params(self) -> dict[str, Any]:
        return {"stones": self.stones, "max_moves": self.max_moves}

    @property
    def max_chance_nodes(self) -> int:
        return 0

    @property
    def observation_size(self) -> int:
        return 2 + self.stones + 1

    def observation_string(self, state: GameState, player: int) -> str:
        return f"seat {player} stones {state.model.stones}"

    def information_state_string(self, state: GameState, player: int) -> str:
        return f"seat {player} history {state.history()}"

    def observation_indices(self, state: GameState, player: int, memo: Any = None) -> list[int]:
        return [player, 2 + state.model.stones]

    def __reduce__(self) -> tuple[Any, ...]:
        return (NimGame, (self.stones, self.max_moves))
'''

PLUGIN = """
from pathlib import Path
from ruleproof.errors import MalformedInput
from ruleproof.properties.plugin import SHARED, Deferred, GamePlugin, GameType, Param, RuleSet
from .game import NimGame

SPEC = {SPEC}

def rule_sets(sel):
    if sel.expansion is not None or sel.options or set(sel.players) - {{2}}:
        raise MalformedInput("{NAME} is a 2-player game with one rule set")
    return [RuleSet("{NAME}", "{DOC}", "{DOC}", players=(2,), sources=("{DOC}",)),
            RuleSet("{NAME}", SHARED)]

def make_game(players=2, preset=None, stones=5, max_moves=100):
    return NimGame(stones, max_moves)

PLUGIN = GamePlugin(
    name="{NAME}", title="Test Nim", summary="A pile of stones.", package="{MOD}",
    game_type=GameType(players=(2,), chance=False, default_players=2), sources=("{DOC}",),
    params=(Param("players", "int", 2, "always 2"), Param("preset", "str", None, "rule set"),
            Param("stones", "int", 5, "stones"), Param("max_moves", "int", 100, "bound")),
    make_game=make_game, rule_sets=rule_sets,
    contract_rule_sets=lambda profile="ci": (),
    spec_folder=SPEC, capabilities={{{CAPS}}})
"""

REGISTRY = """document = "{DOC}"
title = "my rule sheet"

[[clause]]
id = "{DOC}:rules.setup"
section = "Rules"
kind = "setup"
text = "One pile of stones."

[[clause]]
id = "{DOC}:rules.take"
section = "Rules"
kind = "legality"
text = "A player takes one or two stones."

[[clause]]
id = "{DOC}:rules.win"
section = "Rules"
kind = "end"
text = "Who takes the last stone wins."
"""

PRESETS = """[[preset]]
name = "{DOC}"
source = "{DOC}"
description = "The rules."
players = [2]
options = {{}}
"""


def make_game_package(tmp_path: Path, *, caps: str = "", spec: str | None = None,
                      name: str | None = None) -> tuple[str, str, str, Path]:
    """A Nim package under ``tmp_path`` (module, game name, document, data folder); ``spec``:
    where the data folder is (default: ``spec`` next to plugin.py)."""
    tag = uuid.uuid4().hex[:8]
    mod, doc = f"nim{tag}", f"nim{tag}-rules"
    game = name or f"nim{tag}"
    pkg = tmp_path / mod
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "game.py").write_text(GAME.replace("{DOC}", doc))
    folder = pkg / "spec" if spec is None else tmp_path / spec
    spec_expr = ('Path(__file__).parent / "spec"' if spec is None
                 else f"Path({str(folder)!r})")
    (pkg / "plugin.py").write_text(PLUGIN.format(NAME=game, DOC=doc, MOD=mod, SPEC=spec_expr,
                                                 CAPS=caps))
    (folder / "sources").mkdir(parents=True)
    (folder / "game.toml").write_text(f'name = "{game}"\ntitle = "Test Nim"\nsources = ["{doc}"]\n')
    (folder / "sources" / f"{doc}.toml").write_text(REGISTRY.format(DOC=doc))
    (folder / "presets.toml").write_text(PRESETS.format(DOC=doc))
    return mod, game, doc, folder


@pytest.fixture
def nim(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, str, Path]:
    found = make_game_package(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(ENV_PLUGINS, f"{found[0]}.plugin:PLUGIN")
    return found


def test_an_out_of_tree_games_clause_registry_counts_everywhere(
        nim: tuple[str, str, str, Path]) -> None:
    mod, game, doc, folder = nim
    assert game in plugins()
    assert folder.resolve() in game_folders() and doc in documents()
    assert [c.id for c in clause_registry(doc)] == [f"{doc}:rules.setup", f"{doc}:rules.take",
                                                    f"{doc}:rules.win"]
    assert clause_id_re().fullmatch(f"{doc}:rules.take")
    done = runner.invoke(app, ["clauses", doc])
    assert done.exit_code == 0, done.output
    assert f"{doc}:rules.win" in done.output and f"{mod}/game.py" in done.output


def test_the_search_path_brings_a_data_folder_kept_elsewhere(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mod, game, doc, folder = make_game_package(tmp_path, spec="data/elsewhere")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(ENV_PLUGINS, f"{mod}.plugin:PLUGIN")
    assert doc not in documents()
    assert game not in plugins()  # its sources are not on the search path: refused, reported
    assert "sources" in " ".join(registry().problems) or game in registry().failed
    monkeypatch.setenv(ENV_SPEC_PATH, str(folder))
    assert doc in documents() and clause_id_re().fullmatch(f"{doc}:rules.take")


def test_check_runs_the_generic_citation_and_data_properties_on_it(
        nim: tuple[str, str, str, Path], tmp_path: Path) -> None:
    _mod, game, _doc, _folder = nim
    done = runner.invoke(app, ["check", game, "-v"])
    assert done.exit_code == 0, done.output
    assert "every clause id its own code cites is registered" in done.output
    assert "the game's data folder is valid" in done.output


def test_a_cited_id_that_is_not_registered_fails_check(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mod, game, doc, _folder = make_game_package(tmp_path)
    path = tmp_path / mod / "game.py"
    path.write_text(path.read_text() + f"\n# see {doc}:rules.nowhere\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(ENV_PLUGINS, f"{mod}.plugin:PLUGIN")
    done = runner.invoke(app, ["check", game, "-v"])
    assert done.exit_code == 1, done.output
    assert f"{doc}:rules.nowhere" in done.output


@pytest.mark.parametrize(("source", "reference", "expected"), [
    ('raise RuntimeError("plugin exploded")\n', "{m}:PLUGIN", "RuntimeError: plugin exploded"),
    ("def broken(:\n", "{m}:PLUGIN", "SyntaxError"),
    ("X = 1\n", ":PLUGIN", "no module before ':'"),
    ("PLUGIN = 42\n", "{m}:PLUGIN", "PLUGIN is a int, not a GamePlugin"),
    ("X = 1\n", "{m}:PLUGIN", "PLUGIN is missing, not a GamePlugin"),
])
def test_a_broken_plugin_is_one_line_and_the_shipped_games_go_on(
        source: str, reference: str, expected: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    mod = f"bad{uuid.uuid4().hex[:8]}"
    (tmp_path / f"{mod}.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    ref = reference.format(m=mod)
    monkeypatch.setenv(ENV_PLUGINS, ref + f",{mod}x:PLUGIN" * 0)
    done = runner.invoke(app, ["simulate", "kuhn-poker"])
    assert done.exit_code == 0, done.output
    warning = [line for line in done.stderr.splitlines() if line.startswith("warning: ")]
    assert len(warning) == 1 and f"game plugin {ref!r}" in warning[0] and expected in warning[0]
    assert "Traceback" not in done.stderr
    with pytest.raises(MalformedInput, match="registration"):
        plugin("no-such-game")


def test_a_duplicate_game_name_names_both_sources(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mod, _game, _doc, _folder = make_game_package(tmp_path, name="kuhn-poker")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(ENV_PLUGINS, f"{mod}.plugin:PLUGIN")
    problems = registry().problems
    assert len(problems) == 1
    assert "'kuhn-poker' is registered twice" in problems[0]
    assert "ruleproof.properties.kuhn_poker.plugin:PLUGIN" in problems[0]
    assert f"{mod}.plugin:PLUGIN" in problems[0]
    assert plugin("kuhn-poker").package == "kuhn_poker"  # the first stays


def test_a_capability_of_the_wrong_type_is_refused_when_the_registry_loads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mod, game, _doc, _folder = make_game_package(tmp_path, caps='"simulate": 42')
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(ENV_PLUGINS, f"{mod}.plugin:PLUGIN")
    assert game not in plugins()
    assert "capability 'simulate' is int 42" in registry().problems[0]


def test_a_deferred_capability_of_the_wrong_type_is_one_line_exit_2(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mod, game, _doc, _folder = make_game_package(
        tmp_path, caps='"simulate": Deferred("{MOD}.plugin:SPEC_NUMBER")')
    plugin_py = tmp_path / mod / "plugin.py"
    plugin_py.write_text(plugin_py.read_text().replace("{MOD}", mod) + "\nSPEC_NUMBER = 42\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(ENV_PLUGINS, f"{mod}.plugin:PLUGIN")
    done = runner.invoke(app, ["simulate", game])
    assert done.exit_code == 2, done.output
    assert done.stderr.startswith("error: ") and len(done.stderr.strip().splitlines()) == 1
    assert "SPEC_NUMBER' is int 42" in done.stderr


@pytest.mark.parametrize(("file", "old", "new", "where", "what"), [
    ("game.toml", 'name = "{game}"', 'name = "kuhn-x"', "game.toml:1:8:",
     "name 'kuhn-x' does not match its plugin '{game}'"),
    ("game.toml", 'sources = ["{doc}"]', "", "game.toml:1:1:", "'sources' must be"),
    ("game.toml", 'sources = ["{doc}"]', 'sources = ["{doc}", "other"]', "game.toml:3:",
     "source 'other' has no registry"),
    ("presets.toml", "players = [2]", "players = [7]", "presets.toml:5:12:",
     "takes 2 players, not 7"),
    ("presets.toml", 'options = {{}}', 'options = {{}}\n[[preset', "presets.toml:7:", ""),
    ("sources/{doc}.toml", 'id = "{doc}:rules.take"', 'id = "other:rules.take"',
     "{doc}.toml:11:6:", "the document is wrong"),
    ("sources/{doc}.toml", 'id = "{doc}:rules.take"', 'id = "{doc}:rules.setup"',
     "{doc}.toml:11:6:", "duplicate id"),
])
def test_every_data_file_is_checked_at_file_line_col_and_other_games_go_on(
        file: str, old: str, new: str, where: str, what: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    mod, game, doc, folder = make_game_package(tmp_path)
    path = folder / file.format(doc=doc)
    text = path.read_text()
    assert old.format(game=game, doc=doc) in text
    path.write_text(text.replace(old.format(game=game, doc=doc), new.format(doc=doc)))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(ENV_PLUGINS, f"{mod}.plugin:PLUGIN")
    assert game not in plugins() and "kuhn-poker" in plugins()
    with pytest.raises(MalformedInput) as info:
        plugin(game)
    line = info.value.one_line()
    assert where.format(doc=doc) in line and what.format(game=game) in line, line
    done = runner.invoke(app, ["simulate", game])
    assert done.exit_code == 2 and where.format(doc=doc) in done.stderr


def test_simulate_plays_a_game_without_its_own_simulation_with_the_plain_log(
        nim: tuple[str, str, str, Path]) -> None:
    _mod, game, _doc, _folder = nim
    done = runner.invoke(app, ["simulate", game, "--seed", "3"])
    assert done.exit_code == 0, done.output
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith(("P1: take ", "P2: take "))
    assert lines[-1].startswith("winner: P") and "returns: P1 " in lines[-1]
    stones = sum(int(line.rsplit(" ", 1)[1]) for line in lines[:-1])
    assert stones == 5  # the plain log shows every action: they take the whole pile


def test_a_plugin_that_asks_the_registry_while_it_is_imported_registers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    mod = f"reentrant{uuid.uuid4().hex[:8]}"
    (tmp_path / f"{mod}.py").write_text(
        "from dataclasses import replace\n"
        "from pathlib import Path\n"
        "from ruleproof.properties.plugin import plugin\n"
        "PLUGIN = replace(plugin('kuhn-poker'), name='again', capabilities={}, sources=(),\n"
        "                 spec_folder=Path('/nonexistent-game-folder'))\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(ENV_PLUGINS, f"{mod}:PLUGIN")
    assert registry().problems == () and "again" in plugins()
    assert "warning" not in capsys.readouterr().err  # no half-imported module reported


def test_a_spec_path_entry_without_game_data_is_one_warning_and_the_games_go_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    missing = tmp_path / "no-such-folder"
    monkeypatch.setenv(ENV_SPEC_PATH, str(missing))
    done = runner.invoke(app, ["simulate", "kuhn-poker"])
    assert done.exit_code == 0, done.output
    warning = [line for line in done.stderr.splitlines() if line.startswith("warning: ")]
    assert len(warning) == 1 and str(missing) in warning[0] and "does not exist" in warning[0]
    assert registry().problems == (warning[0].removeprefix("warning: "),)


def test_a_spec_path_folder_cannot_replace_a_shipped_registry(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(source_files()["ld-wp"].parent.parent, copy)
    registry_file = copy / "sources" / "ld-wp.toml"
    text = registry_file.read_text()
    shipped = clause_registry("ld-wp").get("ld-wp:bid.claim").text
    assert shipped in text
    registry_file.write_text(text.replace(shipped, "HIJACKED"))
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "game.toml").write_text("name = = 1\n")
    monkeypatch.setenv(ENV_SPEC_PATH, os.pathsep.join([str(copy), str(broken)]))
    done = runner.invoke(app, ["clauses", "ld-wp"], env={"COLUMNS": "300"})
    assert done.exit_code == 0, done.output
    assert "HIJACKED" not in done.output and "A bid names a face" in done.stdout
    warning = [line for line in done.stderr.splitlines() if line.startswith("warning: ")]
    assert any("repeats the source document 'ld-wp'" in w for w in warning), warning
    assert any(f"{broken / 'game.toml'}:1:" in w for w in warning), warning
