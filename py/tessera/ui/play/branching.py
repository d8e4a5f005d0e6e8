"""Continue from here: play on from an earlier position as a new game.

While the play screen shows an earlier position, or a finished or replayed
game, a "Continue from here" button sits under the move list, and a click
on the board (which plays nothing then) offers it beside the board instead
of doing nothing.  It opens a choice: against one of the game's bot levels
(on either side; by default the side the player had, else the side to move),
or alone, both sides on this device, as an analysis board.

The new game is a new saved session (``Session.branch_save``): the same
options, seed and set-up, the moves up to that position, and
``meta["branch"] = {"from": <session id>, "ply": N}``, which the play
screen shows as a note with a link back, and a record export carries.  It
has no clock (it is a study of a position; the new-game dialog sets
clocks).  The original game is not changed.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]

from ...core.seats import Seat
from ...core.session import Session
from ...i18n import Message, t
from ..saves import storage
from ..dialogs import Dialog, _checked, _radio_group
from ..dom import Listeners, button, el

ALONE = "alone"
"""The opponent choice that plays both sides on this device."""


class BranchControls:
    """The play screen's "Continue from here" button, the offer shown when
    the board is clicked, and the note on a game that was continued from another."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self.listeners = Listeners()
        self.button = button(t("branch.action"), lambda event: self.open_dialog(), self.listeners,
                             "btn btn-small branch-btn", {"data-action": "branch", "hidden": True})
        self.offer = el("div", "branch-offer", None, {"role": "status", "hidden": True, "data-offer": "branch"})
        self.offer_text = el("span", "branch-offer-text")
        self.offer.appendChild(self.offer_text)
        self.offer.appendChild(button(t("branch.action"), lambda event: self.open_dialog(), self.listeners,
                                      "btn btn-primary btn-small", {"data-action": "branch-offer"}))
        self.offer.appendChild(button(t("branch.back_to_game"), lambda event: self._back(), self.listeners,
                                      "btn btn-small", {"data-action": "back-to-game"}))
        self.review_button: Any = None
        """The replay's own button (``screens.archive.review_bar``), when reviewing."""

    # ----- state ---------------------------------------------------------------------
    def available(self) -> bool:
        """Whether the shown position can be played on: an earlier position, or
        the end of a finished game that the rules did not end (a resignation,
        an agreed draw, time)."""
        session: Session | None = self.screen.session
        if session is None or session.thinking:
            return False
        if not (session.is_viewing_history() or session.is_over() or self.screen.review):
            return False
        return session.shown_game().outcome() is None

    def render(self) -> None:
        """Show the button when it applies (the review bar has its own in a replay)."""
        available = self.available()
        self.button.hidden = not available or self.screen.review
        if not available:
            self.offer.hidden = True
        if self.review_button is not None:
            from ..screens.archive import set_review_button
            set_review_button(self.review_button, available)

    def board_clicked(self) -> None:
        """A click on a board that plays nothing now: offer to continue from the position shown."""
        session = self.screen.session
        if session is None or not self.available():
            return
        if session.is_viewing_history():
            text = t("branch.offer_history", ply=session.shown_ply, total=session.game.ply)
        else:
            text = t("branch.offer_over")
        self.offer_text.textContent = text
        self.offer.hidden = False
        self.offer.querySelector("[data-action=back-to-game]").hidden = not session.is_viewing_history()

    def _back(self) -> None:
        self.offer.hidden = True
        if self.screen.session is not None:
            self.screen.session.show_ply(None)

    def origin_note(self) -> Any:
        """"Continued from ply 12 of another game" (with a link to it while it is
        kept), for a game made here; None for any other game."""
        session = self.screen.session
        branch = session.meta.get("branch")
        if not isinstance(branch, dict) or not isinstance(branch.get("ply"), int):
            return None
        note = el("p", "branch-note", t("branch.note", ply=branch["ply"]), {"data-branch-ply": branch["ply"]})
        origin = branch.get("from")
        stored = storage.stored_save(origin) if isinstance(origin, str) and origin else None
        if stored is not None:
            over = isinstance(stored.get("meta"), dict) and stored["meta"].get("over") is True
            game_id = self.screen.game_id
            href = f"#/archive/{game_id}/{origin}" if over else f"#/play/{game_id}/{origin}"
            note.appendChild(js.document.createTextNode(" "))
            note.appendChild(el("a", "branch-link", t("branch.open_origin"), {"href": href}))
        return note

    def open_dialog(self) -> None:
        session = self.screen.session
        if session is None or not self.available():
            return
        self.offer.hidden = True
        self.screen.dialog = continue_dialog(self.screen.app, session, session.shown_ply)

    def close(self) -> None:
        self.listeners.clear()


