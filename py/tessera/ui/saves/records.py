"""Export and import of game records (file and clipboard).

Every game exports its tessera/1 JSON record; a game with record formats
of its own (``core.record_formats``: Dots' SGF, GM[40]) offers them too,
and import accepts any (each format says what its text looks like).  An imported record is
replayed in full before anything changes; a bad one shows the message the
command line gives (``RecordError``'s or ``SgfError``'s key and values),
worded in the player's language, and leaves the current game alone.  A good one opens as a new game at
its last position, with the seats the record names (``import_seats``: a
player here or a bot level on each side, pre-selected in the dialog and
changeable; an SGF file's are the player's pick, hot-seat by default).

Other programs' rules.  A format's own properties (SGF's KM, RU, time)
stay in the session's ``meta[<format>]``, go into its tessera/1 record's
meta and back into its export.  When they name other rules than Tessera's
(a komi, KataGoDots' capture variants, unknown rules), the opened game
comes with a notice at the top of the page saying what
differs, since its moves are replayed with Tessera's rules.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

from ...core.game import GameError
from ...core import registry
from ...core.clock import TimeControl
from ...core.record import MAX_RECORD_BYTES, Record
from ...core.record_meta import day_of, export_meta, player_name
from ...core.record_formats import RecordFormat, all_formats, format_for_text, formats_of
from ...core.session import Seat, Session
from ...i18n import t
from . import storage
from ..dialogs import Dialog
from ..dom import el, set_text
from ..play.panels import error_words
from .saved_games import js_time


def record_filename(session: Session, suffix: str = ".json") -> str:
    return filename_for(session.game.game_id, session.session_id, session.meta.get("created"), suffix)


def filename_for(game_id: str, session_id: str, created: Any, suffix: str = ".json") -> str:
    """``tessera-dots-2025-03-01-1a2b3c.json``: the game, the day it began, the save's id."""
    stamp = ""
    if js_time(created):   # a date JavaScript holds (``new Date(1e308).toISOString()`` throws)
        stamp = "-" + str(js.Date.new(js_time(created)).toISOString())[:10]
    return f"tessera-{game_id}{stamp}-{session_id[-6:]}{suffix}"


def format_text(fmt: RecordFormat, session: Session) -> str:
    """The game in a format of its own (Dots: SGF), with names, date, time control and result."""
    names = session.game.seat_names
    meta: dict[str, Any] = {name: player_name(spec, seat) for seat, (name, spec) in enumerate(zip(names, session.seats))}
    day = day_of(session.meta.get("created"))
    if day is not None:
        meta["date"] = day
    if session.clock is not None:
        meta["time_control"] = session.clock.control
    outcome = session.outcome()
    if outcome is not None:
        meta["result"] = outcome
    if fmt.key in session.meta:
        meta[fmt.key] = session.meta[fmt.key]
    return fmt.write(session.game, meta)


def session_from_format(fmt: RecordFormat, text: str, session_id: str, created: float,
                        seats: list[Seat] | None = None) -> tuple[Session, list[Any]]:
    """A session from a text in a game's own format (hot-seat unless ``seats``
    are given) and the notes on its rules; the format's GameError says what is wrong."""
    game, meta = fmt.read(text)
    session_meta: dict[str, Any] = {"created": created, "imported": True}
    if fmt.key in meta:
        session_meta[fmt.key] = meta[fmt.key]
    players = len(game.seat_names)
    session = Session(game, seats if seats and len(seats) == players else [Seat("human") for _ in range(players)],
                      session_id, result=meta.get("outcome"), meta=session_meta)
    return session, list(meta.get("notes", []))


def record_text(session: Session) -> str:
    return session.record(record_meta(session.game.seat_names, session.seats, session.meta,
                                      session.clock.control if session.clock is not None else None)).dumps()


def record_meta(seat_names: Any, seats: Any, session_meta: dict[str, Any],
                time_control: TimeControl | None = None) -> dict[str, Any]:
    """What an exported record says besides the moves (``core.record_meta``):
    who sat where (which an import pre-selects), the players' names, the
    day, the time control, the SGF properties kept, where a continued game branched."""
    return export_meta(seat_names, seats, session_meta, time_control, (fmt.key for fmt in all_formats()))


def export_dialog(app: Any, session: Session) -> Dialog:
    texts = {"json": record_text(session)}
    labels = {"json": "Tessera JSON"}
    for fmt in formats_of(session.game.game_id):
        try:
            texts[fmt.key] = format_text(fmt, session)
            labels[fmt.key] = fmt.label
        except GameError:   # a start the format cannot hold (Dots' regions in SGF): JSON only
            pass
    current = {"format": "json"}
    dialog = Dialog(t("record.export_title"), "dialog-record")
    area = el("textarea", "record-text", None, {"readonly": True, "rows": "10", "spellcheck": "false",
                                               "aria-label": t("record.export_title"), "id": "record-export"})
    area.value = texts["json"]
    note = el("p", "record-note", None, {"role": "status"})
    if len(texts) > 1:
        row = el("div", "choice-row", None, {"role": "radiogroup", "aria-label": t("record.format")})
        for key, label in labels.items():
            radio = el("input", None, None, {"type": "radio", "name": "record-format", "value": key,
                                             "id": f"record-format-{key}", "checked": key == "json"})
            dialog.listeners.on(radio, "change", lambda event, key=key: choose(key))
            row.appendChild(el("label", "choice", None, {"for": f"record-format-{key}"},
                               [radio, el("span", None, label)]))
        dialog.body.appendChild(row)
    dialog.body.appendChild(area)
    dialog.body.appendChild(note)

    def choose(key: str) -> None:
        current["format"] = key
        area.value = texts[key]
        set_text(note, "")
        set_text(download_button, t("record.download") if key == "json" else t("record.download_as", suffix="." + key))

    def copy() -> None:
        def done(ok: Any) -> None:
            set_text(note, t("record.copied") if ok else t("record.copy_failed"))
        js.tesseraUtil.copyText(texts[current["format"]]).then(create_once_callable(done))

    def download() -> None:
        key = current["format"]
        js.tesseraUtil.download(record_filename(session, "." + key), texts[key])

    dialog.add_button(t("dialog.close"))
    dialog.add_button(t("record.copy"), copy, close=False, attrs={"data-action": "copy"})
    download_button = dialog.add_button(t("record.download"), download, "primary", close=False,
                                        attrs={"data-action": "download"})
    return dialog.open()


