"""Helpers shared by the command modules of the ``ruleproof`` CLI."""

from __future__ import annotations

import functools
import math
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import typer
from typer.core import TyperGroup

from ruleproof.errors import MalformedInput

if TYPE_CHECKING:
    from ruleproof.properties.plugin import GamePlugin

F = TypeVar("F", bound=Callable[..., Any])


class CheckedGroup(TyperGroup):
    """The ``ruleproof`` command group: a command's empty values (``--profile ''``,
    ``--out ''``, an empty argument) are refused before the command runs, naming the option,
    instead of being taken as the default (or, for a path, as the current folder)."""

    def resolve_command(self, ctx: Any, args: list[str]) -> tuple[str | None, Any, list[str]]:
        name, cmd, rest = super().resolve_command(ctx, args)
        if cmd is not None and not ctx.resilient_parsing:
            refuse_empty_values(cmd, name, rest, ctx)
        return name, cmd, rest


def refuse_empty_values(cmd: Any, name: str | None, args: Sequence[str], parent: Any) -> None:
    """Refuse the first option or argument given an empty (or blank) value in ``args``,
    parsed as ``cmd`` parses them, with one line on stderr (``error: ruleproof CMD: Invalid
    value for '--flag': an empty value ...``) and exit code 2, as every usage error; other
    parse errors are left to the command's own parsing.

    Raises:
        typer.Exit: code 2, after the line.
    """
    sub = type(parent)(cmd, info_name=name, parent=parent, resilient_parsing=True)
    try:
        values, _, _ = cmd.make_parser(sub).parse_args(list(args))
    except Exception:  # the command's own parsing reports it
        return
    for param in cmd.get_params(sub):
        raw = values.get(param.name)
        if raw is None or getattr(param, "is_flag", False) or getattr(param, "count", False):
            continue
        todo = [raw]
        while todo:
            item = todo.pop()
            if isinstance(item, list | tuple):
                todo += item
            elif isinstance(item, str) and not item.strip():
                option = getattr(param, "param_type_name", "") == "option"
                exc = typer.BadParameter("an empty value; give one" + (
                    ", or leave the option out for its default" if option else ""),
                    ctx=sub, param=param)
                message = " ".join(str(exc.format_message()).split())
                sys.stderr.write(f"error: {sub.command_path}: {message}\n")
                raise typer.Exit(2)


def bad_input_exits_2(fn: F) -> F:
    """Turn MalformedInput into a one-line ``error: FILE:LINE: what`` and exit code 2; so too
    an operating-system error on a path the user gave (a directory where a file is wanted, a
    missing folder, a full disk): ``error: PATH: cannot use it: REASON``."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except MalformedInput as exc:
            typer.echo(f"error: {exc.report()}", err=True)
            raise typer.Exit(2) from None
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename is not None else ""
            reason = " ".join(str(exc.strerror or exc).split())
            typer.echo(f"error: {where}cannot use it: {reason}", err=True)
            raise typer.Exit(2) from None

    return wrapper  # type: ignore[return-value]


def option_pairs(pairs: list[str]) -> dict[str, str]:
    """``NAME=VALUE`` strings of ``--option`` as a mapping (names with ``_`` for ``-``).

    Raises:
        MalformedInput: for an item without ``=``, or for one name given twice with different
            values (never silently the last one).
    """
    found: dict[str, str] = {}
    for pair in pairs:
        if "=" not in pair:
            raise MalformedInput(f"--option expects NAME=VALUE, got {pair!r}")
        key, value = pair.split("=", 1)
        name, value = key.strip().replace("-", "_"), value.strip()
        if name in found and found[name] != value:
            raise MalformedInput(f"--option {name} given twice with different values: "
                                 f"{found[name]!r} and {value!r}; give it once")
        found[name] = value
    return found


MAX_JOBS = 64
"""Most worker processes any command starts."""


def number_in_range(value: float, option: str, low: float, high: float) -> float:
    """``value`` of ``option`` if it is a finite number in ``low..high``.

    Shared by every command with a numeric option (``--seed``, ``--max-steps``, ``--jobs``,
    ``--players``...): nan, inf and out-of-range values are refused, never used.

    Raises:
        MalformedInput: naming the option and the accepted range.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (
            isinstance(value, float) and not math.isfinite(value)) or not low <= value <= high:
        shown = repr(value)[:40]
        raise MalformedInput(f"{option} must be a number in {low}..{high}, got {shown}")
    return value


