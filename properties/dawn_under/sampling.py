"""Sampled properties of Dawn Under: hidden information, illegal actions, determinism."""

from __future__ import annotations

import random
from dataclasses import replace

from ruleproof.errors import IllegalAction
from ruleproof.model.dawn_under.config import make_config
from ruleproof.model.dawn_under.engine import deal, initial_state, legal_actions, step
from ruleproof.model.dawn_under.gruft import Believe, CountTo, Doubt, GiftTo, PlayBat, part
from ruleproof.model.dawn_under.observe import observation
from ruleproof.model.dawn_under.render import play_random
from ruleproof.model.dawn_under.state import (
    Action,
    End,
    GiveVampire,
    LeaveEmpty,
    OpenGrave,
    Options,
    Phase,
    PlaceGarlic,
    PlaceVampire,
    ReceiveVampire,
    State,
    Stop,
    Vampire,
)
from ruleproof.spec import all_clause_ids


def resample_hidden(state: State, rng: random.Random) -> State:
    """A state with the same observations for every player and reshuffled hidden parts.

    Hidden are: lids never shown (or replaced since), the reserve stack order and content, and
    face-down vampires (du-en:prep.reserve, du-en:prep.mix-rats, du-en:prep.row). The multiset of
    hidden values is kept, so the result is consistent with everything observed.
    """
    unknown = [g for g, lid in enumerate(state.lids) if lid is not None and not state.known[g]]
    pool = [state.lids[g] for g in unknown] + list(state.reserve)
    rng.shuffle(pool)
    lids = list(state.lids)
    for g, value in zip(unknown, pool, strict=False):
        lids[g] = value
    reserve = tuple(v for v in pool[len(unknown):] if v is not None)
    down = [(p, i) for p, row in enumerate(state.rows) for i, v in enumerate(row) if not v.face_up]
    colours = [state.rows[p][i].colour for p, i in down]
    rng.shuffle(colours)
    rows = [list(row) for row in state.rows]
    for (p, i), colour in zip(down, colours, strict=True):
        rows[p][i] = Vampire(colour, False)
    return replace(state, lids=tuple(lids), reserve=reserve,
                   rows=tuple(tuple(r) for r in rows))


def check_hidden_information(players: int, games: int, max_steps: int, samples: int,
                             options: Options | None = None,
                             preset: str = "du-en") -> tuple[bool, int, str]:
    """The legal actions of the player to move depend only on their observation.

    Plays ``games`` random games; at every step resamples the hidden parts ``samples`` times
    consistently with all observations and compares legal actions.
    """
    config = make_config(players, options, preset=preset)
    checked = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = initial_state(config, deal(config, rng))
        for number in range(max_steps):
            if state.phase is Phase.OVER:
                break
            legal = legal_actions(state)
            for _ in range(samples):
                other = resample_hidden(state, rng)
                for p in range(players):
                    if observation(other, p) != observation(state, p):
                        return False, checked, (f"seed {seed} step {number}: resampling changed "
                                                f"player {p}'s observation (resampler bug)")
                if legal_actions(other) != legal:
                    return False, checked, (
                        f"seed {seed} step {number}: legal actions depend on hidden information:"
                        f" {[str(a) for a in legal]} vs {[str(a) for a in legal_actions(other)]}")
                checked += 1
            state = step(state, legal[rng.randrange(len(legal))])[0]
    return True, checked, f"{checked} resampled states, legal actions unchanged"


def candidate_actions(state: State, rng: random.Random) -> list[Action]:
    """A spread of actions of every type, many of them illegal in ``state``."""
    size = state.config.board.size
    g = rng.randrange(-1, size + 1)
    return [OpenGrave(g), OpenGrave(rng.randrange(size)), PlaceVampire(g, End.LEFT),
            PlaceVampire(rng.randrange(size), End.RIGHT), PlaceGarlic(g), LeaveEmpty(g), Stop(),
            GiveVampire(End.LEFT), GiveVampire(End.RIGHT), ReceiveVampire(End.RIGHT),
            *_gruft_candidates(state, g, rng)]


def _gruft_candidates(state: State, g: int, rng: random.Random) -> list[Action]:
    """The expansion's actions (gruft-en:bats.declare, gruft-en:bats.ask,
    gruft-en:count.place, gruft-en:bats.believed-vampire)."""
    gp = part(state)
    if gp is None:
        return []
    size = state.config.board.size
    out: list[Action] = [PlayBat(g), PlayBat(rng.randrange(size)), Believe(), Doubt(),
                         CountTo(g), CountTo(rng.randrange(size)),
                         GiftTo(rng.randrange(state.config.players))]
    if gp.count_grave is not None:
        out += [OpenGrave(gp.count_grave), PlayBat(gp.count_grave)]
    return out


def check_illegal_actions(players: int, games: int, max_steps: int,
                          options: Options | None = None,
                          preset: str = "du-en") -> tuple[bool, int, str]:
    """Every action outside ``legal_actions`` raises IllegalAction naming registered clauses,
    and every legal one is accepted; the state is left intact (du-en:ch1.open and all
    legality clauses)."""
    config = make_config(players, options, preset=preset)
    known = all_clause_ids()
    tried = 0
    for seed in range(games):
        rng = random.Random(10_000 + seed)
        state = initial_state(config, deal(config, rng))
        for number in range(max_steps):
            legal = set(legal_actions(state))
            before = state
            for action in candidate_actions(state, rng):
                if action in legal:
                    continue
                tried += 1
                try:
                    step(state, action)
                except IllegalAction as err:
                    unknown = [c for c in err.clauses if c not in known]
                    if not err.clauses or unknown:
                        return False, tried, f"{action}: error cites unknown clauses {unknown}"
                else:
                    return False, tried, (f"seed {seed} step {number}: illegal action {action} "
                                          "was accepted")
                if state != before:
                    return False, tried, f"{action}: the state changed after a rejected action"
            if state.phase is Phase.OVER:
                break
            options_list = sorted(legal, key=str)
            state = step(state, options_list[rng.randrange(len(options_list))])[0]
    return True, tried, f"{tried} illegal actions rejected with registered clause ids"


def check_determinism(players: int, seeds: int, options: Options | None = None,
                      preset: str = "du-en") -> tuple[bool, int, str]:
    """The same seed gives the same game twice (explicit chance, no hidden randomness)."""
    config = make_config(players, options, preset=preset)
    for seed in range(seeds):
        a = play_random(config, seed, 2_000)
        b = play_random(config, seed, 2_000)
        if a.log != b.log or a.final != b.final:
            return False, seed, f"seed {seed}: two plays differ"
    return True, seeds, f"{seeds} seeds replayed identically"
