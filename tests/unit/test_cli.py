"""The command line, run in-process so it also runs under Pyodide."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tessera import cli
from tessera.core.record import Record
from tessera.core.rng import SeededRandom

quadrature = pytest.importorskip("tessera.games.quadrature")


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = cli.main(argv, stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def played(plies: int, seed: int = 3):
    game = quadrature.Quadrature()
    rng = SeededRandom(seed)
    for _ in range(plies):
        if game.is_over():
            break
        moves = game.legal_moves()
        game.push(moves[rng.below(len(moves))])
    return game


def write_record(path: Path, game) -> Path:
    path.write_text(Record.from_game(game).dumps(), encoding="utf-8")
    return path


def test_replay_text(tmp_path: Path) -> None:
    """The text form shows the board, position, side, scores and moves."""
    game = played(6)
    status, out, err = run(["replay", str(write_record(tmp_path / "g.json", game))])
    assert status == 0, err
    assert f"position: {game.position()}" in out
    assert "to move: white" in out
    assert "scores: white 9, black 9" in out or "scores: white" in out
    assert "outcome: none" in out
    assert " ".join(game.sorted_legal_texts()) in out


def test_replay_json_and_ply(tmp_path: Path) -> None:
    """--json prints one object; --ply stops early."""
    game = played(10)
    path = write_record(tmp_path / "g.json", game)
    status, out, _ = run(["replay", str(path), "--json"])
    assert status == 0
    data = json.loads(out)
    assert set(data) == {"position", "to_move", "scores", "outcome", "legal_moves", "legal_moves_listed", "ply"}
    assert data["position"] == game.position() and data["ply"] == 10
    assert data["legal_moves"] == game.sorted_legal_texts()
    assert data["legal_moves_listed"] is True
    assert data["outcome"] is None and data["to_move"] == game.to_move
    status, out, _ = run(["replay", str(path), "--json", "--ply", "0"])
    assert json.loads(out)["position"] == quadrature.Quadrature().position()


def test_replay_from_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    """``-`` reads the record from standard input."""
    game = played(4)
    monkeypatch.setattr("sys.stdin", io.StringIO(Record.from_game(game).dumps()))
    status, out, _ = run(["replay", "-", "--json"])
    assert status == 0 and json.loads(out)["position"] == game.position()


def test_replay_finished_game_shows_outcome(tmp_path: Path) -> None:
    """A record played to the end reports who won and no legal moves."""
    game = played(400, seed=5)
    assert game.is_over()
    status, out, _ = run(["replay", str(write_record(tmp_path / "g.json", game)), "--json"])
    data = json.loads(out)
    assert data["outcome"] == game.outcome().to_json() and data["legal_moves"] == []


def test_bad_record_names_the_move(tmp_path: Path) -> None:
    """An illegal third move exits 2 and names move 3 and its text."""
    record = Record.from_game(played(2))
    record.moves.append("b9-b1")
    path = tmp_path / "bad.json"
    path.write_text(record.dumps(), encoding="utf-8")
    status, out, err = run(["replay", str(path)])
    assert status == 2 and out == ""
    assert "move 3" in err and "b9-b1" in err


@pytest.mark.parametrize("text", ["not json", '{"format": "other"}', '{"format": "tessera/1", "game": "chess"}'])
def test_unreadable_records_exit_2(tmp_path: Path, text: str) -> None:
    """Malformed input is a clean error, not a traceback."""
    path = tmp_path / "x.json"
    path.write_text(text, encoding="utf-8")
    status, _, err = run(["replay", str(path)])
    assert status == 2 and err.startswith("error:")


def test_missing_file_exits_2(tmp_path: Path) -> None:
    status, _, err = run(["replay", str(tmp_path / "none.json")])
    assert status == 2 and "cannot read" in err


def test_loader_by_suffix(tmp_path: Path) -> None:
    """A registered reader handles its suffix (the hook SGF will use)."""
    calls = []

    def fake_loader(text: str) -> Record:
        calls.append(text)
        return Record("quadrature")

    cli.register_loader(".fake", fake_loader)
    try:
        path = tmp_path / "g.fake"
        path.write_text("anything", encoding="utf-8")
        status, out, _ = run(["replay", str(path), "--json"])
    finally:
        del cli.RECORD_LOADERS[".fake"]
    assert status == 0 and calls == ["anything"] and json.loads(out)["ply"] == 0


def test_perft_counts_and_divide() -> None:
    """Depth 1 from the start is the number of legal moves; divide sums up."""
    start = quadrature.Quadrature()
    status, out, _ = run(["perft", "quadrature", "1"])
    assert status == 0 and int(out) == len(start.legal_moves())
    status, out, _ = run(["perft", "quadrature", "2", "--divide"])
    lines = out.strip().splitlines()
    assert lines[-1].startswith("total: ")
    total = int(lines[-1].split()[1])
    assert total == sum(int(line.split(": ")[1]) for line in lines[:-1])
    assert total == int(run(["perft", "quadrature", "2"])[1])


def test_perft_setup_and_errors() -> None:
    """--setup starts from a position; bad games and positions exit 2."""
    game = played(8)
    status, out, _ = run(["perft", "quadrature", "1", "--setup", game.position()])
    assert status == 0 and int(out) == len(game.legal_moves())
    assert run(["perft", "chess", "1"])[0] == 2
    assert run(["perft", "quadrature", "1", "--setup", "nonsense"])[0] == 2


def test_match_small() -> None:
    """Two quick bots play two games; the summary has the counts and Elo."""
    status, out, err = run(["match", "quadrature", "greedy", "random", "--games", "2", "--seed", "1"])
    assert status == 0
    assert "greedy: +" in out and "Elo" in out
    assert err.count("game ") == 2
    assert run(["match", "quadrature", "greedy", "nosuchbot", "--games", "1"])[0] == 2


def test_render_svg(tmp_path: Path) -> None:
    """render writes an SVG drawn by the game's board view."""
    pytest.importorskip("tessera.games.quadrature.view")
    path = write_record(tmp_path / "g.json", played(6))
    target = tmp_path / "board.svg"
    status, _, err = run(["render", str(path), "--ply", "4", "-o", str(target)])
    assert status == 0, err
    svg = target.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>") and "<circle" in svg


