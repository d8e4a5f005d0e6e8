"""Who sits in a seat, and the participants that pick a seat's moves.

A ``Seat`` is what a save records (a human on this device, a bot level, a
remote player); a ``Participant`` is what plays it while a session runs.
A local human is passive: the UI calls ``Session.play``.  Any other
participant is asked for a move with ``await participant.choose(game_copy,
cancelled)``: a bot runs its search in slices, and a network player would
await a message, so a remote seat plugs in here without touching the games
or the UI.

Pure Python (no ``js``), tested in CPython.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping

from ..i18n import MessageError
from .game import Game, Move, excerpt

if TYPE_CHECKING:
    from .session import Session

SEAT_KINDS = ("human", "bot", "remote", "link")


class SessionError(MessageError, ValueError):
    """A command that does not fit the session now, or a bad save: a catalog
    key and its values (``tessera.i18n``); ``str()`` is the English text."""


@dataclass(frozen=True)
class Seat:
    """What sits in one seat: ``human`` (this device), ``bot`` (a level key), ``remote``
    (a player through a relay) or ``link`` (a friend whose moves come in links)."""

    kind: str = "human"
    level: str | None = None
    name: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in SEAT_KINDS:
            raise SessionError("error.seat.kind", kinds=", ".join(SEAT_KINDS), value=excerpt(self.kind))
        if self.kind == "bot" and not (isinstance(self.level, str) and self.level):
            raise SessionError("error.seat.no_level")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        if self.level is not None:
            data["level"] = self.level
        if self.name is not None:
            data["name"] = self.name
        return data

    @classmethod
    def from_json(cls, data: Any) -> "Seat":
        if not isinstance(data, Mapping):
            raise SessionError("error.seat.not_object")
        kind, level, name = data.get("kind"), data.get("level"), data.get("name")
        if not isinstance(kind, str):
            raise SessionError("error.seat.no_kind")
        if level is not None and not isinstance(level, str):
            raise SessionError("error.seat.level_type")
        if name is not None and not isinstance(name, str):
            raise SessionError("error.seat.name_type")
        return cls(kind, level, name)


class Participant(ABC):
    """Whoever picks the moves of one seat."""

    local: bool = False
    """True when the moves come from this device's UI (``Session.play``)."""

    @abstractmethod
    async def choose(self, game: Game, cancelled: Callable[[], bool]) -> Move | None:
        """The move for ``game`` (a private copy), or None if cancelled."""

    def attach(self, session: "Session", index: int) -> None:
        """The session this participant plays seat ``index`` of (called once, as it starts)."""

    def notify(self, kind: str, session: "Session") -> None:
        """Hear about a change (``move``, ``undo``, ``result``...): a remote seat forwards it."""

    def close(self) -> None:
        """Stop whatever is running; the session is being dropped."""


class LocalHuman(Participant):
    local = True

    async def choose(self, game: Game, cancelled: Callable[[], bool]) -> Move | None:
        raise SessionError("error.seat.local_asked")


class BotParticipant(Participant):
    """A seeded bot.  It thinks where the page put its thinker
    (``bots.thinker``: a worker, so the page only draws) and, when there is
    none or it cannot answer, here in slices, so the page stays responsive.
    With ``ponder`` (the strongest level of a two-player game) it also
    reads on the player's time, in the thinker only (``bots.ponder``)."""

    def __init__(self, bot: Any, slice_ms: float = 12.0, ponder: bool = False) -> None:
        from ..bots.thinker import new_key
        self.bot = bot
        self.slice_ms = slice_ms
        self.ponder = ponder
        self.key = new_key("bot")
        """The thinker keeps this seat's bot object and last position by it."""
        self.session: "Session | None" = None
        self.index = -1
        self.pondering = False

    def attach(self, session: "Session", index: int) -> None:
        from ..bots.thinker import warm
        self.session, self.index = session, index
        warm()   # the worker starts while the page opens the game

    def _texts(self, game: Game) -> list[str]:
        """The moves of ``game`` in notation, from the session's own list
        (no replay), or written by one replay for a game of no session."""
        session = self.session
        if session is not None and len(session.moves.texts) >= game.ply \
                and session.game.move_stack[:game.ply] == game.move_stack:
            return session.moves.texts[:game.ply]
        from .record import history_texts
        return history_texts(game)

    async def choose(self, game: Game, cancelled: Callable[[], bool]) -> Move | None:
        from ..bots.thinker import ask_move
        self.pondering = False
        asked, move = await ask_move(self.bot, self.key, game, self._texts(game), cancelled)
        if asked:
            return move
        from ..bots.base import choose_async
        return await choose_async(self.bot, game, self.slice_ms, cancelled)

    def notify(self, kind: str, session: "Session") -> None:
        """After this bot's move, ponder while the player here thinks; stop
        when the game goes elsewhere (a take-back, the end)."""
        if not self.ponder:
            return
        from ..bots.thinker import bot_json, record_json, tell
        if kind == "move" and session.moves.movers and session.moves.movers[-1] == self.index \
                and not session.is_over() and session.is_local_turn():
            game = session.game
            tell({"type": "ponder", "key": self.key, "bot": bot_json(self.bot),
                  "record": record_json(game, session.moves.texts)})
            self.pondering = True
        elif kind in ("undo", "result") and self.pondering:
            tell({"type": "stop", "key": self.key})
            self.pondering = False

    def close(self) -> None:
        from ..bots.thinker import tell
        tell({"type": "forget", "key": self.key})
        self.session = None


class RemoteParticipant(Participant):
    """The seat of a player on another device: its moves arrive through the
    relay and are applied by ``core.remote.RemoteGame`` (``Session.receive``);
    asked for a move, it waits until the position changes (the move arrived,
    or the session closed)."""

    status_key = "remote.waiting"
    poll_seconds = 0.25

    async def choose(self, game: Game, cancelled: Callable[[], bool]) -> Move | None:
        import asyncio
        while not cancelled():
            await asyncio.sleep(self.poll_seconds)
        return None


class LinkParticipant(Participant):
    """The seat of a friend who plays by link (``core.link_play``): their
    moves arrive when this device opens their link, so asked for one it has
    none to give."""

    status_key = "link.waiting"

    async def choose(self, game: Game, cancelled: Callable[[], bool]) -> Move | None:
        return None


ParticipantFactory = Callable[[Seat, Game, int], Participant]
"""(seat, game, seat index) -> participant; raises SessionError if it cannot."""


def default_participant(seat: Seat, game: Game, index: int) -> Participant:
    """Humans on this device, the game's bot levels, and players on other devices."""
    if seat.kind == "human":
        return LocalHuman()
    if seat.kind == "bot":
        from ..bots.registry import level, make_level_bot
        from ..bots.registry import levels_for
        try:
            chosen = level(game.game_id, seat.level or "")
            strongest = game.num_players == 2 and levels_for(game.game_id)[-1:] == (chosen,)
            return BotParticipant(make_level_bot(chosen, game.seed * 2 + index), ponder=strongest)
        except ValueError as error:  # an unknown level, or a level whose bot cannot be made
            raise SessionError("error.seat.bad_level", level=excerpt(seat.level), reason=error) from None
    if seat.kind == "link":
        return LinkParticipant()
    return RemoteParticipant()
