"""Property tests for the Dots engine against a slow reference model.

``Reference`` is a second, deliberately naive reading of the rules: dicts
keyed by (x, y), every enclosure found by flooding the whole field from its
edge after every move, no tags, no lock-step floods, no undo log.  Its
region is found by drawing, not by walking a chain (``region_geometry``):
the capturer's live dots and the links between them are drawn as walls on
a finer grid, and the region is the face holding the enclosed component
together with everything that face cuts off from the outside, where a
single point of contact (a chain touching itself at one dot) does not
count as a way out.  So a pocket of own dots touching the chain is inside,
as the ruling says, and the chain dots are the points the outside still
reaches.  The engine instead cuts its boundary walk down to the one simple
loop (``field.simple_loop``); the two share nothing but the rule text.

The differential tests play random games on both and compare every point's
dot and region owner, both scores and the chains of the regions made after
every move; the score is recounted from scratch as the enemy dots inside
each player's regions.  Hand-drawn pictures pin the reference's fine-grid
constants and the engine's chain on the hard shapes.

Budgets are small: these tests also run in Pyodide under Node (about three
times slower than CPython).
"""

from __future__ import annotations

import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tessera.core.record import Record
from tessera.core.rng import SeededRandom
from tessera.games.dots import LAND, Dots
from tessera.games.dots.chains import inside_of_loop, trace_chain
from tessera.games.dots.sgf import from_sgf, to_sgf

FOUR = ((1, 0), (-1, 0), (0, 1), (0, -1))

SCALE = 6
"""Fine cells per step of the field.  An outside inlet between two diagonal
runs of the chain is half a diagonal wide: after the erosion at least two
cells of it must stay 4-connected, which takes 5 or more ("outside inlet"
picture; at 4 the inlet closes and its chain dots look inside)."""
CHAIN_REACH = 3
"""A point of the region with a U cell this close (Chebyshev, in fine cells)
is a chain dot.  The narrowest outside wedge at a chain dot (45 degrees, one
side diagonal) keeps its nearest U cell 3 cells away ("notch" picture); a
point inside that is not in the component is at least a whole step from the
chain, which keeps U more than 3 cells away (7 in practice)."""
LINKS = ((1, 0), (0, 1), (1, 1), (1, -1))


