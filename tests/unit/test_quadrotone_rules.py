"""Quadrotone's moves: placing and arranging chips, the limits, the
reversal rule at exactly half and just over, scoring through moves, the
notation, undo and random play."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from tessera import i18n
from tessera.core import registry  # noqa: F401  (registers the game's strings)
from tessera.core.game import IllegalMoveError, NotationError
from tessera.core.rng import SeededRandom
from tessera.games.quadrotone import Quadrotone
from tessera.games.quadrotone.chips import parse_chip, rotate
from tessera.games.quadrotone.field import parse_square
from tessera.games.quadrotone.notation import ARRANGE, PLACE
from tessera.games.quadrotone.limits import ARRANGE_LIMITS, PLACE_LIMITS
from tessera.games.quadrotone.sampler import random_move


def sq(name: str) -> int:
    square = parse_square(name)
    assert square is not None
    return square


def chip(text: str) -> int:
    value = parse_chip(text)
    assert value is not None
    return value


def own_chip(game: Quadrotone, wanted: str | None = None) -> str:
    """A chip of the side to move (``wanted`` if it holds it, else any)."""
    from tessera.games.quadrotone.chips import chip_text
    hand = game.hands[game.to_move]
    if wanted is not None and chip(wanted) in hand:
        return wanted
    return chip_text(min(hand))


def reason(game: Quadrotone, text: str) -> str:
    return game.illegal_reason(game.parse_move(text)).key


def test_the_deal_and_the_first_player_follow_the_seed() -> None:
    games = [Quadrotone(seed=s) for s in range(10)]
    assert {g.to_move for g in games} == {0, 1}
    for game in games:
        assert len(game.hands[0]) == len(game.hands[1]) == 128
        assert game.to_move == game.first_player
    assert Quadrotone(seed=4).hands == Quadrotone(seed=4).hands


def test_placing_chips() -> None:
    game = Quadrotone(seed=1)
    mover = game.to_move
    a, b = sorted(game.hands[mover])[:2]
    move = game.parse_move(f"{i18n_free(a)}@a1,{i18n_free(b)}r1@p16")
    game.push(move)
    assert game.chip_at(sq("a1")) == a and game.chip_at(sq("p16")) == rotate(b, 1)
    assert a not in game.hands[mover] and b not in game.hands[mover]
    assert game.limits_left(mover)[0][1] == PLACE_LIMITS[2] - 1   # one two-chip placement used
    assert game.to_move == 1 - mover


def i18n_free(value: int) -> str:
    from tessera.games.quadrotone.chips import chip_text
    return chip_text(value)


def test_placements_that_are_refused() -> None:
    game = Quadrotone(seed=2)
    mine = sorted(game.hands[game.to_move])
    theirs = sorted(game.hands[1 - game.to_move])
    assert reason(game, f"{i18n_free(theirs[0])}@a1") == "illegal.quadrotone.not_in_hand"
    assert reason(game, f"{i18n_free(mine[0])}@a1,{i18n_free(mine[1])}@a1") == "illegal.quadrotone.twice"
    game.push(game.parse_move(f"{i18n_free(mine[0])}@a1"))
    other = sorted(game.hands[game.to_move])
    assert reason(game, f"{i18n_free(other[0])}@a1") == "illegal.quadrotone.taken"
    with pytest.raises(IllegalMoveError):
        game.push_text(f"{i18n_free(other[0])}@a1")


def test_the_eight_chip_placement_is_allowed_once() -> None:
    game = Quadrotone(seed=3)
    player = game.to_move
    for round_ in range(2):
        hand = sorted(game.hands[player])[:8]
        squares = [r * 16 + c for r, c in zip([round_ * 2] * 8, range(8))]
        move = (PLACE, tuple((c, 0, s) for c, s in zip(hand, squares)))
        if round_ == 0:
            game.push(move)
            game.push(random_move(game, SeededRandom(1)))   # the other player
        else:
            assert game.illegal_reason(move).key == "illegal.quadrotone.place_limit"


def test_arranging_chips_move_swap_turn() -> None:
    game = Quadrotone(seed=5)
    first = own_chip(game)
    game.push_text(f"{first}@c3")
    second = own_chip(game)
    game.push_text(f"{second}@e5")
    game.push_text("c3-e5,e5-c3")                  # a swap, of anyone's chips
    assert game.chip_at(sq("e5")) == chip(first) and game.chip_at(sq("c3")) == chip(second)
    assert reason(game, "a1-b1") == "illegal.quadrotone.no_chip"
    assert reason(game, "c3-e5") == "illegal.quadrotone.target_taken"
    game.push_text("e5-h8r2")
    assert game.chip_at(sq("h8")) == rotate(chip(first), 2) and game.chip_at(sq("e5")) is None


def test_a_turn_that_changes_nothing_is_refused_and_turns_are_written_the_short_way() -> None:
    game = Quadrotone(seed=6)
    mover = game.to_move
    one_colour = next(c for c in game.hands[mover] if len(set(i18n_free(c))) == 1)
    game.push(game.parse_move(f"{i18n_free(one_colour)}r3@d4"))
    assert game.move_text(game.move_stack[-1]) == f"{i18n_free(one_colour)}@d4"   # r3 looks like r0
    game.push(random_move(game, SeededRandom(2), place_share=1.0))
    assert game.to_move == mover
    assert reason(game, "d4r2") == "illegal.quadrotone.changes_nothing"
    assert reason(game, "d4r1") == "illegal.quadrotone.changes_nothing"


def two_colour_half_chip(game: Quadrotone) -> str:
    """A chip of the side to move whose half turn changes exactly two of its squares (RRRG-like: no)."""
    for c in sorted(game.hands[game.to_move]):
        text = i18n_free(c)
        turned = i18n_free(rotate(c, 2))
        if sum(1 for x, y in zip(text, turned) if x != y) == 2:
            return text
    raise AssertionError("no such chip")


def test_reversal_at_exactly_half_and_just_over() -> None:
    """The opponent's last move left one chip (4 squares): a turn changing
    2 of them is exactly half (legal), one changing 3 or 4 is more (refused);
    moving the chip away empties all 4 (refused)."""
    game = Quadrotone(seed=7)
    half = two_colour_half_chip(game)
    game.push_text(f"{half}@h8")
    assert game.check(game.parse_move("h8r2")) is None               # exactly 50%: allowed
    full = next(i18n_free(c) for c in sorted(game.hands[game.to_move])
                if sum(1 for x, y in zip(i18n_free(c), i18n_free(rotate(c, 1))) if x != y) >= 3)
    game2 = Quadrotone(seed=7)
    game2.hands[game2.to_move].add(chip(full))   # a chip that a quarter turn changes in 3 or 4 squares
    game2.push_text(f"{full}@h8")
    assert reason(game2, "h8r1") == "illegal.quadrotone.reversal"     # just over half
    assert reason(game2, "h8-a1") == "illegal.quadrotone.reversal"    # all four squares emptied


def test_reversal_counts_the_opponent_move_only() -> None:
    game = Quadrotone(seed=8)
    full = next(i18n_free(c) for c in sorted(game.hands[game.to_move])
                if sum(1 for x, y in zip(i18n_free(c), i18n_free(rotate(c, 1))) if x != y) == 4)
    game.push_text(f"{full}@h8")
    game.push_text(f"{own_chip(game)}@a1")
    game.push_text(f"{own_chip(game)}@b1")
    mover = game.to_move
    assert game.check(game.parse_move("h8-p16")) is None   # the previous move (b1) did not touch h8
    game.push_text("a1-c1")                    # the second player moves their own chip
    assert game.to_move == 1 - mover
    assert game.check(game.parse_move("h8r1")) is None   # the opponent's last move did not touch h8


def test_scoring_and_no_repeat_through_moves() -> None:
    """A chip of one colour on its own is the square4 pattern: it scores;
    moved elsewhere it scores again; moved back to where it scored, it does not."""
    game = Quadrotone(seed=9)
    player = game.to_move
    mono = next(c for c in game.hands[player] if len(set(i18n_free(c))) == 1)
    game.push_text(f"{i18n_free(mono)}@d4")
    square_points = next(p for p in __import__("tessera.games.quadrotone.catalog", fromlist=["catalog"]).catalog().one_colour if p.key == "square4").points
    assert game.scores()[player] == square_points
    assert [s.occurrence.variant.pattern.key for s in game.last_scored] == ["square4"]
    game.push_text(f"{own_chip(game)}@p1")
    game.push_text("d4-k10")
    assert game.scores()[player] == 2 * square_points
    game.push_text(f"{own_chip(game)}@p2")
    game.push_text("k10-d4")
    assert game.scores()[player] == 2 * square_points     # that place already scored (2.14)


def test_notation_round_trip_and_refusals() -> None:
    game = Quadrotone(seed=10)
    for text in ("RRGB@d5", "RRGBr1@d5,GBYY@e5", "d5-e7", "d5-e7r2", "a1r1"):
        move = game.parse_move(text)
        assert game.move_text(move) == game.move_text(game.parse_move(game.move_text(move)))
    for bad in ("", "RRGX@d5", "RRGB@q1", "RRGB@a17", "a1-", "a1-b", ",".join(["a1r1"] * 9), "x" * 500, None, 5):
        with pytest.raises(NotationError):
            game.parse_move(bad)  # type: ignore[arg-type]
    assert game.parse_typed("RRGB @ d5") == game.parse_move("RRGB@d5")


def test_every_refusal_is_worded_in_both_languages() -> None:
    keys = ["illegal.quadrotone." + k for k in ("place_limit", "arrange_limit", "twice", "not_in_hand", "taken",
                                                "no_chip", "target_taken", "changes_nothing", "reversal")]
    for key in keys:
        for lang in ("en", "ru"):
            assert i18n.t(key, lang) != key, (key, lang)


@pytest.mark.parametrize("seed", range(4))
def test_random_games_keep_their_limits_and_undo_exactly(seed: int) -> None:
    game = Quadrotone(seed=seed)
    rng = SeededRandom(seed)
    positions = [game.position()]
    while not game.is_over() and game.ply < 160:
        move = random_move(game, rng)
        assert move is not None
        text = game.move_text(move)
        assert game.parse_move(text) == move
        game.push(move)
        positions.append(game.position())
        for player in (0, 1):
            placing, arranging = game.limits_left(player)
            assert min(placing) >= 0 and min(arranging) >= 0
        placed = sum(1 for c in game.chip_on if c is not None)
        assert placed + len(game.hands[0]) + len(game.hands[1]) == 256
    replay = Quadrotone(seed=seed)
    for move in game.move_stack:
        replay.push(replay.parse_move(game.move_text(move)))
    assert replay.position() == game.position() and replay.scores() == game.scores()
    while game.ply:
        game.pop()
        assert game.position() == positions[game.ply]
    assert game.scores() == (0, 0) and not game.scored_keys


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_fuzzed_move_text_is_a_move_or_our_error(text: str) -> None:
    game = Quadrotone(seed=1)
    try:
        move = game.parse_move(text)
    except NotationError:
        return
    assert move[0] in (PLACE, ARRANGE, "expired")
    game.check(move)   # never raises


def test_limits_tables() -> None:
    assert PLACE_LIMITS[1:] == (128, 7, 6, 5, 4, 3, 2, 1)
    assert ARRANGE_LIMITS[1:] == (8, 7, 6, 5, 4, 3, 2, 1)


def test_the_command_line_replays_a_game_and_will_not_count_moves(tmp_path) -> None:
    import io
    import json

    from tessera import cli
    from tessera.core.record import Record
    game = Quadrotone(seed=12)
    rng = SeededRandom(3)
    for _ in range(20):
        game.push(random_move(game, rng))
    path = tmp_path / "q.json"
    path.write_text(Record.from_game(game).dumps())
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["replay", str(path), "--json"], out, err) == 0, err.getvalue()
    data = json.loads(out.getvalue())
    assert data["position"] == game.position() and data["scores"] == list(game.scores())
    assert data["legal_moves"] == [] and data["legal_moves_listed"] is False
    assert cli.main(["perft", "quadrotone", "1"], io.StringIO(), err) == 2


@pytest.mark.parametrize("seed", range(3))
def test_the_position_string_reads_back(seed: int) -> None:
    game = Quadrotone(seed=seed)
    rng = SeededRandom(seed + 40)
    for _ in range(30 + 20 * seed):
        game.push(random_move(game, rng))
    text = game.position()
    copy = Quadrotone(seed=seed, setup=text)
    assert copy.position() == text
    assert copy.hands == game.hands and copy.field == game.field and copy.to_move == game.to_move
    assert copy.limits_left(0) == game.limits_left(0) and copy.scored_keys == game.scored_keys
    probe = SeededRandom(7)
    for _ in range(20):   # the same moves are legal in both, the reversal rule included
        move = random_move(game, probe)
        assert copy.check(move) == game.check(move)
        if game.last_squares:
            start = game.last_squares[0]
            turn = game.parse_move(f"{game.move_text(('arrange', ((start, start, 1),)))}")
            assert copy.check(turn) == game.check(turn)


def test_bad_positions_raise_our_error() -> None:
    from tessera.core.game import PositionError
    good = Quadrotone(seed=2)
    rng = SeededRandom(1)
    for _ in range(10):
        good.push(random_move(good, rng))
    text = good.position()
    fields = text.split()
    bads = ["", "x", text + " extra", text.replace("first", "third").replace("second", "third"),
            " ".join(fields[:2] + ["1:x"] + fields[3:]), " ".join(fields[:3] + ["9,9,9,9,9,9,9,9/" * 3 + "0"] + fields[4:]),
            " ".join(fields[:4] + ["bar3.0.99.1"] + fields[5:]), " ".join(fields[:5] + ["first:q99"]),
            text[:100] + "X" + text[101:], "a" * 300_000]
    rows = fields[0].split("/")
    first_chip = next(row[i:i + 5] for row in rows for i in range(0, 80, 5) if row[i] != ".")
    bads.append(" ".join(["/".join([first_chip * 16] + rows[1:])] + fields[1:]))   # a chip twice
    rng = SeededRandom(5)
    for _ in range(150):   # random edits of a real position
        chars = list(text)
        for _ in range(1 + rng.below(3)):
            chars[rng.below(len(chars))] = "RGBY.0123/ :,-x9"[rng.below(16)]
        bads.append("".join(chars))
    for bad in bads:
        try:
            Quadrotone(seed=2, setup=bad)
        except PositionError:
            continue
        # An edit may still be a valid position; then it must read back the same.
        assert Quadrotone(seed=2, setup=Quadrotone(seed=2, setup=bad).position()).position() == \
            Quadrotone(seed=2, setup=bad).position()


def test_scores_at_the_end_after_a_resignation_or_an_agreed_draw() -> None:
    from tessera.core.game import Outcome
    game = Quadrotone(seed=3)
    game.points = [120, 300]
    assert game.scores_at_end(Outcome(0, "resign")) == (301, 300)   # the winner behind gets the loser's + 1
    assert game.scores_at_end(Outcome(1, "resign")) == (120, 300)   # ahead already: own points
    assert game.scores_at_end(Outcome(None, "draw_agreed")) == (300, 300)
    assert game.scores_at_end(Outcome(1, "limits")) == (120, 300)


def test_the_reverse_variant_starts_covered_and_ramps_up() -> None:
    from tessera.games.quadrotone.limits import REVERSE_LIMITS
    game = Quadrotone({"variant": "reverse"}, seed=4)
    assert all(c is not None for c in game.chip_on) and not game.hands[0] and not game.hands[1]
    assert len({c[0] for c in game.chip_on if c is not None}) == 256
    player = game.to_move
    assert reason(game, "RRRR@a1") == "illegal.quadrotone.reverse_no_placing"
    assert reason(game, "a1-b1,b1-a1") == "illegal.quadrotone.ramp"     # two chips only from the 3rd move
    rng = SeededRandom(4)
    made = 0
    while made < 2:
        if game.to_move == player:
            made += 1
        game.push(random_move(game, rng))
    while game.to_move != player:
        game.push(random_move(game, rng))
    # The player's 3rd move: two chips now, three not yet.
    two = next(m for m in (game.parse_move(f"{a}-{b},{b}-{a}") for a, b in (("a1", "b1"), ("c3", "d4"), ("p16", "o15")))
               if game.check(m) is None)
    assert game.check(two) is None
    assert reason(game, "a1-b1,b1-c1,c1-a1") == "illegal.quadrotone.ramp"
    game.push(two)
    assert game.limits_left(player)[1][1] == REVERSE_LIMITS[2] - 1
    text = game.position()
    assert Quadrotone({"variant": "reverse"}, seed=4, setup=text).position() == text


def test_reverse_games_play_to_the_end_of_their_limits() -> None:
    from tessera.games.quadrotone.limits import REVERSE_LIMITS
    game = Quadrotone({"variant": "reverse"}, seed=5)
    rng = SeededRandom(5)
    while not game.is_over() and game.ply < 400:
        game.push(random_move(game, rng))
    assert game.is_over()
    assert game.ply <= 2 * sum(REVERSE_LIMITS)


def test_time_running_out_passes_the_turn_and_four_in_a_row_end_the_game() -> None:
    """Between two people on one device a turn whose time runs out passes
    (the clock plays ``expired``); four in a row end the game on points;
    against the bot the human's expiry resigns."""
    from tessera.core.clock import TimeControl
    from tessera.core.game import Outcome
    from tessera.core.seats import Seat
    from tessera.core.session import Session

    now = [0.0]
    game = Quadrotone(seed=21)
    session = Session(game, [Seat("human"), Seat("human")], time_control=TimeControl(total=60, per_move=10),
                      now=lambda: now[0])
    first = game.to_move
    session.play(game.parse_move(f"{own_chip(game)}@a1"))
    now[0] += 11.0                                   # no clock runs before a side's first move
    assert session.check_time() is None and game.to_move == 1 - first
    session.play(game.parse_move(f"{own_chip(game)}@c1"))
    now[0] += 11.0                                   # the first player's move time runs out
    assert session.check_time() is None and session.game.move_stack[-1] == game.parse_move("expired")
    assert game.to_move == 1 - first and game.expiries_in_row == 1
    session.play(game.parse_move(f"{own_chip(game)}@b1"))
    assert game.expiries_in_row == 0
    for _ in range(4):
        now[0] += 11.0
        session.check_time()
    assert game.expiries_in_row == 4 and game.outcome() == Outcome(0 if game.points[0] > game.points[1] else
                                                                   1 if game.points[1] > game.points[0] else None,
                                                                   "expiries")
    text = game.position()
    while game.ply:
        game.pop()
    assert game.expiries_in_row == 0
    with pytest.raises(NotationError):
        game.parse_typed("expired")
    assert "expired" not in text.split()[0]
    assert game.on_time_expired(0, hot_seat=False) == Outcome(1, "resign")


