"""The Dawn Under verification suite run by ``ruleproof check dawn-under``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ruleproof.model.dawn_under.board import Board
from ruleproof.model.dawn_under.config import make_config
from ruleproof.model.dawn_under.game import GAME_NAME
from ruleproof.model.dawn_under.state import Options
from ruleproof.properties.citations import citations
from ruleproof.properties.dawn_under import proofs, sampling
from ruleproof.properties.dawn_under.play import game_params
from ruleproof.properties.dawn_under.scenarios import run_scenario
from ruleproof.properties.machine import run_machine
from ruleproof.properties.report import Check, Outcome, Profile, Tally
from ruleproof.spec import all_clause_ids, spec_path

PLAYER_COUNTS = (3, 4, 5, 6)
"""Player counts of the base game (du-en:content.players)."""


def shipped_scenarios() -> list[Path]:
    """The scenario files shipped in ``spec/scenarios/dawn-under``."""
    return sorted(spec_path("dawn_under", "scenarios").glob("*.toml"))


def checks(players: Sequence[int] | None = None, options: Options | None = None,
           board: Board | None = None, preset: str = "du-en") -> list[Check]:
    """Every property of the Dawn Under model for a rule set: the player counts (default: all
    the preset covers), the preset and options on top of it; then the properties shared by
    every rule set (:func:`shared_checks`).

    Raises:
        MalformedInput: for a player count the preset does not cover, or an unknown preset.
    """
    out = rule_set_checks(players, options, board, preset)
    return [*out, *shared_checks(board)]


def rule_set_checks(players: Sequence[int] | None = None, options: Options | None = None,
                    board: Board | None = None, preset: str = "du-en") -> list[Check]:
    """The properties that depend on the rule set (random games with every invariant, hidden
    information, illegal actions, determinism, the z3 facts about the deal, the stakes and the
    reserve under these options).

    Raises:
        MalformedInput: for a player count the preset does not cover, or an unknown preset.
    """
    from ruleproof.model.dawn_under.config import preset_options, presets

    if options is None:
        options = preset_options(preset)
    counts = tuple(players or presets()[preset].players) if preset in presets() else ()
    for n in counts or (0,):
        make_config(n, options, board, preset)  # validates preset and player count early
    players = counts
    config = make_config(players[0], options, board, preset)
    low, high = min(players), max(players)
    out: list[Check] = []
    for n in players:
        def games(profile: Profile, n: int = n) -> Outcome:
            tally = Tally()
            ok, detail = run_machine(GAME_NAME, game_params(n, options, preset), profile.games,
                                     profile.max_steps, tally=tally)
            return ok, tally.games, detail or (
                f"{tally.games} games ({tally.finished} to an ending), {tally.steps} steps, "
                "all invariants hold"), tally.games, tally.steps
        gruft = ("gruft-en:prep.bats", "gruft-en:bats.once", "gruft-en:count.guard") \
            if options.expansion == "gruft" else ()
        out.append(Check(f"invariants in random games, {n} players", "hypothesis", games,
                         ("du-en:content.vampires", "du-en:content.stakes", "du-en:content.lids",
                          "du-en:prep.garlic", "du-en:row.refill", *gruft)))

    def hidden(profile: Profile) -> tuple[bool, int, str]:
        total = 0
        for n in players:
            ok, count, detail = sampling.check_hidden_information(
                n, max(2, profile.games // 4), profile.max_steps, profile.samples, options, preset)
            total += count
            if not ok:
                return ok, total, detail
        return True, total, f"{total} resampled states, legal actions unchanged"

    def illegal(profile: Profile) -> tuple[bool, int, str]:
        total = 0
        for n in players:
            ok, count, detail = sampling.check_illegal_actions(
                n, max(2, profile.games // 4), profile.max_steps, options, preset)
            total += count
            if not ok:
                return ok, total, detail
        return True, total, f"{total} illegal actions rejected, states intact"

    def determinism(profile: Profile) -> tuple[bool, int, str]:
        return sampling.check_determinism(players[0], max(2, profile.games // 4), options, preset)

    out.append(Check("legal actions depend only on the observation", "sampled", hidden,
                     ("du-en:ch1.open", "du-en:prep.row")))
    out.append(Check("illegal actions rejected with clause ids", "sampled", illegal,
                     ("du-en:ch1.open",)))
    out.append(Check("same seed, same game", "replay", determinism, ("du-en:prep.deal",)))

    def z3check(name: str, fn: object, clauses: tuple[str, ...]) -> None:
        def run(profile: Profile, fn: object = fn) -> tuple[bool, int, str]:
            ok, detail = fn()  # type: ignore[operator]
            return bool(ok), 1, str(detail)
        out.append(Check(name, "z3", run, clauses))

    z3check("the deal is even for every player count",
            lambda: proofs.deal_is_even(config, low, high), ("du-en:prep.deal",))
    def stakes() -> tuple[bool, str]:
        # Characterised per player count: z3 must prove "never runs out" exactly when the most
        # stakes all players can hold stays below the 13 on the path, and give a counterexample
        # otherwise (a finding under gift_trigger=holding-three, register entry du.empty-path).
        held = config.stakes_for_gift - (1 if options.gift_trigger == "third-stake" else 0)
        lines, ok = [], True
        for n in players:
            proved, detail = proofs.stakes_never_run_out(config, n, n)
            expected = held * n < config.stakes
            ok = ok and proved == expected and ("counterexample" in detail or proved)
            verdict = "never run out" if proved else "CAN run out (finding)"
            lines.append(f"{n} players: {verdict}: {detail}")
        return ok, "\n".join(lines)

    z3check("the stakes never run out, or exactly when they can",
            stakes, ("du-en:content.stakes", "du-en:ch2.gift", "du-en:ch2.stakes-back"))
    z3check("the reserve stack never runs out",
            lambda: proofs.reserve_never_runs_out(config),
            ("du-en:prep.reserve", "du-en:ch4.cleanup", "du-en:ch5.cleanup"))
    if options.expansion == "gruft":
        z3check("an empty grave for Count Rucola (count-based)",
                lambda: proofs.count_finds_empty_grave(config, low, high),
                ("gruft-en:count.place", "gruft-en:count.empty"))

    return out


def shared_checks(board: Board | None = None) -> list[Check]:
    """The properties that do not depend on the rule set: the board's constraints (z3), the
    shipped scenarios (each file carries its own rule set) and the citations."""
    config = make_config(4, None, board)
    out: list[Check] = []

    def board_ok(profile: Profile) -> tuple[bool, int, str]:
        ok, detail = proofs.board_respects_constraints(config.board)
        return bool(ok), 1, str(detail)

    out.append(Check("the board respects its constraints", "z3", board_ok,
                     ("du-en:content.graves", "du-en:ch4.path")))

    def scenarios(profile: Profile) -> tuple[bool, int, str]:
        files = shipped_scenarios()
        failed = [r for r in (run_scenario(f) for f in files) if not r.passed]
        if failed:
            return False, len(files), "\n".join(f"{r.name}:\n{r.detail}" for r in failed)
        return True, len(files), f"{len(files)} scenarios pass"

    # Every scenario file carries its own rule set, so they run whatever the command's options.
    out.append(Check("shipped scenarios (each under its own rule set)", "scenario", scenarios,
                     ()))

    def cited(profile: Profile) -> tuple[bool, int, str]:
        from ruleproof.properties.dawn_under.plugin import PLUGIN

        known = all_clause_ids()
        own = tuple(f"{d}:" for d in PLUGIN.sources)  # Dawn Under's sources' ids only: the
        found = {c: w for c, w in citations().items() if c.startswith(own)}  # others check theirs
        unknown = sorted(c for c in found if c not in known)
        if unknown:
            return False, len(found), "cited ids missing from the registry: " + ", ".join(
                f"{c} ({found[c][0]})" for c in unknown)
        return True, len(found), f"{len(found)} cited clause ids, all registered"

    out.append(Check("every cited clause id is registered", "static", cited, ()))
    return out
