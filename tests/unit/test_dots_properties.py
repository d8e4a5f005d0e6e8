"""Property tests for the Dots engine against a slow reference model.

``Reference`` is a second, deliberately naive reading of the rules: dicts
keyed by (x, y), every enclosure found by flooding the whole field from its
edge after every move, holes filled by a whole-field 8-connected flood, no
tags, no lock-step floods, no undo log.  The differential test plays random
games on both and compares every point's dot and region owner and both
scores after every move; the score is recounted from scratch as the enemy
dots inside each player's regions.

Budgets are small: these tests also run in Pyodide under Node (about three
times slower than CPython).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tessera.core.record import Record
from tessera.core.rng import SeededRandom
from tessera.games.dots import LAND, Dots
from tessera.games.dots.sgf import from_sgf, to_sgf

FOUR = ((1, 0), (-1, 0), (0, 1), (0, -1))
EIGHT = FOUR + ((1, 1), (1, -1), (-1, 1), (-1, -1))


class Reference:
    """Dots from scratch on dicts: slow and obviously close to the text."""

    def __init__(self, game: Dots) -> None:
        self.w, self.h = game.width, game.height
        self.dot: dict[tuple[int, int], int] = {}
        self.owner: dict[tuple[int, int], int] = {}
        for x in range(1, self.w + 1):
            for y in range(1, self.h + 1):
                d, o = game.point_state(x, y)
                if d >= 0:
                    self.dot[(x, y)] = d
                if o >= 0:
                    self.owner[(x, y)] = o

    def points(self):
        return [(x, y) for x in range(1, self.w + 1) for y in range(1, self.h + 1)]

    def on_field(self, p) -> bool:
        return 1 <= p[0] <= self.w and 1 <= p[1] <= self.h

    def live(self, player: int, p) -> bool:
        return self.dot.get(p) == player and p not in self.owner

    def enclosed_by(self, player: int) -> set:
        """Points not live for ``player`` that cannot reach the edge through
        points not live for ``player`` (orthogonal steps)."""
        open_points = [p for p in self.points() if not self.live(player, p)]
        reach = {p for p in open_points if p[0] in (1, self.w) or p[1] in (1, self.h)}
        stack = list(reach)
        while stack:
            x, y = stack.pop()
            for dx, dy in FOUR:
                q = (x + dx, y + dy)
                if self.on_field(q) and q not in reach and not self.live(player, q):
                    reach.add(q)
                    stack.append(q)
        return {p for p in open_points if p not in reach}

    def component(self, start, inside: set) -> set:
        seen = {start}
        stack = [start]
        while stack:
            x, y = stack.pop()
            for dx, dy in FOUR:
                q = (x + dx, y + dy)
                if q in inside and q not in seen:
                    seen.add(q)
                    stack.append(q)
        return seen

    def filled(self, area: set) -> set:
        """``area`` and everything it surrounds: points an 8-connected walk
        from outside the field cannot reach without entering ``area``."""
        outside = set()
        stack = [(0, 0)]
        outside.add((0, 0))
        while stack:
            x, y = stack.pop()
            for dx, dy in EIGHT:
                q = (x + dx, y + dy)
                if 0 <= q[0] <= self.w + 1 and 0 <= q[1] <= self.h + 1 and q not in outside and q not in area:
                    outside.add(q)
                    stack.append(q)
        return {p for p in self.points() if p not in outside}

    def capture(self, player: int, area: set) -> None:
        for p in self.filled(area):
            self.owner[p] = player

    def place(self, p, player: int) -> None:
        enemy = 1 - player
        before = self.enclosed_by(player)
        self.dot[p] = player
        after = self.enclosed_by(player)
        x, y = p
        adjacent = [(x + dx, y + dy) for dx, dy in FOUR if (x + dx, y + dy) in after]
        comps = []
        for q in adjacent:
            if not any(q in c for c in comps):
                comps.append(self.component(q, after))
        split = p not in before or len(comps) >= 2
        captured = False
        if split:
            for comp in comps:
                if any(self.live(enemy, q) for q in comp):
                    self.capture(player, comp)
                    captured = True
        if not captured:
            enemy_enclosed = self.enclosed_by(enemy)
            if p in enemy_enclosed:
                self.capture(enemy, self.component(p, enemy_enclosed))

    def land(self, player: int) -> None:
        grounded = set()
        stack = [p for p in self.points()
                 if (p[0] in (1, self.w) or p[1] in (1, self.h)) and self.live(player, p)]
        grounded.update(stack)
        while stack:
            x, y = stack.pop()
            for dx, dy in FOUR:
                q = (x + dx, y + dy)
                if q not in grounded and self.on_field(q) and (self.live(player, q) or self.owner.get(q) == player):
                    grounded.add(q)
                    stack.append(q)
        for p in self.points():
            if p not in grounded and (self.live(player, p) or self.owner.get(p) == player):
                self.owner[p] = 1 - player

    def scores(self) -> tuple[int, int]:
        score = [0, 0]
        for p, o in self.owner.items():
            if p in self.dot and self.dot[p] != o:
                score[o] += 1
        return score[0], score[1]


def assert_same(game: Dots, ref: Reference, context: str) -> None:
    for x, y in ref.points():
        expected = (ref.dot.get((x, y), -1), ref.owner.get((x, y), -1))
        assert game.point_state(x, y) == expected, f"{context}: point {x}-{y}"
    assert game.scores() == ref.scores(), context


def assert_house_tags_complete(game: Dots) -> None:
    """Every point enclosed by a player's live dots carries its house tag."""
    field = game.field
    for player in (0, 1):
        enclosed = field.enclosed(player)
        for c in field.cells:
            if enclosed[c] and not field.owner[c]:
                assert field.house[player][c], f"untagged enclosed point {field.xy(c)}"


