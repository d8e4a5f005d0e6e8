"""Boards in other pages: the ``<tessera-board>`` element, its modes and its iframe form.

* The examples page (``examples/index.html``, ten boards) paints the build's
  pictures before any Python byte is asked for, then starts one Pyodide for
  all ten (counted by requests), and every board becomes live.
* ``step`` walks the record with buttons, keys and ``goTo``, and says each
  ply's comment; ``puzzle`` takes a wrong move back with a message and
  answers a right one with the record's reply, up to "Solved" and the
  ``solved`` event; ``play`` answers with the bot, or lets one reader take
  both sides.
* Bad input (an unknown game or mode, a ply past the end, a corrupt record,
  a huge attribute, a missing ``src``) is a clear message in the element,
  in its language; nothing is thrown into the page.
* ``embed.html`` in an iframe of a page on another origin works with no
  special headers, tells its parent its height, and the parent sizes it.
* A page whose boards have no pictures shows a placeholder; when Python
  cannot load, the placeholder says so.

Screenshots of the examples page (desktop, phone, dark) are left in
``SHOTS`` for a person to look at.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from urllib.parse import quote

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Frame, Locator, Page  # noqa: E402

from conftest import SiteServer, emulate  # noqa: E402
from tessera.i18n import t  # noqa: E402
from tessera.ui.embed.spec import rules_content  # noqa: E402

SHOTS = "/tmp/tessera-embed-shots"
EXAMPLES = "examples/index.html"
ALL_SETTLED = ("() => [...document.querySelectorAll('tessera-board')]"
               ".every(b => ['ready', 'error'].includes(b.dataset.state))")
PYTHON_FILES = ("pyodide.asm.wasm.br", "tessera.zip", "snapshot.bin.br", "pyodide.asm.js")
CAPTURE_RECORD = {"format": "tessera/1", "game": "dots", "options": {"size": "10x10", "start": "cross"},
                  "moves": ["6-7", "4-4", "7-6"], "meta": {"comments": ["Start.", "One.", "Two.", "Captured."]}}


def shot(page: Page, name: str, full: bool = True) -> None:
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=f"{SHOTS}/{name}.png", full_page=full)


def wait_settled(page: Page | Frame, timeout_ms: float = 90_000) -> None:
    page.wait_for_function(ALL_SETTLED, timeout=timeout_ms, polling=100)


def board(page: Page | Frame, index: int) -> Locator:
    return page.locator("tessera-board").nth(index)


def click_point(target: Locator, x: int, y: int, height: int) -> None:
    """Click Dots point x-y on the board's canvas (its published geometry)."""
    canvas = target.locator("canvas.tessera-board")
    geo = json.loads(canvas.get_attribute("data-geometry"))
    canvas.click(position={"x": geo["x"] + (x - 1) * geo["spacing"], "y": geo["y"] + (height - y) * geo["spacing"]})


def caption(target: Locator) -> str:
    return target.locator(".tb-caption").text_content() or ""


def listen(page: Page | Frame) -> None:
    """Keep every board event the document hears (they bubble out of the shadow roots)."""
    page.evaluate("""() => {
        window.heard = [];
        for (const name of ['move', 'solved', 'ended', 'ready']) {
            document.addEventListener(name, (event) => window.heard.push({name, detail: event.detail,
                board: [...document.querySelectorAll('tessera-board')].indexOf(event.target)}));
        }
    }""")


def heard(page: Page | Frame, name: str) -> list[dict]:
    return [event for event in page.evaluate("window.heard") if event["name"] == name]


