"""The play screen's questions: resign?, a draw offered, the game is over.

Functions of the screen (``PlayScreen``): each opens its dialog and keeps it
as ``screen.dialog``, so the screen can close it when the game changes.
"""

from __future__ import annotations

from typing import Any

from ..i18n import t
from .dialogs import Dialog, confirm, game_over_dialog
from .dom import el
from .panels import result_for_you, result_reason, result_title, side_name


def acting_seat(session: Any) -> int:
    """Who presses the button: the only local seat, or in hot-seat the side to move."""
    local = session.local_seats()
    return local[0] if len(local) == 1 else session.to_move


def ask_resign(screen: Any) -> None:
    session = screen.session
    seat = acting_seat(session)
    question = (t("confirm.resign_side", side_of=t(f"seat.{session.game.seat_names[seat]}.of"))
                if session.is_hot_seat() else t("confirm.resign"))
    screen.dialog = confirm(question, t("play.resign"), lambda: session.resign(seat), danger=True)


def ask_draw(screen: Any) -> None:
    """The other side answers a draw offer (hot-seat)."""
    session = screen.session
    offer = session.draw_offer
    if offer is None:
        return
    other = 1 - offer
    dialog = Dialog(t("draw.offered", side=side_name(session, offer)), "dialog-draw",
                    on_cancel=lambda: session.answer_draw(other, False))
    dialog.body.appendChild(el("p", None, t("draw.question", side=side_name(session, other))))
    dialog.add_button(t("draw.decline"), lambda: session.answer_draw(other, False),
                      attrs={"data-action": "decline"})
    accept = dialog.add_button(t("draw.accept"), lambda: session.answer_draw(other, True), "primary",
                               attrs={"data-action": "accept"})
    screen.dialog = dialog.open(focus=accept)


def show_game_over(screen: Any) -> None:
    session = screen.session
    if screen.dialog is not None:
        screen.dialog.close()  # a draw offer or "resign?" left open when time ran out
    outcome = session.outcome()
    you = result_for_you(session, outcome)
    title = result_title(session, outcome) + (f" · {you}" if you else "")
    screen.dialog = game_over_dialog(screen.app, title, result_reason(session, outcome), screen._new_game)
