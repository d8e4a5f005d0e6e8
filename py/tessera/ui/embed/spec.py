"""What an embedded board is asked to show, checked before anything is drawn.

A ``<tessera-board>`` element (``assets/js/embed.js``) hands Python its
attributes and its record as plain strings; this module turns them into an
``EmbedPlan``: the record replayed once (so every move is known to be good
before a step or a puzzle needs it), the ply the board opens at, the
per-move captions and the bot level.  Anything wrong (an unknown game or
mode, a ply past the last move, a corrupt record, an attribute far too
long) is an ``EmbedError`` or another keyed error, which the element words
in its language; nothing here raises anything else for bad input.

Pure Python (no ``js``): the spec rules are tested in CPython, and the build
uses the same plan to draw each board's static picture (``pictures``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ...core import registry
from ...core.draw import DrawList, to_svg
from ...core.game import Game, Move, Outcome, Player, excerpt
from ...core.record import MAX_RECORD_BYTES, Record, RecordError
from ...core.record_formats import format_for_text
from ...core.rules_content import Diagram, RulesContent
from ...core.view import ViewState
from ...i18n import LANGUAGES, Message, MessageError, has, say, t

MODES = ("view", "step", "play", "puzzle")
THEMES = ("auto", "light", "dark")
MAX_ATTRIBUTE_CHARS = 64
"""Every attribute but the record and ``src`` is a word or a number: longer is a mistake."""
MAX_SRC_CHARS = 2000
OFF = ("false", "off", "no", "0")
"""Values that switch a boolean attribute off (its mere presence switches it on)."""
KEPT_META = ("comments", "comment", "blue", "red", "event", "date")
"""What a record read from another format keeps besides its moves."""


class EmbedError(MessageError, ValueError):
    """An embedded board that cannot be shown as asked: a catalog key and its values."""


@dataclass(frozen=True)
class EmbedSpec:
    """The element's attributes, checked (see ``parse_spec``)."""

    game: str | None = None
    mode: str = "view"
    ply: int | None = None
    controls: bool = False
    coords: bool = False
    theme: str = "auto"
    lang: str = "en"
    level: str | None = None
    src: str | None = None
    example: str | None = None
    """A worked example of the game's rules page to show instead of a record."""
    flip: bool | None = None
    """Seen from the second seat's side; None: the usual side (an example's: its page's)."""


def language(value: Any) -> str:
    """A page's or attribute's language tag (``ru-RU``, ``en``) to a catalog
    language; anything else is English, as the catalog falls back to it."""
    text = value.strip().lower() if isinstance(value, str) else ""
    for lang in LANGUAGES:
        if text == lang or text.startswith(lang + "-"):
            return lang
    return LANGUAGES[0]


def _short(attrs: Mapping[str, Any], name: str) -> str | None:
    """An attribute's text, stripped; None when absent."""
    value = attrs.get(name)
    if value is None:
        return None
    text = str(value).strip()
    if len(text) > MAX_ATTRIBUTE_CHARS:
        raise EmbedError("embed.error.too_long", name=name, count=MAX_ATTRIBUTE_CHARS)
    return text


def _flag(attrs: Mapping[str, Any], name: str) -> bool:
    value = _short(attrs, name)
    return value is not None and value.lower() not in OFF


def flag_value(value: Any) -> bool | None:
    """A boolean attribute's value as ``embed.js`` passes it while the board
    lives: None when absent, else on unless it says off."""
    if value is None:
        return None
    return str(value).strip().lower() not in OFF


