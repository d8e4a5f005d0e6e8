"""The archive: finished games, newest first, each opening into a replay.

A game stays saved when it ends (its save's meta says ``over``, with its
result and when it ended: ``session_store.session_meta``).  ``#/archive``
lists the finished games of the playable games, the one that ended last
first, with the game, the result, the opponent, the length and the date;
each opens into ``#/archive/<game>/<id>``, the play screen in review mode
(the move list and its navigation, no play), which ``review_bar`` fills with
the archive's actions: continue from the position shown, export, delete.
The list exports a record directly (no replay) and deletes with a question.

The archive keeps the newest ``ARCHIVE_LIMIT`` (100) finished games: older
ones are deleted when the archive or the home screen opens.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import to_js  # type: ignore[import-not-found]

from ... import i18n
from ...core import registry
from ...i18n import Message, has, t
from ..saves import storage
from ..dom import Listeners, button, el, set_flag
from .archive_pictures import ArchivePictures, filter_bar, opponent_kind
from .home import describe_opponent
from ..saves.saved_games import ARCHIVE_LIMIT, SavedSummary, finished_newest_first, js_time


def summary_result(summary: SavedSummary) -> str:
    """"White wins · you lost", "Draw", or "Finished" for a save from before results were kept."""
    names = summary.side_names
    if summary.reason is None:
        return t("archive.finished")
    if len(summary.seats) == 1:   # a one-player game: its score
        return t("result.solo", count=summary.score) if summary.score is not None else t("archive.finished")
    if summary.winner is None:
        return t("result.draw")
    title = t(f"result.win.{names[summary.winner]}")
    humans = [index for index, seat in enumerate(summary.seats) if seat.kind == "human"]
    if len(humans) == 1 and len(summary.seats) == 2:
        title += " · " + (t("result.you_won") if summary.winner == humans[0] else t("result.you_lost"))
    return title


def summary_reason(summary: SavedSummary) -> str:
    """How it ended, in words ("Black resigned."), or "" when the save does not say."""
    names, reason, winner = summary.side_names, summary.reason, summary.winner
    if reason is not None and len(summary.seats) == 1 and has(f"end.solo.{reason}"):
        return t(f"end.solo.{reason}")
    if reason is None or not has(f"end.{reason}"):
        return ""
    params: dict[str, Any] = {}
    if winner is not None and len(names) == 2:
        loser = names[1 - winner]
        params = {"winner": t(f"seat.{names[winner]}"), "loser": t(f"seat.{loser}"),
                  "loser_of": t(f"seat.{loser}.of")}
    return t(f"end.{reason}", **params)


def format_date(ms: float) -> str:
    """The date and time a game ended, as the player's language writes them
    ("" for a time JavaScript's ``Date`` cannot hold: summaries never give one)."""
    ms = js_time(ms)
    if not ms:
        return ""
    options = to_js({"dateStyle": "medium", "timeStyle": "short"}, dict_converter=js.Object.fromEntries)
    try:
        return str(js.Date.new(ms).toLocaleString(i18n.language(), options))
    except Exception:  # an engine without these options: the plain form
        return str(js.Date.new(ms).toLocaleString())


def export_saved(summary: SavedSummary) -> bool:
    """Download a finished game's tessera/1 record from its save (no replay:
    the save holds the record; the seats go into its meta as an export from
    the game would put them).  False when the save's record cannot be read."""
    from ...core.clock import TimeControl
    from ...core.game import Outcome
    from ...core.record import Record
    from ...core.seats import Seat
    from ..saves.records import filename_for, record_meta
    data = summary.data
    try:
        record = Record.from_json(data.get("record"))
        seats = [Seat.from_json(seat) for seat in data.get("seats", [])]
        names = registry.game_class(record.game).seat_names
    except Exception:
        return False
    meta = data.get("meta") if isinstance(data.get("meta"), dict) else {}
    clock = data.get("clock")
    try:
        control = TimeControl.from_json(clock.get("control")) if isinstance(clock, dict) else None
    except Exception:   # a clock that does not read: the record simply names none
        control = None
    record.meta = record_meta(names, seats, meta, control)
    if record.result is None and isinstance(meta.get("result"), dict):   # saved before records kept the
        try:                                                             # rules' own endings
            record.result = Outcome.from_json(meta["result"])
        except Exception:
            pass
    js.tesseraUtil.download(filename_for(record.game, summary.session_id, meta.get("created")), record.dumps())
    return True


def confirm_delete(on_yes: Any) -> Any:
    from ..dialogs import confirm
    return confirm(t("archive.delete_confirm"), t("archive.delete"), on_yes, danger=True)


class ArchiveScreen:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.listeners = Listeners()
        self.root: Any = None
        self.dialog: Any = None
        self.pictures: ArchivePictures | None = None
        self.filtered_empty: Any = None

    def mount(self, container: Any) -> None:
        summaries, problems = storage.list_sessions()
        self.app.report_problems(problems)
        summaries = storage.prune_archive(summaries)
        playable = set(registry.available_ids())
        finished = [s for s in finished_newest_first(summaries) if s.game in playable][:ARCHIVE_LIMIT]
        self.app.set_nav([(t("nav.games"), "#/")])
        self.root = el("div", "archive")
        self.root.appendChild(el("section", "home-intro", None, {"aria-labelledby": "archive-title"}, [
            el("h1", "home-title", t("archive.title"), {"id": "archive-title"}),
            el("p", "home-lead", t("archive.lead", count=ARCHIVE_LIMIT)),
        ]))
        if finished:
            self.pictures = ArchivePictures(lambda: self.root is None or not self.root.isConnected)
            items = el("ul", "archive-list", None, {"aria-labelledby": "archive-title"})
            for summary in finished:
                items.appendChild(self._item(summary))
            self.root.appendChild(filter_bar(finished, self.listeners, lambda game, opponent:
                                             self._filter(items, game, opponent)))
            self.root.appendChild(items)
            self.filtered_empty = el("p", "archive-empty", t("archive.filter.none"), {"hidden": True,
                                                                                      "data-filter": "none"})
            self.root.appendChild(self.filtered_empty)
        else:
            self.root.appendChild(el("p", "archive-empty", t("archive.empty")))
        container.appendChild(self.root)

    def _filter(self, items: Any, game: str, opponent: str) -> None:
        """Show the games of that game and against that opponent ("" for any)."""
        shown = 0
        for item in items.children:
            fits = (not game or str(item.dataset.game) == game) and \
                (not opponent or str(item.dataset.opponent) == opponent)
            item.hidden = not fits
            shown += fits
        self.filtered_empty.hidden = shown > 0

    def unmount(self) -> None:
        if self.pictures is not None:
            self.pictures.stop()
            self.pictures = None
        if self.dialog is not None:
            self.dialog.close()
        self.listeners.clear()
        if self.root is not None:
            self.root.remove()

    def _item(self, summary: SavedSummary) -> Any:
        """One finished game: a link to its replay, then export and delete."""
        href = f"#/archive/{summary.game}/{summary.session_id}"
        title = t(f"game.{summary.game}.title")
        moves = t("archive.moves", count=(summary.ply + 1) // 2)
        link = el("a", "archive-card", None, {"href": href, "data-session": summary.session_id})
        picture = el("span", "archive-picture", None, {"aria-hidden": "true"})
        link.appendChild(picture)
        link.appendChild(el("span", "archive-game", title))
        link.appendChild(el("span", "archive-result", summary_result(summary)))
        reason = summary_reason(summary)
        if reason:
            link.appendChild(el("span", "archive-reason", reason))
        details = [describe_opponent(summary.seats), moves]
        if summary.branch_ply is not None:
            details.append(t("archive.branched"))
        link.appendChild(el("span", "archive-details", " · ".join(details)))
        date = format_date(summary.ended)
        if date:
            link.appendChild(el("time", "archive-date", date,
                                {"datetime": str(js.Date.new(summary.ended).toISOString())}))
        actions = el("div", "archive-actions")
        actions.appendChild(button(t("archive.export"), lambda event: self._export(summary), self.listeners,
                                   "btn btn-small", {"data-action": "export-saved",
                                                     "aria-label": t("archive.export_game", game=title)}))
        actions.appendChild(button(t("archive.delete"), lambda event: self._delete(summary), self.listeners,
                                   "btn btn-small btn-danger-soft",
                                   {"data-action": "delete-saved", "aria-label": t("archive.delete_game", game=title)}))
        item = el("li", "archive-item", None, {"data-game": summary.game, "data-opponent": opponent_kind(summary)})
        item.appendChild(link)
        item.appendChild(actions)
        if self.pictures is not None:
            self.pictures.watch(summary, picture, item)
        return item

    def _export(self, summary: SavedSummary) -> None:
        if not export_saved(summary):
            self.app.notice(Message("archive.export_failed"), "warning")

    def _delete(self, summary: SavedSummary) -> None:
        def delete() -> None:
            storage.delete_session(summary.session_id)
            self.app.announce(t("archive.deleted"))
            self.app.show_route(force=True)
        self.dialog = confirm_delete(delete)


def review_bar(screen: Any) -> Any:
    """The replay's actions (the play screen in review mode): continue from the
    position shown, flip, export, delete, back to the archive."""
    listeners = screen.listeners
    bar = el("div", "play-actions review-bar", None, {"data-review": "true"})
    bar.appendChild(el("p", "review-note", t("archive.review_note")))
    from ..play.review import ReviewPanel
    screen.review_panel = ReviewPanel(screen)   # the bot's view of every move
    bar.appendChild(screen.review_panel.node)
    branch = button(t("branch.action"), lambda event: screen.branching.open_dialog(), listeners,
                    "btn btn-primary", {"data-action": "branch"})
    screen.branching.review_button = branch
    bar.appendChild(el("div", "action-row", None, None, [branch]))
    row = []
    if screen.ui.flippable:
        row.append(button(t("play.flip"), lambda event: screen._flip(), listeners, "btn", {"data-action": "flip"}))
    row.append(button(t("record.export"), lambda event: screen._export(), listeners, "btn", {"data-action": "export"}))

    def delete() -> None:
        def gone() -> None:
            storage.delete_session(screen.session_id)
            screen.app.announce(t("archive.deleted"))
            screen.app.go("#/archive")
        screen.dialog = confirm_delete(gone)
    row.append(button(t("archive.delete"), lambda event: delete(), listeners, "btn btn-danger-soft",
                      {"data-action": "delete-game"}))
    bar.appendChild(el("div", "action-row", None, None, row))
    bar.appendChild(el("a", "btn btn-ghost", t("archive.back"), {"href": "#/archive", "data-action": "archive"}))
    return bar


def set_review_button(node: Any, available: bool) -> None:
    """The replay's "Continue from here" is off at an ending the rules made."""
    set_flag(node, "disabled", not available)
    if available:
        node.removeAttribute("title")
    else:
        node.setAttribute("title", t("branch.unavailable"))
