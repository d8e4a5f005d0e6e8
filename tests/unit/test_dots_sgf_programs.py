"""Dots SGF from other programs: KataGoDots' small fields with KM and RU,
zagram's odd sizes with time properties, notes where their rules differ,
and no crash on any mutation of such files."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tessera.core.game import GameError, Outcome
from tessera.games.dots import Dots
from tessera.games.dots.sgf import SgfError, from_sgf, kept_sgf_meta, to_sgf
from tessera.games.dots.sgf_rules import RulesNote, parse_rules, rules_notes, sgf_meta_notes
from tessera.i18n import catalog, placeholders, t

# A KataGoDots self-play game on 12x12 as its writer lays one out: KM and RU
# after the names, the cross as AB/AW in row order, the game's hash in the
# root comment, an evaluation comment on every move, and a last node with
# only a comment when a player resigns (red here: RE[B+R]).
KATAGO_12 = (
    "(;FF[4]AP[katago]GM[40]SZ[12]PB[dotsgame-s4718592-d401127]PW[dotsgame-s4456448-d387002]"
    "KM[0.5]RU[dotsCaptureEmptyBase0sui1]RE[B+R]AB[ff][gg]AW[gf][fg]"
    "C[startTurnIdx=0,initTurnNum=4,gameHash=5E0C1D2A9B7F4433A1C2D3E4F5061728,gtype=normal]"
    ";B[fh]C[0.57 0.43 0.00 1.3 v=160];W[ed]C[0.61 0.39 0.00 1.4 v=165];B[eg]C[0.65 0.35 0.00 1.6 v=155]"
    ";W[gj]C[0.69 0.31 0.00 1.8 v=158];B[ge]C[0.72 0.28 0.00 1.9 v=157];W[cf]C[0.71 0.29 0.00 1.8 v=162]"
    ";B[hf]C[0.75 0.25 0.00 2.0 v=161];W[eh]C[0.76 0.24 0.00 2.1 v=164];B[ei]C[0.76 0.24 0.00 2.0 v=158]"
    ";W[hh]C[0.77 0.23 0.00 2.1 v=157];B[dh]C[0.82 0.18 0.00 2.3 v=161];W[ch]C[0.81 0.19 0.00 2.2 v=156]"
    ";B[dg]C[0.80 0.20 0.00 2.2 v=164];W[hc]C[0.81 0.19 0.00 2.2 v=157];B[fe]C[0.79 0.21 0.00 2.1 v=155]"
    ";W[ia]C[0.78 0.22 0.00 2.1 v=158];B[cg]C[0.83 0.17 0.00 2.3 v=157];W[jj]C[0.87 0.13 0.00 2.5 v=159]"
    ";B[bh]C[0.87 0.13 0.00 2.5 v=158];W[je]C[0.89 0.11 0.00 2.6 v=165];B[ci]C[0.91 0.09 0.00 2.7 v=157]"
    ";W[kk]C[0.96 0.04 0.00 2.8 v=158];B[kj]C[0.99 0.01 0.00 3.0 v=161];W[gi]C[0.99 0.01 0.00 3.0 v=160]"
    ";B[fi]C[0.99 0.01 0.00 3.0 v=157];W[hd]C[0.99 0.01 0.00 3.0 v=160];B[ie]C[0.99 0.01 0.00 3.0 v=164]"
    ";W[dd]C[0.99 0.01 0.00 3.0 v=164];B[ee]C[0.99 0.01 0.00 3.0 v=160];W[ib]C[0.97 0.03 0.00 2.9 v=160]"
    ";B[id]C[0.99 0.01 0.00 3.0 v=162];W[ga]C[0.99 0.01 0.00 3.0 v=157];B[ic]C[0.99 0.01 0.00 3.0 v=157]"
    ";W[jb]C[0.97 0.03 0.00 2.9 v=155];C[0.99 0.01 0.00 3.9 v=161 result=B+R])"
)
KATAGO_12_POSITION = ("6R.R3/8RR2/7RB3/3RR2RB3/4BBB.BR2/2R2BcB4/2BBBcB5/.BcBcB.R4/2B.BBR5/6R2RB./10R./12 b - "
                      "b:6-5,7-6,6-7,5-6;b:7-6,8-7,7-8,6-7;b:5-4,6-5,5-6,4-5;b:3-4,4-5,3-6,2-5")

# A zagram tournament game on 17x21 (SZ width:height): RU[russian], main
# time and overtime (TM, OT), ratings, each move's time left (BL / WL), and
# the closed chain after a capturing move (B[hk.iljkijhk]).
ZAGRAM_17_21 = (
    "(;GM[40]FF[4]CA[UTF-8]SZ[17:21]RU[russian]AP[zagram.org:eidokropki]PB[Kasparyan]BR[1811]"
    "PW[Orlova]WR[1754]DT[2024-11-03]EV[Autumn cup]RO[2]TM[300]OT[0+25]AB[ij][jk]AW[jj][ik]"
    ";B[il]BL[291.4];W[hh]WL[296.1];B[hk.iljkijhk]BL[287.2];W[jn]WL[290.7];B[ji]BL[282.8]"
    ";W[fj]WL[286.7];B[kj.jkkjjiij]BL[275.1];W[hl]WL[282.1];B[hm]BL[268.4];W[kl]WL[276.1]"
    ";B[gl.hmilhkgl]BL[259.8];W[fl]WL[274.1];B[gk]BL[256.8];W[kg]WL[266.5];B[ii]BL[252.1]"
    ";W[le]WL[261.4];B[fk]BL[244.0];W[ej]WL[258.4];B[el]BL[239.3];W[hp]WL[252.7]"
    ";B[fm.fmglfkel]BL[232.1];W[ih]WL[248.8];B[jh]BL[228.7];W[jg]WL[244.3];B[ig]BL[219.9]"
    ";W[md]WL[241.6];B[ek]BL[214.8];W[en]WL[237.7];B[kh]BL[212.6];W[gm]WL[234.5])"
)


def test_katagodots_12x12_game_replays_with_its_komi_noted() -> None:
    """The 12x12 record opens with the centred cross, replays to the golden position, and keeps KM and RU."""
    game, meta = from_sgf(KATAGO_12)
    assert game.options == {"size": "12x12", "start": "cross"} and game.setup is None
    assert game.ply == 34 and game.scores() == (4, 0)
    assert game.position() == KATAGO_12_POSITION
    assert meta["outcome"] == Outcome(0, "resign") and meta["result"] == "B+R"
    assert meta["sgf"] == {"KM": "0.5", "RU": "dotsCaptureEmptyBase0sui1"}
    assert meta["notes"] == [RulesNote("sgf.note.komi", {"komi": "0.5"})]


def test_katagodots_record_round_trips_km_and_ru() -> None:
    """Export writes KM and RU back; the export reads back to the same game, meta and result."""
    game, meta = from_sgf(KATAGO_12)
    text = to_sgf(game, {**meta, "result": meta["outcome"]})
    assert "SZ[12]" in text and "KM[0.5]" in text and "RU[dotsCaptureEmptyBase0sui1]" in text
    assert "RE[B+R]" in text
    again, again_meta = from_sgf(text)
    assert again.position() == game.position() and again.move_stack == game.move_stack
    assert again_meta["sgf"] == meta["sgf"] and again_meta["outcome"] == meta["outcome"]


@pytest.mark.parametrize("size, cross", [(10, "AB[ee][ff]AW[fe][ef]"), (12, "AB[ff][gg]AW[gf][fg]"),
                                         (14, "AB[gg][hh]AW[hg][gh]")])
def test_katagodots_self_play_sizes_start_from_tesseras_cross(size: int, cross: str) -> None:
    """KataGoDots' crosses on 10x10, 12x12 and 14x14 are the cross Tessera puts in the middle."""
    game, _ = from_sgf(f"(;FF[4]AP[katago]GM[40]SZ[{size}]KM[0]RU[dotsCaptureEmptyBase0sui1]{cross};B[aa];W[])")
    assert game.options == {"size": f"{size}x{size}", "start": "cross"}
    assert game.outcome() is not None and game.outcome().reason == "landing"


