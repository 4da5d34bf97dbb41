"""Reachability of every ending: bounded model checking in the abstraction, then a concrete
witness replayed in the executable model (each game's ``symbolic`` capability does both).

For each ending a concrete set-up and action sequence is written as a scenario file (the game's
data folder, ``scenarios/endings/``, in the game's own scenario format). The check

1. abstracts the witness's start position and searches the abstraction (BMC,
   :func:`ruleproof.properties.symbolic.core.bmc`) for a path of at most ``depth`` transitions
   ending in the ending's abstract predicate (kinds constrained as the ending says: e.g. the
   last transition is a placement);
2. replays the witness in the executable model, maps every transition through the abstraction
   and checks it satisfies its kind's relation (no drift on the witness either), and checks the
   game ended as claimed (winner, how);
3. runs the file through the game's own scenario runner (its ``[expect]`` facts).
"""

from __future__ import annotations

from pathlib import Path

from ruleproof.spec import game_folder


def endings_dir(game: str) -> Path:
    """Where the ending witnesses of ``game`` live (its data folder's ``scenarios/endings``).

    Raises:
        MalformedInput: a game without a data folder.
    """
    return game_folder(game) / "scenarios" / "endings"
