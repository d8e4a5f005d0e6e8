"""Playing a friend by link: the game so far travels in a URL, no server.

The page is static, so the way to play a friend on another device that
needs nothing else is correspondence, as Quadrature was played by mail:
after each move the mover sends a link (by any messenger) whose fragment
holds the whole game: ``#/link/<token>``.  Opening it shows the position;
the reply move makes the reply link.  Each device keeps the game as a save
(and, once finished, in its archive).

The token is ``1`` (the format) and the game as compact JSON, deflated
(``zlib``) and written in URL-safe base64 without padding:
``{"id": link id, "g": game, "o": options, "s": seed, "m": [moves], "by":
the sender's seat, "r": a stated ending or absent}``.  A token is untrusted
input: its size is bounded before and after inflating (no zip bomb), its
JSON is read as a record (``core.record``), so every move is replayed and
checked by the engine.

``compare`` says how a link stands to the game this device keeps under the
same id: new to this device, the same, one move (or more) on, behind (an
older link), or another history (a link that rewrites earlier moves, or
belongs to another game, is refused).
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from dataclasses import dataclass
from enum import Enum
from typing import Any, Sequence

from ..i18n import MessageError
from .game import Outcome, excerpt
from .record import Record, RecordError, parse_json

FORMAT = "1"
MAX_TOKEN_CHARS = 60_000
"""A link's token: far above a long game's (a 400-move Dots game is about 3,000)."""
MAX_JSON_BYTES = 400_000
"""What a token may inflate to: a bound against a zip bomb."""
MAX_ID_CHARS = 24
URL_SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


class LinkError(MessageError, ValueError):
    """A link that cannot be a game: a catalog key and its values."""


@dataclass(frozen=True)
class LinkGame:
    """What a link carries."""

    link_id: str
    record: Record
    by: int
    """The seat of the player who sent it (who made its last move)."""


def encode(record: Record, link_id: str, by: int) -> str:
    """The token of a link for ``record`` (moves and any stated ending) sent by seat ``by``."""
    data: dict[str, Any] = {"id": link_id, "g": record.game, "o": record.options, "s": record.seed,
                            "m": list(record.moves), "by": by}
    if record.result is not None:
        data["r"] = record.result.to_json()
    raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return FORMAT + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")


def decode(token: Any) -> LinkGame:
    """The game a token carries (its record checked, not yet replayed); LinkError otherwise."""
    if not isinstance(token, str) or not token:
        raise LinkError("error.link.empty")
    if len(token) > MAX_TOKEN_CHARS:
        raise LinkError("error.link.too_long", count=len(token), limit=MAX_TOKEN_CHARS)
    if token[:1] != FORMAT:
        raise LinkError("error.link.format", text=excerpt(token[:1]))
    body = token[1:]
    if not body or body.rstrip("=").strip(URL_SAFE):   # anything but base64url: not ours
        raise LinkError("error.link.damaged")
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_JSON_BYTES + 1)
    except (binascii.Error, ValueError, zlib.error):
        raise LinkError("error.link.damaged") from None
    if len(raw) > MAX_JSON_BYTES or inflater.unconsumed_tail:
        raise LinkError("error.link.too_long", count=len(raw), limit=MAX_JSON_BYTES)
    try:
        data = parse_json(raw.decode("utf-8"), LinkError)
    except (UnicodeDecodeError, LinkError):
        raise LinkError("error.link.damaged") from None
    if not isinstance(data, dict):
        raise LinkError("error.link.damaged")
    link_id, by = data.get("id"), data.get("by")
    if not isinstance(link_id, str) or not 0 < len(link_id) <= MAX_ID_CHARS \
            or not all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in link_id):
        raise LinkError("error.link.id", value=excerpt(link_id))
    if isinstance(by, bool) or by not in (0, 1):
        raise LinkError("error.link.seat", value=excerpt(by))
    try:
        record = Record.from_json({"format": "tessera/1", "game": data.get("g"), "options": data.get("o"),
                                   "seed": data.get("s", 0), "moves": data.get("m", []),
                                   "result": data.get("r")})
    except RecordError as error:
        raise LinkError("error.link.record", reason=error) from None
    return LinkGame(link_id, record, by)


class Standing(Enum):
    NEW = "new"
    """No game of this id here: the link starts it on this device."""
    SAME = "same"
    AHEAD = "ahead"
    """The link has the moves kept here and more: they are played here."""
    BEHIND = "behind"
    """An older link: the game kept here has moved on."""
    OTHER = "other"
    """Another history under the same id: refused."""


def compare(kept: Record | None, link: Record) -> Standing:
    """How ``link`` stands to the game kept under its id (``kept``, or None)."""
    if kept is None:
        return Standing.NEW
    if (kept.game, kept.seed, kept.options) != (link.game, link.seed, link.options):
        return Standing.OTHER
    ours, theirs = kept.moves, link.moves
    shorter = min(len(ours), len(theirs))
    if list(ours[:shorter]) != list(theirs[:shorter]):
        return Standing.OTHER
    if len(theirs) > len(ours):
        return Standing.AHEAD
    if len(theirs) < len(ours):
        return Standing.BEHIND
    if link.result is not None and kept.result is None:
        return Standing.AHEAD   # the same moves, and the friend resigned or the clock ended it there
    return Standing.SAME


def new_moves_by(link: LinkGame, kept_plies: int, movers: Sequence[int]) -> bool:
    """Whether every move the link adds after ``kept_plies`` was the sender's
    (``movers``: who made each move of the link's replay): a link never plays
    the receiver's moves for them."""
    return all(mover == link.by for mover in movers[kept_plies:])


def stated_ending(link: LinkGame) -> Outcome | None:
    return link.record.result
