"""Dawn Under's transitions build their successor in one draft (issue #30's speed item).

A transition copies its state once into a writable twin (``engine._Draft``), every step of it
writes there (the expansion's part too, in ``gruft.state._GruftDraft``), and the entry point
seals it before returning it. What must hold, checked here on random play over every rule
option (2-6 players, du-en, du-cs, the expansion) and on the engine's lent steps:

* no draft leaves a transition: every successor is a ``State`` whose expansion part is a
  ``Gruft``, both frozen (a write raises);
* the state a transition starts from is never changed (its fields before and after);
* every entry point gives the same successor (``step``, ``step_legal``, ``apply_legal``),
  and the successor equals one rebuilt from its fields by the dataclass's constructor;
* the steps the engine lends (``end_turn``, ``start_turn``, ``win``) work on a sealed state
  too, sealing what they return and leaving their argument as it was;
* the drafts' annotations mirror the frozen classes' fields, in order (the slots are copied
  from them, the annotations are written out for the type checker).
"""

from __future__ import annotations

import random
from dataclasses import FrozenInstanceError, fields, replace
from typing import Any

import pytest

from ruleproof.model.dawn_under import engine as E
from ruleproof.model.dawn_under.config import make_config, option_values, parse_options
from ruleproof.model.dawn_under.gruft.state import Gruft, _GruftDraft
from ruleproof.model.dawn_under.state import Event, EventKind, State


def _fields(state: State) -> tuple[Any, ...]:
    return tuple(getattr(state, f.name) for f in fields(State))


def _games(n: int, seed: int) -> list[State]:
    """``n`` dealt games over random rule options (every option's values drawn)."""
    rng = random.Random(seed)
    known = option_values()
    out: list[State] = []
    while len(out) < n:
        players = rng.choice([2, 3, 4, 5, 6])
        preset = "2p" if players == 2 else rng.choice(["du-en", "du-cs"])
        opts = {k: rng.choice(v) for k, v in known.items() if k != "expansion"}
        if players > 2 and rng.random() < 0.6:
            opts["expansion"] = "gruft"
        try:
            config = make_config(players, parse_options(opts), preset=preset)
        except Exception:  # an option the preset refuses: draw again
            continue
        out.append(E.new_game(config, seed=len(out)))
    return out


def test_no_draft_leaves_a_transition_and_the_start_is_untouched() -> None:
    rng = random.Random(3)
    steps = gruft_steps = 0
    for state in _games(60, 11):
        for _ in range(1500):
            if E.is_terminal(state):
                break
            actions = E.legal_actions(state)
            action = actions[rng.randrange(len(actions))]
            before = _fields(state)
            nxt, events = E.step(state, action)
            assert _fields(state) == before, f"{action} changed the state it started from"
            assert type(nxt) is State
            assert nxt == E.apply_legal(state, action) == E.step_legal(state, action)[0]
            assert E.step_legal(state, action)[1] == events
            assert _fields(state) == before
            assert nxt == State(*_fields(nxt)) and hash(nxt) == hash(State(*_fields(nxt)))
            if nxt.extension is not None:
                assert type(nxt.extension) is Gruft
                with pytest.raises(FrozenInstanceError):
                    nxt.extension.streak = 9  # type: ignore[misc]
                gruft_steps += 1
            with pytest.raises(FrozenInstanceError):
                nxt.phase = nxt.phase  # type: ignore[misc]
            state = nxt
            steps += 1
    assert steps > 20_000 and gruft_steps > 5_000, (steps, gruft_steps)


def test_lent_steps_work_on_sealed_states() -> None:
    """``end_turn``, ``start_turn`` and ``win`` (lent to the expansion and to the mutants)
    seal what they return when given a sealed state, and leave it as it was."""
    checked = 0
    for state in _games(12, 5):
        if E.is_terminal(state):
            continue
        before = _fields(state)
        for got in (E.end_turn(state, [], "du-en:ch1.continue"),
                    E.start_turn(state, (state.turn_player + 1) % state.config.players),
                    E.win(state, 0, [])):
            assert type(got) is State and got is not state
            assert state.extension is None or type(got.extension) is Gruft
            assert _fields(state) == before
            checked += 1
        assert E.start_turn(state, state.turn_player).turn_player == state.turn_player
        assert E.win(state, 0, []).winner == 0
    assert checked >= 30


def test_a_step_of_a_transition_refuses_a_sealed_state() -> None:
    """A step that writes into its draft refuses a sealed state (an assertion, and a frozen
    state refuses the write anyway): a transition's hook cannot hand back a state built
    some other way without it being noticed."""
    state = _games(1, 1)[0]
    with pytest.raises((AssertionError, FrozenInstanceError)):
        E._open_grave(state, E.legal_actions(state)[0], [])  # type: ignore[arg-type]


def test_draft_annotations_mirror_the_frozen_fields() -> None:
    pairs: tuple[tuple[type[Any], type[Any]], ...] = ((State, E._Draft), (Gruft, _GruftDraft))
    for frozen, draft in pairs:
        assert tuple(draft.__annotations__) == tuple(f.name for f in fields(frozen))
        assert draft.__slots__ == frozen.__slots__
        assert draft.sealed_as is frozen


def test_a_hook_may_treat_the_draft_as_a_dataclass() -> None:
    """Inside a transition a hook gets the draft: ``dataclasses.replace`` of it (or of the
    expansion's part) gives another draft, which the transition seals as it seals its own;
    the draft prints (under its own name) and compares as its class does."""
    state = next(s for s in _games(40, 2) if s.extension is not None)
    draft = E._draft(state)
    other = replace(draft, stakes_path=draft.stakes_path + 1)
    assert other.__class__ is E._DRAFT and other.stakes_path == state.stakes_path + 1
    assert draft == E._draft(state) and draft != other
    assert repr(draft) == "_Draft" + repr(state).removeprefix("State")
    assert isinstance(draft.extension, Gruft)
    part = E._draft(state).extension
    writable = E._writable(other)
    part_draft: Any = _GruftDraft(*(getattr(state.extension, f.name) for f in fields(Gruft)))
    writable.extension = replace(part_draft, streak=2)
    sealed = E._seal(other)
    assert type(sealed) is State and type(sealed.extension) is Gruft
    assert sealed.extension.streak == 2 and sealed.stakes_path == state.stakes_path + 1
    assert part is state.extension  # a state's draft shares its (sealed) part


def test_slot_builder_builds_what_the_constructor_builds() -> None:
    build = E.slot_builder(Event)
    for kind in EventKind:
        for args in ((0, None, None, ""), (2, 5, 1, "du-en:ch1.open")):
            got = build(kind, *args)
            want = Event(kind, *args)
            assert type(got) is Event and got == want and hash(got) == hash(want)
            with pytest.raises(FrozenInstanceError):
                got.player = 1  # type: ignore[misc]
