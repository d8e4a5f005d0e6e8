"""Quadrotone's points in play: how seeded bot games end and how their
totals spread (the catalog is scaled so a typical game ends in the
thousands), that a bot game does reach the 8000-point lead, and that the
generic random bot plays whole games though the moves cannot be listed.

The spread is printed (``pytest -s``); the full tables over the bot levels
come from ``python3 -m tessera match quadrotone ... --save DIR`` and
``python3 -m tessera scores DIR`` (see ``levels.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

from tessera.bots.registry import make_bot
from tessera.core.record import Record
from tessera.core.stats import score_spread
from tessera.games.quadrotone.bot import QuadrotoneBot
from tessera.games.quadrotone.limits import LEAD_TO_WIN
from tessera.games.quadrotone.rules import Quadrotone

LEAD_GAME = Path(__file__).parent / "data" / "quadrotone_medium_easy_lead.json"
"""Game 3 of ``match quadrotone medium easy --seed 11 --games 4 --save DIR``, kept as played
(played again after occurrences scored once and the deal by rotation classes)."""


def play(game: Quadrotone, bots: list) -> Quadrotone:
    while game.outcome() is None:
        move = bots[game.to_move].choose(game)
        assert move is not None, f"no move at ply {game.ply} though the game goes on"
        assert game.is_legal(move)
        game.push(move)
    return game


def test_the_random_bot_plays_whole_games() -> None:
    """Once a player's one-chip limits are spent, ``legal_moves`` lists
    nothing, yet bigger moves remain: the random bot draws any move."""
    game = play(Quadrotone(seed=5), [make_bot("random", 1, 0), make_bot("random", 2, 0)])
    placing, arranging = game.limits_left(0)
    assert game.outcome().reason in ("limits", "lead")
    assert placing[0] == 0 or arranging[0] == 0 or game.outcome().reason == "lead"


GAMES = 1 if sys.platform == "emscripten" else 4
"""Whole bot games are slow in Pyodide (about 3x): one there checks the same engine."""


def test_seeded_bot_games_end_in_the_thousands() -> None:
    """Seeded games of a quick counted bot (25 candidates a move, bigger
    moves grown from them) against the random bot, seats alternating."""
    finals, endings = [], []
    for seed in range(GAMES):
        bots = [QuadrotoneBot(seed=2 * seed + 1, movetime_ms=None, singles=25), make_bot("random", 2 * seed + 2, 0)]
        if seed % 2:
            bots.reverse()
        game = play(Quadrotone(seed=seed), bots)
        finals.append(game.scores())
        endings.append(game.outcome().reason)
        assert game.outcome().winner == seed % 2, "the bot beats random play"
    spread = score_spread(finals)
    print(f"\nquick bot vs random, {GAMES} games, endings {endings}\n{spread.summary()}")
    assert set(endings) <= {"limits", "lead"}
    low_winner, *_, high_winner = spread.higher
    assert 2_000 <= low_winner and high_winner <= 40_000, "a typical game ends in the thousands"
    assert spread.lower[2] >= 300, "random play scores too"


def test_a_bot_game_reached_the_eight_thousand_lead() -> None:
    """A game Medium played against Easy ended on the lead, at the move that made it."""
    record = Record.loads(LEAD_GAME.read_text(encoding="utf-8"))
    assert record.meta["players"] == ["medium", "easy"]
    game = record.replay()
    assert game.outcome().reason == "lead"
    first, second = game.scores()
    assert abs(first - second) >= LEAD_TO_WIN
    game.pop()
    first, second = game.scores()
    assert abs(first - second) < LEAD_TO_WIN and game.outcome() is None
