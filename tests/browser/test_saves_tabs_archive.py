"""Saves across two tabs, the seats an import keeps, continue from here, the archive.

Saved games are made in CPython with the real ``Session`` (tests/browser/saves.py)
and put into ``localStorage`` before the page starts.
"""

from __future__ import annotations

import json
import sys

import pytest

if sys.platform == "emscripten":
    pytest.skip("browser tests run in CPython only", allow_module_level=True)

from playwright.sync_api import BrowserContext, Page, expect  # noqa: E402

from saves import finish_meta, storage_script  # noqa: E402
from tessera.core.seats import Seat  # noqa: E402
from tessera.core.session import Session  # noqa: E402
from tessera.games.quadrature import Quadrature  # noqa: E402

BOARD = "canvas.tessera-board"
OPENING = ["e9-e8", "e3-e4", "e8-e7", "e4-e5", "d9-d8", "f3-f4"]
KEY = "tessera/v1/session/"


def quadrature_save(session_id: str, moves: list[str], seats: list[Seat] | None = None,
                    resign: int | None = None, ended: float = 0.0) -> dict:
    game = Quadrature()
    for text in moves:
        game.push_text(text)
    session = Session(game, seats or [Seat("human"), Seat("human")], session_id,
                      meta={"created": 1_700_000_000_000.0, "choice": {"opponent": "human"}})
    if resign is not None:
        session.resign(resign)
    data = finish_meta(session)
    if session.is_over():
        outcome = session.outcome()
        data["meta"].update({"ended": ended, "updated": ended,
                             "result": {"winner": outcome.winner, "reason": outcome.reason}})
    return data


def put(context: BrowserContext, *saves: dict) -> None:
    """Store the saves before any page of the context starts (once: a reload keeps what the app wrote)."""
    context.add_init_script(storage_script({KEY + save["id"]: json.dumps(save) for save in saves}))


def open_page(context: BrowserContext, site_url: str, hash_text: str, wait_ready) -> Page:
    page = context.new_page()
    page.goto(site_url + hash_text)
    wait_ready(page)
    page.wait_for_selector(BOARD)
    return page


def moves(page: Page) -> list[str]:
    return page.eval_on_selector_all("button.move .move-text", "els => els.map(e => e.textContent)")


def stored(page: Page, session_id: str) -> dict | None:
    raw = page.evaluate("key => localStorage.getItem(key)", KEY + session_id)
    return json.loads(raw) if raw else None


def play_typed(page: Page, move: str, plies: int) -> None:
    page.fill("#move-input", move)
    page.press("#move-input", "Enter")
    page.wait_for_function("n => document.querySelectorAll('button.move').length === n", arg=plies)


def wait_saved(page: Page, session_id: str, plies: int) -> None:
    """Until the save holds ``plies`` moves: a move is saved in a task of its own, just after it shows."""
    page.wait_for_function("([k, n]) => JSON.parse(localStorage.getItem(k)).record.moves.length === n",
                           arg=[KEY + session_id, plies])


# ----- two tabs --------------------------------------------------------------------------

def test_two_tabs_never_overwrite_each_other(context: BrowserContext, site_url: str, wait_ready) -> None:
    """A moves; B is told, takes no move and saves nothing; B loads the newer game;
    then B moves, A keeps its stale game as a separate one: every move is kept."""
    put(context, quadrature_save("tabs1", []))
    tab_a = open_page(context, site_url, "#/play/quadrature/tabs1", wait_ready)
    tab_b = open_page(context, site_url, "#/play/quadrature/tabs1", wait_ready)

    play_typed(tab_a, "e9-e8", 1)
    tab_a.wait_for_function("k => JSON.parse(localStorage.getItem(k)).rev === 1", arg=KEY + "tabs1")
    notice = tab_b.locator("[data-notice=tabs]")
    expect(notice).to_be_visible()
    expect(tab_b.locator(".play")).to_have_class("play is-stale")
    expect(tab_b.locator("#move-input")).to_be_disabled()
    expect(tab_b.locator("#play-status")).to_contain_text("moved on in another tab")   # never "your move" here
    expect(notice).to_contain_text("There it is at ply 1, here at ply 0.")
    assert tab_b.get_attribute(BOARD, "role") == "img"            # the board takes no move
    tab_b.locator("[data-action=flip]").click()                   # a change B would save: refused
    assert stored(tab_b, "tabs1")["record"]["moves"] == ["e9-e8"]
    assert stored(tab_b, "tabs1")["rev"] == 1

    tab_b.click("[data-notice=tabs] [data-action=load-newer]")
    tab_b.wait_for_function("() => document.querySelectorAll('button.move').length === 1")
    expect(tab_b.locator("[data-notice=tabs]")).to_have_count(0)
    play_typed(tab_b, "e3-e4", 2)
    wait_saved(tab_b, "tabs1", 2)
    assert stored(tab_b, "tabs1")["record"]["moves"] == ["e9-e8", "e3-e4"]

    expect(tab_a.locator("[data-notice=tabs]")).to_be_visible()
    expect(tab_a.locator("[data-notice=tabs]")).to_contain_text("There it is at ply 2, here at ply 1.")
    tab_a.click("[data-notice=tabs] [data-action=keep-copy]")
    tab_a.wait_for_function("() => !location.hash.includes('tabs1') && document.querySelector('button.move')")
    copy_id = tab_a.evaluate("location.hash").rsplit("/", 1)[1]
    assert moves(tab_a) == ["e9-e8"]
    assert stored(tab_a, copy_id)["record"]["moves"] == ["e9-e8"]
    assert stored(tab_a, "tabs1")["record"]["moves"] == ["e9-e8", "e3-e4"]   # the newer game is untouched


