"""The play screen's questions: resign?, a draw offered, the game is over.

Functions of the screen (``PlayScreen``): each opens its dialog and keeps it
as ``screen.dialog``, so the screen can close it when the game changes.
"""

from __future__ import annotations

from typing import Any

from ...i18n import t
from ..dialogs import Dialog, confirm, game_over_dialog
from ..dom import el
from .panels import result_for_you, result_reason, result_title, side_name


def acting_seat(session: Any) -> int:
    """Who presses the button: the only local seat, or in hot-seat the side to move."""
    local = session.local_seats()
    return local[0] if len(local) == 1 else session.to_move


def run_extra_action(screen: Any, action: Any) -> None:
    """A game's own button (``core.game_ui.ExtraAction``): ask its question
    when it has one, then play its move."""
    from ...core.game import IllegalMoveError
    from ...core.session import SessionError
    from .panels import error_words, sentence
    session = screen.session
    if not session.is_local_turn():
        return
    game = session.game

    def play() -> None:
        try:
            session.play(action.move(game))
        except (IllegalMoveError, SessionError) as error:
            screen._show_error(sentence(error_words(error)))
    if action.ask is None:
        play()
        return
    question = action.ask(game)
    screen.dialog = confirm(question.question, question.button, play, detail=question.detail or None,
                            danger=action.danger)


def ask_resign(screen: Any) -> None:
    """Resign -- or, in a one-player game, stop: the game ends with its score."""
    session = screen.session
    seat = acting_seat(session)
    if session.game.num_players == 1:
        screen.dialog = confirm(t("confirm.stop"), t("play.stop"), lambda: session.resign(seat), danger=True)
        return
    question = (t("confirm.resign_side", side_of=t(f"seat.{session.game.seat_names[seat]}.of"))
                if session.is_hot_seat() else t("confirm.resign"))
    screen.dialog = confirm(question, t("play.resign"), lambda: session.resign(seat), danger=True)


def ask_draw(screen: Any) -> None:
    """The other side answers a draw offer (hot-seat, or here to a remote player's offer)."""
    session = screen.session
    offer = session.draw_offer
    if offer is None:
        return
    other = 1 - offer
    if not session.is_local_seat(other):   # our own offer to a remote player: they answer
        return
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
    from .match import game_over_match, next_game_action
    from .solo import game_over_scores
    extra = game_over_match(session)
    if extra is None:
        extra = game_over_scores(screen)
    screen.dialog = game_over_dialog(screen.app, title, result_reason(session, outcome), screen._new_game,
                                     extra=extra, next_game=next_game_action(screen))
