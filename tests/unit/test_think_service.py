"""The bots' worker service, pondering, and a seat's bot asking a thinker first."""

from __future__ import annotations

import asyncio
import json
from typing import Any, Callable

import pytest

from tessera.bots.base import Bot
from tessera.bots.clock import Budget
from tessera.bots.ponder import FrozenClock, Ponder, PonderStats, ponder_match_game
from tessera.bots.registry import helpers_for, levels_for, make_bot, make_level_bot
from tessera.core.registry import available_ids
from tessera.bots.service import ThinkService
from tessera.bots import thinker
from tessera.core.record import Record
from tessera.core.seats import BotParticipant
from tessera.core.session import Seat, Session
from tessera.games.quadrature import Quadrature

OPENING = ["e9-e8", "e3-e4", "e8-e7", "e4-e5"]
BOT = {"name": "alphabeta", "seed": 5, "movetime_ms": 0, "params": {"max_depth": 2}}
"""No time limit: the search is the same on any machine."""


def record(moves: list[str]) -> dict[str, Any]:
    return Record.from_game(played(moves)).to_json()


def played(moves: list[str]) -> Quadrature:
    game = Quadrature(seed=3)
    for text in moves:
        game.push_text(text)
    return game


def run(service: ThinkService, limit: int = 10_000) -> list[dict[str, Any]]:
    """Step the service until it is idle; every message it sent."""
    out: list[dict[str, Any]] = []
    for _ in range(limit):
        if not service.busy():
            break
        text = service.step(5.0)
        out += json.loads(text) if text else []
    return out


def ask(service: ThinkService, message: dict[str, Any]) -> list[dict[str, Any]]:
    text = service.receive(json.dumps(message))
    return json.loads(text) if text else []


def test_a_move_request_answers_the_bots_own_move() -> None:
    """The service's move is the one the same bot finds on the same position, in notation."""
    service = ThinkService()
    ask(service, {"type": "move", "id": 1, "key": "a", "bot": BOT, "record": record(OPENING)})
    answers = run(service)
    expected = make_bot("alphabeta", 5, 0, max_depth=2).choose(played(OPENING))
    assert answers == [{"type": "move", "id": 1, "move": played(OPENING).move_text(expected),
                        "nodes": answers[0]["nodes"], "depth": 2, "ms": answers[0]["ms"], "pondered": False,
                        "read_ahead": False}]
    assert answers[0]["nodes"] > 0


def test_the_position_goes_on_from_the_last_one() -> None:
    """A key's next request plays only the new moves on the position it kept, and a take-back pops."""
    service = ThinkService()
    ask(service, {"type": "move", "id": 1, "key": "a", "bot": BOT, "record": record(OPENING[:2])})
    run(service)
    kept = service.keyed["a"].game
    ask(service, {"type": "move", "id": 2, "key": "a", "bot": BOT, "record": record(OPENING)})
    run(service)
    assert service.keyed["a"].game is kept and kept.ply == 4
    ask(service, {"type": "move", "id": 3, "key": "a", "bot": BOT, "record": record(OPENING[:1])})
    assert run(service)[0]["id"] == 3
    assert service.keyed["a"].game is kept and kept.position() == played(OPENING[:1]).position()


def test_a_cancel_stops_the_search_and_no_answer_comes() -> None:
    """A cancelled request is acknowledged, its search stops, and it is never answered."""
    service = ThinkService()
    deep = dict(BOT, params={"max_depth": 6})
    ask(service, {"type": "move", "id": 7, "key": "a", "bot": deep, "record": record(OPENING)})
    service.step(1.0)
    assert service.busy()
    assert ask(service, {"type": "cancel", "id": 7}) == [{"type": "cancelled", "id": 7}]
    assert not service.busy() and run(service) == []


