"""Pieces of the play screen that only display: player panels, move list, texts.

Nothing here changes the session; ``screen`` owns the behaviour.
"""

from __future__ import annotations

from typing import Any

from ...core.game import Outcome
from ...core.session import Session
from ...i18n import has, say, sentence, sentences, t  # noqa: F401  (the screens take sentence and sentences from here)
from ..dom import clear, el, set_text
from ...core.game_ui import GameUI
from ...core.match import Match
from ...core.remote import shown_name
from .time_controls import clock_node, render_clock


# ----- words -------------------------------------------------------------------------

def side_name(session: Session, seat: int) -> str:
    return t(f"seat.{session.game.seat_names[seat]}")


def seat_label(session: Session, seat: int) -> str:
    """Who sits there: "You", "Bot · Medium", "Player 1"."""
    spec = session.seats[seat]
    if spec.kind == "bot":
        return t("opponent.bot", level=t(f"bot.level.{spec.level}"))
    if spec.kind == "link":
        return t("link.friend")
    if spec.kind == "remote":
        return shown_name(spec.name) if spec.name else t("opponent.remote")
    if session.is_hot_seat() and len(session.seats) > 1:
        return t("panel.player", number=_match_player(session, seat) + 1)
    return t("panel.you")


def _match_player(session: Session, seat: int) -> int:
    """Who sits in ``seat``: in a match the players keep their numbers
    while the seats swap between games (``core.match``)."""
    if "match" not in session.meta:
        return seat
    try:
        match = Match.from_json(session.meta["match"])
        return match.seat_players(match.index)[seat]
    except Exception:  # an unreadable match: the seat's own number
        return seat


def waiting_key(session: Session) -> str:
    """What the seat to move is doing while this device waits: a bot thinks,
    a remote player is waited for (the participant's ``status_key``)."""
    key = getattr(session.participants[session.to_move], "status_key", None)
    return key if isinstance(key, str) else "bot.thinking"


def result_title(session: Session, outcome: Outcome) -> str:
    if session.game.num_players == 1:   # a one-player game's result is its score
        return t("result.solo", count=session.game.scores()[0])
    if outcome.winner is None:
        return t("result.draw")
    return t(f"result.win.{session.game.seat_names[outcome.winner]}")


def result_reason(session: Session, outcome: Outcome) -> str:
    if session.game.num_players == 1 and has(f"end.solo.{outcome.reason}"):
        return t(f"end.solo.{outcome.reason}")
    loser = 1 - outcome.winner if outcome.winner in (0, 1) else None
    params: dict[str, Any] = {}
    if loser is not None:
        params["loser"] = side_name(session, loser)
        params["loser_of"] = t(f"seat.{session.game.seat_names[loser]}.of")
        params["winner"] = side_name(session, outcome.winner)
    return t(f"end.{outcome.reason}", **params)


def result_for_you(session: Session, outcome: Outcome) -> str | None:
    """"You won" / "You lost" against a bot; None in hot-seat."""
    local = session.local_seats()
    if len(local) != 1:
        return None
    if outcome.winner is None:
        return None
    return t("result.you_won") if outcome.winner == local[0] else t("result.you_lost")


def error_words(error: BaseException) -> str:
    """An error as the player reads it, in the UI language.

    Errors from the engines, readers and saves carry a catalog key and its
    values (``tessera.i18n.MessageError``) and are worded here; anything
    else is a slip of ours, named by its type only: its text is English
    and for developers (the console has it).
    """
    if isinstance(getattr(error, "key", None), str) and isinstance(getattr(error, "params", None), dict):
        return say(error)
    return t("error.unexpected", kind=type(error).__name__)


# ----- player panels -----------------------------------------------------------------

