"""The keyboard alone: Enter on a choice starts the game, the board has the focus, Tab reaches everything.

The new-game dialog opens with the focus on its first choice; the arrows
change a choice and Enter starts the game as chosen, also when the form has
number fields (a custom Dots size, where the browser's own Enter does
nothing).  After Start the board holds the focus, so arrows play at once.
"""

from __future__ import annotations

import sys

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402

from board_display import BOARD, geometry, live_text, wait_board  # noqa: E402

ACTIVE = "(() => { const a = document.activeElement; return a ? a.tagName + '.' + a.className : ''; })()"


def focused_is_board(page: Page) -> bool:
    return page.evaluate("document.activeElement === document.querySelector('canvas.tessera-board')")


def open_by_keyboard(page: Page, game: str) -> None:
    page.focus(f"button[data-action=new-game][data-game={game}]")
    page.keyboard.press("Enter")
    page.wait_for_selector("dialog[open]")


def test_enter_on_a_choice_starts_the_game_and_the_board_takes_the_focus(page: Page, site_url: str,
                                                                         wait_ready) -> None:
    page.goto(site_url)
    wait_ready(page)
    open_by_keyboard(page, "quadrature")
    assert page.evaluate("document.activeElement.name") == "opponent"
    assert page.evaluate("document.activeElement.value") == "bot:medium"
    page.keyboard.press("ArrowRight")                 # Bot · Hard
    assert page.evaluate("document.activeElement.value") == "bot:hard"
    page.keyboard.press("Tab")                        # the side
    page.keyboard.press("ArrowRight")                 # Black
    assert page.evaluate("document.activeElement.value") == "black"
    page.keyboard.press("Enter")
    wait_board(page)
    page.wait_for_function("() => document.activeElement === document.querySelector('canvas.tessera-board')")
    assert page.is_hidden("dialog[open]") if page.query_selector("dialog[open]") else True
    assert "Hard" in page.text_content(".player-top .player-who")          # the bot took White
    assert geometry(page)["flipped"] is True                              # and Black is near
    # The board has the keyboard: the cursor is on at once and arrows move it.
    page.wait_for_function("s => document.querySelector(s)?.dataset.draws > 1", arg=BOARD)
    # The bot (White) moves first; while it thinks the board takes no moves, so
    # wait for its move (on a busy machine it takes a while) before the keys.
    # Not only for "no bot thinking": that holds too before the bot has begun,
    # and in the one task between the end of its thinking and its move
    # (Session.advance), where the board still takes no keys.
    page.wait_for_function("() => { const d = document.documentElement.dataset;"
                           " return d.turn === '1' && !d.bot; }", timeout=60_000)
    page.keyboard.press("ArrowLeft")
    assert live_text(page)


def test_enter_in_a_dialog_with_number_fields_starts_too(page: Page, site_url: str, wait_ready) -> None:
    """The custom size's two number fields block the browser's implicit submit."""
    page.goto(site_url)
    wait_ready(page)
    open_by_keyboard(page, "dots")
    page.click("label[for='ng-opponent-human']")
    page.click("label[for='ng-size-custom']")
    page.fill("#ng-size-width", "12")
    page.fill("#ng-size-height", "9")
    page.focus("#ng-size-height")
    page.keyboard.press("Enter")
    wait_board(page)
    assert page.get_attribute(BOARD, "data-position").count("/") >= 8        # nine rows
    assert focused_is_board(page)


def test_enter_on_the_field_choice_starts_the_game(page: Page, site_url: str, wait_ready) -> None:
    page.goto(site_url)
    wait_ready(page)
    open_by_keyboard(page, "dots")
    page.click("label[for='ng-opponent-human']")
    page.focus("#ng-size-20x20")
    page.keyboard.press("Space")
    page.keyboard.press("Enter")
    wait_board(page)
    assert focused_is_board(page)


def test_tab_order_reaches_every_control_once(page: Page, site_url: str, wait_ready) -> None:
    """From the page's top, Tab visits the header, the board, the move list as
    one stop (not one per move) and every action, each once, in reading order."""
    page.goto(site_url)
    wait_ready(page)
    page.click("button[data-action=new-game][data-game=quadrature]")
    page.click("label[for='ng-opponent-human']")
    page.click("dialog[open] button[data-action=start]")
    wait_board(page)
    for move in ("e9-e8", "e3-e4", "f9-f8", "f3-f4"):
        page.fill("#move-input", move)
        page.press("#move-input", "Enter")
    page.wait_for_function("document.querySelectorAll('button.move').length === 4")
    page.focus(".skip-link")
    seen = []
    for _ in range(40):
        seen.append(page.evaluate(
            "(() => { const a = document.activeElement;"
            " return a.id || a.dataset.action || a.dataset.nav || a.dataset.ply && 'move' || a.className; })()"))
        page.keyboard.press("Tab")
        if len(seen) > 3 and seen[-1] == seen[0]:
            break
    order = seen
    assert "settings-button" in order
    assert order.count("tessera-board") == 1
    assert order.count("move") == 1                      # the move list is one stop
    for action in ("undo", "resign", "flip", "new-game", "export", "import"):
        assert action in order, (action, order)
    assert order.index("settings-button") < order.index("tessera-board") < order.index("move-input") \
        < order.index("undo"), order
