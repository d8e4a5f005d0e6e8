"""Errors carry a catalog key and values, and every one is worded in both languages.

The source is scanned for every place that makes a keyed error or a
``Message`` (``raise RecordError("error.record.bad_move", number=...)``):
each key must be in the catalog, in English and Russian, and get a value
for each of its placeholders.  Then real errors from the engines, readers
and saves are raised and worded in Russian: nothing English is left in them.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

import pytest

from tessera import i18n
from tessera.core import registry  # noqa: F401  (adds the games' catalog parts)
from tessera.core.game import GameError, IllegalMoveError, NotationError, PositionError
from tessera.core.record import Record, RecordError
from tessera.core.session import Seat, Session, SessionError
from tessera.games.dots import LAND, Dots
from tessera.games.dots.sgf import SgfError, from_sgf
from tessera.games.quadrature import Quadrature
from tessera.i18n import MessageError, say
from tessera.ui.saves.saved_games import SaveProblem, summarize

PACKAGE = Path(i18n.__file__).resolve().parents[1]
KEYED = {"Message", "MessageError", "GameError", "NotationError", "IllegalMoveError", "PositionError",
         "RecordError", "UnknownGameError", "SgfError", "SessionError", "ClockError", "SaveProblem", "CliError",
         "BotSpecError"}
"""Names of ``Message`` and of every error class derived from ``MessageError``."""
DYNAMIC_KEYS = {
    "error.clock.total_not_positive": set(), "error.clock.per_move_not_positive": set(),
    "value.list": set(), "value.dict": set(), "value.tuple": set(),
    "value.part.width": set(), "value.part.height": set(),
}
"""Keys made from a template (``f"error.clock.{name}_not_positive"``), with their values."""


def keyed_calls() -> list[tuple[str, int, str | None, set[str] | None]]:
    """(file, line, key or None when not a plain string, value names or None when unknown)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name not in KEYED or not node.args:
                continue
            first = node.args[0]
            key = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None
            names: set[str] | None = {kw.arg for kw in node.keywords if kw.arg is not None}
            if any(kw.arg is None for kw in node.keywords):
                names = None  # **params: the values come from elsewhere
            if len(node.args) > 1:
                values = node.args[1]
                if isinstance(values, ast.Dict) and all(isinstance(k, ast.Constant) for k in values.keys):
                    names = (names or set()) | {k.value for k in values.keys}
                else:
                    names = None
            rel = str(path.relative_to(PACKAGE))
            found.append((rel, node.lineno, key, names))
    return found


SOURCE_SCAN = pytest.mark.skipif(
    sys.platform == "emscripten", reason="a scan of the source text, the same under any Python: CPython runs it")


@SOURCE_SCAN
def test_every_keyed_error_and_message_names_a_catalog_key_with_its_values() -> None:
    """No raise site passes English text: its first argument is a key both languages have,
    and every placeholder of that key gets a value."""
    catalog = i18n.load_catalog()
    problems = []
    calls = keyed_calls()
    assert len(calls) > 150  # the scan sees the engines, readers, sessions, saves and the command line
    for rel, line, key, names in calls:
        if key is None:
            continue  # a variable (``reason.key``) or a template, checked below
        texts = {lang: [text for k, text in catalog[lang].items() if k == key or i18n.plural_base(k) == key]
                 for lang in i18n.LANGUAGES}
        if not texts["en"] or not texts["ru"]:
            problems.append(f"{rel}:{line}: {key!r} is not in both catalogs")
            continue
        wanted = set().union(*(i18n.placeholders(text) for text in texts["en"] + texts["ru"]))
        if names is not None and not wanted <= names:
            problems.append(f"{rel}:{line}: {key} needs {sorted(wanted - names)}")
    assert problems == []


@SOURCE_SCAN
def test_no_raise_site_writes_its_message_as_a_template() -> None:
    """A key is a plain string (values are passed apart), except the few templates listed here."""
    templates = [(rel, line) for rel, line, key, names in keyed_calls() if key is None]
    source_lines = {rel: (PACKAGE / rel).read_text(encoding="utf-8").splitlines() for rel, _ in templates}
    for rel, line in templates:
        text = source_lines[rel][line - 1]
        assert ('f"' not in text or "error.clock." in text or "value." in text or "seat." in text
                or "game." in text), f"{rel}:{line}: {text.strip()}"
    for key in DYNAMIC_KEYS:
        assert i18n.has(key), key


def russian(error: BaseException) -> str:
    assert isinstance(error, MessageError), error
    return say(error, "ru")


ENGLISH_WORDS = re.compile(r"\b(the|is|not|must|be|of|and|or|has|have|cannot|valid|move|point|record|game|"
                           r"bad|illegal|expected|like|write|field|position|saved|limit|off|too|large)\b")


def english_left(text: str) -> list[str]:
    """English words in a text, leaving out quoted input ('...') and notation."""
    return ENGLISH_WORDS.findall(re.sub(r"'[^']*'", "", text))


