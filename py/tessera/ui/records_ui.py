"""Export and import of tessera/1 game records (file and clipboard).

An imported record is replayed in full before anything changes; a bad one
shows the same message the command line gives (``RecordError``'s text) and
leaves the current game alone.  A good one opens as a new game for two
players on this device, at its last position.
"""

from __future__ import annotations

import random
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

from ..core.game import GameError
from ..core.record import Record
from ..core.session import Seat, Session, SessionError
from ..i18n import t
from . import storage
from .dialogs import Dialog
from .dom import el, set_text


def record_filename(session: Session) -> str:
    created = session.meta.get("created")
    stamp = ""
    if isinstance(created, (int, float)):
        stamp = "-" + str(js.Date.new(created).toISOString())[:10]
    return f"tessera-{session.game.game_id}{stamp}-{session.session_id[-6:]}.json"


def record_text(session: Session) -> str:
    names = session.game.seat_names
    meta = {"app": "Tessera"}
    for seat, spec in enumerate(session.seats):
        meta[names[seat]] = spec.kind if spec.kind != "bot" else f"bot:{spec.level}"
    return session.record(meta).dumps()


def export_dialog(app: Any, session: Session) -> Dialog:
    text = record_text(session)
    dialog = Dialog(t("record.export_title"), "dialog-record")
    area = el("textarea", "record-text", None, {"readonly": True, "rows": "10", "spellcheck": "false",
                                               "aria-label": t("record.export_title")})
    area.value = text
    note = el("p", "record-note", None, {"role": "status"})
    dialog.body.appendChild(area)
    dialog.body.appendChild(note)

    def copy() -> None:
        def done(ok: Any) -> None:
            set_text(note, t("record.copied") if ok else t("record.copy_failed"))
        js.tesseraUtil.copyText(text).then(create_once_callable(done))

    dialog.add_button(t("dialog.close"))
    dialog.add_button(t("record.copy"), copy, close=False, attrs={"data-action": "copy"})
    dialog.add_button(t("record.download"), lambda: js.tesseraUtil.download(record_filename(session), text),
                      "primary", close=False, attrs={"data-action": "download"})
    return dialog.open()


def import_dialog(app: Any, game_id: str) -> Dialog:
    dialog = Dialog(t("record.import_title"), "dialog-record")
    file_input = el("input", "visually-hidden", None, {"type": "file", "accept": ".json,application/json",
                                                       "id": "record-file"})
    file_label = el("label", "btn", t("record.choose_file"), {"for": "record-file"})
    area = el("textarea", "record-text", None, {"rows": "8", "spellcheck": "false", "id": "record-paste",
                                               "placeholder": t("record.paste_placeholder")})
    error = el("p", "record-error", None, {"role": "alert", "hidden": True})
    dialog.body.appendChild(el("p", "dialog-hint", t("record.import_hint")))
    dialog.body.appendChild(el("div", "file-row", None, None, [file_input, file_label]))
    dialog.body.appendChild(el("label", "paste-label", t("record.paste"), {"for": "record-paste"}))
    dialog.body.appendChild(area)
    dialog.body.appendChild(error)

    def fail(message: str) -> None:
        set_text(error, message)
        error.hidden = False

    def open_text(text: str) -> None:
        session, message = session_from_record_text(text)
        if session is None:
            fail(t("record.error", detail=message))
            return
        dialog.close()
        try:
            storage.save_session(session.to_save())
        except storage.StorageFull:
            app.notice(t("storage.quota"), "error", sticky=True)
        app.pending_session = session
        app.go(f"#/play/{session.game.game_id}/{session.session_id}")

    def file_chosen(event: Any) -> None:
        def loaded(text: Any) -> None:
            if isinstance(text, str):
                area.value = text
                open_text(text)
        js.tesseraUtil.readChosenFile(file_input).then(create_once_callable(loaded))

    dialog.listeners.on(file_input, "change", file_chosen)
    dialog.add_button(t("dialog.cancel"))
    dialog.add_button(t("record.open"), lambda: open_text(str(area.value or "")), "primary", close=False,
                      attrs={"data-action": "open-record"})
    return dialog.open(focus=area)


def session_from_record_text(text: str) -> tuple[Session | None, str]:
    """A new hot-seat session from record text, or None and the error text."""
    from .play_screen import session_meta
    try:
        record = Record.loads(text.strip())
        session_id = f"{int(js.Date.now()):x}{random.randrange(1 << 16):04x}"
        session = Session.from_record(record, [Seat("human"), Seat("human")], session_id,
                                      meta={"created": float(js.Date.now()), "imported": True})
    except (GameError, SessionError) as error:
        return None, str(error)
    session.meta.update(session_meta(session))
    return session, ""
