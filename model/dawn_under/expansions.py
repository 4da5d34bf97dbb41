"""The expansions the model knows, by the value of the rule option ``expansion``.

Each entry maps an expansion's name to the module that implements it; that module defines
``EXPANSION``, an object with the hooks of
:class:`ruleproof.model.dawn_under.expansion.Expansion`. Adding an expansion adds a line here
and a module; the base engine stays as it is.
"""

from __future__ import annotations

DAWN_UNDER_EXPANSIONS: dict[str, str] = {
    "gruft": "ruleproof.model.dawn_under.gruft",  # "Frische Luft für die Gruft" (gruft-en)
}
