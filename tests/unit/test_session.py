"""The session controller: seats, versions, undo, endings, navigation, saves."""

from __future__ import annotations

import asyncio
import sys
import types
from typing import Any, Callable

import pytest

from tessera.core import registry
from tessera.core.clock import TimeControl
from tessera.core.game import Game, IllegalMoveError, NotationError, Outcome, PositionError
from tessera.core.record import Record, RecordError
from tessera.i18n import Message
from tessera.core.session import (
    SAVE_FORMAT, BotParticipant, LocalHuman, MoveFacts, Participant, Seat, Session, SessionError,
)


class Race(Game):
    """Players add 1 or 2 to a shared total; whoever reaches 10 wins."""

    game_id = "race"
    seat_names = ("white", "black")

    def _init_state(self, setup: str | None) -> None:
        self.total = int(setup) if setup else 0
        self._turn = 0

    @property
    def to_move(self) -> int:
        return self._turn

    def legal_moves(self) -> list[int]:
        return [] if self.outcome() else [1, 2]

    def _apply(self, move: Any) -> None:
        self.total += move
        self._turn ^= 1

    def _unapply(self, move: Any) -> None:
        self.total -= move
        self._turn ^= 1

    def outcome(self) -> Outcome | None:
        return Outcome(self._turn ^ 1, "reached") if self.total >= 10 else None

    def scores(self) -> tuple[int, ...]:
        return (self.total, self.total)

    def move_text(self, move: Any) -> str:
        return f"+{move}"

    def parse_move(self, text: str) -> int:
        if text not in ("+1", "+2", "+3"):
            raise NotationError(f"{text!r} is not +1 or +2")
        return int(text[1:])

    def position(self) -> str:
        return f"{self.total} {self._turn}"

    def evaluate(self, player: int) -> float:
        return 0.0

    def illegal_reason(self, move: Any) -> Message:
        return Message("you may add only 1 or 2")  # not a catalog key: shown as written

    def last_converted(self) -> list[int]:
        return [self.total]


class ScriptedBot(Participant):
    """Answers with the first legal move after yielding to the loop a few times."""

    def __init__(self, before_answer: Callable[[], None] | None = None) -> None:
        self.before_answer = before_answer
        self.asked = 0

    async def choose(self, game: Game, cancelled: Callable[[], bool]) -> Any:
        self.asked += 1
        for _ in range(3):
            await asyncio.sleep(0)
        if self.before_answer:
            self.before_answer()
        return game.legal_moves()[-1]


@pytest.fixture(autouse=True)
def race_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("race_game_for_tests")
    module.GAME = Race  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "race_game_for_tests", module)
    monkeypatch.setattr(registry, "GAMES", registry.GAMES + (registry.GameEntry("race", 2, "race_game_for_tests"),))


def factory_with(bot: Participant) -> Callable[[Seat, Game, int], Participant]:
    return lambda seat, game, index: bot if seat.kind == "bot" else LocalHuman()


def hot_seat() -> Session:
    return Session(Race(), [Seat("human"), Seat("human")], "s1")


def test_play_bumps_version_and_records_history() -> None:
    """Every move changes the version, the history and clears the view."""
    session = hot_seat()
    events: list[str] = []
    session.subscribe(lambda kind, detail: events.append(kind))
    event = session.play(2)
    assert session.version == 1 and session.history() == ["+2"]
    assert event.seat == 0 and event.text == "+2" and event.converted == (2,)
    assert events == ["move"]


def test_play_text_tells_notation_from_illegal() -> None:
    """A typed move reports a notation error apart from an illegal move."""
    session = hot_seat()
    with pytest.raises(NotationError):
        session.play_text("x")
    with pytest.raises(IllegalMoveError, match="only 1 or 2"):
        session.play_text("+3")
    assert session.play_text(" +1 ").text == "+1"


def test_bot_moves_through_advance() -> None:
    """A bot seat is asked for its move and the answer is applied."""
    bot = ScriptedBot()
    session = Session(Race(), [Seat("human"), Seat("bot", "easy")], "s", factory_with(bot))
    session.play(1)
    assert session.awaits_participant()
    event = asyncio.run(session.advance())
    assert event is not None and event.seat == 1 and session.history() == ["+1", "+2"]
    assert not session.thinking


