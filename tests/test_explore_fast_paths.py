"""The explorer's fast paths (issue #30) give what the reference paths give.

* :class:`~ruleproof.properties.dawn_under.invariants.FastInvariants`: one fused pass over a
  state against the nine invariants called one by one
  (:func:`~ruleproof.properties.dawn_under.invariants.violations`), on every reachable state
  of small set-ups, on a BFS prefix of the expansion's set-up, and on states broken on
  purpose (field by field, the expansion's part too): the same violations, and the fused
  pass decides the reachable states itself (it is not skipped).
* ``sorted_fps`` (a level's fingerprints sorted through numpy) against ``sorted``.
* one partition's own decision against the owners' general tie-break.
* ``slot_updater`` (the engine's ``_with``, the expansion's part, bat claims) against
  ``dataclasses.replace``. (The expansion's transitions built with it give the successors and
  events main gave: the pinned counts, ``tests/test_gruft.py`` and the trusted-transition
  tests of ``tests/test_fast_paths.py``.)
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import fields, replace
from typing import Any

import pytest

from ruleproof.model.dawn_under.gruft.state import BatClaim, Gruft, GruftPhase
from ruleproof.model.dawn_under.state import RAT, GarlicIn, Phase, Plague, State, Vampire, VampireIn
from ruleproof.properties.dawn_under.explore import DawnUnderExplore
from ruleproof.properties.dawn_under.invariants import FastInvariants, violations
from ruleproof.properties.explore.games import explore_game


def _bfs(name: str, limit: int) -> tuple[DawnUnderExplore, list[State]]:
    """The game and its first ``limit`` distinct states in BFS order (all, if fewer)."""
    game = explore_game(name)
    assert isinstance(game, DawnUnderExplore)
    seen: set[int] = set()
    frontier: list[State] = []
    for r in game.roots():
        if game.fp(r.state) not in seen:
            seen.add(game.fp(r.state))
            frontier.append(r.state)
    out: list[State] = []
    while frontier and len(out) < limit:
        nxt: list[State] = []
        for s in frontier:
            out.append(s)
            if game.is_terminal(s):
                continue
            for t in game.next_states(s):
                f = game.fp(t)
                if f not in seen:
                    seen.add(f)
                    nxt.append(t)
        frontier = nxt
    return game, out[:limit]


def _small(rng: random.Random) -> Any:
    return rng.choice([-1, 0, 1, 2, 3, 7, None])


def _broken(s: State, rng: random.Random) -> Iterator[State]:
    """Variants of ``s`` with one field changed (some still valid, most not)."""
    n = len(s.rows)
    p = rng.randrange(n)
    g = rng.randrange(len(s.lids))

    def at(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
        return (*t[:i], v, *t[i + 1:])

    yield replace(s, lids=at(s.lids, g, _small(rng)))
    yield replace(s, lids=at(s.lids, g, RAT))
    yield replace(s, contents=at(s.contents, g, rng.choice(
        [None, VampireIn(rng.randrange(6)), GarlicIn(rng.randrange(-1, n + 1))])))
    row = s.rows[p]
    yield replace(s, rows=at(s.rows, p, ()))
    yield replace(s, rows=at(s.rows, p, (*row, Vampire(rng.randrange(6), rng.random() < 0.5))))
    if row:
        i = rng.randrange(len(row))
        yield replace(s, rows=at(s.rows, p, at(row, i, Vampire(row[i].colour,
                                                                 not row[i].face_up))))
        yield replace(s, rows=at(s.rows, p, at(row, i, Vampire((row[i].colour + 1) % 6,
                                                                 row[i].face_up))))
    yield replace(s, stakes_held=at(s.stakes_held, p, s.stakes_held[p] + rng.choice([-1, 1, 3])))
    yield replace(s, stakes_path=s.stakes_path + rng.choice([-1, 1]))
    yield replace(s, garlic_hand=at(s.garlic_hand, p, s.garlic_hand[p] + rng.choice([-1, 1])))
    yield replace(s, reserve=(*s.reserve, rng.choice([RAT, 0, 1])))
    yield replace(s, reserve=s.reserve[1:])
    yield replace(s, removed_rats=s.removed_rats + rng.choice([-1, 1]))
    yield replace(s, turn_player=rng.choice([-1, n, (s.turn_player + 1) % n]))
    yield replace(s, phase=rng.choice([*Phase, *GruftPhase]))
    yield replace(s, pending=rng.choice([None, g, -1, len(s.lids)]))
    yield replace(s, in_transit=_small(rng))
    yield replace(s, winner=rng.choice([None, p, -1]))
    yield replace(s, plague=rng.choice([None, Plague(g, p, p, rng.randrange(5), (g,)),
                                        Plague(g, p, p, 1, (), idle=rng.randrange(5))]))
    ext = s.extension
    if isinstance(ext, Gruft):
        for f in fields(Gruft):
            value = getattr(ext, f.name)
            if isinstance(value, tuple) and value:
                j = rng.randrange(len(value))
                new: Any = at(value, j, value[j] + rng.choice([-1, 1]))
            elif f.name == "bat":
                new = rng.choice([None, BatClaim(g, p), BatClaim(g, p, tuple(range(n)))])
            else:
                new = rng.choice([None, -1, 0, g, n])
            yield replace(s, extension=replace(ext, **{f.name: new}))
        yield replace(s, extension=None)
    else:
        yield replace(s, extension=Gruft((2,) * n, (0,) * n))


@pytest.mark.parametrize("name, limit", [("du-2p-1v", 10_000), ("du-3p-1v", 20_000),
                                         ("du-cs-3p-1v", 20_000),
                                         ("gruft-3p-1v-s3", 40_000),
                                         # the Count in the box: a post, a Count grave or a
                                         # run for it is a violation the pass must not clear
                                         ("gruft-3p-1v-s3-red2-lx-b1-c0-r0-g0", 20_000)])
def test_fused_invariants_equal_the_nine_one_by_one(name: str, limit: int) -> None:
    game, states = _bfs(name, limit)
    fast = FastInvariants(game.config, game.totals)
    assert fast.mirrors, ("an invariant of INVARIANTS changed: mirror the change in "
                          "FastInvariants.holds, then update REFERENCE_DIGEST")
    assert len(states) >= min(limit, 7_000)
    # every reachable state: decided by the fused pass itself, and no violation
    assert all(fast.holds(s) for s in states)
    assert all(violations(s, game.totals) == [] for s in states[::7])
    rng = random.Random(len(name))
    compared = flagged = 0
    for s in states[::max(1, len(states) // 400)]:
        for b in _broken(s, rng):
            try:
                want = violations(b, game.totals)
            except (IndexError, AssertionError, TypeError):
                continue  # a state the reference cannot read: nothing to compare
            assert fast.violations(b) == want, (b, want)
            compared += 1
            flagged += bool(want)
    assert compared > 3_000 and flagged > compared // 3


def test_fused_invariants_start_their_memos_afresh_at_the_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The summaries the fused pass keeps per part are bounded: past the limit the memos
    start afresh (checked when a summary is added), and the verdicts stay the same."""
    import ruleproof.properties.dawn_under.invariants as inv

    game, states = _bfs("gruft-3p-1v-s3", 3_000)
    monkeypatch.setattr(inv, "_MEMO_LIMIT", 64)
    fast = FastInvariants(game.config, game.totals)
    peak = 0
    for s in states:
        assert fast.holds(s)
        peak = max(peak, sum(map(len, fast._memos)))
    assert 64 <= peak <= 64 + 4  # filled to the limit, never far past it


