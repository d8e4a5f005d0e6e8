"""Dots SGF (GM[40]): export, import of what KataGoDots and kropki/zagram
write, and clear errors for broken files."""

from __future__ import annotations

import pytest

from tessera.core.game import GameError, Outcome
from tessera.games.dots import BLUE, LAND, RED, Dots
from tessera.games.dots.sgf import MAX_SGF_BYTES, SgfError, from_sgf, to_sgf


def test_export_writes_gm40_size_and_the_start_cross_as_setup():
    """SZ is width:height, the cross is AB/AW, rows count from the top, B is blue."""
    game = Dots()
    game.push_text("1-32")
    game.push_text("39-1")
    text = to_sgf(game, {"blue": "Ann", "red": "Bob", "date": "2025-01-02", "comment": "a [test]"})
    assert text.startswith("(;FF[4]GM[40]")
    assert "SZ[39:32]" in text and "PB[Ann]" in text and "PW[Bob]" in text and "DT[2025-01-02]" in text
    assert "C[a [test\\]]" in text
    assert "AB[uq][tp]" in text or ("AB[" in text and "[tp]" in text and "[uq]" in text)
    assert "[tq]" in text and "[up]" in text
    assert ";B[aa]" in text and ";W[MF]" in text
    square = to_sgf(Dots({"size": "20x20"}))
    assert "SZ[20]" in square


def test_round_trip_keeps_moves_landing_and_names():
    """Export then import gives the same position, moves and meta data."""
    game = Dots({"size": "20x20"})
    for text in ("5-5", "6-6", "4-6", "7-7", "5-7", "8-8", "3-3"):
        game.push_text(text)
    game.push(LAND)
    text = to_sgf(game, {"blue": "A", "red": "B"})
    assert ";W[]" in text or ";B[]" in text
    back, meta = from_sgf(text)
    assert back.position() == game.position()
    assert back.move_stack == game.move_stack
    assert meta["blue"] == "A" and meta["red"] == "B"
    assert back.options == game.options


def test_result_is_written_from_the_outcome():
    """RE is B+n / W+n from the score, B+R on resignation, 0 for a draw."""
    game = Dots({"size": "20x20", "start": "empty"})
    game.push(LAND)
    assert "RE[0]" in to_sgf(game)
    assert "RE[W+R]" in to_sgf(Dots(), {"result": Outcome(RED, "resign")})


def test_reads_katagodots_style_records():
    """Root properties KataGoDots writes (AP, KM, RU, HA) do not change play; B[] is landing."""
    text = ("(;FF[4]AP[katago]GM[40]SZ[20]PB[bot0]PW[bot1]KM[0]RU[dotsCaptureEmptyBase0sui1]"
            "RE[B+0]AB[jj][kk]AW[kj][jk];B[aa];W[bb];B[])")
    game, meta = from_sgf(text)
    assert game.options["size"] == "20x20"
    assert game.options["start"] == "cross"
    assert game.move_text(game.move_stack[0]) == "1-20"
    assert game.move_stack[-1] == LAND and game.outcome().reason == "landing"
    # blue landed: its two cross dots are not grounded and go to red; 1-20 is on the edge
    assert game.point_state(10, 11) == (BLUE, RED) and game.point_state(11, 10) == (BLUE, RED)
    assert game.point_state(1, 20) == (BLUE, -1)
    assert game.point_state(11, 11) == (RED, -1) and game.point_state(10, 10) == (RED, -1)
    assert game.scores() == (0, 2)
    assert meta["result"] == "B+0"
    assert meta["sgf"] == {"KM": "0", "RU": "dotsCaptureEmptyBase0sui1"}
    assert "notes" not in meta, "komi 0 and KataGoDots' default rules are Tessera's"


def test_reads_kropki_chain_suffixes_and_other_setups():
    """Move values may carry '.chain' after the point; AB handicap dots give a setup."""
    text = ("(;FF[4]GM[40]CA[UTF-8]\nSZ[20]\nPB[first]BR[1200]\nPW[second]WR[1532]\nDT[2008-12-24]\n"
            "AP[kropki:0001]\nRE[W+R]\n;B[ed];W[ce];B[ff];W[cf];B[df];W[dg];B[eg];W[ef];B[fg];"
            "W[de.cecfdgefdece];B[fe])")
    game, meta = from_sgf(text)
    assert game.ply == 11 and game.options["start"] == "empty"
    assert game.scores() == (0, 1), "red's chain c-e ... surrounds blue d-f"
    [region] = game.regions()
    assert region["owner"] == RED
    kropki_chain = {(3, 16), (3, 15), (4, 14), (5, 15), (4, 16)}  # cecfdgefdece
    assert set(region["chain"]) <= kropki_chain and len(region["chain"]) == 4, \
        "the smallest chain through the dots kropki wrote after the move"
    assert game.point_state(4, 15) == (BLUE, RED)
    handicap = "(;FF[4]GM[40]SZ[19:19]HA[4]AB[pd][dp][pp][dd];W[jh];B[ch])"
    game, _ = from_sgf(handicap)
    assert game.options["size"] == "19x19" and game.setup is not None and game.ply == 2
    game, _ = from_sgf("(;FF[4]GM[40]SZ[20]AB[pd][dp][pp][dd];W[jh];B[ch])")
    assert game.setup is not None and game.ply == 2
    assert game.point_state(16, 17) == (BLUE, -1)
    again, _ = from_sgf(to_sgf(game))
    assert again.position() == game.position()


