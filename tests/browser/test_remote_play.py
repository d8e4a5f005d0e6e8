"""Two people on two devices play through a real relay (two browser contexts: two storages).

Ann starts "A friend online" from the new-game dialog and gets an invite
link; Bob opens it, and each sees the other's moves, name and presence; a
reload rejoins where it was; a takeback asked and allowed, a resignation.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from board_display import shot
from playwright.sync_api import Browser, BrowserContext, Page, expect

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "py"))

from conftest import SiteServer, emulate  # noqa: E402
from tessera.core.registry import game_class  # noqa: E402

BOARD = "canvas.tessera-board"


@pytest.fixture
def relay_url():
    """``python3 -m tessera relay --port 0``, as a person runs it; its first line says where."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "py")}
    process = subprocess.Popen([sys.executable, "-m", "tessera", "relay", "--port", "0"], env=env,
                               stdout=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline().strip()
        assert line.startswith("relay listening on ws://"), line
        yield line.rsplit(" ", 1)[1]
    finally:
        process.terminate()
        process.wait(10)


@pytest.fixture
def contexts(browser: Browser):
    """Each device is a browser context of its own (its own storage); all closed after the test."""
    made: list = []
    yield made
    for context in made:
        context.close()


def device(browser: Browser, lang: str = "en", contexts: list | None = None) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=lang)
    if contexts is not None:
        contexts.append(context)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def lent_device(page: Page, lang: str = "en") -> Page:
    """``device`` on the lent page (a warm start): for a test with one device."""
    emulate(page, viewport={"width": 1280, "height": 900}, locale=lang)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def second_device(context: BrowserContext, lang: str = "en") -> Page:
    """The second device of a test of two: a page of the second lent context (a warm start)."""
    return lent_device(context.new_page(), lang)


def moves(page: Page) -> list[str]:
    return page.eval_on_selector_all("button.move .move-text", "els => els.map(e => e.textContent)")


def play_a_move(page: Page) -> str:
    """Type a legal move of the position shown (what a player would type)."""
    game = game_class("quadrature")(setup=page.get_attribute(BOARD, "data-position"))
    text = game.move_text(sorted(game.legal_moves(), key=game.move_text)[0])
    page.fill("#move-input", text)
    page.press("#move-input", "Enter")
    return text


def wait_moves(page: Page, count: int) -> None:
    page.wait_for_function("n => document.querySelectorAll('button.move').length === n", arg=count,
                           timeout=20_000)


def wait_turn(page: Page) -> None:
    page.wait_for_selector(".play-status.is-yours", timeout=20_000)


def hurry_until(page: Page, condition: str, step_ms: int = 1_000, steps: int = 30) -> None:
    """Move the page's clock (installed before its ``goto``) on a second at a time until
    ``condition`` holds: for what the page says only after a while (a friend away 5 s)."""
    for _ in range(steps):
        if page.evaluate(condition):
            return
        page.clock.fast_forward(step_ms)
        page.wait_for_timeout(50)
    assert page.evaluate(condition), condition