def test_zagram_17x21_game_keeps_its_times() -> None:
    """SZ[17:21] opens; the chain suffixes are the captures the engine finds; TM, OT, BL and WL are kept."""
    game, meta = from_sgf(ZAGRAM_17_21)
    assert game.options == {"size": "17x21", "start": "cross"}
    assert (game.width, game.height) == (17, 21)
    assert game.ply == 30 and game.scores() == (4, 0) and len(game.regions()) == 4
    assert meta["blue"] == "Kasparyan" and meta["date"] == "2024-11-03" and meta["event"] == "Autumn cup"
    kept = meta["sgf"]
    assert (kept["RU"], kept["TM"], kept["OT"]) == ("russian", "300", "0+25") and "KM" not in kept
    assert kept["BL"][:2] == [[1, "291.4"], [3, "287.2"]] and kept["WL"][-1] == [30, "234.5"]
    assert len(kept["BL"]) == len(kept["WL"]) == 15
    assert "notes" not in meta, "RU[russian] is Tessera's rules"
    json.dumps(kept)   # plain JSON, for the tessera/1 record's meta


def test_zagram_times_round_trip_at_their_moves() -> None:
    """Export writes TM and OT in the root and each BL / WL after its own move."""
    game, meta = from_sgf(ZAGRAM_17_21)
    text = to_sgf(game, meta)
    assert "SZ[17:21]" in text and "TM[300]" in text and "OT[0+25]" in text and "RU[russian]" in text
    assert ";B[il]BL[291.4]" in text and ";W[gm]WL[234.5]" in text
    again, again_meta = from_sgf(text)
    assert again.position() == game.position() and again_meta["sgf"] == meta["sgf"]
    game.pop()   # a shorter game writes only the times it has moves for
    assert "WL[234.5]" not in to_sgf(game, meta)