def parse_spec(attrs: Mapping[str, Any]) -> EmbedSpec:
    """Check the attributes (strings, None when absent; ``lang`` already
    resolved by the element from the page when the board has none)."""
    game = _short(attrs, "game") or None
    example = _short(attrs, "example") or None
    mode = (_short(attrs, "mode") or ("step" if example else "view")).lower()
    if mode not in MODES:
        raise EmbedError("embed.error.mode", value=excerpt(mode), known=", ".join(MODES))
    ply_text = _short(attrs, "ply")
    ply = None
    if ply_text:
        if not (ply_text.isascii() and ply_text.isdigit() and len(ply_text) <= 6):
            raise EmbedError("embed.error.ply_form", value=excerpt(ply_text))
        ply = int(ply_text)
    theme = (_short(attrs, "theme") or "auto").lower()
    if theme not in THEMES:
        raise EmbedError("embed.error.theme", value=excerpt(theme), known=", ".join(THEMES))
    src = attrs.get("src")
    if src is not None:
        src = str(src).strip()
        if len(src) > MAX_SRC_CHARS:
            raise EmbedError("embed.error.too_long", name="src", count=MAX_SRC_CHARS)
    return EmbedSpec(game=game, mode=mode, ply=ply, controls=_flag(attrs, "controls"),
                     coords=_flag(attrs, "coords"), theme=theme, lang=language(_short(attrs, "lang")),
                     level=_short(attrs, "level") or None, src=src or None,
                     example=example, flip=flag_value(_short(attrs, "flip")))


def read_record(text: str, game: str | None) -> Record:
    """The board's record: tessera/1 JSON, a game's own format (Dots' SGF),
    or, when there is none, the start of ``game`` with no moves."""
    text = text.strip() if isinstance(text, str) else ""
    if game is not None:
        registry.game_class(game)   # unknown or unavailable: its own error, before the record's
    if not text:
        if game is None:
            raise EmbedError("embed.error.no_game")
        record = Record(game)
    elif len(text) > MAX_RECORD_BYTES:
        raise RecordError("error.record.too_large", count=len(text), limit=MAX_RECORD_BYTES)
    else:
        fmt = format_for_text(text)
        if fmt is None:
            record = Record.loads(text)
        else:
            played, meta = fmt.read(text)
            record = Record.from_game(played, meta.get("outcome"),
                                      {key: meta[key] for key in KEPT_META if key in meta})
    if game is not None and record.game != game:
        raise EmbedError("embed.error.other_game", game=title_message(game), record=title_message(record.game))
    return record


@dataclass
class EmbedPlan:
    """A checked spec and its replayed record: everything a board needs."""

    spec: EmbedSpec
    record: Record
    moves: list[Move]
    """The record's moves, parsed (``moves[k]`` is played at ply ``k``)."""
    texts: list[str]
    """Their notation, as the game writes them."""
    start: int
    """The ply the board opens at."""
    comments: list[str] = field(default_factory=list)

    @property
    def game_id(self) -> str:
        return self.record.game

    @property
    def flipped(self) -> bool:
        """Drawn from the second seat's side (the ``flip`` attribute)."""
        return bool(self.spec.flip)

    def highlights(self, ply: int, game: Game) -> dict[str, Any]:
        """What the static picture marks besides the last move: nothing."""
        return {}

    @property
    def count(self) -> int:
        return len(self.moves)

    def game_at(self, ply: int) -> Game:
        """A new game after the record's first ``ply`` moves (already checked)."""
        game = self.record.new_game()
        for move in self.moves[:ply]:
            game.push_unchecked(move)
        return game

    def outcome(self, game: Game, on_record: bool = True) -> Outcome | None:
        """How the game shown has ended: the rules' own, or, for a position of
        the record (``on_record``), its stated ending once its last move is shown."""
        return self.record.outcome(game, game.ply) if on_record else game.outcome()


def make_plan(spec: EmbedSpec, text: str) -> EmbedPlan | ExamplePlan:
    """Read and replay the record, and check the spec against it (a board
    showing a worked example has no record: ``make_example_plan``)."""
    if spec.example is not None:
        return make_example_plan(spec, text)
    record = read_record(text, spec.game)
    registry.view(record.game)   # a game without a board view has nothing to embed
    moves: list[Move] = []
    texts: list[str] = []

    def keep(game: Game, move: Move, written: str, mover: Player) -> None:
        moves.append(move)
        texts.append(written)

    game = record.replay(on_move=keep)
    record.outcome(game)   # a stated result the moves contradict is a bad record too
    count = len(moves)
    if spec.ply is not None and spec.ply > count:
        raise EmbedError("embed.error.ply_range", ply=spec.ply, count=count)
    default = {"view": count, "play": count, "step": 0, "puzzle": 0}[spec.mode]
    start = default if spec.ply is None else spec.ply
    if spec.mode == "puzzle" and start >= count:
        raise EmbedError("embed.error.puzzle_end", ply=start, count=count)
    if spec.mode == "play" and spec.level is not None:
        check_level(record.game, spec.level)
    return EmbedPlan(spec, record, moves, texts, start, record.comments())


