"""Playing a friend by link, with no server: two browsers (two contexts),
a game played to its end by links, an older link said to be older, a link
with another history refused, and a link opened offline."""

from __future__ import annotations

import sys

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402

from saves import QUIET  # noqa: E402
from service_worker import wait_controlled  # noqa: E402

BOARD = "canvas.tessera-board"


def device(context: BrowserContext, site_url: str, wait_ready) -> Page:
    """A device: a page of a lent context (each device its own storage), the home page open."""
    context.add_init_script(QUIET)
    page = context.new_page()
    page.goto(site_url)
    wait_ready(page)
    return page


def plies(page: Page) -> int:
    return page.locator("button.move").count()


def play(page: Page, text: str) -> None:
    count = plies(page)
    page.fill("#move-input", text)
    page.press("#move-input", "Enter")
    page.wait_for_function("n => document.querySelectorAll('button.move').length > n", arg=count)


def the_link(page: Page) -> str:
    field = page.locator("[data-link=url]")
    expect(field).to_be_visible()
    return field.input_value()


def open_link(page: Page, url: str, wait_ready) -> None:
    """As a link opened from a message: a page load of its address."""
    page.goto("about:blank")
    page.goto(url)
    wait_ready(page)


def test_a_whole_game_by_links(context: BrowserContext, second_context: BrowserContext, site_url: str,
                               wait_ready) -> None:
    ann = device(context, site_url, wait_ready)
    bob = device(second_context, site_url, wait_ready)
    ann.click("button[data-action=new-game][data-game=quadrature]")
    ann.click("label[for='ng-opponent-link']")
    ann.click("label[for='ng-side-white']")
    ann.click("dialog button[data-action=start]")
    ann.wait_for_selector(BOARD)
    expect(ann.locator("[data-link=text]")).to_contain_text("You move first")
    play(ann, "e9-e8")
    expect(ann.locator("[data-link=text]")).to_contain_text("Send this link")
    first = the_link(ann)
    assert "#/link/1" in first

    open_link(bob, first, wait_ready)                      # Bob's device: the game is new here
    bob.wait_for_selector(BOARD)
    assert plies(bob) == 1
    expect(bob.locator(".player-bottom")).to_contain_text("You")
    expect(bob.locator("[data-link=text]")).to_contain_text("Your move")
    play(bob, "e3-e4")
    reply = the_link(bob)

    open_link(ann, reply, wait_ready)                      # Ann's device: one move on
    ann.wait_for_function("() => document.querySelectorAll('button.move').length === 2")
    play(ann, "e8-e7")
    second = the_link(ann)

    open_link(bob, first, wait_ready)                      # an older link: Bob's game is shown as it is
    bob.wait_for_function("() => document.querySelectorAll('button.move').length === 2")
    expect(bob.locator("#notices")).to_contain_text("older than your game")

    open_link(bob, second, wait_ready)
    bob.wait_for_function("() => document.querySelectorAll('button.move').length === 3")
    bob.click("button[data-action=resign]")
    bob.click("dialog[open] button[data-action=confirm]")
    expect(bob.locator("#play-status")).to_contain_text("White wins")
    final = the_link(bob)
    open_link(ann, final, wait_ready)                       # the resignation travels too
    expect(ann.locator("#play-status")).to_contain_text("White wins", timeout=30_000)
    ann.goto(site_url + "#/archive")
    ann.reload()
    wait_ready(ann)
    expect(ann.locator(".archive-item")).to_have_count(1)
    expect(ann.locator(".archive-item .archive-details")).to_contain_text("A friend, by link")
    ann.screenshot(path="/tmp/tessera-link-archive.png")


def test_a_link_that_rewrites_the_game_is_refused_and_one_opens_offline(context: BrowserContext, site_url: str,
                                                                         wait_ready) -> None:
    ann = device(context, site_url, wait_ready)
    ann.click("button[data-action=new-game][data-game=quadrature]")
    ann.click("label[for='ng-opponent-link']")
    ann.click("label[for='ng-side-white']")
    ann.click("dialog button[data-action=start]")
    ann.wait_for_selector(BOARD)
    play(ann, "e9-e8")
    link = the_link(ann)
    link_id = ann.evaluate("""() => Object.keys(localStorage).filter(k => k.startsWith('tessera/v1/session/'))
        .map(k => JSON.parse(localStorage.getItem(k)).meta.link.id)[0]""")
    # Another history under the same name: made as a page of the friend would make it.
    forged = ann.evaluate("""([id]) => {
        const json = JSON.stringify({id, g: 'quadrature', o: {first: 'white'}, s: 0, m: ['d9-d8', 'e3-e4'], by: 1});
        return json; }""", [link_id])
    import base64
    import json as jsonlib
    import zlib
    data = jsonlib.loads(forged)
    kept = ann.evaluate("""() => Object.keys(localStorage).filter(k => k.startsWith('tessera/v1/session/'))
        .map(k => JSON.parse(localStorage.getItem(k)).record)[0]""")
    data.update({"o": kept["options"], "s": kept["seed"]})
    token = "1" + base64.urlsafe_b64encode(zlib.compress(jsonlib.dumps(data).encode())).decode().rstrip("=")
    base = link.split("#", 1)[0]
    open_link(ann, f"{base}#/link/{token}", wait_ready)
    refused = ann.locator(".link-refused")
    expect(refused).to_contain_text("changes moves already played")
    ann.screenshot(path="/tmp/tessera-link-refused.png")
    ann.click("[data-action=open-kept]")
    ann.wait_for_function("() => document.querySelectorAll('button.move').length === 1")
    damaged = link[:-12]
    open_link(ann, damaged, wait_ready)
    expect(ann.locator(".link-refused")).to_be_visible()

    wait_controlled(ann)
    context.set_offline(True)
    try:
        open_link(ann, link, wait_ready)                    # offline: the link still opens the game
        ann.wait_for_function("() => document.querySelectorAll('button.move').length === 1")
    finally:
        context.set_offline(False)
