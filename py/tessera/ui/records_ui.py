"""Export and import of game records (file and clipboard).

Every game exports its tessera/1 JSON record; a game with an SGF codec
(Dots: GM[40], ``games/dots/sgf.py``) offers SGF too, and import accepts
either (a text starting with ``(`` is read as SGF).  An imported record is
replayed in full before anything changes; a bad one shows the same message
the command line gives (``RecordError``'s or ``SgfError``'s text) and
leaves the current game alone.  A good one opens as a new game for two
players on this device, at its last position.

Other programs' rules.  An SGF file's KM, RU and time properties stay in
the session's ``meta["sgf"]``, go into its tessera/1 record's meta and back
into its SGF export.  When they name other rules than Tessera's (a komi,
KataGoDots' capture variants, unknown rules; ``games/dots/sgf_rules.py``),
the opened game comes with a notice at the top of the page saying what
differs, since its moves are replayed with Tessera's rules.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

from ..core.game import GameError
from ..core.record import MAX_RECORD_BYTES, Record
from ..core.session import Seat, Session, SessionError
from ..i18n import t
from . import storage
from .dialogs import Dialog
from .dom import el, set_text


SGF_GAMES = ("dots",)
"""Games whose records also travel as SGF."""


def record_filename(session: Session, suffix: str = ".json") -> str:
    created = session.meta.get("created")
    stamp = ""
    if isinstance(created, (int, float)):
        stamp = "-" + str(js.Date.new(created).toISOString())[:10]
    return f"tessera-{session.game.game_id}{stamp}-{session.session_id[-6:]}{suffix}"


def _player_name(session: Session, seat: int) -> str:
    spec = session.seats[seat]
    if spec.kind == "bot":
        return f"Tessera bot ({spec.level})"
    return spec.name or f"Player {seat + 1}"


def sgf_text(session: Session) -> str:
    """The game as SGF (Dots GM[40]), with names, date and result."""
    from ..games.dots.sgf import to_sgf
    meta: dict[str, Any] = {"blue": _player_name(session, 0), "red": _player_name(session, 1)}
    created = session.meta.get("created")
    if isinstance(created, (int, float)):
        meta["date"] = str(js.Date.new(created).toISOString())[:10]
    outcome = session.outcome()
    if outcome is not None:
        meta["result"] = outcome
    if "sgf" in session.meta:
        meta["sgf"] = session.meta["sgf"]
    return to_sgf(session.game, meta)


def session_from_sgf(text: str, session_id: str, created: float) -> tuple[Session, list[Any]]:
    """A hot-seat session from SGF text and the notes on its rules
    (``RulesNote``s); SgfError (a GameError) says what is wrong."""
    from ..games.dots.sgf import from_sgf
    game, meta = from_sgf(text)
    session_meta: dict[str, Any] = {"created": created, "imported": True}
    if "sgf" in meta:
        session_meta["sgf"] = meta["sgf"]
    session = Session(game, [Seat("human"), Seat("human")], session_id, result=meta.get("outcome"),
                      meta=session_meta)
    return session, list(meta.get("notes", []))


def record_text(session: Session) -> str:
    names = session.game.seat_names
    meta: dict[str, Any] = {"app": "Tessera"}
    for seat, spec in enumerate(session.seats):
        meta[names[seat]] = spec.kind if spec.kind != "bot" else f"bot:{spec.level}"
    if "sgf" in session.meta:
        meta["sgf"] = session.meta["sgf"]
    return session.record(meta).dumps()


def export_dialog(app: Any, session: Session) -> Dialog:
    texts = {"json": record_text(session)}
    if session.game.game_id in SGF_GAMES:
        try:
            texts["sgf"] = sgf_text(session)
        except GameError:   # a start SGF cannot hold (regions): JSON only
            pass
    current = {"format": "json"}
    dialog = Dialog(t("record.export_title"), "dialog-record")
    area = el("textarea", "record-text", None, {"readonly": True, "rows": "10", "spellcheck": "false",
                                               "aria-label": t("record.export_title"), "id": "record-export"})
    area.value = texts["json"]
    note = el("p", "record-note", None, {"role": "status"})
    if len(texts) > 1:
        row = el("div", "choice-row", None, {"role": "radiogroup", "aria-label": t("record.format")})
        for key, label in (("json", "Tessera JSON"), ("sgf", "SGF")):
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
        set_text(download_button, t("record.download_sgf") if key == "sgf" else t("record.download"))

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
    sgf = game_id in SGF_GAMES
    accept = ".json,application/json" + (",.sgf,application/x-go-sgf" if sgf else "")
    file_input = el("input", "visually-hidden", None, {"type": "file", "accept": accept, "id": "record-file"})
    file_label = el("label", "btn", t("record.choose_file"), {"for": "record-file"})
    area = el("textarea", "record-text", None, {"rows": "8", "spellcheck": "false", "id": "record-paste",
                                               "placeholder": t("record.paste_placeholder")})
    error = el("p", "record-error", None, {"role": "alert", "hidden": True})
    dialog.body.appendChild(el("p", "dialog-hint", t("record.import_hint.sgf" if sgf else "record.import_hint")))
    dialog.body.appendChild(el("div", "file-row", None, None, [file_input, file_label]))
    dialog.body.appendChild(el("label", "paste-label", t("record.paste"), {"for": "record-paste"}))
    dialog.body.appendChild(area)
    dialog.body.appendChild(error)

    def fail(message: str) -> None:
        set_text(error, message)
        error.hidden = False

    def open_text(text: str) -> None:
        session, message, notes = session_from_record_text(text)
        if session is None:
            fail(t("record.error", detail=message))
            return
        dialog.close()
        app.open_session(session)
        if notes:
            sentences = [t(note.key, **note.params) for note in notes]
            app.notice(" ".join([t("record.rules_differ"), *sentences]), "warning", sticky=True)

    def file_chosen(event: Any) -> None:
        def loaded(text: Any) -> None:
            if isinstance(text, str):
                area.value = text
                open_text(text)
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


def session_from_record_text(text: str) -> tuple[Session | None, str, list[Any]]:
    """A new hot-seat session from record text (tessera/1 JSON or SGF) and
    the notes on its rules, or None and the error text."""
    from ..games.dots.sgf import kept_sgf_meta
    from ..games.dots.sgf_rules import sgf_meta_notes
    from .session_store import session_meta
    session_id = storage.new_session_id()
    created = float(js.Date.now())
    notes: list[Any] = []
    try:
        if text.lstrip().startswith("("):
            session, notes = session_from_sgf(text, session_id, created)
        else:
            record = Record.loads(text.strip())
            meta: dict[str, Any] = {"created": created, "imported": True}
            kept = kept_sgf_meta(record.meta.get("sgf")) if record.game in SGF_GAMES else {}
            if kept:
                meta["sgf"] = kept
                notes = sgf_meta_notes(kept)
            session = Session.from_record(record, [Seat("human"), Seat("human")], session_id, meta=meta)
    except (GameError, SessionError) as error:
        return None, " ".join(str(error).split())[:300], []
    except Exception as error:  # Python's own errors count: a bad file is still just a bad file
        return None, type(error).__name__, []
    session.meta.update(session_meta(session))
    return session, "", notes