def test_a_newer_request_of_a_key_replaces_the_older() -> None:
    """One search per bot: asking again for the same key cancels the first request."""
    service = ThinkService()
    deep = dict(BOT, params={"max_depth": 6})
    ask(service, {"type": "move", "id": 1, "key": "a", "bot": deep, "record": record(OPENING)})
    service.step(1.0)
    assert ask(service, {"type": "move", "id": 2, "key": "a", "bot": BOT, "record": record(OPENING)}) \
        == [{"type": "cancelled", "id": 1}]
    assert [m["id"] for m in run(service)] == [2]


def test_bad_requests_are_answered_with_errors() -> None:
    """Bad JSON, an unknown request and an illegal move are errors, and the key keeps no half position."""
    service = ThinkService()
    assert ask(service, {"type": "dance", "id": 4})[0]["type"] == "error"
    assert json.loads(service.receive("{not json"))[0]["type"] == "error"
    bad = record(OPENING)
    bad["moves"] = OPENING + ["a1-a9"]
    answer = ask(service, {"type": "move", "id": 5, "key": "a", "bot": BOT, "record": bad})
    assert answer[0]["type"] == "error" and answer[0]["id"] == 5
    assert service.keyed["a"].game is None
    ask(service, {"type": "move", "id": 6, "key": "a", "bot": BOT, "record": record(OPENING)})
    assert run(service)[0]["move"]


def test_a_ponder_hit_answers_from_the_reading() -> None:
    """After the expected reply, the answer comes from the ponder and is the bot's own move there."""
    service = ThinkService()
    ask(service, {"type": "ponder", "key": "a", "bot": BOT, "record": record(OPENING)})
    assert run(service) == []   # a ponder answers nothing
    expected = service.keyed["a"].ponder.expected
    reply = played(OPENING).move_text(expected)
    ask(service, {"type": "move", "id": 9, "key": "a", "bot": BOT, "record": record(OPENING + [reply])})
    answer = run(service)[0]
    assert answer["pondered"] is True
    fresh = make_bot("alphabeta", 5, 0, max_depth=2).choose(played(OPENING + [reply]))
    assert answer["move"] == played(OPENING + [reply]).move_text(fresh)


def test_a_ponder_miss_searches_afresh() -> None:
    """Any other reply drops the ponder."""
    service = ThinkService()
    ask(service, {"type": "ponder", "key": "a", "bot": BOT, "record": record(OPENING)})
    run(service)
    expected = played(OPENING).move_text(service.keyed["a"].ponder.expected)
    other = next(t for t in played(OPENING).sorted_legal_texts() if t != expected)
    ask(service, {"type": "move", "id": 2, "key": "a", "bot": BOT, "record": record(OPENING + [other])})
    assert run(service)[0]["pondered"] is False
    ask(service, {"type": "ponder", "key": "a", "bot": BOT, "record": record(OPENING)})
    ask(service, {"type": "stop", "key": "a"})
    assert service.keyed["a"].ponder is None and not service.busy()


def test_a_frozen_clock_stands_still_until_started() -> None:
    """A budget on a frozen clock is never spent before the start, and counts its whole time after it."""
    now = [100.0]
    clock = FrozenClock(lambda: now[0])
    budget = Budget(500, clock=clock)
    now[0] += 60.0
    assert not budget.spent()
    clock.start()
    now[0] += 0.4
    assert not budget.spent()
    now[0] += 0.2
    assert budget.spent()


def test_a_ponder_gives_the_bot_its_clock_back() -> None:
    """Pondering swaps the bot's clock for a frozen one and restores it after a hit or a drop."""
    bot = make_bot("alphabeta", 1, 0, max_depth=2)
    ponder = Ponder(bot, played(OPENING), make_bot("alphabeta", 2, 0, max_depth=1))
    while not ponder.run(5.0):
        pass
    assert isinstance(bot.clock, FrozenClock)
    ponder.drop()
    assert bot.clock is Bot.clock


def test_a_pondering_match_plays_to_the_end() -> None:
    """``match --ponder``: the game ends and every ponderer's move is a hit or a miss."""
    game = played([])
    bots = [make_bot("alphabeta", 1, 0, max_depth=1), make_bot("greedy", 2, 0)]
    stats = PonderStats()
    ponder_match_game(game, bots, 0, lambda seed, ms: make_bot("alphabeta", seed, 0, max_depth=1), stats)
    assert game.is_over()
    assert stats.hits + stats.misses == (game.ply - 1) // 2


