"""A match: a fixed number of games between the same two players.

Corners is played as a match of two games (RULINGS.md "Corners"): rock,
paper, scissors decides who starts game 1, the other player starts game 2;
each game gives its winner 1 point (half each for a draw) and equal match
points are split by the sum of the point differences.  Any two-player game
whose registry entry names ``match_games`` is offered this way; nothing
here knows a game.

Players are "A" and "B" (index 0 and 1): A is whoever sat in the first
seat when the match was set up (the player at this device against a bot
sits as A).  In each game the starting player takes seat 0.  A match
travels in its games' session meta as ``to_json()``; ``from_json`` checks
every field, since a save may be edited or corrupt.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..i18n import MessageError
from .rng import SeededRandom

THROWS = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}
"""What each throw beats."""
MAX_GAMES = 9
"""The most games a match may have (a saved match asking for more is corrupt)."""
MAX_ROUNDS = 50
"""Rock-paper-scissors rounds kept (ties repeat; a save with more is corrupt)."""


class MatchError(MessageError, ValueError):
    """A saved match that cannot be read (a catalog key and its values)."""


def round_winner(throw_a: str, throw_b: str) -> int | None:
    """0 if A's throw wins, 1 if B's, None for a tie."""
    if throw_a == throw_b:
        return None
    return 0 if BEATS[throw_a] == throw_b else 1


def seeded_round(seed: int) -> tuple[str, str]:
    """A round against the bot: a seeded coin toss decides who wins, shown
    as the two throws that give that result (RULINGS.md: the toss, not the
    player's pick, decides, so the bot cannot "read" the player)."""
    rng = SeededRandom(seed)
    winner = rng.below(2)
    winning = THROWS[rng.below(3)]
    losing = BEATS[winning]
    return (winning, losing) if winner == 0 else (losing, winning)


@dataclass(frozen=True)
class GameResult:
    """One finished game of the match, by seat: who sat in seat 0 (the
    starter), the final scores and the winning seat (None: a draw)."""

    starter: int
    scores: tuple[int, int]
    winner_seat: int | None

    def player_points(self, player: int) -> float:
        if self.winner_seat is None:
            return 0.5
        return 1.0 if self.seat_of(player) == self.winner_seat else 0.0

    def seat_of(self, player: int) -> int:
        return 0 if player == self.starter else 1

    def difference(self, player: int) -> int:
        """The player's score minus the opponent's in this game."""
        seat = self.seat_of(player)
        return self.scores[seat] - self.scores[1 - seat]


@dataclass
class Match:
    games: int
    players: tuple[str, str]
    """Each player's seat spec: ``human`` or ``bot:<level>``."""
    rounds: list[tuple[str, str]] = field(default_factory=list)
    """Rock-paper-scissors throws (A's, B's), ties first, the deciding one last."""
    results: list[GameResult] = field(default_factory=list)
    seed: int | None = None
    """The seed of a toss against the bot (``seeded_round``), kept with the match."""

    @property
    def first_starter(self) -> int | None:
        """Who starts game 1: the winner of the last round (None before one)."""
        if not self.rounds:
            return None
        return round_winner(*self.rounds[-1])

    @property
    def index(self) -> int:
        """The game being played (0-based): the number of finished games."""
        return len(self.results)

    def is_over(self) -> bool:
        return len(self.results) >= self.games

    def starter(self, game_index: int) -> int:
        """Who starts game ``game_index``: the round's winner, then alternately."""
        first = self.first_starter
        if first is None:
            raise MatchError("error.match.no_toss")
        return first if game_index % 2 == 0 else 1 - first

    def seat_players(self, game_index: int) -> tuple[int, int]:
        """Which player sits in seat 0 and seat 1 of that game."""
        first = self.starter(game_index)
        return first, 1 - first

    def seat_specs(self, game_index: int) -> list[str]:
        return [self.players[player] for player in self.seat_players(game_index)]

    def add_round(self, throw_a: str, throw_b: str) -> int | None:
        """Record a round; its winner, or None for a tie (play again)."""
        if throw_a not in BEATS or throw_b not in BEATS:
            raise MatchError("error.match.throw")
        if self.first_starter is not None:
            raise MatchError("error.match.toss_done")
        self.rounds.append((throw_a, throw_b))
        return round_winner(throw_a, throw_b)

    def record(self, scores: tuple[int, ...], winner_seat: int | None) -> None:
        """The current game ended with these seat scores and this winner."""
        if self.is_over():
            raise MatchError("error.match.over")
        self.results.append(GameResult(self.starter(self.index), (int(scores[0]), int(scores[1])), winner_seat))

    def points(self) -> tuple[float, float]:
        return (sum(r.player_points(0) for r in self.results), sum(r.player_points(1) for r in self.results))

    def differences(self) -> tuple[int, int]:
        """The tie-break: each player's summed point differences."""
        return (sum(r.difference(0) for r in self.results), sum(r.difference(1) for r in self.results))

    def winner(self) -> int | None:
        """The match's winner once every game is played: more match points,
        then the larger sum of point differences; None for a tie (or not over)."""
        if not self.is_over():
            return None
        points = self.points()
        if points[0] != points[1]:
            return 0 if points[0] > points[1] else 1
        diffs = self.differences()
        if diffs[0] != diffs[1]:
            return 0 if diffs[0] > diffs[1] else 1
        return None

    def decided_by_tiebreak(self) -> bool:
        points = self.points()
        return self.is_over() and points[0] == points[1] and self.winner() is not None

    # ----- saving -------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "games": self.games,
            "players": list(self.players),
            "rounds": [list(pair) for pair in self.rounds],
            "results": [{"starter": r.starter, "scores": list(r.scores), "winner": r.winner_seat}
                        for r in self.results],
        }
        if self.seed is not None:
            data["seed"] = self.seed
        return data

    @classmethod
    def from_json(cls, data: Any) -> "Match":
        """A match from a save, every field checked; MatchError if unusable."""
        if not isinstance(data, dict):
            raise MatchError("error.match.corrupt")
        games = data.get("games")
        players = data.get("players")
        rounds = data.get("rounds")
        results = data.get("results")
        if not (isinstance(games, int) and not isinstance(games, bool) and 1 <= games <= MAX_GAMES):
            raise MatchError("error.match.corrupt")
        if not (isinstance(players, list) and len(players) == 2
                and all(isinstance(p, str) and 0 < len(p) <= 40 for p in players)):
            raise MatchError("error.match.corrupt")
        if not (isinstance(rounds, list) and len(rounds) <= MAX_ROUNDS
                and isinstance(results, list) and len(results) <= games):
            raise MatchError("error.match.corrupt")
        seed = data.get("seed")
        if seed is not None and not (isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed < 1 << 63):
            raise MatchError("error.match.corrupt")
        match = cls(games, (players[0], players[1]), seed=seed)
        for pair in rounds:
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
                raise MatchError("error.match.corrupt")
            try:
                match.add_round(pair[0], pair[1])
            except MatchError:
                raise MatchError("error.match.corrupt") from None
        if results and match.first_starter is None:
            raise MatchError("error.match.corrupt")
        for index, item in enumerate(results):
            if not isinstance(item, dict):
                raise MatchError("error.match.corrupt")
            scores, winner = item.get("scores"), item.get("winner")
            if not (isinstance(scores, list) and len(scores) == 2
                    and all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s <= 10_000 for s in scores)):
                raise MatchError("error.match.corrupt")
            if winner not in (0, 1, None) or isinstance(winner, bool):
                raise MatchError("error.match.corrupt")
            if item.get("starter") != match.starter(index):
                raise MatchError("error.match.corrupt")
            match.record((scores[0], scores[1]), winner)
        return match