def test_stale_bot_answer_is_dropped() -> None:
    """A bot answer for a position that was taken back never lands."""
    holder: dict[str, Session] = {}
    bot = ScriptedBot(before_answer=lambda: holder["s"].undo())
    session = Session(Race(), [Seat("human"), Seat("bot", "easy")], "s", factory_with(bot))
    holder["s"] = session
    session.play(1)
    assert asyncio.run(session.advance()) is None
    assert session.history() == [] and session.to_move == 0


def test_local_player_cannot_move_for_the_bot() -> None:
    session = Session(Race(), [Seat("human"), Seat("bot", "easy")], "s", factory_with(ScriptedBot()))
    session.play(1)
    with pytest.raises(SessionError):
        session.play(1)


def test_undo_against_bot_takes_back_both_moves() -> None:
    """Against a bot, undo removes the bot's reply and your move."""
    session = Session(Race(), [Seat("human"), Seat("bot", "easy")], "s", factory_with(ScriptedBot()))
    session.play(1)
    asyncio.run(session.advance())
    assert session.undo() == 2
    assert session.game.ply == 0 and session.to_move == 0


def test_undo_while_bot_thinks_takes_back_your_move() -> None:
    session = Session(Race(), [Seat("human"), Seat("bot", "easy")], "s", factory_with(ScriptedBot()))
    session.play(1)
    assert session.undo() == 1


def test_undo_when_bot_moved_first() -> None:
    """With the bot first, undo stops at your turn and never removes only the bot's move."""
    session = Session(Race(), [Seat("bot", "easy"), Seat("human")], "s", factory_with(ScriptedBot()))
    assert not session.can_undo()
    asyncio.run(session.advance())
    assert not session.can_undo()
    session.play(1)
    asyncio.run(session.advance())
    assert session.undo() == 2 and session.game.ply == 1 and session.to_move == 1


def test_hot_seat_undo_is_one_move() -> None:
    session = hot_seat()
    session.play(1)
    session.play(2)
    assert session.undo() == 1 and session.history() == ["+1"]


def test_resign_and_draw_agreement() -> None:
    """Resignation and an accepted draw end the game at session level."""
    session = hot_seat()
    session.play(1)
    session.offer_draw(0)
    with pytest.raises(SessionError):
        session.answer_draw(0, True)
    assert session.answer_draw(1, False) is None and session.draw_offer is None
    session.offer_draw(1)
    assert session.answer_draw(0, True) == Outcome(None, "draw_agreed")
    assert session.is_over() and not session.can_undo()
    other = hot_seat()
    assert other.resign(0) == Outcome(1, "resign")
    with pytest.raises(SessionError):
        other.resign(1)


def test_a_move_withdraws_the_draw_offer() -> None:
    session = hot_seat()
    session.offer_draw(0)
    session.play(1)
    assert session.draw_offer is None


def test_history_navigation_does_not_change_the_game() -> None:
    """Viewing an earlier ply keeps the game and version; a new move returns live."""
    session = hot_seat()
    for move in (1, 2, 1):
        session.play(move)
    version = session.version
    session.show_ply(1)
    assert session.shown_game().total == 1 and session.game.total == 4
    assert session.shown_last_move() == 1 and session.shown_converted() == [1]
    session.step_view(-5)
    assert session.shown_ply == 0 and session.shown_last_move() is None and session.shown_converted() == []
    assert session.version == version
    session.step_view(+10)
    assert not session.is_viewing_history()
    session.show_ply(0)
    session.play(2)
    assert not session.is_viewing_history() and session.shown_game() is session.game


def test_game_over_by_rules() -> None:
    session = hot_seat()
    for move in (2, 2, 2, 2, 2):
        session.play(move)
    assert session.outcome() == Outcome(0, "reached")
    with pytest.raises(IllegalMoveError):
        session.play(1)


def test_save_round_trip() -> None:
    """A save restores moves, seats, offers, results and meta."""
    session = Session(Race(), [Seat("human"), Seat("bot", "easy")], "abc",
                      factory_with(ScriptedBot()), meta={"created": 5})
    session.play(1)
    asyncio.run(session.advance())
    data = session.to_save()
    assert data["format"] == SAVE_FORMAT and data["record"]["moves"] == ["+1", "+2"]
    again = Session.from_save(data, factory_with(ScriptedBot()))
    assert again.history() == ["+1", "+2"] and again.seats == session.seats
    assert again.session_id == "abc" and again.meta == {"created": 5}
    hs = hot_seat()
    hs.play(1)
    hs.offer_draw(1)
    assert Session.from_save(hs.to_save()).draw_offer == 1
    hs.answer_draw(0, True)
    restored = Session.from_save(hs.to_save())
    assert restored.outcome() == Outcome(None, "draw_agreed")