def random_game(seed: int, start: str, land_at: int | None, limit: int | None = None) -> Dots:
    game = Dots({"size": "20x20", "start": start})
    rng = SeededRandom(seed)
    while not game.is_over() and (limit is None or game.ply < limit):
        if land_at is not None and game.ply == land_at:
            game.push(LAND)
            break
        game.push_unchecked(rng.choice(game.placements()))
    return game


PROFILE = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
starts = st.sampled_from(["cross", "empty", "four_crosses"])


@PROFILE
@given(seed=st.integers(0, 2**32), start=starts, land_at=st.one_of(st.none(), st.integers(30, 400)))
def test_engine_matches_reference_move_by_move(seed, start, land_at):
    """Every move leaves the same dots, regions and scores as the reference."""
    game = Dots({"size": "20x20", "start": start})
    ref = Reference(game)
    rng = SeededRandom(seed)
    while not game.is_over():
        player = game.to_move
        if game.ply == land_at:
            game.push(LAND)
            ref.land(player)
            assert_same(game, ref, f"landing at ply {game.ply}")
            break
        placements = game.placements()
        free = {p for p in ref.points() if p not in ref.dot and p not in ref.owner}
        assert {game.xy(m) for m in placements} == free, "only free, non-excluded points are offered"
        move = rng.choice(placements)
        assert game.is_free(*game.xy(move)), "a dot is never placed on an excluded or occupied point"
        game.push_unchecked(move)
        ref.place(game.xy(move), player)
        assert_same(game, ref, f"after {game.ply} moves")
    assert_house_tags_complete(game)


@PROFILE
@given(seed=st.integers(0, 2**32), start=starts)
def test_house_tags_cover_every_enclosure(seed, start):
    """The house hints never miss an enclosed point (checked every 25 moves)."""
    game = Dots({"size": "20x20", "start": start})
    rng = SeededRandom(seed)
    while not game.is_over():
        game.push_unchecked(rng.choice(game.placements()))
        if game.ply % 25 == 0:
            assert_house_tags_complete(game)


@PROFILE
@given(seed=st.integers(0, 2**32), start=starts, land_at=st.one_of(st.none(), st.integers(10, 300)))
def test_pop_restores_every_position(seed, start, land_at):
    """Popping every move gives back each earlier position string exactly."""
    game = Dots({"size": "20x20", "start": start})
    rng = SeededRandom(seed)
    history = [game.position()]
    while not game.is_over():
        if game.ply == land_at:
            game.push(LAND)
        else:
            game.push_unchecked(rng.choice(game.placements()))
        history.append(game.position())
    while game.move_stack:
        assert game.position() == history[game.ply]
        game.pop()
    assert game.position() == history[0]
    # the field's internal arrays are back too: replaying gives the same end
    replay = random_game(seed, start, land_at)
    assert replay.position() == history[-1]


@PROFILE
@given(seed=st.integers(0, 2**32), start=starts, land_at=st.one_of(st.none(), st.integers(10, 300)),
       cut=st.integers(0, 400))
def test_record_position_and_sgf_round_trips(seed, start, land_at, cut):
    """A tessera/1 record, the position string and SGF all give back the same state."""
    game = random_game(seed, start, land_at, limit=cut)
    record = Record.loads(Record.from_game(game).dumps())
    replayed = Dots(record.options, record.seed, record.setup)
    for text in record.moves:
        replayed.push_text(text)
    assert replayed.position() == game.position()
    assert replayed.scores() == game.scores() and replayed.outcome() == game.outcome()
    again = Dots(game.options, setup=game.position())
    assert again.position() == game.position()
    assert again.scores() == game.scores() and again.outcome() == game.outcome()
    if not again.is_over():
        assert sorted(again.legal_moves()) == sorted(game.legal_moves())
    imported, _meta = from_sgf(to_sgf(game))
    assert imported.position() == game.position()
    copy = game.copy()
    assert copy.position() == game.position()
    if not copy.is_over():
        move = copy.placements()[0]
        copy.push(move)
        game.push(move)
        assert copy.position() == game.position()


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_full_field_games_end_with_a_full_field(seed):
    """A random game on 39x32 never crashes and ends with no free point left."""
    game = Dots()
    game.random_fill(SeededRandom(seed))
    outcome = game.outcome()
    assert outcome is not None and outcome.reason == "field_full"
    assert game.legal_moves() == [] and game.placements() == []
    blue, red = game.scores()
    assert outcome.winner == (0 if blue > red else 1 if red > blue else None)