def test_a_bot_that_expects_a_reply_ponders_after_it_without_guessing() -> None:
    """A bot whose last search says what reply it expects (``expected_reply``)
    ponders after that reply at once: the predictor never searches."""
    class Refusing(type(make_bot("greedy", 0, 0))):  # type: ignore[misc]
        def search(self, game: Any) -> Any:
            raise AssertionError("the predictor searched")

    class Expecting(type(make_bot("alphabeta", 0, 0))):  # type: ignore[misc]
        def expected_reply(self, game: Any) -> Any:
            return game.legal_moves()[-1]

    position = played(OPENING)
    ponder = Ponder(Expecting(1, 0, max_depth=1), position, Refusing(2, 0))
    while not ponder.run(5.0):
        pass
    assert ponder.guessed_by_bot and ponder.expected == position.legal_moves()[-1]
    assert Ponder(make_bot("alphabeta", 1, 0, max_depth=1), position, make_bot("greedy", 2, 0)).guessed_by_bot is False


def test_the_dots_reader_expects_the_reply_its_reading_found() -> None:
    """The Dots reader (hard, master) keeps its best line's reply to the move
    it chose: a legal move of the position after that move, and nothing for
    any other position."""
    from tessera.games.dots.bench import _fight

    levels_for("dots")   # registers its bots
    for name in ("dots_reader", "dots_master"):
        game = _fight("20x20", 40, 300)
        bot = make_bot(name, 1, 0, max_nodes=3000)
        move = bot.choose(game)
        assert bot.expected_reply(game) is None   # before its move
        game.push(move)
        reply = bot.expected_reply(game)
        assert reply is not None and game.is_legal(reply), name
        other = game.copy()
        other.pop()
        other.push(next(m for m in other.legal_moves() if m != move))
        assert bot.expected_reply(other) is None


def test_a_bot_that_reads_ahead_guesses_no_reply() -> None:
    """A bot with ``read_ahead`` steps reads them on the opponent's time
    instead of guessing: no reply is a hit, and ``match --ponder`` counts
    each as read ahead."""
    class ReadingAhead(type(make_bot("greedy", 0, 0))):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.readings: list[int] = []

        def read_ahead(self, game: Any) -> Any:
            def steps() -> Any:
                self.readings.append(game.ply)
                yield
            return steps()

    reader = ReadingAhead(1, 0)
    ponder = Ponder(reader, played(OPENING), make_bot("alphabeta", 2, 0, max_depth=1))
    while not ponder.run(5.0):
        pass
    assert ponder.reading_ahead and ponder.expected is None and reader.readings == [len(OPENING)]
    game = played([])
    stats = PonderStats()
    ponder_match_game(game, [reader, make_bot("greedy", 2, 0)], 0, lambda seed, ms: make_bot("greedy", seed, 0),
                      stats)
    assert game.is_over() and stats.hits == stats.misses == 0
    assert stats.read_ahead == (game.ply - 1) // 2
    assert reader.readings[1:] == list(range(1, game.ply, 2))   # after each of the opponent's moves


def configuration(bot: Bot) -> dict[str, Any]:
    """A bot's settings: its plain attributes (not its random state, caches or counters' objects)."""
    return {name: value for name, value in vars(bot).items() if isinstance(value, (bool, int, float, str, tuple))}


@pytest.mark.parametrize("game_id", available_ids())
def test_the_worker_makes_every_level_as_the_page_would(game_id: str) -> None:
    """A level's bot, sent to the worker (``bot_json``) and made there, has
    every setting of the level (a bot that takes its settings by name once
    lost them on the way, and the worker played another bot)."""
    for index, chosen in enumerate(levels_for(game_id) + helpers_for(game_id)):
        page_bot = make_level_bot(chosen, seed=index)
        sent = json.loads(json.dumps(thinker.bot_json(page_bot)))
        worker_bot = make_bot(sent["name"], sent["seed"], sent["movetime_ms"], **sent["params"])
        assert sent["params"] == chosen.params
        assert configuration(worker_bot) == configuration(page_bot), (game_id, chosen.key)


