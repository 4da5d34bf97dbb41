"""The reference engines of ``examples/engines/`` loaded as modules, once per test session.

They are scripts, not part of the installed package; tests import their engines (in-process
engines and their mutant tables) from here.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ENGINES = Path(__file__).resolve().parents[1] / "examples" / "engines"


def load_engine(script: str) -> ModuleType:
    """The module of ``examples/engines/SCRIPT`` (e.g. ``dawn_under_ref.py``), loaded once and
    registered in ``sys.modules`` under the script's stem."""
    name = Path(script).stem
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ENGINES / script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
