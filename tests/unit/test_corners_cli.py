"""Corners on the command line: perft from a set-up, replay of a record
whose start is a position string, render, and a short bot match."""

from __future__ import annotations

import io
from pathlib import Path

from tessera import cli
from tessera.core.record import Record
from tessera.games.corners import Corners
from tessera.games.corners.examples import EXAMPLES

FINAL = next(example for example in EXAMPLES if example.key == "final_round")


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = cli.main(argv, stdout=out, stderr=err)
    return status, out.getvalue(), err.getvalue()


def test_perft_from_the_start_and_from_a_setup() -> None:
    """From the start: 64 then 64 * 63.  From the final-round example:
    circles have only h8 to fill (1), then triangles have their three
    painting captures and pass (4), then circles can only pass (1 each)."""
    assert run(["perft", "corners", "1"])[1].strip() == "64"
    assert run(["perft", "corners", "2"])[1].strip() == "4032"
    assert run(["perft", "corners", "1", "--setup", FINAL.start])[1].strip() == "1"
    assert run(["perft", "corners", "2", "--setup", FINAL.start])[1].strip() == "4"
    assert run(["perft", "corners", "3", "--setup", FINAL.start])[1].strip() == "4"
    status, _, err = run(["perft", "corners", "1", "--setup", "not a position"])
    assert status == 2 and "Traceback" not in err


def test_replay_a_record_that_starts_from_a_position(tmp_path: Path) -> None:
    game = Corners(setup=FINAL.start)
    for text in FINAL.moves:
        game.push_text(text)
    path = tmp_path / "final.json"
    path.write_text(Record.from_game(game, game.outcome()).dumps(), encoding="utf-8")
    status, out, err = run(["replay", str(path)])
    assert status == 0, err
    assert game.position() in out
    svg = tmp_path / "final.svg"
    status, _, err = run(["render", str(path), "-o", str(svg)])
    assert status == 0, err
    assert "<svg" in svg.read_text(encoding="utf-8")


def test_a_short_match_between_levels() -> None:
    status, out, err = run(["match", "corners", "medium", "easy", "--games", "2"])
    assert status == 0, err
    assert "medium" in out