def region_geometry(walls: set, area: set) -> tuple[set, set]:
    """(inside, chain) of the region around ``area``, drawn with a pen.

    ``walls`` are the capturer's live dots; ``area`` is the enclosed
    component.  In the plane, with every live dot and every link between
    two 8-adjacent live dots drawn: F is the face holding the area; F and
    its edge cut the plane into pieces, and U is the piece that reaches far
    away.  The region is everything but U (a pocket that the chain touches
    at one dot is cut off from U by that dot), and its points on U's edge
    are the chain.  On a grid SCALE times finer, restricted to the area's
    bounding box grown by 2 (the chain is within 1 of the area): walls are
    cells, F is a 4-connected flood from the area, F's edge is the cells
    touching F (8 neighbours), U is a 4-connected flood from the window's
    frame through everything else, and a point is on U's edge when a U cell
    lies within CHAIN_REACH of it.
    """
    xs = [x for x, _ in area]
    ys = [y for _, y in area]
    x0, y0 = min(xs) - 2, min(ys) - 2
    x1, y1 = max(xs) + 2, max(ys) + 2
    width = SCALE * (x1 - x0) + 1
    height = SCALE * (y1 - y0) + 1

    def fine(x: int, y: int) -> tuple[int, int]:
        return SCALE * (x - x0), SCALE * (y - y0)

    wall = [bytearray(width) for _ in range(height)]
    window = {(x, y) for (x, y) in walls if x0 <= x <= x1 and y0 <= y <= y1}
    for x, y in window:
        fx, fy = fine(x, y)
        wall[fy][fx] = 1
        for dx, dy in LINKS:
            if (x + dx, y + dy) in window:
                for k in range(1, SCALE):
                    wall[fy + k * dy][fx + k * dx] = 1
    face = [bytearray(width) for _ in range(height)]
    fx, fy = fine(*next(iter(area)))
    face[fy][fx] = 1
    stack = [(fx, fy)]
    while stack:
        cx, cy = stack.pop()
        for dx, dy in FOUR:
            nx, ny = cx + dx, cy + dy
            assert 0 < nx < width - 1 and 0 < ny < height - 1, "the face of an enclosed area stays inside"
            if not face[ny][nx] and not wall[ny][nx]:
                face[ny][nx] = 1
                stack.append((nx, ny))
    near = [bytearray(width) for _ in range(height)]
    for cy in range(height):
        row = face[cy]
        for cx in range(width):
            if row[cx]:
                for ny in (cy - 1, cy, cy + 1):
                    near_row = near[ny]
                    near_row[cx - 1] = near_row[cx] = near_row[cx + 1] = 1
    outside = [bytearray(width) for _ in range(height)]
    stack = [(cx, cy) for cx in range(width) for cy in (0, height - 1)]
    stack += [(cx, cy) for cy in range(1, height - 1) for cx in (0, width - 1)]
    for cx, cy in stack:
        outside[cy][cx] = 1
    while stack:
        cx, cy = stack.pop()
        for dx, dy in FOUR:
            nx, ny = cx + dx, cy + dy
            if 0 <= nx < width and 0 <= ny < height and not outside[ny][nx] and not near[ny][nx]:
                outside[ny][nx] = 1
                stack.append((nx, ny))
    inside, chain = set(), set()
    for x in range(x0, x1 + 1):
        for y in range(y0, y1 + 1):
            fx, fy = fine(x, y)
            if outside[fy][fx]:
                continue
            if (x, y) not in area and any(
                    outside[ny][nx]
                    for ny in range(max(0, fy - CHAIN_REACH), min(height, fy + CHAIN_REACH + 1))
                    for nx in range(max(0, fx - CHAIN_REACH), min(width, fx + CHAIN_REACH + 1))):
                chain.add((x, y))
            else:
                inside.add((x, y))
    return inside, chain


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

    def live_dots(self, player: int) -> set:
        return {p for p in self.dot if self.live(player, p)}

    def capture(self, player: int, area: set, walls: set) -> set:
        """Make the region around ``area`` with chains of ``walls`` (the live
        dots when the move was made: regions closed by one move are judged
        on the same position, 5.9); returns its chain dots."""
        inside, chain = region_geometry(walls, area)
        assert chain <= walls, "a chain links live dots"
        for p in inside:
            self.owner[p] = player
        return chain

    def place(self, p, player: int) -> list[set]:
        """Put a dot; returns the chains of the regions made, as sets."""
        enemy = 1 - player
        chains = []
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
            walls = self.live_dots(player)
            holding = [comp for comp in comps if any(self.live(enemy, q) for q in comp)]
            for comp in holding:
                chains.append(self.capture(player, comp, walls))
                captured = True
        if not captured:
            enemy_enclosed = self.enclosed_by(enemy)
            if p in enemy_enclosed:
                area = self.component(p, enemy_enclosed)
                chains.append(self.capture(enemy, area, self.live_dots(enemy)))
        return chains

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