def test_a_flip_in_another_tab_is_no_conflict(context: BrowserContext, site_url: str, wait_ready) -> None:
    """Only the orientation changed there: this tab plays on and its save goes on top."""
    put(context, quadrature_save("tabs2", []))
    tab_a = open_page(context, site_url, "#/play/quadrature/tabs2", wait_ready)
    tab_b = open_page(context, site_url, "#/play/quadrature/tabs2", wait_ready)
    tab_a.click("[data-action=flip]")
    tab_a.wait_for_function("k => JSON.parse(localStorage.getItem(k)).rev === 1", arg=KEY + "tabs2")
    play_typed(tab_b, "e9-e8", 1)
    wait_saved(tab_b, "tabs2", 1)
    expect(tab_b.locator("[data-notice=tabs]")).to_have_count(0)
    assert stored(tab_b, "tabs2")["rev"] == 2 and stored(tab_b, "tabs2")["record"]["moves"] == ["e9-e8"]
    expect(tab_a.locator("[data-notice=tabs]")).to_be_visible()   # and the flipping tab hears of the move


# ----- import keeps its seats ---------------------------------------------------------------

def import_text(page: Page, text: str) -> None:
    page.click("button[data-action=import]")
    page.fill("#record-paste", text)


def test_import_keeps_the_seats_the_record_names(context: BrowserContext, site_url: str, wait_ready) -> None:
    put(context, quadrature_save("imp1", []))
    page = open_page(context, site_url, "#/play/quadrature/imp1", wait_ready)
    record = json.dumps({"format": "tessera/1", "game": "quadrature", "moves": OPENING[:2],
                         "meta": {"app": "Tessera", "white": "human", "black": "bot:easy"}})
    import_text(page, record)
    expect(page.locator("#import-seat-0")).to_have_value("human")
    expect(page.locator("#import-seat-1")).to_have_value("bot:easy")
    page.click("dialog button[data-action=open-record]")
    page.wait_for_function("() => !location.hash.includes('imp1') && document.querySelectorAll('button.move').length === 2")
    expect(page.locator(".player-panel[data-seat='1'] .player-who")).to_have_text("Bot · Easy")
    session_id = page.evaluate("location.hash").rsplit("/", 1)[1]
    assert stored(page, session_id)["seats"] == [{"kind": "human"}, {"kind": "bot", "level": "easy"}]

    # The player may change them: both sides on this device.
    import_text(page, record)
    page.select_option("#import-seat-1", "human")
    page.click("dialog button[data-action=open-record]")
    page.wait_for_function("id => !location.hash.includes(id)", arg=session_id)
    page.wait_for_function("() => document.querySelectorAll('button.move').length === 2")
    expect(page.locator(".player-panel[data-seat='1'] .player-who")).to_have_text("Player 2")

    # Two bots cannot play here: the dialog says so and opens nothing.
    import_text(page, record)
    page.select_option("#import-seat-0", "bot:hard")
    page.click("dialog button[data-action=open-record]")
    expect(page.locator("dialog .record-error")).to_contain_text("at least one side")


# ----- continue from here --------------------------------------------------------------------

