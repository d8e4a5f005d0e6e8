"""Quadrotone in a real browser: a move of two chips composed by clicking
the hand and the field (a turn, the score preview, Play), a turn with the R
key, a reload that resumes, a game against the bot, and the rules page's
tables.

Clicks follow the board the canvas publishes (``data-geometry``,
``data-position``) and the view's own ``square_center``/``tray_center``.
"""

from __future__ import annotations

import json
import sys

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402

from conftest import emulate  # noqa: E402
from saves import QUIET, shown_save, storage_script  # noqa: E402
from tessera.core.view import ViewState  # noqa: E402
from tessera.games.quadrotone import Quadrotone  # noqa: E402
from tessera.games.quadrotone.catalog import catalog  # noqa: E402
from tessera.games.quadrotone.chips import rotate  # noqa: E402
from tessera.games.quadrotone.field import parse_square  # noqa: E402
from tessera.games.quadrotone.notation import make_place  # noqa: E402
from tessera.games.quadrotone.view import QuadrotoneView, square_center, tray_center, tray_rows  # noqa: E402

BOARD = "canvas.tessera-board"


def shown_game(page: Page) -> Quadrotone:
    """The position on the board, with the hands its seed dealt (the saved record has the seed)."""
    record = shown_save(page)["record"]
    return Quadrotone(record.get("options"), seed=record["seed"], setup=page.get_attribute(BOARD, "data-position"))


def click_at(page: Page, x: float, y: float) -> None:
    """Click the canvas at (x, y), scrolling the page first so the point is in the window."""
    box = page.locator(BOARD).bounding_box()
    height = page.viewport_size["height"]
    if not 0 <= box["y"] + y < height:
        page.evaluate("dy => window.scrollBy(0, dy)", box["y"] + y - height / 2)
        box = page.locator(BOARD).bounding_box()
    page.mouse.click(box["x"] + x, box["y"] + y)


def size(page: Page) -> tuple[float, float]:
    geometry = json.loads(page.get_attribute(BOARD, "data-geometry"))
    return geometry["width"], geometry["height"]


def click_square(page: Page, name: str) -> None:
    square = parse_square(name)
    width, height = size(page)
    click_at(page, *square_center(square, width, height, tray_rows(shown_game(page))))


def click_hand(page: Page, chip: int, dropped: tuple[int, ...] = ()) -> None:
    """Click ``chip`` in the tray; ``dropped``: chips of the draft already on the field (not in the tray)."""
    game = shown_game(page)
    shown = [c for c in QuadrotoneView.tray_chips(game, ViewState()) if c not in dropped]
    width, height = size(page)
    click_at(page, *tray_center(shown.index(chip), width, height, tray_rows(game)))


def start(page: Page, site_url: str, wait_ready, opponent: str) -> None:
    page.add_init_script(QUIET)
    page.goto(site_url)
    wait_ready(page)
    page.click("button[data-action=new-game][data-game=quadrotone]")
    page.click(f"label[for='ng-opponent-{opponent}']")
    page.click("dialog button[data-action=start]")
    page.wait_for_function(f"document.querySelector('{BOARD}') && document.querySelector('{BOARD}')?.dataset.geometry")


def four_looks(game: Quadrotone, count: int) -> list[int]:
    return [c for c in sorted(game.hands[game.to_move]) if len({rotate(c, t) for t in range(4)}) == 4][:count]


def test_a_two_chip_move_composed_by_clicking(page: Page, page_log, site_url: str, wait_ready) -> None:
    start(page, site_url, wait_ready, "human")
    game = shown_game(page)
    first, second = four_looks(game, 2)
    click_hand(page, first)
    click_hand(page, first)                         # a second click turns it
    note = page.locator("[data-draft=note]")
    expect(note).to_contain_text("Holding")
    click_square(page, "h8")
    click_hand(page, second, dropped=(first,))
    click_square(page, "i8")
    expected = game.parse_move(f"{game.move_text(('place', ((first, 1, parse_square('h8')),)))},"
                               f"{game.move_text(('place', ((second, 0, parse_square('i8')),)))}")
    expect(note).to_contain_text(f"would score {game.preview_points(expected)} point")
    expect(page.locator("button[data-action=draft-play]")).to_be_enabled()
    page.click("button[data-action=draft-play]")
    page.wait_for_function("() => document.querySelectorAll('button.move').length === 1")
    # text, not inner_text: a new block of the list is content-visibility: auto, whose text
    # counts as not rendered until the frame after it came (innerText "" then)
    expect(page.locator("button.move .move-text").first).to_have_text(game.move_text(expected))
    after = shown_game(page)
    assert after.chip_at(parse_square("h8")) == rotate(first, 1) and after.chip_at(parse_square("i8")) == second
    expect(page.locator("button[data-action=draft-play]")).to_be_disabled()
    # The other player: a chip turned with the R key, then played.
    third = four_looks(after, 1)[0]
    click_hand(page, third)
    page.keyboard.press("r")
    page.keyboard.press("r")
    click_square(page, "a1")
    page.click("button[data-action=draft-play]")
    page.wait_for_function("() => document.querySelectorAll('button.move').length === 2")
    assert shown_game(page).chip_at(parse_square("a1")) == rotate(third, 2)
    position = page.get_attribute(BOARD, "data-position")
    page.reload()
    wait_ready(page)
    page.wait_for_function(f"document.querySelector('{BOARD}') && document.querySelector('{BOARD}')?.dataset.geometry")
    assert page.get_attribute(BOARD, "data-position") == position
    page_log.assert_no_errors()


