"""Other programs' rules in a Dots SGF, and where they differ from Tessera's.

Tessera replays every record with its own rules (RULINGS.md), so an
imported file whose game was played under other rules can end with another
score or winner than its RE says.  ``rules_notes`` reads the two root
properties that say so and returns one ``RulesNote`` per difference; the
app shows them on import, the command line prints them on stderr.

What the programs write (read from their sources):

* KataGoDots: ``KM[0.5]`` (komi, added to the second player's, red's,
  score; 0, 0.5, -0.5, 1 ... in self-play) and ``RU[...]``, its rules
  string: flags written as key and digit, in this order,
  ``dotsCaptureEmptyBase0startPosIsRandom1sui1`` (``startPosIsRandom`` only
  when set), optionally ``komi<n>``; a preset name (``bbs``, also called
  ``russian``, and ``notago``: the same capture rules, notago with random
  crosses); or a JSON object (``{"dots": true, "suicide": true,
  "dotsCaptureEmptyBase": false, "startPos": "CROSS", "komi": 0}``).
* zagram and kropki: ``RU[russian]`` or nothing, and the time properties
  ``TM`` (main time, seconds), ``OT`` (overtime, e.g. ``0+25``) and
  ``BL`` / ``WL`` (time left after a move); times change no rule.

What differs from Tessera's rules:

* ``dotsCaptureEmptyBase1``: a chain around an empty area captures it.
  Here that area is a house (5.12): it captures only a dot played into it.
* ``sui0`` (``"suicide": false``): a dot may not be put where it would be
  surrounded at once (into the opponent's house).  Here it may, and it is
  captured (5.14).  The moves of such a file replay the same; the rules
  they were chosen under were not.
* A komi other than 0 (KM, or ``komi`` in RU; KM wins): Tessera counts none,
  so a close game can change its winner.
* A rules string Tessera cannot read (a Go rule set, an unknown key): said
  as such, with its text.

``startPosIsRandom`` and ``startPos`` differ in nothing that matters here:
the start dots themselves are in the file (AB/AW).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

SAME_RULES_PRESETS = ("russian", "bbs", "notago")
"""KataGoDots' preset names with Tessera's capture rules (notago only randomises the crosses)."""
KOMI = re.compile(r"[+-]?\d{1,6}(?:\.\d{1,6})?")
"""A komi as KataGoDots and zagram write it; anything else (``1e400``, ``nan``) is not read."""
MAX_RULES_CHARS = 1000
"""Longer rules strings are not parsed, only named as unknown: KataGoDots'
longest is under 100 characters, and a huge one must cost nothing."""
SHOWN_CHARS = 40
"""How much of a rules string a note quotes."""

_FLAG_KEYS = ("dotsCaptureEmptyBase", "startPosIsRandom", "sui", "dots")
_START_NAMES = ("CROSS_4", "CROSS_2", "CROSS", "SINGLE", "EMPTY")


@dataclass(frozen=True)
class RulesNote:
    """One difference between a file's rules and Tessera's: a catalog key
    (``sgf.note.komi`` ...) and the values its text needs, so the app can
    say it in the player's language and the command line in English."""

    key: str
    params: dict[str, str] = field(default_factory=dict)


@dataclass
class ForeignRules:
    """What a file says about its rules; ``None`` where it says nothing."""

    capture_empty_bases: bool | None = None
    suicide: bool | None = None
    komi: str | None = None
    readable: bool = True


def rules_notes(komi: str | None, rules: str | None) -> list[RulesNote]:
    """The notes for a file's KM and RU texts (either may be missing)."""
    notes: list[RulesNote] = []
    parsed = parse_rules(rules) if rules is not None else ForeignRules()
    shown = _quote(rules or "")
    if not parsed.readable:
        notes.append(RulesNote("sgf.note.unknown_rules", {"rules": shown}))
    if parsed.capture_empty_bases:
        notes.append(RulesNote("sgf.note.empty_bases", {"rules": shown}))
    if parsed.suicide is False:
        notes.append(RulesNote("sgf.note.no_suicide", {"rules": shown}))
    komi_text = komi if komi is not None else parsed.komi
    if komi_text is not None:
        value = komi_text.strip()
        if not KOMI.fullmatch(value):
            notes.append(RulesNote("sgf.note.bad_komi", {"komi": _quote(value)}))
        elif float(value) != 0:
            notes.append(RulesNote("sgf.note.komi", {"komi": value}))
    return notes


