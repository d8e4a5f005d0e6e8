"""A bot level as it was at an earlier commit, as a bot of today's ``match``.

    python3 tests/bench/against_former.py COMMIT GAME LEVEL -- match GAME hard former --games 40 --ponder

Extracts ``py/tessera`` of ``COMMIT`` (``git archive``) into a temporary
folder as the package ``tessera_former`` and registers the bot ``former``:
that commit's ``LEVEL`` of ``GAME``, playing on that commit's own engine,
which it is fed move by move as text.  Everything after ``--`` is today's
command line (``python3 -m tessera ...``); ``former:movetime_ms=N`` sets
its base time as for any bot (the match then scales it like a level's).

This is how a level is measured against the one it replaces (the issues'
"beats today's top level"): both run in one process, one after the other,
with the same clock.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import tempfile
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "py"))

from tessera.bots.base import Bot, Search  # noqa: E402
from tessera.bots.registry import register_bot  # noqa: E402
from tessera.core.game import Game  # noqa: E402


def former_package(commit: str, folder: str) -> None:
    """``py/tessera`` of ``commit`` as ``folder/tessera_former`` (its imports are relative)."""
    archive = subprocess.run(["git", "-C", ROOT, "archive", commit, "py/tessera"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
    os.rename(os.path.join(folder, "py", "tessera"), os.path.join(folder, "tessera_former"))
    sys.path.insert(0, folder)


def former_bot(game_id: str, level_key: str) -> type[Bot]:
    registry = importlib.import_module("tessera_former.core.registry")
    bots = importlib.import_module("tessera_former.bots.registry")
    game_class = registry.game_class(game_id)
    level = next(level for level in bots.levels_for(game_id) if level.key == level_key)

    class Former(Bot):
        name = "former"
        param_names = ()

        def __init__(self, seed: int = 0, movetime_ms: int = level.movetime_ms, **params: Any) -> None:
            super().__init__(seed, movetime_ms, **params)
            self.inner = bots.make_bot(level.bot, seed, movetime_ms, **level.params)

        def search(self, game: Game) -> Search:
            old = game_class(game.options, game.seed, game.setup)
            for move in game.move_stack:
                old.push(old.parse_move(game.move_text(move)))
            yield
            move = self.inner.choose(old)
            return game.parse_move(old.move_text(move))

    return Former


def main(argv: list[str]) -> int:
    if "--" not in argv or argv.index("--") != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    commit, game_id, level_key = argv[:3]
    with tempfile.TemporaryDirectory() as folder:
        former_package(commit, folder)
        register_bot("former", former_bot(game_id, level_key))
        from tessera.cli import main as tessera_main
        return tessera_main(argv[4:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
