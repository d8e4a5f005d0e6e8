"""On a phone: dialogs open at their top, Dots suggests 20x20, a big field opens zoomed with an overview.

A 390x844 touch screen.  The new-game dialog used to open scrolled to its
Start button, the opponent and the bot levels out of sight; a 39x32 field
left 9 px between points.
"""

from __future__ import annotations

import sys

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import Page  # noqa: E402

from board_display import BOARD, geometry, shot, wait_board  # noqa: E402
from conftest import emulate, tap, wait_ready  # noqa: E402

PHONE = {"viewport": {"width": 390, "height": 844}, "touch": True, "mobile": True, "device_scale_factor": 2}


@pytest.fixture(params=["en", "ru"])
def phone(request, page: Page, site_url: str):
    emulate(page, **PHONE, locale="ru-RU" if request.param == "ru" else "en-US")
    page.goto(site_url)
    wait_ready(page)
    return page, request.param


def first_choice_in_sight(page: Page) -> None:
    """The dialog is at its top and its first choice (the opponent) is on screen."""
    assert page.evaluate("document.querySelector('dialog[open]').scrollTop") == 0
    dialog = page.locator("dialog[open]").bounding_box()
    first = page.locator("dialog[open] fieldset[data-name=opponent] label").first.bounding_box()
    assert dialog["y"] <= first["y"] and first["y"] + first["height"] <= min(dialog["y"] + dialog["height"], 844)
    active = page.evaluate("document.activeElement.name")
    assert active == "opponent"      # the focus is on the first choice, not on Start at the bottom


@pytest.mark.parametrize("game", ["quadrature", "dots"])
def test_new_game_dialog_opens_at_its_top(phone, game: str) -> None:
    page, lang = phone
    tap(page, f"button[data-action=new-game][data-game={game}]")
    page.wait_for_selector("dialog[open]")
    first_choice_in_sight(page)
    # The dialog is taller than the screen: its end is reached by scrolling.
    assert page.evaluate("(d => d.scrollHeight > d.clientHeight)(document.querySelector('dialog[open]'))")
    shot(page, f"phone-dialog-{game}-{lang}")


def test_dots_suggests_a_small_field_and_a_big_one_opens_zoomed(phone) -> None:
    page, lang = phone
    tap(page, "button[data-action=new-game][data-game=dots]")
    page.wait_for_selector("dialog[open]")
    assert page.evaluate("document.querySelector('input[name=size]:checked').value") == "20x20"
    assert page.is_visible("dialog[open] [data-hint=small-screen]")
    tap(page, "label[for='ng-opponent-human']")
    tap(page, "label[for='ng-size-39x32']")
    tap(page, "dialog[open] button[data-action=start]")
    wait_board(page)
    g = geometry(page)
    assert g["zoom"] > 1.5 and g["spacing"] >= 20        # points far enough apart to tap
    # Zoomed around the centre of the field: the start cross (20-16) is in view.
    centre_x = g["x"] + 19 * g["spacing"]
    centre_y = g["y"] + (32 - 16) * g["spacing"]
    assert 0 < centre_x < g["width"] and 0 < centre_y < g["height"]
    overview = page.locator(".board-overview")
    assert overview.is_visible()
    shot(page, f"phone-dots-zoomed-{lang}")
    # A tap on the overview's lower-left corner moves the view to the field's lower-left corner.
    box = overview.bounding_box()
    tap(page, (box["x"] + 3, box["y"] + box["height"] - 3))
    page.wait_for_function("s => JSON.parse(document.querySelector(s)?.dataset.geometry).panX === 0", arg=BOARD)
    g = geometry(page)
    assert g["panY"] == pytest.approx(g["height"] - g["height"] * g["zoom"])
    frame = page.locator(".board-overview-view").bounding_box()
    assert frame["x"] == pytest.approx(box["x"], abs=3)
    assert frame["y"] + frame["height"] == pytest.approx(box["y"] + box["height"], abs=3)
    shot(page, f"phone-dots-overview-moved-{lang}")
    # Fit shows the whole field, and the overview goes away.
    tap(page, "button[data-action=zoom-fit]")
    page.wait_for_function("s => JSON.parse(document.querySelector(s)?.dataset.geometry).zoom === 1", arg=BOARD)
    assert not overview.is_visible()


def test_a_small_field_opens_unzoomed(phone) -> None:
    page, _ = phone
    tap(page, "button[data-action=new-game][data-game=dots]")
    page.wait_for_selector("dialog[open]")
    tap(page, "label[for='ng-opponent-human']")
    tap(page, "dialog[open] button[data-action=start]")      # 20x20, as suggested
    wait_board(page)
    g = geometry(page)
    assert g["zoom"] == 1 and g["spacing"] >= 12
    assert not page.locator(".board-overview").is_visible()


def test_touch_confirmation_is_offered_on_a_phone(phone) -> None:
    page, _ = phone
    tap(page, "#settings-button")
    page.wait_for_selector("dialog[open]")
    assert page.is_visible("#setting-confirm-touch")
    first_focus = page.evaluate("document.activeElement.name")
    assert first_focus == "setting-theme"
    assert page.evaluate("document.querySelector('dialog[open]').scrollTop") == 0