def parse_rules(text: str) -> ForeignRules:
    """Read a rules string in any of the forms above; never raises."""
    value = text.strip()
    if len(value) > MAX_RULES_CHARS:
        return ForeignRules(readable=False)
    if not value or value.lower() in SAME_RULES_PRESETS:
        return ForeignRules()
    if value.startswith("{"):
        return _parse_json(value)
    return _parse_compact(value)


def _parse_json(text: str) -> ForeignRules:
    result = ForeignRules()
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict):
        result.readable = False
        return result
    for key, item in data.items():
        if key == "dotsCaptureEmptyBase" and isinstance(item, bool):
            result.capture_empty_bases = item
        elif key == "suicide" and isinstance(item, bool):
            result.suicide = item
        elif key == "komi" and isinstance(item, (int, float)) and not isinstance(item, bool):
            result.komi = _number_text(item)
        elif key == "dots" and item is True:
            pass
        elif key == "startPos" and isinstance(item, str) and item.upper() in _START_NAMES:
            pass
        elif key == "startPosIsRandom" and isinstance(item, bool):
            pass
        else:
            result.readable = False
    return result


def _parse_compact(text: str) -> ForeignRules:
    """``dotsCaptureEmptyBase0startPosIsRandom1sui1komi0.5``: keys and values, no separators."""
    result = ForeignRules()
    rest = text
    while rest:
        rest = rest.lstrip()
        if not rest:
            break
        if rest.startswith("komi"):
            match = KOMI.match(rest, 4)
            if match is None:
                result.readable = False
                break
            result.komi = match.group(0)
            rest = rest[match.end():]
            continue
        if rest.startswith("startPos") and not rest.startswith("startPosIsRandom"):
            name = next((n for n in _START_NAMES if rest.startswith(n, 8)), None)
            if name is None:
                result.readable = False
                break
            rest = rest[8 + len(name):]
            continue
        key = next((k for k in _FLAG_KEYS if rest.startswith(k)), None)
        if key is None or rest[len(key):len(key) + 1] not in ("0", "1"):
            result.readable = False
            break
        flag = rest[len(key)] == "1"
        if key == "dotsCaptureEmptyBase":
            result.capture_empty_bases = flag
        elif key == "sui":
            result.suicide = flag
        elif key == "dots" and not flag:
            result.readable = False
            break
        rest = rest[len(key) + 1:]
    return result


def _number_text(value: float) -> str:
    """A JSON komi as text: ``0.5``, ``1`` (not ``1.0``)."""
    if value != value or value in (float("inf"), float("-inf")):
        return "nan"
    return str(int(value)) if float(value).is_integer() and abs(value) < 1e15 else repr(float(value))


def _quote(text: str) -> str:
    """A rules string for a message: one line, at most ``SHOWN_CHARS`` characters."""
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= SHOWN_CHARS else one_line[:SHOWN_CHARS] + "…"


def sgf_meta_notes(sgf_meta: Any) -> list[RulesNote]:
    """The notes for a record's ``meta["sgf"]`` (KM and RU kept from an SGF file)."""
    if not isinstance(sgf_meta, dict):
        return []
    komi = sgf_meta.get("KM")
    rules = sgf_meta.get("RU")
    return rules_notes(komi if isinstance(komi, str) else None, rules if isinstance(rules, str) else None)


__all__ = ["RulesNote", "ForeignRules", "rules_notes", "parse_rules", "sgf_meta_notes"]
