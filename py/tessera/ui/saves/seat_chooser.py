"""The import dialog's seats: one choice per side, pre-selected from the record.

``import_seats`` reads the record; this builds the form: a ``<select>`` per
seat (a player on this device, or one of the game's bot levels), labelled by
the side's name.  It is rebuilt when the record turns out to be of another
game or names other seats; a choice the player changed stays while the
record's seats do not change.
"""

from __future__ import annotations

from typing import Any

from ...i18n import t
from ..dom import clear, el
from .import_seats import HUMAN, RecordPeek, choices_for, has_player


class SeatChooser:
    """The seats fieldset of the import dialog."""

    def __init__(self, game_id: str) -> None:
        self.node = el("fieldset", "choice-group import-seats", None, {"data-name": "import-seats"})
        self.node.appendChild(el("legend", None, t("import.seats")))
        self.rows = el("div", "seat-rows")
        self.node.appendChild(self.rows)
        self.node.appendChild(el("p", "dialog-hint", t("import.seats_hint")))
        self.game_id = ""
        self.seat_names: list[str] = []
        self.selects: list[Any] = []
        self._peeked: RecordPeek | None = None
        self.show(RecordPeek(game_id))

    def show(self, peeked: RecordPeek | None) -> None:
        """Pre-select the seats ``peeked`` names (the same record again changes nothing)."""
        if peeked is None or peeked == self._peeked:
            return
        from ...bots.registry import levels_for
        from ...core.registry import game_class
        try:
            names = list(game_class(peeked.game).seat_names)
        except Exception:  # a game this build does not have: Open will say so
            return
        self._peeked = peeked
        levels = [level.key for level in levels_for(peeked.game)]
        chosen = choices_for(peeked, names, levels)
        self.game_id, self.seat_names = peeked.game, names
        clear(self.rows)
        self.selects = []
        for index, name in enumerate(names):
            select_id = f"import-seat-{index}"
            select = el("select", "seat-select", None, {"id": select_id, "data-seat": name})
            options = [(HUMAN, t("import.seat_human"))]
            options += [(f"bot:{key}", t("opponent.bot", level=t(f"bot.level.{key}"))) for key in levels]
            for value, label in options:
                select.appendChild(el("option", None, label, {"value": value, "selected": value == chosen[index]}))
            select.value = chosen[index]
            self.selects.append(select)
            self.rows.appendChild(el("div", "seat-row", None, None, [
                el("label", "seat-label", t(f"seat.{name}"), {"for": select_id}), select]))

    def values(self) -> list[str]:
        return [str(select.value or HUMAN) for select in self.selects]

    def valid(self) -> bool:
        return has_player(self.values())
