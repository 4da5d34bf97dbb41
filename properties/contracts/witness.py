"""Witness scenario files for discovery findings, in the format of the finding's game (its
capability ``"discovery"`` writes them: the expectations are what the engine does, the reading
the model takes; a comment names the other reading and the clauses in play).
``ruleproof scenario FILE`` replays a witness.
"""

from __future__ import annotations

from pathlib import Path

from ruleproof.properties.contracts.discovery import CAPABILITY, DiscoveryGame, Finding
from ruleproof.properties.contracts.games import rule_set
from ruleproof.properties.plugin import plugin, require


def finding_scenario(f: Finding) -> str:
    """The witness file of a finding (the game's :meth:`DiscoveryGame.witness`).

    Raises:
        KeyError: an unknown rule set; ValueError: the witness does not replay.
    """
    rs = rule_set(f.rule_set)
    cap: DiscoveryGame = require(plugin(rs.game), CAPABILITY, "writing a witness")
    return cap.witness(rs, f)


def write(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` (its folder made as needed) with the one safe writer
    (:func:`ruleproof.system.outputs.write_file`: atomic, a regular file only).

    Raises:
        MalformedInput: ``path`` names a link, FIFO, device or folder.
        OutputFailed: the writing failed (the old file is left as it was).
    """
    from ruleproof.system.outputs import Target, write_file

    path.parent.mkdir(parents=True, exist_ok=True)
    return write_file(Target(path, "--witnesses", "witness"), text)