@dataclass
class ExamplePlan:
    """A checked spec showing worked example ``diagram`` of a game's rules
    page: its steps are the diagram's (moves, and an illegal try if shown),
    its words per step the diagram's status.  Our own rules pages are made
    of these boards."""

    spec: EmbedSpec
    game_id: str
    diagram: Diagram
    prefix: str
    """Catalog prefix of the rules page's words (its Back, Next, Play...)."""
    start: int
    flipped: bool

    @property
    def count(self) -> int:
        return self.diagram.steps

    def game_at(self, step: int) -> Game:
        return self.diagram.game_at(step)

    def highlights(self, step: int, game: Game) -> dict[str, Any]:
        return dict(self.diagram.highlights(step, game))

    def caption(self, lang: str) -> str:
        return t(self.diagram.caption_key, lang)


def rules_content(game_id: str) -> RulesContent | None:
    """The game's rules page content, or None when it has none."""
    content = registry.part_attribute(game_id, "rules_page", "CONTENT")
    return content if isinstance(content, RulesContent) else None


def make_example_plan(spec: EmbedSpec, text: str) -> ExamplePlan:
    """Find ``spec.example`` among the worked examples of ``spec.game``."""
    if spec.game is None:
        raise EmbedError("embed.error.example_game")
    registry.game_class(spec.game)   # unknown or unavailable: its own error
    if text.strip():
        raise EmbedError("embed.error.example_record")
    if spec.mode not in ("view", "step"):
        raise EmbedError("embed.error.example_mode", value=spec.mode)
    content = rules_content(spec.game)
    diagrams = content.diagrams() if content is not None else []
    if not diagrams:
        raise EmbedError("embed.error.no_examples", game=title_message(spec.game))
    diagram = next((diagram for diagram in diagrams if diagram.key == spec.example), None)
    if diagram is None:
        raise EmbedError("embed.error.example", value=excerpt(spec.example or ""),
                         known=", ".join(diagram.key for diagram in diagrams))
    if spec.ply is not None and spec.ply > diagram.steps:
        raise EmbedError("embed.error.ply_range", ply=spec.ply, count=diagram.steps)
    assert content is not None
    flipped = content.flipped if spec.flip is None else spec.flip
    return ExamplePlan(spec, spec.game, diagram, content.prefix, spec.ply or 0, flipped)


def check_level(game_id: str, key: str) -> None:
    """A bot level of the game (``easy``...), or an error naming those it has."""
    from ...bots.registry import levels_for

    levels = levels_for(game_id)
    if not levels:
        raise EmbedError("embed.error.no_levels", game=title_message(game_id))
    if key not in {level.key for level in levels}:
        raise EmbedError("embed.error.level", value=excerpt(key), known=", ".join(level.key for level in levels))


def plan_from_attributes(attrs: Mapping[str, Any], text: str) -> EmbedPlan | ExamplePlan:
    return make_plan(parse_spec(attrs), text)


# ----- words ---------------------------------------------------------------------

def title_message(game_id: str) -> Message | str:
    """A game's title as an error's value (worded in the reader's language);
    a name that is no game's is quoted as written."""
    key = f"game.{game_id}.title"
    return Message(key) if has(key) else excerpt(game_id)


def game_title(game_id: str, lang: str) -> str:
    key = f"game.{game_id}.title"
    return t(key, lang) if has(key) else game_id


def outcome_words(game: Game, outcome: Outcome, lang: str) -> str:
    """"Blue wins. The field is full, so the score decides." in ``lang``."""
    names = game.seat_names
    if game.num_players == 1:
        title = t("result.solo", lang, count=game.scores()[0])
    elif outcome.winner is None:
        title = t("result.draw", lang)
    else:
        title = t(f"result.win.{names[outcome.winner]}", lang)
    params: dict[str, Any] = {}
    if outcome.winner is not None and len(names) == 2:
        loser = names[1 - outcome.winner]
        params = {"winner": t(f"seat.{names[outcome.winner]}", lang), "loser": t(f"seat.{loser}", lang),
                  "loser_of": t(f"seat.{loser}.of", lang)}
    solo = f"end.solo.{outcome.reason}"
    reason_key = solo if game.num_players == 1 and has(solo) else f"end.{outcome.reason}"
    reason = t(reason_key, lang, **params) if has(reason_key) else ""
    return f"{title}. {reason}".strip() if reason else title


