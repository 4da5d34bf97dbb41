"""Dracula's typed actions: one frozen class per kind of decision, each naming the clause that
grants it; ``str(action)`` is the action's notation (see :mod:`.notation`)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .data import Side
from .rules import Edge

_LOC_NAMES = tuple("abcd"[i % 4] + str(i // 4 + 1) for i in range(12))


def loc_name(loc: int) -> str:
    """Name of location ``loc`` on the 3 x 4 board (``a1`` .. ``d3``)."""
    return _LOC_NAMES[loc]


def edge_name(edge: Edge) -> str:
    """Name of a border, ``a1-b1``."""
    return f"{loc_name(edge[0])}-{loc_name(edge[1])}"


@dataclass(frozen=True, slots=True)
class ChooseCard:
    """Secretly put one encounter card among the six for the board (dracula-en:setup.secret-choice)."""

    card: str

    def __str__(self) -> str:
        return f"choose {self.card}"


@dataclass(frozen=True, slots=True)
class Move:
    """Step to a neighbouring location (dracula-en:move.orthogonal)."""

    to: int

    def __str__(self) -> str:
        return f"move {loc_name(self.to)}"


@dataclass(frozen=True, slots=True)
class Look:
    """Look at the encounter card where the figure stands (dracula-en:move.look-choice)."""

    def __str__(self) -> str:
        return "look"


@dataclass(frozen=True, slots=True)
class Stop:
    """Declare the move finished (dracula-en:pay.move-ends)."""

    def __str__(self) -> str:
        return "stop"


@dataclass(frozen=True, slots=True)
class Meet:
    """On meeting the other figure: show both hands or not (dracula-en:meet.reveal-hands)."""

    reveal: bool

    def __str__(self) -> str:
        return "reveal" if self.reveal else "no-reveal"


@dataclass(frozen=True, slots=True)
class Place:
    """Lay one of one's own encounter cards face down on the pending location
    (dracula-en:look.own-card, dracula-en:target.capture, dracula-en:enemy.win,
    dracula-en:empty.fill)."""

    card: str

    def __str__(self) -> str:
        return f"place {self.card}"


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Pay the move with an action card, using its special action or not
    (dracula-en:move.pay, dracula-en:empty.special-timing)."""

    card: str
    special: bool

    def __str__(self) -> str:
        return f"play {self.card}" + (" special" if self.special else "")


@dataclass(frozen=True, slots=True)
class TakeBack:
    """Composure: take a played or set-aside action card into the current cards
    (dracula-en:special.composure)."""

    card: str

    def __str__(self) -> str:
        return f"take {self.card}"


@dataclass(frozen=True, slots=True)
class Recall:
    """Take an own beaten enemy back from the discard pile into the hand (Pulse; Reinforcement
    under the ``move-and-hunter`` reading)."""

    card: str

    def __str__(self) -> str:
        return f"recall {self.card}"


@dataclass(frozen=True, slots=True)
class TurnCard:
    """Resistance: turn the card at a location sideways (dracula-en:special.resistance)."""

    loc: int

    def __str__(self) -> str:
        return f"turn {loc_name(self.loc)}"


@dataclass(frozen=True, slots=True)
class Fly:
    """Wings of Night: move Dracula to any location, without looking there
    (dracula-en:special.wings-of-night)."""

    loc: int

    def __str__(self) -> str:
        return f"fly {loc_name(self.loc)}"


@dataclass(frozen=True, slots=True)
class Depths:
    """Depths of Night: look at the card at a location and exchange it if it is Dracula's
    (dracula-en:special.depths-of-night)."""

    loc: int

    def __str__(self) -> str:
        return f"depths {loc_name(self.loc)}"


@dataclass(frozen=True, slots=True)
class Roar:
    """Roar: put a figure into the harbour (player aid)."""

    figure: Side

    def __str__(self) -> str:
        return f"roar {self.figure.slug}"


@dataclass(frozen=True, slots=True)
class PlaceBarrier:
    """Place (first use) or move a barrier onto a border (dracula-en:pay.barrier-first)."""

    colour: str
    edge: Edge

    def __str__(self) -> str:
        return f"barrier {self.colour} {edge_name(self.edge)}"


@dataclass(frozen=True, slots=True)
class SkipBarrier:
    """Leave the barriers as they are (option barrier_optional, or nothing is possible)."""

    def __str__(self) -> str:
        return "no-barrier"


@dataclass(frozen=True, slots=True)
class GiveTarget:
    """Give a target from the hand to the opponent for two life markers
    (dracula-en:early-end.give-target)."""

    card: str

    def __str__(self) -> str:
        return f"give {self.card}"


@dataclass(frozen=True, slots=True)
class Accept:
    """Accept the loss of the last life marker without giving a target away."""

    def __str__(self) -> str:
        return "accept"


@dataclass(frozen=True, slots=True)
class ChanceOutcome:
    """A chance outcome: the card dealt, drawn or picked at random."""

    item: str

    def __str__(self) -> str:
        return f"chance {self.item}"


Action = (ChooseCard | Move | Look | Stop | Meet | Place | PlayCard | TakeBack | Recall | TurnCard
          | Fly | Depths | Roar | PlaceBarrier | SkipBarrier | GiveTarget | Accept | ChanceOutcome)


# Actions are immutable values, so the engine hands out one shared object per value instead of
# building equal objects for every state (a bounded set: one per card id, location or border).
choose_card = cache(ChooseCard)
chance_outcome = cache(ChanceOutcome)
place_card = cache(Place)
play_card = cache(PlayCard)
move_to = cache(Move)
place_barrier = cache(PlaceBarrier)
give_target = cache(GiveTarget)
LOOK = Look()
STOP = Stop()
SKIP_BARRIER = SkipBarrier()
ACCEPT = Accept()
MEET_CHOICES = (Meet(True), Meet(False))