def continue_dialog(app: Any, session: Session, ply: int) -> Dialog:
    """Choose who plays on from the position after ``ply`` moves; Start opens the new game."""
    from ...bots.registry import levels_for

    game = session.game
    game_id = game.game_id
    names = list(game.seat_names)
    levels = levels_for(game_id)
    bots = [seat for seat in session.seats if seat.kind == "bot"]
    humans = [index for index, seat in enumerate(session.seats) if seat.kind == "human"]
    keys = [level.key for level in levels]
    default = f"bot:{bots[0].level}" if bots and bots[0].level in keys else ALONE
    side = names[humans[0]] if bots and len(humans) == 1 else names[session.to_move_at(ply)]

    dialog = Dialog(t("branch.title"), "dialog-branch")
    dialog.body.appendChild(el("p", "dialog-hint", t("branch.hint", ply=ply, total=game.ply)))
    form = el("form", "newgame-form", None, {"method": "dialog", "data-game": game_id})
    opponents = [(f"bot:{key}", t("opponent.bot", level=t(f"bot.level.{key}"))) for key in keys]
    opponents.append((ALONE, t("branch.alone")))

    def opponent_changed(value: str) -> None:
        side_group.hidden = value == ALONE

    form.appendChild(_radio_group("branch-opponent", t("newgame.opponent"), opponents, default,
                                  dialog.listeners, opponent_changed))
    side_group = _radio_group("branch-side", t("newgame.side"), [(name, t(f"seat.{name}")) for name in names],
                              side, dialog.listeners)
    side_group.hidden = default == ALONE
    form.appendChild(side_group)
    dialog.body.appendChild(form)

    def start() -> None:
        opponent = _checked(form, "branch-opponent") or ALONE
        chosen = _checked(form, "branch-side") or side
        dialog.close()
        start_branch(app, session, ply, opponent, chosen)

    dialog.add_button(t("dialog.cancel"))
    start_button = dialog.add_button(t("branch.start"), start, "primary", close=False,
                                     attrs={"data-action": "start-branch"})

    def submitted(event: Any) -> None:   # Enter on a choice presses Start (see new_game_dialog)
        event.preventDefault()
        start_button.click()
    dialog.listeners.on(form, "submit", submitted)
    return dialog.open(focus=start_button)


def branch_seats(names: list[str], opponent: str, side: str) -> list[Seat]:
    """The seats of the new game: both on this device, or you on ``side`` and the bot on the other."""
    if not opponent.startswith("bot:"):
        return [Seat("human") for _ in names]
    you = names.index(side) if side in names else 0
    return [Seat("human") if index == you else Seat("bot", opponent[4:]) for index in range(len(names))]


def start_branch(app: Any, session: Session, ply: int, opponent: str, side: str) -> None:
    """Save the new game and open it (the play screen replays it in slices)."""
    game = session.game
    names = list(game.seat_names)
    seats = branch_seats(names, opponent, side)
    session_id = storage.new_session_id()
    now = float(js.Date.now())
    choice = session.meta.get("choice")
    preset = {key: value for key, value in choice.items() if isinstance(value, str)} if isinstance(choice, dict) else {}
    preset.update({"opponent": "human" if opponent == ALONE else opponent, "side": side})
    to_move = session.to_move_at(ply)
    meta = {"created": now, "updated": now, "choice": preset, "to_move": to_move, "ply": ply, "over": False,
            "local_turn": seats[to_move].kind == "human" and opponent != ALONE,
            "side_names": names}
    data = session.branch_save(ply, seats, session_id, meta)
    try:
        storage.save_session(data)
    except storage.StorageFull:
        app.notice(Message("storage.quota"), "error", sticky=True, scope="app")
        return
    app.announce(t("branch.started", ply=ply))
    app.go(f"#/play/{game.game_id}/{session_id}")
