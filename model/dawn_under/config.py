"""Building a :class:`~ruleproof.model.dawn_under.state.Config` from the manifest, a preset and options."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from ruleproof.errors import MalformedInput
from ruleproof.model.dawn_under.board import Board, default_board, load_board
from ruleproof.model.dawn_under.expansion import load_expansion
from ruleproof.model.dawn_under.expansions import DAWN_UNDER_EXPANSIONS
from ruleproof.model.dawn_under.state import OPTION_VALUES, Config, Options
from ruleproof.spec import line_of, manifest, spec_path

GAME = "dawn-under"
SPEC_FOLDER = "dawn_under"
"""This game's data folder under spec/."""


@dataclass(frozen=True)
class Preset:
    """A rule set: a source reading and the option values it implies.

    Attributes:
        name: ``du-en``, ``du-cs`` or ``2p``.
        source: the document it reads.
        players: the player counts it covers.
        options: option name -> value (strings), on top of the defaults.
        description: one line.
    """

    name: str
    source: str
    players: tuple[int, ...]
    options: tuple[tuple[str, str], ...]
    description: str


@cache
def presets() -> dict[str, Preset]:
    """The shipped presets (``spec/dawn_under/presets.toml``), by name."""
    return load_presets(spec_path("dawn_under", "presets.toml"))


def load_presets(path: Path) -> dict[str, Preset]:
    """Presets from a preset file (format ``presets``: ``ruleproof schema presets``).

    Raises:
        MalformedInput: at the offending value: bad structure, unknown option or value.
    """
    from ruleproof.spec.formats import read_toml, validate
    from ruleproof.spec.models import PresetFile

    doc = read_toml(path)
    problems = doc.problems()
    model = validate(PresetFile, doc.data, problems)
    problems.raise_if_any()
    assert model is not None
    out: dict[str, Preset] = {}
    for index, entry in enumerate(model.preset):
        opts = {str(k): str(v).lower() for k, v in entry.options.items()}
        for key, value in opts.items():
            try:
                parse_options({key: value})
            except MalformedInput as err:
                problems.add(("preset", index, "options", key), err.what)
        if entry.name in out:
            problems.add(("preset", index, "name"), f"duplicate preset {entry.name!r}")
        out[entry.name] = Preset(entry.name, entry.source, tuple(entry.players),
                                 tuple(sorted(opts.items())), entry.description)
    problems.raise_if_any()
    return out


@cache
def option_values() -> dict[str, tuple[str, ...]]:
    """Every rule option and its values, the default first: the base game's
    (:data:`~ruleproof.model.dawn_under.state.OPTION_VALUES`) and those each known expansion
    declares."""
    out = dict(OPTION_VALUES)
    for name in DAWN_UNDER_EXPANSIONS:
        out.update(load_expansion(name).options)
    return out


def parse_options(pairs: dict[str, str], *, base: Options | None = None,
                  where: str | None = None, text: str | None = None) -> Options:
    """Options from ``name=value`` strings (CLI ``--option`` or a scenario's ``[options]``),
    applied on top of ``base`` (default: the du-en defaults).

    Raises:
        MalformedInput: unknown option name or value, naming the allowed ones.
    """
    known = option_values()
    values: dict[str, object] = {}
    extra = dict((base or Options()).expansion_options)
    for name, raw in pairs.items():
        key = name.replace("-", "_")
        line = line_of(text, name) if text else None
        if key not in known:
            raise MalformedInput(
                f"unknown rule option {name!r}; known: {', '.join(sorted(known))}",
                file=where, line=line)
        value = str(raw).lower()
        if key == "expansion" and str(raw) != value:
            # expansion names are matched exactly everywhere (check --expansion, conform -o,
            # a trace header): an engine would be sent the spelling as given
            raise MalformedInput(
                f"unknown expansion {raw!r}; known: {', '.join(known[key])}",
                file=where, line=line)
        if value not in known[key]:
            raise MalformedInput(
                f"option {name}: value {raw!r} is not one of {', '.join(known[key])}",
                file=where, line=line)
        if key not in OPTION_VALUES:  # an expansion's option: defaults are not stored
            extra.pop(key, None)
            if value != known[key][0]:
                extra[key] = value
            continue
        values[key] = value == "true" if key == "receiver_chooses_end" else value
    values["expansion_options"] = tuple(sorted(extra.items()))
    return replace(base or Options(), **values)  # type: ignore[arg-type]


