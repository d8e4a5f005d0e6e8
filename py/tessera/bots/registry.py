"""Bot names, bot specs (``alphabeta:max_depth=2``) and game levels.

A level key (``hard``) belongs to a game and lives in that game's
``levels.py`` as ``LEVELS``; a bot name (``mcts``) works for every game.
"""

from __future__ import annotations

import importlib
from typing import Any

from ..core.registry import entry
from ..i18n import MessageError
from .alphabeta import AlphaBetaBot
from .base import Bot, BotLevel
from .greedy import GreedyBot
from .mcts import MctsBot
from .random_bot import RandomBot

BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "alphabeta": AlphaBetaBot,
    "mcts": MctsBot,
}


class BotSpecError(MessageError, ValueError):
    """A bot name, level or parameter that cannot be used (a catalog key and its values)."""


def register_bot(name: str, cls: type[Bot]) -> None:
    """Add a game's own bot by name; a game's ``levels`` module does this
    when imported, so its levels can name the bot."""
    existing = BOTS.get(name)
    if existing is not None and existing is not cls:
        raise BotSpecError("error.bot.registered", name=repr(name))
    BOTS[name] = cls


def make_bot(name: str, seed: int = 0, movetime_ms: int = 1000, **params: Any) -> Bot:
    """A new bot of the named kind; unknown names raise ``BotSpecError``."""
    cls = BOTS.get(name)
    if cls is None:
        raise BotSpecError("error.bot.unknown", name=repr(name), known=", ".join(sorted(BOTS)))
    allowed = getattr(cls, "param_names", None)
    unknown = sorted(set(params) - set(allowed)) if allowed is not None else []
    if unknown:
        known = ", ".join(allowed) or "-"
        raise BotSpecError("error.bot.no_param", name=repr(name), param=repr(unknown[0]), known=known)
    try:
        bot = cls(seed=seed, movetime_ms=movetime_ms, **params)
    except (TypeError, ValueError) as error:
        raise BotSpecError("error.bot.bad_params", name=repr(name), reason=error) from None
    bot.params = dict(params)   # all of them: a bot that takes some by name keeps none of those in ``params``
    return bot


def _from_levels_module(game_id: str, name: str) -> tuple[BotLevel, ...]:
    """``name`` of the game's ``levels`` module (importing it registers its bots); empty without one."""
    module_name = entry(game_id).module
    if module_name is None:
        return ()
    try:
        module = importlib.import_module(module_name + ".levels")
    except ModuleNotFoundError:
        return ()
    return tuple(getattr(module, name, ()))


def levels_for(game_id: str) -> tuple[BotLevel, ...]:
    """The game's named levels, weakest first; empty if it has none."""
    return _from_levels_module(game_id, "LEVELS")


def helpers_for(game_id: str) -> tuple[BotLevel, ...]:
    """Searches that help the player rather than play against them (the
    levels module's ``HELPERS``: Abatis' hint); never offered as opponents."""
    return _from_levels_module(game_id, "HELPERS")


def level(game_id: str, key: str) -> BotLevel:
    """An opponent level or a helper of the game, by key."""
    candidates = levels_for(game_id) + helpers_for(game_id)
    for candidate in candidates:
        if candidate.key == key:
            return candidate
    known = ", ".join(lv.key for lv in candidates) or "-"
    raise BotSpecError("error.bot.unknown_level", level=repr(key), game=game_id, known=known)


def make_level_bot(level_: BotLevel, seed: int = 0, movetime_ms: int | None = None) -> Bot:
    """The bot a level describes; ``movetime_ms`` overrides the level's time."""
    time_ms = level_.movetime_ms if movetime_ms is None else movetime_ms
    return make_bot(level_.bot, seed, time_ms, **level_.params)


def _parse_value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"alphabeta:max_depth=2,max_nodes=500"`` -> ("alphabeta", {...})."""
    name, _, rest = spec.partition(":")
    params: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise BotSpecError("error.bot.param_form", item=repr(item), spec=repr(spec))
        params[key.strip()] = _parse_value(value.strip())
    return name.strip(), params


DEFAULT_MOVETIME_MS = 1000


def bot_from_spec(game_id: str, spec: str, seed: int = 0, movetime_ms: int | None = None,
                  time_scale: float = 1.0) -> Bot:
    """A level key of the game or a bot spec (``name:key=value,...``).

    A spec may name its base time (``mcts:movetime_ms=1500``).
    ``movetime_ms`` (when given) replaces the level's or the default time;
    otherwise that time is multiplied by ``time_scale`` (the command line's
    match runs levels at 1/3 of their app time, since CPython is about three
    times faster than the browser's Pyodide).
    """
    name, params = parse_spec(spec)
    levels_for(game_id)  # imports the game's levels, which register its own bots
    if name in BOTS:
        base_ms, bot_name, merged = DEFAULT_MOVETIME_MS, name, params
    else:
        chosen = level(game_id, name)
        base_ms, bot_name, merged = chosen.movetime_ms, chosen.bot, {**chosen.params, **params}
    if "movetime_ms" in merged:   # "mcts:movetime_ms=1500" names the base time like a level does
        merged = dict(merged)
        spec_ms = merged.pop("movetime_ms")
        if isinstance(spec_ms, bool) or not isinstance(spec_ms, int) or not 1 <= spec_ms <= 3_600_000:
            raise BotSpecError("error.bot.bad_params", name=repr(bot_name),
                               reason="movetime_ms is a whole number of milliseconds from 1 to 3600000")
        base_ms = spec_ms
    time_ms = movetime_ms if movetime_ms is not None else max(1, round(base_ms * time_scale))
    return make_bot(bot_name, seed, time_ms, **merged)
