"""Abatis: properties of random play (hypothesis) and fuzzed readers.

Games are drawn as (mode, seed, a list of choices), each choice picking one
of the legal moves, so hypothesis can shrink a failure to a short game.
Chip conservation is counted without the engine's help: every chip is on
the board, in a queue (always 64), in the stack or in a removed block,
except the ones the stack's top-ups drew.  The number of draws is read off
the seeded generator: SplitMix64 adds one fixed odd constant to its state
per number, so the state change divided by that constant (mod 2**64) counts
the numbers drawn.
"""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from tessera.core.game import NotationError, PositionError
from tessera.games.abatis import Abatis

GAMMA = 0x9E3779B97F4A7C15
GAMMA_INVERSE = pow(GAMMA, -1, 1 << 64)
MASK = (1 << 64) - 1

modes = st.sampled_from(["classic", "knockout", "mixed"])
seeds = st.integers(min_value=0, max_value=2 ** 32)
choices = st.lists(st.integers(min_value=0, max_value=10 ** 6), max_size=30)


def play(game: Abatis, picks: list[int]) -> list[str]:
    """Push one legal move per pick; the move texts."""
    texts = []
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            break
        move = moves[pick % len(moves)]
        texts.append(game.move_text(move))
        game.push(move)
    return texts


def full_state(game: Abatis) -> tuple:
    return (game.position(), game.rng.state, game.level, game.level_start, game.colours, game.statistics(),
            game.ply, game.undo_floor(), game.legal_moves())


def chips_in_play(game: Abatis) -> int:
    board = sum(1 for cell in range(64) if game.chip(cell)[0])
    queues = sum(1 for side in range(4) for lane in range(8) for depth in (0, 1) if game.queue_chip(side, lane, depth))
    assert queues == 64
    return board + queues + len(game.stack)


@settings(max_examples=40, deadline=None)
@given(modes, seeds, choices)
def test_random_play_keeps_the_game_consistent(mode: str, seed: int, picks: list[int]) -> None:
    game = Abatis({"mode": mode}, seed=seed)
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            assert game.is_over() and game.outcome().reason == "no_moves"
            break
        assert len(set(moves)) == len(moves)
        game.push(moves[pick % len(moves)])
        assert game.chips_on_board() > 0 and len(game.stack) >= 3
        assert 0 <= game.level_blocks < 64
        assert all(game.chip(cell)[0] <= game.colours for cell in range(64))


@settings(max_examples=40, deadline=None)
@given(modes, seeds, choices)
def test_chips_are_conserved_within_a_level(mode: str, seed: int, picks: list[int]) -> None:
    game = Abatis({"mode": mode}, seed=seed)
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            break
        before, state, level = chips_in_play(game), game.rng.state, game.level
        game.push(moves[pick % len(moves)])
        if game.level != level:
            continue
        drawn = ((game.rng.state - state) * GAMMA_INVERSE) & MASK
        removed = sum(len(cells) for kind, blocks in game.last_steps if kind == "remove" for cells, _, _ in blocks)
        assert chips_in_play(game) + removed == before + drawn


@settings(max_examples=30, deadline=None)
@given(modes, seeds, choices)
def test_replaying_the_move_texts_gives_the_same_game(mode: str, seed: int, picks: list[int]) -> None:
    game = Abatis({"mode": mode}, seed=seed)
    texts = play(game, picks)
    again = Abatis({"mode": mode}, seed=seed)
    for text in texts:
        again.push_text(text)
    assert full_state(again) == full_state(game)


@settings(max_examples=30, deadline=None)
@given(modes, seeds, choices)
def test_a_position_read_back_gives_the_same_position_and_moves(mode: str, seed: int, picks: list[int]) -> None:
    game = Abatis({"mode": mode}, seed=seed)
    play(game, picks)
    text = game.position()
    again = Abatis({"mode": mode}, seed=seed, setup=text)
    assert again.position() == text
    assert again.legal_moves() == game.legal_moves()


@settings(max_examples=30, deadline=None)
@given(modes, seeds, choices, choices)
def test_a_copy_is_independent(mode: str, seed: int, picks: list[int], more: list[int]) -> None:
    game = Abatis({"mode": mode}, seed=seed)
    play(game, picks)
    original, original_ply = full_state(game), game.ply
    clone = game.copy()
    assert full_state(clone) == original
    texts = play(clone, more)
    assert full_state(game) == original
    for text in texts:
        game.push_text(text)
    assert full_state(game) == full_state(clone)
    while clone.ply > original_ply:
        clone.pop()
    assert full_state(clone) == original


@settings(max_examples=40, deadline=None)
@given(modes, seeds, choices)
def test_push_then_pop_restores_everything(mode: str, seed: int, picks: list[int]) -> None:
    game = Abatis({"mode": mode}, seed=seed)
    history = []
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            break
        history.append(full_state(game))
        game.push(moves[pick % len(moves)])
    while history:
        game.pop()
        assert full_state(game) == history.pop()


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400))
def test_any_text_as_a_position_raises_only_position_error(text: str) -> None:
    try:
        game = Abatis({"mode": "classic"}, setup=text)
    except PositionError:
        return
    assert Abatis({"mode": "classic"}, setup=game.position()).position() == game.position()


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_edited_positions_raise_only_position_error(data: st.DataObject) -> None:
    """A real position with characters replaced, inserted or cut away."""
    text = Abatis({"mode": "mixed"}, seed=data.draw(seeds)).position()
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        edit = data.draw(st.sampled_from(["cut", "replace", "insert"]))
        piece = data.draw(st.text(alphabet="RGBYPOCMWKZ.+^v<>/ -0123456789\n\t", max_size=3))
        if edit == "cut":
            text = text[:at]
        elif edit == "replace":
            text = text[:at] + piece + text[at + len(piece):]
        else:
            text = text[:at] + piece + text[at:]
    try:
        game = Abatis({"mode": "classic"}, setup=text)
    except PositionError:
        return
    assert Abatis({"mode": "classic"}, setup=game.position()).position() == game.position()


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=40), st.integers(), st.none(), st.lists(st.text(max_size=3), max_size=2)))
def test_any_move_text_is_a_move_or_a_notation_error(value: object) -> None:
    game = Abatis({"mode": "mixed"}, seed=1)
    for reader in (game.parse_move, game.parse_typed):
        try:
            move = reader(value)
        except NotationError:
            continue
        assert isinstance(move, int) and 0 <= move < 64
        assert game.parse_typed(game.move_text(move)) == move
