"""Dawn Under's side of exhaustive exploration: the ``explore`` capability of its plugin record
(:data:`EXPLORE`, :class:`~ruleproof.properties.explore.games.ExploreSupport`).

* The game's part of a reduced file (``spec/dawn_under/reduced/*.toml``)::

      preset = "du-en"                 # optional (default du-en): du-en, du-cs or 2p
      board = "dawn_under/boards/reduced-10.toml"   # under spec/, or a user board file
                                                    # relative to the reduced file
      seeds = [0, 1]                   # the fixed set of seeded deals explored
      images = false                   # optional: also every image of those deals under
                                       # colour renaming and seat rotation

  and every count names a fact of ``spec/dawn_under/components.toml`` (or one of the colour
  lists ``vampire_colours``, ``lid_colours``) with that fact's full value
  (:func:`du_config`).
* :class:`DawnUnderExplore`: roots (one per seeded deal, and its images), successors through
  the engine directly (a ``GameState`` per successor would cost too much at about 2 M states a
  minute), the view as a compact code (:func:`state_code`), symmetry by colour renaming
  within colour classes and seat rotation (:func:`encode_fields`), the invariants of
  ``properties/dawn_under/invariants.py`` and, with the expansion, its transition
  properties.

Clauses: the component and preparation clauses of du-en (through the reduced configuration's
counts), du-en:ch4.cleanup (a reserve lid per rat lid).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import Enum
from functools import partial
from pathlib import Path
from typing import Any

from ruleproof.errors import MalformedInput
from ruleproof.model.dawn_under.board import load_board
from ruleproof.model.dawn_under.config import (
    make_config,
    parse_options,
    preset_options,
    presets,
)
from ruleproof.model.dawn_under.engine import apply_legal as du_apply_legal
from ruleproof.model.dawn_under.engine import deal, initial_state
from ruleproof.model.dawn_under.engine import is_terminal as du_terminal
from ruleproof.model.dawn_under.engine import legal_actions as du_legal
from ruleproof.model.dawn_under.engine import step as du_step
from ruleproof.model.dawn_under.engine import step_legal as du_step_legal
from ruleproof.model.dawn_under.gruft.state import Gruft
from ruleproof.model.dawn_under.state import (
    RAT,
    Config,
    GarlicIn,
    Gift,
    Phase,
    Plague,
    Row,
    Setup,
    State,
    VampireIn,
)
from ruleproof.properties.contracts.core import broken
from ruleproof.properties.dawn_under.invariants import (
    FastInvariants,
    Totals,
    transition_violations,
)
from ruleproof.properties.dawn_under.plugin import GRUFT_DROPS, NAME
from ruleproof.properties.dawn_under.scenarios import parse_action
from ruleproof.properties.explore.encoding import (
    MEMO_LIMIT,
    Code,
    Memo,
    bytes_code,
    enum_code,
    fingerprint,
)
from ruleproof.properties.explore.games import (
    REDUCED_KEY,
    ExploreGame,
    Root,
    View,
    configuration,
    speaks,
    spec_ref,
)
from ruleproof.properties.plugin import RuleSet
from ruleproof.spec import manifest, spec_path
from ruleproof.spec.reduced import ReducedSpec, problem_count

# ----------------------------------------------------------------------------- the file


@dataclass(frozen=True)
class DawnUnderReduced:
    """Dawn Under's part of a reduced configuration, validated.

    Attributes:
        preset: the rule preset (``du-en``, ``du-cs``, ``2p``).
        board: the board file (resolved path).
        seeds: the seeded deals explored.
        images: the roots are the seeded deals and all their images under colour renaming
            and seat rotation (a set of roots closed under the symmetry group).
        config: the model configuration (:func:`du_config`).
    """

    preset: str
    board: str
    seeds: tuple[int, ...]
    images: bool
    config: Config


def _board_file(board: str, path: Path) -> Path | None:
    """A board named in a reduced file: shipped (relative to spec/) or a user file (absolute,
    or relative to the reduced file's folder)."""
    for candidate in (spec_path(*board.split("/")), path.parent / board, Path(board)):
        if candidate.is_file():
            return candidate
    return None


def du_part(spec: ReducedSpec) -> tuple[str, str, tuple[int, ...], bool]:
    """``(preset, board file, seeds, images)`` of a reduced Dawn Under file.

    Raises:
        MalformedInput: a missing board file, no seeds, ``images`` not a boolean, or a key
            Dawn Under's part does not have (file and line).
    """
    spec.refuse_unknown(("preset", "board", "seeds", "images"))
    table = spec.table
    preset = table.get("preset", "du-en")
    known = presets()
    if not isinstance(preset, str) or preset not in known:
        raise spec.error(f"'preset' must be one of {', '.join(known)}, got {preset!r}", "preset")
    board = table.get("board", "")
    found = _board_file(board, Path(spec.path)) if isinstance(board, str) and board else None
    if found is None:
        raise spec.error(f"'board' must name a board file (under spec/, or relative to this "
                         f"file), got {board!r}", "board")
    raw_seeds = table.get("seeds")
    if (not isinstance(raw_seeds, list) or not raw_seeds or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < 2**63
            for s in raw_seeds)):
        raise spec.error("'seeds' must list the seeded deals explored (integers in "
                         "0..2**63-1, the range of every seed)", "seeds")
    twice = sorted({s for s in raw_seeds if raw_seeds.count(s) > 1})
    if twice:  # (a deal explored twice adds nothing: a slip, e.g. a seed meant to differ)
        raise spec.error(f"'seeds' lists {', '.join(map(str, twice))} twice (each seeded deal "
                         "is explored once)", "seeds")
    images = table.get("images", False)
    if not isinstance(images, bool):
        raise spec.error("'images' must be true or false", "images")
    return str(preset), str(found), tuple(raw_seeds), images


