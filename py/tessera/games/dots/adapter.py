"""Dots on the play screen: point names, landing as an extra action that
says what it gives away, and what a capture announces (see ``core.game_ui``)."""

from __future__ import annotations

from typing import Any

from ...core.game import Game, Move
from ...core.game_ui import ActionQuestion, ExtraAction, GameUI, ViewToggle
from ...i18n import t
from . import LAND
from .field import OFF


def landing_preview(game: Game) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Scores now and if the side to move declared landing now."""
    before = game.scores()
    trial = game.copy()
    trial.push(LAND)
    return before, trial.scores()


def landing_question(game: Game) -> ActionQuestion:
    """Confirm landing, saying what each side would get and how it ends."""
    seat = game.to_move
    before, after = landing_preview(game)
    names = game.seat_names
    other = 1 - seat
    gain = after[other] - before[other]
    loss = before[seat] - after[seat]
    lines = [t("land.gain", side=t(f"seat.{names[other]}"), count=gain)] if gain else []
    if not gain and not loss:
        lines.append(t("land.safe"))
    if loss:
        lines.append(t("land.loss", side=t(f"seat.{names[seat]}"), count=loss))
    blue, red = after
    verdict = ("land.result.draw" if blue == red else
               "land.result.win" if (blue > red) == (seat == 0) else "land.result.lose")
    lines.append(t("land.final", blue=blue, red=red) + " " + t(verdict, side=t(f"seat.{names[seat]}")))
    return ActionQuestion(t("land.question", side=t(f"seat.{names[seat]}")), t("action.land"), " ".join(lines))


def _land(game: Game) -> Move:
    return LAND


def _can_land(session: Any) -> bool:
    return session.is_local_turn() and not session.is_viewing_history()


class DotsUI(GameUI):
    flippable = False
    gain_key = "moves.captured"
    small_screen_options = {"size": "20x20"}
    view_toggles = (ViewToggle("threats", "dots.show_threats", assist=True, reading=True),)
    hint_level = "hard"

    def cell_name(self, cell: Any) -> str:
        if isinstance(cell, tuple):
            return f"{cell[0]}-{cell[1]}"
        return str(cell)

    def default_flipped(self, session: Any) -> bool:
        """The field is always seen as the document numbers it (1-1 bottom left)."""
        return False

    def read(self, what: str, game: Game) -> Any:
        """``threats``: ``[point, player, dots]`` where a side captures now (``eval.open_captures``)."""
        if what != "threats":
            return super().read(what, game)
        from .eval import open_captures
        return [] if game.is_over() else [list(found) for found in open_captures(game.field)]  # type: ignore[attr-defined]

    def extra_actions(self) -> list[ExtraAction]:
        return [ExtraAction("land", "action.land", _land, _can_land, ask=landing_question)]

    def describe_cell(self, game: Game, state: Any, cell: Any) -> str:
        """"12-7, empty"; "12-7, blue dot"; "12-7, red dot, surrounded by Blue";
        "12-7, inside Red's region"; a ghost dot waiting for confirmation."""
        names = game.seat_names
        field = game.field  # type: ignore[attr-defined]
        x, y = cell
        index = field.cell(x, y)
        dot, owner = field.dot[index], field.owner[index]
        parts = [self.cell_name(cell)]
        if dot and dot != OFF:
            parts.append(t(f"cell.dot.{names[dot - 1]}"))
            if owner:
                parts.append(t("cell.surrounded", side_of=t(f"seat.{names[owner - 1]}.of")))
        elif owner:
            parts.append(t("cell.inside", side_of=t(f"seat.{names[owner - 1]}.of")))
        else:
            parts.append(t("cell.empty"))
            if state.selected == cell:
                parts.append(t("cell.ghost"))
        return ", ".join(parts)

    def move_note(self, session: Any, event: Any) -> str | None:
        """Who captured how many dots with this move, and the score now."""
        game = session.game
        if game.ply == 0:
            return None
        old, new = session.moves.scores[-2], session.moves.scores[-1]
        notes = []
        for seat in (0, 1):
            gain = new[seat] - old[seat]
            if gain > 0:
                notes.append(t("announce.dots_captured", side=t(f"seat.{game.seat_names[seat]}"),
                               count=gain, score=f"{new[0]}:{new[1]}"))
        return " ".join(notes) or None


ADAPTER = DotsUI
