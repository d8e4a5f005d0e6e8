"""Dots game records in SGF (GM[40]), as KataGoDots, zagram and kropki write them.

Written: ``(;FF[4]GM[40]CA[UTF-8]AP[Tessera]SZ[..]PB[..]PW[..]DT[..]RE[..]C[..]AB[..]AW[..];B[..];W[..]...)``

* ``SZ[39:32]`` is width:height; a square field is ``SZ[20]`` (FF[4]).
  Every size from 5 to 52 (what the letters below can name) is read and
  written; a smaller or larger one is refused with the reason.
* B is blue (the first player), W is red.
* A point is two letters, ``a``-``z`` then ``A``-``Z`` for 0..51: the
  column from the left, then the row from the TOP (the document's y counts
  from the bottom, so row = height - y).
* The start dots are AB/AW setup points in the root node.
* Landing is the empty move ``B[]`` / ``W[]``.
* RE: ``B+n`` / ``W+n`` (n = score difference), ``B+R`` / ``W+R`` for a
  resignation, ``B+T`` / ``W+T`` on time, ``0`` for a draw.

Read: the main line of the first game tree.  A move value may carry a
suffix after ``.`` (kropki and zagram list the closed chain there:
``W[de.cecfdgefdece]``); it is ignored, the engine finds captures itself.
Unknown properties (AP, BR, HA, TW, ...) are ignored.  A broken
file raises ``SgfError`` naming what is wrong; input over
``MAX_SGF_BYTES`` is refused before parsing.

Other programs' rules and times.  KataGoDots' ``KM`` (komi) and ``RU``
(its rules string) and zagram's time properties ``TM``, ``OT`` (root) and
``BL`` / ``WL`` (time left, root or after a move) are read without being
acted on and kept in ``meta["sgf"]``: ``{"KM": "0.5", "RU": "...",
"TM": "300", "OT": "0+25", "BL": [[ply, "308.3"], ...], "WL": [...]}``
(texts as written; ``ply`` is the number of moves played when the time was
noted, 0 for the root).  The app and the command line keep that object in
the tessera/1 record's ``meta["sgf"]``, and ``to_sgf`` writes it back (BL
and WL at plies the game has).  Where those rules differ from Tessera's
(``sgf_rules``: a komi, empty areas captured, no suicide, a rules string it
cannot read), ``meta["notes"]`` lists ``RulesNote`` objects (a catalog key
and its values) for the app to show and the command line to print; the
moves are always replayed with Tessera's rules.

``meta`` keys (both directions): ``blue``, ``red`` (names), ``date``,
``comment``, ``event`` and ``result`` (an ``Outcome`` to write; when read,
the raw RE text).  ``comments`` are per-move captions aligned with plies
(``Record.comments``): ``C[]`` on the node of move ``k`` is ``comments[k]``
(on a node without a move, the last move's), and ``comments[0]`` is the
root's ``C`` (written there when ``comment`` is not given).  They are read
only when some move node has a ``C``, so a file without any reads as
before.  A move written ``resign`` (KataGoDots) ends the move
list and is reported as ``meta["resigned"]`` (0 blue, 1 red).  When read,
an ending the moves do not show themselves (a resignation, by that move or
by RE ``B+R``; a loss on time, ``B+T``; an agreed draw, ``0``) comes back as
``meta["outcome"]``, an ``Outcome``, so a record round-trips its result.
"""

from __future__ import annotations

import re
from typing import Any

from ...core.game import GameError, Outcome, PositionError, excerpt
from ...i18n import Message
from .rules import FOUR_CROSSES_MIN_SIDE, LAND, MAX_SIDE, MIN_SIDE, Dots, cross_points
from .sgf_rules import RulesNote, rules_notes

MAX_SGF_BYTES = 1_000_000
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
COLOURS = ("B", "W")
KEPT_TEXTS = ("KM", "RU", "TM", "OT")
"""Root properties of other programs kept in ``meta["sgf"]`` as written."""
TIME_LEFT = ("BL", "WL")
"""Time left (seconds), per player, kept with the ply it was noted at."""
MAX_KEPT_CHARS = 200
"""A kept value longer than this is dropped: no program writes one."""
TIME_VALUE = re.compile(r"[+-]?\d{1,9}(?:\.\d{1,6})?")


