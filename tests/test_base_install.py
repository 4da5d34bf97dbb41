"""The README's first command installs only the base dependencies (``pip install .``): the
main job must run without any optional extra. numpy was once imported at the top of the
explorer while only the extras installed it, and ``ruleproof check`` died at import."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ruleproof.errors import EXTRAS

ROOT = Path(__file__).resolve().parents[1]

# A finder that refuses every module an extra installs, as a base install lacks them.
_RUN = """
import importlib.abc, sys
BLOCKED = set(sys.argv[1].split(","))
class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r} (blocked: an extra)", name=name)
        return None
sys.meta_path.insert(0, Blocker())
sys.argv = ["ruleproof", *sys.argv[2:]]
from ruleproof.cli import main
main()
"""


@pytest.mark.parametrize("args", [["games"], ["check", "kuhn-poker", "--profile", "ci"],
                                  ["explore", "kuhn-3"]])
def test_the_main_job_runs_without_any_extra(args: list[str], tmp_path: Path) -> None:
    blocked = sorted(set(EXTRAS) | {"pytest", "mypy"})
    done = subprocess.run([sys.executable, "-c", _RUN, ",".join(blocked), *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "blocked" not in done.stderr
