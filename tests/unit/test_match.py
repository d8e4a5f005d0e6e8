"""Matches (core.match): the toss, who starts each game, points and the
tie-break, as RULINGS.md "Corners" rules them, and saved matches read back
or refused whole."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, strategies as st

from tessera.core.match import THROWS, Match, MatchError, round_winner, seeded_round


def test_each_throw_beats_exactly_one_other() -> None:
    for throw in THROWS:
        assert sum(round_winner(throw, other) == 0 for other in THROWS) == 1
        assert round_winner(throw, throw) is None
    assert round_winner("rock", "scissors") == 0
    assert round_winner("rock", "paper") == 1
    assert round_winner("paper", "scissors") == 1


def test_seeded_round_is_never_a_tie_and_both_sides_win_some_seeds() -> None:
    winners = set()
    for seed in range(40):
        a, b = seeded_round(seed)
        assert seeded_round(seed) == (a, b)
        winner = round_winner(a, b)
        assert winner is not None
        winners.add(winner)
    assert winners == {0, 1}


def test_the_toss_winner_starts_game_one_and_the_other_game_two() -> None:
    match = Match(2, ("human", "bot:hard"))
    assert match.add_round("rock", "rock") is None      # a tie: again
    assert match.first_starter is None
    assert match.add_round("paper", "scissors") == 1    # B wins the toss
    assert match.seat_players(0) == (1, 0)
    assert match.seat_specs(0) == ["bot:hard", "human"]
    assert match.seat_players(1) == (0, 1)
    with pytest.raises(MatchError):
        match.add_round("rock", "paper")                # decided already


def test_points_one_per_win_half_for_a_draw() -> None:
    match = Match(2, ("human", "human"))
    match.add_round("rock", "scissors")                 # A starts game 1 (seat 0)
    match.record((10, 7), 0)                            # A wins game 1
    match.record((5, 5), None)                          # draw: B in seat 0 now
    assert match.points() == (1.5, 0.5)
    assert match.differences() == (3, -3)
    assert match.winner() == 0 and not match.decided_by_tiebreak()


def test_equal_points_split_by_the_sum_of_differences() -> None:
    match = Match(2, ("human", "human"))
    match.add_round("scissors", "paper")                # A starts game 1
    match.record((12, 4), 0)                            # A +8
    match.record((9, 6), 0)                             # game 2: B sits in seat 0 and wins by 3
    assert match.points() == (1.0, 1.0)
    assert match.differences() == (5, -5)
    assert match.winner() == 0 and match.decided_by_tiebreak()


def test_equal_points_and_differences_is_a_drawn_match() -> None:
    match = Match(2, ("human", "human"))
    match.add_round("paper", "rock")
    match.record((8, 6), 0)
    match.record((8, 6), 0)
    assert match.winner() is None and match.is_over()


def test_no_game_after_the_last() -> None:
    match = Match(1, ("human", "human"))
    match.add_round("paper", "rock")
    match.record((1, 0), 0)
    with pytest.raises(MatchError):
        match.record((1, 0), 0)


@given(st.lists(st.tuples(st.sampled_from(THROWS), st.sampled_from(THROWS)), min_size=1, max_size=5),
       st.lists(st.tuples(st.integers(0, 64), st.integers(0, 64)), max_size=2))
def test_a_match_survives_its_save(rounds, scores) -> None:
    match = Match(2, ("human", "bot:easy"), seed=len(rounds))
    for a, b in rounds:
        if match.first_starter is not None:
            break
        match.add_round(a, b)
    if match.first_starter is not None:
        for pair in scores:
            winner = None if pair[0] == pair[1] else (0 if pair[0] > pair[1] else 1)
            match.record(pair, winner)
    back = Match.from_json(json.loads(json.dumps(match.to_json())))
    assert back.to_json() == match.to_json()
    assert back.points() == match.points() and back.winner() == match.winner()


BAD_SAVES = [
    None, [], "match", {"games": 2}, {"games": 0, "players": ["a", "b"], "rounds": [], "results": []},
    {"games": True, "players": ["a", "b"], "rounds": [], "results": []},
    {"games": 10**9, "players": ["a", "b"], "rounds": [], "results": []},
    {"games": 2, "players": ["a"], "rounds": [], "results": []},
    {"games": 2, "players": ["a", "b"], "rounds": [["rock", "lizard"]], "results": []},
    {"games": 2, "players": ["a", "b"], "rounds": [], "results": [{"starter": 0, "scores": [1, 0], "winner": 0}]},
    {"games": 2, "players": ["a", "b"], "rounds": [["rock", "paper"]],
     "results": [{"starter": 0, "scores": [1, 0], "winner": 0}]},      # B won the toss, so B started
    {"games": 2, "players": ["a", "b"], "rounds": [["rock", "paper"]],
     "results": [{"starter": 1, "scores": [1, 0], "winner": 5}]},
    {"games": 2, "players": ["a", "b"], "rounds": [["rock", "paper"], ["rock", "paper"]], "results": []},
    {"games": 1, "players": ["a", "b"], "rounds": [["rock", "paper"]],
     "results": [{"starter": 1, "scores": [1, 0], "winner": 0}] * 2},
]


@pytest.mark.parametrize("data", BAD_SAVES)
def test_a_bad_save_is_refused_with_our_error(data) -> None:
    with pytest.raises(MatchError) as info:
        Match.from_json(data)
    assert info.value.key.startswith("error.match.")


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda children: st.lists(children, max_size=4)
                    | st.dictionaries(st.sampled_from(["games", "players", "rounds", "results", "starter",
                                                       "scores", "winner", "x"]), children, max_size=5),
                    max_leaves=20))
def test_fuzzed_saves_raise_only_match_errors(data) -> None:
    try:
        Match.from_json(data)
    except MatchError:
        pass
