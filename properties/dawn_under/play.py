"""Dawn Under's part of the generic play algorithms (capabilities of its plugin record):

* ``machine`` (:data:`MACHINE`): set-up seeds in ``0..2**32-1``; a finished game stays
  finished (the remaining steps do nothing); the readable log shows the deal's rows, every
  action and every event in words (:mod:`ruleproof.model.dawn_under.render`); failures shrink.
* ``stats`` (:class:`DawnUnderStats`): the rule set's label (preset, player count, options
  that differ from the preset's), the rule events counted (stakes, garlic, gifts, rat plagues,
  with the expansion bats and Count Rucola), how a game ended (the last action's events,
  du-en:end.first-empty).
* ``cycles`` (:data:`CYCLES`): random games capped at 3,000 actions; states compared whole.

The invariants are :data:`ruleproof.properties.dawn_under.invariants.INTERFACE_INVARIANTS`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ruleproof.model.api import GameBase, GameState
from ruleproof.model.dawn_under.engine import current_player
from ruleproof.model.dawn_under.render import event_text, player_name, row_text
from ruleproof.model.dawn_under.state import Options, option_value
from ruleproof.properties.endless import CycleRules
from ruleproof.properties.play import MachineSettings
from ruleproof.properties.plugin import GamePlugin
from ruleproof.properties.stats import StatsRules


def game_params(players: int, options: Options | None = None, preset: str = "du-en"
                ) -> dict[str, Any]:
    """The game's parameters (``make_game``) for ``players`` under ``preset`` with the rule
    options ``options`` (an :class:`Options` value; None: the preset's)."""
    out: dict[str, Any] = {"players": players, "preset": preset}
    if options is not None:
        from ruleproof.model.dawn_under.config import option_values

        out["options"] = {name: option_value(options, name) for name in option_values()}
    return out


def _setup_lines(state: GameState, seed: int) -> Sequence[str]:
    config = state.model.config
    return [f"Set-up: {config.players} players, deal seed {seed}",
            *(f"  {player_name(p)}: {row_text(config, row)}"
              for p, row in enumerate(state.model.rows))]


def _action_line(state: GameState, action: Any) -> str:
    return f"> {player_name(current_player(state.model))}: {action}"


def _event_lines(before: GameState, after: GameState) -> Sequence[str]:
    events = after.node.seen if after.node is not None else ()
    return ["  " + event_text(before.model, e) for e in events]


MACHINE = MachineSettings(seed_max=2**32 - 1, after_end="stop", chance="draw", shrink=True,
                          setup_lines=_setup_lines, action_line=_action_line,
                          event_lines=_event_lines)
"""The ``machine`` capability."""

COUNTED = {"stake": "stakes taken", "place-garlic": "garlic placed",
           "garlic-back": "garlic taken back", "give": "vampires given",
           "plague-start": "rat plagues", "stakes-back": "stake gifts",
           "place-vampire": "vampires placed", "bat": "bats used",
           "count-get": "Count Rucola gained", "doubt": "bats doubted"}
"""Event kinds counted, by their value (the base game's and the expansion's enums share them),
and the name of each count."""

EXPANSION_COUNTS = ("bats used", "Count Rucola gained", "bats doubted")
"""The counts shown only when the expansion is played."""


class DawnUnderStats(StatsRules):
    """The ``stats`` capability: uniform random legal play (the generic player)."""

    def label(self, game_plugin: GamePlugin, game: GameBase[Any]) -> str:
        """``dawn-under PRESET NP`` plus options differing from the preset."""
        from ruleproof.model.dawn_under.config import preset_options

        config = game.config  # type: ignore[attr-defined]
        base = preset_options(config.preset)
        changed = [f"{k}={getattr(config.options, k)}" for k in base.__dataclass_fields__
                   if getattr(config.options, k) != getattr(base, k)]
        return (f"{game_plugin.name} {config.preset} {config.players}p"
                + "".join(f" {c}" for c in changed))

    def counts(self, game: GameBase[Any]) -> dict[str, int]:
        """Stakes, garlic, gifts, plagues, placements; bats and the Count with the expansion."""
        expansion = game.config.options.expansion != "none"  # type: ignore[attr-defined]
        return {name: 0 for name in COUNTED.values()
                if expansion or name not in EXPANSION_COUNTS}

    def events(self, before: GameState, after: GameState) -> Mapping[str, int]:
        """The counted events of the step (its history payload)."""
        out: dict[str, int] = {}
        for e in after.node.seen if after.node is not None else ():
            name = COUNTED.get(e.kind.value)
            if name is not None:
                out[name] = out.get(name, 0) + 1
        return out

    def ending(self, state: GameState) -> str:
        """How the winner emptied the row: by placing, giving or putting into a grave."""
        kinds = {e.kind.value for e in (state.node.seen if state.node is not None else ())}
        return ("row emptied by placing" if "place-vampire" in kinds else
                "row emptied by giving" if "give" in kinds else
                "row emptied by putting into a grave" if "put" in kinds else
                "row emptied: " + "/".join(sorted(kinds)))


STATS = DawnUnderStats()
"""The ``stats`` capability."""

CYCLES = CycleRules(cap=3_000)
"""The ``cycles`` capability: engine states compared whole."""

__all__ = ["COUNTED", "CYCLES", "MACHINE", "STATS", "DawnUnderStats", "game_params"]
