"""Set-up: the starting position (own encounter cards in hand, action cards shuffled, figures in
the harbour and at the carriage station) and the chance outcomes of the deal; also the explicit
start positions of scenario files.

Clauses: dracula-en:setup.roles, dracula-en:setup.dracula-kit, dracula-en:setup.van-helsing-kit,
dracula-en:setup.action-cards, dracula-en:setup.figures, dracula-en:setup.barriers-aside,
dracula-en:setup.secret-choice, dracula-en:setup.deal, dracula-en:contents.components.
"""

from __future__ import annotations

from .data import COLOURS, Board, CardSet, Kind, Side, default_board, default_cards
from .rules import DraculaRules, Edge, barrier_violation
from .state import State, Step, _log, _name, _pop, _private, _push, _put, _remove, _with


def initial_state(seed: int, rules: DraculaRules | None = None,
                  cards: CardSet | None = None, board: Board | None = None,
                  found: tuple[str, ...] = ()) -> State:
    """The state before the first shuffle: its agenda deals the action cards, asks for the
    secret choices and deals the board (settled by :func:`.engine.new_game`, which then waits
    for Dracula's secret choice of six encounter cards, dracula-en:setup.secret-choice).
    Clauses: dracula-en:setup.roles,
    dracula-en:setup.dracula-kit, dracula-en:setup.van-helsing-kit, dracula-en:setup.action-cards,
    dracula-en:setup.figures, dracula-en:setup.barriers-aside, dracula-en:contents.components,
    dracula-en:setup.first-game-hint (advice only; not enforced), dracula-en:end.no-targets-placed
    (any six cards may be chosen).

    ``found``: target cards already found before the start -- a reduced set-up of exhaustive
    exploration that begins as if earlier turns had found them (each goes to the pile of the
    side that hunts it, dracula-en:target.capture: a victim to Dracula, a coffin to Van
    Helsing; fewer than five a side, dracula-en:target.all-five). Empty in the real game.

    Raises:
        ValueError: a ``found`` card that is not a target of ``cards``, named twice, or five
            or more of one side's targets.
    """
    rules = rules or DraculaRules()
    cards = cards or default_cards()
    board = board or default_board()
    won = _found_piles(cards, found)
    first = 0 if rules.first_player == "dracula" else 1
    agenda: list[Step] = []
    for side in (0, 1):
        agenda += [Step("draw-action", side)] * 5 + [Step("set-aside", side)]
    # dracula-en:setup.secret-choice: six each for the 12 locations; half the locations of a
    # reduced board (ruleproof explore, spec/reduced/)
    chosen = board.size // 2
    agenda += [Step("choose", 0, chosen), Step("choose", 1, chosen)]
    agenda += [Step("deal", 0, loc) for loc in range(board.size)]
    agenda += [Step("start-turn", first)]
    hands = (tuple(sorted(c for c in cards.encounter_of(Side.DRACULA) if c not in found)),
             tuple(sorted(c for c in cards.encounter_of(Side.VAN_HELSING) if c not in found)))
    acts = (tuple(sorted(cards.action_of(Side.DRACULA))),
            tuple(sorted(cards.action_of(Side.VAN_HELSING))))
    empty_known: tuple[str | None, ...] = (None,) * board.size
    s = State(rules=rules, cards=cards, board=board, seed=seed, step=0, agenda=tuple(agenda),
              board_cards=(None,) * board.size, pos=(board.harbour, board.carriage_station),
              hand=hands, pool=(), enc_discard=((), ()), captured=won,
              life=(board.life_markers, board.life_markers), current=((), ()), aside=((), ()),
              adiscard=acts, barriers=(None,) * len(COLOURS), known=(empty_known, empty_known))
    s = _log(s, f"New game (seed {seed}): Dracula at {board.label(board.harbour)}, Van Helsing "
                f"at {board.label(board.carriage_station)}, {board.life_markers} life markers each"
                + (f"; found before the start: {', '.join(found)}" if found else ""))
    return s