def test_continue_from_an_earlier_position(context: BrowserContext, site_url: str, wait_ready) -> None:
    put(context, quadrature_save("br1", OPENING))
    page = open_page(context, site_url, "#/play/quadrature/br1", wait_ready)
    expect(page.locator(".moves-box [data-action=branch]")).to_be_hidden()
    page.click("[data-nav=prev]")
    page.click("[data-nav=prev]")
    expect(page.locator(".moves-box [data-action=branch]")).to_be_visible()
    page.click(BOARD)   # a click on the board while looking back offers to play on
    offer = page.locator("[data-offer=branch]")
    expect(offer).to_be_visible()
    expect(offer).to_contain_text("ply 4 of 6")
    offer.locator("[data-action=branch-offer]").click()
    page.click("label[for='ng-branch-opponent-bot:easy']")
    page.click("dialog button[data-action=start-branch]")
    page.wait_for_function("() => !location.hash.includes('br1') && document.querySelectorAll('button.move').length === 4")
    assert moves(page) == OPENING[:4]
    expect(page.locator(".branch-note")).to_contain_text("ply 4")
    expect(page.locator(".branch-note a")).to_have_attribute("href", "#/play/quadrature/br1")
    expect(page.locator("#move-input")).to_be_enabled()
    session_id = page.evaluate("location.hash").rsplit("/", 1)[1]
    save = stored(page, session_id)
    assert save["meta"]["branch"] == {"from": "br1", "ply": 4}
    assert save["seats"] == [{"kind": "human"}, {"kind": "bot", "level": "easy"}]
    assert stored(page, "br1")["record"]["moves"] == OPENING   # the original stays as it was
    page.click("button[data-action=export]")
    exported = json.loads(page.input_value("#record-export"))
    assert exported["meta"]["branch"] == {"from": "br1", "ply": 4} and exported["meta"]["black"] == "bot:easy"


# ----- the archive ----------------------------------------------------------------------------

def test_archive_lists_replays_exports_and_deletes(context: BrowserContext, site_url: str, wait_ready) -> None:
    won = quadrature_save("arc-won", OPENING, [Seat("human"), Seat("bot", "easy")], resign=1, ended=2_000.0)
    lost = quadrature_save("arc-lost", OPENING[:3], [Seat("bot", "hard"), Seat("human")], resign=1, ended=3_000.0)
    playing = quadrature_save("arc-playing", OPENING[:2])
    put(context, won, lost, playing)
    page = context.new_page()
    page.goto(site_url + "#/")
    wait_ready(page)
    expect(page.locator("a.home-archive-link")).to_contain_text("(2)")
    page.click("#header-nav a[data-nav=archive]")
    page.wait_for_selector(".archive-list")
    cards = page.locator(".archive-card")
    expect(cards).to_have_count(2)
    expect(cards.nth(0)).to_have_attribute("data-session", "arc-lost")   # the one that ended last first
    expect(cards.nth(0).locator(".archive-result")).to_have_text("White wins · you lost")
    expect(cards.nth(1).locator(".archive-result")).to_have_text("White wins · you won")
    expect(cards.nth(1).locator(".archive-reason")).to_have_text("Black resigned.")
    expect(cards.nth(1).locator(".archive-details")).to_have_text("Bot · Easy · 3 moves")
    expect(cards.nth(1).locator("time")).to_have_attribute("datetime", "1970-01-01T00:00:02.000Z")

    with page.expect_download() as download:
        page.locator(".archive-item").nth(1).locator("[data-action=export-saved]").click()
    record = json.loads(open(download.value.path(), encoding="utf-8").read())
    assert record["moves"] == OPENING and record["result"] == {"winner": 0, "reason": "resign"}
    assert record["meta"]["white"] == "human" and record["meta"]["black"] == "bot:easy"

    cards.nth(1).click()   # the replay: moves and navigation, no play
    page.wait_for_function("() => document.querySelectorAll('button.move').length === 6")
    assert page.evaluate("location.hash") == "#/archive/quadrature/arc-won"
    expect(page.locator(".review-bar")).to_be_visible()
    expect(page.locator("#move-input")).to_be_hidden()
    assert page.get_attribute(BOARD, "role") == "img"
    page.click("[data-nav=first]")
    expect(page.locator(".viewing-note")).to_contain_text("ply 0 of 6")
    page.click(".review-bar [data-action=export]")
    assert json.loads(page.input_value("#record-export"))["moves"] == OPENING
    page.keyboard.press("Escape")
    page.click(".review-bar [data-action=delete-game]")
    page.click("dialog button[data-action=confirm]")
    page.wait_for_selector(".archive-list")
    expect(page.locator(".archive-card")).to_have_count(1)
    assert stored(page, "arc-won") is None and stored(page, "arc-playing") is not None

    page.locator("[data-action=delete-saved]").click()
    page.click("dialog button[data-action=confirm]")
    expect(page.locator(".archive-empty")).to_be_visible()


