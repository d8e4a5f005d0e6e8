"""The list of games, in the order the home screen shows them.

Games register lazily by module path so that importing the registry does
not import every engine (page start-up time matters in the browser).
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from .. import i18n
from .game import Game, GameError, excerpt


GAMES_PACKAGE = __name__.rsplit(".", 2)[0] + ".games"
"""Where the games' packages live (``tessera.games``)."""


@dataclass(frozen=True)
class GameEntry:
    """One game and where its parts live.

    Each part is a module of the game's package (``module``): the registry
    is the only place that names games, and screens, bots and the command
    line find a game's view, play-screen adapter, bot levels, rules page and
    record formats through it.  A part a game does not have is simply absent.
    """

    game_id: str
    num_players: int
    module: str | None = ""
    """Package whose ``GAME`` attribute is the Game subclass; None: coming
    soon; empty: the game's own package, ``tessera.games.<game_id>``."""
    in_app: bool = True
    """False while the engine exists (command line, tests) but its board and
    screens do not: the home screen still shows the game as coming."""
    icon: str = "■"
    """The home screen's card glyph."""
    view: str = "view"
    """Module with ``VIEW``, the BoardView (class or instance) that draws the game."""
    adapter: str = "adapter"
    """Module with ``ADAPTER``, the play screen's GameUI for the game."""
    levels: str = "levels"
    """Module with ``LEVELS``, the bot levels, weakest first."""
    rules_page: str = "rules_page"
    """Module with ``CONTENT``, the rules page's sections and worked examples."""
    formats: str | None = None
    """Module with ``FORMATS``: other programs' record formats (Dots: SGF)."""
    strings: tuple[str, ...] = ("strings.json",)
    """Catalog parts in the package's folder (the rules page's words...)."""
    match_games: int = 0
    """More than 1: the app offers the game as a match of this many games
    (``core.match``: who starts is drawn by rock-paper-scissors, then alternates)."""

    def __post_init__(self) -> None:
        if self.module == "":
            object.__setattr__(self, "module", f"{GAMES_PACKAGE}.{self.game_id}")

    @property
    def available(self) -> bool:
        """Playable in the app."""
        return self.module is not None and self.in_app

    @property
    def title_key(self) -> str:
        return f"game.{self.game_id}.title"


GAMES: tuple[GameEntry, ...] = (
    GameEntry("quadrature", 2, icon="⬚"),
    GameEntry("dots", 2, icon="⁘", formats="formats"),
    GameEntry("corners", 2, icon="◰", match_games=2),
    GameEntry("abatis", 1, icon="▦", strings=("strings.json", "rules.json", "view.json")),
    GameEntry("quadrotone", 2, icon="◩", strings=("strings.json", "rules.json")),
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


def part(game_id: str, name: str) -> ModuleType | None:
    """The game's part module named by its entry's field ``name`` (``"view"``,
    ``"adapter"``...), or None when the game has no such part."""
    game = entry(game_id)
    module_name = getattr(game, name)
    if game.module is None or module_name is None:
        return None
    full_name = f"{game.module}.{module_name}"
    if importlib.util.find_spec(full_name) is None:
        return None
    return importlib.import_module(full_name)


def part_attribute(game_id: str, name: str, attribute: str, default: Any = None) -> Any:
    """``attribute`` of the game's part ``name``, or ``default`` without it."""
    module = part(game_id, name)
    return default if module is None else getattr(module, attribute, default)


def view(game_id: str) -> Any:
    """A new board view of the game (its ``view`` part's ``VIEW`` class)."""
    view_ = part_attribute(game_id, "view", "VIEW")
    if view_ is None:
        raise UnknownGameError("error.cli.no_view", game=excerpt(game_id))
    return view_() if isinstance(view_, type) else type(view_)()


def _string_files() -> list[Path]:
    """Every game's catalog parts, found without importing the games."""
    files = []
    for game in GAMES:
        if game.module is None:
            continue
        spec = importlib.util.find_spec(game.module)
        if spec is None or not spec.submodule_search_locations:
            continue
        folder = Path(list(spec.submodule_search_locations)[0])
        files.extend(folder / name for name in game.strings if (folder / name).is_file())
    return files


i18n.add_catalog_parts(_string_files())