# ----- the region geometry on hand-drawn pictures ------------------------------
REGION_PICTURES = {
    "pinch pocket holding a house": """
        . . # # # . .
        . # x x x # .
        . # x o x x #
        . . # , o x #
        . # x o x x #
        . # x x x # .
        . . # # # . .
    """,
    "pinch pocket of dots only": """
        . . # # # . .
        . # x x x # .
        . # x o x x #
        . . # o o x #
        . # x o x x #
        . # x x x # .
        . . # # # . .
    """,
    "pocket touching the chain at two dots stays out": """
        . . # # # . .
        . # x x x # .
        # x x x x x #
        # x # # # x #
        B # . . . # B
        B . B B B . B
        . B . . . B .
        . . B B B . .
    """,
    "notch with a 45 degree outside wedge": """
        . # # # # .
        # x x x x #
        # x x x x #
        # x # x x #
        . # # x x #
        . . . # # .
    """,
    "outside inlet half a diagonal wide": """
        B # # # # # # B
        # x x x x x x #
        # x x x # # x #
        # x x # # x x #
        # x # # x x x #
        B # B B # # # B
    """,
    "thick walls": """
        . . . B . . .
        . . B # B . .
        . B # x # B .
        B # x x x # B
        . B # x # B .
        . . B # B . .
        . . . B . . .
    """,
    "dot inside on a diagonal link to a cut corner": """
        B # # # # B
        # x x x x #
        # x x x x #
        # x o x x #
        . # x x x #
        . . # # # B
    """,
    "spike two dots deep and an island": """
        B # # B # # B
        # x x # x x #
        # x x o x x #
        # x o x x x #
        # x x x x x #
        B # # # # # B
    """,
}
"""``#`` the capturer's dot on the chain, ``o`` its dot inside (excluded),
``B`` its dot outside, ``x`` a point of the enclosed component, ``,`` a
point inside that is not in the component, ``.`` outside.  Bottom row y=1."""


def read_region_picture(picture: str) -> tuple[set, set, set, set]:
    """(live dots, component, expected inside, expected chain) of a picture."""
    rows = [row.replace(" ", "") for row in picture.strip().splitlines()]
    walls, area, inside, chain = set(), set(), set(), set()
    for i, row in enumerate(rows):
        for j, char in enumerate(row):
            point = (j + 3, len(rows) - i + 2)
            if char in "#oB":
                walls.add(point)
            if char == "x":
                area.add(point)
            if char in "xo,":
                inside.add(point)
            if char == "#":
                chain.add(point)
    return walls, area, inside, chain


def test_region_pictures_are_closed_components():
    """Each picture's ``x`` points are one 4-connected component walled in by its dots."""
    for name, picture in REGION_PICTURES.items():
        walls, area, _inside, _chain = read_region_picture(picture)
        start = min(area)
        seen, stack = {start}, [start]
        while stack:
            x, y = stack.pop()
            for dx, dy in FOUR:
                q = (x + dx, y + dy)
                if q not in area:
                    assert q in walls, (name, q)
                elif q not in seen:
                    seen.add(q)
                    stack.append(q)
        assert seen == area, name


@pytest.mark.parametrize("name", list(REGION_PICTURES))
def test_reference_geometry_on_pictures(name):
    """The reference's pen-and-paper region gives the hand-drawn answer."""
    walls, area, inside, chain = read_region_picture(REGION_PICTURES[name])
    assert region_geometry(walls, area) == (inside, chain)


