"""Elo and match statistics."""

from __future__ import annotations

import math

import pytest

from tessera.core.stats import (ELO_CAP, elo_from_score, five_numbers, match_stats, score_from_elo, score_spread,
                                 stats_from_results)


def test_even_score_is_zero_elo() -> None:
    """50% means equal strength."""
    assert elo_from_score(0.5) == 0.0
    assert match_stats(5, 0, 5).elo == 0.0
    assert match_stats(0, 10, 0).elo == 0.0


def test_elo_is_monotone_and_antisymmetric() -> None:
    """A higher score is a higher Elo; p and 1-p mirror each other."""
    scores = [0.01, 0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 0.99]
    elos = [elo_from_score(p) for p in scores]
    assert elos == sorted(elos) and len(set(elos)) == len(elos)
    for p in scores:
        assert math.isclose(elo_from_score(p), -elo_from_score(1 - p), abs_tol=1e-9)


def test_known_values_and_inverse() -> None:
    """75% is about +191 Elo, and score_from_elo inverts it."""
    assert elo_from_score(0.75) == pytest.approx(190.85, abs=0.01)
    for elo in (-300.0, 0.0, 120.0, 500.0):
        assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo)


@pytest.mark.parametrize("wins, draws, losses", [(30, 2, 8), (20, 0, 20), (3, 5, 12), (1, 0, 0), (7, 3, 0)])
def test_interval_contains_estimate(wins: int, draws: int, losses: int) -> None:
    """The 95% interval brackets the point estimate."""
    stats = match_stats(wins, draws, losses)
    assert stats.elo_low <= stats.elo <= stats.elo_high
    assert stats.games == wins + draws + losses


def test_interval_narrows_with_more_games() -> None:
    """Ten times the games at the same score: a narrower interval."""
    few, many = match_stats(7, 0, 3), match_stats(70, 0, 30)
    assert few.elo == pytest.approx(many.elo)
    assert many.elo_high - many.elo_low < few.elo_high - few.elo_low


def test_sweeps_are_clamped_and_said_so() -> None:
    """100% and 0% give finite Elo, flagged as clamped, with a real interval."""
    sweep = match_stats(10, 0, 0)
    assert sweep.clamped and sweep.score == 1.0
    assert 0 < sweep.elo < ELO_CAP and sweep.elo_low < sweep.elo
    assert "clamped" in sweep.summary()
    zero = match_stats(0, 0, 10)
    assert zero.clamped and zero.elo == pytest.approx(-sweep.elo)
    assert not match_stats(9, 1, 0).clamped


def test_results_list_and_bad_values() -> None:
    """Per-game results give the same as counts; other values are refused."""
    assert stats_from_results([1, 1, 0.5, 0]) == match_stats(2, 1, 1)
    with pytest.raises(ValueError):
        stats_from_results([0.3])
    with pytest.raises(ValueError):
        match_stats(-1, 0, 0)


def test_five_numbers_are_min_quartiles_and_max() -> None:
    assert five_numbers([5]) == (5, 5, 5, 5, 5)
    assert five_numbers([9, 1, 5, 3, 7]) == (1, 3, 5, 7, 9)
    assert five_numbers(range(101)) == (0, 25, 50, 75, 100)
    with pytest.raises(ValueError):
        five_numbers([])


def test_score_spread_sorts_each_game_into_higher_and_lower() -> None:
    spread = score_spread([(7000, 3000), (2000, 9000), (5000, 5000)])
    assert spread.games == 3
    assert spread.higher == (5000, 5000, 7000, 9000, 9000)
    assert spread.lower == (2000, 2000, 3000, 5000, 5000)
    assert spread.margin == (0, 0, 4000, 7000, 7000)
    assert spread.summary().splitlines()[2] == "margin: min 0  q1 0  median 4000  q3 7000  max 7000"
    with pytest.raises(ValueError):
        score_spread([(1, 2, 3)])      # three players: nothing to compare
