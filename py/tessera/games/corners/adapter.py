"""Corners on the play screen: cell names, the panel's numbers, Pass in the
final round, the captures one by one (buttons and keys under the board,
each previewed with what it paints and fills), a Hint, and what the cursor
and a move announce (see ``core.game_ui``)."""

from __future__ import annotations

from typing import Any

from ...core.game import Game, Move
from ...core.game_ui import DraftAction, ExtraAction, GameUI
from ...i18n import t
from .geometry import CAPTURE_BASE, PASS, RECTANGLES, cell_name
from .view import Pick, candidates, previewed_capture


def capture_list(game: Game) -> list[int]:
    """Every capture the side to move may make (rectangle indices), those that
    paint and fill the most first."""
    found = candidates(game, ())
    return sorted(found, key=lambda index: (-sum(capture_gain(game, index)), RECTANGLES[index].corners))


def capture_gain(game: Game, index: int) -> tuple[int, int]:
    """(corners it paints, cells it fills) for capture ``index`` now."""
    rect = RECTANGLES[index]
    painted = (rect.corner_mask & ~game.painted).bit_count()  # type: ignore[attr-defined]
    return painted, (rect.inside_mask & game.empty).bit_count()  # type: ignore[attr-defined]


def _picked(selected: Any) -> tuple[int, ...]:
    return selected.cells if isinstance(selected, Pick) else ()


def _step(game: Game, selected: Any, step: int) -> tuple[Any, Move | None]:
    """The next (or previous) capture of ``capture_list``, previewed as a pick of its corners."""
    found = capture_list(game)
    if not found:
        return selected, None
    current = previewed_capture(game, _picked(selected))
    position = found.index(current) + step if current in found else (0 if step > 0 else -1)
    return Pick(RECTANGLES[found[position % len(found)]].corners), None


def _capture(game: Game, selected: Any) -> tuple[Any, Move | None]:
    index = previewed_capture(game, _picked(selected))
    return (None, CAPTURE_BASE + index) if index is not None else (selected, None)


def _has_captures(game: Game, selected: Any) -> bool:
    return bool(candidates(game, ()))


def _can_capture(game: Game, selected: Any) -> bool:
    return previewed_capture(game, _picked(selected)) is not None


def _pass(game: Game) -> Move:
    return PASS


def _can_pass(session: Any) -> bool:
    return (session.is_local_turn() and not session.is_viewing_history()
            and session.game.final_left is not None and not session.game.is_over())


class CornersUI(GameUI):
    gain_key = "moves.painted"
    hint_level = "hard"
    first_tip = "tip.corners.capture"

    def draft_actions(self) -> list[DraftAction]:
        """Step through the captures the side may make (each previewed, with
        what it paints in the note) and make the one shown; the stepping reads
        the position for the player, so it is not offered online against a person."""
        return [DraftAction("previous-capture", "corners.previous_capture", lambda g, d: _step(g, d, -1),
                            _has_captures, keys=("[", "х"), assist=True),
                DraftAction("next-capture", "corners.next_capture", lambda g, d: _step(g, d, 1),
                            _has_captures, keys=("]", "ъ", "c", "C", "с", "С"), assist=True),
                DraftAction("capture", "corners.capture", _capture, _can_capture, keys=("p", "P", "з", "З"),
                            primary=True)]

    def draft_note(self, game: Game, draft: Any) -> str | None:
        """What the capture previewed does (and its place in the list), or how many still fit."""
        picked = _picked(draft)
        index = previewed_capture(game, picked)
        if index is not None:
            painted, filled = capture_gain(game, index)
            found = capture_list(game)
            corners = "–".join(cell_name(c) for c in RECTANGLES[index].corners)
            what = t("corners.capture_gain", paints=t("corners.paints", count=painted),
                     fills=t("corners.fills", count=filled))
            if index in found:
                return t("corners.capture_of", number=found.index(index) + 1, total=len(found),
                         corners=corners, what=what)
            return t("corners.capture_one", corners=corners, what=what)
        if picked:
            return t("corners.rectangles_fit", count=len(candidates(game, picked)))
        found = candidates(game, ()) if game.final_left is None or game.final_left else []  # type: ignore[attr-defined]
        return t("corners.captures_now", count=len(found)) if found else None

    def cell_name(self, cell: Any) -> str:
        return cell_name(cell) if isinstance(cell, int) else str(cell)

    def stats(self, game: Game, seat: int) -> list[tuple[str, str, str]]:
        return [("panel.painted", str(game.scores()[seat]), "score"),
                ("panel.pieces", str(game.pieces[seat].bit_count()), "pieces")]  # type: ignore[attr-defined]

    def extra_actions(self) -> list[ExtraAction]:
        return [ExtraAction("pass", "action.pass", _pass, _can_pass)]

    def status_note(self, game: Game) -> str | None:
        left = game.final_left  # type: ignore[attr-defined]
        if left is None or left == 0:
            return None
        return t("corners.final_round", count=left)

    def describe_cell(self, game: Game, state: Any, cell: Any) -> str:
        """"d4, empty"; "c3, circle, painted"; while corners are picked, how
        many rectangles are still possible and whether this cell is one."""
        names = game.seat_names
        piece = game.piece_at(cell)  # type: ignore[attr-defined]
        parts = [self.cell_name(cell)]
        if piece is None:
            parts.append(t("cell.empty"))
        else:
            side, painted = piece
            parts.append(t(f"cell.corners.{names[side]}"))
            if painted:
                parts.append(t("cell.corners.painted"))
        if isinstance(state.selected, Pick):
            picked = state.selected.cells
            if cell in picked:
                parts.append(t("cell.corners.picked"))
            fitting = candidates(game, picked)
            parts.append(t("cell.corners.rectangles_left", count=len(fitting)))
        return ", ".join(parts)

    def move_note(self, session: Any, event: Any) -> str | None:
        """A capture: what it painted and filled, and the score now."""
        game = session.game
        if not game.move_stack:
            return None
        move = game.move_stack[-1]
        if not (isinstance(move, int) and CAPTURE_BASE <= move < PASS):
            return None
        old, new = session.moves.scores[-2], session.moves.scores[-1]
        mover = 1 - game.to_move
        before = game.copy()
        before.pop()
        filled = (RECTANGLES[move - CAPTURE_BASE].inside_mask & before.empty).bit_count()
        return t("announce.corners_capture", side=t(f"seat.{game.seat_names[mover]}"),
                 painted=new[mover] - old[mover], filled=filled, score=f"{new[0]}:{new[1]}")


ADAPTER = CornersUI