@pytest.mark.parametrize("name", list(REGION_PICTURES))
def test_engine_chain_on_pictures(name):
    """The engine's simple chain and its inside give the hand-drawn answer."""
    walls, area, inside, chain = read_region_picture(REGION_PICTURES[name])
    stride = 30
    traced = trace_chain({y * stride + x for x, y in area}, stride)
    assert len(set(traced)) == len(traced), "the chain passes each dot once"
    assert {(c % stride, c // stride) for c in traced} == chain
    assert {(c % stride, c // stride) for c in inside_of_loop(traced, stride)} == inside


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), percent=st.integers(35, 70))
def test_engine_chain_matches_the_reference_geometry_on_any_dots(seed, percent):
    """Random patterns of live dots on 10x10, far denser and stranger than
    play makes: for every component they enclose, the engine's simple chain
    and its inside are the reference's drawn region."""
    rng = SeededRandom(seed)
    dots = {(x, y) for x in range(1, 11) for y in range(1, 11) if rng.below(100) < percent}
    open_points = {(x, y) for x in range(12) for y in range(12)} - dots
    outside, stack = {(0, 0)}, [(0, 0)]
    while stack:
        x, y = stack.pop()
        for dx, dy in FOUR:
            q = (x + dx, y + dy)
            if q in open_points and q not in outside:
                outside.add(q)
                stack.append(q)
    enclosed = open_points - outside
    stride = 30
    while enclosed:
        start = enclosed.pop()
        area, stack = {start}, [start]
        while stack:
            x, y = stack.pop()
            for dx, dy in FOUR:
                q = (x + dx, y + dy)
                if q in enclosed:
                    enclosed.discard(q)
                    area.add(q)
                    stack.append(q)
        chain = trace_chain({y * stride + x for x, y in area}, stride)
        assert len(set(chain)) == len(chain), "the chain passes each dot once"
        engine = ({(c % stride, c // stride) for c in inside_of_loop(chain, stride)},
                  {(c % stride, c // stride) for c in chain})
        assert engine == region_geometry(dots, area), sorted(area)


def assert_same(game: Dots, ref: Reference, context: str) -> None:
    for x, y in ref.points():
        expected = (ref.dot.get((x, y), -1), ref.owner.get((x, y), -1))
        assert game.point_state(x, y) == expected, f"{context}: point {x}-{y}"
    assert game.scores() == ref.scores(), context


def assert_same_chains(game: Dots, before: int, chains: list[set], context: str) -> None:
    """The regions the engine made this move have the reference's chains,
    and each chain passes every dot once."""
    made = []
    for region in game.field.regions[before:]:
        chain = region.chain(game.field.stride)
        assert len(set(chain)) == len(chain), f"{context}: a chain passes a dot twice"
        made.append(sorted(game.xy(c) for c in chain))
    assert sorted(made) == sorted(sorted(chain) for chain in chains), context


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


IN_PYODIDE = sys.platform == "emscripten"
"""Whole games against the reference are about 3x slower in Pyodide: fewer there check the same engine."""
PROFILE = settings(max_examples=3 if IN_PYODIDE else 8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
starts = st.sampled_from(["cross", "empty", "four_crosses"])


def play_against_reference(game: Dots, seed: int, land_at: int | None) -> None:
    """Random moves on ``game``; after each one the reference must agree."""
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
        before = len(game.field.regions)
        game.push_unchecked(move)
        chains = ref.place(game.xy(move), player)
        assert_same(game, ref, f"after {game.ply} moves")
        assert_same_chains(game, before, chains, f"after {game.ply} moves")
    assert_house_tags_complete(game)


@PROFILE
@given(seed=st.integers(0, 2**32), start=starts, land_at=st.one_of(st.none(), st.integers(30, 400)))
def test_engine_matches_reference_move_by_move(seed, start, land_at):
    """Every move on 20x20 leaves the same dots, regions, chains and scores as the reference."""
    play_against_reference(Dots({"size": "20x20", "start": start}), seed, land_at)


@settings(max_examples=8 if IN_PYODIDE else 20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), land_at=st.one_of(st.none(), st.integers(20, 140)))
def test_engine_matches_reference_on_a_small_field(seed, land_at):
    """The same on a full 12x12 field from empty."""
    play_against_reference(Dots({"size": "12x12", "start": "empty"}), seed, land_at)


@settings(max_examples=2 if IN_PYODIDE else 4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_regions_on_the_big_field_match_the_reference(seed):
    """On 39x32 (too big to follow every move) every move that makes a
    region is replayed on a reference built from the position before it."""
    game = Dots()
    rng = SeededRandom(seed)
    while not game.is_over():
        player = game.to_move
        move = rng.choice(game.placements())
        before = len(game.field.regions)
        game.push_unchecked(move)
        if len(game.field.regions) == before:
            continue
        game.pop()
        ref = Reference(game)
        game.push_unchecked(move)
        chains = ref.place(game.xy(move), player)
        assert_same(game, ref, f"after {game.ply} moves")
        assert_same_chains(game, before, chains, f"after {game.ply} moves")


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