@pytest.mark.parametrize("komi, rules, keys", [
    ("0", "dotsCaptureEmptyBase0sui1", []),
    ("-0", "dotsCaptureEmptyBase0startPosIsRandom1sui1", []),
    (None, "russian", []),
    (None, "BBS", []),
    (None, "notago", []),
    (None, "", []),
    ("0.5", None, ["sgf.note.komi"]),
    ("-0.5", "dotsCaptureEmptyBase0sui0", ["sgf.note.no_suicide", "sgf.note.komi"]),
    ("1", "dotsCaptureEmptyBase1sui1", ["sgf.note.empty_bases", "sgf.note.komi"]),
    (None, "sui1dotsCaptureEmptyBase1", ["sgf.note.empty_bases"]),
    (None, "dotsCaptureEmptyBase0sui1komi2", ["sgf.note.komi"]),
    ("0", "dotsCaptureEmptyBase0sui1komi2", []),
    (None, '{"dots": true, "suicide": false, "dotsCaptureEmptyBase": false, "komi": 0.5}',
     ["sgf.note.no_suicide", "sgf.note.komi"]),
    (None, '{"dots": true, "startPos": "CROSS", "komi": 0}', []),
    (None, "Japanese", ["sgf.note.unknown_rules"]),
    (None, "koPOSITIONALscoreAREAtaxNONEsui1", ["sgf.note.unknown_rules"]),
    (None, "dotsCaptureEmptyBaseXsuiX", ["sgf.note.unknown_rules"]),
    (None, "{" + "[" * 5000, ["sgf.note.unknown_rules"]),
    ("seven", None, ["sgf.note.bad_komi"]),
    ("1e400", None, ["sgf.note.bad_komi"]),
    ("9" * 5000, None, ["sgf.note.bad_komi"]),
])
def test_which_rules_differ_from_tesseras(komi, rules, keys) -> None:
    """A komi other than 0, KataGoDots' capture variants and unknown rules are noted;
    presets with Tessera's rules are not."""
    assert [note.key for note in rules_notes(komi, rules)] == keys


def test_notes_are_in_the_catalog_with_their_values() -> None:
    """Every note key has English and Russian text, filled with the file's values."""
    notes = rules_notes("1.5", "dotsCaptureEmptyBase1sui0") + rules_notes("x", "Go rules, " + "y" * 200)
    assert {note.key for note in notes} == {"sgf.note.komi", "sgf.note.empty_bases", "sgf.note.no_suicide",
                                            "sgf.note.bad_komi", "sgf.note.unknown_rules"}
    for note in notes:
        for lang in ("en", "ru"):
            assert placeholders(catalog()[lang][note.key]) == set(note.params)
            text = t(note.key, lang=lang, **note.params)
            assert "{" not in text and all(value in text for value in note.params.values())
            assert len(text) < 300, "a quoted rules string is cut short"
    assert t("sgf.note.komi", lang="ru", komi="1.5").startswith("Коми в файле — 1.5")
    assert parse_rules("dotsCaptureEmptyBase1sui0").suicide is False


def test_meta_sgf_from_a_json_record_is_checked() -> None:
    """``meta["sgf"]`` may come from any JSON record: only well-formed values are kept and noted."""
    assert kept_sgf_meta({"KM": "0.5", "RU": 7, "TM": "x" * 1000, "BL": [[1, "30"], [2, "abc"], ["3", "1"], 5]}) \
        == {"KM": "0.5", "BL": [[1, "30"]]}
    assert kept_sgf_meta(["KM"]) == {}
    assert [n.key for n in sgf_meta_notes({"KM": "2", "RU": "dotsCaptureEmptyBase1"})] == \
        ["sgf.note.empty_bases", "sgf.note.komi"]
    assert sgf_meta_notes("nonsense") == []


