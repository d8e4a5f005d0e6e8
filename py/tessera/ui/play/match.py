"""Matches on the page: the format choice, the rock-paper-scissors round,
the match table and the way from one game to the next.

A game whose registry entry has ``match_games`` (Corners: 2) is offered as
a match in the new-game dialog.  Starting one opens the toss: against the
bot a seeded round drawn by chance and animated (RULINGS.md), between two
people on one device each picks a throw in turn while the other looks
away.  Each game of the match is an ordinary saved session whose
``meta["match"]`` holds the match so far (``core.match``), so a reload
resumes the right game; when a game ends, its result goes into the next
game's copy of the match and the game-over dialog offers the next game.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any, Callable

from ...core import registry
from ...core.match import THROWS, Match, seeded_round
from ...core.session import Seat
from ...i18n import t
from ..dialogs import Dialog, create_game
from ..dom import el, set_text

SHAKE_SECONDS = 0.3
SHAKES = 4


def match_games(game_id: str) -> int:
    return registry.entry(game_id).match_games


def seat_of_spec(spec: str) -> Seat:
    if spec.startswith("bot:"):
        return Seat("bot", spec.split(":", 1)[1])
    return Seat("human")


def is_you(match: Match, player: int) -> bool:
    """Whether ``player`` is the person playing a match against the bot."""
    return (not match.players[player].startswith("bot:")
            and any(other.startswith("bot:") for other in match.players))


def player_label(match: Match, player: int) -> str:
    """"You" and "Bot (Hard)" against the bot; "Player 1" and "Player 2" on one device."""
    spec = match.players[player]
    if spec.startswith("bot:"):
        return t("match.bot", level=t(f"bot.level.{spec.split(':', 1)[1]}"))
    if is_you(match, player):
        return t("match.you")
    return t("match.player", n=player + 1)


def said_of(match: Match, player: int, key: str, **values: Any) -> str:
    """A sentence whose subject is ``player``: the person against the bot has a form of their
    own (``key.you``), since "You" takes another verb than "Player 1" ("You win the toss", not
    "You wins")."""
    if is_you(match, player):
        return t(f"{key}.you", **values)
    return t(key, player=player_label(match, player), **values)


def match_of(session: Any) -> Match | None:
    """The match a session belongs to, or None (also for a corrupt one: the
    game itself still plays; ``session_store`` reports corrupt saves)."""
    data = session.meta.get("match")
    if data is None:
        return None
    try:
        return Match.from_json(data)
    except Exception:  # an edited save: play the game as a single one
        return None


def finished_match(session: Any) -> Match | None:
    """The session's match with this (finished) game's result added."""
    match = match_of(session)
    outcome = session.outcome()
    if match is None or outcome is None or match.is_over():
        return None
    match.record(session.game.scores(), outcome.winner)
    return match


# ----- starting ------------------------------------------------------------------------

def start_match(app: Any, game_id: str, choice: dict[str, str]) -> None:
    """Set up a match from the new-game choices and open its toss."""
    opponent = choice.get("opponent") or "human"
    match = Match(match_games(game_id), ("human", opponent if opponent.startswith("bot:") else "human"))
    TossDialog(app, game_id, choice, match).open()


def play_game(app: Any, game_id: str, choice: dict[str, str], match: Match) -> None:
    """Create and open the match's current game, seats as the match says."""
    seats = [seat_of_spec(spec) for spec in match.seat_specs(match.index)]
    create_game(app, game_id, choice, seats=seats, meta={"match": match.to_json()})


def next_game_action(screen: Any) -> tuple[str, Callable[[], Any]] | None:
    """The game-over dialog's main button in a match with games to go."""
    session = screen.session
    match = finished_match(session)
    if match is None or match.is_over():
        return None
    choice = dict(session.meta.get("choice") or {})
    game_id = session.game.game_id
    return t("match.next", n=match.index + 1), lambda: play_game(screen.app, game_id, choice, match)


# ----- showing --------------------------------------------------------------------------

def _points_text(value: float) -> str:
    whole = int(value)
    return (str(whole) if whole or value == whole else "") + ("½" if value != whole else "")


def match_table(match: Match) -> Any:
    """Players by rows; each game's points, the total and the difference."""
    table = el("table", "match-table", None, {"aria-label": t("match.table_label")})
    def column(short: str, full: str) -> Any:
        """A short heading (the side column is narrow), the full words for
        a pointer's title and a screen reader's label."""
        return el("th", None, None, {"scope": "col", "aria-label": full}, [el("abbr", None, short, {"title": full})])

    head = el("tr")
    head.appendChild(el("th", None, t("match.col.player"), {"scope": "col"}))
    for index in range(match.games):
        head.appendChild(column(t("match.col.game_short", n=index + 1), t("match.col.game", n=index + 1)))
    head.appendChild(column(t("match.col.points_short"), t("match.col.points")))
    head.appendChild(column("±", t("match.col.difference")))
    table.appendChild(el("thead", None, None, None, [head]))
    body = el("tbody")
    points, differences = match.points(), match.differences()
    for player in (0, 1):
        row = el("tr", None, None, {"data-player": str(player)})
        row.appendChild(el("th", None, player_label(match, player), {"scope": "row"}))
        for index in range(match.games):
            cell = ""
            if index < len(match.results):
                cell = _points_text(match.results[index].player_points(player))
            elif index == match.index and match.first_starter is not None:
                cell = "…"
            row.appendChild(el("td", None, cell, {"data-game": str(index + 1)}))
        row.appendChild(el("td", "match-points", _points_text(points[player]) or "0"))
        row.appendChild(el("td", "match-difference", f"{differences[player]:+d}" if match.results else "0"))
        body.appendChild(row)
    table.appendChild(body)
    return table