def test_sorted_fingerprints_through_numpy_equal_sorted() -> None:
    from ruleproof.properties.explore.search import sorted_fps

    rng = random.Random(3)
    for size in (0, 5, 63, 64, 1000, 20_000):
        fps = [rng.getrandbits(64) for _ in range(size)] + [0, (1 << 64) - 1] * (size > 0)
        assert sorted_fps(fps) == sorted(fps)
    for odd in ([-1] * 100 + [5], [1 << 64] * 70 + [3]):  # not fingerprints: sorted()
        assert sorted_fps(odd) == sorted(odd)


def test_one_partition_decides_as_the_owners_tie_break_does() -> None:
    """A partition given only its own proposals records each fingerprint as the general
    decision (which also takes the smallest (parent, index) among several senders) does."""
    from ruleproof.properties.explore.search import Partition

    game = explore_game("du-2p-1v")
    rng = random.Random(5)
    fps = rng.sample(range(1 << 40), 3000)
    parents = [rng.getrandbits(64) for _ in fps]
    indices = [rng.randrange(6) for _ in fps]
    one, general = Partition(game, 0, 1), Partition(game, 0, 1)
    for p in (one, general):
        for fp in fps[:500]:  # some already seen
            p.seen[fp] = (1, 0, 0)
    got = one.decide(2, [(fps, parents, indices)])
    want = general.decide(2, [(fps, parents, indices), ([], [], [])])
    assert got == [want[0]] and len(got[0]) == 2500 and one.seen == general.seen
    # compact storage: the same accepted fingerprints and parent pointers
    small, big = (Partition(game, 0, 1, keep_graph=False, compact=True) for _ in range(2))
    for p in (small, big):
        p.decide(1, [(fps[:500], parents[:500], indices[:500]), ([], [], [])])
    got = small.decide(2, [(fps, parents, indices)])
    want = big.decide(2, [(fps, parents, indices), ([], [], [])])
    assert got == [want[0]] and len(got[0]) == 2500
    assert small.lookup(fps) == big.lookup(fps) and len(small.lookup(fps)) == 3000
    for p in (small, big):
        assert p.parent_file is not None
        p.parent_file.close()


