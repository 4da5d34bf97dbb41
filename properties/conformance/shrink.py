"""Delta debugging of a divergence: the set-up and the actions shrunk together.

A failing game is a set-up (player count, options, deal, start player) and a list of actions.
:func:`delta_debug` removes chunks of actions (ddmin) and simplifies the set-up, and keeps a
candidate when a fresh game on the engine still shows the same failure (:func:`same_failure`:
same kind and same first clause) with fewer actions.

Removing actions changes whose turn it is and what the remaining actions find, so a candidate is
first *fitted* against the model (:func:`fit`), without the engine: the actions are replayed in
order, an action the model forbids at its new place is dropped (legality is always re-derived
from the model, the specification), and where a game hides part of its deal (its ``shrink``
capability, :class:`HiddenDeal`: e.g. face-down components nobody has seen yet) the deal is
rearranged so that each kept action meets what it met in the original witness: the same clauses
cited, and the next kept action legal. Only components nobody has seen are exchanged, so
everything before the exchange stays as it was, and a rearranged deal is still a deal of the rule
set (same components, checked again by the game's ``start`` when the engine game is played).
Only fitted candidates shorter than the best witness are played on the engine.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from ruleproof.errors import IllegalAction, MalformedInput
from ruleproof.model.api import GameState
from ruleproof.properties.conformance.diff import Divergence
from ruleproof.properties.conformance.engine import failure_category
from ruleproof.properties.conformance.games import PRESET_KEY, START_KEY, GameModel


def same_failure(a: Divergence | None, b: Divergence | None) -> bool:
    """Two divergences count as the same bug: same kind and same first clause (for engine
    failures: the same category of failure)."""
    if a is None or b is None:
        return False
    if a.kind == "engine-failure" == b.kind:
        return failure_category(a.detail) == failure_category(b.detail)
    return a.kind == b.kind and a.clauses[:1] == b.clauses[:1]


@dataclass(frozen=True)
class Intent:
    """One action of a witness and what it met there.

    Attributes:
        action: the action (its string form).
        events: the clause ids the model cited when the action was applied in the witness.
        turn: whose turn it was (the game's ``turn_of``; None for chance).
    """

    action: str
    events: frozenset[str]
    turn: int | None = None


@dataclass(frozen=True)
class Fitted:
    """A candidate game that the model plays through: its set-up (JSON form, as the engine
    receives it) and its actions, every one legal where it stands."""

    players: int
    options: Mapping[str, str]
    setup: Mapping[str, Any]
    actions: tuple[str, ...]


class FailedGame(Protocol):
    """What :func:`delta_debug` needs of a failing game (``differential.Played``)."""

    @property
    def players(self) -> int: ...

    @property
    def seed(self) -> int: ...

    @property
    def setup(self) -> Mapping[str, Any]: ...

    @property
    def options(self) -> Mapping[str, str]: ...

    @property
    def actions(self) -> tuple[tuple[int | None, str], ...]: ...

    @property
    def divergence(self) -> Divergence | None: ...


class HiddenDeal(Protocol):
    """A game's hidden part of the deal that may be rearranged while fitting a candidate: the
    ``shrink`` capability of its plugin record (a game without one is shrunk without
    rearranging its deal). Components are numbered by the game (e.g. by place on the board)."""

    def hidden(self, setup: Mapping[str, Any]) -> frozenset[int]:
        """The components nobody has seen at the start of a game dealt ``setup``."""

    def reveals(self, state: GameState, action: str) -> int | None:
        """The component ``action`` shows for the first time (an index), or None."""

    def exchanges(self, state: GameState, setup: Mapping[str, Any], shown: int,
                  unseen: frozenset[int]) -> Iterator[tuple[GameState, dict[str, Any]]]:
        """(state, set-up) with component ``shown`` exchanged for each other component never
        shown (those in ``unseen``), as the set-up would have dealt them."""

    def alternatives(self, action: str, choices: Sequence[str]) -> list[tuple[str, str, str]]:
        """For an action the model forbids where it now stands: (substitute, old, new) for
        each legal action of the same kind on another component (``old`` renamed ``new``)."""

    def rename(self, action: str, alias: Mapping[str, str]) -> str:
        """``action`` with the components renamed by ``alias``."""

    def lucky(self, game: GameModel, players: int, options: Mapping[str, str],
              setup: Mapping[str, Any], limit: int, end: str) -> Fitted | None:
        """A crafted game of at most ``limit`` actions in which the hidden deal always turns
        out to help the player to move (``end``: a preference among equal choices), or None."""

    def setup_for(self, setup: Mapping[str, Any],
                  intents: Sequence[Intent]) -> dict[str, Any] | None:
        """A deal of the rule set under which ``intents`` can be played (e.g. the cards they
        play in hand from the start), or None if ``setup`` will do."""


SHRINK = "shrink"
"""The capability name a game's plugin record gives its :class:`HiddenDeal` under."""


def hidden_deal(game: GameModel) -> HiddenDeal | None:
    """The hidden deal of ``game`` (its ``shrink`` capability), or None."""
    found: HiddenDeal | None = game.plugin.capability(SHRINK)
    return found


def _turn_of(game: GameModel, state: GameState) -> int | None:
    """Whose turn it is (the game's :meth:`~ruleproof.properties.conformance.games.
    ConformanceGame.turn_of`); None for chance."""
    return game.turn_of(state)


def intents_of(game: GameModel, played: FailedGame) -> list[Intent]:
    """The actions of a witness with the clauses the model cited for each (model only).

    Raises:
        MalformedInput: the witness's set-up is not one of the rule set (never for a witness
            the harness played).
    """
    state = game.start(played.players, played.options, None, played.setup)
    out = []
    for _, action in played.actions:
        turn = _turn_of(game, state)
        try:
            stepped = game.apply(state, action)
        except IllegalAction:  # the last action of an accepted-illegal divergence
            out.append(Intent(action, frozenset(), turn))
            break
        out.append(Intent(action, frozenset(stepped.clauses), turn))
        state = stepped.state
    return out


def fit(game: GameModel, players: int, options: Mapping[str, str], setup: Mapping[str, Any],
        intents: Sequence[Intent], limit: int, until: float | None = None) -> Fitted | None:
    """Replay ``intents`` on the model from ``setup``, at most ``limit`` actions, dropping the
    ones the model forbids where they now stand and, for games with a hidden deal
    (:func:`hidden_deal`), rearranging unseen components so that each kept action cites the
    clauses it cited in the witness and the next intent stays legal (the first exchange that
    does both, else one that does either, else none).

    The last intent is kept even if the model forbids it (an ``accepted-illegal`` witness ends
    with the action the engine wrongly accepted). None if the set-up is not one of the rule set.
    """
    try:
        state = game.start(players, options, None, setup)
    except MalformedInput:
        return None
    deal = dict(setup)
    hidden = hidden_deal(game)
    unseen: frozenset[int] = hidden.hidden(deal) if hidden is not None else frozenset()
    actions: list[str] = []
    alias: dict[str, str] = {}
    for k, original in enumerate(intents):
        if len(actions) >= limit or (until is not None and time.monotonic() > until):
            break
        choices = game.choosable(state) if game.legal(state) else []
        intent = original
        if hidden is not None:
            intent = replace(original, action=hidden.rename(original.action, alias))
            if intent.action not in choices:
                # the same kind of action on another component, if one meets what the
                # original met (the same clauses), renamed from here on
                for substitute, old, new in hidden.alternatives(intent.action, choices):
                    trial = game.apply(state, substitute)
                    if frozenset(trial.clauses) == intent.events:
                        intent = replace(intent, action=substitute)
                        alias[old] = new
                        break
        if intent.action not in choices:
            if k == len(intents) - 1 and not intent.events and choices:
                actions.append(intent.action)  # the illegal action a witness ends with
            continue
        following = next((i.action for i in intents[k + 1:]), None)
        if following is not None and hidden is not None:
            following = hidden.rename(following, alias)

        def score(stepped_state: Any, clauses: Sequence[str], want: Intent = intent,
                  nxt: str | None = following) -> int:
            good = 2 if frozenset(clauses) == want.events else 0
            if nxt is None or (game.legal(stepped_state) and nxt in game.choosable(stepped_state)):
                good += 1
            return good

        stepped = game.apply(state, intent.action)
        dealt_before = deal
        shown = hidden.reveals(state, intent.action) if hidden is not None else None
        if hidden is not None and shown is not None and shown in unseen:
            best = score(stepped.state, stepped.clauses)
            if best < 3:
                for other_state, other_deal in hidden.exchanges(state, deal, shown, unseen):
                    try:
                        trial = game.apply(other_state, intent.action)
                    except IllegalAction:
                        continue
                    got = score(trial.state, trial.clauses)
                    if got > best:
                        best, stepped, deal = got, trial, other_deal
                        if got == 3:
                            break
        if following is not None and following in choices and following != intent.action and \
                score(stepped.state, stepped.clauses) % 2 == 0:
            deal = dealt_before  # a dead end here, and the next intent fits as things stand:
            continue  # drop this one (and any exchange made for it)
        if shown is not None:
            unseen = unseen - {shown}
        actions.append(intent.action)
        state = stepped.state
    return Fitted(players, dict(options), deal, tuple(actions))


def _turns(intents: Sequence[Intent]) -> list[tuple[int, int]]:
    """(first, end) index ranges of the turns of ``intents`` (maximal runs of one turn)."""
    out: list[tuple[int, int]] = []
    for i, intent in enumerate(intents):
        if out and intents[out[-1][0]].turn == intent.turn:
            out[-1] = (out[-1][0], i + 1)
        else:
            out.append((i, i + 1))
    return out


def _removals(intents: Sequence[Intent], players: int) -> Iterator[list[Intent]]:
    """Candidates with fewer actions, the most promising first: the beginning of the game up
    to a turn dropped (the shortest rest first: a divergence happens at the end), one player's
    two turns merged (the rest of the round between them removed), whole rounds removed (as
    many turns as players, so every later action keeps its player), then pairs of actions inside a
    turn (an opening and what followed it), then the chunks of plain ddmin."""
    turns = _turns(intents)
    if len(turns) < 2:
        return
    for keep in (0, 1):  # the game's beginning dropped (the first turn, which holds a set-up
        # made of actions such as Dracula's choices and deal, kept or not), shortest rest first
        start = turns[keep - 1][1] if keep else 0
        for first, _ in reversed(turns[keep + 1:]):
            yield [*intents[:start], *intents[first:]]
    for t in range(len(turns) - players):  # one player's two turns made one: the rest of the
        end = turns[t + players - 1][1]  # round and the action that ended the turn removed
        for cut in (2, 1):
            first = turns[t][1] - cut
            if first > turns[t][0]:
                yield [*intents[:first], *intents[end:]]
    rounds = len(turns) // max(1, players)
    size = rounds // 2
    while size >= 1:
        span = size * players
        for t in range(0, len(turns) - span):
            first, end = turns[t][0], turns[t + span - 1][1]
            if end < len(intents):
                yield [*intents[:first], *intents[end:]]
        size //= 2
    for first, end in reversed(turns):
        for i in range(first, end - 2):
            yield [*intents[:i], *intents[i + 2:]]


def imitate(game: GameModel, players: int, options: Mapping[str, str],
            setup: Mapping[str, Any], wanted: Sequence[Intent], limit: int,
            after: int = 8) -> Fitted | None:
    """A game that does what ``wanted`` did as soon as the model allows it: at every point the
    first legal action still wanted (each wanted action used once) is taken, else the game's
    first choice (its most telling action); it ends ``after`` actions after the last wanted one
    was used (``4 * after`` while some are still wanted), or at ``limit`` actions. None if
    ``setup`` is not a deal of the rule set."""
    try:
        state = game.start(players, options, None, setup)
    except MalformedInput:
        return None
    bag: dict[tuple[int | None, str], int] = {}
    for intent in wanted:
        key = (intent.turn, intent.action)
        bag[key] = bag.get(key, 0) + 1
    left = sum(bag.values())
    actions: list[str] = []
    since = 0
    while len(actions) < limit and game.legal(state) and since < (4 * after if left else after):
        choices = game.choosable(state)
        if not choices:
            break
        turn = _turn_of(game, state)
        action = next((c for c in choices if bag.get((turn, c), 0) > 0), choices[0])
        if bag.get((turn, action), 0) > 0:
            bag[(turn, action)] -= 1
            left -= 1
            since = 0
        else:
            since += 1
        state = game.apply(state, action).state
        actions.append(action)
    return Fitted(players, dict(options), dict(setup), tuple(actions))


def _within_turn(game: GameModel, state: GameState, turn: int | None, goal: Intent,
                 need: frozenset[str], nodes: int,
                 until: float | None = None) -> tuple[list[str] | None, list[str] | None]:
    """Breadth-first search of the model inside the turn of ``turn`` from ``state``, at most
    ``nodes`` actions applied, given up at ``until`` (``time.monotonic()``). Returns (the
    shortest actions ending with ``goal.action`` where it cites ``goal.events`` that cite, all
    together, every clause of ``need`` -- else those citing the most of them --, or None; the
    shortest actions that end the turn, or None)."""
    frontier: list[tuple[GameState, list[str], frozenset[str]]] = [(state, [], frozenset())]
    ended: list[str] | None = None
    best: tuple[int, list[str]] | None = None
    applied = 0
    while frontier and applied < nodes:
        following: list[tuple[GameState, list[str], frozenset[str]]] = []
        for here, path, cited in frontier:
            if not game.legal(here):
                continue
            for action in game.choosable(here):
                if applied >= nodes or (until is not None and time.monotonic() > until):
                    applied = nodes  # spent: no further level either
                    break
                applied += 1
                try:
                    stepped = game.apply(here, action)
                except IllegalAction:
                    continue
                steps = [*path, action]
                now = cited | frozenset(stepped.clauses)
                if action == goal.action and frozenset(stepped.clauses) == goal.events:
                    met = len(need & now)
                    if met == len(need):
                        return steps, ended
                    if best is None or met > best[0]:
                        best = (met, steps)
                after = _turn_of(game, stepped.state)
                if (after != turn and after is not None) or not game.legal(stepped.state):
                    if ended is None:
                        ended = steps
                    continue
                following.append((stepped.state, steps, now))
        frontier = following
    return (best[1] if best is not None else None), ended


def reach(game: GameModel, players: int, options: Mapping[str, str], setup: Mapping[str, Any],
          head: Sequence[Intent], last: Sequence[Intent], limit: int,
          nodes: int = 1500, until: float | None = None) -> Fitted | None:
    """The shortest way the model finds to the witness's last action: ``head`` (the witness's
    first turn, e.g. a set-up made of actions) replayed, then every turn of another player
    ended by its shortest sequence of actions, and in each turn of the player of ``last``
    (the witness's last turn) a breadth-first search (at most ``nodes`` actions per turn) for
    the witness's last action citing what it cited in the witness, after actions that cite
    what the last turn cited (e.g. a look at an opponent's card, then the fight with a special
    action, in the player's first turn instead of the tenth). At most ``limit`` actions; None
    if ``last`` is empty, the set-up is not a deal of the rule set, or nothing is found within
    ``limit``."""
    if not last:
        return None
    goal = last[-1]
    need = frozenset().union(*(i.events for i in last))
    try:
        state = game.start(players, options, None, setup)
    except MalformedInput:
        return None
    actions: list[str] = []
    for intent in head:
        if not game.legal(state) or intent.action not in game.choosable(state):
            continue
        state = game.apply(state, intent.action).state
        actions.append(intent.action)
    while len(actions) < limit and game.legal(state):
        if until is not None and time.monotonic() > until:
            return None
        turn = _turn_of(game, state)
        found, ended = _within_turn(game, state, turn, goal, need,
                                    nodes if turn == goal.turn else nodes // 4, until)
        if found is not None and turn == goal.turn:
            actions += found
            break
        if ended is None:
            return None
        for action in ended:
            state = game.apply(state, action).state
        actions += ended
    if len(actions) > limit or not actions or actions[-1] != goal.action:
        return None
    return Fitted(players, dict(options), dict(setup), tuple(actions))


def _start_of(setup: Mapping[str, Any]) -> int | None:
    value = setup.get(START_KEY)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


Run = Callable[[Fitted, int], Any]
"""Plays a fitted candidate on the engine (with its seed for the record); returns the played
game (a :class:`FailedGame` with ``complete``) or None (budget spent, set-up refused)."""


def delta_debug(game: GameModel, found: FailedGame, run: Run, until: float,
                rounds: int = 8,
                space: Mapping[str | None, Sequence[int]] | None = None) -> Any:
    """Shrink the failing game ``found`` until ``until`` (a ``time.monotonic()`` value).

    Alternates ddmin over the actions (chunks halving from half the witness to single actions)
    and set-up moves (start player 0 or another, fewer options, other player counts, the deal of
    seed 0; with ``space``, preset -> player counts the search may move to, other presets and
    their player counts too), every candidate fitted on the model first (:func:`fit`) and played on the engine
    by ``run`` only if it is shorter. A candidate is kept when the engine shows the same failure
    (:func:`same_failure`) with fewer actions, or as many actions and a simpler set-up.

    Returns:
        the shortest failing game found (``found`` itself if nothing shorter was).
    """
    target = found.divergence
    hidden = hidden_deal(game)
    best: Any = found
    tried: set[tuple[Any, ...]] = set()

    def key(p: FailedGame) -> tuple[int, int, int, int]:
        return (len(p.actions), len(p.options), _start_of(p.setup) or 0, p.seed)

    def attempt(candidate: Fitted | None, seed: int, strictly_shorter: bool = True) -> bool:
        nonlocal best
        if candidate is None or time.monotonic() > until:
            return False
        length = len(best.actions)
        if len(candidate.actions) > length or (
                strictly_shorter and len(candidate.actions) >= length):
            return False
        signature = (candidate.players, tuple(sorted(candidate.options.items())),
                     repr(sorted(candidate.setup.items())), candidate.actions)
        if signature in tried:
            return False
        tried.add(signature)
        got = run(candidate, seed)
        if got is None or not getattr(got, "complete", True):
            return False
        if not same_failure(got.divergence, target):
            return False
        if key(got) < key(best):
            best = got
            return True
        return False

    def shrink_turns() -> bool:
        changed = True
        improved = False
        while changed and time.monotonic() < until:
            changed = False
            intents = intents_of(game, best)
            for candidate in _removals(intents, best.players):
                if time.monotonic() > until:
                    break
                fitted = fit(game, best.players, best.options, best.setup, candidate,
                             len(best.actions) - 1, until)
                if attempt(fitted, best.seed):
                    changed = improved = True
                    break
                crafted = hidden.setup_for(best.setup, candidate) if hidden else None
                if crafted is not None:
                    fitted = fit(game, best.players, best.options, crafted, candidate,
                                 len(best.actions) - 1, until)
                    if attempt(fitted, best.seed):
                        changed = improved = True
                        break
        return improved

    def shrink_actions() -> bool:
        improved = False
        intents = intents_of(game, best)
        chunk = max(1, len(intents) // 2)
        while chunk >= 1 and time.monotonic() < until:
            i = 0
            changed = False
            while i < len(intents) - 1 and time.monotonic() < until:
                candidate = intents[:i] + intents[i + chunk:]
                fitted = fit(game, best.players, best.options, best.setup, candidate,
                             len(best.actions) - 1, until)
                if attempt(fitted, best.seed):
                    intents = intents_of(game, best)
                    changed = improved = True
                else:
                    i += chunk
            if not changed:
                chunk //= 2
        return improved

    def shrink_setup() -> bool:
        improved = False
        intents = intents_of(game, best)
        moves: list[tuple[int, Mapping[str, str], int, dict[str, Any]]] = []
        start = _start_of(best.setup)
        if start is not None:
            for s in range(best.players):
                if s != start:
                    moves.append((best.players, best.options, best.seed,
                                  game.with_start_player(best.setup, s)))
        for name in [k for k in best.options if k != PRESET_KEY]:
            fewer = {k: v for k, v in best.options.items() if k != name}
            moves.append((best.players, fewer, best.seed, dict(best.setup)))
        try:
            counts = game.player_counts(best.options)
        except MalformedInput:
            counts = ()
        current = best.options.get(PRESET_KEY)
        others: list[tuple[dict[str, str], int]] = [(dict(best.options), n) for n in counts]
        for preset, allowed in (space or {}).items():
            if preset is not None and preset != current:
                opts = {**best.options, PRESET_KEY: preset}
                others += [(opts, n) for n in allowed]
        for opts, n in sorted(others, key=lambda o: -o[1]):  # more players: shorter rows
            if n == best.players and opts == best.options:
                continue
            for seed in dict.fromkeys((best.seed, 0)):
                try:
                    dealt = game.setup_of(n, opts, seed)
                except MalformedInput:
                    continue
                if start is not None:
                    dealt = game.with_start_player(dealt, min(start, n - 1))
                moves.append((n, opts, seed, dealt))
        if best.seed:
            try:
                zero: dict[str, Any] | None = game.setup_of(best.players, best.options, 0)
            except MalformedInput:
                zero = None
            if zero is not None:
                if start is not None:
                    zero = game.with_start_player(zero, start)
                moves.append((best.players, best.options, 0, zero))
        for players, options, seed, setup in moves:
            if time.monotonic() > until:
                break
            fitted = fit(game, players, options, setup, intents, len(best.actions), until)
            if attempt(fitted, seed, strictly_shorter=False):
                intents = intents_of(game, best)
                improved = True
                continue
            if players == best.players:
                continue
            # the end of the witness alone under the other player count (shorter rows may
            # need fewer actions before it), shortest first
            for first, _ in reversed(_turns(intents)[-16:]):
                if time.monotonic() > until:
                    break
                fitted = fit(game, players, options, setup, intents[first:],
                             len(best.actions) - 1, until)
                if attempt(fitted, seed):
                    intents = intents_of(game, best)
                    improved = True
                    break
        return improved

    def lucky_games() -> bool:
        """Crafted deals in which every opening helps (:meth:`HiddenDeal.lucky`), under every
        player count allowed (more players first: shorter rows), as candidates."""
        if hidden is None:
            return False
        improved = False
        choices: list[tuple[dict[str, str], int]] = []
        for preset, allowed in (space or {best.options.get(PRESET_KEY): (best.players,)}).items():
            opts = dict(best.options)
            if preset is not None:
                opts[PRESET_KEY] = preset
            choices += [(opts, n) for n in allowed]
        if (dict(best.options), best.players) not in choices:
            choices.append((dict(best.options), best.players))
        for opts, n in sorted(choices, key=lambda o: -o[1]):
            for seed in dict.fromkeys((best.seed, 0)):
                for end in ("left", "right"):
                    if time.monotonic() > until:
                        return improved
                    try:
                        dealt = game.setup_of(n, opts, seed)
                    except MalformedInput:
                        continue
                    crafted = hidden.lucky(game, n, opts, dealt, len(best.actions) - 1, end)
                    if attempt(crafted, seed):
                        improved = True
        return improved

    def imitations() -> bool:
        """Games that play the first turn and the last few turns of the witness (and, in a
        second variant, the earlier actions on the graves, cards or locations those turns name)
        as early as the model allows (:func:`imitate`), under the witness's deal and one that
        deals what they need (:meth:`HiddenDeal.setup_for`)."""
        improved = False
        intents = intents_of(game, best)
        turns = _turns(intents)
        head = intents[:turns[0][1]] if len(turns) > 1 else []
        for k, with_related in [(k, r) for r in (False, True) for k in (1, 2, 3, 4, 6, 8)]:
            if k >= len(turns) or time.monotonic() > until:
                continue
            start = turns[-k][0]
            tail = intents[start:]
            # the earlier actions on what the tail acts on (the same grave, card, location)
            named = {w for i in tail for w in i.action.split()[1:]}
            related = [i for i in intents[len(head):start] if named & set(i.action.split()[1:])]
            deals = [best.setup]
            crafted = hidden.setup_for(best.setup, tail) if hidden else None
            if crafted is not None:
                deals.insert(0, crafted)
            for deal in deals:
                for wanted in ([*head, *related, *tail],) if with_related else ([*head, *tail],):
                    if time.monotonic() > until:
                        return improved
                    if attempt(imitate(game, best.players, best.options, deal, wanted,
                                       len(best.actions) - 1), best.seed):
                        improved = True
                        intents = intents_of(game, best)
        return improved

    def reached() -> bool:
        """The witness's first turn, then the shortest way to its last action
        (:func:`reach`), under the witness's deal and one that deals what it needs."""
        intents = intents_of(game, best)
        turns = _turns(intents)
        if len(turns) < 2 or not intents[-1].events:
            return False
        head, last = intents[:turns[0][1]], intents[turns[-1][0]:]
        deals = [best.setup]
        crafted = hidden.setup_for(best.setup, [*head, *last]) if hidden else None
        if crafted is not None:
            deals.insert(0, crafted)
        improved = False
        for deal in deals:
            if time.monotonic() > until:
                break
            if attempt(reach(game, best.players, best.options, deal, head, last,
                             len(best.actions) - 1, until=until), best.seed):
                improved = True
        return improved

    lucky_games()
    reached()
    imitations()
    for _ in range(rounds):
        if time.monotonic() > until:
            break
        # short ends of a long witness first (cheap to play); a short one: its set-up first
        b = shrink_setup() if len(best.actions) <= 40 else False
        a = shrink_turns()
        b = shrink_setup() or b
        a = shrink_actions() or a
        if not (a or b):
            break
    return best


__all__ = ["SHRINK", "Fitted", "HiddenDeal", "Intent", "delta_debug", "fit", "hidden_deal",
           "intents_of", "reach", "same_failure"]
