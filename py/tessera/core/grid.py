"""Grid geometry the five game views share: fitting a board into a drawing
and finding which point or cell a tap is on.

Every board is a grid of lines (Quadrature's and Dots' points) or of cells
(Corners', Abatis' and Quadrotone's squares) with a margin round it for the
coordinates.  ``Grid`` is that shape in grid units: how wide and tall the
whole drawing is (``span_x``, ``span_y``, margins included) and where the
first point or cell starts (``margin_x``, ``margin_y``).  ``fit`` centres
it in a drawing of any size; ``point_at`` and ``cell_at`` turn a pixel into
screen grid coordinates (column and row from the top left), which each view
then turns into its own cells (a flipped board, Dots' x-y, Abatis' lanes).
Pure arithmetic: the views, their tests and the picture renderer use it alike.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Grid:
    span_x: float
    span_y: float
    """The whole drawing, margins included, in grid units (a point spacing or a cell)."""
    margin_x: float
    margin_y: float
    """From the drawing's edge to the first point (or the first cell's edge), in grid units."""

    def fit(self, width: float, height: float) -> tuple[float, float, float]:
        """(x, y, unit): the first point's (or cell corner's) pixel and the grid unit,
        the grid as large as fits and centred."""
        unit = min(width / self.span_x, height / self.span_y)
        left = (width - self.span_x * unit) / 2 + self.margin_x * unit
        top = (height - self.span_y * unit) / 2 + self.margin_y * unit
        return left, top, unit

    def point_at(self, width: float, height: float, x: float, y: float, columns: int, rows: int,
                 tolerance: float) -> tuple[int, int] | None:
        """The point (column, row from the top left) within ``tolerance`` units of (x, y), or None."""
        left, top, unit = self.fit(width, height)
        if unit <= 0:
            return None
        fx, fy = (x - left) / unit, (y - top) / unit
        column, row = round(fx), round(fy)
        if not (0 <= column < columns and 0 <= row < rows):
            return None
        if (fx - column) ** 2 + (fy - row) ** 2 > tolerance * tolerance:
            return None
        return column, row

    def cell_at(self, width: float, height: float, x: float, y: float, columns: int,
                rows: int) -> tuple[int, int] | None:
        """The cell (column, row from the top left) holding (x, y), or None outside the grid."""
        left, top, unit = self.fit(width, height)
        if unit <= 0 or x < left or y < top:
            return None
        column, row = int((x - left) // unit), int((y - top) // unit)
        return (column, row) if column < columns and row < rows else None