def parse(spec: ReducedSpec) -> DawnUnderReduced:
    """Dawn Under's part of ``spec`` and its model configuration (see :func:`du_part`,
    :func:`du_config`).

    Raises:
        MalformedInput: as :func:`du_part` and :func:`du_config`.
    """
    preset, board, seeds, images = du_part(spec)
    return DawnUnderReduced(preset, board, seeds, images, du_config(spec))


_DU_COUNTS = {
    # reduced count name -> Config field
    "coloured_lids_per_colour": "lids_per_colour",
    "vampires_per_colour": "vampires_per_colour",
    "rat_lids": "rat_lids",
    "rat_lids_2p": "rat_lids",
    "reserve_lids": "reserve_size",
    "reserve_lids_2p": "reserve_size",
    "stakes": "stakes",
    "garlic_per_player": "garlic",
}
_DU_LISTS = ("vampire_colours", "lid_colours")
_PAIRED = {"rat_lids": "rat_lids_2p", "rat_lids_2p": "rat_lids",
           "reserve_lids": "reserve_lids_2p", "reserve_lids_2p": "reserve_lids"}
"""The counts named apart for the 2-player game and the 3-6 player game: a file uses its
preset's."""


def du_config(spec: ReducedSpec) -> Config:
    """The model configuration of a reduced Dawn Under set-up.

    Every reduced count must name a manifest fact (or ``vampire_colours``/``lid_colours``) and
    give that fact's full value, so the provenance of a reduction cannot drift from the data.

    Raises:
        MalformedInput: a bad preset, board or seeds (:func:`du_part`), an unknown count, a
            wrong full value, or counts that cannot be dealt (lids not covering the graves,
            fewer reserve lids than rats, vampires not dividing among the players).
    """
    if spec.game != NAME:
        raise spec.error(f"reduced configuration {spec.name!r} is for {spec.game}, not {NAME}",
                         "game")
    preset, board_file, _, _ = du_part(spec)
    m = manifest("dawn_under")
    file = spec.path
    opts = parse_options(dict(spec.options), base=preset_options(preset), where=file)
    graves = spec.count("graves", m.int("graves"))
    if graves < 1:
        raise MalformedInput(f"count graves: value must be 1 or more, got {graves}", file=file,
                             line=spec.count_line("graves"))
    board = load_board(Path(board_file), graves)
    try:
        base = make_config(spec.players, opts, board=board, preset=preset)
    except MalformedInput as exc:
        if exc.file is not None:
            raise
        raise spec.error(exc.what, "players") from None  # e.g. the 2p preset with 3 players
    names = base.colours
    changes: dict[str, Any] = {}
    problems: list[str] = []
    extra = dict(base.expansion_counts)  # the expansion's numbers (gruft-en:prep.bats, ...)
    for c in spec.counts:
        if c.name in extra:
            if c.full != m.int(c.name):
                problems.append(f"count {c.name}: full value is {m.int(c.name)} (manifest)")
            if not isinstance(c.value, int) or not 0 <= c.value <= m.int(c.name):
                problems.append(f"count {c.name}: value must be 0 to {m.int(c.name)} (the "
                                "expansion's components can only be taken away)")
            else:
                extra[c.name] = c.value
            continue
        if c.name in _DU_LISTS:
            full = tuple(names[i] for i in getattr(base, c.name))
            if c.full != full:
                problems.append(f"count {c.name}: full value is {list(full)}")
            if not isinstance(c.value, tuple) or not set(c.value) <= set(names):
                problems.append(f"count {c.name}: colours must be among {', '.join(names)}")
            elif len(set(c.value)) != len(c.value):
                twice = sorted({x for x in c.value if c.value.count(x) > 1})
                problems.append(f"count {c.name}: {', '.join(map(repr, twice))} listed twice "
                                "(a colour is in play or not)")
            else:
                changes[c.name] = tuple(sorted(names.index(x) for x in c.value))
            continue
        if c.name == "graves":
            if c.full != m.int("graves"):
                problems.append(f"count graves: full value is {m.int('graves')}")
            continue
        if c.name in _PAIRED and c.name.endswith("_2p") != (preset == "2p"):
            other = _PAIRED[c.name]
            problems.append(f"count {c.name}: the preset is {preset}, whose count is "
                            f"{other} ({'the 2-player' if preset == '2p' else 'the 3-6 player'}"
                            " game's)")
            continue
        if c.name not in _DU_COUNTS or c.name not in m.facts:
            known = [*_DU_LISTS, *_DU_COUNTS, *dict(base.expansion_counts)]
            problems.append(f"count {c.name}: not a reducible count (known: graves, "
                            f"{', '.join(known)}"
                            + ("" if base.expansion_counts else
                               "; the expansion's bats_per_player and count_figures with "
                               "expansion = \"gruft\"") + ")")
            continue
        if c.full != m.int(c.name):
            problems.append(f"count {c.name}: full value is {m.int(c.name)} (manifest)")
        if not isinstance(c.value, int) or c.value < 0:
            problems.append(f"count {c.name}: value must be a whole number, 0 or more")
            continue
        changes[_DU_COUNTS[c.name]] = c.value
    if problems:  # at the table of the first count with a problem
        raise MalformedInput("; ".join(problems), file=file,
                             line=spec.count_line(problem_count(problems[0])))
    changes["expansion_counts"] = tuple(sorted(extra.items()))
    config = replace(base, **changes)
    on_board = (len(config.lid_colours) * config.lids_per_colour - config.reserve_size
                + config.rat_lids)
    vampires = len(config.vampire_colours) * config.vampires_per_colour
    if config.players > 2 and on_board != board.size:
        problems.append(f"lids on the board ({on_board}) must equal the graves ({board.size})")
    if on_board > board.size:
        problems.append(f"{on_board} lids do not fit on {board.size} graves")
    coloured = len(config.lid_colours) * config.lids_per_colour
    if config.reserve_size > coloured:
        problems.append(f"the reserve takes {config.reserve_size} lid(s) from {coloured} "
                        "coloured lid(s) (du-en:prep.reserve): too few to deal it")
    elif on_board < 1:
        problems.append("no lid on the board: no grave can ever be opened")
    if config.reserve_size < config.rat_lids:
        problems.append("fewer reserve lids than rat lids: a plague's clean-up would find no "
                        "reserve lid (du-en:ch4.cleanup)")
    if vampires % config.players or vampires == 0:
        problems.append(f"{vampires} vampires do not divide among {config.players} players")
    if problems:
        raise MalformedInput("; ".join(problems), file=file)
    held = config.stakes_for_gift - 1  # what a player may hold before the gift
    if vampires // config.players >= 2 and config.stakes < config.players * held + 1:
        # rows of one end at the first placement; longer rows go on collecting stakes
        raise MalformedInput(
            f"count stakes: {config.stakes} stakes can run out while every player holds "
            f"{held} (no source says what then: register entry du.empty-path); with "
            f"{vampires // config.players} vampires a player, keep at least "
            f"{config.players * held + 1}, as the full {m.int('stakes')} do for 6 players",
            file=file, line=spec.count_line("stakes"))
    return config