def test_usage_errors_exit_2() -> None:
    """argparse errors keep its status 2 and do not raise."""
    assert run([])[0] == 2
    assert run(["replay"])[0] == 2


def test_replay_shows_record_result_only_at_the_end(tmp_path: Path) -> None:
    """A resignation stored in the record shows after the last move, not before."""
    from tessera.core.game import Outcome

    record = Record.from_game(played(6), result=Outcome(1, "resign"))
    path = tmp_path / "resigned.json"
    path.write_text(record.dumps(), encoding="utf-8")
    data = json.loads(run(["replay", str(path), "--json"])[1])
    assert data["outcome"] == {"winner": 1, "reason": "resign"} and data["legal_moves"] == []
    data = json.loads(run(["replay", str(path), "--json", "--ply", "3"])[1])
    assert data["outcome"] is None and data["ply"] == 3


def test_match_saves_replayable_records(tmp_path: Path) -> None:
    """--save writes one record per game, and each replays to its end."""
    status, _, _ = run(["match", "quadrature", "greedy", "random", "--games", "2",
                        "--quiet", "--save", str(tmp_path)])
    assert status == 0
    files = sorted(tmp_path.glob("game*.json"))
    assert len(files) == 2
    for file in files:
        game = Record.loads(file.read_text(encoding="utf-8")).replay()
        assert game.is_over()


def test_scores_replays_saved_records_and_spreads_their_points(tmp_path: Path) -> None:
    """``scores`` reads a folder that ``match --save`` filled: endings and final points."""
    status, out, _ = run(["match", "quadrature", "greedy", "random", "--games", "3", "--seed", "2",
                          "--quiet", "--save", str(tmp_path)])
    assert status == 0
    status, out, err = run(["scores", str(tmp_path)])
    assert status == 0, err
    assert out.startswith("3 records; endings: ")
    assert "higher: min " in out and "margin: min " in out
    assert run(["scores", str(tmp_path / "nothing-here")])[0] != 0


def test_match_openings_are_shared_by_each_pair_and_differ_between_pairs(tmp_path: Path) -> None:
    """--opening N: the weakest level plays the first N moves; the two games
    of a pair (colours swapped) start alike, and pairs start differently."""
    status, _, err = run(["match", "dots", "easy", "easy", "--games", "4", "--quiet", "--seed", "3",
                          "--opening", "6", "--option", "size=10x10", "--save", str(tmp_path)])
    assert status == 0, err
    openings = [Record.loads(file.read_text(encoding="utf-8")).moves[:6]
                for file in sorted(tmp_path.glob("game*.json"))]
    assert len(openings) == 4 and all(len(moves) == 6 for moves in openings)
    assert openings[0] == openings[1] and openings[2] == openings[3]
    assert openings[0] != openings[2]
    status, _, err = run(["match", "dots", "easy", "easy", "--opening", "-1"])
    assert status == 2 and "--opening" in err


def test_match_with_pondering_says_how_often_the_guess_was_right() -> None:
    """``match --ponder``: the first bot reads on the second's time and the summary counts its hits."""
    code, out, err = run(["match", "quadrature", "alphabeta:max_depth=1", "greedy", "--games", "2",
                          "--movetime", "20", "--ponder", "--quiet"])
    assert code == 0, err
    assert "2 games" in out
    line = next(line for line in out.splitlines() if "pondered" in line)
    hits, total = (int(word) for word in line.replace(" of ", " ").split() if word.isdigit())
    assert 0 <= hits <= total and total > 0