@pytest.mark.first_visit  # counts the wasm's downloads
def test_pictures_first_one_python_every_board_live(page: Page, page_log, site_url: str) -> None:
    """Ten pictures are painted before any Python file is requested; one Pyodide
    then serves the ten boards, and each becomes live (its canvas, its buttons)."""
    page.goto(site_url + EXAMPLES)
    served = page.content()
    assert served.count("<tessera-board") == 10
    pictures = page.evaluate("""() => [...document.querySelectorAll('tessera-board')].map(b =>
        (b.shadowRoot ? b.shadowRoot : b).querySelectorAll('svg[data-tessera-picture]').length)""")
    assert all(count >= 1 for count in pictures), pictures
    heights = "() => [...document.querySelectorAll('tessera-board')].map(b => b.getBoundingClientRect().height)"
    first_state = page.evaluate("document.querySelector('tessera-board')?.dataset.state")
    before = page.evaluate(heights)
    wait_settled(page)
    states = page.evaluate("[...document.querySelectorAll('tessera-board')].map(b => b.dataset.state)")
    assert states == ["ready"] * 10, states
    if first_state == "picture":   # a board shown only (no buttons, no caption) keeps its height when live
        assert abs(page.evaluate(heights)[0] - before[0]) < 1, (before[0], page.evaluate(heights)[0])
    timing = page.evaluate("""(names) => {
        const paint = performance.getEntriesByName('first-contentful-paint')[0];
        const python = performance.getEntriesByType('resource')
            .filter(r => names.some(n => r.name.endsWith(n))).map(r => r.startTime);
        return {paint: paint ? paint.startTime : null, python};
    }""", list(PYTHON_FILES))
    assert timing["paint"] is not None and timing["python"], timing
    assert timing["paint"] < min(timing["python"]), timing   # pictures first, then Python
    for name in ("pyodide.asm.wasm.br", "tessera.zip"):
        assert len([url for url in page_log.requests if url.endswith("/" + name)]) == 1, name
    assert not [url for url in page_log.requests if url.endswith("python_stdlib_full.zip")]
    assert page.evaluate("globalThis.tesseraSnapshotUsed") is True
    for index in range(10):
        live = board(page, index)
        canvas = live.locator("canvas.tessera-board")
        assert canvas.count() == 1 and json.loads(canvas.get_attribute("data-geometry"))["width"] > 100
        assert live.locator(".tb-picture").count() == 0
    roles = page.evaluate("""() => [...document.querySelectorAll('tessera-board')].map(b =>
        b.dataset.mode + ':' + b.shadowRoot.querySelector('canvas').getAttribute('role'))""")
    assert roles[2] == "puzzle:application" and roles[6] == "play:application" and roles[1] == "step:img", roles
    page_log.assert_same_origin(site_url)
    page_log.assert_no_errors()


def test_step_buttons_keys_go_to_and_captions(page: Page, page_log, site_url: str) -> None:
    """Step mode walks the record with its buttons, the arrow keys and goTo, and
    shows each ply's comment; SGF C[] comments come through too."""
    page.goto(site_url + EXAMPLES)
    wait_settled(page)
    listen(page)
    steps = board(page, 1)
    assert steps.get_attribute("data-ply") == "0"
    assert caption(steps).startswith("The usual start")
    steps.locator("button[data-action=next]").click()
    assert steps.get_attribute("data-ply") == "1"
    assert caption(steps).startswith("Blue puts a dot")
    assert heard(page, "move")[-1]["detail"] == {"ply": 1, "move": "6-7", "by": "step"}
    steps.locator("button[data-action=next]").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert steps.get_attribute("data-ply") == "3"
    assert "captured" in caption(steps)
    page.keyboard.press("End")
    assert steps.get_attribute("data-ply") == "5"
    assert steps.locator("button[data-action=next]").is_disabled()
    assert heard(page, "ended")[-1]["detail"]["ply"] == 5
    page.evaluate("document.querySelectorAll('tessera-board')[1].goTo(2)")
    page.wait_for_function("document.querySelectorAll('tessera-board')[1].dataset.ply === '2'")
    assert steps.locator(".tb-counter").text_content() == "2 / 5"
    steps.locator("button[data-action=first]").click()
    assert steps.get_attribute("data-ply") == "0"
    house = board(page, 3)   # the SGF record
    house.locator("button[data-action=next]").click()
    assert caption(house).startswith("Red plays into the house")
    label = house.locator("canvas").get_attribute("aria-label")
    assert label == "Dots: after move 1, 4-4"
    russian = board(page, 9)
    assert russian.locator("button[data-action=back]").get_attribute("aria-label") == "Назад"
    steps.evaluate("b => b.setAttribute('ply', '4')")          # another ply: the board starts again there
    page.wait_for_function("document.querySelectorAll('tessera-board')[1].dataset.ply === '4'")
    assert steps.get_attribute("data-state") == "ready" and caption(steps).startswith("Red starts to build")
    draws = int(steps.locator("canvas.tessera-board").get_attribute("data-draws"))
    page.emulate_media(color_scheme="dark")                      # theme="auto" follows the reader
    page.wait_for_function("document.querySelectorAll('tessera-board')[1].dataset.theme === 'dark'")
    page.wait_for_function("([d]) => +document.querySelectorAll('tessera-board')[1].shadowRoot"
                           ".querySelector('canvas.tessera-board')?.dataset.draws > d", arg=[draws])
    assert board(page, 8).get_attribute("data-theme") == "dark" and russian.get_attribute("data-theme") == "light"
    page_log.assert_no_errors()


