"""One game session: the single controller every move goes through.

The app never pushes a move on a ``Game`` itself.  A ``Session`` holds the
game, who sits in each seat, and the facts the rules do not know about
(resignation, an agreed draw, a pending draw offer, which earlier position
the player is looking at).  Every change bumps ``version``; an answer from
a seat's participant (a bot today, a remote player later) is applied only if
the version is still the one it was asked about, so a bot never answers a
position that was taken back or replaced (boardgame.io's state-version
check).

Seats are filled by ``Participant`` objects (``core/seats.py``): a local
human plays through the UI (``play``), any other participant is asked for
its move (``advance``).

Time controls (``core/clock.py``): a session may carry a ``Clock``.  It
switches on every move (the mover gains the increment, if any), and on undo
it simply runs on for the player now to move: time spent is never given
back.  Bots are exempt (their seats are untimed).  ``check_time`` ends the
game when the seat to move runs out: the opponent wins by "time", unless the
game's ``on_time_expired`` hook says otherwise (Quadrotone passes the turn
between two people).

Pure Python (no ``js``), tested in CPython.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Mapping, Sequence

from ..i18n import Message
from .clock import Clock, ClockError, Now, TimeControl, format_clock
from .draw_offers import DrawOfferSpacing
from .game import Game, GameError, IllegalMoveError, Move, Outcome, Player, excerpt
from .record import MAX_RECORD_MOVES, MoveFacts, Record, RecordError
from .seats import (SEAT_KINDS, BotParticipant, LocalHuman, Participant, ParticipantFactory, Seat,
                    SessionError, default_participant)
from .steps import Steps, finish

__all__ = ["SAVE_FORMAT", "SEAT_KINDS", "BotParticipant", "LocalHuman", "MoveEvent", "MoveFacts",
           "Participant", "ParticipantFactory", "Seat", "Session", "SessionError", "default_participant"]

SAVE_FORMAT = "tessera-session/1"
# ----- events ----------------------------------------------------------------------

@dataclass(frozen=True)
class MoveEvent:
    """One applied move, as the UI announces it."""

    ply: int                 # ply count after the move
    seat: Player
    move: Move
    text: str
    converted: tuple[Any, ...] = ()
    outcome: Outcome | None = None


Listener = Callable[[str, Any], None]


# ----- the session ---------------------------------------------------------------

@dataclass
class _Facts:
    """Session facts beyond the moves, saved with the record."""

    result: Outcome | None = None
    draw_offer: Player | None = None
    meta: dict[str, Any] = field(default_factory=dict)


class Session:
    def __init__(self, game: Game, seats: Sequence[Seat], session_id: str = "",
                 participant_factory: ParticipantFactory = default_participant,
                 result: Outcome | None = None, meta: Mapping[str, Any] | None = None,
                 time_control: TimeControl | None = None, clock_state: Mapping[str, Any] | None = None,
                 now: Now = time.monotonic, move_facts: MoveFacts | None = None) -> None:
        if len(seats) != game.num_players:
            raise SessionError("error.session.seat_count", game=Message(f"game.{game.game_id}.title"),
                               seats=game.num_players, count=len(seats))
        self.game = game
        self.seats: tuple[Seat, ...] = tuple(seats)
        self.session_id = session_id
        self.participants: tuple[Participant, ...] = tuple(
            participant_factory(seat, game, index) for index, seat in enumerate(self.seats))
        self.facts = _Facts(result, None, dict(meta or {}))
        self.draw_spacing = DrawOfferSpacing(game.num_players, game.draw_offer_every)
        """Each seat's last draw offer, for games that space them (Quadrotone)."""
        self.wall_clock: Callable[[], float] = time.time
        """Seconds since 1970: draw offers are spaced on the wall clock, so
        the spacing holds across a reload (tests set their own)."""
        self.version = 0
        self.revision = 0
        """The save version this state was last read from or written as: a
        counter every save bumps, so two tabs of one game can tell which save is
        newer (``ui/saves/versions.py``).  Saves from before it load as 0."""
        self.writer = ""
        """The tab that wrote that version (empty for saves from before versions)."""
        self.view_ply: int | None = None
        self.thinking = False
        self.replying = False
        """The participant has answered and its move is applied in the next
        browser task: what is shown still says it is thinking (``seems_thinking``)."""
        self._asking: int | None = None
        self.moves = move_facts if move_facts is not None else MoveFacts.of(game)
        """Per-move facts, kept in step with the game by every move and undo."""
        self._shown_cache: tuple[int, int, Game] | None = None
        self.listeners: list[Listener] = []
        self.clock: Clock | None = None
        if time_control is not None and time_control.enabled:
            try:
                self.clock = Clock(time_control, [seat.kind != "bot" for seat in self.seats], now, clock_state)
            except ClockError as error:
                raise SessionError("error.session.clock", reason=error) from None
            self._clock_turn()
        for index, participant in enumerate(self.participants):
            participant.attach(self, index)

    # ----- listeners ---------------------------------------------------------
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self.listeners.append(listener)
        return lambda: self.listeners.remove(listener) if listener in self.listeners else None

    def _changed(self, kind: str, detail: Any = None) -> None:
        self.version += 1
        self._emit(kind, detail)

    def _emit(self, kind: str, detail: Any = None) -> None:
        for participant in self.participants:
            participant.notify(kind, self)
        for listener in list(self.listeners):
            listener(kind, detail)

    # ----- queries -------------------------------------------------------------
    @property
    def result(self) -> Outcome | None:
        return self.facts.result

    @property
    def draw_offer(self) -> Player | None:
        return self.facts.draw_offer

    @property
    def meta(self) -> dict[str, Any]:
        return self.facts.meta

    @property
    def to_move(self) -> Player:
        return self.game.to_move

    def outcome(self) -> Outcome | None:
        """The rules' ending if any, else the session's (resign, agreed draw)."""
        return self.game.outcome() or self.facts.result

    def is_over(self) -> bool:
        return self.outcome() is not None

    def history(self) -> list[str]:
        """Every move played, in notation."""
        return list(self.moves.texts)

    def move_gain(self, ply: int) -> int:
        """What move ``ply`` (1-based) gained its mover: the rise of the
        mover's score (checkers converted, dots captured), never negative."""
        mover = self.moves.movers[ply - 1]
        scores = self.moves.scores
        return max(0, scores[ply][mover] - scores[ply - 1][mover])

    def is_local_seat(self, seat: Player) -> bool:
        return self.participants[seat].local

    def local_seats(self) -> list[Player]:
        return [i for i, p in enumerate(self.participants) if p.local]

    def is_hot_seat(self) -> bool:
        return all(p.local for p in self.participants)

    def is_local_turn(self) -> bool:
        return not self.is_over() and self.participants[self.to_move].local

    def awaits_participant(self) -> bool:
        """True when the seat to move is not this device's UI (bot, remote)."""
        return not self.is_over() and not self.participants[self.to_move].local

    def can_undo(self) -> bool:
        return self.facts.result is None and self._undo_target() is not None

    def _undo_target(self) -> int | None:
        """The ply to go back to: just before the last move a local player made.

        Against a bot that takes back the bot's reply and your move; in
        hot-seat exactly one move.  Never before the game's ``undo_floor``.
        """
        for index in range(self.game.ply - 1, self.game.undo_floor() - 1, -1):
            if self.participants[self.moves.movers[index]].local:
                return index
        return None

    # ----- moves -----------------------------------------------------------------
    def play(self, move: Move) -> MoveEvent:
        """A move from this device's UI for the seat to move (refused once its time is up)."""
        version = self.version
        self.check_time()
        if self.version != version and not self.is_over():
            raise SessionError("error.session.time_ran_out")
        if self.is_over():
            raise IllegalMoveError("illegal.over")
        if not self.participants[self.to_move].local:
            raise SessionError("error.session.not_your_turn")
        return self._apply(move)

    def play_text(self, text: str) -> MoveEvent:
        """Parse and play; NotationError or IllegalMoveError say which went wrong."""
        return self.play(self.game.parse_typed(text))

    def _apply(self, move: Move) -> MoveEvent:
        seat = self.to_move
        if self.game.ply >= MAX_RECORD_MOVES:   # a record holds no more (core.record)
            raise SessionError("error.session.move_limit", count=MAX_RECORD_MOVES)
        if not self.game.is_legal(move):
            reason = self.game.illegal_reason(move)
            raise IllegalMoveError(reason.key, **reason.params)
        text = self.game.move_text(move)
        self.game.push_unchecked(move)
        self.moves.add(self.game, move, text, seat)
        self.view_ply = None
        self.facts.draw_offer = None
        if self.clock is not None and self.clock.running == seat:
            self.clock.end_move()  # a move, not an undo: the mover gains the increment
        self._clock_turn()
        converted = getattr(self.game, "last_converted", None)
        event = MoveEvent(self.game.ply, seat, move, text,
                          tuple(converted()) if converted else (), self.outcome())
        self._changed("move", event)
        return event

    async def advance(self, settle: Callable[[], Awaitable[Any]] | None = None) -> MoveEvent | None:
        """Ask the seat to move for its move and apply it if still current.

        Returns None when it is a local player's turn, the game is over, a
        request for this version is already running, or the position
        changed while the participant thought (its answer is dropped).
        ``settle`` is awaited between the answer and applying it: the page
        lets the move before it finish animating (the participant thinks
        meanwhile, so a quick bot does not cut the player's move short).
        """
        if not self.awaits_participant() or self._asking == self.version:
            return None
        version = self._asking = self.version
        participant = self.participants[self.to_move]
        self.thinking = True
        self._emit("thinking", True)
        move = None
        try:
            # Each await below ends a browser task: redrawing for "thinking",
            # the search slices, redrawing for the end of thinking and
            # applying the answer never share one, so no single task grows
            # long.  ``_asking`` holds until the move is applied: no second
            # request starts for this position in between.
            await asyncio.sleep(0)
            if self.version == version:
                move = await participant.choose(self.game.copy(), lambda: self.version != version)
            if settle is not None and move is not None and self.version == version:
                await settle()
            await asyncio.sleep(0)
            self.check_time()
            if move is not None and self._asking == version:
                self.replying = True
                self._stop_thinking()
                await asyncio.sleep(0)
        finally:
            replied = False
            if self._asking == version:
                self._asking = None
                replied, self.replying = self.replying, False
                self._stop_thinking()
        if move is None or self.version != version or self.is_over() or not self.game.is_legal(move):
            if replied:   # shown as thinking until now: shown again as it is
                self._emit("thinking", False)
            return None
        return self._apply(move)

    def seems_thinking(self) -> bool:
        """What the page says: thinking, also in the one task between the end
        of thinking and its move (no "Black to move" flashes in between)."""
        return self.thinking or self.replying

    def _stop_thinking(self) -> None:
        if self.thinking:
            self.thinking = False
            self._emit("thinking", False)

    def undo(self) -> int:
        """Take back to before the last local move; returns the plies removed."""
        if self.facts.result is not None:
            raise SessionError("error.session.ended")
        target = self._undo_target()
        if target is None:
            raise SessionError("error.session.nothing_to_undo")
        return self.take_back_to(target)

    def take_back_to(self, ply: int) -> int:
        """Go back to the position after ``ply`` moves, whoever made the moves
        after it (an undo; a takeback or a correction a relay decided); returns
        the plies removed.  A result the session holds (resignation, agreed
        draw, time) goes with them: the game goes on from there."""
        ply = max(0, min(int(ply), self.game.ply))
        removed = self.game.ply - ply
        for _ in range(removed):
            self.game.pop()
        self.moves.truncate(ply)
        self.view_ply = None
        self.facts.draw_offer = None
        self.facts.result = None
        self._clock_turn()
        self._changed("undo", removed)
        return removed

    def receive(self, move: Move) -> MoveEvent:
        """A move for the seat to move that another authority has judged (a relay
        catching this device up with a remote game), applied whoever sits there;
        IllegalMoveError if this engine disagrees."""
        if self.is_over():
            raise IllegalMoveError("illegal.over")
        return self._apply(move)

    def end(self, outcome: Outcome) -> None:
        """An ending decided elsewhere (a relay: resignation, agreed draw, time)."""
        if self.is_over():
            return
        self.facts.result = outcome
        self.facts.draw_offer = None
        self._clock_turn()
        self._changed("result", outcome)

    # ----- session-level endings -------------------------------------------------
    def resign(self, seat: Player) -> Outcome:
        self._check_seat(seat)
        if self.is_over():
            raise SessionError("illegal.over")
        winner = None if self.game.num_players != 2 else 1 - seat
        self.facts.result = Outcome(winner, "resign")
        self.facts.draw_offer = None
        self._clock_turn()
        self._changed("result", self.facts.result)
        return self.facts.result

    def offer_draw(self, seat: Player, decided_elsewhere: bool = False) -> None:
        """``seat`` offers a draw; refused while an offer stands, and in a
        game that spaces offers (``Game.draw_offer_every``) until the seat's
        wait is over.  An offer a relay has already accepted
        (``decided_elsewhere``) is taken as it is: the relay keeps the rule."""
        self._check_seat(seat)
        if self.game.num_players != 2:
            raise SessionError("error.session.no_draws")
        if self.is_over():
            raise SessionError("illegal.over")
        if self.facts.draw_offer is not None:
            raise SessionError("error.session.draw_offered")
        now = self.wall_clock()
        wait = self.draw_spacing.wait(seat, now)
        if wait > 0 and not decided_elsewhere:
            raise SessionError("error.session.draw_too_soon", time=format_clock(wait),
                               every=Message("time.minutes", count=round(self.draw_spacing.every / 60)))
        self.draw_spacing.note(seat, now)
        self.facts.draw_offer = seat
        self._changed("draw_offer", seat)

    def draw_offer_wait(self, seat: Player) -> float:
        """Seconds until ``seat`` may offer a draw again (0: now)."""
        return self.draw_spacing.wait(seat, self.wall_clock())

    def answer_draw(self, seat: Player, accept: bool) -> Outcome | None:
        """The other player accepts (the game ends drawn) or declines."""
        self._check_seat(seat)
        offer = self.facts.draw_offer
        if offer is None or offer == seat:
            raise SessionError("error.session.no_draw_offer")
        self.facts.draw_offer = None
        if accept:
            self.facts.result = Outcome(None, "draw_agreed")
            self._clock_turn()
            self._changed("result", self.facts.result)
            return self.facts.result
        self._changed("draw_declined", seat)
        return None

    # ----- time --------------------------------------------------------------------
    def _clock_turn(self) -> None:
        """Run the clock of the seat to move (or stop it when the game is over).

        As on lichess, a side's clock starts with its own first move: until
        the seat to move has moved once in this game, no clock runs, so no
        one loses on time before having moved."""
        clock = self.clock
        if clock is None:
            return
        if self.is_over() or self.to_move not in self.moves.movers:
            clock.stop()
        elif clock.running != self.to_move:
            clock.start_turn(self.to_move)

    def check_time(self) -> Outcome | None:
        """End the game if the seat to move has run out of time; the UI calls it every tick.

        A game may define ``on_time_expired(seat, hot_seat) -> Move | Outcome
        | None``: a move is played for the seat instead (a pass), an outcome
        ends the game, None keeps the default: the opponent wins on time.
        """
        clock = self.clock
        if clock is None or self.is_over():
            return None
        seat = clock.flagged()
        if seat is None:
            return None
        hook = getattr(self.game, "on_time_expired", None)
        verdict = hook(seat, self.is_hot_seat()) if hook is not None else None
        if verdict is not None and not isinstance(verdict, Outcome):
            self._apply(verdict)
            return None
        if verdict is None:
            winner = 1 - seat if self.game.num_players == 2 else None
            verdict = Outcome(winner, "time")
        self.facts.result = verdict
        self.facts.draw_offer = None
        self._clock_turn()
        self._changed("result", verdict)
        return verdict

    def _check_seat(self, seat: Player) -> None:
        if not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise SessionError("error.no_seat", seat=excerpt(seat))

    # ----- looking at earlier positions --------------------------------------------
    @property
    def shown_ply(self) -> int:
        return self.game.ply if self.view_ply is None else self.view_ply

    def is_viewing_history(self) -> bool:
        return self.view_ply is not None

    def show_ply(self, ply: int | None) -> None:
        """Show the position after ``ply`` moves (None or the last ply: live).

        Looking back changes nothing in the game, so it keeps the version.
        """
        if ply is not None:
            ply = max(0, min(int(ply), self.game.ply))
            if ply == self.game.ply:
                ply = None
        if ply != self.view_ply:
            self.view_ply = ply
            self._emit("view", self.shown_ply)

    def step_view(self, delta: int) -> None:
        self.show_ply(self.shown_ply + delta)

    def _game_at(self, ply: int) -> Game:
        """A fresh game replayed to ``ply`` (cached for the last request)."""
        cache = self._shown_cache
        if cache is not None and cache[0] == self.version and cache[1] == ply:
            return cache[2]
        game = self.game
        copy = type(game)(game.options, game.seed, game.setup)
        for move in game.move_stack[:ply]:
            copy.push_unchecked(move)
        self._shown_cache = (self.version, ply, copy)
        return copy

    def shown_game(self) -> Game:
        """The game as it stood at the shown ply (the live game itself if live)."""
        if self.view_ply is None:
            return self.game
        return self._game_at(self.view_ply)

    def shown_last_move(self) -> Move | None:
        ply = self.shown_ply
        return self.game.move_stack[ply - 1] if ply > 0 else None

    def shown_converted(self) -> list[Any]:
        game = self.shown_game()
        converted = getattr(game, "last_converted", None)
        return list(converted()) if converted and game.ply > 0 else []

    # ----- records and saves ----------------------------------------------------------
    def record(self, meta: Mapping[str, Any] | None = None) -> Record:
        """The tessera/1 record of the game (with a resignation or agreed draw).

        Built from the notation kept move by move: a save after every move
        must not replay the whole game (at move 1000 that was most of a
        long task in the browser).
        """
        game = self.game
        result = game.outcome() or self.facts.result   # the rules' own ending too: a record says how it ended
        return Record(game.game_id, dict(game.options), game.seed, game.setup,
                      list(self.moves.texts), result, dict(meta or {}))

    def to_save(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "id": self.session_id,
            "record": self.record().to_json(),
            "seats": [seat.to_json() for seat in self.seats],
            "draw_offer": self.facts.draw_offer,
            **({"draw_offered_at": spacing} if (spacing := self.draw_spacing.to_json()) is not None else {}),
            "meta": dict(self.facts.meta),
            **({"clock": self.clock.to_json()} if self.clock is not None else {}),
            "rev": self.revision,
            "writer": self.writer,
        }

    @classmethod
    def from_record(cls, record: Record, seats: Sequence[Seat], session_id: str = "",
                    participant_factory: ParticipantFactory = default_participant,
                    meta: Mapping[str, Any] | None = None, time_control: TimeControl | None = None,
                    clock_state: Mapping[str, Any] | None = None,
                    now: Now = time.monotonic) -> "Session":
        """Replay ``record`` (RecordError names the first bad move) into a session,
        collecting the per-move facts in that same replay."""
        return finish(cls._from_record_steps(record, seats, session_id, participant_factory, meta,
                                             time_control, clock_state, now))

    @classmethod
    def _from_record_steps(cls, record: Record, seats: Sequence[Seat], session_id: str,
                           participant_factory: ParticipantFactory, meta: Mapping[str, Any] | None,
                           time_control: TimeControl | None, clock_state: Mapping[str, Any] | None,
                           now: Now) -> Steps["Session"]:
        start = record.new_game()
        facts = MoveFacts.start(start)
        yield from record.play_moves(start, on_move=facts.add)
        result = record.check_result(start)
        return cls(start, seats, session_id, participant_factory, result, meta, time_control, clock_state, now,
                   facts)

    @classmethod
    def from_save(cls, data: Any, participant_factory: ParticipantFactory = default_participant,
                  now: Now = time.monotonic) -> "Session":
        """Rebuild a saved session; SessionError (or RecordError) says what is wrong.

        A saved clock resumes with the times it had when saved: the time
        the page was closed does not count (see ``core/clock.py``).
        """
        return finish(cls.restoring(data, participant_factory, now))

    @classmethod
    def restoring(cls, data: Any, participant_factory: ParticipantFactory = default_participant,
                  now: Now = time.monotonic) -> Steps["Session"]:
        """``from_save`` as steps (``core.steps``), a replayed move a step, so
        the page opens a game of any length without a long task.  Whatever
        the save makes Python raise comes out as SessionError or RecordError."""
        try:
            return (yield from cls._restore_steps(data, participant_factory, now))
        except (SessionError, RecordError):
            raise
        except GameError as error:
            raise SessionError("error.save.does_not_fit", reason=error) from None
        except Exception as error:  # Python's own errors count: a bad save never escapes as one
            raise SessionError("error.save.python", kind=type(error).__name__) from None

    @classmethod
    def _restore_steps(cls, data: Any, participant_factory: ParticipantFactory, now: Now) -> Steps["Session"]:
        if not isinstance(data, Mapping):
            raise SessionError("error.save.not_object")
        if data.get("format") != SAVE_FORMAT:
            raise SessionError("error.save.format", format=excerpt(data.get("format")))
        session_id = data.get("id", "")
        if not isinstance(session_id, str):
            raise SessionError("error.save.id")
        seats_data = data.get("seats")
        if not isinstance(seats_data, list):
            raise SessionError("error.save.seats")
        seats = [Seat.from_json(seat) for seat in seats_data]
        meta = data.get("meta") or {}
        if not isinstance(meta, Mapping):
            raise SessionError("error.save.meta")
        revision = read_revision(data)
        record = Record.from_json(data.get("record"))
        clock_data = data.get("clock")
        control = None
        if clock_data is not None:
            if not isinstance(clock_data, Mapping):
                raise SessionError("error.save.clock")
            try:
                control = TimeControl.from_json(clock_data.get("control"))
            except ClockError as error:
                raise SessionError("error.session.clock", reason=error) from None
        session = yield from cls._from_record_steps(record, seats, session_id, participant_factory, meta,
                                                    control, clock_data, now)
        offer = data.get("draw_offer")
        if offer is not None and session.game.num_players == 2:   # alone (Abatis), an offer means nothing
            session._check_seat(offer)
            if session.is_over() or isinstance(offer, bool):
                raise SessionError("error.save.draw_offer")
            session.facts.draw_offer = offer
        session.draw_spacing = DrawOfferSpacing.from_json(data.get("draw_offered_at"), session.game.num_players,
                                                          session.game.draw_offer_every)
        session.revision, session.writer = revision
        return session

    def close(self) -> None:
        """Stop every participant and drop listeners (a new game replaces this one)."""
        self.version += 1          # any pending answer is now stale
        for participant in self.participants:
            participant.close()
        self.listeners.clear()

    def invalidate(self) -> None:
        """Drop any answer being prepared (a bot's search) without closing:
        the position it was asked about no longer counts (another tab of the
        game moved on), but the screen still shows this one."""
        self.version += 1

    # ----- continuing from an earlier position ---------------------------------------
    def to_move_at(self, ply: int) -> Player:
        """Whose turn it was after ``ply`` moves (from the kept facts, no replay)."""
        return self.moves.movers[ply] if ply < self.game.ply else self.game.to_move

    def branch_save(self, ply: int, seats: Sequence[Seat], session_id: str,
                    meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The save of a new game that plays on from the position after ``ply`` moves.

        Its record keeps this game's options, seed and set-up plus the first
        ``ply`` moves, rather than a set-up of the position there: the
        history stays whole, so rules that look back (Quadrature's ply
        limit), the move list, the last move shown, undo and an SGF export
        (which cannot start from a Dots position with regions) work as in the
        original game, in every game alike.  It is a save, not a session, so
        nothing is replayed here: the play screen opens it in slices like
        any saved game.  ``meta["branch"]`` says where it came from:
        ``{"from": this session's id, "ply": ply}``; no result, draw offer or
        clock is carried over.
        """
        ply = max(0, min(int(ply), self.game.ply))
        game = self.game
        record = Record(game.game_id, dict(game.options), game.seed, game.setup, list(self.moves.texts[:ply]))
        return {
            "format": SAVE_FORMAT,
            "id": session_id,
            "record": record.to_json(),
            "seats": [seat.to_json() for seat in seats],
            "draw_offer": None,
            "meta": {**dict(meta or {}), "branch": {"from": self.session_id, "ply": ply}},
            "rev": 0,
            "writer": "",
        }

MAX_REVISION = 2**53 - 1
"""Largest save version (a whole number JSON and JavaScript keep exactly)."""
MAX_WRITER_CHARS = 40


def read_revision(data: Mapping[str, Any]) -> tuple[int, str]:
    """A save's version and writer; a save from before versions has neither: (0, "")."""
    revision, writer = data.get("rev", 0), data.get("writer", "")
    if revision is None:
        revision = 0
    if writer is None:
        writer = ""
    if not isinstance(revision, int) or isinstance(revision, bool) or not 0 <= revision <= MAX_REVISION:
        raise SessionError("error.save.revision")
    if not isinstance(writer, str) or len(writer) > MAX_WRITER_CHARS:
        raise SessionError("error.save.writer")
    return revision, writer
