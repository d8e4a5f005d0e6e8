"""The list of games, in the order the home screen shows them.

Games register lazily by module path so that importing the registry does
not import every engine (page start-up time matters in the browser).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from .game import Game, GameError, excerpt


@dataclass(frozen=True)
class GameEntry:
    game_id: str
    num_players: int
    module: str | None
    """Module whose ``GAME`` attribute is the Game subclass; None: coming soon."""
    in_app: bool = True
    """False while the engine exists (command line, tests) but its board and
    screens do not: the home screen still shows the game as coming."""

    @property
    def available(self) -> bool:
        """Playable in the app."""
        return self.module is not None and self.in_app

    @property
    def title_key(self) -> str:
        return f"game.{self.game_id}.title"


GAMES: tuple[GameEntry, ...] = (
    GameEntry("quadrature", 2, "tessera.games.quadrature"),
    GameEntry("dots", 2, "tessera.games.dots"),
    GameEntry("corners", 2, None),
    GameEntry("abatis", 1, None),
    GameEntry("quadrotone", 2, None),
)


class UnknownGameError(GameError):
    """A record or command named a game this build does not have."""


def entry(game_id: str) -> GameEntry:
    for game in GAMES:
        if game.game_id == game_id:
            return game
    known = ", ".join(g.game_id for g in GAMES)
    raise UnknownGameError("error.game.unknown", game=excerpt(game_id), known=known)


def game_class(game_id: str) -> type[Game]:
    """The engine class for ``game_id``; raises if unknown or not built yet."""
    game = entry(game_id)
    if game.module is None:
        raise UnknownGameError("error.game.not_available", game=excerpt(game_id))
    return importlib.import_module(game.module).GAME


def available_ids() -> list[str]:
    return [g.game_id for g in GAMES if g.available]