def _du_setup_json(config: Config, state: State) -> dict[str, Any]:
    names = config.colours

    def lid(v: int | None) -> str | None:
        return None if v is None else "rat" if v == RAT else names[v]

    return {"lids": [lid(v) for v in state.lids], "reserve": [lid(v) for v in state.reserve],
            "rows": [[names[v.colour] for v in row] for row in state.rows],
            "start_player": state.turn_player}


class DawnUnderExplore(ExploreGame):
    """Dawn Under through the typed model ``ruleproof.model.dawn_under``.

    View: every :class:`State` field except ``config`` (fixed for a run), ``known`` (which lids
    everybody has seen: read by observations only, never by a transition) and
    ``placed_this_turn`` (written, never read).

    Symmetry (``symmetry=True``): colours are labels (the manifest calls them that) and seats
    are arranged in a circle, so renaming colours within a class (colours with the same
    vampire and lid counts) and rotating seats map the transition relation onto itself: no
    rule reads a colour except to compare two colours, and every rule names players relative
    to each other (left neighbour, finder, holder). Actions of the base game name graves and
    ends only, never a colour or a player. Not used with the expansion (gift actions name a
    player) -- refused there.
    """

    name = NAME

    def __init__(self, spec: ReducedSpec, *, symmetry: bool = False,
                 contracts: bool = False) -> None:
        self.spec = spec
        self.part = parse(spec)
        self.config = self.part.config
        self.totals = Totals.of_manifest(self.config)
        self._invariants = FastInvariants(self.config, self.totals)
        gruft = self.config.options.expansion != "none"
        base = "du-cs" if self.part.preset == "du-cs" else "du-en"
        self.played = RuleSet(NAME, spec.name, self.part.preset, players=(spec.players,),
                              sources=(base, "gruft-en") if gruft else (base,),
                              drop=GRUFT_DROPS if gruft and base == "du-en" else ())
        self.rule_set = self.played if contracts else None
        self._translate = _du_cs_of() if base == "du-cs" else None
        if symmetry and self.config.options.expansion != "none":
            raise MalformedInput("symmetry reduction is not offered with the expansion "
                                 "(its gift action names a player)")
        self.symmetry = symmetry
        self.symmetry_note = ("colour permutation within colour classes and seat rotation"
                              if symmetry else "off")
        c = self.config
        classes: dict[tuple[bool, bool], list[int]] = {}
        for colour in range(len(c.colours)):
            key = (colour in c.vampire_colours, colour in c.lid_colours)
            classes.setdefault(key, []).append(colour)
        self._class_of = {colour: tuple(ids) for ids in classes.values() for colour in ids}
        self._memo: Memo = {}
        # state_fp's cache: the digests of parts' codes by identity
        self._digest_memo: DigestMemo = {}
        # fp straight from the code unless symmetry, or a subclass's own view, is in play
        self._plain_fp = not symmetry and type(self).view is DawnUnderExplore.view and \
            type(self).canonical is DawnUnderExplore.canonical
        self._last_legal: tuple[State, tuple[Any, ...]] | None = None

    def roots(self) -> list[Root]:
        out = []
        options = dict(self.spec.options)
        seen: set[Setup] = set()
        for seed in self.part.seeds:
            dealt = deal(self.config, random.Random(seed))
            images = self.images(dealt) if self.part.images else [dealt]
            for i, setup in enumerate(images):
                if setup in seen:
                    continue
                seen.add(setup)
                state = initial_state(self.config, setup)
                out.append(Root(f"seed {seed}" + (f" image {i}" if i else ""), state, {
                    "players": self.config.players, "preset": self.part.preset,
                    "options": {**options, REDUCED_KEY: spec_ref(self.spec)},
                    "setup": _du_setup_json(self.config, state)}))
        return out

    def images(self, setup: Setup) -> list[Setup]:
        """``setup`` and its images under every renaming of colours within their classes and
        every seat rotation (the first is ``setup`` itself)."""
        classes = sorted({cls for c, cls in self._class_of.items()
                          if c in self.config.vampire_colours or c in self.config.lid_colours})
        perms: list[dict[int, int]] = [{}]
        for cls in classes:
            perms = [{**p, **dict(zip(cls, q, strict=True))} for p in perms
                     for q in itertools.permutations(cls)]
        n = self.config.players
        out = [setup]
        for k in range(n):
            for p in perms:
                def col(c: int | None, p: dict[int, int] = p) -> int | None:
                    return c if c is None or c == RAT else p.get(c, c)
                rows = tuple(tuple(p.get(c, c) for c in row) for row in setup.rows)
                img = Setup(tuple(col(x) for x in setup.lids),
                            tuple(p.get(x, x) for x in setup.reserve),
                            rows[k:] + rows[:k], (setup.start_player - k) % n)
                if img not in out:
                    out.append(img)
        return out

    def successors(self, state: State) -> list[tuple[str, State]]:
        return [(str(a), du_apply_legal(state, a)) for a in self._legal(state)]

    def next_states(self, state: State) -> list[State]:
        """The successor under each legal action, in order (the actions come from the
        engine's ``legal_actions`` of this state, so the engine's trusted transition is used:
        ``apply_legal``; tests check it equals the checked ``apply``)."""
        return [du_apply_legal(state, a) for a in self._legal(state)]

    def _legal(self, state: State) -> tuple[Any, ...]:
        """The legal actions of ``state``, computed once for both the invariants (the dead-end
        part of flow-consistent) and the successors: the explorer asks for both in a row."""
        last = self._last_legal
        if last is not None and last[0] is state:
            return last[1]
        legal = du_legal(state)
        self._last_legal = (state, legal)
        return legal

    def is_terminal(self, state: State) -> bool:
        return du_terminal(state)

    def view(self, state: State) -> View:
        """Without symmetry: the compact code of the view (:func:`state_code`, a tuple of ints
        in 0..255, an injective encoding of the fields listed in the class docstring). With
        symmetry: those fields as a tuple, which :meth:`canonical` encodes under every seat
        rotation and colour renaming."""
        if self.symmetry:
            return view_fields(state)
        return state_code(state, self._memo)

    def fp(self, state: State) -> int:
        """:meth:`ExploreGame.fp`: with symmetry the fingerprint of the canonical view
        (BLAKE2b over its code); without, :func:`state_fp`, a cheaper hash that is a function
        of :func:`state_code` (equal codes, equal fingerprints), not the same values."""
        if self._plain_fp:
            return state_fp(state, self._digest_memo)
        return fingerprint(self.canonical(self.view(state)))

    def fingerprinter(self) -> Callable[[State], int]:
        """:meth:`ExploreGame.fingerprinter`: without symmetry :func:`state_fp` bound to this
        game's memo (the value :meth:`fp` gives, one call less per successor)."""
        if self._plain_fp:
            return partial(state_fp, memo=self._digest_memo)
        return self.fp

    def canonical(self, view: View) -> View:
        """Without symmetry the code itself; with symmetry the smallest code over every seat
        rotation, colours renamed within their classes in order of first appearance (rows,
        graves, lids, reserve, the vampire in transit): the representative of the orbit."""
        if not self.symmetry:
            return view
        n = self.config.players
        return min(encode_fields(view, k, n, self._class_of) for k in range(n))

    def violations(self, state: State) -> list[str]:
        """Every invariant ``state`` breaks (:func:`~ruleproof.properties.dawn_under.
        invariants.violations`, through its fused fast path
        :class:`~ruleproof.properties.dawn_under.invariants.FastInvariants`)."""
        return self._invariants.violations(state, self._legal(state))

    def typed(self, action: str) -> Any:
        return parse_action(action)

    def step_violations(self, before: State, action: str, after: State,
                        contracts: Sequence[Any] | None = None) -> list[str]:
        out = super().step_violations(before, action, after, contracts)
        if before.extension is None:
            return out
        _, events = du_step(before, parse_action(action))
        return out + transition_violations(before, events, after)

    @property
    def step_checks(self) -> bool:
        return self.rule_set is not None or self.config.options.expansion != "none"

    def checked_next_states(self, state: State) -> tuple[list[State], list[tuple[int, str]]]:
        """:meth:`ExploreGame.checked_next_states` in one pass: each legal action is stepped
        once with the engine's trusted transition (``step_legal``, whose events the
        expansion's transition properties read; ``apply_legal`` when no event is read),
        instead of once for the successor and again for :meth:`step_violations`. The same
        checks in the same order: the clause contracts of :attr:`rule_set` (those active in
        ``state``, on the typed action), then the expansion's transition properties."""
        legal = self._legal(state)
        rule_set = self.rule_set
        contracts = rule_set.contracts(state) if rule_set is not None and legal else ()
        props = state.extension is not None
        nexts: list[State] = []
        bad: list[tuple[int, str]] = []
        for i, action in enumerate(legal):
            if props:
                nxt, events = du_step_legal(state, action)
            else:
                nxt, events = du_apply_legal(state, action), ()
            nexts.append(nxt)
            if contracts or props:
                _step_checks(state, i, action, nxt, events, contracts, props, bad)
        return nexts, bad

    def probes(self, state: State) -> list[Any]:
        """The systematic action space of the contract discovery
        (:func:`~ruleproof.properties.dawn_under.contracts.discovery.action_space`: every
        opening, placements, garlic and leaving on the pending grave and others, stop, both
        ends of hand-overs, the expansion's actions)."""
        from ruleproof.properties.dawn_under.contracts.discovery import action_space

        return action_space(state)

    def engine_clauses(self, before: State, action: str, after: State) -> tuple[str, ...]:
        """The clauses the engine's events cite for the transition (the conformance blame's
        reading of them: :func:`~ruleproof.properties.dawn_under.conformance.transition_clauses`);
        under du-cs, each du-en id is read as the du-cs clauses the alignment
        (``spec/dawn_under/alignment/du-cs.toml``) pairs with it."""
        _, events = du_step(before, parse_action(action))
        return self._cited(before, events, after)

    def _cited(self, before: State, events: tuple[Any, ...], after: State) -> tuple[str, ...]:
        """:meth:`engine_clauses` from the transition's events."""
        from ruleproof.properties.dawn_under.conformance import transition_clauses

        cited = transition_clauses(before, events, after)
        if self._translate is None:
            return cited
        return tuple(dict.fromkeys(x for c in cited for x in self._translate.get(c, (c,))))

    def covered_next_states(self, state: State) -> tuple[list[State], list[tuple[str, ...]],
                                                         list[tuple[int, str]]]:
        """:meth:`ExploreGame.covered_next_states` in one pass: each legal action is stepped
        once with the engine's trusted transition (``step_legal``), whose events give both
        the clauses it cites (:meth:`engine_clauses`) and what the expansion's transition
        properties read; the contracts of the played sources (for the clauses that speak)
        and of :attr:`rule_set` (for the step checks) are looked up once per state. The same
        clauses and checks in the same order as the generic definition, which
        tests/test_explore_coverage.py compares it with."""
        legal = self._legal(state)
        played = self._contracts(state) if legal else ()
        rule_set = self.rule_set
        contracts = rule_set.contracts(state) if rule_set is not None and legal else ()
        props = state.extension is not None
        nexts: list[State] = []
        fired: list[tuple[str, ...]] = []
        bad: list[tuple[int, str]] = []
        for i, action in enumerate(legal):
            nxt, events = du_step_legal(state, action)
            nexts.append(nxt)
            hit = dict.fromkeys(self._cited(state, events, nxt))
            for c in played:
                if c.clause not in hit and speaks(c, state, action, nxt):
                    hit[c.clause] = None
            fired.append(tuple(hit))
            _step_checks(state, i, action, nxt, events, contracts, props, bad)
        return nexts, fired, bad


