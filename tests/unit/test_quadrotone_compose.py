"""Composing a Quadrotone move on the board: picking, turning, dropping,
picking up again, moving, swapping and turning field chips, and the move
a draft makes."""

from __future__ import annotations

from tessera.core.rng import SeededRandom
from tessera.games.quadrotone import Quadrotone
from tessera.games.quadrotone.chips import rotate
from tessera.games.quadrotone.compose import Draft, as_move, cycle_hand, tap, take_back, turn
from tessera.games.quadrotone.field import parse_square
from tessera.games.quadrotone.sampler import random_move


def sq(name: str) -> int:
    value = parse_square(name)
    assert value is not None
    return value


def hand_chip(game: Quadrotone, distinct_looks: int = 4) -> int:
    return next(c for c in sorted(game.hands[game.to_move]) if len({rotate(c, t) for t in range(4)}) == distinct_looks)


def test_placing_three_chips_with_turns_and_a_pick_up() -> None:
    game = Quadrotone(seed=1)
    chips = [c for c in sorted(game.hands[game.to_move]) if len({rotate(c, t) for t in range(4)}) == 4][:3]
    draft = Draft()
    draft = tap(game, draft, ("hand", chips[0]))
    draft = tap(game, draft, ("hand", chips[0]))              # a second tap turns it
    assert draft.held == ("hand", chips[0], 1)
    draft = tap(game, draft, sq("d4"))
    draft = turn(game, tap(game, draft, ("hand", chips[1])))  # R turns the chip held
    draft = tap(game, draft, sq("e4"))
    draft = tap(game, tap(game, draft, ("hand", chips[2])), sq("f4"))
    draft = tap(game, draft, sq("e4"))                         # picked up again...
    assert draft.held == ("hand", chips[1], 1) and len(draft.items) == 2
    draft = tap(game, draft, sq("e5"))                         # ...and dropped elsewhere
    move = as_move(game, draft)
    assert game.check(move) is None
    assert game.move_text(move) == game.move_text(game.parse_move(game.move_text(move)))
    assert sorted(s for _, _, s in move[1]) == sorted([sq("d4"), sq("e5"), sq("f4")])
    game.push(move)
    assert game.chip_at(sq("d4")) == rotate(chips[0], 1)


def test_field_chips_move_swap_and_turn() -> None:
    game = Quadrotone(seed=2)
    rng = SeededRandom(3)
    for _ in range(6):
        game.push(random_move(game, rng, place_share=1.0))
    occupied = [s for s in range(256) if game.chip_on[s] is not None]
    empty = next(s for s in range(256) if game.chip_on[s] is None)
    a, b, c = occupied[:3]
    draft = tap(game, Draft(), a)
    draft = tap(game, draft, empty)                 # a moves to an empty square
    draft = tap(game, tap(game, draft, b), c)       # b and c swap
    assert draft.kind == "arrange" and {(s, e) for s, e, _ in draft.items} == {(a, empty), (b, c), (c, b)}
    draft = turn(game, draft)                        # the last chip turns
    move = as_move(game, draft)
    assert len(move[1]) == 3
    assert draft.held is not None                   # the turned chip stays held
    draft = take_back(draft)                        # lets go of it
    assert draft.held is None and len(draft.items) == 3
    draft = take_back(draft)                        # then the last item goes
    assert len(draft.items) == 2


def test_a_hand_chip_cannot_join_an_arrangement_and_turning_back_empties_the_draft() -> None:
    game = Quadrotone(seed=4)
    game.push(game.parse_move(f"{__import__('tessera.games.quadrotone.chips', fromlist=['chip_text']).chip_text(hand_chip(game))}@h8"))
    game.push(random_move(game, SeededRandom(1), place_share=1.0))
    target = sq("h8") if game.chip_on[sq("h8")] is not None else None
    assert target is not None
    draft = tap(game, Draft(), target)
    for _ in range(4):                               # four quarter turns: back to how it lies
        draft = tap(game, draft, target)
    assert draft.items == () and draft.kind is None
    draft = tap(game, draft, target)
    assert draft.kind == "arrange"
    assert tap(game, draft, ("hand", hand_chip(game))) == draft


def test_no_more_than_eight_chips() -> None:
    game = Quadrotone(seed=5)
    draft = Draft()
    for index, chip in enumerate(sorted(game.hands[game.to_move])[:9]):
        draft = tap(game, tap(game, draft, ("hand", chip)), index)
    assert len(draft.items) == 8


def test_the_keyboard_plays_a_two_chip_move() -> None:
    """] and [ hold the next and previous hand chip (skipping those dropped),
    the arrows move the cursor over the field, Enter drops the chip held."""
    from tessera.games.quadrotone.view import FIELD_CENTRE, QuadrotoneView

    game = Quadrotone(seed=3)
    hand = sorted(game.hands[game.to_move])
    draft = cycle_hand(hand, Draft(), 1)
    assert draft.held == ("hand", hand[0], 0)
    assert cycle_hand(hand, draft, -1).held == ("hand", hand[-1], 0)          # wraps round
    assert cycle_hand(hand, Draft(), -1).held == ("hand", hand[-1], 0)
    view = QuadrotoneView()
    assert FIELD_CENTRE == sq("h8")
    right = view.step_cell(FIELD_CENTRE, 1, 0)
    assert right == sq("i8") and view.step_cell(right, 0, -1) == sq("i9")     # up the screen is up the rows
    assert view.step_cell(sq("a1"), -1, 1) == sq("a1")                        # stays on the field
    assert view.step_cell(sq("p16"), 1, -1) == sq("p16")
    draft = tap(game, draft, FIELD_CENTRE)                                   # Enter on h8
    draft = cycle_hand(hand, draft, 1)                                       # hand[0] is down: hand[1]
    assert draft.held == ("hand", hand[1], 0)
    draft = tap(game, draft, right)
    assert view.selection_cursor(draft) == right
    move = as_move(game, draft)
    assert game.check(move) is None and game.move_text(move).count("@") == 2
    arranging = Draft(kind="arrange", items=((FIELD_CENTRE, right, 1),))
    assert cycle_hand(hand, arranging, 1) == arranging                       # one kind of move at a time
