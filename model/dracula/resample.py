"""What a seat's own knowledge rules out when its information state is resampled: the pins that
spare :func:`ruleproof.model.hidden.resample_walk` the dead ends of full Dracula.

The walk replays the history in order and learns only at a later node that an early hidden
choice was wrong: a card dealt face down (dracula-en:setup.deal) that the seat sees much later
as another card (dracula-en:look.opponent-card, dracula-en:look.own-card), an action card drawn
(dracula-en:setup.action-cards, dracula-en:cards.cycle) that the opponent never played when it
had to be in hand. :func:`pins` reads, from the states along the true history, only what the
seat knows (its own ``known`` row and hand, whether a location is empty, the hand and pile
sizes, the cards named publicly: captured, discarded, played) and derives:

- for each card put face down unseen (a deal outcome, the opponent's ``place``): the card the
  seat later sees there before it leaves, or the owner of the card when it leaves into a hand
  or is looked at by Depths of Night (dracula-en:special.depths-of-night) and put back;
- the opponent's cards that must be among its secret choice (dracula-en:setup.secret-choice):
  those pinned to a location of the deal;
- for each of the opponent's draws of action cards, the cards it played from that draw before
  taking up the set-aside ones (they were drawn) and after (they were not).

Each pin keeps every option of every consistent history (it restates a fact the seat knows),
so the walk's distribution is the one it had, but without the dead ends that made late-game
draws give up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ruleproof.model.api import CHANCE, GameState, Node, walk

from .data import Side
from .engine import ChooseCard, Depths, GiveTarget, PlayCard, Recall, TakeBack
from .engine import Place as PlaceCard
from .state import State


@dataclass(frozen=True)
class Pins:
    """The restrictions for one seat's resampling of one history (see the module docstring).

    Attributes:
        put: node index -> ("card", id) or ("owner", side) for a card put face down there.
        choose: the opponent's cards that must be among its secret choice.
        draws: node index -> (drawn, not drawn) action cards of the cycle of that draw.
    """

    put: dict[int, tuple[str, Any]] = field(default_factory=dict)
    choose: frozenset[str] = frozenset()
    draws: dict[int, tuple[frozenset[str], frozenset[str]]] = field(default_factory=dict)


def models_along(state: GameState) -> list[State]:
    """The engine states before each node of ``state``'s history and after the last."""
    current = state.game.from_model(state.base, state.base_moves)
    out = [current.model]
    for n in walk(state.node):
        current = current.apply(n.action_id)
        out.append(current.model)
    return out


def pins(game: Any, nodes: Sequence[Node], models: Sequence[State], player: int) -> Pins:
    """The pins of ``player`` (see the module docstring); ``models[i]`` is the engine state
    before ``nodes[i]``."""
    opp = 1 - player
    out = Pins()
    required: set[str] = set()
    owner = {c.id: int(c.owner) for c in game.cards.encounter}
    for i, node in enumerate(nodes):
        before = models[i]
        head = before.agenda[0] if before.agenda else None
        if head is None:
            continue
        hidden_put = (node.actor == CHANCE and head.kind == "deal") or \
            (node.actor == opp and head.kind in ("place", "depths-place"))
        pin = _put_pin(game, nodes, models, i, head.n, player) if hidden_put else None
        if pin is not None:
            out.put[i] = pin
            if node.actor == CHANCE and pin[0] == "card" and owner[pin[1]] == opp:
                required.add(pin[1])
        if node.actor == CHANCE and head.kind == "draw-action" and head.player == opp \
                and (i == 0 or not _draw_head(models[i - 1], opp) or nodes[i - 1].actor != CHANCE):
            cycle = _draw_cycle(game, nodes, models, i, opp)
            j = i
            while j < len(nodes) and _draw_head(models[j], opp) and nodes[j].actor == CHANCE:
                out.draws[j] = cycle
                j += 1
    return Pins(out.put, frozenset(required), out.draws)


def _draw_head(m: State, side: int) -> bool:
    return bool(m.agenda) and m.agenda[0].kind == "draw-action" and m.agenda[0].player == side


def _put_pin(game: Any, nodes: Sequence[Node], models: Sequence[State], i: int, loc: int,
             player: int) -> tuple[str, Any] | None:
    """What ``player`` learns later of the card put at ``loc`` by node ``i`` (before it
    leaves), or None."""
    for j in range(i + 1, len(nodes) + 1):
        after = models[j]
        card = after.known[player][loc]
        if card is not None:
            return ("card", card)
        if j == len(nodes):
            return None
        nxt = models[j + 1]
        if nxt.board_cards[loc] is None:  # it leaves at node j
            got = set(nxt.hand[player]) - set(after.hand[player])
            if len(got) == 1:
                return ("card", got.pop())
            named = set()
            for side in (0, 1):
                named |= set(nxt.captured[side]) - set(after.captured[side])
                named |= set(nxt.enc_discard[side]) - set(after.enc_discard[side])
            if len(named) == 1:
                return ("card", named.pop())
            for side in (0, 1):
                if len(nxt.hand[side]) > len(after.hand[side]):
                    return ("owner", side)
            return None
        action = game.table.from_id(nodes[j].action_id) if nodes[j].actor == 1 - player \
            else None
        if isinstance(action, Depths) and action.loc == loc:
            return ("owner", player)  # looked at by Dracula and put back: not his
    return None