def _step_checks(state: State, i: int, action: Any, nxt: State, events: tuple[Any, ...],
                 contracts: tuple[Any, ...], props: bool, bad: list[tuple[int, str]]) -> None:
    """Append to ``bad`` what the ``i``-th transition ``state --action--> nxt`` (with its
    ``events``) breaks: the ``contracts`` (those active in ``state``), then, if ``props``, the
    expansion's transition properties; as ``(i, "step ACTION: text")``."""
    if contracts:
        for c in broken(contracts, state, action, nxt):
            bad.append((i, f"step {action}: contract {c.clause}: {c.how} {c.what}"))
    if props:
        for v in transition_violations(state, events, nxt):
            bad.append((i, f"step {action}: {v}"))


def _du_cs_of() -> dict[str, tuple[str, ...]]:
    """du-en clause id -> the du-cs clauses whose alignment pair lists it (du-cs's own ids
    pass through)."""
    from ruleproof.spec.alignment import alignment

    out: dict[str, list[str]] = {}
    for pair in alignment("du-cs"):
        if pair.source is not None:
            for t in pair.targets:
                out.setdefault(t, []).append(pair.source)
    return {k: tuple(v) for k, v in out.items()}


# ----------------------------------------------------------------------------- the code
# A state's code is a flat tuple of small ints (each 0..255), an injective encoding of the
# view (DawnUnderExplore: every field but ``config``, ``known`` and ``placed_this_turn``).
# Fixed-length parts (one entry per grave or per player) are written as they are;
# variable-length parts carry their length first; ``None`` and the rat lid get codes of their
# own, so two different views never share a code. Symmetry reduction relabels the same code
# (:func:`encode_fields`), so the canonical form is a code too.

