"""Saved games made in CPython, as the app saves them, for browser tests and the bench.

A save is built with the real ``Session`` API and put into ``localStorage``
by an init script before the page's own scripts run, so a test or a
benchmark opens the page exactly as a player resumes a game.
"""

from __future__ import annotations

import json

from tessera.core.rng import SeededRandom
from tessera.core.session import Seat, Session
from tessera.games.dots import Dots

SESSION_PREFIX = "tessera/v1/session/"
"""Where the app keeps each saved game (``tessera.ui.saves.storage``), by its id."""


def finish_meta(session: Session) -> dict:
    """The summary fields the play screen writes with every save."""
    session.meta.update({"updated": 1.0, "to_move": session.to_move, "ply": session.game.ply,
                         "over": session.is_over(), "local_turn": False,
                         "side_names": list(session.game.seat_names)})
    return session.to_save()


def long_dots_save(plies: int, session_id: str, seed: int = 7) -> dict:
    """A hot-seat 39x32 Dots game ``plies`` random moves in (no bot, so nothing
    thinks while the page is measured)."""
    game = Dots()
    game.random_fill(SeededRandom(seed), plies)
    session = Session(game, [Seat("human"), Seat("human")], session_id,
                      meta={"created": 0.0, "choice": {"opponent": "human", "size": "39x32"}})
    return finish_meta(session)


def storage_script(items: dict[str, str], overwrite: bool = False) -> str:
    """An init script that stores ``items`` (key -> raw string) before the app starts.

    Only in the page itself: an init script runs in every frame too, and a
    frame of the page (update.js's hidden one after a first install) would
    store again a key the app had meanwhile put aside."""
    lines = []
    for key, value in items.items():
        k, v = json.dumps(key), json.dumps(value)
        put = f"localStorage.setItem({k}, {v});"
        lines.append(put if overwrite else f"if (localStorage.getItem({k}) === null) {put}")
    return "try { if (window.top === window) { " + " ".join(lines) + " } } catch (e) {}"


QUIET = storage_script({"tessera/v1/settings/animation": "off", "tessera/v1/settings/sound": "off"})
"""An init script for tests that play many moves and test neither: no move animates or sounds."""


def shown_save(page) -> dict:
    """The save of the game the play screen shows, as the page keeps it (seed and moves)."""
    return json.loads(page.evaluate(
        "prefix => localStorage.getItem(prefix + document.querySelector('.play')?.dataset.session)",
        SESSION_PREFIX))


def caught_up_save(page, timeout_ms: float = 20_000) -> dict:
    """``shown_save`` once it holds every move of the page's move list.

    The play screen saves in a task of its own right after a move (input
    stays snappy), so just after a click the save can be a move behind."""
    page.wait_for_function(
        """prefix => {
            const raw = localStorage.getItem(prefix + document.querySelector('.play')?.dataset.session);
            return raw !== null && JSON.parse(raw).record.moves.length === document.querySelectorAll('button.move').length;
        }""", arg=SESSION_PREFIX, timeout=timeout_ms)
    return shown_save(page)


def save_script(save: dict) -> tuple[str, str]:
    """(URL hash, init script) opening the saved game ``save``."""
    key = SESSION_PREFIX + save["id"]
    game = save["record"]["game"]
    return f"#/play/{game}/{save['id']}", storage_script({key: json.dumps(save, separators=(",", ":"))})