def test_puzzle_wrong_move_taken_back_right_move_answered(page: Page, page_log, site_url: str) -> None:
    """A wrong move is shown, said and taken back; the right one is answered by
    the record's reply; at the end the board says Solved and fires ``solved``."""
    page.goto(site_url + EXAMPLES)
    wait_settled(page)
    listen(page)
    puzzle = board(page, 2)          # ply 2 of the capture record: Blue finds 7-6
    assert puzzle.get_attribute("data-ply") == "2"
    assert caption(puzzle).startswith("Blue to move: find the move")
    click_point(puzzle, 2, 2, 10)    # wrong
    page.wait_for_function("document.querySelectorAll('tessera-board')[2].dataset.puzzle === 'wrong'")
    assert "2-2 is not the move" in caption(puzzle)
    assert puzzle.get_attribute("data-ply") == "3"
    page.wait_for_function("document.querySelectorAll('tessera-board')[2].dataset.puzzle === 'again'")
    assert puzzle.get_attribute("data-ply") == "2"
    click_point(puzzle, 7, 6, 10)    # right: the capture ends the puzzle
    page.wait_for_function("document.querySelectorAll('tessera-board')[2].dataset.puzzle === 'solved'")
    assert caption(puzzle).startswith("Solved, after 1 wrong try.")
    assert heard(page, "solved") == [{"name": "solved", "detail": {"ply": 3, "mistakes": 1}, "board": 2}]
    assert puzzle.locator("canvas.tessera-board").get_attribute("role") == "img"   # nothing more to play

    two = board(page, 4)             # 8x8: 3-5, the record's reply 1-1, then 6-2
    click_point(two, 3, 5, 8)
    page.wait_for_function("document.querySelectorAll('tessera-board')[4].dataset.ply === '2'")
    moves = [(e["detail"]["move"], e["detail"]["by"]) for e in heard(page, "move") if e["board"] == 4]
    assert moves == [("3-5", "reader"), ("1-1", "record")]
    assert "now find the next move" in caption(two).lower()
    click_point(two, 6, 2, 8)
    page.wait_for_function("document.querySelectorAll('tessera-board')[4].dataset.puzzle === 'solved'")
    assert caption(two).startswith("Solved!")
    two.locator("button[data-action=restart]").click()
    assert two.get_attribute("data-ply") == "0"
    page_log.assert_no_errors()