def test_two_devices_play_through_the_relay(page: Page, second_context: BrowserContext, browser: Browser,
                                            site_url: str, relay_url: str, wait_ready, contexts: list) -> None:
    ann, bob = lent_device(page), second_device(second_context)   # both start warm
    ann.clock.install()    # Ann's page is told her friend left after 5 s of its time: hurry_until
    ann.goto(site_url)
    wait_ready(ann)
    ann.click("button[data-action=new-game][data-game=quadrature]")
    ann.click("label[for='ng-opponent-online']")
    expect(ann.locator("#ng-relay")).to_be_visible()
    ann.fill("#ng-relay", "http://not-a-relay")
    ann.click("dialog button[data-action=start]")
    expect(ann.locator("#ng-relay-error")).to_contain_text("ws://")     # said in the dialog, nothing started
    ann.fill("#ng-relay", relay_url)
    ann.fill("#ng-name", "Ann")
    ann.click("label[for='ng-side-white']")
    ann.click("dialog button[data-action=start]")
    ann.wait_for_selector(BOARD)
    invite = ann.locator("#invite-url")
    expect(invite).to_have_value(f"{site_url.rstrip('/')}/#/join/" + relay_url.replace(":", "%3A").replace("/", "%2F")
                                 + "/" + invite.input_value().split("/")[-2] + "/" + invite.input_value().split("/")[-1])
    expect(ann.locator(".remote-link")).to_have_attribute("data-link", "waiting")
    shot(ann, "remote-ann-invite")

    invite_link = invite.input_value()
    bob.goto(invite_link)
    wait_ready(bob)
    bob.wait_for_selector(BOARD)
    expect(bob.locator(".player-panel[data-presence=online] .player-who")).to_have_text("\u2068Ann\u2069")  # isolated
    expect(ann.locator(".remote-link")).to_have_attribute("data-link", "opponent")
    expect(ann.locator("#invite-url")).to_be_hidden()
    assert ann.get_attribute(BOARD, "data-position") == bob.get_attribute(BOARD, "data-position")

    # Carl watches with the spectators' link: the game, and nothing to play.
    carl = device(browser, contexts=contexts)
    carl.goto(ann.locator("#watch-url").input_value())
    wait_ready(carl)
    carl.wait_for_selector(".remote-link[data-link=watching]", timeout=20_000)
    expect(carl.locator("#move-input")).to_be_hidden()
    expect(carl.locator("button[data-action=resign]")).to_be_hidden()

    # White (Ann) moves first; each move shows on the other device.
    played = []
    for ply in range(4):
        mover = ann if ply % 2 == 0 else bob
        wait_turn(mover)
        played.append(play_a_move(mover))
        wait_moves(ann, ply + 1)
        wait_moves(bob, ply + 1)
    assert moves(ann) == moves(bob) == played
    wait_moves(carl, 4)
    assert moves(carl) == played
    expect(carl.locator(".play-status")).to_have_text("White to move")
    shot(bob, "remote-bob-playing")
    shot(carl, "remote-carl-watching")
    carl.close()

    # Bob reloads: his game is saved here and rejoins (a moment away is not worth a notice).
    bob.reload()
    wait_ready(bob)
    bob.wait_for_selector(".remote-link[data-link=opponent]", timeout=20_000)
    assert moves(bob) == played
    # Bob closes the page: Ann is told he left; he opens the invite again: his saved game, and Ann hears he is back.
    context = bob.context
    bob.close()
    hurry_until(ann, "document.querySelector('.remote-link')?.dataset.link === 'waiting'")
    expect(ann.locator(".player-panel[data-presence=offline]")).to_have_count(1)
    shot(ann, "remote-ann-friend-away")
    bob = context.new_page()
    bob.errors = []   # type: ignore[attr-defined]
    bob.goto(invite_link)
    wait_ready(bob)
    bob.wait_for_selector(".remote-link[data-link=opponent]", timeout=20_000)
    assert moves(bob) == played
    expect(ann.locator(".notice-text").filter(has_text="back")).to_have_count(1, timeout=10_000)

    # Ann asks to take her last move back (and Bob's reply to it goes too); Bob allows it.
    wait_turn(ann)
    ann.click("button[data-action=undo]")     # "Ask for takeback" in a remote game
    bob.click("dialog button[data-action=accept-takeback]")
    wait_moves(ann, 2)
    wait_moves(bob, 2)
    assert moves(ann) == moves(bob) == played[:2]

    # Ann plays again, then Bob resigns; both see the result.
    wait_turn(ann)
    play_a_move(ann)
    wait_moves(bob, 3)
    bob.click("button[data-action=resign]")
    bob.click("dialog button.btn-danger, dialog button[data-action=confirm]")
    ann.wait_for_selector(".play-status.is-over", timeout=20_000)
    expect(ann.locator(".play-status")).to_contain_text("resign")
    shot(ann, "remote-ann-over")
    assert ann.errors == [] and bob.errors == []       # type: ignore[attr-defined]


def test_a_broken_invite_and_an_unreachable_relay_are_said(page: Page, site_url: str, wait_ready) -> None:
    page = lent_device(page, "ru")
    page.goto(site_url + "#/join/%E0%A4%A/room/secret")
    wait_ready(page)
    expect(page.locator(".join-status.is-error")).to_be_visible()
    page.goto(site_url + "#/join/ws%3A%2F%2F127.0.0.1%3A9/room/secret")
    page.reload()
    wait_ready(page)
    expect(page.locator(".join-status.is-error")).to_contain_text("127.0.0.1:9", timeout=20_000)
    shot(page, "remote-unreachable-ru")


