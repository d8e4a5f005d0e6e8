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

from saves import storage_script  # noqa: E402
from tessera.core.view import ViewState  # noqa: E402
from tessera.games.quadrotone import Quadrotone  # noqa: E402
from tessera.games.quadrotone.catalog import catalog  # noqa: E402
from tessera.games.quadrotone.chips import rotate  # noqa: E402
from tessera.games.quadrotone.field import parse_square  # noqa: E402
from tessera.games.quadrotone.view import QuadrotoneView, square_center, tray_center, tray_rows  # noqa: E402

BOARD = "canvas.tessera-board"
NO_ANIMATION = storage_script({"tessera/v1/settings/animation": "off", "tessera/v1/settings/sound": "off"})


def shown_game(page: Page) -> Quadrotone:
    """The position on the board, with the hands its seed dealt (the saved record has the seed)."""
    record = page.evaluate("() => JSON.parse(localStorage.getItem('tessera/v1/session/' + "
                           "document.querySelector('.play').dataset.session)).record")
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
    page.add_init_script(NO_ANIMATION)
    page.goto(site_url)
    wait_ready(page)
    page.click("button[data-action=new-game][data-game=quadrotone]")
    page.click(f"label[for='ng-opponent-{opponent}']")
    page.click("dialog button[data-action=start]")
    page.wait_for_function(f"document.querySelector('{BOARD}') && document.querySelector('{BOARD}').dataset.geometry")


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
    assert page.locator("button.move .move-text").first.inner_text() == game.move_text(expected)
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
    page.wait_for_function(f"document.querySelector('{BOARD}') && document.querySelector('{BOARD}').dataset.geometry")
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
    click_hand(page, sorted(other.hands[other.to_move])[0])
    click_square(page, "p16")
    page.click("button[data-action=draft-play]")
    page.wait_for_function("() => document.querySelectorAll('button.move').length === 2")
    final = shown_game(page)
    assert final.to_move == resigner and final.points[resigner] > 0
    credited = final.scores_at_end(Outcome(1 - resigner, "resign"))
    page.click("button[data-action=resign]")
    page.click("dialog[open] button.btn-danger")
    winner_panel = page.locator(f".player-panel[data-seat='{1 - resigner}']")
    expect(winner_panel.locator(".stat-credited dd")).to_have_text(str(credited[1 - resigner]))
    assert credited[1 - resigner] == max(final.points[1 - resigner], final.points[resigner] + 1)
    expect(page.locator(f".player-panel[data-seat='{resigner}'] .stat-credited")).to_have_count(1)
    page_log.assert_no_errors()


def test_scoring_switches_in_the_new_game_dialog(page: Page, page_log, site_url: str, wait_ready) -> None:
    page.add_init_script(NO_ANIMATION)
    page.goto(site_url)
    wait_ready(page)
    page.click("button[data-action=new-game][data-game=quadrotone]")
    for key in ("rotated_patterns", "chains", "fences"):
        expect(page.locator(f"dialog[open] input#ng-{key}")).to_be_checked()
    page.click("dialog[open] label[for='ng-chains']")
    page.click("label[for='ng-opponent-human']")
    page.click("dialog button[data-action=start]")
    page.wait_for_function(f"document.querySelector('{BOARD}') && document.querySelector('{BOARD}').dataset.geometry")
    options = shown_game(page).options
    assert options["chains"] is False and options["fences"] is True and options["rotated_patterns"] is True
    page_log.assert_no_errors()