def test_variations_follow_the_main_line_and_resign_ends_the_moves():
    """Only the first variation is read; a 'resign' move stops the list."""
    game, meta = from_sgf("(;GM[40]SZ[20];B[aa](;W[bb];B[resign])(;W[cc]))")
    assert [game.move_text(m) for m in game.move_stack] == ["1-20", "2-19"]
    assert meta["resigned"] == BLUE


@pytest.mark.parametrize("text, message", [
    ("", "no '\\('"),
    ("(;GM[1]SZ[19];B[aa])", "GM\\[1\\]"),
    ("(;SZ[20];B[aa])", "GM property is missing"),
    ("(;GM[40]SZ[abc])", "not a field size"),
    ("(;GM[40]SZ[4])", "4x4 is too small"),
    ("(;GM[40]SZ[39:4])", "39x4 is too small"),
    ("(;GM[40]SZ[53:20])", "53x20 is too large"),
    ("(;GM[40]SZ[99999999999999999999])", "too large"),
    ("(;GM[40]SZ[" + "9" * 5000 + ":5])", "too large"),
    ("(;GM[40]SZ[12:12:12])", "not a field size"),
    ("(;GM[40]SZ[20];B[a])", "not a point"),
    ("(;GM[40]SZ[20];B[zz])", "off the 20x20 field"),
    ("(;GM[40]SZ[20];B[aa];B[bb])", "turn"),
    ("(;GM[40]SZ[20];B[aa];W[aa])", "illegal"),
    ("(;GM[40]SZ[20];B[aa]", "not closed"),
    ("(;GM[40]SZ[20];B[aa", "not closed"),
    ("(;GM[40]SZ[20];B[];W[aa])", "over"),
    ("(;GM[40]SZ[20];B[aa];AB[bb])", "setup points"),
])
def test_broken_files_are_refused_with_a_reason(text, message):
    """A broken record raises SgfError (a GameError) naming the problem."""
    with pytest.raises(SgfError, match=message) as info:
        from_sgf(text)
    assert isinstance(info.value, GameError) and isinstance(info.value, ValueError)


def test_too_large_input_is_refused_before_parsing():
    """Input over the size limit is refused."""
    with pytest.raises(SgfError, match="too large"):
        from_sgf("(" + " " * MAX_SGF_BYTES + ")")


def test_position_with_regions_cannot_be_written():
    """A custom start with regions has no SGF form; the error says so."""
    game = Dots({"size": "20x20", "start": "empty"})
    game.push_text("5-5")
    for text in ("5-6", "1-1", "4-5", "1-2", "6-5", "1-3", "5-4"):
        game.push_text(text)
    with_regions = Dots(game.options, setup=game.position())
    with pytest.raises(SgfError, match="regions"):
        to_sgf(with_regions)


@pytest.mark.parametrize("result", [Outcome(0, "resign"), Outcome(1, "time"), Outcome(None, "draw_agreed")])
def test_a_stated_ending_round_trips(result: Outcome) -> None:
    """Resignation, time and an agreed draw, written as RE, come back as meta["outcome"]."""
    game = Dots({"size": "20x20"})
    game.push(game.placements()[0])
    _, meta = from_sgf(to_sgf(game, {"result": result}))
    assert meta["outcome"] == result


# ----- per-move comments (C[] on move nodes) ------------------------------------------------

def test_move_comments_are_read_as_one_caption_per_ply():
    """C[] on the node of move k is comments[k]; the root's C is comments[0] (and
    still ``comment``); a C on a node without a move belongs to the move before."""
    text = ("(;GM[40]SZ[10]C[The start.];B[aa]C[First \\] move];W[bb];C[Said after the second.]"
            ";B[cc]C[Third.](;W[dd]C[Main line.])(;W[ee]C[Variation: not read.]))")
    game, meta = from_sgf(text)
    assert game.ply == 4
    assert meta["comment"] == "The start."
    assert meta["comments"] == ["The start.", "First ] move", "Said after the second.", "Third.", "Main line."]


def test_a_file_without_move_comments_reads_as_before():
    _, meta = from_sgf("(;GM[40]SZ[10]C[Only the root.];B[aa];W[bb])")
    assert "comments" not in meta and meta["comment"] == "Only the root."


def test_move_comments_round_trip():
    """Written as C[] on each move's node, read back the same; the root gets
    comments[0] when no ``comment`` is given."""
    game = Dots({"size": "20x20"})
    for text in ("5-5", "6-6", "4-6"):
        game.push_text(text)
    comments = ["Before [the] moves.", "", "Red answers.\nOn two lines.", "Blue: \\ a backslash."]
    text = to_sgf(game, {"comments": comments})
    assert "C[Before [the\\] moves.]" in text and ";W[" in text
    back, meta = from_sgf(text)
    assert back.move_stack == game.move_stack
    assert meta["comments"] == comments and meta["comment"] == comments[0]
    assert to_sgf(back, meta) == text


def test_bad_comment_lists_are_ignored_when_writing():
    game = Dots({"size": "20x20"})
    game.push_text("5-5")
    for junk in ("text", None, [1, 2], ["a", "b", "c", "d"]):
        text = to_sgf(game, {"comments": junk})
        from_sgf(text)   # still a valid file
    assert "C[b]" in to_sgf(game, {"comments": ["", "b", "too", "many"]})
