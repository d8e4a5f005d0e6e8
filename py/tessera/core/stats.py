"""Match statistics: score fraction, Elo difference and its 95% interval.

The Elo difference of a score fraction p is ``-400 log10(1/p - 1)``.  The
interval comes from the normal approximation over the per-game results
(1, 1/2, 0): p +/- 1.96 standard errors, each end converted to Elo.  A
score of 0% or 100% has no finite Elo, so it is clamped to half a game from
the edge and the result says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

Z95 = 1.959963984540054
ELO_CAP = 1200.0
"""Elo values are cut to +/- this, far beyond any meaningful small match."""


def elo_from_score(p: float) -> float:
    """Elo difference for a score fraction in (0, 1), capped at +/- ELO_CAP."""
    if p <= 0.0:
        return -ELO_CAP
    if p >= 1.0:
        return ELO_CAP
    return max(-ELO_CAP, min(ELO_CAP, -400.0 * math.log10(1.0 / p - 1.0)))


def score_from_elo(elo: float) -> float:
    """Expected score fraction of the stronger side of an Elo difference."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass(frozen=True)
class MatchStats:
    wins: int
    draws: int
    losses: int
    score: float          # fraction in [0, 1], draws counted half
    elo: float
    elo_low: float
    elo_high: float
    clamped: bool         # True when 0% or 100% was moved off the edge

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def summary(self) -> str:
        """``+3 =1 -0  score 87.5%  Elo +338 [+84, +1200]`` (95% interval)."""
        text = (f"+{self.wins} ={self.draws} -{self.losses}  score {100.0 * self.score:.1f}%  "
                f"Elo {self.elo:+.0f} [{self.elo_low:+.0f}, {self.elo_high:+.0f}] (95%)")
        if self.clamped:
            text += "  (a 0% or 100% score has no finite Elo: clamped to half a game from the edge)"
        return text


def match_stats(wins: int, draws: int, losses: int) -> MatchStats:
    """Statistics of a match from the first player's wins, draws and losses."""
    if min(wins, draws, losses) < 0:
        raise ValueError("counts must not be negative")
    n = wins + draws + losses
    if n == 0:
        return MatchStats(0, 0, 0, 0.5, 0.0, -ELO_CAP, ELO_CAP, False)
    score = (wins + 0.5 * draws) / n
    clamped = score <= 0.0 or score >= 1.0
    edge = 0.5 / n
    p = min(max(score, edge), 1.0 - edge)
    # Per-game results 1, 1/2, 0 around the mean (population variance).
    variance = (wins * (1.0 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / n
    if variance == 0.0:
        # All games alike: use the variance of the clamped fraction instead,
        # so a sweep still gets an honest, wide interval.
        variance = p * (1.0 - p)
    half = Z95 * math.sqrt(variance / n)
    low = min(max(p - half, 0.0), p)
    high = max(min(p + half, 1.0), p)
    return MatchStats(wins, draws, losses, score, elo_from_score(p),
                      elo_from_score(low), elo_from_score(high), clamped)


def stats_from_results(results: Iterable[float]) -> MatchStats:
    """The same from a list of per-game results (1, 0.5 or 0)."""
    wins = draws = losses = 0
    for result in results:
        if result == 1.0:
            wins += 1
        elif result == 0.5:
            draws += 1
        elif result == 0.0:
            losses += 1
        else:
            raise ValueError(f"a game result must be 1, 0.5 or 0, not {result!r}")
    return match_stats(wins, draws, losses)


# ----- how final points spread ---------------------------------------------------------

FIVE = ("min", "q1", "median", "q3", "max")


def five_numbers(values: Iterable[int]) -> tuple[int, int, int, int, int]:
    """Minimum, quartiles (nearest rank) and maximum of ``values`` (at least one)."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values")
    last = len(ordered) - 1
    return tuple(ordered[round(share * last)] for share in (0.0, 0.25, 0.5, 0.75, 1.0))  # type: ignore[return-value]


@dataclass(frozen=True)
class ScoreSpread:
    """How the final points of two-player games spread, for tuning a points
    table (Quadrotone's catalog "ends a typical game in the thousands"):
    the higher and the lower total of each game and the margin between them."""

    games: int
    higher: tuple[int, int, int, int, int]
    lower: tuple[int, int, int, int, int]
    margin: tuple[int, int, int, int, int]

    def summary(self) -> str:
        """Three lines: ``higher: min 3151  q1 ...  max 7776``, then ``lower``, ``margin``."""
        return "\n".join(f"{name}: " + "  ".join(f"{label} {value}" for label, value in zip(FIVE, numbers))
                         for name, numbers in (("higher", self.higher), ("lower", self.lower),
                                               ("margin", self.margin)))


def score_spread(finals: Iterable[tuple[int, ...]]) -> ScoreSpread:
    """The spread of ``finals``, one tuple of two players' points per game."""
    pairs = [(max(points), min(points)) for points in finals if len(points) == 2]
    if not pairs:
        raise ValueError("no two-player games")
    return ScoreSpread(len(pairs), five_numbers(high for high, _ in pairs), five_numbers(low for _, low in pairs),
                       five_numbers(high - low for high, low in pairs))
