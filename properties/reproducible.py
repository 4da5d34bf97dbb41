"""Seeded hypothesis runs that draw the same examples in every process.

Recent hypothesis (6.170 here) draws about one integer, string or bytes value in twenty (floats
more often) from a pool of *local constants*: the literals of every module in ``sys.modules``
that is neither in the standard library nor in site-packages (ruleproof itself when run from a
checkout, but not when installed). The pool grows with every such module the process has
imported so far, so a seeded, derandomised run plays different games depending on what else the
process imported: the CLI (its own modules' literals), a Ray worker (only the modules the
property needs), a pytest session, an earlier property in the same worker, or an installed copy
of the package (no local module at all). ``check --ray`` played 4,312 steps of "invariants in
random games, 4 players" against 3,926 locally for that reason.

Our strategies draw deal seeds and indices into the legal actions, where a literal of the
source code means nothing, so every seeded search of the properties runs inside
:func:`reproducible_draws`, which empties the pool for the duration of the run: the examples
then depend on the seed, the settings and the code under test alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis.internal.conjecture import providers

from ruleproof.system import interrupts

try:  # older hypothesis releases have no local-constant pool (nothing to empty then)
    from hypothesis.internal.constants_ast import Constants
except ImportError:  # pragma: no cover - depends on the installed hypothesis
    Constants = None  # type: ignore[assignment,misc]


def _no_local_constants() -> Any:
    """The empty pool (a fresh one each call: hypothesis may add to what it is given)."""
    assert Constants is not None
    return Constants()


@contextmanager
def reproducible_draws() -> Iterator[None]:
    """Run the enclosed hypothesis searches without constants taken from imported modules.

    Replaces hypothesis's local-constant lookup by an empty pool and clears its cache of allowed
    constants on entry and on exit, so neither constants found before nor ones cached inside
    leak across the boundary. Nested uses are no-ops (the outermost restores). A hypothesis
    without the feature is left as it is. Not for concurrent hypothesis runs in threads (the
    lookup is a module attribute of hypothesis).
    """
    original = getattr(providers, "_get_local_constants", None)
    cache = getattr(providers, "CONSTANTS_CACHE", None)
    if original is None or original is _no_local_constants or Constants is None:
        yield
        return
    providers._get_local_constants = _no_local_constants
    if cache is not None:
        cache.cache.clear()
    try:
        yield
    finally:
        providers._get_local_constants = original
        if cache is not None:
            cache.cache.clear()


def reraise_interrupt(exc: BaseException) -> None:
    """Raise the :class:`KeyboardInterrupt` (a signal's :class:`ruleproof.errors.Interrupted`)
    that ``exc`` replaced, if its ``__cause__`` / ``__context__`` chain holds one; else return.

    Hypothesis can turn an interrupt into an ordinary error: a signal that arrives while it
    computes the test's database key (before its runner exists) reaches its ``except
    BaseException`` handler, whose ``assert state._runner is not None`` then raises an
    :class:`AssertionError` with the interrupt as its context (hypothesis 6.x, ``core.py``
    ``wrapped_test``). A caller that treats an error from a hypothesis run as a finding calls
    this first, so an interrupted run ends as interrupted instead of reporting a false failure
    (conform once wrote an "engine-failure" trace for an engine the signal had killed).

    A signal the command line's handler noted (:mod:`ruleproof.system.interrupts`) is raised
    too when the chain holds none: an interrupt a library lost altogether leaves the run's
    stopped workers and engines to fail, and their failures are no finding either.

    Raises:
        KeyboardInterrupt: the interrupt found in the chain (the same object), else the noted
            signal's :class:`~ruleproof.errors.Interrupted`.
    """
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        if isinstance(cur, KeyboardInterrupt):
            raise cur
        seen.add(id(cur))
        cur = cur.__cause__ or cur.__context__
    interrupts.check()