def test_cli_load_sgf_keeps_meta_and_english_notes(tmp_path) -> None:
    """The command line reads the 12x12 file as a tessera/1 record with meta["sgf"] and English notes."""
    from tessera.cli import format_loader
    load_sgf = format_loader(".sgf")

    record = load_sgf(KATAGO_12)
    assert record.options == {"size": "12x12", "start": "cross"}
    assert record.meta["sgf"] == {"KM": "0.5", "RU": "dotsCaptureEmptyBase0sui1"}
    assert record.meta["notes"] == [t("sgf.note.komi", lang="en", komi="0.5")]
    assert "komi is 0.5" in record.meta["notes"][0]
    assert record.replay().position() == KATAGO_12_POSITION
    assert "notes" not in load_sgf(ZAGRAM_17_21).meta


def test_cli_replay_and_render_print_the_notes(tmp_path) -> None:
    """``replay`` and ``render`` of a file with other rules say so on stderr and still succeed."""
    from tessera.cli import main

    path = tmp_path / "katago.sgf"
    path.write_text(KATAGO_12, encoding="utf-8")
    for argv in (["replay", str(path)], ["render", str(path), "-o", str(tmp_path / "out.svg")]):
        out, err = io.StringIO(), io.StringIO()
        assert main(argv, out, err) == 0, err.getvalue()
        assert "note: The file's komi is 0.5" in err.getvalue()
    quiet = tmp_path / "zagram.sgf"
    quiet.write_text(ZAGRAM_17_21, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert main(["replay", str(quiet)], out, err) == 0 and "note:" not in err.getvalue()
    assert " 21 " in out.getvalue().splitlines()[0] or out.getvalue().startswith("21 ")


# ----- fuzz: any text gives a game or a clear error ------------------------------------------------
SEEDS = [KATAGO_12, ZAGRAM_17_21, "(;GM[40]SZ[5];B[cc];W[])", "(;FF[4]GM[40]SZ[52:5]AB[aa]AW[Ae];W[ZE];B[bb])"]
SGF_CHARS = "()[];\\:.abcefzABYZ0159 -+\n{}\"e"
NUMBERS = st.one_of(st.integers(-100, 100), st.integers(-10**40, 10**40)).map(str) | st.sampled_from(
    ["9" * 5000, "4", "5", "52", "53", "0", "-0", "1e400", "nan", "0.5", "", ":", "12:", ":12", "5:5:5", "٣"])


@st.composite
def mutated_sgf(draw) -> str:
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["insert", "delete", "size", "komi", "rules", "time"]))
        at = draw(st.integers(0, len(text)))
        if kind == "insert":
            text = text[:at] + draw(st.text(SGF_CHARS, max_size=12)) + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)):]
        else:
            prop = {"size": "SZ", "komi": "KM", "rules": "RU", "time": "BL"}[kind]
            value = draw(NUMBERS) if kind != "rules" else draw(st.text(SGF_CHARS, max_size=40) | NUMBERS)
            if kind == "size" and draw(st.booleans()):
                value = f"{draw(NUMBERS)}:{draw(NUMBERS)}"
            start = text.find(f"{prop}[")
            if start >= 0 and draw(st.booleans()):
                end = text.find("]", start)
                text = text[:start] + f"{prop}[{value}" + (text[end:] if end >= 0 else "")
            else:
                root = text.find(";")
                text = text[:root + 1] + f"{prop}[{value}]" + text[root + 1:]
    return text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_sgf())
def test_mutated_files_give_a_game_or_a_clear_error(text: str) -> None:
    """Edited KataGoDots, zagram and tiny files, with huge or odd SZ, KM, RU and BL values, never crash."""
    try:
        game, meta = from_sgf(text)
    except SgfError as error:
        assert isinstance(error, GameError) and str(error) and len(str(error)) < 400
        return
    assert isinstance(game, Dots) and 5 <= game.width <= 52 and 5 <= game.height <= 52
    json.dumps(meta.get("sgf", {}))
    for note in meta.get("notes", []):
        assert len(t(note.key, lang="en", **note.params)) < 400
    try:
        again, _ = from_sgf(to_sgf(game, meta))
    except SgfError as error:
        assert "regions" in str(error)
        return
    assert again.position() == game.position()


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200),
                 st.text(SGF_CHARS + "GMSZKRUW4", max_size=120).map(lambda body: "(;GM[40]" + body)))
def test_any_text_or_bytes_give_a_game_or_a_clear_error(data) -> None:
    """Arbitrary input, raw or behind a Dots root, is read or refused with SgfError."""
    try:
        game, _ = from_sgf(data)
    except SgfError as error:
        assert str(error) and len(str(error)) < 400
    else:
        assert isinstance(game, Dots)
