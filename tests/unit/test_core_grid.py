"""The grid geometry the game views share (``core.grid``): a board fits
centred and as large as it can; a tap finds the point near it (within the
tolerance) or the cell under it, and nothing off the grid."""

from __future__ import annotations

import pytest

from tessera.core.grid import Grid


def test_a_square_board_fits_the_smaller_side_centred() -> None:
    grid = Grid(12.0, 12.0, 1.0, 1.0)
    left, top, unit = grid.fit(600.0, 480.0)
    assert unit == 40.0 and top == 40.0 and left == (600 - 480) / 2 + 40


def test_a_wide_board_fits_its_width() -> None:
    left, top, unit = Grid(20.0, 10.0, 0.5, 0.5).fit(400.0, 400.0)
    assert unit == 20.0 and left == 10.0 and top == (400 - 200) / 2 + 10


@pytest.mark.parametrize("width, height", [(300.0, 300.0), (517.0, 333.0), (90.0, 400.0)])
def test_every_point_and_cell_is_found_where_it_is(width: float, height: float) -> None:
    grid = Grid(11.0, 9.0, 1.0, 1.0)
    left, top, unit = grid.fit(width, height)
    for column in range(10):
        for row in range(8):
            x, y = left + column * unit, top + row * unit
            assert grid.point_at(width, height, x + 0.2 * unit, y - 0.2 * unit, 10, 8, 0.35) == (column, row)
            assert grid.point_at(width, height, x + 0.45 * unit, y, 10, 8, 0.35) is None
            assert grid.cell_at(width, height, x + 0.5 * unit, y + 0.5 * unit, 10, 8) == (column, row)
    assert grid.cell_at(width, height, left - 1, top + 1, 10, 8) is None
    assert grid.cell_at(width, height, left + 10 * unit + 1, top + 1, 10, 8) is None
    assert grid.point_at(width, height, left - unit, top, 10, 8, 0.35) is None