_GARLIC = 16
"""Grave content codes: 0 empty, 1 + colour a vampire, 16 + owner a garlic bundle."""

_PHASE_CODE: dict[int, int] = {id(p): i for i, p in enumerate(Phase)}
"""Base phases by ``id`` (enum members live as long as their class; hashing an enum member
runs Python code, ``id`` does not)."""


def _lids_code(lids: tuple[int | None, ...]) -> Code:
    # None 0, rat 1, colour c + 2 (RAT is -1)
    return tuple(0 if x is None else x + 2 for x in lids)


def _content(x: object, seat: Callable[[int], int], col: Callable[[int], int]) -> int:
    if x is None:
        return 0
    if type(x) is VampireIn:
        return 1 + col(x.colour)
    if type(x) is GarlicIn:
        return _GARLIC + seat(x.owner)
    raise TypeError(f"no code for grave content {x!r}")


def _same(x: int) -> int:
    return x


def _contents_code(contents: tuple[object, ...]) -> Code:
    """Per grave :func:`_content` (0 empty, 1 + colour a vampire, garlic by owner)."""
    return tuple(_content(x, _same, _same) for x in contents)


def _rows_code(rows: tuple[Row, ...]) -> Code:
    """Per row its length, then each vampire as ``colour * 2 + face_up``."""
    out: list[int] = []
    add = out.append
    for row in rows:
        add(len(row))
        for v in row:
            add(v.colour * 2 + 1 if v.face_up else v.colour * 2)
    return tuple(out)