def test_generated_updaters_equal_dataclasses_replace() -> None:
    """``slot_updater`` (the engine's ``_with``, the expansion's part and bat claims) builds
    what ``dataclasses.replace`` builds, frozen and of the same class."""
    from ruleproof.model.dawn_under.engine import slot_updater, with_changes

    _, states = _bfs("gruft-3p-1v-s3", 3000)
    rng = random.Random(9)
    gruft_with = slot_updater(Gruft)
    bat_with = slot_updater(BatClaim)
    for s in states[::10]:
        assert with_changes(s) == s and with_changes(s) is not s
        changes: dict[str, Any] = {"stakes_path": rng.randrange(5),
                                   "pending": rng.choice([None, 1]),
                   "phase": rng.choice(list(Phase))}
        assert with_changes(s, **changes) == replace(s, **changes)
        ext = s.extension
        assert isinstance(ext, Gruft)
        ch: dict[str, Any] = {"streak": rng.randrange(3), "bat": BatClaim(1, 2),
                              "open_graves": (3,)}
        got = gruft_with(ext, **ch)
        assert type(got) is Gruft and got == replace(ext, **ch)
        with pytest.raises(AttributeError):
            got.streak = 5  # type: ignore[misc]
        bat = BatClaim(rng.randrange(10), rng.randrange(3))
        assert bat_with(bat, believed=(1,)) == replace(bat, believed=(1,))


def test_a_changed_invariant_sends_every_state_the_exact_way(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """When the nine invariants no longer match the digest the fused pass was written
    against, it decides nothing: every state takes the nine one by one (same results)."""
    from ruleproof.properties.dawn_under import invariants

    game, states = _bfs("du-2p-1v", 500)
    monkeypatch.setattr(invariants, "REFERENCE_DIGEST", "0" * 16)
    fast = FastInvariants(game.config, game.totals)
    assert not fast.mirrors
    assert not any(fast.holds(s) for s in states)
    assert [fast.violations(s) for s in states] == [violations(s, game.totals) for s in states]