def test_a_move_against_the_bot(page: Page, page_log, site_url: str, wait_ready) -> None:
    start(page, site_url, wait_ready, "bot:medium")
    if shown_game(page).to_move != 0:   # the bot was drawn to start: wait for its move
        page.wait_for_function("() => document.querySelectorAll('button.move').length === 1", timeout=60_000)
    before = page.eval_on_selector_all("button.move", "els => els.length")
    game = shown_game(page)
    chip = sorted(game.hands[game.to_move])[0]
    empty = next(s for s in range(256) if game.chip_on[s] is None)
    click_hand(page, chip)
    width, height = size(page)
    click_at(page, *square_center(empty, width, height, tray_rows(game)))
    page.click("button[data-action=draft-play]")
    page.wait_for_function("n => !document.documentElement.dataset.bot && "
                           "document.querySelectorAll('button.move').length >= n + 2", arg=before, timeout=60_000)
    after = shown_game(page)
    assert after.chip_at(empty) == chip                      # our chip, and the bot's reply after it
    assert sum(1 for c in after.chip_on if c is not None) > sum(1 for c in game.chip_on if c is not None) + 1 \
        or after.to_move == game.to_move
    page_log.assert_no_errors()


def test_the_rules_page_shows_the_catalog(page: Page, page_log, site_url: str, wait_ready) -> None:
    page.goto(site_url + "#/rules/quadrotone")
    wait_ready(page)
    table = page.locator("table[data-table=one_colour]")
    expect(table).to_be_visible()
    assert table.locator("tbody tr").count() == len(catalog().one_colour)
    assert page.locator("table[data-table=two_colour] tbody tr").count() == len(catalog().two_colour)
    expect(page.locator("table[data-table=limits]")).to_contain_text("128")
    page_log.assert_no_errors()


def least_scoring_chip(game: Quadrotone, square: int) -> int:
    """The chip of the hand to move that scores least dropped alone on ``square`` as the tray
    holds it (unturned): which chip scores depends on the deal, which is drawn anew each game."""
    def gain(move) -> int:
        after = game.copy()
        after.push(move)
        return after.points[game.to_move] - game.points[game.to_move]
    placements = [move for move in game.legal_moves()
                  if move[0] == "place" and len(move[1]) == 1 and move[1][0][1] == 0 and move[1][0][2] == square]
    return min(placements, key=lambda move: (gain(move), move[1][0][0]))[1][0][0]


def test_a_resignation_credits_the_winner_as_ruled(page: Page, page_log, site_url: str, wait_ready) -> None:
    """The loser resigns while ahead: the winner is credited the loser's points plus one."""
    from tessera.core.game import Outcome
    start(page, site_url, wait_ready, "human")
    game = shown_game(page)
    resigner = game.to_move
    mono = next(c for c in sorted(game.hands[resigner]) if len({rotate(c, t) for t in range(4)}) == 1)
    click_hand(page, mono)
    click_square(page, "d4")                        # a one-colour chip alone: a pattern
    page.click("button[data-action=draft-play]")
    page.wait_for_function("() => document.querySelectorAll('button.move').length === 1")
    other = shown_game(page)
    click_hand(page, least_scoring_chip(other, parse_square("p16")))   # the resigner stays ahead
    click_square(page, "p16")
    page.click("button[data-action=draft-play]")
    page.wait_for_function("() => document.querySelectorAll('button.move').length === 2")
    final = shown_game(page)
    assert final.to_move == resigner and final.points[resigner] > final.points[1 - resigner], final.points
    credited = final.scores_at_end(Outcome(1 - resigner, "resign"))
    page.click("button[data-action=resign]")
    page.click("dialog[open] button.btn-danger")
    winner_panel = page.locator(f".player-panel[data-seat='{1 - resigner}']")
    expect(winner_panel.locator(".stat-credited dd")).to_have_text(str(credited[1 - resigner]))
    assert credited[1 - resigner] == max(final.points[1 - resigner], final.points[resigner] + 1)
    expect(page.locator(f".player-panel[data-seat='{resigner}'] .stat-credited")).to_have_count(1)
    page_log.assert_no_errors()


