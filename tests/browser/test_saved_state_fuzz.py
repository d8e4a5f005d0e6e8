"""Saved-state fuzzing: altered values of every kind of key, each start must reach a working screen.

Every start stores, before the page runs, a player's usual storage (a game
in progress and a finished one, the witnesses) plus one altered value of
every kind of key: a game in progress (under an id that may be empty or
blank), a finished game, a one-player game, a setting, a high-score table,
the relay's address or name, the language, a value set aside before.  A
value is altered in its parsed structure (one to three fields removed or
swapped for values Python or JavaScript dislike: numbers past float range
or past JavaScript's dates, NaN, deep lists, empty ids, wrong types; half
of them aimed at the fields the screens read) or in its text.  Then every
route that reads them is followed as a link would (the home screen, the
archive, the newest game, each game, a replay, a rules page, the high
scores, the new-game dialog), and the page is reloaded; each time:

* the app is ready and shows a working screen, never the recovery screen;
* the witnesses are still stored, their games unchanged;
* each altered value is where it was, set aside under ``corrupt/``, or (a
  game that opened) saved again by the app: nothing is lost;
* no uncaught error reached the page.

The seeds are fixed (``SAVED_STATE_STARTS`` starts, 16 by default), so a
failure names its seed and replays.
"""

from __future__ import annotations

import json
import math
import os
import random
import sys
from typing import Any

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402
from saves import finish_meta  # noqa: E402

from tessera.core.session import Seat, Session  # noqa: E402
from tessera.games.abatis import Abatis  # noqa: E402
from tessera.games.quadrature import Quadrature  # noqa: E402

STARTS = int(os.environ.get("SAVED_STATE_STARTS", 16))
PREFIX = "tessera/v1/"
SESSION = PREFIX + "session/"
NASTY_VALUES: tuple[Any, ...] = (
    None, True, False, 0, -1, 1, 2, 2 ** 64, 10 ** 400, 1e308, -1e308, 8.64e15 + 1, 1.5, math.inf, math.nan,
    "", " ", "x" * 5000, "9" * 5000, [], {}, [[[[]]]], {"a": {"b": {}}}, ["e9-e8"], {"kind": "bot"},
    "../../x", "#/play/quadrature", "\u0000", "\ud83d",
)
NASTY_TEXT = ("[", "]", "{", "}", '"', ",", ":", "\\", "9" * 5000, "1e999", "-1", "null", "NaN", "\u0000",
              "[" * 300, '{"a":' * 80, "\n", "\u00e9")


def quadrature(session_id: str, finished: bool = False) -> dict:
    session = Session(Quadrature(), [Seat("human"), Seat("human")], session_id, meta={"created": 1.0})
    for move in ("e9-e8", "e3-e4"):
        session.play_text(move)
    if finished:
        session.resign(1)
        session.meta.update({"ended": 5.0, "result": {"winner": 0, "reason": "resign"}})
    return finish_meta(session)


def abatis(session_id: str) -> dict:
    session = Session(Abatis(), [Seat("human")], session_id, meta={"created": 1.0})
    session.play(session.game.legal_moves()[0])
    return finish_meta(session)


WITNESSES = {SESSION + "witness": quadrature("witness"), SESSION + "witdone": quadrature("witdone", True)}
for _save in WITNESSES.values():   # older than the altered games: #/play/quadrature opens an altered one
    _save["meta"]["updated"] = 0.5
TABLE = {"version": 1, "entries": [{"name": "Ann", "score": 120, "level": 2, "date": "2025-01-02", "session": "x1"}]}
SETTINGS = ("theme", "coordinates", "shapes", "confirm-touch", "animation", "sound", "player_name")


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, prefix + (index,))
    return found


READ_FIELDS = (("id",), ("draw_offer",), ("seats",), ("clock",), ("rev",), ("meta", "to_move"),
               ("meta", "side_names"), ("meta", "ended"), ("meta", "updated"), ("meta", "created"),
               ("meta", "ply"), ("meta", "over"), ("meta", "result"), ("meta", "result", "winner"),
               ("meta", "branch"), ("meta", "choice"), ("meta", "flipped"), ("meta", "match"), ("meta", "score"),
               ("record", "options"), ("record", "seed"), ("record", "moves"), ("record", "result"))
"""What the screens read of a save: half the alterations aim here (gone, or a nasty value)."""
GONE = object()


def altered(rng: random.Random, value: Any) -> str:
    """``value`` as stored, altered: one to three fields swapped or removed, or an edit of its text."""
    if isinstance(value, (dict, list)) and rng.random() < 0.7:
        data = json.loads(json.dumps(value))
        for _ in range(rng.randint(1, 3)):
            aimed = [path for path in READ_FIELDS if isinstance(data, dict) and path[0] in data]
            path = rng.choice(aimed) if aimed and rng.random() < 0.5 else rng.choice(paths(data)[1:])
            target = data
            for key in path[:-1]:
                target = target.setdefault(key, {}) if isinstance(target, dict) else target[key]
            if not isinstance(target, (dict, list)):
                continue
            nasty = rng.choice(NASTY_VALUES + (GONE,))
            if nasty is GONE and isinstance(target, dict):
                target.pop(path[-1], None)
            elif isinstance(target, dict) or path[-1] < len(target):
                target[path[-1]] = None if nasty is GONE else nasty
        return json.dumps(data)          # NaN and Infinity stay: a hand-edited save may hold them
    text = value if isinstance(value, str) else json.dumps(value)
    for _ in range(rng.randint(1, 3)):
        at = rng.randint(0, len(text))
        cut = rng.randint(0, 3) if rng.random() < 0.5 else 0
        text = text[:at] + rng.choice(NASTY_TEXT) + text[at + cut:]
    return text


