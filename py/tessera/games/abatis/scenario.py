"""Scenarios and the level plan: how many colours and layout chips a level has.

RULINGS.md: a scenario is (mode, min colours, max colours, levels per colour
step).  The first level uses the minimum; after each ``step`` levels one
colour more, up to the maximum; after the last step at the maximum the
colours start again at the minimum in a harder circle.  A level's layout has
``12 + 4 x (levels passed at this colour count in this circle) + 8 x
(completed circles)`` chips, at most 40.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from .geometry import MAX_COLOURS, MIN_COLOURS

MODES = ("classic", "knockout", "mixed")
DEFAULT_SCENARIO = ("classic", 5, 8, 5)
"""The document's first-run setting: Classic, 5 to 8 colours, one more every 5 levels."""
LEVELS_PER_STEP = tuple(range(1, 11))
COLOUR_COUNTS = tuple(range(MIN_COLOURS, MAX_COLOURS + 1))
MAX_LAYOUT_CHIPS = 40


@dataclass(frozen=True)
class Scenario:
    mode: str
    low: int
    high: int
    step: int

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> "Scenario":
        return cls(options["mode"], options["colours_min"], options["colours_max"], options["levels_per_colour"])

    @property
    def key(self) -> str:
        """Stable text naming the scenario (its high-score table): ``classic-5-8-5``."""
        return f"{self.mode}-{self.low}-{self.high}-{self.step}"

    @property
    def levels_per_circle(self) -> int:
        return (self.high - self.low + 1) * self.step

    def circle(self, level: int) -> int:
        """Completed circles before ``level`` (0-based)."""
        return level // self.levels_per_circle

    def colours(self, level: int) -> int:
        return self.low + (level % self.levels_per_circle) // self.step

    def layout_chips(self, level: int) -> int:
        passed_at_this_count = (level % self.levels_per_circle) % self.step
        return min(MAX_LAYOUT_CHIPS, 12 + 4 * passed_at_this_count + 8 * self.circle(level))
