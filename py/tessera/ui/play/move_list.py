"""The numbered move list, changed a move at a time.

Rebuilding the list after every move made each move cost a DOM call per
move played: at move 1000 of a Dots game that was a 100+ ms task.  Here a
move appends one button (a new row every second move), an undo removes the
last ones, and a whole list (opening a saved game) is built as strings,
``RESET_SLICE`` moves a task: the newest at once (what the player sees,
scrolled to the end), the older ones put in front in the tasks after, so
no change costs more than a few calls into the browser whatever the game's
length (10,000 Abatis moves in one assignment was a task of 1.4-2 s).

Only the marked move is a Tab stop (``tabindex`` 0, the others -1): the
list is one stop in the tab order, not one per move; the arrow keys and the
buttons above it move through the game.

The rows come in blocks of ``BLOCK_ROWS``: the ``ol`` holds
``div.move-block`` elements of ``li.move-row``, and only the blocks near
sight are laid out and painted (``content-visibility`` on the block).  With
that on each of 500 rows instead, every frame of a move at move 1000 of a
Dots game checked 500 rows for sight, and the click itself hit-tested
through them: a frame and more before the dot showed.  A block is a plain
``div`` (not an ``li`` or a list with ``role="none"``, which would take the
rows' own role away), so a screen reader still finds one list of rows.

The markup is what the styles expect: ``li.move-row`` holding a
``span.move-number`` and one ``button.move[data-ply]`` per player with a
``span.move-text`` and, when the move gained something, ``span.move-conv``.
"""

from __future__ import annotations

from html import escape
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

from ...core.session import Session
from ...i18n import t
from ..dom import present

RESET_SLICE = 400
"""Moves of a whole list built in one task (an Abatis move with its gain is the longest row);
rounded to whole blocks."""
BLOCK_ROWS = 50
"""Rows of a block: few enough that a block in sight is cheap to lay out, many enough that
a game of thousands of moves has only dozens of blocks."""
BLOCK_OPEN = '<div class="move-block">'
BLOCK_CLOSE = "</div>"


def move_html(session: Session, ply: int, gain_key: str, sign: str = "×") -> str:
    """One move's button (``ply`` is 1-based)."""
    text = escape(session.moves.texts[ply - 1])
    gain = session.move_gain(ply)
    mark = (f'<span class="move-conv" title="{escape(t(gain_key, count=gain))}">{escape(sign)}{gain}</span>'
            if gain else "")
    return (f'<button type="button" class="move" data-ply="{ply}" tabindex="-1">'
            f'<span class="move-text">{text}</span>{mark}</button>')


def row_html(session: Session, first_ply: int, last_ply: int, gain_key: str, per_row: int = 2,
             sign: str = "×") -> str:
    """The row of moves ``first_ply``..``last_ply`` (up to ``per_row`` moves)."""
    number = (first_ply - 1) // per_row + 1
    moves = "".join(move_html(session, ply, gain_key, sign) for ply in range(first_ply, last_ply + 1))
    return f'<li class="move-row"><span class="move-number">{number}.</span>{moves}</li>'