def altered_values(seed: int) -> tuple[dict[str, str], list[str]]:
    """One altered value of every kind (key -> stored text) and the routes that read them."""
    rng = random.Random(22_000 + seed)
    items: dict[str, str] = {}
    session_id = rng.choice(["fz1", "", " ", "fz-1"])
    save = quadrature("fz1")
    save["id"] = session_id
    items[SESSION + session_id] = altered(rng, save)
    items[SESSION + "fz2"] = altered(rng, quadrature("fz2", True))
    items[SESSION + "fz3"] = altered(rng, abatis("fz3"))
    items[PREFIX + "settings/" + rng.choice(SETTINGS)] = altered(rng, rng.choice(["dark", "on", "off", "fast"]))
    items[PREFIX + "scores/abatis/" + rng.choice(["classic-5-8-5", "x", ""])] = altered(rng, TABLE)
    items[PREFIX + rng.choice(["relay", "name"])] = altered(rng, "wss://example.org/relay")
    items[PREFIX + "lang"] = altered(rng, "ru")
    items[PREFIX + "corrupt/session/old@1"] = altered(rng, quadrature("old"))
    routes = ["#/", "#/archive", "#/play/quadrature", "#/play/quadrature/", f"#/play/quadrature/{session_id}",
              "#/archive/quadrature/fz2", "#/play/abatis/fz3", "#/rules/dots", "scores", "online"]
    return items, routes


def store_once(items: dict[str, str]) -> str:
    """An init script that stores ``items`` on the tab's first load only (a reload sees what the app did)."""
    puts = " ".join(f"localStorage.setItem({json.dumps(k)}, {json.dumps(v)});" for k, v in items.items())
    return ("if (location.protocol.startsWith('http') && !sessionStorage.getItem('stored')) {"
            f" sessionStorage.setItem('stored', '1'); try {{ {puts} }} catch (e) {{}} }}")


def working_screen(page: Page) -> str:
    """Which working screen is shown (waits for one); fails on the recovery screen."""
    page.wait_for_selector(".home .game-card, .archive, .play canvas.tessera-board[data-draws], .rules-screen, .recovery")
    assert page.locator(".recovery").count() == 0, page.text_content(".recovery")
    for name, selector in (("home", ".home"), ("archive", ".archive"), ("play", ".play"), ("rules", ".rules-screen")):
        if page.locator(selector).count():
            return name
    raise AssertionError("no screen")


def open_route(page: Page, site_url: str, route: str) -> None:
    """Go to ``route`` within the running page, as a link does (the scores and the online dialog: from home)."""
    page.goto(site_url + ("#/" if route in ("scores", "online") else route))


def act(page: Page, route: str) -> None:
    """What a player does next on that screen: opens the high scores, or the new-game dialog."""
    if route == "scores":
        page.click("button[data-action=high-scores][data-game=abatis]")
        page.wait_for_selector("dialog[open].dialog-scores")
        page.keyboard.press("Escape")
    elif route == "online":
        page.click("button[data-action=new-game][data-game=quadrature]")
        page.wait_for_selector("dialog[open] #ng-relay", state="attached")
        assert page.input_value("#ng-relay").startswith(("ws://", "wss://"))   # a stored one that is not: the default
        page.keyboard.press("Escape")


def kept(stored: dict[str, str], key: str, value: str) -> bool:
    """The altered value is in place, set aside, or a save the app opened and wrote again."""
    if stored.get(key) == value or value in (v for k, v in stored.items() if k.startswith(PREFIX + "corrupt/")):
        return True
    try:
        return key.startswith(SESSION) and json.loads(stored[key])["format"] == "tessera-session/1"
    except (KeyError, ValueError, TypeError):
        return False


@pytest.mark.parametrize("seed", range(STARTS))
def test_altered_values_never_stop_a_start(page: Page, page_log, site_url: str, wait_ready, seed: int) -> None:
    """Every kind of key altered at once; every route that reads them, then a reload: working screens, nothing lost."""
    altered_items, routes = altered_values(seed)
    items = {key: json.dumps(value) for key, value in WITNESSES.items()}
    items.update(altered_items)
    page.add_init_script(store_once(items))
    page.goto(site_url)
    wait_ready(page)
    for route in [*routes, "reload"]:
        if route == "reload":
            page.reload()
            wait_ready(page)
        else:
            open_route(page, site_url, route)
        screen = working_screen(page)
        act(page, route)
        stored = page.evaluate("() => Object.fromEntries(Object.keys(localStorage).map(k => [k, localStorage.getItem(k)]))")
        for witness, save in WITNESSES.items():
            assert json.loads(stored[witness])["record"] == save["record"], f"seed {seed} {route}: {witness} changed"
        lost = [key for key, value in altered_items.items() if not kept(stored, key, value)]
        assert not lost, f"seed {seed} {route} ({screen}): lost {lost}"
    assert not page_log.page_errors, f"seed {seed}: {page_log.page_errors}"