def _extension_code(ext: object) -> Code:
    return (0,) if ext is None else (1, *bytes_code(repr(ext)))


def _phase_code(phase: Enum) -> Code:
    code = _PHASE_CODE.get(id(phase))
    return (code,) if code is not None else enum_code(phase)


def _plague_code(p: Plague | None, seat: Callable[[int], int]) -> Code:
    if p is None:
        return (0,)
    return (1, p.origin, seat(p.holder), seat(p.current), p.turns, len(p.opened), *p.opened,
            p.idle, 1 if p.current_opened else 0)


def _gifts_code(gifts: tuple[Gift, ...], seat: Callable[[int], int]) -> Code:
    out: list[int] = [len(gifts)]
    for g in gifts:
        out += (seat(g.giver), seat(g.receiver), *bytes_code(g.clause))
    return tuple(out)


def _windows_code(windows: tuple[tuple[int, ...], ...]) -> Code:
    out: list[int] = [len(windows)]
    for w in windows:
        out.append(len(w))
        out.extend(w)
    return tuple(out)


def _opt(x: int | None) -> int:
    return 0 if x is None else x + 1


def state_code(state: State, memo: Memo) -> Code:
    """The code of ``state``'s view (the fast path of :func:`encode_fields` without
    relabelling: both give the same code, tests/test_explore.py checks it state by state).
    ``memo`` caches the codes of ``lids``, ``contents``, ``rows``, ``windows`` and
    ``extension`` by identity (it is cleared beyond :data:`MEMO_LIMIT` entries)."""
    if len(memo) > MEMO_LIMIT:
        memo.clear()
    # memoised(memo, part, encoder) for each part, written out (the innermost loop: five
    # calls a successor saved)
    get = memo.get
    part: Any = state.lids
    hit = get(id(part))
    if hit is None or hit[0] is not part:
        hit = memo[id(part)] = (part, _lids_code(part))
    lids = hit[1]
    part = state.contents
    hit = get(id(part))
    if hit is None or hit[0] is not part:
        hit = memo[id(part)] = (part, _contents_code(part))
    contents = hit[1]
    part = state.rows
    hit = get(id(part))
    if hit is None or hit[0] is not part:
        hit = memo[id(part)] = (part, _rows_code(part))
    rows = hit[1]
    part = state.windows
    hit = get(id(part))
    if hit is None or hit[0] is not part:
        hit = memo[id(part)] = (part, _windows_code(part))
    windows = hit[1]
    part = state.extension
    hit = get(id(part))
    if hit is None or hit[0] is not part:
        hit = memo[id(part)] = (part, _extension_code(part))
    ext = hit[1]
    phase = state.phase
    code = _PHASE_CODE.get(id(phase))
    plague = state.plague
    gifts = state.gifts
    pending = state.pending
    transit = state.in_transit
    winner = state.winner
    barred = state.barred
    return (*lids, *contents, *rows, *state.stakes_held, state.stakes_path,
            *state.garlic_hand, len(state.reserve), *state.reserve, state.removed_rats,
            state.turn_player, *((code,) if code is not None else enum_code(phase)),
            1 if state.may_stop else 0, 0 if pending is None else pending + 1,
            *((0,) if plague is None else _plague_code(plague, _same)),
            *((0,) if not gifts else _gifts_code(gifts, _same)),
            0 if transit is None else transit + 1, 0 if winner is None else winner + 1,
            *windows, len(barred), *barred, *ext)


DigestMemo = dict[int, tuple[object, int]]
"""Digests of parts' codes by ``id`` (:func:`part_digest`; each entry keeps its object alive, as
:data:`Memo`)."""


_M64 = (1 << 64) - 1
"""64 bits."""


def part_digest(code: Code) -> int:
    """A part's digest for :func:`state_fp`: Python's tuple hash of its code, deterministic in
    every process (ints hash as themselves below 2**61 - 1; a code holds no ``str`` or None,
    whose hashes vary between processes), taken as 64 bits."""
    return hash(code) & _M64


def _gruft_key(ext: Gruft) -> tuple[Any, ...]:
    """The expansion's part as a tuple of ints and tuples of ints (None as -1: every other
    value is >= 0), what :func:`state_fp` hashes; :data:`GRUFT_KEY_FIELDS` names its fields
    in order (a test compares them with ``fields(Gruft)``)."""
    bat = ext.bat
    count_grave, post, putter = ext.count_grave, ext.post, ext.putter
    then_put, next_turn = ext.then_put, ext.next_turn
    return (ext.bats, ext.bats_out, ext.open_graves,
            -1 if count_grave is None else count_grave, -1 if post is None else post,
            () if bat is None else (bat.grave, bat.owner, bat.believed),
            -1 if putter is None else putter, -1 if then_put is None else then_put,
            ext.streak, -1 if next_turn is None else next_turn)