class MoveList:
    """The ``<ol>`` of moves of one play screen, kept in step with the session."""

    def __init__(self, node: Any, gain_key: str, per_row: int = 2, sign: str = "×") -> None:
        self.node = node
        self.gain_key = gain_key
        self.per_row = per_row
        """Moves per numbered row: one per player (a one-player game: one)."""
        self.sign = sign
        """What stands before a move's gain: ``×3`` converted, ``+3`` points."""
        self.shown = 0
        """How many moves the list holds."""
        self.current: Any = None
        """The button marked as the position shown, if any."""
        self.marked = -1
        """The ply last passed to ``mark``."""
        self.filled_from = 1
        """The first ply the list holds: older moves are still being put in front (``reset``)."""
        self._generation = 0
        self._scroll_to: tuple[Any, bool] = (None, False)
        """The button to scroll into sight at the next frame, and whether it is the last move."""
        self._scroll_pending = False

    def _row_of(self, ply: int) -> int:
        """The 0-based row that holds ``ply``."""
        return (ply - 1) // self.per_row

    def _blocks(self, session: Session, first: int, last: int) -> str:
        """The blocks of plies ``first``..``last`` (``first`` starts a block)."""
        per_row, block_plies = self.per_row, BLOCK_ROWS * self.per_row
        out = []
        for start in range(first, last + 1, block_plies):
            end = min(start + block_plies - 1, last)
            out.append(BLOCK_OPEN)
            out.extend(row_html(session, ply, min(ply + per_row - 1, end), self.gain_key, per_row, self.sign)
                       for ply in range(start, end + 1, per_row))
            out.append(BLOCK_CLOSE)
        return "".join(out)

    def _block_start(self, ply: int) -> int:
        """The first ply of the block that holds ``ply``."""
        block_plies = BLOCK_ROWS * self.per_row
        return (ply - 1) // block_plies * block_plies + 1

    def reset(self, session: Session) -> None:
        """Show every move of ``session``: the newest ``RESET_SLICE`` now, the
        older ones in front of them, a slice a task, in the tasks after."""
        self._generation += 1
        count = session.game.ply
        self.current = None
        self.shown = count
        if count == 0:
            self.filled_from = 1
            self.node.innerHTML = f'<li class="moves-empty">{escape(t("moves.none"))}</li>'
            return
        self.filled_from = self._block_start(max(1, count - RESET_SLICE + 1))
        self.node.innerHTML = self._blocks(session, self.filled_from, count)
        if self.filled_from > 1:
            self._fill_later(session, self._generation)

    def _fill_later(self, session: Session, generation: int) -> None:
        def fill() -> None:
            if generation != self._generation or not self.node.isConnected:
                return   # reset again, or the screen is gone
            end = self.filled_from - 1
            start = self._block_start(max(1, end - RESET_SLICE + 1))
            self.node.insertAdjacentHTML("afterbegin", self._blocks(session, start, end))
            self.filled_from = start
            if self.current is not None:   # moves put in front push the marked one down: again
                self._request_scroll()
            if start > 1:
                self._fill_later(session, generation)
            elif self.current is None and 0 < self.marked <= self.shown:   # looked at before it was listed
                self.mark(self.marked)
        js.setTimeout(create_once_callable(fill), 0)

    def sync(self, session: Session) -> None:
        """Add or remove moves so the list matches the session (after a move
        or an undo: a few moves at the end, so a few calls)."""
        count = session.game.ply
        if abs(count - self.shown) > 8 or count == 0:
            self.reset(session)
            return
        while self.shown > count:
            self._remove_last()
        while self.shown < count:
            self._append(session, self.shown + 1)

    def _append(self, session: Session, ply: int) -> None:
        if ply == 1:
            self.node.innerHTML = ""  # the "no moves yet" line
        if (ply - 1) % self.per_row:   # the row is there: one more button in it
            row = self.node.lastElementChild.lastElementChild
            row.insertAdjacentHTML("beforeend", move_html(session, ply, self.gain_key, self.sign))
        else:
            row = row_html(session, ply, ply, self.gain_key, self.per_row, self.sign)
            if self._row_of(ply) % BLOCK_ROWS == 0:   # a block's first row: a new block
                self.node.insertAdjacentHTML("beforeend", BLOCK_OPEN + row + BLOCK_CLOSE)
            else:
                self.node.lastElementChild.insertAdjacentHTML("beforeend", row)
        self.shown = ply

    def _remove_last(self) -> None:
        block = self.node.lastElementChild
        row = block.lastElementChild
        if (self.shown - 1) % self.per_row:
            row.lastElementChild.remove()
        elif self._row_of(self.shown) % BLOCK_ROWS == 0:   # the block's only row
            block.remove()
        else:
            row.remove()
        if self.current is not None and int(self.current.dataset.ply) >= self.shown:
            self.current = None
        self.shown -= 1

    def mark(self, ply: int) -> None:
        """Mark the move whose position is shown, and scroll it into view
        (only when the mark moves: a redraw must not undo the player's scrolling)."""
        if self.current is not None and self.marked == ply:
            return
        self.marked = ply
        if self.current is not None:
            self.current.removeAttribute("aria-current")
            self.current.setAttribute("tabindex", "-1")
            self.current = None
        if not 0 < ply <= self.shown:
            return
        index = (self._row_of(ply) - self._row_of(self.filled_from)) // BLOCK_ROWS
        block = self.node.children.item(index) if index >= 0 else None
        button = block.querySelector(f'button.move[data-ply="{ply}"]') if present(block) else None
        if not present(button):   # not in the list yet (``reset`` is still filling it): marked when it is
            return
        button.setAttribute("aria-current", "step")
        button.setAttribute("tabindex", "0")
        self.current = button
        self._scroll_to = (button, ply == self.shown)
        self._request_scroll()

    def _request_scroll(self) -> None:
        if not self._scroll_pending:
            self._scroll_pending = True
            js.requestAnimationFrame(create_once_callable(self._scroll_into_sight))

    def _scroll_into_sight(self, *_: Any) -> None:
        """Scroll the marked move into sight, at the frame: reading the list's layout in the
        move's own task laid the list out there and again for the frame (at move 1000 of a
        Dots game, a few ms more for every move)."""
        self._scroll_pending = False
        button, live = self._scroll_to
        scroller = self.node.parentElement
        if not present(scroller) or not button.isConnected:
            return
        if live:  # the live position: show the end of the list, as a move sheet does
            scroller.scrollTop = scroller.scrollHeight
            return
        box, place = scroller.getBoundingClientRect(), button.getBoundingClientRect()
        if place.top < box.top or place.bottom > box.bottom:  # out of sight: bring it to the middle
            scroller.scrollTop += place.top - box.top - (box.height - place.height) / 2