def _draw_cycle(game: Any, nodes: Sequence[Node], models: Sequence[State], i: int,
                side: int) -> tuple[frozenset[str], frozenset[str]]:
    """(drawn, not drawn): the action cards ``side`` played from the draw starting at node
    ``i`` before taking up its set-aside cards, and those played after, until its next
    draw."""
    drawn: set[str] = set()
    aside: set[str] = set()
    back: set[str] = set()
    phase_aside = False
    j = i
    while j < len(nodes) and _draw_head(models[j], side) and nodes[j].actor == CHANCE:
        j += 1
    for k in range(j, len(nodes)):
        before, after = models[k], models[k + 1]
        if nodes[k].actor == CHANCE and _draw_head(before, side):
            break
        action = game.table.from_id(nodes[k].action_id) if nodes[k].actor == side else None
        if action is not None:
            if isinstance(action, TakeBack):
                if len(after.aside[side]) < len(before.aside[side]):
                    aside.add(action.card)
                back.add(action.card)
            elif isinstance(action, PlayCard) and action.card not in back:
                (aside if phase_aside else drawn).add(action.card)
        if not isinstance(action, TakeBack) and before.aside[side] and \
                not after.aside[side] and len(after.current[side]) > len(before.current[side]):
            phase_aside = True
    return frozenset(drawn), frozenset(aside)


def _hand_events(game: Any, nodes: Sequence[Node], models: Sequence[State], player: int
                 ) -> list[tuple[int, frozenset[str], bool]]:
    """(index into ``models``, cards, exact): the opponent's hand then held ``cards`` (all of
    them and no others when ``exact``), as ``player`` learnt it: hands shown at a meeting or by
    Perception (exact), a target given or drawn by Deception (that card)."""
    opp = 1 - player
    label = f"{Side(opp).label}'s hand:"
    out = []
    for j, node in enumerate(nodes):
        seen = node.seen[player] if isinstance(node.seen, tuple) else ""
        if seen and label in seen:
            out.append((j + 1, frozenset(models[j + 1].hand[opp]), True))
        head = models[j].agenda[0] if models[j].agenda else None
        if node.actor == CHANCE and head is not None and head.kind == "deception-draw":
            item = game.chance_table.from_id(node.action_id).item
            if item in models[j].hand[opp]:
                out.append((j, frozenset({item}), False))
        elif node.actor == opp:
            action = game.table.from_id(node.action_id)
            if isinstance(action, GiveTarget):
                out.append((j, frozenset({action.card}), False))
    return out