def raised(action) -> BaseException:
    try:
        action()
    except Exception as error:  # the test wants whatever is raised
        return error
    raise AssertionError("nothing was raised")


BROKEN_RECORDS = [
    "{not json",
    "[" * 100 + "]" * 100,
    json.dumps({"format": "tessera/1", "game": "quadrature", "moves": ["e9-e5"]}),
    json.dumps({"format": "tessera/1", "game": "quadrature", "moves": ["e9-e8", "zz"]}),
    json.dumps({"format": "tessera/1", "game": "quadrature", "moves": ["e9-e8", "e8-e7", "e7-e6"]}),
    json.dumps({"format": "tessera/1", "game": "chess", "moves": []}),
    json.dumps({"format": "tessera/2", "game": "dots"}),
    json.dumps({"format": "tessera/1", "game": "dots", "options": {"size": "999x5"}}),
    json.dumps({"format": "tessera/1", "game": "dots", "options": {"size": "20x20"}, "moves": ["21-1"]}),
    json.dumps({"format": "tessera/1", "game": "dots", "options": {"start": "four_crosses", "size": "10x10"}}),
    json.dumps({"format": "tessera/1", "game": "dots", "result": {"winner": 0, "reason": "landing"}}),
    json.dumps({"format": "tessera/1", "game": "quadrature", "seed": -1}),
    json.dumps({"format": "tessera/1", "game": "quadrature", "setup": "." * 20 + " w 0 0 0"}),
]
BROKEN_SGF = [
    "no brackets at all",
    "(;GM[1]SZ[19])",
    "(;GM[40]SZ[99])",
    "(;GM[40]SZ[20];B[aa];B[bb])",
    "(;GM[40]SZ[20];B[aa];W[aa])",
    "(;GM[40]SZ[20];B[zz])",
    "(;GM[40]SZ[20];B[aa]",
    "(;GM[40]SZ[20]AB[aa]AW[aa])",
]


@pytest.mark.parametrize("text", BROKEN_RECORDS)
def test_record_errors_are_worded_in_russian(text: str) -> None:
    """What the import dialog shows for a broken record: Russian, with the bad input quoted."""
    def replay() -> None:
        record = Record.loads(text)
        record.check_result(record.replay())
    error = raised(replay)
    assert isinstance(error, RecordError)
    words = russian(error)
    assert words and english_left(words) == [], words
    assert "not valid JSON" not in words and "Expecting" not in words
    assert str(error) == i18n.t(error.key, lang="en", **error.params)  # str() stays the English line


@pytest.mark.parametrize("text", BROKEN_SGF)
def test_sgf_errors_are_worded_in_russian(text: str) -> None:
    error = raised(lambda: from_sgf(text))
    assert isinstance(error, SgfError)
    words = russian(error)
    assert english_left(words) == [], words


def test_nested_errors_nest_their_keys() -> None:
    """"move 1 is bad: <why>" keeps why as a keyed error, so each part is worded in the language."""
    error = raised(lambda: Record.loads(BROKEN_RECORDS[2]).replay())
    assert error.key == "error.record.bad_move" and error.move_number == 1
    reason = error.params["reason"]
    assert isinstance(reason, IllegalMoveError) and reason.key == "error.move.illegal"
    assert reason.params["reason"].key == "illegal.step"
    assert str(error) == ("move 1 ('e9-e5') is bad: e9-e5 is illegal: "
                          "a checker moves one point forward, diagonally forward or sideways")
    assert russian(error) == ("ход 1 ('e9-e5') неверен: ход e9-e5 невозможен: "
                              "шашка ходит на один пункт вперёд, по диагонали вперёд или в сторону")


def test_engine_reasons_are_keys() -> None:
    """Illegal moves and bad positions of both games, in Russian."""
    game = Quadrature()
    reasons = [game.illegal_reason(game.parse_move(text)) for text in ("e5-e4", "e3-e4", "e9-e7", "e9-e9")]
    assert [r.key for r in reasons] == ["illegal.no_checker", "illegal.not_yours", "illegal.step", "illegal.step"]
    assert say(reasons[0], "ru") == "на e5 нет шашки"
    dots = Dots({"size": "20x20"})
    dots.push_text("3-3")
    assert say(dots.illegal_reason(dots.cell(3, 3)), "ru") == "в этом пункте уже стоит точка (п. 2.9)"
    for action in (lambda: Quadrature(setup="bad"), lambda: Dots(setup="bad"),
                   lambda: Quadrature({"first": "green"}), lambda: Dots({"size": "4x4"}),
                   lambda: Dots({"colour": "red"})):
        error = raised(action)
        assert isinstance(error, PositionError)
        assert english_left(russian(error)) == [], russian(error)
    plate = raised(lambda: Quadrature(setup="3www5/11/11/11/11/11/11/11/11/b2bbbbbbbb/bbbbbbbbbbb b 0 0 0"))
    assert isinstance(plate, PositionError) and english_left(russian(plate)) == [], russian(plate)