def test_a_review_request_reports_each_move() -> None:
    """A review sends each move's review as it is made, then the list with the mistakes marked."""
    service = ThinkService()
    game = played(OPENING)
    ask(service, {"type": "review", "id": 3, "record": Record.from_game(game).to_json(), "movetime_ms": 30})
    messages = run(service)
    assert [m["review"]["ply"] for m in messages if m["type"] == "reviewed"] == [1, 2, 3, 4]
    final = messages[-1]
    assert final["type"] == "review" and [r["ply"] for r in final["reviews"]] == [1, 2, 3, 4]


# ----- a seat's bot and the thinker ------------------------------------------------------
class InProcess:
    """A thinker that runs the service here (what the worker does, minus the worker)."""

    def __init__(self, fail: bool = False) -> None:
        self.service = ThinkService()
        self.fail = fail
        self.told: list[dict[str, Any]] = []
        self.asked = 0

    async def ask(self, request: dict[str, Any], cancelled: Callable[[], bool], progress: Any = None) -> Any:
        self.asked += 1
        if self.fail:
            raise thinker.ThinkerUnavailable("no worker")
        ask(self.service, {**request, "id": self.asked})
        return run(self.service)[-1]

    def tell(self, request: dict[str, Any]) -> None:
        self.told.append(request)
        ask(self.service, request)

    def warm(self) -> None:
        pass


@pytest.fixture
def installed() -> Any:
    def put(fake: InProcess) -> InProcess:
        thinker.install(fake)
        return fake
    yield put
    thinker.install(None)


def strongest_session() -> Session:
    return Session(Quadrature(seed=1), [Seat("human"), Seat("bot", "hard")], "s1")


def test_a_seats_bot_asks_the_thinker_and_ponders(installed: Any) -> None:
    """The bot's move comes from the thinker; after it, the strongest level ponders on the player's time."""
    fake = installed(InProcess())
    session = strongest_session()
    participant = session.participants[1]
    assert isinstance(participant, BotParticipant) and participant.ponder
    session.play_text("e9-e8")
    event = asyncio.run(session.advance())
    assert event is not None and fake.asked == 1
    assert [r["type"] for r in fake.told] == ["ponder"]
    assert fake.told[0]["record"]["moves"] == session.moves.texts
    session.undo()
    assert [r["type"] for r in fake.told] == ["ponder", "stop"]
    session.close()
    assert fake.told[-1] == {"type": "forget", "key": participant.key}


def test_a_seats_bot_thinks_here_when_the_thinker_cannot(installed: Any) -> None:
    """A thinker that cannot answer (no worker) leaves the move to the sliced search here."""
    fake = installed(InProcess(fail=True))
    session = strongest_session()
    session.play_text("e9-e8")
    event = asyncio.run(session.advance())
    assert event is not None and fake.asked == 1 and session.game.ply == 2


def test_a_reading_request_answers_the_games_reading() -> None:
    """Dots' threats read in the service are the adapter's reading of the same position."""
    from tessera.core.rng import SeededRandom
    from tessera.games.dots import Dots
    from tessera.games.dots.adapter import DotsUI
    game = Dots({"size": "20x20"})
    game.random_fill(SeededRandom(3), 60)
    service = ThinkService()
    ask(service, {"type": "reading", "id": 8, "what": "threats", "record": Record.from_game(game).to_json()})
    answer = run(service)
    assert answer == [{"type": "reading", "id": 8, "what": "threats", "value": DotsUI("dots").read("threats", game)}]
    assert answer[0]["value"]
    ask(service, {"type": "reading", "id": 9, "what": "nothing", "record": Record.from_game(game).to_json()})
    assert run(service)[0]["type"] == "error"