def turn_words(game: Game, lang: str) -> str:
    """Whose move it is (``Blue to move``)."""
    name = game.seat_names[game.to_move] if 0 <= game.to_move < len(game.seat_names) else ""
    key = f"turn.{name}"
    return t(key, lang) if has(key) else ""


def error_text(error: BaseException, lang: str) -> str:
    """An error as the element shows it: keyed errors in ``lang``, anything
    else (a slip of ours) by its type only."""
    if isinstance(getattr(error, "key", None), str) and isinstance(getattr(error, "params", None), dict):
        return t("embed.error", lang, reason=say(error, lang))
    return t("embed.error", lang, reason=t("error.unexpected", lang, kind=type(error).__name__))


def position_label(plan: EmbedPlan, ply: int, lang: str) -> str:
    """The board's accessible name at ``ply``: the game, and which move it shows."""
    title = game_title(plan.game_id, lang)
    if ply == 0:
        return t("embed.label.start", lang, game=title)
    return t("embed.label.after", lang, game=title, number=ply, move=plan.texts[ply - 1])


# ----- puzzles -------------------------------------------------------------------

class Puzzle:
    """Find the record's moves from ``start``: the side to move there is the
    reader's; each of its moves must be the record's, and the record's
    replies are played for the other side, up to the last move."""

    def __init__(self, plan: EmbedPlan) -> None:
        self.plan = plan
        self.start = plan.start
        self.solver = plan.game_at(plan.start).to_move
        self.mistakes = 0

    def expected(self, game: Game) -> Move | None:
        """The record's move at the game's ply, or None past the last one."""
        return self.plan.moves[game.ply] if game.ply < self.plan.count else None

    def is_right(self, game: Game, move: Move) -> bool:
        """Whether ``move`` is the record's move here (the caller counts mistakes)."""
        return move == self.expected(game)

    def reply(self, game: Game) -> Move | None:
        """The record's next move when it is the other side's, else None."""
        move = self.expected(game)
        return move if move is not None and game.to_move != self.solver else None

    def solved(self, game: Game) -> bool:
        return game.ply >= self.plan.count

    def found(self, game: Game) -> int:
        """How many of the reader's moves are found so far."""
        replay = self.plan.game_at(self.start)
        count = 0
        for move in self.plan.moves[self.start:game.ply]:
            count += replay.to_move == self.solver
            replay.push_unchecked(move)
        return count


# ----- the static picture ---------------------------------------------------------

PICTURE_WIDTH = 480.0
"""Logical width of a static picture; it scales with its box (a viewBox)."""


def picture_svg(plan: EmbedPlan | ExamplePlan, theme: str, lang: str, width: float = PICTURE_WIDTH,
                game: Game | None = None) -> str:
    """The position the board opens at, drawn by the game's own view (the
    canvas's drawing code) as SVG: what a page shows before Python runs.
    ``game``: that position already replayed (a live board's), else replayed here."""
    view = registry.view(plan.game_id)
    game = plan.game_at(plan.start) if game is None else game
    height = float(int(width / view.aspect_at(game, width)))
    drawing = DrawList(width, height)
    highlights = plan.highlights(plan.start, game)
    state = ViewState(interactive=False, theme=theme, coordinates=plan.spec.coords, flipped=plan.flipped,
                      highlights=highlights)
    if game.move_stack and plan.spec.mode in ("view", "step") and highlights.get("show_last", True):
        state.last_move = game.move_stack[-1]
    view.draw(game, state, drawing)
    if isinstance(plan, ExamplePlan):
        title = t(f"{plan.prefix}.diagram_label", lang, caption=plan.caption(lang))
    else:
        title = position_label(plan, plan.start, lang)
    return to_svg(drawing, title=title)