@pytest.mark.parametrize("mutate, error", [
    (lambda d: d.update(format="other"), SessionError),
    (lambda d: d.update(seats=[{"kind": "human"}]), SessionError),
    (lambda d: d.update(seats=[{"kind": "alien"}, {"kind": "human"}]), SessionError),
    (lambda d: d.update(seats=[{"kind": "bot"}, {"kind": "human"}]), SessionError),
    (lambda d: d["record"].update(moves=["+1", "zz"]), RecordError),
    (lambda d: d["record"].update(format="x"), RecordError),
    (lambda d: d.update(draw_offer=7), SessionError),
    (lambda d: d["record"].update(result={"winner": 0, "reason": "reached"}), RecordError),
])
def test_bad_saves_are_refused(mutate: Callable[[dict], None], error: type[Exception]) -> None:
    """Each kind of damage gives a clear error instead of a broken session."""
    data = hot_seat().to_save()
    data["record"]["moves"] = ["+1"]
    mutate(data)
    with pytest.raises(error):
        Session.from_save(data)


def test_not_an_object() -> None:
    with pytest.raises(SessionError):
        Session.from_save(["nope"])


def test_unknown_bot_level_is_refused() -> None:
    """The default factory knows only the game's own levels."""
    with pytest.raises(SessionError):
        Session(Race(), [Seat("human"), Seat("bot", "nope")])


def test_record_export_carries_resignation() -> None:
    session = hot_seat()
    session.play(1)
    session.resign(1)
    record = Record.loads(session.record().dumps())
    assert record.result == Outcome(0, "resign") and record.moves == ["+1"]


def test_seat_validation() -> None:
    with pytest.raises(SessionError):
        Seat("bot")
    with pytest.raises(SessionError):
        Seat.from_json({"kind": 3})
    assert Seat.from_json({"kind": "bot", "level": "easy"}).to_json() == {"kind": "bot", "level": "easy"}


def test_quadrature_against_the_random_bot() -> None:
    """With the real engine and a seeded random bot the session plays on to its end."""
    pytest.importorskip("tessera.games.quadrature")
    from tessera.bots.random_bot import RandomBot
    from tessera.games.quadrature import Quadrature

    def factory(seat: Seat, game: Game, index: int) -> Participant:
        return BotParticipant(RandomBot(seed=index)) if seat.kind == "bot" else LocalHuman()

    session = Session(Quadrature(), [Seat("human"), Seat("bot", "random")], "q", factory)
    for _ in range(6):
        if session.is_over():
            break
        session.play(sorted(session.game.legal_moves())[0])
        asyncio.run(session.advance())
    assert session.game.ply >= 2
    again = Session.from_save(session.to_save(), factory)
    assert again.history() == session.history()
    assert again.game.position() == session.game.position()


def test_position_error_is_a_value_error() -> None:
    assert issubclass(PositionError, ValueError) and issubclass(SessionError, ValueError)


# ----- time controls -------------------------------------------------------------------

class FakeTime:
    """A ``now()`` the test moves by hand: no sleeping, no timed assertions."""

    def __init__(self) -> None:
        self.value = 100.0

    def __call__(self) -> float:
        return self.value

    def advance(self, seconds: float) -> None:
        self.value += seconds


def timed_hot_seat(now: FakeTime, total: float | None = 60, per_move: float | None = None,
                   opened: bool = True) -> Session:
    """Two people with a clock; ``opened``: each has made a first move (+1),
    in no time, so both clocks have started."""
    session = Session(Race(), [Seat("human"), Seat("human")], "t", time_control=TimeControl(total, per_move), now=now)
    if opened:
        session.play(1)
        session.play(1)
    return session


def test_no_clock_runs_before_its_side_has_moved() -> None:
    """With 10 s a move, neither player loses on time before moving once:
    each side's clock starts with its own first move (as on lichess)."""
    now = FakeTime()
    session = timed_hot_seat(now, total=60, per_move=10, opened=False)
    assert session.clock.running is None
    now.advance(500)
    assert session.check_time() is None and not session.is_over()
    session.play(1)
    assert session.clock.running is None, "the second player has not moved yet"
    now.advance(500)
    assert session.check_time() is None
    session.play(1)
    assert session.clock.running == 0 and session.clock.total_left(0) == 60 and session.clock.total_left(1) == 60
    now.advance(10)
    assert session.check_time() == Outcome(1, "time")