GRUFT_KEY_FIELDS = ("bats", "bats_out", "open_graves", "count_grave", "post", "bat", "putter",
                    "then_put", "streak", "next_turn")
"""The fields of :class:`Gruft` that :func:`_gruft_key` reads, in order."""

_GRUFT_KEY_OK = tuple(f.name for f in fields(Gruft)) == GRUFT_KEY_FIELDS
"""Whether :func:`_gruft_key` reads every field of :class:`Gruft` (else the part is digested
from its ``repr``, as any other expansion's part is)."""

def _phase_digests() -> dict[int, int]:
    """:func:`part_digest` of every phase's code, base and expansions', by ``id`` of the
    member (enum members live as long as their class; hashing one runs Python code)."""
    from ruleproof.model.dawn_under.expansion import all_expansions

    phases = [*Phase, *(p for ext in all_expansions() for p in ext.phases)]
    return {id(p): part_digest(_phase_code(p)) for p in phases}


_PHASE_DIGEST: Mapping[int, int] = _phase_digests()
"""The digest of every phase's code by ``id`` of the member; read-only."""


def state_fp(state: State, memo: DigestMemo) -> int:
    """The 64-bit fingerprint of ``state``'s view, a function of :func:`state_code` (equal
    codes, equal fingerprints; tests/test_explore.py checks that different codes of every
    state of several set-ups get different ones), computed without building the code.

    How: each part a successor usually shares with its parent (``lids``, ``contents``,
    ``rows``, ``windows``, ``gifts``, the expansion's part when it is not
    :class:`~ruleproof.model.dawn_under.gruft.state.Gruft`) gets a 64-bit digest of its
    code (:func:`part_digest`: Python's tuple hash), cached by identity in ``memo``; the expansion's
    :class:`Gruft` part, which the engine rebuilds on most transitions, is read as a tuple of
    ints (:func:`_gruft_key`). Those digests and the remaining fields (ints, tuples of ints,
    None as -1 where every other value is >= 0) make one tuple, which Python hashes in C with
    its xxHash-based tuple hash (ints hash as themselves below 2**61 - 1; no ``str``, enum or
    None in it, whose hashes vary between processes, so every process and Ray worker computes
    the same value); SplitMix64's finaliser spreads the bits (a bijection on 64 bits, so it
    adds no collision). The collision probability reported (TLC's estimate) assumes
    fingerprints behave as random 64-bit values, as TLC's own do. It replaced BLAKE2b over the
    whole code (``fingerprint(state_code(...))``: 11.4-12.2 against 5.8-7.4 us of CPU per
    expanded state on a BFS prefix, docs/benchmarks.md); checkpoints of that one are refused
    by version.
    """
    if len(memo) > MEMO_LIMIT:
        memo.clear()
    get = memo.get
    # an entry keeps its object alive, so no other object can have its id meanwhile
    part: Any = state.lids
    hit = get(id(part))
    if hit is None:
        hit = memo[id(part)] = (part, part_digest(_lids_code(part)))
    lids = hit[1]
    part = state.contents
    hit = get(id(part))
    if hit is None:
        hit = memo[id(part)] = (part, part_digest(_contents_code(part)))
    contents = hit[1]
    part = state.rows
    hit = get(id(part))
    if hit is None:
        hit = memo[id(part)] = (part, part_digest(_rows_code(part)))
    rows = hit[1]
    part = state.windows
    if part:
        hit = get(id(part))
        if hit is None:
            hit = memo[id(part)] = (part, part_digest(_windows_code(part)))
        windows = hit[1]
    else:
        windows = 0
    part = state.gifts
    if part:
        hit = get(id(part))
        if hit is None:
            hit = memo[id(part)] = (part, part_digest(_gifts_code(part, _same)))
        gifts = hit[1]
    else:
        gifts = 0
    part = state.extension
    if part is None:
        ext: Any = 0
    elif type(part) is Gruft and _GRUFT_KEY_OK:
        ext = _gruft_key(part)
    else:
        hit = get(id(part))
        if hit is None:
            hit = memo[id(part)] = (part, part_digest(_extension_code(part)))
        ext = hit[1]
    phase = state.phase
    phase_d = _PHASE_DIGEST.get(id(phase))
    if phase_d is None:
        phase_d = part_digest(_phase_code(phase))
    plague = state.plague
    pending = state.pending
    transit = state.in_transit
    winner = state.winner
    h = hash((lids, contents, rows, state.stakes_held, state.stakes_path, state.garlic_hand,
              state.reserve, state.removed_rats, state.turn_player, phase_d,
              1 if state.may_stop else 0, -1 if pending is None else pending,
              0 if plague is None else _plague_code(plague, _same), gifts,
              -1 if transit is None else transit, -1 if winner is None else winner,
              windows, state.barred, ext)) & _M64
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9 & _M64
    h = (h ^ (h >> 27)) * 0x94D049BB133111EB & _M64
    return h ^ (h >> 31)