def test_play_against_the_bot_and_alone(page: Page, page_log, site_url: str) -> None:
    """From ply 12 the reader plays Blue and the easy bot answers; the empty
    field lets one reader take both sides, and Take back undoes."""
    page.goto(site_url + EXAMPLES)
    wait_settled(page)
    listen(page)
    versus = board(page, 6)
    assert versus.get_attribute("data-ply") == "12"
    assert caption(versus) == "Your move"
    click_point(versus, 9, 2, 10)
    page.wait_for_function("document.querySelectorAll('tessera-board')[6].dataset.ply === '14'", timeout=30_000)
    moves = [(e["detail"]["ply"], e["detail"]["by"]) for e in heard(page, "move") if e["board"] == 6]
    assert moves == [(13, "reader"), (14, "bot")]
    versus.locator("button[data-action=undo]").click()
    assert versus.get_attribute("data-ply") == "12"

    alone = board(page, 7)
    assert caption(alone) == "Blue to move"
    click_point(alone, 2, 2, 6)
    assert alone.get_attribute("data-ply") == "1" and caption(alone) == "Red to move"
    click_point(alone, 5, 5, 6)
    assert alone.get_attribute("data-ply") == "2"
    alone.locator("button[data-action=undo]").click()
    assert alone.get_attribute("data-ply") == "1"
    alone.locator("button[data-action=restart]").click()
    assert alone.get_attribute("data-ply") == "0"
    page_log.assert_no_errors()


def test_every_game_of_the_registry_embeds(page: Page, page_log, site_url: str) -> None:
    """A board of each game (its name alone) becomes live in play mode, and
    the reader's first move is taken."""
    from tessera.core import registry

    page.goto(site_url + EXAMPLES)
    wait_settled(page)
    games = registry.available_ids()
    page.evaluate("""(games) => {
        const holder = document.createElement('section');
        holder.id = 'games';
        for (const game of games) {
            const node = document.createElement('tessera-board');
            node.setAttribute('game', game);
            node.setAttribute('mode', 'play');
            holder.append(node);
        }
        document.querySelector('main').prepend(holder);
    }""", games)
    wait_settled(page)
    for index, game in enumerate(games):
        live = page.locator("#games tessera-board").nth(index)
        assert live.get_attribute("data-state") == "ready", game
        assert live.get_attribute("data-game") == game
        canvas = live.locator("canvas.tessera-board")
        assert canvas.get_attribute("role") == "application"
        canvas.focus()
        page.keyboard.press("Enter")     # the keyboard cursor appears
        assert canvas.get_attribute("data-position")
    page_log.assert_no_errors()


def test_a_composed_move_on_an_embedded_quadrotone_board(page: Page, page_log, site_url: str) -> None:
    """A game whose moves are put together first (Quadrotone's chips) gets the
    adapter's buttons: pick a chip of the reader's hand, put it on the field,
    Play; the easy bot answers."""
    from tessera.core.view import ViewState
    from tessera.games.quadrotone import Quadrotone
    from tessera.games.quadrotone.view import QuadrotoneView, square_center, tray_center, tray_rows

    page.goto(site_url + EXAMPLES)
    wait_settled(page)
    listen(page)
    page.evaluate("""() => {
        const node = document.createElement('tessera-board');
        node.id = 'quadrotone';
        node.setAttribute('game', 'quadrotone');
        node.setAttribute('mode', 'play');
        node.setAttribute('level', 'easy');
        node.style.maxWidth = '30rem';
        document.querySelector('main').prepend(node);
    }""")
    wait_settled(page)
    live = page.locator("#quadrotone")
    canvas = live.locator("canvas.tessera-board")
    play = live.locator("button[data-action=draft-play]")
    assert play.is_disabled()
    game = Quadrotone(seed=0, setup=canvas.get_attribute("data-position"))
    geo = json.loads(canvas.get_attribute("data-geometry"))
    width, height = geo["width"], geo["height"]
    chip = QuadrotoneView.tray_chips(game, ViewState(highlights={"hand_seat": game.to_move}))[0]
    empty = next(square for square in range(256) if game.chip_on[square] is None)
    x, y = tray_center(0, width, height, tray_rows(game))
    canvas.click(position={"x": x, "y": y})
    x, y = square_center(empty, width, height, tray_rows(game))
    canvas.click(position={"x": x, "y": y})
    assert play.is_enabled() and live.locator("[data-draft=note]").text_content()
    play.click()
    page.wait_for_function("document.getElementById('quadrotone').dataset.ply === '2'", timeout=60_000)
    moves = [event["detail"]["by"] for event in heard(page, "move") if event["board"] == 0]
    assert moves == ["reader", "bot"]
    after = Quadrotone(seed=0, setup=canvas.get_attribute("data-position"))
    assert after.chip_at(empty) == chip
    page_log.assert_no_errors()


