"""Corners on the play screen: cell names, the panel's numbers, Pass in the
final round, the "show every capture" option and what the cursor and a
move announce (see ``core.game_ui``)."""

from __future__ import annotations

from typing import Any

from ...core.game import Game, Move
from ...core.game_ui import ExtraAction, GameUI, ViewToggle
from ...i18n import t
from .geometry import CAPTURE_BASE, PASS, RECTANGLES, cell_name
from .view import Pick, candidates


def _pass(game: Game) -> Move:
    return PASS


def _can_pass(session: Any) -> bool:
    return (session.is_local_turn() and not session.is_viewing_history()
            and session.game.final_left is not None and not session.game.is_over())


class CornersUI(GameUI):
    view_toggles = (ViewToggle("all_captures", "corners.show_captures", assist=True),)
    gain_key = "moves.painted"

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