def test_scoring_switches_in_the_new_game_dialog(page: Page, page_log, site_url: str, wait_ready) -> None:
    page.add_init_script(QUIET)
    page.goto(site_url)
    wait_ready(page)
    page.click("button[data-action=new-game][data-game=quadrotone]")
    for key in ("rotated_patterns", "chains", "fences"):
        expect(page.locator(f"dialog[open] input#ng-{key}")).to_be_checked()
    page.click("dialog[open] label[for='ng-chains']")
    page.click("label[for='ng-opponent-human']")
    page.click("dialog button[data-action=start]")
    page.wait_for_function(f"document.querySelector('{BOARD}') && document.querySelector('{BOARD}')?.dataset.geometry")
    options = shown_game(page).options
    assert options["chains"] is False and options["fences"] is True and options["rotated_patterns"] is True
    page_log.assert_no_errors()


def test_the_catalog_shows_every_pattern_in_every_turn(page: Page, page_log, site_url: str, wait_ready) -> None:
    """The lead's link scrolls to the catalog, where each of the 36 patterns has a picture per turn,
    in the board's colours of the theme shown."""
    page.goto(site_url + "#/rules/quadrotone")
    wait_ready(page)
    page.click("nav.rules-links a[data-section=catalog]")
    section = page.locator("section[data-section=catalog]")
    expect(section.locator("h2")).to_be_focused()
    assert page.evaluate("location.hash") == "#/rules/quadrotone"
    page.wait_for_function("() => window.scrollY > 0")
    assert 0 <= section.bounding_box()["y"] <= 100                         # below the sticky header
    shown = page.evaluate("""() => [...document.querySelectorAll('section[data-section=catalog] tbody tr')].map(
        row => [...row.querySelectorAll('td.rules-picture svg[role=img]')].filter(
            svg => svg.getBoundingClientRect().width > 0 && svg.querySelector('title').textContent).length)""")
    assert len(shown) == len(catalog().patterns) == 36
    assert shown == [len(pattern.variants()) for pattern in catalog().patterns]
    first_red = "section[data-section=catalog] svg rect.rules-red"
    fill = "selector => getComputedStyle(document.querySelector(selector)).fill"
    assert page.evaluate(fill, first_red) == "rgb(210, 60, 50)"            # LIGHT.red
    page.evaluate("document.documentElement.dataset.theme = 'dark'")
    assert page.evaluate(fill, first_red) == "rgb(255, 107, 94)"           # DARK.red
    page_log.assert_no_errors()


SAMPLE_TRAY = """points => {
    const canvas = document.querySelector('canvas.tessera-board');
    const scale = canvas.width / canvas.getBoundingClientRect().width;
    const context = canvas.getContext('2d');
    return points.map(([x, y]) => Array.from(
        context.getImageData(Math.round(x * scale), Math.round(y * scale), 1, 1).data.slice(0, 3)));
}"""
"""The colours (r, g, b) drawn at the canvas points given."""


def tray_points(page: Page, count: int) -> list[tuple[float, float]]:
    """The middle of the bottom-left square of the tray's first ``count`` chips (the one that
    changes most from chip to chip in the tray's order)."""
    from tessera.games.quadrotone.layout import layout
    width, height = size(page)
    rows = tray_rows(shown_game(page))
    quarter = layout(width, height, rows).chip / 4
    return [(x - quarter, y + quarter) for x, y in (tray_center(i, width, height, rows) for i in range(count))]


def bottom_left_colours(chips: list[int]) -> list[list[int]]:
    """What ``tray_points`` should read for these chips (the light palette, no marks)."""
    from tessera.games.quadrotone.chips import squares
    from tessera.games.quadrotone.view import COLOUR_FIELDS, LIGHT
    hexes = [getattr(LIGHT, COLOUR_FIELDS[squares(chip)[3]]) for chip in chips]
    return [[int(h[i:i + 2], 16) for i in (1, 3, 5)] for h in hexes]