def test_an_unreachable_relay_keeps_the_dialog_and_offers_play_by_link(page: Page, site_url: str,
                                                                        wait_ready) -> None:
    """No relay answers: the dialog stays open with every choice, says what to do, and one click
    starts the same game by link instead (no server needed)."""
    page = lent_device(page, "en")
    page.goto(site_url)
    wait_ready(page)
    page.click("button[data-action=new-game][data-game=quadrature]")
    page.click("label[for='ng-opponent-online']")
    page.fill("#ng-relay", "ws://127.0.0.1:9")
    page.click("label[for='ng-side-white']")
    page.click("label[for='ng-time_total-3']")
    page.click("dialog button[data-action=start]")
    problem = page.locator("#ng-relay-problem")
    expect(problem).to_contain_text("127.0.0.1:9", timeout=20_000)
    expect(problem).to_contain_text("play by link")
    expect(page.locator("dialog[open]")).to_be_visible()                   # nothing lost
    expect(page.locator("#ng-side-white")).to_be_checked()
    expect(page.locator("#ng-time_total-3")).to_be_checked()
    expect(page.locator("dialog button[data-action=start]")).to_be_enabled()
    shot(page, "remote-relay-problem")
    page.fill("#ng-relay", "ws://127.0.0.1:10")                              # editing the address clears it
    expect(problem).to_be_hidden()
    page.click("dialog button[data-action=start]")
    expect(problem).to_be_visible(timeout=20_000)
    page.click("button[data-action=by-link-instead]")
    page.wait_for_selector(BOARD)
    expect(page.locator("dialog[open]")).to_have_count(0)
    expect(page.locator("[data-link=text]")).to_contain_text("You move first")
    expect(page.locator(".player-clock").first).to_contain_text("3:00")
    assert page.errors == []                                                # type: ignore[attr-defined]


def test_a_site_built_with_a_relay_offers_it(browser: Browser, tmp_path: Path, wait_ready, contexts: list) -> None:
    """``./build.sh build --relay wss://...``: the dialog starts with that relay; a site naming none says
    what to do instead of guessing an address."""
    out = tmp_path / "site"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_site.py"), str(out), "--relay",
                    "wss://relay.example.org/play"], check=True, capture_output=True)
    page_text = (out / "index.html").read_text(encoding="utf-8")
    assert 'content="[&quot;wss://relay.example.org/play&quot;]"' in page_text
    bad = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_site.py"), str(tmp_path / "bad"),
                          "--relay", "https://x\"><script>"], capture_output=True, text=True)
    assert bad.returncode != 0 and "not a relay address" in (bad.stdout + bad.stderr)
    server = SiteServer(out)
    try:
        page = device(browser, "en", contexts)
        page.goto(server.url)
        wait_ready(page)
        page.click("button[data-action=new-game][data-game=quadrature]")
        page.click("label[for='ng-opponent-online']")
        assert page.input_value("#ng-relay") == "wss://relay.example.org/play"
        assert page.eval_on_selector_all("#ng-relays option", "els => els.map(e => e.value)") == [
            "wss://relay.example.org/play"]
        assert page.errors == []                                            # type: ignore[attr-defined]
    finally:
        server.stop()


def seconds(text: str) -> float:
    minutes, _, rest = text.strip().partition(":")
    return int(minutes) * 60 + float(rest)


def test_the_relays_clock_shows_on_both_pages(page: Page, second_context: BrowserContext, site_url: str,
                                              relay_url: str, wait_ready) -> None:
    """3 min a side: no clock runs until the friend comes, nor before a side's first move; after each
    side's first move White's runs on both pages, and after White's next move Black's runs on both;
    both pages show the same times, give or take a second."""
    ann, bob = lent_device(page), second_device(second_context)   # both start warm
    ann.goto(site_url)
    wait_ready(ann)
    ann.click("button[data-action=new-game][data-game=quadrature]")
    ann.click("label[for='ng-opponent-online']")
    ann.fill("#ng-relay", relay_url)
    ann.click("label[for='ng-side-white']")
    ann.click("label[for='ng-time_total-3']")
    ann.click("dialog button[data-action=start]")
    ann.wait_for_selector("#invite-url")
    expect(ann.locator(".remote-link")).to_have_attribute("data-link", "waiting")
    expect(ann.locator(".player-clock.is-running")).to_have_count(0)      # the relay waits for both
    bob.goto(ann.locator("#invite-url").input_value())
    wait_ready(bob)
    white = ".player-panel[data-seat='0'] .player-clock"
    wait_turn(ann)
    play_a_move(ann)                                                      # the first moves: no clock yet
    wait_moves(bob, 1)
    expect(bob.locator(".player-clock.is-running")).to_have_count(0)
    wait_turn(bob)
    play_a_move(bob)
    for page in (ann, bob):
        page.wait_for_selector(white + ".is-running", timeout=20_000)
    wait_turn(ann)
    play_a_move(ann)
    black = ".player-panel[data-seat='1'] .player-clock"
    for page in (ann, bob):
        page.wait_for_selector(black + ".is-running", timeout=20_000)
        expect(page.locator(white + ".is-running")).to_have_count(0)
    times = [seconds(page.text_content(white + " .clock-main") or "") for page in (ann, bob)]
    assert 170 < times[0] <= 180 and abs(times[0] - times[1]) <= 1.5, times
    shot(bob, "remote-bob-clock")
