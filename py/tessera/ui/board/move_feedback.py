"""What a move does on the play screen besides changing the position: it
animates, it sounds, and an opponent's move (the bot's reply) cannot be missed.

* Animation: the board view describes the move as a timeline
  (``move_animation``, ``core/animation.py``) and the board plays it.
  Setting ``animation``: ``normal``, ``fast`` or ``off``; until the player
  chooses, ``off`` if the system asks for reduced motion, else ``normal``.
* Sound: ``assets/js/sound.js`` makes a short tone with the Web Audio API,
  another for a capture or conversion and one when the game ends.  Setting
  ``sound``: on by default, as lichess does.
* An opponent's answer that comes quickly (an easy bot's) waits until the
  player's own move has finished animating (``settled``), so neither is cut
  short; the bot thinks meanwhile.
* An opponent's move: its animation ends with a ring spreading from where
  it landed (a zoomed field pans to show it), the board marks it as the
  last move, the panel of the player now to move and the status line light
  up for a moment, a screen reader hears "... Your move", and a page in a
  background tab says so in its title.

Both settings are ``ui/settings.py`` specs (``install_settings``), so the
settings menu offers them with the others.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Iterable

import js  # type: ignore[import-not-found]

from ...core.animation import MAX_TOTAL_MS, SPEED_FACTORS, SPEED_NORMAL, SPEED_OFF, SPEEDS
from ...i18n import t
from .. import settings
from ..dom import Listeners, present

if TYPE_CHECKING:  # the app installs the settings at start, before any board exists
    from ...core.session import MoveEvent, Session
    from .canvas import BoardComponent

ANIMATION = "animation"
SOUND = "sound"


def reduced_motion() -> bool:
    """The system asks for less motion (``prefers-reduced-motion: reduce``)."""
    try:
        return bool(js.matchMedia("(prefers-reduced-motion: reduce)").matches)
    except Exception:  # no matchMedia
        return False


def setting_specs() -> list[settings.SettingSpec]:
    return [
        settings.SettingSpec(ANIMATION, SPEEDS, SPEED_OFF if reduced_motion() else SPEED_NORMAL),
        settings.SettingSpec(SOUND, settings.SWITCH, "on"),
    ]


def install_settings() -> None:
    """Put the two settings in the settings menu (once)."""
    for spec in setting_specs():
        try:
            settings.spec_for(spec.key)
        except KeyError:
            settings.register(spec)


def play_sound(kind: str) -> None:
    """``move``, ``capture`` or ``end``, if sound is on (and the page may sound)."""
    if not settings.is_on(SOUND):
        return
    sound = getattr(js, "tesseraSound", None)
    if sound is not None and present(sound):
        sound.play(kind)


def flash(node: Any) -> None:
    """Light ``node`` up for a moment (CSS ``[data-attention]``), again if it already was."""
    if not present(node):
        return
    node.removeAttribute("data-attention")
    _ = node.offsetWidth  # a reflow in between restarts the CSS animation
    node.setAttribute("data-attention", "")


class MoveFeedback:
    """The play screen's animations, sounds and attention for one board."""

    def __init__(self, board: BoardComponent) -> None:
        install_settings()
        self.board = board
        self.listeners = Listeners()
        self._title_changed = False
        self._shown_ply: int | None = None   # the ply the board showed last
        self.listeners.on(js.document, "visibilitychange", lambda event: self._restore_title())

    def close(self) -> None:
        self._restore_title(force=True)
        self.listeners.clear()

    def move_made(self, session: Session, event: MoveEvent) -> None:
        """Call before the screen redraws for ``event``: starts the animation
        (so the first frame drawn is its start) and plays the sound."""
        self._shown_ply = event.ply
        emphasis = not session.is_local_seat(event.seat)
        self._animate(session.game, event.move, emphasis)
        cell_of = getattr(self.board.view, "move_cell", None)
        if emphasis and cell_of is not None:
            self.board.reveal(cell_of(session.game, event.move))  # a zoomed field pans to show it
        if event.outcome is not None:
            play_sound("end")
        else:
            play_sound("capture" if session.move_gain(event.ply) > 0 else "move")

    def viewed(self, session: Session) -> None:
        """Call before the screen redraws for another ply shown: one step
        forward through the moves (a replay) animates and sounds that move,
        as lichess does; any other jump just shows the position."""
        ply, previous = session.shown_ply, self._shown_ply
        self._shown_ply = ply
        if previous is None or ply != previous + 1 or ply < 1:
            return
        game = session.shown_game()
        self._animate(game, game.move_stack[-1], False)
        play_sound("capture" if session.move_gain(ply) > 0 else "move")

    def _animate(self, game: Any, move: Any, emphasis: bool) -> None:
        factor = SPEED_FACTORS.get(settings.get(ANIMATION), SPEED_FACTORS[SPEED_NORMAL])
        describe = getattr(self.board.view, "move_animation", None)
        if describe is not None and factor > 0:
            self.board.animate(describe(game, move, emphasis).scaled(factor), game)

    async def settled(self) -> None:
        """Return once the move animating (if any) has finished: an answer
        that came quickly (the bot's) waits for it, so the player sees their
        own move, conversions and captures, before the reply."""
        wait = min(self.board.motion.remaining_ms(), MAX_TOTAL_MS)
        if wait > 0:
            await asyncio.sleep(wait / 1000.0)

    def opponent_moved(self, nodes: Iterable[Any]) -> None:
        """Call after the screen redrew for an opponent's move that gives a
        local player the turn: light up ``nodes`` (their panel, the status)
        and, in a background tab, say "Your move" in the title."""
        for node in nodes:
            flash(node)
        if js.document.hidden:
            js.document.title = t("title.your_move", title=t("app.title"))
            self._title_changed = True

    def _restore_title(self, force: bool = False) -> None:
        if self._title_changed and (force or not js.document.hidden):
            js.document.title = t("app.title")
            self._title_changed = False
