"""Who plays an imported record: the seats the record names, which the player may change.

A tessera/1 record exported by the app names each seat in its meta, under
the seat's name: ``"white": "human"``, ``"black": "bot:medium"``
(``records.record_meta``).  The import dialog reads that as soon as a
record is pasted or chosen (its shape only, no replay) and pre-selects the
seats; anything it does not name, or names with a level the game does not
have, is a player on this device.  An SGF file names people, not Tessera's
seats, so the player picks (both on this device until then).  At least one
seat stays with a player on this device: the app has no bot-against-bot
games.

Pure Python (no ``js``), tested in CPython and Pyodide.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ...core.record import Record
from ...core.record_formats import format_for_text
from ...core.seats import Seat

HUMAN = "human"
"""The choice for a player on this device; a bot is ``bot:<level>``."""


@dataclass(frozen=True)
class RecordPeek:
    """What the seat chooser needs of a record before it is replayed."""

    game: str
    named: tuple[tuple[str, str], ...] = ()
    """(seat name, ``human`` or ``bot:<level>``) as the record's meta has them;
    empty when it names none (then the player picks)."""


def peek(text: str) -> RecordPeek | None:
    """The game and named seats of record text, or None when it is not (yet) a
    readable record; the full check is the replay when it is opened."""
    text = text.strip()
    if not text:
        return None
    fmt = format_for_text(text)
    if fmt is not None:   # another program's format (Dots' SGF): the game it belongs to
        return RecordPeek(fmt.game_id)
    try:
        record = Record.loads(text)
    except Exception:  # not a record yet (being typed) or a bad one: Open will say why
        return None
    return RecordPeek(record.game, named_seats(record.meta))


def named_seats(meta: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """The record meta's seat entries as written; ``choices_for`` checks
    them against the game's seats and levels."""
    return tuple((key, value) for key, value in meta.items() if isinstance(key, str) and isinstance(value, str)
                 and (value == HUMAN or value.startswith("bot:")))


def choices_for(peeked: RecordPeek | None, seat_names: Sequence[str], levels: Sequence[str]) -> list[str]:
    """One choice per seat (``human`` or ``bot:<level>``) to pre-select for a game
    with these seats and bot levels."""
    named = dict(peeked.named) if peeked is not None else {}
    choices = []
    for name in seat_names:
        value = named.get(name, HUMAN)
        if value.startswith("bot:") and value[4:] not in levels:
            value = HUMAN
        choices.append(value)
    if HUMAN not in choices:   # a record of two bots: the player takes the first seat
        choices[0] = HUMAN
    return choices


def seats_for(choices: Sequence[str]) -> list[Seat]:
    """The session's seats for the chooser's values (unknown values: a player here)."""
    return [Seat("bot", choice[4:]) if choice.startswith("bot:") and len(choice) > 4 else Seat(HUMAN)
            for choice in choices]


def has_player(choices: Sequence[str]) -> bool:
    """At least one seat is played on this device."""
    return any(not choice.startswith("bot:") for choice in choices)


def new_game_choice(seat_names: Sequence[str], choices: Sequence[str]) -> dict[str, str]:
    """The new-game dialog's preset matching these seats (``meta["choice"]``)."""
    bots = [choice for choice in choices if choice.startswith("bot:")]
    if not bots:
        return {"opponent": HUMAN}
    you = next(index for index, choice in enumerate(choices) if not choice.startswith("bot:"))
    return {"opponent": bots[0], "side": seat_names[you]}