BAD_BOARDS = [
    ({"mode": "sideways"}, CAPTURE_RECORD, "the mode 'sideways' is not one of view, step, play, puzzle"),
    ({"ply": "40"}, CAPTURE_RECORD, "ply 40 is past the end: the record has 3 moves"),
    ({"ply": "-3"}, CAPTURE_RECORD, "ply is a whole number of moves, not '-3'"),
    ({"game": "chess"}, None, "unknown game 'chess'"),
    ({"game": "corners"}, CAPTURE_RECORD, "the board is for Corners, but the record is a game of Dots"),
    ({"level": "x" * 5000}, CAPTURE_RECORD, "the level attribute is longer than 64 characters"),
    ({"mode": "puzzle", "ply": "3"}, CAPTURE_RECORD, "a puzzle needs a move to find after ply 3"),
    ({"mode": "play", "level": "godlike"}, CAPTURE_RECORD, "the level 'godlike' is not one of easy, medium, hard"),
    ({}, '{"format": "tessera/1", "game": "dots", "moves": [', "not valid JSON"),
    ({}, "(;GM[40]SZ[10];B[zz])", "'zz' is off the 10x10 field"),
    ({}, {**CAPTURE_RECORD, "moves": ["6-7", "6-7"]}, "move 2"),
    ({"src": "no-such-record.json"}, None, "the record 'no-such-record.json' could not be loaded (HTTP 404)"),
    ({}, None, "there is no record and no game attribute"),
]


def test_bad_input_is_a_clear_message(page: Page, page_log, site_url: str) -> None:
    """Every kind of bad input shows its reason in the element (and in Russian
    for a Russian board); nothing is thrown into the page."""
    page.goto(site_url + EXAMPLES)
    wait_settled(page)
    page.evaluate("""(boards) => {
        const holder = document.createElement('section');
        holder.id = 'bad';
        for (const [attrs, record] of boards) {
            const node = document.createElement('tessera-board');
            for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
            if (record !== null) {
                const script = document.createElement('script');
                script.type = 'text/plain';
                script.textContent = typeof record === 'string' ? record : JSON.stringify(record);
                node.append(script);
            }
            holder.append(node);
        }
        const russian = document.createElement('tessera-board');
        russian.setAttribute('lang', 'ru');
        russian.setAttribute('mode', 'sideways');
        russian.setAttribute('game', 'dots');
        holder.append(russian);
        document.querySelector('main').append(holder);
    }""", [[attrs, record] for attrs, record, _ in BAD_BOARDS])
    wait_settled(page)
    messages = page.evaluate("""() => [...document.querySelectorAll('#bad tessera-board')].map(b =>
        [b.dataset.state, (b.shadowRoot.querySelector('.tb-error') || {}).textContent || ''])""")
    for (state, text), (attrs, _, expected) in zip(messages, BAD_BOARDS):
        assert state == "error", (attrs, text)
        assert text.startswith("This board cannot be shown: ") and expected in text, (attrs, text)
    assert messages[-1][1].startswith("Эту доску нельзя показать: режима 'sideways' нет"), messages[-1]
    page.locator("#bad").scroll_into_view_if_needed()
    shot(page, "bad-input", full=False)
    assert not page_log.page_errors
    unexpected = [text for text in page_log.console_errors if "404" not in text]   # the missing src
    assert not unexpected, unexpected


