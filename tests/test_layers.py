"""A game is a folder: the layers and the game folders are enforced here, for every game the
registry knows (issue #23).

* import-linter (a well-kept tool made for this) checks the contracts generated from the
  registry: the layers (commands over checks over games over data over errors) and, for every
  registered game, that only the game's own folders import its model and its properties;
* an AST scan of the generic modules (everything outside ``model/<game>/``, ``spec/<game>/``,
  ``properties/<game>/``) finds no string literal naming a registered game, one of its source
  documents, presets, expansions or seats, and no clause id: generic code reaches a game only
  through the registry, so a third game never runs down another game's path.

Both checks are run on planted violations too, so neither can pass on zero work.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from ruleproof.properties.plugin import GamePlugin, plugins

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("ruleproof.cli", "ruleproof.interop", "ruleproof.render", "ruleproof.properties",
          "ruleproof.model", "ruleproof.spec", "ruleproof.system", "ruleproof.errors")


def import_contracts(games: list[tuple[str, str]], root: str = "ruleproof",
                     layers: tuple[str, ...] = LAYERS) -> str:
    """The import-linter configuration (INI) for ``games`` (name, package): the layers, and
    for each game that only its own ``model``/``properties`` packages import them."""
    out = ["[importlinter]", f"root_package = {root}", "",
           "[importlinter:contract:layers]",
           "name = Layers: commands over checks over games over data over errors",
           "type = layers", "layers =", *(f"    {layer}" for layer in layers), ""]
    for name, package in games:
        own = [f"{root}.model.{package}", f"{root}.properties.{package}"]
        out += [f"[importlinter:contract:game-{package}]",
                f"name = Only {name}'s own folders import its model and properties",
                "type = protected", "protected_modules =", *(f"    {m}" for m in own),
                "allowed_importers =", *(f"    {m}" for m in own), ""]
    return "\n".join(out)


def lint_imports(config: str, where: Path, tree: Path | None = None
                 ) -> subprocess.CompletedProcess[str]:
    """Run import-linter (its own command line) on ``config`` from the folder ``where``; the
    packages are imported from ``tree`` (default ``where``), first on the path, so the check
    reads that tree and not whichever copy of the package is installed."""
    path = where / ".importlinter"
    path.write_text(config, encoding="utf-8")
    return subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command;"
                           " lint_imports_command()", str(path), "--no-cache"],
                          capture_output=True, text=True, cwd=where, timeout=600, check=False,
                          env={**__import__("os").environ, "PYTHONPATH": str(tree or where)})


def test_import_contracts_hold_for_every_registered_game(tmp_path: Path) -> None:
    games = [(p.name, p.package) for p in plugins().values()]
    assert len(games) >= 3  # both shipped games and the worked example
    result = lint_imports(import_contracts(games), tmp_path, ROOT)  # this tree, not an install
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert f"Contracts: {1 + len(games)} kept, 0 broken." in result.stdout, result.stdout[-2000:]


# --------------------------------------------------------------------------- game names


def game_words(games: list[GamePlugin]) -> set[str]:
    """Every word that names something of one game: its name, package, source documents,
    presets, expansions and seat names."""
    words: set[str] = set()
    for p in games:
        words |= {p.name, p.package, *p.sources, *p.presets(), *p.expansions,
                  *p.game_type.seats}
    return {w for w in words if w}


def generic_modules(games: list[GamePlugin]) -> Iterator[Path]:
    """Every Python file outside the games' own folders."""
    packages = {p.package for p in games}
    for top in ("ruleproof", "model", "properties", "spec"):
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).parts
            if top == "ruleproof" and rel[1] in ("model", "properties", "spec"):
                continue  # links to the top-level folders, scanned there
            if top in ("model", "properties", "spec") and len(rel) > 2 and rel[1] in packages:
                continue
            yield path


def _docstrings(tree: ast.AST) -> set[int]:
    """The string statements: docstrings of modules, classes and functions, and the strings
    that document an attribute (a bare string after an assignment)."""
    return {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)}


def named_games(source: str, words: set[str], clause_re: re.Pattern[str]
                ) -> list[tuple[int, str]]:
    """(line, literal) for every string literal (docstrings aside) that names a game word."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    word_re = re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w])")
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in skip \
                and (word_re.search(node.value) or clause_re.search(node.value)):
            found.append((node.lineno, node.value))
    return found


def test_no_generic_module_names_a_game() -> None:
    from ruleproof.spec import clause_id_pattern

    games = list(plugins().values())
    words = game_words(games)
    clause_re = clause_id_pattern(tuple(d for p in games for d in p.sources))
    problems = []
    for path in generic_modules(games):
        for line, text in named_games(path.read_text(encoding="utf-8"), words, clause_re):
            problems.append(f"{path.relative_to(ROOT)}:{line}: {text[:80]!r}")
    assert not problems, "generic code names a game:\n" + "\n".join(problems)


# --------------------------------------------------------------------------- teeth


def test_the_scan_finds_a_planted_branch_on_a_game_name() -> None:
    from ruleproof.spec import clause_id_pattern

    games = list(plugins().values())
    planted = textwrap.dedent(f'''
        """Docstrings may mention {games[0].name} as an example."""
        def run(game: str) -> int:
            if game == "{games[0].name}":
                return 1
            return 2 if "{games[0].sources[0]}:x.y" else 3
        ''')
    found = named_games(planted, game_words(games),
                        clause_id_pattern(tuple(d for p in games for d in p.sources)))
    assert [line for line, _ in found] == [4, 6]


def test_import_linter_finds_a_planted_import_of_a_game(tmp_path: Path) -> None:
    """A package of the same shape, built in a temporary folder: a generic check module that
    imports one game's model breaks that game's contract; the layers and the other game hold."""
    files = {
        "fake/__init__.py": "", "fake/errors.py": "", "fake/spec/__init__.py": "",
        "fake/model/__init__.py": "", "fake/model/api.py": "import fake.errors\n",
        "fake/model/alpha/__init__.py": "import fake.model.api\n",
        "fake/model/beta/__init__.py": "import fake.model.api\n",
        "fake/properties/__init__.py": "",
        "fake/properties/alpha/__init__.py": "import fake.model.alpha\n",
        "fake/properties/beta/__init__.py": "import fake.model.beta\n",
        "fake/properties/suite.py": "import fake.model.api\nimport fake.model.alpha\n",
        "fake/cli/__init__.py": "import fake.properties.suite\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    config = import_contracts([("alpha", "alpha"), ("beta", "beta")], "fake",
                              ("fake.cli", "fake.properties", "fake.model", "fake.spec",
                               "fake.errors"))
    result = lint_imports(config, tmp_path)
    assert result.returncode != 0
    assert "Only alpha's own folders import its model and properties BROKEN" in result.stdout, \
        result.stdout[-3000:]
    assert "Only beta's own folders import its model and properties KEPT" in result.stdout
    assert "Layers: commands over checks over games over data over errors KEPT" in result.stdout


@pytest.mark.parametrize("name", sorted(plugins()))
def test_every_game_is_a_folder_in_each_layer(name: str) -> None:
    p = plugins()[name]
    for top in ("model", "properties"):
        assert (ROOT / top / p.package / "__init__.py").is_file(), (top, p.package)
    assert p.spec_folder.is_dir() and (p.spec_folder / "game.toml").is_file()
    for document in p.sources:
        assert (p.spec_folder / "sources" / f"{document}.toml").is_file(), document