def preset_options(name: str) -> Options:
    """The options of preset ``name``.

    Raises:
        MalformedInput: for an unknown preset.
    """
    found = presets().get(name)
    if found is None:
        raise MalformedInput(f"unknown preset {name!r}; known: {', '.join(presets())}")
    return parse_options(dict(found.options))


def make_config(players: int, options: Options | None = None,
                board: Board | Path | None = None, preset: str = "du-en") -> Config:
    """The configuration of a Dawn Under game.

    Component numbers come from ``spec/dawn_under/components.toml`` (du-en:content.graves,
    du-en:content.lids, du-en:content.vampires, du-en:content.garlic, du-en:content.stakes,
    du-en:prep.reserve; with 2 players du-en:2p.components, du-en:2p.reserve,
    du-en:2p.other-garlic, du-en:2p.own-garlic-stake, du-en:2p.rat-stays; an expansion's own
    numbers, e.g. gruft-en:prep.bats, gruft-en:components.count). ``options``
    default to the preset's. The board is the assumed default unless one is given.

    Raises:
        MalformedInput: if the preset does not cover ``players`` (3..6 for du-en and du-cs,
            du-en:content.players; 2 for the 2p preset) or the board file is invalid.
    """
    m = manifest(SPEC_FOLDER)
    found = presets().get(preset)
    if found is None:
        raise MalformedInput(f"unknown preset {preset!r}; known: {', '.join(presets())}")
    if isinstance(players, bool) or players not in found.players:
        hint = " (the 2-player rules are the preset 2p)" if players == 2 else ""
        counts = ", ".join(map(str, found.players))
        low, high = found.players[0], found.players[-1]
        span = f"{low} to {high}" if high - low == len(found.players) - 1 and low != high \
            else counts
        raise MalformedInput(
            f"dawn-under with preset {preset} is played by {span} players "
            f"(du-en:content.players); got {players}{hint}")
    opts_given = options if options is not None else preset_options(preset)
    if opts_given.expansion != "none":
        refused = load_expansion(opts_given.expansion).check_players(players)
        if refused:
            raise MalformedInput(refused)
    if isinstance(board, Path):
        board = load_board(board, m.int("graves"))
    board = board or default_board()
    colours = m.strings("colours")
    opts = opts_given
    extra_counts: tuple[tuple[str, int], ...] = ()
    if opts.expansion != "none":
        # the expansion's component numbers (gruft: gruft-en:prep.bats, gruft-en:components.count)
        extra_counts = tuple(sorted((name, m.int(name))
                                    for name in load_expansion(opts.expansion).components))
    config = Config(
        players=players,
        board=board,
        options=opts,
        colours=colours,
        vampires_per_colour=m.int("vampires_per_colour"),
        lids_per_colour=m.int("coloured_lids_per_colour"),
        rat_lids=m.int("rat_lids"),
        reserve_size=m.int("reserve_lids"),
        stakes=m.int("stakes"),
        garlic=m.int("garlic_per_player"),
        stakes_for_gift=m.int("stakes_for_gift"),
        open_per_side=m.int("open_per_side"),
        all_open_at_most=m.int("all_open_at_most"),
        gift_other_garlic=m.int("gift_other_garlic"),
        gift_own_garlic=m.int("gift_own_garlic"),
        gift_stake=m.int("gift_stake"),
        preset=preset,
        expansion_counts=extra_counts,
    )
    if players == 2:
        kept = tuple(colours.index(c) for c in m.strings("colours_kept_2p"))
        if len(kept) != m.int("colours_2p"):
            raise MalformedInput("manifest: colours_kept_2p must list colours_2p colours")
        others = tuple(c for c in range(len(colours)) if c not in kept)
        # du-en:2p.components: the two lid colours removed are the two vampire colours removed
        # under the 'same' reading; under 'different' two other lid colours go.
        lid_colours = kept if opts.removed_colours == "same" else tuple(
            sorted(others + kept[len(others):]))
        config = replace(config, vampire_colours=kept, lid_colours=lid_colours,
                         rat_lids=m.int("rat_lids_2p"), reserve_size=m.int("reserve_lids_2p"),
                         gift_other_garlic=m.int("gift_other_garlic_2p"),
                         gift_own_garlic=m.int("gift_own_garlic_2p"),
                         gift_stake=m.int("gift_stake_2p"), rat_lid_stays=True)
    return config