def test_chains_and_fences_score_through_moves_and_undo_exactly() -> None:
    """Random games with chains and fences on: some score, the position
    string keeps their memory, undo clears it; with both off the same moves
    score only patterns."""
    seen_chain = seen_fence = False
    for seed in range(6):
        game = Quadrotone(seed=seed)
        plain = Quadrotone({"chains": False, "fences": False}, seed=seed)
        rng = SeededRandom(seed + 9)
        for _ in range(120):
            if game.is_over():
                break
            move = random_move(game, rng, place_share=0.9)
            before = game.points[game.to_move]
            mover = game.to_move
            game.push(move)
            found, fence = game.last_regions
            extra = sum(c.points for c in found) + (fence.points if fence else 0)
            patterns = sum(s.points for s in game.last_scored)
            assert game.points[mover] - before == patterns + extra
            seen_chain |= bool(found)
            seen_fence |= fence is not None and fence.points > 0
            if not plain.is_over() and plain.to_move == mover and plain.check(move) is None:
                plain.push(move)
        assert Quadrotone(seed=seed, setup=game.position()).position() == game.position()
        while game.ply:
            game.pop()
        assert not game.chain_keys and not game.fenced_cells and game.points == [0, 0]
    assert seen_chain and seen_fence


def test_copy_is_independent_and_equal_to_a_replay() -> None:
    game = Quadrotone(seed=13)
    rng = SeededRandom(13)
    for _ in range(40):
        game.push(random_move(game, rng))
    clone = game.copy()
    assert clone.position() == game.position() and clone.move_stack == game.move_stack
    replayed = Quadrotone(seed=13)
    for move in game.move_stack:
        replayed.push(move)
    assert replayed.position() == clone.position()
    clone.push(random_move(clone, SeededRandom(1)))
    assert clone.position() != game.position() and game.ply == 40
    while clone.ply > 30:
        clone.pop()
    while game.ply > 30:
        game.pop()
    assert clone.position() == game.position()