def test_a_game_that_ends_goes_to_the_archive(context: BrowserContext, site_url: str, wait_ready) -> None:
    """Resigning keeps the game, with its result and when it ended, for the archive."""
    put(context, quadrature_save("arc-end", OPENING[:2]))
    page = open_page(context, site_url, "#/play/quadrature/arc-end", wait_ready)
    page.click("button[data-action=resign]")
    page.click("dialog button[data-action=confirm]")
    page.wait_for_function("k => JSON.parse(localStorage.getItem(k)).meta.over === true", arg=KEY + "arc-end")
    meta = stored(page, "arc-end")["meta"]
    assert meta["result"] == {"winner": 1, "reason": "resign"} and meta["ended"] > 0
    page.goto(site_url + "#/archive")
    expect(page.locator(".archive-card[data-session='arc-end'] .archive-result")).to_have_text("Black wins")


def test_a_finished_game_reviewed_by_the_bot(context: BrowserContext, site_url: str, wait_ready) -> None:
    """In the archive's replay, "Review with the bot" goes through every move
    in slices (the page answers meanwhile), marks the moves that lost the
    most in the move list and lists them, and draws the bot's move at the
    position shown; a mistake in the list leads to its position."""
    from tessera.games.dots import Dots
    game = Dots({"size": "10x10", "start": "empty"})
    for text in ("4-5", "5-5", "6-5", "9-9", "5-4", "1-1", "5-6"):   # red's 1-1 lets 5-5 be taken (5-6 saved it)
        game.push_text(text)
    session = Session(game, [Seat("human"), Seat("bot", "easy")], "rev-1",
                      meta={"created": 1_700_000_000_000.0, "choice": {"opponent": "bot:easy"}})
    session.resign(1)
    done = finish_meta(session)
    done["meta"].update({"ended": 2_000.0, "updated": 2_000.0, "result": {"winner": 0, "reason": "resign"}})
    put(context, done)
    page = open_page(context, site_url, "#/archive/dots/rev-1", wait_ready)
    page.click("[data-action=review-bot]")
    progress = page.locator("[data-review=progress]")
    expect(progress).to_contain_text("The bot reviews the moves")
    page.click("[data-nav=first]")                     # the page stays live while the bot works
    expect(page.locator(".viewing-note")).to_contain_text("ply 0 of 7")
    expect(progress).to_contain_text("Review done", timeout=90_000)
    marked = page.locator("button.move.is-mistake")
    listed = page.locator(".review-mistake")
    assert marked.count() == listed.count() >= 1
    assert "6" in [node.get_attribute("data-ply") for node in listed.all()], "red's 1-1 is a mistake"
    page.locator(".review-mistake[data-ply='6']").click()
    expect(page.locator(".viewing-note")).to_contain_text("ply 5 of 7")
    expect(listed.first).to_contain_text("the bot would play")
    page.screenshot(path="/tmp/tessera-review.png")


def test_archive_rows_have_pictures_and_filters(context: BrowserContext, site_url: str, wait_ready) -> None:
    """Each finished game shows its final position (drawn once in sight); the
    filters by game and by opponent hide the rest, and say when none is left."""
    from tessera.games.dots import Dots
    won = quadrature_save("pic-q", OPENING, [Seat("human"), Seat("bot", "easy")], resign=1, ended=2_000.0)
    game = Dots({"size": "10x10", "start": "empty"})
    for text in ("4-5", "5-5", "6-5"):
        game.push_text(text)
    session = Session(game, [Seat("human"), Seat("human")], "pic-d", meta={"created": 1_700_000_000_000.0})
    session.resign(1)
    dots = finish_meta(session)
    dots["meta"].update({"ended": 3_000.0, "updated": 3_000.0, "result": {"winner": 0, "reason": "resign"}})
    put(context, won, dots)
    page = context.new_page()
    page.goto(site_url + "#/archive")
    wait_ready(page)
    page.wait_for_selector(".archive-list")
    expect(page.locator(".archive-picture svg")).to_have_count(2, timeout=20_000)
    assert page.locator(".archive-item[data-game=dots] .archive-picture svg title").text_content() \
        == "The final position of a game of Dots"
    page.select_option("[data-filter=game]", "dots")
    expect(page.locator(".archive-item:visible")).to_have_count(1)
    expect(page.locator(".archive-item:visible")).to_have_attribute("data-game", "dots")
    page.select_option("[data-filter=opponent]", "bot")
    expect(page.locator(".archive-item:visible")).to_have_count(0)
    expect(page.locator("[data-filter=none]")).to_be_visible()
    page.select_option("[data-filter=game]", "")
    expect(page.locator(".archive-item:visible")).to_have_count(1)
    expect(page.locator(".archive-item:visible")).to_have_attribute("data-game", "quadrature")
    page.select_option("[data-filter=opponent]", "")
    page.screenshot(path="/tmp/tessera-archive.png")