def test_iframe_on_another_origin_sizes_itself(page: Page, page_log, site_url: str, tmp_path: Path) -> None:
    """embed.html in an iframe of a page served from a second origin: the board
    starts with no special headers, its height reaches the parent, which sizes
    the iframe, and the board's events come through too."""
    record = quote(json.dumps(CAPTURE_RECORD), safe="")
    src = f"{site_url}embed.html#mode=step&coords&id=first&record={record}"
    (tmp_path / "host.html").write_text(f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A page elsewhere</title><link rel="icon" href="data:,"></head>
<body style="margin: 0; font-family: serif">
<p>A page of another site.</p>
<div style="width: 420px"><iframe id="board" src="{src}" title="Dots" style="width: 100%; height: 150px; border: 0"></iframe></div>
<script>
  window.messages = [];
  addEventListener('message', (event) => {{
    window.messages.push({{origin: event.origin, data: event.data}});
    if (event.data && event.data.type === 'tessera-embed-height') {{
      document.getElementById('board').style.height = event.data.height + 'px';
    }}
  }});
</script>
</body></html>""", encoding="utf-8")
    host = SiteServer(tmp_path)
    try:
        assert host.origin != site_url.rstrip("/")
        page.goto(host.url + "host.html")
        frame = page.frame_locator("#board")
        frame.locator("tessera-board[data-state=ready]").wait_for(timeout=90_000)
        page.wait_for_function("parseInt(document.getElementById('board').style.height) > 400")
        heights = page.evaluate("window.messages.filter(m => m.data.type === 'tessera-embed-height')")
        assert heights[-1]["origin"] == site_url.rstrip("/") and heights[-1]["data"]["id"] == "first"
        inner = page.frames[1]
        assert abs(page.evaluate("document.getElementById('board').getBoundingClientRect().height")
                   - inner.evaluate("document.body.getBoundingClientRect().height")) <= 1
        frame.locator("button[data-action=next]").click()
        page.wait_for_function("window.messages.some(m => m.data.type === 'tessera-embed-event' && m.data.event === 'move')")
        event = page.evaluate("window.messages.find(m => m.data.event === 'move').data")
        assert event["detail"] == {"ply": 1, "move": "6-7", "by": "step"}
        assert frame.locator(".tb-caption").text_content() == "One."
        shot(page, "iframe", full=False)
    finally:
        host.stop()
    page_log.assert_no_errors()


CROSS_ORIGIN_PAGE = """<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><title>A page elsewhere</title><link rel="icon" href="data:,">
<script type="module" src="{site}embed.js"></script></head>
<body style="margin: 0; font-family: serif">
<p>A page of another site.</p>
<div style="width: 420px">
  <tessera-board game="dots" mode="step" coords><script type="application/json">{record}</script></tessera-board>
  <tessera-board game="quadrature" example="chain_reaction"></tessera-board>
</div>
</body></html>"""


def cross_origin_page(tmp_path: Path, site: str) -> Path:
    (tmp_path / "host.html").write_text(CROSS_ORIGIN_PAGE.format(site=site, record=json.dumps(CAPTURE_RECORD)),
                                        encoding="utf-8")
    return tmp_path


def test_the_element_loads_from_another_origin_that_allows_it(page: Page, page_log, site_dir: Path,
                                                              tmp_path: Path) -> None:
    """A page of one origin loads embed.js, Pyodide and tessera.zip from a copy of
    the site on another origin that sends Access-Control-Allow-Origin (as static
    hosts do): its boards start, in the page's language, and step."""
    site = SiteServer(site_dir, extra=("--cors",))
    host = SiteServer(cross_origin_page(tmp_path, site.url))
    try:
        assert host.origin != site.origin
        page.goto(host.url + "host.html")
        page.wait_for_function("[...document.querySelectorAll('tessera-board')].every(b => b.dataset.state === "
                               "'ready')", timeout=90_000)
        steps, example = board(page, 0), board(page, 1)
        steps.locator("button[data-action=next]").click()
        page.wait_for_function("document.querySelector('tessera-board')?.dataset.ply === '1'")
        assert caption(steps) == "One."
        assert steps.locator("button[data-action=next]").get_attribute("aria-label") == "Вперёд"
        example.locator("button[data-action=step]").click()
        page.wait_for_function("document.querySelectorAll('tessera-board')[1].dataset.step === '1'")
        assert "g5-h6" in caption(example)
        worker = page.evaluate("['tessera:snapshot-inflated', 'tessera:snapshot-from-cache'].map(name => "
                               "performance.getEntriesByName(name).length)")
        assert sum(worker) == 1, "the snapshot was not inflated by its worker (a page elsewhere may start it too)"
        python = [url for url in page_log.requests if url.endswith(("pyodide.asm.wasm.br", "tessera.zip"))]
        assert len(python) == 2 and all(url.startswith(site.origin) for url in python), python
        shot(page, "cross-origin", full=False)
    finally:
        host.stop()
        site.stop()
    page_log.assert_no_errors()


def test_from_an_origin_that_does_not_allow_it_the_board_says_so(page: Page, page_log, site_dir: Path,
                                                                 tmp_path: Path) -> None:
    """Without that header the browser refuses the cross-origin modules: a board
    that got its script some other way says it could not start (the README's
    answer is the iframe form, which needs no headers)."""
    site = SiteServer(site_dir)
    host = SiteServer(tmp_path)
    try:
        (tmp_path / "embed.js").write_text((site_dir / "embed.js").read_text(encoding="utf-8").replace(
            'new URL("./", import.meta.url)', json.dumps(site.url)), encoding="utf-8")
        cross_origin_page(tmp_path, "./")
        page.goto(host.url + "host.html")
        page.wait_for_function("[...document.querySelectorAll('tessera-board')].every(b => b.dataset.state === "
                               "'error')", timeout=90_000)
        assert "Python" in (board(page, 0).locator(".tb-error").text_content() or "")
    finally:
        host.stop()
        site.stop()
    assert not page_log.page_errors


def test_placeholder_until_python_and_a_message_when_it_cannot_load(page: Page, page_log, site_url: str,
                                                                   tmp_path: Path) -> None:
    """A page without the build's pictures shows the game's name and "Loading the
    board..." in the page's language; if Python cannot load, the board says so."""
    held = []
    page.route("**/vendor/pyodide/**", lambda route: held.append(route))   # Python's files hang, then fail
    page.goto(site_url + EXAMPLES)
    page.evaluate("""(record) => {
        document.querySelector('main').replaceChildren();
        for (const lang of ['en', 'ru']) {
            const node = document.createElement('tessera-board');
            node.setAttribute('lang', lang);
            node.textContent = JSON.stringify(record);
            document.querySelector('main').append(node);
        }
    }""", CAPTURE_RECORD)
    placeholder = page.evaluate("""() => [...document.querySelectorAll('tessera-board')].map(b =>
        [b.shadowRoot.querySelector('.tb-game').textContent, b.shadowRoot.querySelector('.tb-loading').textContent])""")
    assert placeholder == [["Dots", "Loading the board…"], ["Точки", "Загружается доска…"]]
    shot(page, "placeholder", full=False)
    for route in held:
        route.abort()
    page.unroute("**/vendor/pyodide/**")
    wait_settled(page)
    texts = page.evaluate("[...document.querySelectorAll('tessera-board')].map(b => b.shadowRoot.querySelector('.tb-error').textContent)")
    assert texts[0].startswith("The board could not start") and texts[1].startswith("Доска не запустилась")


def test_the_russian_examples_page(page: Page, page_log, site_url: str) -> None:
    """examples/ru.html: the same ten boards in Russian (records' comments included),
    but for the two that ask for English; each page links the other."""
    page.goto(site_url + "examples/ru.html")
    wait_settled(page)
    states = page.evaluate("[...document.querySelectorAll('tessera-board')].map(b => b.dataset.state)")
    assert states == ["ready"] * 10, states
    steps = board(page, 1)
    assert caption(steps).startswith("Обычное начало")
    assert steps.locator("button[data-action=next]").get_attribute("aria-label") == "Вперёд"
    steps.locator("button[data-action=next]").click()
    page.wait_for_function("document.querySelectorAll('tessera-board')[1].dataset.ply === '1'")
    assert caption(steps).startswith("Синие ставят точку")
    assert board(page, 9).locator("button[data-action=next]").get_attribute("aria-label") == "Next"
    shot(page, "examples-ru", full=True)
    page.click("a[hreflang=en]")
    page.wait_for_url("**/examples/index.html")
    assert page.locator("a[hreflang=ru]").text_content() == "Русский"
    page_log.assert_no_errors()


def test_a_board_keeps_its_own_picture_for_the_next_visit(page: Page, page_log, site_dir: Path,
                                                          tmp_path: Path) -> None:
    """A page elsewhere with no pictures: the first visit shows the placeholder until
    Python draws the boards; each then keeps a picture of its opening position, which
    the next visit shows before (here: without) Python, in the page's theme only."""
    site = SiteServer(site_dir, extra=("--cors",))
    host = SiteServer(cross_origin_page(tmp_path, site.url))
    try:
        page.goto(host.url + "host.html")
        states = page.evaluate("[...document.querySelectorAll('tessera-board')].map(b => b.dataset.state)")
        assert states == ["placeholder", "placeholder"], states
        page.wait_for_function("() => JSON.parse(localStorage.getItem('tessera-board/pictures') || '[]').length === 2",
                               timeout=90_000)
        held = []
        page.route("**/vendor/pyodide/**", lambda route: held.append(route))   # no Python this time
        page.reload()
        page.wait_for_function("[...document.querySelectorAll('tessera-board')].every(b => b.shadowRoot)")
        kept = page.evaluate("""() => [...document.querySelectorAll('tessera-board')].map(b => [b.dataset.state,
            b.shadowRoot.querySelector('.tb-picture svg title').textContent])""")
        assert kept == [["picture", "Точки: начальная позиция"],
                        ["picture", "Диаграмма: " + t(next(d for d in rules_content("quadrature").diagrams()
                                                           if d.key == "chain_reaction").caption_key, "ru")]], kept
        shot(page, "kept-pictures", full=False)
        page.emulate_media(color_scheme="dark")      # another theme: no picture kept for it yet
        page.evaluate("document.querySelector('tessera-board').remove()")
        page.evaluate("""(record) => {
            const node = document.createElement('tessera-board');
            node.setAttribute('game', 'dots'); node.setAttribute('mode', 'step'); node.setAttribute('coords', '');
            node.innerHTML = '<script type="application/json"></' + 'script>';
            node.firstChild.textContent = JSON.stringify(record);
            document.querySelector('div').prepend(node);
        }""", CAPTURE_RECORD)
        assert page.evaluate("document.querySelector('tessera-board')?.dataset.state") == "placeholder"
        for route in held:
            route.abort()
    finally:
        host.stop()
        site.stop()


@pytest.mark.parametrize("name, viewport, scheme", [
    ("desktop", {"width": 1280, "height": 900}, "light"),
    ("phone", {"width": 390, "height": 844}, "light"),
    ("dark", {"width": 1280, "height": 900}, "dark"),
])
def test_examples_page_screenshots(page: Page, site_url: str, name: str, viewport: dict, scheme: str) -> None:
    """The examples page on a desktop, a phone and in the dark: every board live,
    the page no wider than the screen (screenshots for a person to look at)."""
    phone = name == "phone"
    emulate(page, viewport=viewport, color_scheme=scheme, mobile=phone, touch=phone)
    page.goto(site_url + EXAMPLES)
    shot(page, f"{name}-pictures", full=False)
    wait_settled(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    themes = page.evaluate("[...document.querySelectorAll('tessera-board')].map(b => b.dataset.theme)")
    assert themes[:8] == [scheme] * 8 and themes[8:] == ["dark", "light"]
    shot(page, f"{name}-live")