def test_clock_switches_with_each_move() -> None:
    """The mover's time is taken off its total and the opponent's clock starts."""
    now = FakeTime()
    session = timed_hot_seat(now)
    assert session.clock.running == 0
    now.advance(7)
    session.play(1)
    assert session.clock.running == 1 and session.clock.total_left(0) == 53
    now.advance(3)
    assert session.clock.total_left(1) == 57


def test_running_out_of_time_loses() -> None:
    """When the seat to move runs out, the opponent wins on time and the game is over."""
    now = FakeTime()
    session = timed_hot_seat(now, total=None, per_move=10)
    events: list[str] = []
    session.subscribe(lambda kind, detail: events.append(kind))
    session.play(1)
    now.advance(9.9)
    assert session.check_time() is None and not session.is_over()
    now.advance(0.1)
    assert session.check_time() == Outcome(0, "time")
    assert session.is_over() and events[-1] == "result" and session.clock.running is None
    assert session.check_time() is None and not session.can_undo()


def test_a_move_after_the_flag_is_refused() -> None:
    """A move made after the time ran out ends the game instead of being played."""
    now = FakeTime()
    session = timed_hot_seat(now, total=5)
    now.advance(6)
    with pytest.raises(IllegalMoveError):
        session.play(1)
    assert session.outcome() == Outcome(1, "time") and session.history() == ["+1", "+1"]


def test_bots_are_exempt_from_the_clock() -> None:
    """A bot's turn does not run any clock; the human's time runs on the human's turns."""
    now = FakeTime()
    bot = ScriptedBot(before_answer=lambda: now.advance(500))
    session = Session(Race(), [Seat("human"), Seat("bot", "easy")], "b", factory_with(bot),
                      time_control=TimeControl(60, 10), now=now)
    session.play(1)                                   # the human's first move: no clock yet
    assert asyncio.run(session.advance()) is not None
    assert session.clock.running == 0
    now.advance(4)
    session.play(1)
    assert session.clock.running == 1 and session.clock.time_left(1) is None
    assert asyncio.run(session.advance()) is not None
    assert not session.is_over() and session.clock.running == 0
    assert session.clock.total_left(0) == 56 and session.clock.move_left(0) == 10


def test_undo_keeps_the_time_spent() -> None:
    """Undo gives no time back: the player to move again runs on from what is left."""
    now = FakeTime()
    session = timed_hot_seat(now, total=60, per_move=30)
    now.advance(20)
    session.play(1)
    now.advance(5)
    session.undo()
    assert session.clock.running == 0 and session.clock.total_left(0) == 40
    assert session.clock.total_left(1) == 55 and session.clock.move_left(0) == 30


def test_resignation_stops_the_clock() -> None:
    now = FakeTime()
    session = timed_hot_seat(now)
    now.advance(3)
    session.resign(0)
    now.advance(100)
    assert session.clock.running is None and session.clock.total_left(0) == 57
    assert session.check_time() is None and session.outcome() == Outcome(1, "resign")


def test_clock_save_resumes_where_it_stood() -> None:
    """A reload resumes the clocks as saved: the time the page was closed does not count."""
    now = FakeTime()
    session = timed_hot_seat(now, total=60, per_move=20)
    now.advance(10)
    session.play(2)
    now.advance(15)
    data = session.to_save()
    assert data["clock"]["running"] == 1 and data["clock"]["move_spent"] == 15
    later = FakeTime()
    later.advance(10_000)
    again = Session.from_save(data, now=later)
    assert again.clock.total_left(0) == 50 and again.clock.total_left(1) == 45
    assert again.clock.move_left(1) == 5
    later.advance(5)
    assert again.check_time() == Outcome(0, "time")
    assert Session.from_save(again.to_save()).outcome() == Outcome(0, "time")
    assert "clock" not in hot_seat().to_save() and Session.from_save(hot_seat().to_save()).clock is None


@pytest.mark.parametrize("clock", [
    "five minutes", {"control": {"total": -5}}, {"control": {"total": 60}, "remaining": [60]},
])
def test_bad_clock_saves_are_refused(clock: Any) -> None:
    data = timed_hot_seat(FakeTime()).to_save()
    data["clock"] = clock
    with pytest.raises(SessionError):
        Session.from_save(data)


