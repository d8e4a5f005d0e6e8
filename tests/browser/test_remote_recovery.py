"""Remote play when things go wrong or people are hostile, in the browser (two contexts: two devices).

* The relay restarts and has lost every game (rooms in memory): the pages
  reconnect, one of them hears "lost" and makes the room again from its own
  record, says so, and the game goes on on both.
* Player names are passed on as typed: markup in a name is shown as text
  and never becomes an element, and a right-to-left override in a name is
  kept inside the name (isolated) on every part of the page that shows it.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from board_display import shot
from playwright.sync_api import BrowserContext, Page, expect
from test_remote_play import BOARD, lent_device, moves, play_a_move, second_device, wait_moves, wait_turn

ROOT = Path(__file__).resolve().parents[2]
FSI, PDI = "\u2068", "\u2069"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RelayProcess:
    """``python3 -m tessera relay --port PORT`` (rooms in memory), which a test can restart on the same port."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.process: subprocess.Popen | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "py")}
        self.process = subprocess.Popen([sys.executable, "-m", "tessera", "relay", "--port", str(self.port)],
                                        env=env, stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().strip()
        assert line == f"relay listening on {self.url}", line

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


def start_online(ann: Page, bob: Page, site_url: str, relay: str, wait_ready, ann_name: str, bob_name: str) -> None:
    """Ann starts "A friend online" as White with her name; Bob opens the invite with his."""
    bob.goto(site_url)
    wait_ready(bob)
    bob.evaluate("name => localStorage.setItem('tessera/v1/name', name)", bob_name)
    ann.goto(site_url)
    wait_ready(ann)
    ann.click("button[data-action=new-game][data-game=quadrature]")
    ann.click("label[for='ng-opponent-online']")
    ann.fill("#ng-relay", relay)
    ann.fill("#ng-name", ann_name)
    ann.click("label[for='ng-side-white']")
    ann.click("dialog button[data-action=start]")
    ann.wait_for_selector(BOARD)
    bob.goto(ann.locator("#invite-url").input_value())
    wait_ready(bob)
    bob.wait_for_selector(BOARD)
    expect(ann.locator(".remote-link")).to_have_attribute("data-link", "opponent", timeout=20_000)


def test_a_game_the_relay_lost_comes_back_from_a_page(page: Page, second_context: BrowserContext, site_url: str,
                                                        wait_ready) -> None:
    relay = RelayProcess(free_port())
    try:
        ann, bob = lent_device(page), second_device(second_context)   # both start warm
        start_online(ann, bob, site_url, relay.url, wait_ready, "Ann", "Bob")
        played = []
        for ply in range(3):
            mover = ann if ply % 2 == 0 else bob
            wait_turn(mover)
            played.append(play_a_move(mover))
            wait_moves(ann, ply + 1)
            wait_moves(bob, ply + 1)

        relay.stop()      # every game it held is gone
        relay.start()     # the same address, nothing in it
        restored = "it has it again from this page's record"
        notices = [page.locator(".notice-text").filter(has_text=restored) for page in (ann, bob)]
        ann.wait_for_function(
            "() => [...document.querySelectorAll('.remote-link')].some(e => e.dataset.link === 'opponent')",
            timeout=30_000)
        bob.wait_for_selector(".remote-link[data-link=opponent]", timeout=30_000)
        restorer = ann if notices[0].count() else bob
        expect(restorer.locator(".notice-text").filter(has_text=restored)).to_have_count(1, timeout=10_000)
        shot(restorer, "remote-lost-restored")
        assert moves(ann) == moves(bob) == played
        assert ann.locator(".notice-error").count() == 0 and bob.locator(".notice-error").count() == 0

        wait_turn(bob)            # the game goes on where it was, on both pages
        played.append(play_a_move(bob))
        wait_moves(ann, 4)
        assert moves(ann) == played
        assert ann.errors == [] and bob.errors == []  # type: ignore[attr-defined]
    finally:
        relay.stop()


HOSTILE = '<img src=x onerror="window.pwned=1">'
OVERRIDE = "\u202eBob\u202c the tricky"


def test_player_names_are_text_and_isolated_wherever_they_are_shown(page: Page, second_context: BrowserContext,
                                                                    site_url: str, wait_ready) -> None:
    relay = RelayProcess(free_port())
    try:
        ann, bob = lent_device(page), second_device(second_context)   # both start warm
        start_online(ann, bob, site_url, relay.url, wait_ready, HOSTILE, OVERRIDE)
        # Bob's page shows Ann's name: as text, isolated, no element made of it.
        who = bob.locator(".player-panel[data-presence] .player-who")
        expect(who).to_have_text(FSI + HOSTILE + PDI)
        assert who.evaluate("e => getComputedStyle(e).unicodeBidi") == "isolate"
        assert bob.evaluate("() => document.querySelectorAll('main img, .notices img').length") == 0
        assert bob.evaluate("() => window.pwned") is None
        # Ann's page shows Bob's: his override stays inside his name, in the panel and in the sentences.
        expect(ann.locator(".player-panel[data-presence] .player-who")).to_have_text(FSI + "Bob the tricky" + PDI)
        expect(ann.locator(".remote-link")).to_have_text(FSI + "Bob the tricky" + PDI + " is here.")
        joined = ann.locator(".notice-text").filter(has_text="has joined the game")
        expect(joined).to_have_text(FSI + "Bob the tricky" + PDI + " has joined the game.")
        shot(ann, "remote-names-ann")
        shot(bob, "remote-names-bob")
        # The takeback question names the asker too.
        wait_turn(ann)
        play_a_move(ann)
        wait_moves(bob, 1)
        wait_turn(bob)
        play_a_move(bob)
        wait_moves(ann, 2)
        bob.click("button[data-action=undo]")  # "Ask for takeback"
        question = ann.locator("dialog[open]")
        expect(question).to_contain_text(FSI + "Bob the tricky" + PDI + " asks to take back")
        shot(ann, "remote-names-takeback")
        assert ann.evaluate("() => window.pwned") is None and bob.evaluate("() => window.pwned") is None
        assert ann.errors == [] and bob.errors == []  # type: ignore[attr-defined]
    finally:
        relay.stop()
