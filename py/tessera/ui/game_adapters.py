"""What the play screen needs to know about each game beyond the protocol.

The core ``Game`` protocol covers moves and endings; a game's board view,
the names of its cells, the numbers shown in the player panels and any
actions of its own (Dots' landing) are per game.  One small adapter per
game keeps the play screen generic.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..core.game import Game
from ..core.view import BoardView


@dataclass(frozen=True)
class ExtraAction:
    """A game-specific button on the play screen.

    ``run(screen)`` does it (usually after a confirmation dialog);
    ``enabled(session)`` says whether it can be pressed now.
    """

    key: str                                  # data-action and i18n "action.<key>"
    label_key: str
    run: Callable[[Any], Any]
    enabled: Callable[[Any], bool]
    danger: bool = False


class GameUI:
    """Defaults for a game without extras."""

    flippable = True
    """Whether turning the board round means anything (not for Dots' field)."""
    gain_key = "moves.converted"
    """Catalog key of the move list's "+N" mark: what a move's gain is called."""

    def view(self) -> BoardView:
        raise NotImplementedError

    def cell_name(self, cell: Any) -> str:
        return str(cell)

    def stats(self, game: Game, seat: int) -> list[tuple[str, str, str]]:
        """(catalog key, value, css kind) rows for a player panel."""
        return [("panel.score", str(game.scores()[seat]), "score")]

    def default_flipped(self, session: Any) -> bool:
        """Seen from the first seat unless the one local player sits in another."""
        return 0 not in session.local_seats()

    def extra_actions(self) -> list[ExtraAction]:
        """Buttons beyond undo, draw and resign."""
        return []

    def move_note(self, session: Any, event: Any) -> str | None:
        """More words for the screen reader after a move (captures...)."""
        return None

    def last_gain(self, game: Game, event: Any) -> int:
        """``move_gains`` of the move just played (``event``: a MoveEvent)."""
        return len(event.converted)

    def move_gains(self, game: Game) -> list[int]:
        """For each move played, a number the move list shows after it
        (checkers converted, dots captured); 0 shows nothing."""
        replay = type(game)(game.options, game.seed, game.setup)
        last_converted = getattr(replay, "last_converted", None)
        counts = []
        for move in game.move_stack:
            replay.push_unchecked(move)
            counts.append(len(last_converted()) if last_converted else 0)
        return counts


class QuadratureUI(GameUI):
    def view(self) -> BoardView:
        from ..games.quadrature.view import QuadratureView
        return QuadratureView()

    def cell_name(self, cell: Any) -> str:
        from ..games.quadrature.rules import square_name
        return square_name(cell)

    def stats(self, game: Game, seat: int) -> list[tuple[str, str, str]]:
        counts = game.counts()  # type: ignore[attr-defined]
        reserves = game.reserves()  # type: ignore[attr-defined]
        marker = game.markers[seat]  # type: ignore[attr-defined]
        return [
            ("panel.checkers", str(counts[seat]), "checkers"),
            ("panel.reserve", str(reserves[seat]), "reserve"),
            ("panel.marker", str(marker), "marker"),
        ]


def landing_preview(game: Game) -> tuple[tuple[int, int], tuple[int, int]]:
    """Scores now and if the side to move declared landing now."""
    from ..games.dots import LAND
    before = game.scores()
    trial = game.copy()
    trial.push(LAND)
    return before, trial.scores()


class DotsUI(GameUI):
    flippable = False
    gain_key = "moves.captured"

    def view(self) -> BoardView:
        from ..games.dots.view import DotsView
        return DotsView()

    def cell_name(self, cell: Any) -> str:
        if isinstance(cell, tuple):
            return f"{cell[0]}-{cell[1]}"
        return str(cell)

    def default_flipped(self, session: Any) -> bool:
        """The field is always seen as the document numbers it (1-1 bottom left)."""
        return False

    def extra_actions(self) -> list[ExtraAction]:
        def can_land(session: Any) -> bool:
            return session.is_local_turn() and not session.is_viewing_history()

        return [ExtraAction("land", "action.land", lambda screen: screen.ask_landing(), can_land)]

    def move_note(self, session: Any, event: Any) -> str | None:
        from ..i18n import t
        game = session.game
        if game.ply == 0:
            return None
        before = game.copy()
        before.pop()
        old, new = before.scores(), game.scores()
        notes = []
        for seat in (0, 1):
            gain = new[seat] - old[seat]
            if gain > 0:
                notes.append(t("announce.dots_captured", side=t(f"seat.{game.seat_names[seat]}"),
                               count=gain, score=f"{new[0]}:{new[1]}"))
        return " ".join(notes) or None

    def last_gain(self, game: Game, event: Any) -> int:
        if game.ply == 0:
            return 0
        before = game.copy()
        before.pop()
        return max(0, game.scores()[event.seat] - before.scores()[event.seat])

    def move_gains(self, game: Game) -> list[int]:
        """Points the mover gained with each move."""
        replay = type(game)(game.options, game.seed, game.setup)
        gains = []
        for move in game.move_stack:
            mover = replay.to_move
            before = replay.scores()[mover]
            replay.push_unchecked(move)
            gains.append(max(0, replay.scores()[mover] - before))
        return gains


ADAPTERS: dict[str, type[GameUI]] = {"quadrature": QuadratureUI, "dots": DotsUI}


def adapter(game_id: str) -> GameUI:
    return ADAPTERS.get(game_id, GameUI)()