def view_fields(state: State) -> tuple[Any, ...]:
    """The view's fields as a tuple (what :func:`encode_fields` relabels)."""
    return (state.lids, state.contents, state.rows, state.stakes_held, state.stakes_path,
            state.garlic_hand, state.reserve, state.removed_rats, state.turn_player,
            state.phase, state.may_stop, state.pending, state.plague, state.gifts,
            state.in_transit, state.winner, state.windows, state.barred, state.extension)


def encode_fields(view: tuple[Any, ...], k: int, n: int,
                  class_of: dict[int, tuple[int, ...]] | None) -> Code:
    """The code of a view (:func:`view_fields`) with seats rotated by ``k`` (seat ``p``
    becomes ``(p - k) % n``; per-seat tuples start at seat ``k``) and, if ``class_of`` is
    given, colours renamed within their classes (``class_of[c]``: the colours of c's class,
    in order) in order of first appearance: rows, grave contents, lids, reserve, in transit.
    ``k = 0`` without ``class_of`` gives :func:`state_code`."""
    (lids, contents, rows, held, path, garlic, reserve, rats, turn, phase, may_stop,
     pending, plague, gifts, transit, winner, windows, barred, ext) = view

    def seat(p: int) -> int:
        return (p - k) % n

    def rot(t: tuple[Any, ...]) -> tuple[Any, ...]:
        return t[k:] + t[:k] if t else t

    mapping: dict[int, int] = {}
    used: dict[tuple[int, ...], int] = {}

    def col(c: int) -> int:
        if class_of is None:
            return c
        got = mapping.get(c)
        if got is None:
            cls = class_of[c]
            got = cls[used.get(cls, 0)]
            used[cls] = used.get(cls, 0) + 1
            mapping[c] = got
        return got

    rows_code: list[int] = []
    for row in rot(rows):
        rows_code.append(len(row))
        rows_code.extend(col(v.colour) * 2 + (1 if v.face_up else 0) for v in row)
    contents_code = tuple(_content(x, seat, col) for x in contents)
    lids_code = tuple(0 if x is None else 1 if x == RAT else col(x) + 2 for x in lids)
    reserve_code = tuple(col(x) for x in reserve)
    transit_code = 0 if transit is None else col(transit) + 1
    return (*lids_code, *contents_code, *rows_code, *rot(held), path, *rot(garlic),
            len(reserve), *reserve_code, rats, seat(turn), *_phase_code(phase),
            1 if may_stop else 0, _opt(pending), *_plague_code(plague, seat),
            *_gifts_code(gifts, seat), transit_code, _opt(None if winner is None else seat(winner)),
            *_windows_code(rot(windows)), len(barred), *barred, *_extension_code(ext))


# ----------------------------------------------------------------------------- the capability


def start_state(spec: ReducedSpec, seed: int | None, setup: Mapping[str, Any] | None) -> State:
    """The initial state a trace of ``spec`` names: the deal of ``seed`` (default 0), or the
    explicit ``setup`` (the trace format's set-up object).

    Raises:
        MalformedInput: a set-up that does not fit the configuration.
    """
    config = du_config(spec)
    if setup is None:
        return initial_state(config, deal(config, random.Random(seed or 0)))
    from ruleproof.properties.dawn_under.conformance import setup_from_json
    return initial_state(config, setup_from_json(config, setup))


def reduced_config(options: Mapping[str, str]) -> Config:
    """The Dawn Under configuration named by a trace's ``reduced`` option.

    Raises:
        MalformedInput: an unknown configuration, one of another game, or an invalid file.
    """
    return du_config(configuration(options[REDUCED_KEY]))


def reduced_game(spec: ReducedSpec, **params: Any) -> Any:
    """The reduced set-up ``spec`` as a game on the one interface (the ``reduced`` game
    parameter): its configuration (:func:`du_config`) with the given ``options`` and
    ``max_moves``.

    Raises:
        MalformedInput: as :func:`du_config`; ``board``, ``expansion`` or ``preset`` given
            besides (the set-up fixes them; so it does the player count, and a ``players``
            value, which OpenSpiel always passes, is not read).
    """
    from ruleproof.model.dawn_under.game import DEFAULT_MAX_MOVES, DawnUnderGame

    clash = sorted(k for k in ("board", "expansion", "preset")
                   if params.get(k) not in (None, "", 0))
    if clash:
        raise MalformedInput(f"reduced configuration {spec.name}: {', '.join(clash)} cannot be "
                             f"given with it (the set-up fixes them)", file=spec.path)
    config = du_config(spec)
    preset, _, _, _ = du_part(spec)
    return DawnUnderGame(config.players, preset, params.get("options"), None,
                         int(params.get("max_moves") or DEFAULT_MAX_MOVES), None, config)


@dataclass(frozen=True)
class DawnUnderExploreSupport:
    """Dawn Under's ``explore`` capability (see
    :class:`~ruleproof.properties.explore.games.ExploreSupport`)."""

    def parse(self, spec: ReducedSpec) -> DawnUnderReduced:
        return parse(spec)

    def game(self, spec: ReducedSpec, *, symmetry: bool, contracts: bool) -> DawnUnderExplore:
        return DawnUnderExplore(spec, symmetry=symmetry, contracts=contracts)

    def start_state(self, spec: ReducedSpec, seed: int | None,
                    setup: Mapping[str, Any] | None) -> State:
        return start_state(spec, seed, setup)


EXPLORE = DawnUnderExploreSupport()
"""The capability object the plugin record names (``capabilities["explore"]``)."""