def test_session_and_save_errors_are_keys() -> None:
    session = Session(Quadrature(), [Seat("human"), Seat("bot", "easy")], "s")
    error = raised(session.undo)
    assert isinstance(error, SessionError) and russian(error) == "нет вашего хода, который можно отменить"
    session.play(session.game.parse_move("e9-e8"))
    error = raised(lambda: session.play(session.game.parse_move("e3-e4")))
    assert isinstance(error, SessionError) and russian(error) == "сейчас не ваш ход"
    for raw in ("{not json", "[]", json.dumps({"format": "x"}), 5):
        problem = raised(lambda: summarize(raw, "id"))
        assert isinstance(problem, SaveProblem)
        assert english_left(russian(problem)) == [], russian(problem)
    bad_save = raised(lambda: Session.from_save({"format": "tessera-session/1", "seats": "x"}))
    assert isinstance(bad_save, SessionError) and english_left(russian(bad_save)) == []


def test_values_that_are_words_are_worded_too() -> None:
    """A value that is a word (a side, a type of value) is a key itself."""
    error = raised(lambda: Record.loads(json.dumps({"format": "tessera/1", "game": ["dots"]})))
    assert isinstance(error, RecordError)
    error = raised(lambda: Dots({"size": ["39x32"]}))
    assert "список" in russian(error) and "a list" in str(error)
    assert "ШИРИНАxВЫСОТА" in russian(error) and "WIDTHxHEIGHT" in str(error)


# ----- typed moves --------------------------------------------------------------------

@pytest.mark.parametrize("typed", ["e9-e8", "e9e8", "E9-E8", "e9 e8", " e9  -  e8 ", "e9–e8", "E9—E8", "e9−e8",
                                   "e9\u2010e8"])
def test_quadrature_reads_moves_as_people_type_them(typed: str) -> None:
    game = Quadrature()
    assert game.move_text(game.parse_typed(typed)) == "e9-e8"


@pytest.mark.parametrize("typed", ["e10e9", "E10 E9", "e10-e9"])
def test_quadrature_two_digit_rows(typed: str) -> None:
    assert Quadrature().move_text(Quadrature().parse_typed(typed)) == "e10-e9"


@pytest.mark.parametrize("typed", ["15 15", "15,15", "15-15", "15 - 15", "15, 15", "(15, 15)", "15x15", "15–15",
                                   " 15   15 "])
def test_dots_reads_points_as_people_type_them(typed: str) -> None:
    game = Dots()
    assert game.move_text(game.parse_typed(typed)) == "15-15"


def test_dots_land_in_any_case() -> None:
    game = Dots()
    assert game.move_text(game.parse_typed(" LAND ")) == "land"


@pytest.mark.parametrize("typed", ["", "e9", "e9-e8-e7", "z9-e8", "e12-e11", "e9 e8 e7", "hello", "e9--e8"])
def test_quadrature_wrong_entries_say_what_is_expected(typed: str) -> None:
    error = raised(lambda: Quadrature().parse_typed(typed))
    assert isinstance(error, NotationError)
    english = str(error)
    assert "from-to, like e9-e8" in english or "(a1 to k11)" in english, english
    assert english_left(russian(error)) == [], russian(error)


@pytest.mark.parametrize("size, example", [("39x32", "20-15"), ("20x20", "10-9"), ("5x5", "3-2"), ("52x52", "26-25")])
def test_dots_example_fits_the_field(size: str, example: str) -> None:
    """The move box's example is a free point of this field, whatever its size."""
    game = Dots({"size": size})
    assert game.move_example() == example
    assert game.is_legal(game.parse_move(example))
    error = raised(lambda: game.parse_typed("one two"))
    assert f"like {example}, or land" in str(error)
    assert f"например {example}, или «заземление» (land)" in russian(error)
    assert game.parse_typed("Заземление") == game.parse_typed("land") == LAND


def test_dots_point_off_the_field_says_the_ranges() -> None:
    error = raised(lambda: Dots({"size": "5x5"}).parse_typed("6 1"))
    assert isinstance(error, NotationError)
    assert str(error) == "6-1 is off the 5x5 field (x is 1 to 5, y is 1 to 5)"


def test_strict_notation_stays_strict() -> None:
    """Records keep the one notation: parse_move refuses what parse_typed accepts."""
    for game, typed in ((Quadrature(), "e9e8"), (Quadrature(), "E9 E8"), (Dots(), "15 15"), (Dots(), "15,15")):
        with pytest.raises(NotationError):
            game.parse_move(typed)
    with pytest.raises(RecordError):
        Record(game="quadrature", moves=["e9e8"]).replay()


def test_session_play_text_is_lenient() -> None:
    session = Session(Dots({"size": "20x20"}), [Seat("human"), Seat("human")], "s")
    assert session.play_text("3, 4").text == "3-4"
    with pytest.raises(GameError):
        session.play_text("3, 4")