class Passing(Race):
    """Race where an expired turn passes (as Quadrotone does between two people)."""

    def on_time_expired(self, seat: int, hot_seat: bool) -> Any:
        return 1 if hot_seat else Outcome(None, "time")


def test_a_game_can_change_what_expiry_does() -> None:
    """The ``on_time_expired`` hook may play a move for the seat or end the game its own way."""
    now = FakeTime()
    session = Session(Passing(), [Seat("human"), Seat("human")], "p", time_control=TimeControl(None, 10),
                      now=now)
    session.play(1)
    session.play(1)
    now.advance(10)
    version = session.version
    with pytest.raises(SessionError):
        session.play(2)
    assert session.version > version and session.history() == ["+1", "+1", "+1"] and not session.is_over()
    assert session.clock.running == 1 and session.clock.move_left(1) == 10
    bot_game = Session(Passing(), [Seat("human"), Seat("bot", "easy")], "q", factory_with(ScriptedBot()),
                       time_control=TimeControl(None, 10), now=now)
    bot_game.play(1)
    assert asyncio.run(bot_game.advance()) is not None
    now.advance(11)
    assert bot_game.check_time() == Outcome(None, "time")


# ----- per-move work independent of the game's length ---------------------------------

def counting_constructions(monkeypatch: pytest.MonkeyPatch, cls: type) -> list[int]:
    """Count new games of ``cls`` made from now on (each is the start of a replay)."""
    made: list[int] = []
    original = cls.__init__

    def init(self, *args: Any, **kwargs: Any) -> None:
        made.append(1)
        original(self, *args, **kwargs)
    monkeypatch.setattr(cls, "__init__", init)
    return made


def test_moves_and_saves_do_not_replay_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A move, a save and an export cost the same at move 1 and move 1000: no replay."""
    from tessera.games.quadrature import Quadrature
    session = Session(Quadrature(), [Seat("human"), Seat("human")], "q")
    made = counting_constructions(monkeypatch, Quadrature)
    for text in ["e9-e8", "e3-e4", "e8-e7", "e4-e5"]:
        session.play_text(text)
        session.to_save()
    session.undo()
    record = session.record()
    assert made == []
    assert record.moves == ["e9-e8", "e3-e4", "e8-e7"]


def test_loading_a_save_replays_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Resuming replays the moves a single time, collecting texts, movers and scores on the way."""
    from tessera.games.quadrature import Quadrature
    session = Session(Quadrature(), [Seat("human"), Seat("human")], "q")
    for text in ["e9-e8", "e3-e4", "e8-e7", "e4-e5"]:
        session.play_text(text)
    data = session.to_save()
    made = counting_constructions(monkeypatch, Quadrature)
    again = Session.from_save(data)
    assert len(made) == 1
    assert again.history() == session.history()
    assert again.moves == session.moves


def test_move_facts_follow_moves_and_undo() -> None:
    """Texts, movers and scores kept move by move equal those of a fresh replay."""
    session = Session(Race(), [Seat("human"), Seat("bot", "x")], "r",
                      participant_factory=factory_with(ScriptedBot()))
    session.play(2)
    asyncio.run(session.advance())
    session.play(1)
    assert session.moves == MoveFacts.of(session.game)
    assert session.moves.scores == [(0, 0), (2, 2), (4, 4), (5, 5)]
    assert [session.move_gain(ply) for ply in (1, 2, 3)] == [2, 2, 1]
    session.undo()
    assert session.moves == MoveFacts.of(session.game)
    assert session.history() == ["+2", "+2"]


def test_move_gain_is_what_the_mover_gained() -> None:
    """Quadrature: f5-e6 converts h5 and c7 (a golden example), a gain of 2; a quiet move gains 0."""
    from tessera.games.quadrature import Quadrature
    setup = ("ww......www/ww........./.........../.........../..w.b....../..b....b.../....bb.w.../"
             ".........../.........../.........../bb......bb. b 0 0 0")
    session = Session(Quadrature(setup=setup), [Seat("human"), Seat("human")], "q")
    event = session.play_text("f5-e6")
    assert len(event.converted) == 2 and session.move_gain(1) == 2
    quiet = session.game.legal_moves()[0]
    session.play(quiet)
    assert session.move_gain(2) == len(session.game.last_converted())