class SgfError(GameError):
    """An SGF text that is not a readable Dots record; the message says why."""


# ----- writing -----------------------------------------------------------------
def _escape(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace("]", "\\]")


def point_text(game: Dots, x: int, y: int) -> str:
    return LETTERS[x - 1] + LETTERS[game.height - y]


def _result_text(outcome: Outcome | None, scores: tuple[int, int]) -> str | None:
    if outcome is None:
        return None
    if outcome.winner is None:
        return "0"
    colour = COLOURS[outcome.winner]
    if outcome.reason == "resign":
        return f"{colour}+R"
    if outcome.reason == "time":
        return f"{colour}+T"
    return f"{colour}+{abs(scores[0] - scores[1])}"


def to_sgf(game: Dots, meta: dict[str, Any] | None = None) -> str:
    """The game's start and moves as SGF text (see the module docstring)."""
    meta = dict(meta or {})
    start = Dots(game.options, game.seed, game.setup)
    if start.field.regions or any(start.field.owner[c] for c in start.field.cells) or start.landed is not None:
        raise SgfError("error.sgf.regions")
    props = ["FF[4]GM[40]CA[UTF-8]AP[Tessera]"]
    size = f"{game.width}" if game.width == game.height else f"{game.width}:{game.height}"
    props.append(f"SZ[{size}]")
    for key, prop in (("blue", "PB"), ("red", "PW"), ("date", "DT"), ("event", "EV")):
        if meta.get(key):
            props.append(f"{prop}[{_escape(meta[key])}]")
    kept = kept_sgf_meta(meta.get("sgf"))
    kept = {**_time_props(meta.get("time_control")), **kept}   # times read from another program win
    for prop in KEPT_TEXTS:
        if prop in kept:
            props.append(f"{prop}[{_escape(kept[prop])}]")
    result = meta.get("result")
    if not isinstance(result, Outcome):
        result = game.outcome()
    re_text = _result_text(result, game.scores())
    if re_text:
        props.append(f"RE[{re_text}]")
    comments = move_comments(meta.get("comments"), game.ply)
    if meta.get("comment") or comments[0]:
        props.append(f"C[{_escape(meta.get('comment') or comments[0])}]")
    for player, prop in ((0, "AB"), (1, "AW")):
        points = [start.field.xy(c) for c in start.field.cells if start.field.dot[c] == player + 1]
        if points:
            props.append(prop + "".join(f"[{point_text(game, x, y)}]" for x, y in points))
    if start.to_move != 0:
        props.append("PL[W]")
    times = {prop: dict(kept.get(prop, [])) for prop in TIME_LEFT}
    props += [f"{prop}[{times[prop][0]}]" for prop in TIME_LEFT if 0 in times[prop]]
    nodes = ["".join(props)]
    player = start.to_move
    for ply, move in enumerate(game.move_stack, start=1):
        value = "" if move == LAND else point_text(game, *game.xy(move))
        noted = "".join(f"{prop}[{times[prop][ply]}]" for prop in TIME_LEFT if ply in times[prop])
        said = f"C[{_escape(comments[ply])}]" if comments[ply] else ""
        nodes.append(f"{COLOURS[player]}[{value}]{noted}{said}")
        player = 1 - player
    return "(;" + "\n;".join(nodes) + ")\n"


def move_comments(data: Any, plies: int) -> list[str]:
    """``meta["comments"]`` as ``plies + 1`` texts (anything else counts as none)."""
    given = data[:plies + 1] if isinstance(data, list) else []
    texts = [text if isinstance(text, str) else "" for text in given]
    return texts + [""] * (plies + 1 - len(texts))


def _time_props(control: Any) -> dict[str, str]:
    """``TM`` (the total, seconds) and ``OT`` (what else limits the time, in
    words) of a game played with a clock (``core.clock.TimeControl``)."""
    if control is None or not getattr(control, "enabled", False):
        return {}
    props: dict[str, str] = {}
    if control.total is not None:
        props["TM"] = f"{control.total:g}"
    overtime = []
    if control.increment:
        overtime.append(f"{control.increment:g}s Fischer")
    if control.per_move is not None:
        overtime.append(f"{control.per_move:g}s per move")
    if overtime:
        props["OT"] = ", ".join(overtime)
    return props


def kept_sgf_meta(data: Any) -> dict[str, Any]:
    """The well-formed part of ``meta["sgf"]`` (it may come from any JSON
    record): texts for KM, RU, TM, OT; ``[ply, seconds]`` pairs for BL, WL."""
    if not isinstance(data, dict):
        return {}
    kept: dict[str, Any] = {}
    for prop in KEPT_TEXTS:
        value = data.get(prop)
        if isinstance(value, str) and len(value) <= MAX_KEPT_CHARS:
            kept[prop] = value
    for prop in TIME_LEFT:
        pairs = data.get(prop)
        if isinstance(pairs, list):
            good = [[ply, text] for ply, text in (p for p in pairs if isinstance(p, list) and len(p) == 2)
                    if isinstance(ply, int) and not isinstance(ply, bool) and ply >= 0
                    and isinstance(text, str) and TIME_VALUE.fullmatch(text)]
            if good:
                kept[prop] = good
    return kept


# ----- reading -----------------------------------------------------------------
def _parse_nodes(text: str) -> list[list[tuple[str, list[str]]]]:
    """The main line's nodes (first variation at every branch) of the first
    game tree, each a list of (property, values) pairs."""
    i = text.find("(")
    if i < 0:
        raise SgfError("error.sgf.no_start")
    n = len(text)
    nodes: list[list[tuple[str, list[str]]]] = []
    stack: list[list[int]] = []  # per open tree: [is main line, children seen]
    current: list[tuple[str, list[str]]] | None = None
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch == "(":
            if stack:
                parent = stack[-1]
                parent[1] += 1
                stack.append([1 if parent[0] and parent[1] == 1 else 0, 0])
            else:
                stack.append([1, 0])
            current = None
            i += 1
        elif ch == ")":
            if not stack:
                raise SgfError("error.sgf.unexpected_close", offset=i)
            stack.pop()
            current = None
            i += 1
            if not stack:
                return nodes
        elif ch == ";":
            if not stack:
                raise SgfError("error.sgf.node_outside", offset=i)
            current = []
            if stack[-1][0]:
                nodes.append(current)
            i += 1
        elif ch.isalpha():
            j = i
            while j < n and text[j].isalpha():
                j += 1
            name = text[i:j]
            values = []
            while True:
                while j < n and text[j].isspace():
                    j += 1
                if j >= n or text[j] != "[":
                    break
                j += 1
                value = []
                while True:
                    if j >= n:
                        raise SgfError("error.sgf.value_not_closed", name=_short(name))
                    if text[j] == "\\" and j + 1 < n:
                        if text[j + 1] not in "\r\n":
                            value.append(text[j + 1])
                        j += 2
                    elif text[j] == "]":
                        j += 1
                        break
                    else:
                        value.append(text[j])
                        j += 1
                values.append("".join(value))
            if not values:
                raise SgfError("error.sgf.no_value", name=_short(name))
            if current is None:
                raise SgfError("error.sgf.property_outside", name=_short(name))
            if stack[-1][0]:
                current.append((name if name.isupper() else _legacy(name), values))
            i = j
        else:
            raise SgfError("error.sgf.unexpected_character", char=excerpt(ch), offset=i)
    raise SgfError("error.sgf.not_closed")


def _short(text: str, limit: int = 24) -> str:
    """A property name or value from the file, cut short for a message."""
    return text if len(text) <= limit else text[:limit] + "…"


def _legacy(name: str) -> str:
    """FF[1-3] allowed lower-case letters in names (``AddBlack``): keep capitals."""
    return "".join(ch for ch in name if ch.isupper()) or name.upper()


def _size(value: str) -> tuple[int, int]:
    """``SZ[n]`` or ``SZ[w:h]`` within MIN_SIDE..MAX_SIDE; digits are
    counted before they are converted, so a huge number is refused plainly."""
    parts = [p.strip() for p in value.split(":")]
    shown = f"SZ[{value}]" if len(value) <= 16 and value.isprintable() else f"SZ {excerpt(value)}"
    if len(parts) not in (1, 2) or not all(p.isascii() and p.isdigit() for p in parts):
        raise SgfError("error.sgf.size_form", size=shown)
    if any(len(p) > 4 for p in parts):
        raise SgfError("error.sgf.size_huge", size=shown, count=MAX_SIDE)
    width, height = int(parts[0]), int(parts[-1])
    if min(width, height) < MIN_SIDE:
        raise SgfError("error.sgf.size_small", size=f"{width}x{height}", low=MIN_SIDE, count=MAX_SIDE)
    if max(width, height) > MAX_SIDE:
        raise SgfError("error.sgf.size_large", size=f"{width}x{height}", count=MAX_SIDE)
    return width, height


def _point(value: str, width: int, height: int, where: str | Message) -> tuple[int, int]:
    core = value.split(".", 1)[0]
    if len(core) != 2 or core[0] not in LETTERS or core[1] not in LETTERS:
        raise SgfError("error.sgf.not_point", where=where, value=excerpt(value))
    column, row = LETTERS.index(core[0]), LETTERS.index(core[1])
    if column >= width or row >= height:
        raise SgfError("error.sgf.off_field", where=where, value=excerpt(value), size=f"{width}x{height}")
    return column + 1, height - row


def from_sgf(text: str | bytes) -> tuple[Dots, dict[str, Any]]:
    """Read a Dots SGF record: the replayed game and its meta data."""
    if len(text) > MAX_SGF_BYTES:
        raise SgfError("error.sgf.too_large", count=len(text), limit=MAX_SGF_BYTES)
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            text = text.decode("latin-1")
    nodes = _parse_nodes(text)
    if not nodes:
        raise SgfError("error.sgf.no_nodes")
    root = {}
    for name, values in nodes[0]:
        root.setdefault(name, []).extend(values)
    gm = root.get("GM", [""])[0].strip()
    if gm != "40":
        raise SgfError("error.sgf.other_game", gm=f"GM[{_short(gm)}]") if gm else SgfError("error.sgf.no_game")
    width, height = _size(root.get("SZ", ["39:32"])[0])
    size_key = f"{width}x{height}"
    setup_points: tuple[list[tuple[int, int]], list[tuple[int, int]]] = ([], [])
    for player, prop in ((0, "AB"), (1, "AW")):
        for value in root.get(prop, []):
            setup_points[player].append(_point(value, width, height, prop))
    if "AE" in root:
        raise SgfError("error.sgf.clearing")
    moves: list[tuple[int, str, int]] = []
    times: dict[str, list[list[Any]]] = {prop: [] for prop in TIME_LEFT}
    said: dict[int, list[str]] = {}   # ply -> the C[] of the nodes after that move
    for number, node in enumerate(nodes):
        for name, values in node:
            if name in ("AB", "AW", "AE") and number > 0:
                raise SgfError("error.sgf.late_setup", node=number + 1, name=name)
            if name in COLOURS:
                for value in values:
                    moves.append((COLOURS.index(name), value, number + 1))
        for name, values in node:
            if name == "C" and number > 0 and values[0].strip():
                said.setdefault(len(moves), []).append(values[0].strip())
        for name, values in node:
            if name in TIME_LEFT and TIME_VALUE.fullmatch(values[0].strip()):
                times[name].append([len(moves), values[0].strip()])
    first = 0
    if "PL" in root:
        first = 1 if root["PL"][0].strip().upper() in ("W", "WHITE") else 0
    elif moves:
        first = moves[0][0]
    try:
        game = _start_game(size_key, width, height, setup_points, first)
    except PositionError as error:
        raise SgfError("error.sgf.bad_start", reason=error) from None
    resigned = None
    for count, (player, value, node) in enumerate(moves, start=1):
        where = Message("error.sgf.where_move", {"number": count, "move": f"{COLOURS[player]}[{_short(value)}]",
                                                  "node": node})
        if value.strip().lower() == "resign":
            resigned = player
            break
        if game.is_over():
            raise SgfError("error.sgf.after_end", where=where)
        if player != game.to_move:
            raise SgfError("error.sgf.wrong_turn", where=where, colour=COLOURS[game.to_move])
        if value.split(".", 1)[0] == "":
            move = LAND
        else:
            x, y = _point(value, width, height, where)
            move = game.cell(x, y)
        if not game.is_legal(move):
            raise SgfError("error.sgf.illegal", where=where, reason=game.illegal_reason(move))
        game.push_unchecked(move)
    meta: dict[str, Any] = {}
    for key, prop in (("blue", "PB"), ("red", "PW"), ("date", "DT"), ("event", "EV"),
                      ("comment", "C"), ("result", "RE")):
        if prop in root:
            meta[key] = root[prop][0]
    if resigned is not None:
        meta["resigned"] = resigned
    if any(0 < ply <= game.ply for ply in said):
        comments = [meta.get("comment", "")] + [""] * game.ply
        for ply, texts in said.items():
            if ply <= game.ply:
                comments[ply] = "\n".join(texts) if ply else "\n".join([comments[0], *texts]).strip()
        meta["comments"] = comments
    outcome = _stated_outcome(game, resigned, meta.get("result", ""))
    if outcome is not None:
        meta["outcome"] = outcome
    kept = kept_sgf_meta({**{prop: root[prop][0] for prop in KEPT_TEXTS if prop in root},
                      **{prop: pairs for prop, pairs in times.items() if pairs}})
    if kept:
        meta["sgf"] = kept
    notes = file_notes(root)
    if notes:
        meta["notes"] = notes
    return game, meta


def file_notes(root: dict[str, list[str]]) -> list[RulesNote]:
    """Where the root's KM and RU say the game had other rules than Tessera's."""
    komi = root.get("KM", [None])[0]
    rules = root.get("RU", [None])[0]
    return rules_notes(komi, rules)


_STATED_REASONS = {"R": "resign", "RESIGN": "resign", "T": "time", "TIME": "time"}


def _stated_outcome(game: Dots, resigned: int | None, re_text: str) -> Outcome | None:
    """The ending a file states but its moves do not reach (resign, time, draw)."""
    if game.outcome() is not None:
        return None
    if resigned is not None:
        return Outcome(1 - resigned, "resign")
    text = re_text.strip().upper()
    if text in ("0", "DRAW"):
        return Outcome(None, "draw_agreed")
    winner, plus, how = text.partition("+")
    if plus and winner in ("B", "W") and how in _STATED_REASONS:
        return Outcome(0 if winner == "B" else 1, _STATED_REASONS[how])
    return None


def _start_game(size_key: str, width: int, height: int,
                points: tuple[list[tuple[int, int]], list[tuple[int, int]]], first: int) -> Dots:
    """A standard start when the setup is one, else a position string."""
    wanted = (sorted(points[0]), sorted(points[1]))
    starts = ["cross", "empty"]
    if min(width, height) >= FOUR_CROSSES_MIN_SIDE:
        starts.insert(1, "four_crosses")
    if first == 0:
        for start in starts:
            blue, red = cross_points(width, height, start)
            if (sorted(blue), sorted(red)) == wanted:
                return Dots({"size": size_key, "start": start})
    grid = [["."] * width for _ in range(height)]
    for player, char in ((0, "B"), (1, "R")):
        for x, y in points[player]:
            if grid[height - y][x - 1] != ".":
                raise SgfError("error.sgf.setup_twice", point=f"{x}-{y}")
            grid[height - y][x - 1] = char
    rows = "/".join("".join(row) for row in grid)
    return Dots({"size": size_key, "start": "empty"}, setup=f"{rows} {'br'[first]} - -")
