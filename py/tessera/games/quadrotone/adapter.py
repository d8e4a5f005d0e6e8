"""Quadrotone on the play screen: the panel's numbers (points, chips, moves
left of each kind and size), the buttons that compose a move of up to eight
chips (``compose``), what the draft would score, whose hand the board shows
(``view_highlights``), and screen-reader words."""

from __future__ import annotations

from typing import Any

from ...core.game import Game, Move
from ...core.game_ui import DraftAction, GameUI, ViewToggle
from ...i18n import say, t
from .chips import chip_text
from .compose import FIELD, HAND, Draft, as_move, cycle_hand, is_draft, take_back, turn
from .notation import ARRANGE
from .field import square_name
from .rules import Quadrotone
from .tray import CLOSE, OPEN, close_sheet, is_page, sheet_open


def _draft(selected: Any) -> Draft:
    return selected if is_draft(selected) else Draft()


def _turn(game: Game, selected: Any) -> tuple[Any, Move | None]:
    following = turn(game, close_sheet(_draft(selected)))
    return (None if following.empty else following), None


def _take_back(game: Game, selected: Any) -> tuple[Any, Move | None]:
    following = take_back(_draft(selected))
    return (None if following.empty else following), None


def _clear(game: Game, selected: Any) -> tuple[Any, Move | None]:
    return None, None


def _play(game: Game, selected: Any) -> tuple[Any, Move | None]:
    return selected, as_move(game, _draft(selected))


def _can_turn(game: Game, selected: Any) -> bool:
    draft = close_sheet(_draft(selected))
    return draft.held is not None or bool(draft.items)


def _has_any(game: Game, selected: Any) -> bool:
    return not _draft(selected).empty


def _can_play(game: Game, selected: Any) -> bool:
    move = as_move(game, _draft(selected))
    return move is not None and game.check(move) is None  # type: ignore[attr-defined]


def _next_chip(game: Game, selected: Any) -> tuple[Any, Move | None]:
    return cycle_hand(sorted(game.hands[game.to_move]), _draft(selected), 1), None  # type: ignore[attr-defined]


def _previous_chip(game: Game, selected: Any) -> tuple[Any, Move | None]:
    return cycle_hand(sorted(game.hands[game.to_move]), _draft(selected), -1), None  # type: ignore[attr-defined]


def _holds(game: Game, selected: Any) -> bool:
    """A chip is held (from the hand or the field): the wheel turns it."""
    held = _draft(selected).held
    return held is not None and held[0] in (HAND, FIELD)


def _can_pick(game: Game, selected: Any) -> bool:
    return bool(game.hands[game.to_move]) and _draft(selected).kind != ARRANGE  # type: ignore[attr-defined]


def _left(numbers: tuple[int, ...]) -> str:
    return " ".join(str(n) for n in numbers)


class QuadrotoneUI(GameUI):
    flippable = False
    panels_beside_board = True
    hint_level = "medium"
    """Hint: the medium level's move (it reads many candidates in a second),
    its chips drawn where they would lie."""
    gain_key = "moves.points"
    gain_sign = "+"
    view_toggles = (ViewToggle("group_hand", "quadrotone.group_hand"),)

    def view_highlights(self, session: Any) -> dict[str, Any]:
        """The tray shows the one player's hand against the bot (also while it
        thinks), and the side to move's between two people on this device."""
        local = session.local_seats()
        if len(local) == 1:
            return {"hand_seat": local[0], "hand_own": True}
        return {"hand_seat": session.shown_game().to_move, "hand_own": False}

    def cell_name(self, cell: Any) -> str:
        if cell in (OPEN, CLOSE):
            return t("tray.quadrotone.open" if cell == OPEN else "tray.quadrotone.close")
        if is_page(cell):
            return t("tray.quadrotone.to_page", page=cell[2] + 1)
        if isinstance(cell, int):
            return square_name(cell)
        if isinstance(cell, tuple) and len(cell) == 2 and cell[0] == HAND:
            return chip_text(cell[1])
        return str(cell)

    def stats(self, game: Game, seat: int) -> list[tuple[str, str, str]]:
        assert isinstance(game, Quadrotone)
        placing, arranging = game.limits_left(seat)
        rows = [("panel.quadrotone.points", str(game.points[seat]), "score"),
                ("panel.quadrotone.hand", str(len(game.hands[seat])), "pieces")]
        if any(placing):
            rows.append(("panel.quadrotone.place_left", _left(placing), "limits"))
        rows.append(("panel.quadrotone.arrange_left", _left(arranging), "limits"))
        return rows

    def draft_actions(self) -> list[DraftAction]:
        return [DraftAction("turn", "draft.turn", _turn, _can_turn, keys=("r", "R", "к", "К")),
                DraftAction("take-back", "draft.take_back", _take_back, _has_any, keys=("Backspace",)),
                DraftAction("clear", "draft.clear", _clear, _has_any),
                DraftAction("play", "draft.play", _play, _can_play, keys=("p", "P"), primary=True),
                DraftAction("wheel-turn", "draft.turn", _turn, _holds, button=False, wheel=True),
                DraftAction("next-chip", "draft.next_chip", _next_chip, _can_pick, keys=("]", "ъ"), button=False),
                DraftAction("previous-chip", "draft.previous_chip", _previous_chip, _can_pick,
                            keys=("[", "х"), button=False)]

    def draft_note(self, game: Game, draft: Any) -> str | None:
        assert isinstance(game, Quadrotone)
        draft = _draft(draft)
        if sheet_open(draft):
            return t("draft.choose")
        if draft.held is not None and draft.held[0] == HAND:
            return t("draft.holding", chip=chip_text(draft.held[1]))
        if draft.held is not None and draft.held[0] == FIELD:
            return t("draft.holding_field", square=square_name(draft.held[1]))
        move = as_move(game, draft)
        if move is None:
            return None
        reason = game.check(move)
        if reason is not None:
            return t("draft.cannot", reason=say(reason))
        return t("draft.would_score", count=game.preview_points(move) or 0)

    def status_note(self, game: Game) -> str | None:
        """Until both players have moved, say that the rules drew who starts
        (RULINGS.md): the second player moving first is no slip of the app."""
        if game.ply >= 2:
            return None
        first = game.seat_names[game.first_player]  # type: ignore[attr-defined]
        return t(f"status.quadrotone.drawn_start{'_now' if game.ply == 0 else ''}.{first}")

    def describe_cell(self, game: Game, state: Any, cell: Any) -> str:
        assert isinstance(game, Quadrotone)
        if isinstance(cell, tuple) and len(cell) == 2 and cell[0] == HAND:
            return t("cell.quadrotone.hand", chip=chip_text(cell[1]))
        if cell in (OPEN, CLOSE) or is_page(cell):
            return self.cell_name(cell)
        if not isinstance(cell, int):
            return str(cell)
        look = game.chip_at(cell)
        words = t("cell.quadrotone.chip", chip=chip_text(look)) if look is not None else t("cell.empty")
        return f"{square_name(cell)}, {words}"

    def move_note(self, session: Any, event: Any) -> str | None:
        game = session.game
        if not game.move_stack:
            return None
        gained = session.move_gain(game.ply)
        patterns = t("announce.quadrotone_patterns", count=len(game.last_scored))
        return t("announce.quadrotone_move", count=gained, patterns=patterns)


ADAPTER = QuadrotoneUI