def test_against_the_bot_the_tray_keeps_your_hand(page: Page, page_log, site_url: str, wait_ready) -> None:
    """While the bot thinks and after its move the tray shows your chips, never the bot's."""
    page.add_init_script(storage_script({"tessera/v1/settings/theme": "light"}))
    start(page, site_url, wait_ready, "bot:medium")
    if shown_game(page).to_move != 0:   # the bot was drawn to start: wait for its move
        page.wait_for_function("() => document.querySelectorAll('button.move').length === 1", timeout=60_000)
    page.wait_for_function("() => !document.documentElement.dataset.bot")
    game = shown_game(page)
    human, bot = game.to_move, 1 - game.to_move
    points = tray_points(page, 12)
    assert page.evaluate(SAMPLE_TRAY, points) == bottom_left_colours(sorted(game.hands[human])[:12])
    assert bottom_left_colours(sorted(game.hands[bot])[:12]) != bottom_left_colours(sorted(game.hands[human])[:12])
    chip = sorted(game.hands[human])[-1]
    click_hand(page, chip)
    # A free square (when the bot starts, its first chips may lie on h8).
    click_square(page, next(name for name in ("h8", "a1", "p16", "a16", "p1")
                            if game.chip_on[parse_square(name)] is None))
    page.click("button[data-action=draft-play]")
    # The first frame the bot thinks in (or, should it answer at once, the first after its answer).
    thinking = page.wait_for_function(f"""([points, n]) => (document.documentElement.dataset.bot
        || document.querySelectorAll('button.move').length >= n) && ({SAMPLE_TRAY})(points)""",
                                      arg=[points, game.ply + 2], polling="raf", timeout=60_000).json_value()
    assert thinking == bottom_left_colours(sorted(game.hands[human] - {chip})[:12])
    page.wait_for_function("n => !document.documentElement.dataset.bot && "
                           "document.querySelectorAll('button.move').length >= n", arg=game.ply + 2, timeout=60_000)
    final = shown_game(page)
    assert final.to_move == human and len(final.hands[bot]) < len(game.hands[bot])
    assert page.evaluate(SAMPLE_TRAY, points) == bottom_left_colours(sorted(final.hands[human])[:12])
    page_log.assert_no_errors()


