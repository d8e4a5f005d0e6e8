"""The bots' side of the page's worker: requests in, answers out, in slices.

The page's main thread only draws: every bot move, hint, review and
reading runs in a Web Worker with a Pyodide of its own
(``assets/js/think-worker.js``), which hands each message from the page to
``ThinkService.receive`` and calls ``step`` between its own event-loop
turns, so a newer message (a cancel) is read within one slice.  Pure
Python and JSON strings in and out: the same service runs in CPython tests.

Requests (JSON objects; ``type`` says which):

* ``{"type": "move", "id": N, "key": K, "bot": BOT, "record": RECORD}``:
  the bot's move at the record's last position; answered
  ``{"type": "move", "id": N, "move": TEXT | null, "nodes", "depth", "ms",
  "pondered": bool}``.  ``key`` names the page's participant (or its hint):
  the service keeps that key's bot object (a bot may carry state from move
  to move, as it does on the main thread) and its last position (so a
  request replays only the moves since the last one).
* ``{"type": "ponder", "key": K, "bot": BOT, "record": RECORD}``: read on
  the opponent's time (``bots.ponder``), no answer; the key's next
  ``move`` request uses it when it comes after the expected reply.
* ``{"type": "review", "id": N, "record": RECORD}`` (``"movetime_ms"``
  optional: the time per position): ``bots.review`` over
  the game; one ``{"type": "reviewed", "id", "review": REVIEW}`` per move as
  it is made, then ``{"type": "review", "id", "reviews": [REVIEW...]}``.
* ``{"type": "reading", "id": N, "what": NAME, "record": RECORD}``: a game's
  reading of the position (``GameUI.read``: Dots' threats), answered
  ``{"type": "reading", "id", "what", "value"}``.
* ``{"type": "cancel", "id": N}``: the page no longer wants it (a move was
  made meanwhile); answered ``{"type": "cancelled", "id"}`` if it was still
  running.  ``{"type": "stop", "key": K}``: stop pondering (a take-back);
  ``{"type": "forget", "key": K}``: the session closed.

``BOT`` is ``{"name", "seed", "movetime_ms", "params"}`` (``bots.registry``);
``RECORD`` a ``tessera/1`` record.  A request that fails is answered
``{"type": "error", "id", "error": TEXT}``; the page then thinks itself.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from ..core.game import Game
from ..core.record import Record
from ..core.steps import UNFINISHED, Steps, run_slice
from .base import Bot
from .ponder import Ponder, predictor_for
from .registry import levels_for, make_bot

MOVE_RANK, READING_RANK, REVIEW_RANK = 1, 0, 2
"""Which job runs first: a reading is quick and the board waits for it;
then a bot's move or a hint; a review last.  Pondering runs only when
nothing else waits."""
PONDER_LIMIT_S = 60.0
"""A ponder stops reading after this long (the player stepped away); what
it read is kept for the reply."""
KEYS_KEPT = 8
"""Bots and positions kept (one per participant or hint of the open games)."""


@dataclass
class Job:
    id: int
    rank: int
    steps: Steps[dict[str, Any]]
    key: str | None = None


@dataclass
class Keyed:
    """What the service keeps for one key: its bot, and its last position."""

    spec: tuple[str, int, int, str]
    bot: Bot
    header: tuple[str, str, int, str | None] | None = None
    texts: list[str] | None = None
    game: Game | None = None
    ponder: Ponder | None = None
    ponder_started: float = 0.0
    ponder_done: bool = False


class ThinkService:
    """Requests in (``receive``), work in slices (``step``), answers out."""

    def __init__(self, clock: Any = time.perf_counter) -> None:
        self.clock = clock
        self.jobs: list[Job] = []
        self.keyed: dict[str, Keyed] = {}
        self.outbox: list[dict[str, Any]] = []

    # ----- the worker's calls (JSON text in, a JSON list of messages out) ----------
    def receive(self, text: str) -> str:
        message: Any = None
        try:
            message = json.loads(text)
            self.handle(message)
        except Exception as error:  # a bad message is answered, never fatal to the worker
            ident = message.get("id") if isinstance(message, dict) else None
            self.outbox.append({"type": "error", "id": ident, "error": f"{type(error).__name__}: {error}"})
        return self.flush()

    def step(self, slice_ms: float) -> str:
        """Run the most urgent work for about ``slice_ms``."""
        self.run(slice_ms)
        return self.flush()

    def busy(self) -> bool:
        return bool(self.jobs) or any(self._ponder_wants_time(k) for k in self.keyed.values())

    def flush(self) -> str:
        out, self.outbox = self.outbox, []
        return json.dumps(out) if out else ""

    # ----- requests -------------------------------------------------------------
    def handle(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "cancel":
            self.cancel(message.get("id"))
        elif kind == "forget":
            self.forget(str(message.get("key")))
        elif kind == "stop":
            self._drop_ponder(str(message.get("key")))
        elif kind == "move":
            self._start_move(message)
        elif kind == "ponder":
            self._start_ponder(message)
        elif kind == "review":
            record = Record.from_json(message.get("record"))
            movetime = message.get("movetime_ms")
            self.jobs.append(Job(int(message["id"]), REVIEW_RANK, self._review(
                int(message["id"]), record, int(movetime) if isinstance(movetime, int) else None)))
        elif kind == "reading":
            record = Record.from_json(message.get("record"))
            self.jobs.append(Job(int(message["id"]), READING_RANK,
                                 self._reading(int(message["id"]), str(message.get("what")), record)))
        else:
            raise ValueError(f"unknown request {kind!r}")

    def cancel(self, ident: Any) -> None:
        for job in [j for j in self.jobs if j.id == ident]:
            self.jobs.remove(job)
            job.steps.close()
            if job.key is not None:   # its bot's search stopped half-way: the bot object is fine,
                self._drop_ponder(job.key)   # a ponder it had taken over is not
            self.outbox.append({"type": "cancelled", "id": ident})

    def forget(self, key: str) -> None:
        for job in [j for j in self.jobs if j.key == key]:
            self.jobs.remove(job)
            job.steps.close()
        self._drop_ponder(key)
        self.keyed.pop(key, None)

    # ----- moves and pondering ----------------------------------------------------
    def _start_move(self, message: dict[str, Any]) -> None:
        ident, key = int(message["id"]), str(message["key"])
        self._stop_key_jobs(key)
        record = Record.from_json(message.get("record"))
        keyed = self._keyed(key, record.game, message.get("bot"))
        game = self._position(keyed, record)
        ponder, keyed.ponder = keyed.ponder, None
        read_ahead = ponder is not None and ponder.reading_ahead
        if ponder is not None and not ponder.hit(game):
            ponder.drop()   # a bot that read ahead keeps what it read for its search
            ponder = None
        self.jobs.append(Job(ident, MOVE_RANK, self._move(ident, keyed.bot, game.copy(), ponder, read_ahead), key))

    def _move(self, ident: int, bot: Bot, game: Game, ponder: Ponder | None,
              read_ahead: bool = False) -> Steps[dict[str, Any]]:
        started = self.clock()
        if ponder is not None:
            move = yield from ponder.resume()
        else:
            move = yield from bot.search(game.copy())
        return {"type": "move", "id": ident, "move": game.move_text(move) if move is not None else None,
                "nodes": getattr(bot, "nodes", None), "depth": getattr(bot, "depth_reached", None),
                "ms": round((self.clock() - started) * 1000.0, 1), "pondered": ponder is not None,
                "read_ahead": read_ahead}

    def _start_ponder(self, message: dict[str, Any]) -> None:
        key = str(message["key"])
        self._stop_key_jobs(key)
        record = Record.from_json(message.get("record"))
        keyed = self._keyed(key, record.game, message.get("bot"))
        game = self._position(keyed, record)
        self._drop_ponder(key)
        if game.is_over():
            return
        name, seed, movetime_ms, params = keyed.spec
        extra = json.loads(params)
        keyed.ponder = Ponder(keyed.bot, game, predictor_for(
            keyed.bot, lambda s, ms: make_bot(name, s, ms, **extra)))
        keyed.ponder_started = self.clock()
        keyed.ponder_done = False

    def _ponder_wants_time(self, keyed: Keyed) -> bool:
        return (keyed.ponder is not None and not keyed.ponder_done
                and self.clock() - keyed.ponder_started < PONDER_LIMIT_S)

    def _drop_ponder(self, key: str) -> None:
        keyed = self.keyed.get(key)
        if keyed is not None and keyed.ponder is not None:
            keyed.ponder.drop()
            keyed.ponder = None

    def _stop_key_jobs(self, key: str) -> None:
        """One search at a time per bot: a newer request of a key replaces its older one."""
        for job in [j for j in self.jobs if j.key == key]:
            self.jobs.remove(job)
            job.steps.close()
            self.outbox.append({"type": "cancelled", "id": job.id})

    # ----- reviews and readings ---------------------------------------------------
    def _review(self, ident: int, record: Record, movetime_ms: int | None) -> Steps[dict[str, Any]]:
        from .review import review_steps
        reviews = yield from review_steps(record, on_move=lambda review: self.outbox.append(
            {"type": "reviewed", "id": ident, "review": review_json(review)}), movetime_ms=movetime_ms)
        return {"type": "review", "id": ident, "reviews": [review_json(r) for r in reviews]}

    def _reading(self, ident: int, what: str, record: Record) -> Steps[dict[str, Any]]:
        from ..core.game_ui import game_ui
        game = yield from _replayed(record)
        value = game_ui(record.game).read(what, game)
        return {"type": "reading", "id": ident, "what": what, "value": value}

    # ----- running ------------------------------------------------------------------
    def run(self, slice_ms: float) -> None:
        if self.jobs:
            job = min(self.jobs, key=lambda j: j.rank)   # the first of the most urgent rank
            try:
                result = run_slice(job.steps, slice_ms)
            except Exception as error:  # the page falls back to thinking itself
                self.jobs.remove(job)
                if job.key is not None:
                    self._drop_ponder(job.key)
                    self.keyed.pop(job.key, None)
                self.outbox.append({"type": "error", "id": job.id, "error": f"{type(error).__name__}: {error}"})
                return
            if result is not UNFINISHED:
                self.jobs.remove(job)
                self.outbox.append(result)  # type: ignore[arg-type]
            return
        for key, keyed in list(self.keyed.items()):
            if self._ponder_wants_time(keyed):
                try:
                    keyed.ponder_done = keyed.ponder.run(slice_ms)   # type: ignore[union-attr]
                except Exception:  # a ponder that fails only costs its reading
                    self._drop_ponder(key)
                return

    # ----- keys: bots and positions -------------------------------------------------
    def _keyed(self, key: str, game_id: str, bot: Any) -> Keyed:
        if not isinstance(bot, dict):
            raise ValueError("no bot")
        levels_for(game_id)   # a game's own bots register when its levels are imported
        spec = (str(bot["name"]), int(bot.get("seed", 0)), int(bot.get("movetime_ms", 1000)),
                json.dumps(bot.get("params") or {}, sort_keys=True))
        keyed = self.keyed.get(key)
        if keyed is not None and keyed.spec != spec:   # another bot (a hint's seed follows the ply):
            self._drop_ponder(key)                      # keep the position, not the bot
            keyed.spec, keyed.bot = spec, make_bot(spec[0], spec[1], spec[2], **json.loads(spec[3]))
        if keyed is None:
            keyed = Keyed(spec, make_bot(spec[0], spec[1], spec[2], **json.loads(spec[3])))
            self.keyed[key] = keyed
            while len(self.keyed) > KEYS_KEPT:
                oldest = next(iter(self.keyed))
                self._drop_ponder(oldest)
                del self.keyed[oldest]
        return keyed

    def _position(self, keyed: Keyed, record: Record) -> Game:
        """The record's last position, from the key's last one when the
        record goes on from it (or took moves back): a move at ply 1000
        replays one move, not 1000."""
        header = (record.game, json.dumps(record.options, sort_keys=True), record.seed, record.setup)
        game, texts = keyed.game, keyed.texts
        if game is None or texts is None or keyed.header != header:
            game, texts = record.new_game(), []
        common = 0
        limit = min(len(texts), len(record.moves))
        while common < limit and texts[common] == record.moves[common]:
            common += 1
        while len(texts) > common:
            game.pop()
            texts.pop()
        keyed.game = None   # until it is whole again: a bad move leaves nothing half-replayed
        for text in record.moves[common:]:
            game.push(game.parse_move(text))
            texts.append(text)
        keyed.header, keyed.texts, keyed.game = header, texts, game
        return game


def _replayed(record: Record) -> Steps[Game]:
    game = record.new_game()
    yield from record.play_moves(game)
    return game


def review_json(review: Any) -> dict[str, Any]:
    """A ``bots.review.MoveReview`` as JSON (the page parses the move where it is shown)."""
    return {"ply": review.ply, "mover": review.mover, "best": review.best_text if review.best is not None else None,
            "loss": review.loss, "mistake": review.mistake}
