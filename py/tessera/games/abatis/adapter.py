"""Abatis on the play screen: the panel's numbers (score, level, colours,
blocks), the detailed statistics, the status line, the Hint button, the
high-score tables by scenario and what a move announces (see ``core.game_ui``)."""

from __future__ import annotations

from typing import Any

from ...core.game import Game
from ...core.game_ui import GameUI
from ...i18n import t
from .geometry import SIDES, cell_name, lane_name
from .rules import BLOCKS_PER_LEVEL, Abatis
from .scenario import COLOUR_COUNTS, LEVELS_PER_STEP, MODES, Scenario
from .view import move_of_place


def scenario_words(scenario: Scenario) -> str:
    return t("abatis.scenario", mode=t(f"option.abatis.mode.{scenario.mode}"), low=scenario.low,
             high=scenario.high, step=scenario.step)


def parse_table(table: str) -> Scenario | None:
    """A high-score table's key back to its scenario (None if it is not one)."""
    parts = table.split("-")
    if len(parts) != 4 or parts[0] not in MODES or not all(p.isdigit() and len(p) <= 2 for p in parts[1:]):
        return None
    low, high, step = (int(p) for p in parts[1:])
    if low not in COLOUR_COUNTS or high not in COLOUR_COUNTS or low > high or step not in LEVELS_PER_STEP:
        return None
    return Scenario(parts[0], low, high, step)


class AbatisUI(GameUI):
    flippable = False
    gain_key = "moves.points"
    gain_sign = "+"
    hint_level = "hint"

    def cell_name(self, cell: Any) -> str:
        """Board cells by name; queue places as their move (``Nd``, ``Nd*``
        for the outer chip) -- the view's cursor uses (side, lane, depth)."""
        if isinstance(cell, int):
            return cell_name(cell)
        if isinstance(cell, tuple) and len(cell) == 3:
            side, lane, depth = cell
            return SIDES[side] + lane_name(side, lane) + ("*" if depth else "")
        return str(cell)

    def stats(self, game: Game, seat: int) -> list[tuple[str, str, str]]:
        assert isinstance(game, Abatis)
        return [("panel.abatis.score", str(game.score), "score"),
                ("panel.abatis.level", str(game.level + 1), "level"),
                ("panel.abatis.colours", str(game.colours), "colours"),
                ("panel.abatis.blocks", f"{game.level_blocks}/{BLOCKS_PER_LEVEL}", "blocks")]

    def details(self, game: Game) -> list[tuple[str, str]]:
        assert isinstance(game, Abatis)
        stats = game.statistics()
        rows = [("stats.abatis.scenario", scenario_words(game.scenario)),
                ("stats.abatis.level", str(game.level + 1)),
                ("stats.abatis.level_blocks", str(game.level_blocks)),
                ("stats.abatis.chips_on_board", str(game.chips_on_board())),
                ("stats.abatis.moves", str(game.ply))]
        rows += [(f"stats.abatis.{name}", str(stats[name]))
                 for name in ("blocks", "chips", "biggest_block", "best_move", "longest_cascade", "bonuses")]
        return rows

    def status_note(self, game: Game) -> str | None:
        assert isinstance(game, Abatis)
        return t("abatis.status", level=game.level + 1, colours=game.colours, blocks=game.level_blocks)

    def score_table(self, game: Game) -> str | None:
        assert isinstance(game, Abatis)
        return game.scenario.key if game.setup is None else None   # a set-up game is not a fair result

    def score_table_name(self, table: str) -> str:
        scenario = parse_table(table)
        return scenario_words(scenario) if scenario is not None else table

    def describe_cell(self, game: Game, state: Any, cell: Any) -> str:
        """"Nd, red chip, shoots into column d"; "e4, blue chip with a pointer down"."""
        assert isinstance(game, Abatis)
        parts = [self.cell_name(cell)]
        if isinstance(cell, int):
            colour, pointer = game.chip(cell)
            parts.append(t(f"abatis.chip.{colour}") if colour else t("cell.empty"))
            if pointer:
                parts.append(t(f"abatis.pointer.{pointer}"))
        elif isinstance(cell, tuple) and len(cell) == 3:
            side, lane, depth = cell
            parts.append(t(f"abatis.chip.{game.queue_chip(side, lane, depth)}"))
            if move_of_place(game, cell) is None:
                parts.append(t("abatis.lane_closed"))
        return ", ".join(parts)

    def move_note(self, session: Any, event: Any) -> str | None:
        """The points the move scored, the score, and a new level."""
        game = session.game
        if not game.move_stack:
            return None
        gained = session.move_gain(game.ply)
        words = [t("announce.abatis_move", count=gained, score=game.score)]
        for kind, items in game.last_steps:
            if kind == "level":
                bonus, level = items
                if bonus:
                    words.append(t("announce.abatis_bonus"))
                words.append(t("announce.abatis_level", level=level + 1))
        return ". ".join(words)


ADAPTER = AbatisUI
