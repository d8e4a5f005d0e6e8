"""Abatis beyond the rules: the hint search, the command line's solo games
and replays, the play-screen adapter and undo back to the level start."""

from __future__ import annotations

import io
import json
from pathlib import Path

from tessera import cli
from tessera.bots.base import Bot
from tessera.bots.registry import level, levels_for, make_level_bot
from tessera.core.game_ui import game_ui
from tessera.core.record import Record
from tessera.core.session import Seat, Session
from tessera.games.abatis import Abatis
from tessera.games.abatis.adapter import parse_table
from tessera.bots.random_bot import RandomBot
from tessera.games.abatis.hint import AbatisHintBot, promise


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(argv, out, err)
    return code, out.getvalue(), err.getvalue()


def play(bot: Bot, game: Abatis, moves: int) -> Abatis:
    while not game.is_over() and game.ply < moves:
        game.push(bot.choose(game))
    return game


def test_the_hint_is_a_helper_not_an_opponent() -> None:
    assert levels_for("abatis") == ()
    hint = level("abatis", "hint")
    assert isinstance(make_level_bot(hint, 1), AbatisHintBot)
    assert game_ui("abatis").hint_level == "hint"


def test_the_hint_leaves_the_game_as_it_found_it_and_plays_a_legal_move() -> None:
    for mode in ("classic", "knockout", "mixed"):
        game = Abatis({"mode": mode}, seed=11)
        play(RandomBot(2, 0), game, 15)
        before = (game.position(), game.ply, game.rng.state)
        move = AbatisHintBot(3, 0).choose(game)
        assert move in game.legal_moves()
        assert (game.position(), game.ply, game.rng.state) == before


def test_the_hint_takes_a_block_when_one_is_there() -> None:
    """A lane where one shot completes a block of three: the hint shoots it."""
    game = Abatis({"mode": "classic"}, seed=5)
    for _ in range(40):
        scoring = []
        for move in game.legal_moves():
            copy = game.copy()
            copy.push(move)
            scoring.append((copy.score - game.score, move))
        best = max(scoring)[0]
        if best > 0:
            move = AbatisHintBot(1, 0, depth=1).choose(game)
            copy = game.copy()
            copy.push(move)
            assert copy.score - game.score == best or promise(copy) + copy.score - game.score >= best
            return
        game.push(RandomBot(1, 0).choose(game))
    raise AssertionError("no scoring move came up in 40 random moves")


def test_the_hint_outscores_random_play() -> None:
    """The point of the button: over a few seeded games per mode, following
    the hint scores more than random moves (both stop at 60 moves)."""
    for mode in ("classic", "knockout", "mixed"):
        hinted = sum(play(AbatisHintBot(seed, 0, beam=4), Abatis({"mode": mode}, seed=seed), 60).score
                     for seed in range(2))
        random = sum(play(RandomBot(seed, 0), Abatis({"mode": mode}, seed=seed), 60).score
                     for seed in range(2))
        assert hinted > random, (mode, hinted, random)


def test_solo_reports_scores_and_levels(tmp_path: Path) -> None:
    code, out, err = run(["solo", "abatis", "random", "--games", "3", "--max-moves", "40",
                          "--option", "mode=knockout", "--save", str(tmp_path), "--quiet"])
    assert code == 0, err
    assert "3 games" in out and "score: mean" in out and "level reached" in out
    records = sorted(tmp_path.glob("*.json"))
    assert len(records) == 3
    record = Record.loads(records[0].read_text())
    assert record.game == "abatis" and record.options["mode"] == "knockout" and len(record.moves) <= 40


def test_solo_refuses_two_player_games_and_bad_numbers() -> None:
    assert run(["solo", "corners", "random"])[0] == 2
    assert run(["solo", "abatis", "random", "--max-moves", "0"])[0] == 2
    assert run(["solo", "abatis", "nosuchbot"])[0] == 2


def test_replay_of_a_seeded_record_and_of_a_set_up_position(tmp_path: Path) -> None:
    game = Abatis({"mode": "mixed"}, seed=21)
    play(RandomBot(4, 0), game, 12)
    path = tmp_path / "seeded.json"
    path.write_text(Record.from_game(game).dumps())
    code, out, err = run(["replay", str(path), "--json"])
    assert code == 0, err
    data = json.loads(out)
    assert data["position"] == game.position() and data["scores"] == [game.score]
    assert data["legal_moves"] == game.sorted_legal_texts()

    start = game.position()
    from_setup = Abatis({"mode": "mixed"}, seed=3, setup=start)
    play(RandomBot(5, 0), from_setup, 5)
    path = tmp_path / "setup.json"
    path.write_text(Record.from_game(from_setup).dumps())
    code, out, err = run(["replay", str(path)])
    assert code == 0, err
    assert f"position: {from_setup.position()}" in out and f"scores: player {from_setup.score}" in out


def test_undo_goes_back_to_the_level_start_and_no_further() -> None:
    """Knockout clears levels quickly: play until a level starts, then undo."""
    game = Abatis({"mode": "knockout"}, seed=2)
    session = Session(game, [Seat("human")])
    bot = RandomBot(9, 0)
    while game.level == 0 and game.ply < 2000:
        session.play(bot.choose(game))
    assert game.level == 1 and game.level_start == game.ply
    assert not session.can_undo()
    start = game.position()
    for _ in range(3):
        session.play(bot.choose(game))
    assert session.can_undo()
    while session.can_undo():
        session.undo()
    assert game.ply == game.level_start and game.position() == start and game.level == 1


def test_adapter_rows_tables_and_words() -> None:
    ui = game_ui("abatis")
    game = Abatis({"mode": "mixed", "colours_min": 4, "colours_max": 6, "levels_per_colour": 2}, seed=1)
    keys = [key for key, _, _ in ui.stats(game, 0)]
    assert keys == ["panel.abatis.score", "panel.abatis.level", "panel.abatis.colours", "panel.abatis.blocks"]
    assert dict(ui.details(game))["stats.abatis.moves"] == "0"
    table = ui.score_table(game)
    assert table == "mixed-4-6-2" and parse_table(table) == game.scenario
    assert "4" in ui.score_table_name(table) and "6" in ui.score_table_name(table)
    for bad in ("", "mixed-4-6", "chess-4-6-2", "mixed-7-5-2", "mixed-4-6-99", "mixed-x-6-2"):
        assert parse_table(bad) is None
    assert ui.score_table(Abatis(setup=game.position())) is None   # a set-up is not a fair result
    assert ui.cell_name((0, 3, 0)) == "Nd" and ui.cell_name((3, 3, 1)) == "W4*" and ui.cell_name(0) == "a1"