def _found_piles(cards: CardSet, found: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The won-target piles (Dracula's, Van Helsing's) of :func:`initial_state`'s ``found``.

    Raises:
        ValueError: as :func:`initial_state`.
    """
    piles: tuple[list[str], list[str]] = ([], [])
    if len(set(found)) != len(found):
        raise ValueError(f"a card is found twice before the start: {', '.join(found)}")
    for c in found:
        try:
            card = cards.enc(c)
        except KeyError:
            raise ValueError(f"{c} is not an encounter card of this set-up") from None
        if card.kind is not Kind.TARGET:
            raise ValueError(f"{c} is not a target card: only targets are found")
        piles[1 - int(card.owner)].append(c)
    for side, pile in enumerate(piles):
        if len(pile) >= 5:
            raise ValueError(f"{_name(side)} cannot have found five targets before the start "
                             "(the game would be over, dracula-en:target.all-five)")
    return tuple(sorted(piles[0])), tuple(sorted(piles[1]))


def _choose(s: State, head: Step, card: str) -> State:
    """One of the six cards chosen secretly for the board (dracula-en:setup.secret-choice)."""
    side = head.player
    s = _with(s, hand=_remove(s.hand, side, card), pool=tuple(sorted((*s.pool, card))))
    s = _private(s, side, f"{_name(side)} secretly chooses {card} for the board",
                 f"{_name(side)} chooses a card")
    return _push(s, Step("choose", side, head.n - 1)) if head.n > 1 else _pop(s)


def _deal(s: State, loc: int, item: str) -> State:
    """Chance: the chosen card ``item`` goes face down to ``loc`` (dracula-en:setup.deal)."""
    pool = list(s.pool)
    pool.remove(item)
    s = _with(s, pool=tuple(pool), board_cards=_put(s, loc, item))
    s = _log(s, f"{item} is dealt face down to {s.board.label(loc)}",
             f"a card is dealt face down to {s.board.label(loc)}",
             f"a card is dealt face down to {s.board.label(loc)}")
    return _pop(s)


def scenario_state(rules: DraculaRules, cards: CardSet, board: Board, *,
                 board_cards: tuple[str | None, ...], to_move: int,
                 pos: tuple[int, int] | None = None, life: tuple[int, int] | None = None,
                 captured: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
                 enc_discard: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
                 current: tuple[tuple[str, ...], tuple[str, ...]] | None = None,
                 barriers: tuple[Edge | None, ...] | None = None, breath: bool = False,
                 whisper: bool = False, vigilance: bool = False, turned: int | None = None,
                 seed: int = 0) -> State:
    """A position given explicitly (for scenarios), at the start of ``to_move``'s turn
    (settled by :func:`.engine.custom_start`).

    Hands are the owner's cards that are neither on the board, nor won by the opponent, nor on
    the discard pile; non-current action cards are set aside. ``breath``/``whisper`` make those
    effects act in this first turn. Raises ValueError on an inconsistent position.
    """
    used: list[str] = [c for c in board_cards if c is not None]
    used += [*captured[0], *captured[1], *enc_discard[0], *enc_discard[1]]
    if len(used) != len(set(used)):
        raise ValueError("an encounter card appears twice in the position")
    for c in used:
        cards.enc(c)
    hands = tuple(tuple(sorted(c for c in cards.encounter_of(side) if c not in used))
                  for side in (Side.DRACULA, Side.VAN_HELSING))
    if current is None:
        current = (cards.action_of(Side.DRACULA)[:5], cards.action_of(Side.VAN_HELSING)[:5])
    for side in (0, 1):
        for c in current[side]:
            if int(cards.act(c).owner) != side:
                raise ValueError(f"action card {c} does not belong to {_name(side)}")
    aside = tuple(tuple(sorted(c for c in cards.action_of(Side(side)) if c not in current[side]))
                  for side in (0, 1))
    barrier_list = barriers if barriers is not None else (None,) * len(COLOURS)
    placed = [e for e in barrier_list if e is not None]
    if barrier_violation(board, placed, rules.barrier_adjacency) is not None:
        raise ValueError("the barriers of the position break the barrier rules")
    empty_known: tuple[str | None, ...] = (None,) * board.size
    s = State(rules=rules, cards=cards, board=board, seed=seed, step=0,
              agenda=(Step("start-turn", to_move),), board_cards=tuple(board_cards),
              pos=pos or (board.harbour, board.carriage_station),
              hand=(hands[0], hands[1]), pool=(), enc_discard=enc_discard, captured=captured,
              life=life or (board.life_markers, board.life_markers),
              current=(tuple(sorted(current[0])), tuple(sorted(current[1]))),
              aside=(aside[0], aside[1]), adiscard=((), ()), barriers=tuple(barrier_list),
              known=(empty_known, empty_known), breath_turn=1 if breath else -1,
              whisper_turn=1 if whisper else -1, vigilance=vigilance, turned=turned)
    return _log(s, "Scenario start position")
