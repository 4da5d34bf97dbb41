"""What the engine protocol's messages hold for one game, shown by the harness itself
(``ruleproof conform --protocol``).

An engine author needs, for their game, the set-up ``new_game`` sends, the action strings,
the fields of ``state`` and of ``observation``, and the illegal actions the harness probes
with. Rather than a table written by hand beside each game, which would drift from the code,
:func:`protocol_sheet` plays the start of one game through the harness's own :func:`play`
against the model answering as a conforming engine (:class:`ModelAnswers`, with the JSON round
trip of :class:`~ruleproof.properties.conformance.engine.MessageEngine`), and records every
request and answer. The model must conform to itself there: a divergence is an error of the
game's conformance capability (:class:`~ruleproof.errors.Nonconformance`), never a sheet.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ruleproof.errors import IllegalAction, MalformedInput, Nonconformance
from ruleproof.model.api import GameState
from ruleproof.properties.conformance.differential import play
from ruleproof.properties.conformance.engine import PROTOCOL, MessageEngine
from ruleproof.properties.conformance.games import EXPANSION_KEY, PRESET_KEY, GameModel


def model_hello(game: GameModel) -> dict[str, Any]:
    """The handshake answer of an engine that supports all the model does: every preset,
    player count, rule option value and expansion (``names`` where set-ups name players)."""
    supports: dict[str, Any] = {"players": sorted({
        n for p in (game.presets() or (None,))
        for n in game.player_counts({} if p is None else {PRESET_KEY: p})})}
    if game.presets():
        supports["presets"] = list(game.presets())
    if game.option_values():
        supports["options"] = {k: list(v) for k, v in game.option_values().items()}
    if game.expansions():
        supports["expansions"] = list(game.expansions())
    if game.has_names:
        supports["names"] = True
    return {"ok": True, "protocol": PROTOCOL, "supports": {game.name: supports}}


class ModelAnswers:
    """The model answering the JSON protocol as a conforming engine does: a message handler
    for :class:`~ruleproof.properties.conformance.engine.MessageEngine`.

    Args:
        game: the game's conformance model.
    """

    def __init__(self, game: GameModel) -> None:
        self.game = game
        self.state: GameState | None = None

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """The answer to one request (``ok: false`` with ``error`` for one it cannot take)."""
        cmd = request.get("cmd")
        if cmd == "hello":
            return model_hello(self.game)
        if cmd == "new_game":
            options = dict(request.get("options") or {})
            for key in (PRESET_KEY, EXPANSION_KEY):
                if key in request:
                    options[key] = request[key]
            try:
                self.state = self.game.start(request["players"], options, None,
                                             request["setup"])
            except MalformedInput as exc:
                return {"ok": False, "error": exc.one_line()}
            return {"ok": True}
        state = self.state
        if state is None:
            return {"ok": False, "error": "no game: send new_game first"}
        if cmd == "legal_actions":
            return {"ok": True, "actions": self.game.legal(state)}
        if cmd == "apply":
            try:
                self.state = self.game.apply(state, str(request.get("action"))).state
            except IllegalAction as exc:
                return {"ok": False, "error": "illegal", "reason": exc.reason}
            return {"ok": True}
        if cmd == "state":
            return {"ok": True, "state": self.game.public_state(state)}
        if cmd == "observation":
            return {"ok": True, "observation": self.game.observation(state,
                                                                     int(request["player"]))}
        return {"ok": False, "error": f"unknown cmd {cmd!r}"}


@dataclass(frozen=True)
class Sheet:
    """The messages of the start of one game, as the harness sends them.

    Attributes:
        game, players, options, seed: the game shown (``options`` with its ``preset``).
        messages: ``(request, answer)`` in order, the handshake first; the answers are the
            model's (what a conforming engine answers).
        public: field of ``state`` -> its type in words; ``private``: the fields an
            observation adds; ``observed``: the players whose observation is asked.
    """

    game: str
    players: int
    options: Mapping[str, str]
    seed: int
    messages: tuple[tuple[dict[str, Any], dict[str, Any]], ...]
    public: Mapping[str, str]
    private: Mapping[str, str]
    observed: tuple[int, ...]


def protocol_sheet(game: GameModel, players: int | None = None,
                   options: Mapping[str, str] | None = None, seed: int = 0,
                   steps: int = 2) -> Sheet:
    """The messages of the first ``steps`` actions of the game dealt by ``seed`` (the first
    choosable action each time, one probe of an illegal action before each), with
    ``players`` (default: the fewest the options allow) and ``options``.

    Raises:
        MalformedInput: options or a player count the game does not take; ``steps`` < 1.
        Nonconformance: the model, answering as an engine, diverged from itself.
    """
    if steps < 1:
        raise MalformedInput(f"steps must be at least 1, got {steps}")
    opts = dict(options or {})
    counts = game.player_counts(opts)
    if not counts:
        raise MalformedInput(f"{game.name}: no player count allows these options")
    n = counts[0] if players is None else players
    if n not in counts:
        raise MalformedInput(f"{game.name} is played by {', '.join(map(str, counts))} players "
                             f"with these options; got {n}")
    messages: list[tuple[dict[str, Any], dict[str, Any]]] = []
    answers = ModelAnswers(game)

    def record(request: dict[str, Any]) -> dict[str, Any]:
        answer = answers.handle(request)
        messages.append((request, answer))
        return answer

    engine = MessageEngine(record)
    engine.hello()
    played = play(game, engine, n, opts, seed, lambda _k: 0, steps)
    if played.divergence is not None:
        d = played.divergence
        raise Nonconformance("the model answering as an engine", f"{game.name} diverged from "
                             f"itself at step {d.step} ({d.kind}): {d.detail}")
    types = game.spec.field_types
    return Sheet(game.name, n, opts, seed, tuple(messages),
                 {k: types.words.get(v, v) for k, v in types.public.items()},
                 {k: types.words.get(v, v) for k, v in types.private.items()},
                 tuple(game.observed_players))


__all__ = ["ModelAnswers", "Sheet", "model_hello", "protocol_sheet"]