def test_a_move_animates_and_a_phone_picks_chips_from_the_sheet(page: Page, site_url: str, wait_ready) -> None:
    """On a phone (390 x 844) the strip under the field opens a sheet of large chips; a chip taken
    from it drops on the field; the move played animates (a frame is left as a screenshot, its
    drawing times printed)."""
    from board_display import SHOTS, shot
    from tessera.games.quadrotone.tray import SHEET_GAP, sheet_layout
    from tessera.games.quadrotone.view import strip_center
    emulate(page, viewport={"width": 390, "height": 844}, touch=True)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(storage_script({"tessera/v1/settings/animation": "normal",
                                         "tessera/v1/settings/sound": "off"}))
    page.goto(site_url)
    wait_ready(page)
    page.click("button[data-action=new-game][data-game=quadrotone]")
    page.click("label[for='ng-opponent-human']")
    page.click("dialog button[data-action=start]")
    page.wait_for_function(f"document.querySelector('{BOARD}') && document.querySelector('{BOARD}')?.dataset.geometry")
    width, height = size(page)
    game = shown_game(page)
    rows = tray_rows(game)
    assert width < 418
    chip = four_looks(game, 1)[0]
    click_at(page, *strip_center(width, height, rows))
    expect(page.locator("[data-draft=note]")).not_to_be_empty()
    shown = QuadrotoneView.tray_chips(game, ViewState())
    layout = sheet_layout((0.0, 0.0, width, height), len(shown))
    assert layout.chip * (1 - 2 * SHEET_GAP) >= 44 and layout.pages > 1
    index = shown.index(chip)
    for _ in range(index // layout.per_page):   # turn the sheet's pages to the chip's
        x, y, w, h = layout.page_buttons()[1]
        click_at(page, x + w / 2, y + h / 2)
    layout = sheet_layout((0.0, 0.0, width, height), len(shown), index // layout.per_page)
    click_at(page, *layout.center(index))
    expect(page.locator("[data-draft=note]")).to_contain_text("Holding")
    click_square(page, "h8")
    page.evaluate("""() => { window.__drawMs = []; const board = document.querySelector('canvas.tessera-board');
        new MutationObserver(() => window.__drawMs.push(+board.dataset.drawMs))
            .observe(board, {attributes: true, attributeFilter: ['data-anim-frames']}); }""")
    page.click("button[data-action=draft-play]")
    page.wait_for_function(f"document.querySelector('{BOARD}')?.dataset.animFrames >= 3")
    shot(page, "quadrotone-phone-move-animating")
    page.wait_for_function("() => document.querySelectorAll('button.move').length === 1")
    assert shown_game(page).chip_at(parse_square("h8")) == chip
    page.wait_for_timeout(2600)
    times = sorted(page.evaluate("window.__drawMs"))
    print(f"\nQuadrotone move animation on a phone: {len(times)} frames, median {times[len(times) // 2]:.1f} ms, "
          f"slowest {times[-1]:.1f} ms (screenshot in {SHOTS})")
    assert len(times) >= 3 and not errors


def test_a_move_made_with_the_keyboard_alone(page: Page, page_log, site_url: str, wait_ready) -> None:
    """Tab to the board; ] takes a chip, R turns it, arrows and Enter drop it, P plays."""
    start(page, site_url, wait_ready, "human")
    game = shown_game(page)
    hand = sorted(game.hands[game.to_move])
    keys_help = page.evaluate(f"document.getElementById(document.querySelector('{BOARD}')"
                              ".getAttribute('aria-describedby')).textContent")
    assert "] and [" in keys_help
    page.focus(BOARD)
    page.keyboard.press("]")
    page.keyboard.press("]")
    note = page.locator("[data-draft=note]")
    expect(note).to_contain_text("Holding")
    page.keyboard.press("r")
    page.keyboard.press("ArrowRight")            # the cursor appears at h8 ...
    page.keyboard.press("ArrowRight")            # ... and moves to i8
    page.keyboard.press("Enter")
    page.keyboard.press("p")
    page.wait_for_function("() => document.querySelectorAll('button.move').length === 1")
    after = shown_game(page)
    assert after.chip_at(parse_square("i8")) == rotate(hand[1], 1)
    page_log.assert_no_errors()


def test_the_wheel_turns_the_chip_held_and_zooms_otherwise(page: Page, page_log, site_url: str, wait_ready) -> None:
    start(page, site_url, wait_ready, "human")
    game = shown_game(page)
    chip = four_looks(game, 1)[0]
    width, height = size(page)
    x, y = square_center(parse_square("h8"), width, height, tray_rows(game))
    box = page.locator(BOARD).bounding_box()
    click_hand(page, chip)
    page.mouse.move(box["x"] + x, box["y"] + y)
    page.mouse.wheel(0, 100)                       # one notch: a quarter turn, no zoom
    page.mouse.wheel(0, 100)
    expect(page.locator("[data-draft=note]")).to_contain_text("Holding")
    assert json.loads(page.get_attribute(BOARD, "data-geometry"))["zoom"] == 1
    click_square(page, "h8")
    page.click("button[data-action=draft-play]")
    page.wait_for_function("() => document.querySelectorAll('button.move').length === 1")
    assert shown_game(page).chip_at(parse_square("h8")) == rotate(chip, 2)
    page.mouse.move(box["x"] + x, box["y"] + y)
    page.mouse.wheel(0, -300)                      # nothing held: the wheel zooms in
    page.wait_for_function(f"JSON.parse(document.querySelector('{BOARD}')?.dataset.geometry).zoom > 1")
    page_log.assert_no_errors()


def test_hard_reads_ahead_while_you_think(page: Page, page_log, site_url: str, wait_ready) -> None:
    """Hard, the strongest level, reads its own moves in the worker while
    the player thinks (a reply among so many cannot be guessed), and its
    next move comes from that reading."""
    start(page, site_url, wait_ready, "bot:hard")
    page.wait_for_function("document.documentElement.dataset.thinker === 'worker'", timeout=60_000)
    for turn in range(2):
        if shown_game(page).to_move != 0:   # the bot was drawn to start: wait for its move
            page.wait_for_function("() => !document.documentElement.dataset.bot && "
                                   "document.querySelectorAll('button.move').length >= 1", timeout=60_000)
        before = page.eval_on_selector_all("button.move", "els => els.length")
        game = shown_game(page)
        chip = sorted(game.hands[game.to_move])[0]
        empty = next(s for s in range(256) if game.chip_on[s] is None)
        page.fill("#move-input", game.move_text(make_place(((chip, 0, empty),))))
        page.press("#move-input", "Enter")
        page.wait_for_function("n => !document.documentElement.dataset.bot && "
                               "document.querySelectorAll('button.move').length >= n + 2", arg=before, timeout=60_000)
        if turn == 0:
            page.wait_for_timeout(3000)   # the player thinks; the worker reads
    stats = page.evaluate("window.tesseraThinker.stats()")
    assert stats["read_ahead"] == stats["pondered"] - 1 >= 1   # each move after the first (the last not yet answered)
    assert stats["fallbacks"] == 0 and stats["errors"] == 0
    assert shown_game(page).chip_at(empty) == chip
    page_log.assert_no_errors()