class PlayerPanel:
    """Colour, who plays it, the numbers, and whether it is this side's turn."""

    def __init__(self, seat: int, position: str) -> None:
        self.seat = seat
        self.node = el("section", f"player-panel player-{position}", None, {"data-seat": str(seat)})
        self.swatch = el("span", "swatch", None, {"aria-hidden": "true"})
        self.side = el("span", "player-side")
        self.who = el("span", "player-who")
        self.flag = el("span", "player-flag")
        self.presence = el("span", "player-presence")   # a remote opponent here or away (remote.online)
        self.stats = el("dl", "player-stats")
        side_line = el("span", "player-side-line", None, None, [self.side, self.flag])
        head = el("div", "player-head", None, None, [
            self.swatch, el("div", "player-names", None, None, [side_line, self.who, self.presence])])
        self.node.appendChild(head)
        self.node.appendChild(self.stats)
        self.clock = clock_node()
        self.node.appendChild(self.clock)

    def set_seat(self, seat: int) -> None:
        self.seat = seat
        self.node.setAttribute("data-seat", str(seat))

    def update(self, session: Session, ui: GameUI) -> None:
        seat = self.seat
        game = session.shown_game()
        names = session.game.seat_names
        self.swatch.className = f"swatch swatch-{names[seat]}"
        set_text(self.side, side_name(session, seat))
        set_text(self.who, seat_label(session, seat))
        outcome = session.outcome() if not session.is_viewing_history() else None
        to_move = not session.is_over() and game.to_move == seat
        classes = ["player-panel", self.node.className.split()[1]]
        flag = ""
        if outcome is not None:
            if outcome.winner == seat:
                classes.append("is-winner")
                flag = t("panel.winner")
        elif to_move and not session.is_viewing_history():
            classes.append("is-turn")
            if session.seems_thinking() and not session.is_local_seat(seat) \
                    and session.local_seats():   # (not when watching)
                classes.append("is-thinking")
                flag = t(waiting_key(session))
            else:
                flag = t("panel.to_move")
        self.node.className = " ".join(classes)
        set_text(self.flag, flag)
        self.node.setAttribute("aria-label", f"{side_name(session, seat)}: {seat_label(session, seat)}"
                               + (f", {flag}" if flag else ""))
        clear(self.stats)
        rows = list(ui.stats(game, seat))
        if outcome is not None:   # the rules may credit other points after a resignation or a draw (Quadrotone)
            credited = session.game.scores_at_end(outcome)
            if tuple(credited) != tuple(session.game.scores()):
                rows.append(("panel.credited", str(credited[seat]), "credited"))
        for key, value, kind in rows:
            hint = t(f"{key}.hint") if has(f"{key}.hint") else None
            item = el("div", f"stat stat-{kind}", None, {"title": hint}, [
                el("dt", None, t(key)),
                el("dd", None, None, None, [_marker_pips(value) if kind == "marker" else value]),
            ])
            self.stats.appendChild(item)
        render_clock(self.clock, session, seat)


def stats_legend(ui: GameUI, game: Any) -> Any:
    """"What the numbers mean": the panel numbers that have a hint
    (``<key>.hint``), as a collapsed list (hover tooltips do not reach touch
    screens or screen readers)."""
    rows = [(key, t(f"{key}.hint")) for key, _, _ in ui.stats(game, 0) if has(f"{key}.hint")]
    if not rows:
        return None
    items = el("dl", "stats-legend-list")
    for key, hint in rows:
        items.appendChild(el("dt", None, t(key)))
        items.appendChild(el("dd", None, hint))
    return el("details", "stats-legend", None, {"data-legend": "stats"},
              [el("summary", None, t("panel.legend")), items])


def _marker_pips(value: str) -> Any:
    """The marker as a chip with 0, 1 or 2 dots (the board game's own look)."""
    count = int(value) if value.isascii() and value.isdigit() else 0
    chip = el("span", f"marker-chip marker-{count}", None, {"title": value, "data-value": value})
    for _ in range(count):
        chip.appendChild(el("i", None, None, {"aria-hidden": "true"}))
    chip.appendChild(el("span", "visually-hidden", value))
    return chip