def int_in_range(value: int, option: str, low: int, high: int) -> int:
    """``value`` of ``option`` if it is an integer in ``low..high``.

    Raises:
        MalformedInput: naming the option and the accepted range.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedInput(f"{option} must be an integer, got {repr(value)[:40]}")
    number_in_range(value, option, low, high)
    return value


def jobs_in_range(value: int) -> int:
    """A worker count: 1..min(MAX_JOBS, 4 x the CPUs).

    Raises:
        MalformedInput: for a count outside that range.
    """
    return int_in_range(value, "--jobs", 1, min(MAX_JOBS, 4 * (os.cpu_count() or 1)))


# --------------------------------------------------------------------------- game parameters

PARAM_HELP = ("a game parameter NAME=VALUE (repeatable; `ruleproof games` lists every game's "
              "parameters with their kinds and defaults)")
"""Help of ``-P`` on every command that takes game parameters."""


def param_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """``-P NAME=VALUE`` items as a mapping (``-`` in a name read as ``_``).

    Raises:
        MalformedInput: an item without ``=``, or one name given twice with different values.
    """
    found: dict[str, str] = {}
    for pair in pairs:
        if "=" not in pair:
            raise MalformedInput(f"-P expects NAME=VALUE, got {pair[:60]!r}")
        key, value = pair.split("=", 1)
        name, value = key.strip().replace("-", "_"), value.strip()
        if name in found and found[name] != value:
            raise MalformedInput(f"-P {name} given twice with different values: "
                                 f"{found[name]!r} and {value!r}; give it once")
        found[name] = value
    return found


SHORTHANDS = {"players": "--players", "preset": "--preset", "options": "--option",
              "expansion": "--expansion", "board": "--board", "cards": "--cards"}
"""Parameter -> the command-line flag that gives it besides ``-P NAME=VALUE``."""


def game_params(p: GamePlugin, pairs: Sequence[str] = (), **flags: Any) -> dict[str, Any]:
    """The typed parameters of the game ``p`` from ``-P NAME=VALUE`` items (typed by the
    game's parameter model, :func:`ruleproof.properties.plugin.parse_params`) and the shorthand
    flags users know (``players=``, ``preset=``, ``expansion=``, ``board=``, ``cards=``: the
    value of ``--players`` ..., already typed by the option parser; ``options=``: the
    ``--option NAME=VALUE`` items; None: not given). Only the names are checked here; the
    game checks the values when it is made. A parameter given as ``-P`` and by its flag must
    agree; ``-P options=...`` and ``--option`` items are merged.

    Raises:
        MalformedInput: a parameter the game does not have (one line naming the flag, the game
            and its parameters), a value of the wrong kind, or one parameter given twice with
            different values.
    """
    from ruleproof.model.api import option_pairs_from
    from ruleproof.properties.plugin import parse_params

    given = param_pairs(pairs)
    options = flags.pop("options", None)
    known = ", ".join(q.name for q in p.parameters)
    for name, value in flags.items():
        if value is not None and p.param(name) is None:
            raise MalformedInput(f"{SHORTHANDS.get(name, name)}: {p.name} has no parameter "
                                 f"{name!r}; its parameters: {known}")
    for name in given:
        if p.param(name) is None:
            raise MalformedInput(f"-P {name}: {p.name} has no parameter {name!r}; its "
                                 f"parameters: {known}")
    if options and p.param("options") is None:
        raise MalformedInput(f"--option: {p.name} has no parameter 'options'; its parameters: "
                             f"{known}")
    typed: dict[str, Any] = {}
    for name, raw in given.items():  # one at a time, so an error names its -P item
        try:
            typed.update(parse_params(p, {name: raw}))
        except MalformedInput as err:
            raise MalformedInput(f"-P {name}: {err.what}") from None
    for name, value in flags.items():
        if value is None:
            continue
        if name in typed and typed[name] != value:
            raise MalformedInput(f"{SHORTHANDS.get(name, name)} {flags[name]} and -P "
                                 f"{name}={given[name]} disagree; give one")
        typed[name] = value
    if options:
        merged = option_pairs(list(options))
        for key, value in option_pairs_from(typed.get("options")).items():
            if merged.get(key, value) != value:
                raise MalformedInput(f"--option {key} and -P options disagree: "
                                     f"{merged[key]!r} and {value!r}; give it once")
            merged[key] = value
        typed["options"] = merged
    return typed


HELP_PANELS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Check the rules", ("check", "scenario", "prove", "explore", "replay")),
    ("Read the rules", ("games", "clauses", "ambiguities", "assumed", "simulate", "stats",
                        "render")),
    ("Engines and frameworks", ("conform", "conform-framework", "perft")),
    ("Documentation and formats", ("docs", "schema")),
)
"""``--help`` panels in order, each with its commands in order; a command in none of them
comes last, in a panel of its own ("More")."""


def reflow(text: str) -> str:
    """A docstring as ``--help`` text: dedented, each paragraph's hard-wrapped lines joined
    with spaces (rich keeps newlines, so source wrapping broke lines mid-sentence); a paragraph
    with indented lines (an example block) or a ``\\b`` marker is kept as it is."""
    import inspect
    import re

    out = []
    for para in re.split(r"\n\s*\n", inspect.cleandoc(text)):
        lines = para.splitlines()
        keep = para.startswith("\b") or any(x.startswith((" ", "\t")) for x in lines[1:])
        out.append(para if keep else " ".join(x.strip() for x in lines))
    return "\n\n".join(out)


def tidy_help(app: typer.Typer) -> None:
    """Give every command of ``app`` its reflowed docstring as help, reST's double backticks
    made single (a terminal shows them as typed), and its panel (:data:`HELP_PANELS`), and
    order the commands panel by panel (``--help`` lists them in this order). Changes ``app``'s
    command records in place; call once, after every command is registered."""
    import inspect

    order = {name: (i, j) for i, (_, names) in enumerate(HELP_PANELS)
             for j, name in enumerate(names)}
    panel_of = {name: panel for panel, names in HELP_PANELS for name in names}

    def name_of(info: Any) -> str:
        return str(info.name or info.callback.__name__.replace("_", "-"))

    for info in app.registered_commands:
        doc = info.help or (inspect.getdoc(info.callback) if info.callback else None)
        if doc:
            info.help = reflow(doc).replace("``", "`")
        info.rich_help_panel = panel_of.get(name_of(info), "More")
    app.registered_commands.sort(key=lambda info: order.get(name_of(info),
                                                            (len(HELP_PANELS), 0)))