def import_dialog(app: Any, game_id: str) -> Dialog:
    dialog = Dialog(t("record.import_title"), "dialog-record")
    formats = formats_of(game_id)
    accept = ",".join([".json", "application/json"] + [f"{fmt.suffix},{fmt.mime}" for fmt in formats])
    file_input = el("input", "visually-hidden", None, {"type": "file", "accept": accept, "id": "record-file"})
    file_label = el("label", "btn", t("record.choose_file"), {"for": "record-file"})
    area = el("textarea", "record-text", None, {"rows": "8", "spellcheck": "false", "id": "record-paste",
                                               "placeholder": t("record.paste_placeholder")})
    error = el("p", "record-error", None, {"role": "alert", "hidden": True})
    dialog.body.appendChild(el("p", "dialog-hint", t("record.import_hint.formats", formats=", ".join(fmt.label for fmt in formats))
                                             if formats else t("record.import_hint")))
    dialog.body.appendChild(el("div", "file-row", None, None, [file_input, file_label]))
    dialog.body.appendChild(el("label", "paste-label", t("record.paste"), {"for": "record-paste"}))
    dialog.body.appendChild(area)
    from .import_seats import peek
    from .seat_chooser import SeatChooser
    chooser = SeatChooser(game_id)   # who plays: as the record says, changeable
    dialog.body.appendChild(chooser.node)
    dialog.body.appendChild(error)
    dialog.listeners.on(area, "input", lambda event: chooser.show(peek(str(area.value or ""))))

    def fail(message: str) -> None:
        set_text(error, message)
        error.hidden = False

    def open_text(text: str) -> None:
        chooser.show(peek(text))
        if not chooser.valid():
            fail(t("import.need_player"))
            return
        session, message, notes = session_from_record_text(text, chooser.values())
        if session is None:
            fail(t("record.error", detail=message))
            return
        dialog.close()
        app.open_session(session)
        if notes:
            app.notice(lambda: " ".join([t("record.rules_differ"), *(t(note.key, **note.params) for note in notes)]),
                       "warning", sticky=True)

    def file_chosen(event: Any) -> None:
        def loaded(text: Any) -> None:
            if isinstance(text, str):   # shown with its seats; Open opens it
                area.value = text
                error.hidden = True
                chooser.show(peek(text))
            elif getattr(text, "tooLarge", None) is not None:
                fail(t("record.too_large", size=max(1, int(text.tooLarge) // 1_000_000),
                       limit=MAX_RECORD_BYTES // 1_000_000))
            elif getattr(text, "unreadable", None) is not None:
                fail(t("record.unreadable"))
        js.tesseraUtil.readChosenFile(file_input, MAX_RECORD_BYTES).then(create_once_callable(loaded))

    dialog.listeners.on(file_input, "change", file_chosen)
    dialog.add_button(t("dialog.cancel"))
    dialog.add_button(t("record.open"), lambda: open_text(str(area.value or "")), "primary", close=False,
                      attrs={"data-action": "open-record"})
    return dialog.open(focus=area)


def session_from_record_text(text: str, choices: list[str] | None = None) -> tuple[Session | None, str, list[Any]]:
    """A new session from record text (tessera/1 JSON or SGF) and the notes
    on its rules, or None and the error text.  ``choices`` are the seats
    (``import_seats``: ``human`` or ``bot:<level>`` each; hot-seat without);
    a record continued from another game keeps its ``branch``."""
    from .import_seats import new_game_choice, seats_for
    from .session_store import session_meta
    session_id = storage.new_session_id()
    created = float(js.Date.now())
    notes: list[Any] = []
    try:
        seats = seats_for(choices) if choices else None
        fmt = format_for_text(text)
        if fmt is not None:
            session, notes = session_from_format(fmt, text, session_id, created, seats)
        else:
            record = Record.loads(text.strip())
            meta: dict[str, Any] = {"created": created, "imported": True}
            for own in formats_of(record.game):
                kept = own.kept_meta(record.meta.get(own.key))
                if kept:
                    meta[own.key] = kept
                    notes = own.notes(kept)
            branch = record.meta.get("branch")
            if isinstance(branch, dict) and isinstance(branch.get("ply"), int) and isinstance(branch.get("from"), str):
                meta["branch"] = {"from": branch["from"][:40], "ply": branch["ply"]}
            players = len(registry.game_class(record.game).seat_names)
            session = Session.from_record(record, seats if seats and len(seats) == players else
                                          [Seat("human") for _ in range(players)], session_id, meta=meta)
    except Exception as error:  # ours carry a key and values; Python's own count too: a bad file is just a bad file
        return None, error_words(error), []
    session.meta.update(session_meta(session))
    session.meta["choice"] = new_game_choice(session.game.seat_names, [
        "human" if seat.kind != "bot" else f"bot:{seat.level}" for seat in session.seats])
    return session, "", notes