def match_verdict(match: Match) -> str:
    winner = match.winner()
    if winner is None:
        return t("match.drawn")
    key = "match.won_tiebreak" if match.decided_by_tiebreak() else "match.won"
    return said_of(match, winner, key)


def match_box(session: Any) -> Any | None:
    """The play screen's match panel: which game this is and the table."""
    match = match_of(session)
    if match is None or match.first_starter is None:
        return None
    box = el("section", "match-box", None, {"data-match-game": str(match.index + 1)})
    box.appendChild(el("h2", "match-title", t("match.title") + " · "
                       + t("match.game_of", n=match.index + 1, total=match.games)))
    box.appendChild(match_table(match))
    starter = match.starter(match.index)
    box.appendChild(el("p", "match-note", said_of(match, starter, "match.starts")))
    return box


def game_over_match(session: Any) -> Any | None:
    """What the game-over dialog adds in a match: the table, and the verdict
    once the last game is over."""
    match = finished_match(session)
    if match is None:
        return None
    node = el("div", "match-over", None, {"data-match-over": "yes" if match.is_over() else "no"})
    node.appendChild(match_table(match))
    if match.is_over():
        node.appendChild(el("p", "match-verdict", match_verdict(match)))
    return node


# ----- the toss ------------------------------------------------------------------------

class TossDialog:
    """Rock, paper, scissors for the first move of game 1."""

    def __init__(self, app: Any, game_id: str, choice: dict[str, str], match: Match) -> None:
        self.app = app
        self.game_id = game_id
        self.choice = choice
        self.match = match
        self.against_bot = any(spec.startswith("bot:") for spec in match.players)
        self.dialog = Dialog(t("match.toss.title"), "dialog-toss")
        self.hands = el("p", "toss-hands", "", {"aria-hidden": "true"})
        self.text = el("p", "toss-text", "", {"role": "status", "aria-live": "polite"})
        self.picks = el("div", "choice-row toss-picks")
        self.dialog.body.appendChild(self.hands)
        self.dialog.body.appendChild(self.text)
        self.dialog.body.appendChild(self.picks)
        self.first_throw: str | None = None
        self.start_button: Any = None

    def open(self) -> None:
        self.dialog.add_button(t("dialog.cancel"))
        self.start_button = self.dialog.add_button(t("match.toss.start"), self._start, "primary",
                                                   attrs={"data-action": "start-match"})
        self.start_button.hidden = True
        self.dialog.open()
        if self.against_bot:
            set_text(self.text, t("match.toss.bot"))
            asyncio.ensure_future(self._bot_round())
        else:
            self._ask(0)

    async def _bot_round(self) -> None:
        from ..board.move_feedback import ANIMATION, SPEED_OFF
        from .. import settings
        if settings.get(ANIMATION) != SPEED_OFF:
            set_text(self.text, t("match.toss.shaking"))
            for shake in range(SHAKES):
                set_text(self.hands, t(f"match.throw.{THROWS[shake % 3]}") + "…")
                await asyncio.sleep(SHAKE_SECONDS)
                if not self.dialog.is_open:
                    return
        if self.match.seed is None:
            self.match.seed = random.randrange(1 << 31)
        throw_a, throw_b = seeded_round(self.match.seed)
        self._reveal(throw_a, throw_b)

    def _ask(self, player: int) -> None:
        """One person picks while the other looks away."""
        self.picks.innerHTML = ""
        set_text(self.text, t("match.toss.pick", player=player_label(self.match, player)))
        for throw in THROWS:
            pick = el("button", "btn toss-pick", t(f"match.throw.{throw}"),
                      {"type": "button", "data-throw": throw})
            self.dialog.listeners.on(pick, "click", lambda event, throw=throw: self._picked(player, throw))
            self.picks.appendChild(pick)
        first = self.picks.querySelector("button")
        if first:
            first.focus()

    def _picked(self, player: int, throw: str) -> None:
        if player == 0:
            self.first_throw = throw
            self._ask(1)
            set_text(self.hands, "✔")
            set_text(self.text, t("match.toss.chosen", player=player_label(self.match, 1)) + " "
                     + t("match.toss.pick", player=player_label(self.match, 1)))
            return
        self.picks.innerHTML = ""
        self._reveal(self.first_throw or throw, throw)

    def _reveal(self, throw_a: str, throw_b: str) -> None:
        set_text(self.hands, f"{t(f'match.throw.{throw_a}')} : {t(f'match.throw.{throw_b}')}")
        winner = self.match.add_round(throw_a, throw_b)
        lines = [t("match.toss.threw", player=player_label(self.match, p), throw=t(f"match.throw.{x}"))
                 for p, x in ((0, throw_a), (1, throw_b))]
        if winner is None:
            set_text(self.text, " · ".join(lines) + ". " + t("match.toss.tie", throw=t(f"match.throw.{throw_a}")))
            if self.against_bot:
                asyncio.ensure_future(self._bot_round())
            else:
                self._ask(0)
                set_text(self.text, t("match.toss.tie", throw=t(f"match.throw.{throw_a}")) + " "
                         + t("match.toss.pick", player=player_label(self.match, 0)))
            return
        side = t(f"seat.{registry.game_class(self.game_id).seat_names[0]}")
        set_text(self.text, " · ".join(lines) + ". "
                 + said_of(self.match, winner, "match.toss.result", side=side))
        self.dialog.node.dataset.tossWinner = str(winner)
        self.start_button.hidden = False
        self.start_button.focus()

    def _start(self) -> None:
        play_game(self.app, self.game_id, self.choice, self.match)
