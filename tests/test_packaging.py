"""Every data file of spec/ is in the package a user installs (``pip install .`` copies only
what ``[tool.setuptools.package-data]`` names): a game folder's schemas, traces, scenarios and
reduced set-ups, the shared schemas and the malformed examples. (An editable install reads the
checkout, so without this test a missing pattern shows only in CI's fresh install.)"""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _covered(rel: str, patterns: list[str]) -> bool:
    parts = rel.split("/")
    return any(len(p.split("/")) == len(parts)
               and all(fnmatch.fnmatch(a, b) for a, b in zip(parts, p.split("/"), strict=True))
               for p in patterns)


def test_package_data_names_every_spec_file() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["ruleproof.spec"]
    spec = ROOT / "spec"
    files = [p.relative_to(spec).as_posix() for p in spec.rglob("*")
             if p.is_file() and p.suffix != ".py" and "__pycache__" not in p.parts]
    assert len(files) > 200
    missing = [f for f in files if not _covered(f, patterns)]
    assert not missing, f"not installed by pip install .: {missing[:10]}"


def test_the_check_refuses_a_file_no_pattern_names() -> None:
    assert not _covered("dawn_under/schemas/x.json", ["*.json", "*/*.json"])
    assert _covered("dawn_under/schemas/x.json", ["*/*/*.json"])