def allowed_for(game: Any, state: GameState, player: int) -> Any:
    """The ``allowed`` function of :func:`ruleproof.model.hidden.resample_walk` for
    ``player``'s resampling of ``state``'s history (pins computed once)."""
    nodes = walk(state.node)
    models = models_along(state)
    found = pins(game, nodes, models, player)
    opp = 1 - player
    owner = {c.id: int(c.owner) for c in game.cards.encounter}
    chance_items = [game.chance_table.from_id(i).item for i in range(len(game.chance_table))]
    actions = [game.table.from_id(i) for i in range(len(game.table))]

    def card_of(node: Node, option: int) -> str | None:
        if node.actor == CHANCE:
            return str(chance_items[option])
        a = actions[option]
        return str(a.card) if isinstance(a, (PlaceCard, ChooseCard)) else None

    events = _hand_events(game, nodes, models, player)
    places = [0]
    returns = [0]
    for i, node in enumerate(nodes):
        head = models[i].agenda[0] if models[i].agenda else None
        places.append(places[-1] + (node.actor == opp and head is not None
                                    and head.kind in ("place", "depths-place")))
        grew = len(models[i + 1].hand[opp]) > len(models[i].hand[opp])
        emptied = sum(c is None for c in models[i + 1].board_cards) > \
            sum(c is None for c in models[i].board_cards)
        returns.append(returns[-1] + (grew and emptied))

    # cards that left the opponent's hand in public before each point (a target given, one
    # kept by Deception): neither a choice nor a laid card removed them
    public: list[frozenset[str]] = [frozenset()]
    for j in range(len(nodes)):
        gave = set(models[j + 1].captured[player]) - set(models[j].captured[player])
        gave &= set(models[j].hand[opp])
        public.append(public[-1] | gave)
    # cards taken back into the opponent's hand in public (Recall from its discard pile)
    recalled: list[frozenset[str]] = [frozenset()]
    for node in nodes:
        action = game.table.from_id(node.action_id) if node.actor == opp else None
        got = {action.card} if isinstance(action, Recall) else set()
        recalled.append(recalled[-1] | got)

    returned: dict[int, int] = {}  # deal node -> node where its card went into opp's hand
    for i, node in enumerate(nodes):
        head = models[i].agenda[0] if models[i].agenda else None
        if node.actor != CHANCE or head is None or head.kind != "deal":
            continue
        for j in range(i + 1, len(nodes)):
            if models[j + 1].board_cards[head.n] is None:
                if len(models[j + 1].hand[opp]) > len(models[j].hand[opp]):
                    returned[i] = j
                break

    def by_hand(depth: int, m: State, options: list[tuple[int, float]], k: int,
                node: Node) -> list[tuple[int, float]]:
        """A card leaving the opponent's hand (chosen, laid) at ``depth``: not one it must
        still hold at a later event with no unseen return in between; and, while the cards
        it must no longer hold at an event need every removal left, one of them."""
        hand = set(m.hand[opp])
        banned: set[str] = set()
        only: set[str] | None = None
        for e, held, exact in events:
            if e <= depth:
                continue
            # each unseen return brings back one card: those of ``held`` out of the hand now
            # (not recalled in public) need one each, and laying or choosing one more needs
            # one more
            back = len((held - hand) - recalled[e] - recalled[depth])
            if back + 1 > returns[e] - returns[depth]:
                banned |= held
            if k and exact:  # a chosen card held again came back from its deal location
                dealt_back = sum(1 for j in returned.values() if j < e)
                if len((held & set(m.pool)) - recalled[e]) + 1 > dealt_back:
                    banned |= held
            if exact:
                gone = (hand - held) - {c for c in hand if owner.get(c) != opp} - public[e]
                if len(gone) >= k + places[e] - places[depth]:
                    only = gone if only is None else only & gone
        out = []
        for a, w in options:
            c = card_of(node, a)
            if c in banned or (only is not None and c not in only):
                continue
            out.append((a, w))
        return out

    deal_pins = [(i, pin) for i, pin in sorted(found.put.items()) if nodes[i].actor == CHANCE]

    def deal(depth: int, m: State, options: list[tuple[int, float]]
             ) -> list[tuple[int, float]]:
        """A card dealt to a location: the one pinned there, else neither a card pinned to a
        later location nor the last card of an owner that later locations need."""
        pin = found.put.get(depth)
        if pin is not None and pin[0] == "card":
            return [(a, w) for a, w in options if chance_items[a] == pin[1]]
        # a chosen card the opponent holds again at an event came back by an unseen return
        # of the location it was dealt to (or in public, by Recall): not dealt elsewhere
        back_at = returned.get(depth)
        held_later: set[str] = set()
        for e, held, exact in events:
            if exact and (back_at is None or back_at >= e):
                held_later |= held - recalled[e]
        later = [p for i, p in deal_pins if i > depth]
        taken = {v for k, v in later if k == "card"}
        need = [sum(1 for k, v in later if k == "owner" and v == side) for side in (0, 1)]
        free = [sum(1 for c in m.pool if owner[c] == side and c not in taken)
                for side in (0, 1)]
        out = []
        for a, w in options:
            c = chance_items[a]
            o = owner[c]
            if c in taken or c in held_later or (pin is not None and o != pin[1]) or \
                    free[o] - 1 < need[o]:
                continue
            out.append((a, w))
        return out

    def allowed(depth: int, current: GameState, options: list[tuple[int, float]]
                ) -> list[tuple[int, float]]:
        node = nodes[depth]
        m0: State = current.model
        if node.actor == CHANCE and m0.agenda and m0.agenda[0].kind == "deal":
            return deal(depth, m0, options)
        pin = found.put.get(depth)
        if node.actor == opp and m0.agenda and m0.agenda[0].kind in ("place", "depths-place"):
            options = by_hand(depth, m0, options, 0, node)
        if pin is not None:
            kind, value = pin
            if kind == "card":
                return [(a, w) for a, w in options if card_of(node, a) == value]
            return [(a, w) for a, w in options
                    if (c := card_of(node, a)) is not None and owner.get(c) == value]
        m: State = current.model
        head = m.agenda[0] if m.agenda else None
        if head is None:
            return options
        if node.actor == opp and head.kind == "choose":
            left = found.choose - set(m.pool)
            if len(left) >= head.n:
                options = [(a, w) for a, w in options if card_of(node, a) in left]
            return by_hand(depth, m, options, head.n, node)
        cycle = found.draws.get(depth)
        if cycle is not None:
            drawn, not_drawn = cycle
            k = 0
            while k < len(m.agenda) and m.agenda[k].kind == "draw-action" and \
                    m.agenda[k].player == opp:
                k += 1
            need = drawn - set(m.current[opp])
            kept = [(a, w) for a, w in options if card_of(node, a) not in not_drawn]
            if len(need) >= k:
                kept = [(a, w) for a, w in kept if card_of(node, a) in need]
            return kept
        return options

    return allowed
