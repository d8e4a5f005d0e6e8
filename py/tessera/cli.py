"""The command line: replay and render records, perft, bot matches, benchmarks.

(``pictures`` for pages with boards, and ``relay``, have modules of their own.)

Every command is a function of its parsed arguments that writes to the
streams it is given, so tests call ``main([...])`` in the same process (also
under Pyodide).  Errors in the input exit with status 2 and one line on
stderr that says what is wrong and where.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, BinaryIO, Callable, TextIO

from .cli_base import EXIT_BAD_INPUT, EXIT_ERROR, EXIT_OK, CliError
from .cli_pictures import add_pictures_command
from .cli_relay import add_relay_command
from .core import registry
from .core.game import Game, GameError
from .core.record import MAX_RECORD_BYTES, Record, RecordError
from .core.stats import score_spread
from .i18n import Message


# ----- reading records -----------------------------------------------------------
RecordLoader = Callable[[str], Record]

RECORD_LOADERS: dict[str, RecordLoader] = {
    ".json": Record.loads,
    ".tessera": Record.loads,
}
"""Readers by file suffix: tessera/1 JSON, and the record formats games offer
(``core.record_formats``: Dots' SGF); unknown suffixes and stdin are read
as tessera/1 JSON."""


def register_loader(suffix: str, loader: RecordLoader) -> None:
    RECORD_LOADERS[suffix.lower()] = loader


def format_loader(suffix: str) -> RecordLoader:
    """A reader for files named ``*<suffix>`` in a game's own format (Dots'
    SGF); a broken file raises the format's GameError, reported like any
    bad record.

    The format's own properties (SGF's KM, RU, time) stay in
    ``meta[<format>]``.  Where the file's rules differ from Tessera's,
    ``meta["notes"]`` holds one English sentence per difference (the app
    says the same in the player's language); ``replay`` and ``render`` print
    them on stderr as ``note: ...``, since the moves are replayed with
    Tessera's rules.
    """
    def load(text: str) -> Record:
        from .core.record_formats import all_formats
        from .i18n import t

        fmt = next((f for f in all_formats() if f.suffix == suffix and f.looks_like(text)), None)
        if fmt is None:
            return Record.loads(text)
        game, meta = fmt.read(text)
        result = meta.get("outcome")
        info: dict[str, Any] = {key: value for key, value in meta.items()
                                if key not in ("outcome", "notes", fmt.key) and isinstance(value, str)}
        if fmt.key in meta:
            info[fmt.key] = meta[fmt.key]
        if meta.get("notes"):
            info["notes"] = [t(note.key, lang="en", **note.params) for note in meta["notes"]]
        return Record.from_game(game, result, info)
    return load


def _register_format_loaders() -> None:
    from .core.record_formats import all_formats
    for fmt in all_formats():
        if fmt.suffix not in RECORD_LOADERS:
            register_loader(fmt.suffix, format_loader(fmt.suffix))


_register_format_loaders()


def _print_notes(record: Record, err: TextIO) -> None:
    """The notes a format loader found on a file's rules, one ``note:`` line each."""
    notes = record.meta.get("notes")
    for note in notes if isinstance(notes, list) else []:
        if isinstance(note, str):
            err.write(f"note: {' '.join(note.split())[:400]}\n")


MAX_INPUT_BYTES = MAX_RECORD_BYTES
"""No record reader takes more; reading stops one byte past it (``replay
/dev/zero`` is refused at once, in bounded memory)."""


def read_bounded(stream: BinaryIO, name: str | Message) -> str:
    """At most ``MAX_INPUT_BYTES`` of UTF-8 text (a byte-order mark dropped)."""
    data = stream.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise CliError("error.cli.too_large", name=name, count=MAX_INPUT_BYTES)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CliError("error.cli.not_utf8", name=name) from None


def load_record(path: str, stdin: TextIO | None = None) -> Record:
    """A record from a file (by suffix) or from stdin for ``-``."""
    if path == "-":
        source = stdin or sys.stdin
        binary = getattr(source, "buffer", None)
        if binary is not None:
            text = read_bounded(binary, Message("error.cli.stdin_name"))
        else:  # a text stream (tests): still read no more than the limit
            text = source.read(MAX_INPUT_BYTES + 1)
            if len(text) > MAX_INPUT_BYTES:
                raise CliError("error.cli.stdin_too_large", count=MAX_INPUT_BYTES)
        return Record.loads(text)
    file = Path(path)
    try:
        with file.open("rb") as stream:
            text = read_bounded(stream, path)
    except OSError as error:
        raise CliError("error.cli.cannot_read", path=path, detail=error.strerror or error) from None
    loader = RECORD_LOADERS.get(file.suffix.lower(), Record.loads)
    try:
        return loader(text)
    except GameError:
        raise
    except Exception as error:  # a reader's own slip is still bad input, said in one line
        raise CliError("error.cli.unreadable_record", path=path, kind=type(error).__name__) from None


def _replayed(record: Record, ply: int | None) -> Game:
    """The game after ``ply`` moves, from a record that is valid as a whole:
    every command refuses a stated ending the moves do not reach, whatever
    ply it looks at (``render`` drew such a record while ``replay`` refused it)."""
    if ply is not None and ply < 0:
        raise CliError("error.cli.ply")
    game = record.replay(ply)
    record.check_result(game if ply is None or ply >= len(record.moves) else record.replay())
    return game


def _seat(game: Game, player: int | None) -> str:
    if player is None:
        return "nobody"
    names = game.seat_names
    return names[player] if 0 <= player < len(names) else str(player)


# ----- replay --------------------------------------------------------------------
def cmd_replay(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    record = load_record(args.record)
    _print_notes(record, err)
    game = _replayed(record, args.ply)
    outcome = record.outcome(game, args.ply)
    listed = game.lists_every_move
    legal = [] if outcome is not None or not listed else game.sorted_legal_texts()
    if args.json:
        data = {
            "position": game.position(),
            "to_move": game.to_move,
            "scores": list(game.scores()),
            "outcome": outcome.to_json() if outcome else None,
            "legal_moves": legal,
            "legal_moves_listed": listed,
            "ply": game.ply,
        }
        out.write(json.dumps(data, ensure_ascii=False) + "\n")
        return EXIT_OK
    ascii_board = getattr(game, "ascii", None)
    if callable(ascii_board):
        out.write(ascii_board() + "\n")
    out.write(f"position: {game.position()}\n")
    out.write(f"ply: {game.ply} of {len(record.moves)}\n")
    out.write(f"to move: {_seat(game, game.to_move)}\n")
    scores = ", ".join(f"{_seat(game, i)} {s}" for i, s in enumerate(game.scores()))
    out.write(f"scores: {scores}\n")
    if outcome is None:
        out.write("outcome: none (the game goes on)\n")
    elif outcome.winner is None:
        out.write(f"outcome: draw ({outcome.reason})\n")
    else:
        out.write(f"outcome: {_seat(game, outcome.winner)} wins ({outcome.reason})\n")
    if listed or outcome is not None:
        out.write(f"legal moves ({len(legal)}): {' '.join(legal)}\n")
    else:
        out.write("legal moves: too many to list (a move may use several chips)\n")
    return EXIT_OK


# ----- perft ---------------------------------------------------------------------
def perft(game: Game, depth: int) -> int:
    """Leaf positions at ``depth`` plies (ended games count as leaves)."""
    if depth == 0:
        return 1
    moves = game.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        game.push_unchecked(move)
        total += perft(game, depth - 1)
        game.pop()
    return total


def cmd_perft(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.depth < 0:
        raise CliError("error.cli.depth")
    cls = registry.game_class(args.game)
    if not cls.lists_every_move:
        raise CliError("error.cli.perft_unlisted", game=repr(args.game))
    try:
        game = cls(setup=args.setup)
    except GameError:
        raise
    except Exception as error:  # Python's own errors count as a bad position too
        raise CliError("error.cli.setup", kind=type(error).__name__) from None
    if args.divide and args.depth > 0:
        total = 0
        for move in sorted(game.legal_moves(), key=game.move_text):
            text = game.move_text(move)
            game.push_unchecked(move)
            count = perft(game, args.depth - 1)
            game.pop()
            total += count
            out.write(f"{text}: {count}\n")
        out.write(f"total: {total}\n")
    else:
        out.write(f"{perft(game, args.depth)}\n")
    return EXIT_OK


# ----- match ---------------------------------------------------------------------
def play_game(game: Game, bots: list[Any]) -> Game:
    """Let ``bots[seat]`` move until the game ends; returns the game."""
    while game.outcome() is None:
        move = bots[game.to_move].choose(game)
        if move is None:
            break
        game.push(move)
    return game


def play_opening(game: Game, plies: int, seed: int) -> Game:
    """``match --opening``: the game's weakest level plays both sides for
    ``plies`` moves (a seeded random opening), so a match is not the same
    few games again; both games of a pair share it, colours swapped."""
    from .bots.registry import levels_for, make_bot, make_level_bot

    levels = levels_for(game.game_id)
    bot = make_level_bot(levels[0], seed, 0) if levels else make_bot("random", seed, 0)
    for _ in range(plies):
        if game.outcome() is not None:
            break
        move = bot.choose(game)
        if move is None:
            break
        game.push(move)
    return game


def cmd_match(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .bots.ponder import PonderStats, ponder_match_game
    from .bots.registry import BotSpecError, bot_from_spec
    from .core.stats import stats_from_results

    cls = registry.game_class(args.game)
    if args.games < 1:
        raise CliError("error.cli.games")
    if args.speed_factor <= 0:
        raise CliError("error.cli.speed_factor")
    if args.movetime is not None and args.movetime <= 0:
        raise CliError("error.cli.movetime")
    if not 0 <= args.opening <= 1000:
        raise CliError("error.cli.opening")
    scale = 1.0 / args.speed_factor
    options = _parse_options(args.option)
    first, second = args.bots
    results: list[float] = []
    reasons: dict[str, int] = {}
    finals: list[tuple[int, ...]] = []
    total_plies = 0
    ponder_stats = PonderStats()
    try:
        for index in range(args.games):
            game_seed = args.seed * 100_003 + index
            bot_a = bot_from_spec(args.game, first, 2 * game_seed + 1, args.movetime, scale)
            bot_b = bot_from_spec(args.game, second, 2 * game_seed + 2, args.movetime, scale)
            a_seat = index % 2  # the first bot plays seat 0 in even games
            bots = [bot_a, bot_b] if a_seat == 0 else [bot_b, bot_a]
            game = cls(options, seed=game_seed)
            if args.opening:
                play_opening(game, args.opening, args.seed * 100_003 + index // 2)
            if args.ponder:   # the first bot reads on the second's time (bots.ponder)
                game = ponder_match_game(game, bots, a_seat, lambda s, ms: bot_from_spec(args.game, first, s, ms),
                                         ponder_stats)
            else:
                game = play_game(game, bots)
            outcome = game.outcome()
            if outcome is None or outcome.winner is None:
                result = 0.5
            else:
                result = 1.0 if outcome.winner == a_seat else 0.0
            reason = outcome.reason if outcome else "stopped"
            reasons[reason] = reasons.get(reason, 0) + 1
            results.append(result)
            finals.append(game.scores_at_end(outcome) if outcome else game.scores())
            total_plies += game.ply
            if args.save:
                _save_record(args.save, index, game, [first if a_seat == 0 else second,
                                                      second if a_seat == 0 else first])
            if not args.quiet:
                verdict = {1.0: "win", 0.5: "draw", 0.0: "loss"}[result]
                err.write(f"game {index + 1}/{args.games}: {first} as {_seat(game, a_seat)}: {verdict} "
                          f"({reason}, {game.ply} plies); so far {_running(results)}\n")
                err.flush()
    except BotSpecError as error:
        raise CliError.from_error(error) from None
    stats = stats_from_results(results)
    time_note = (f"movetime {args.movetime} ms" if args.movetime is not None
                 else f"level times x 1/{args.speed_factor:g}")
    out.write(f"{args.game}: {first} vs {second}, {stats.games} games, seed {args.seed}, {time_note}\n")
    out.write(f"{first}: {stats.summary()}\n")
    if args.ponder:
        guessed = ponder_stats.hits + ponder_stats.misses
        if guessed or not ponder_stats.read_ahead:
            out.write(f"{first} pondered: the expected reply came {ponder_stats.hits} times of {guessed}\n")
        if ponder_stats.read_ahead:
            out.write(f"{first} read ahead on the opponent's time before {ponder_stats.read_ahead} of its moves\n")
    out.write("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())) +
              f"; average length {total_plies / stats.games:.0f} plies\n")
    _write_spread(finals, out)
    return EXIT_OK


def _write_spread(finals: list[tuple[int, ...]], out: TextIO) -> None:
    """The final points' spread, for games whose scores vary (Quadrotone's points)."""
    if finals and len(finals[0]) == 2 and len({points for points in finals}) > 1:
        out.write("final points\n" + score_spread(finals).summary() + "\n")


def cmd_scores(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Replay saved records (``match --save``): their endings and how their final points spread."""
    paths: list[Path] = []
    for name in args.records:
        path = Path(name)
        paths.extend(sorted(path.glob("*.json")) if path.is_dir() else [path])
    if not paths:
        raise CliError("error.cli.no_records")
    reasons: dict[str, int] = {}
    finals: list[tuple[int, ...]] = []
    for path in paths:
        record = load_record(str(path))
        game = record.replay(None)
        outcome = record.outcome(game, None)
        reason = outcome.reason if outcome else "unfinished"
        reasons[reason] = reasons.get(reason, 0) + 1
        finals.append(game.scores_at_end(outcome) if outcome else game.scores())
    out.write(f"{len(paths)} records; endings: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())) + "\n")
    if len(finals[0]) == 2:
        out.write(score_spread(finals).summary() + "\n")
    return EXIT_OK


def _save_record(folder: str, index: int, game: Game, players: list[str]) -> None:
    """``--save``: the game's record as ``gameNNN.json`` in ``folder``, naming who played."""
    directory = Path(folder)
    directory.mkdir(parents=True, exist_ok=True)
    record = Record.from_game(game, meta={"players": players})
    (directory / f"game{index + 1:03d}.json").write_text(record.dumps() + "\n", encoding="utf-8")


def cmd_solo(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """A one-player game played by a bot, many seeded games: scores and levels reached."""
    from .bots.registry import BotSpecError, bot_from_spec

    cls = registry.game_class(args.game)
    if cls.num_players != 1:
        raise CliError("error.cli.not_solo", game=repr(args.game))
    if args.games < 1:
        raise CliError("error.cli.games")
    if args.max_moves < 1:
        raise CliError("error.cli.max_moves")
    if args.movetime is not None and args.movetime <= 0:
        raise CliError("error.cli.movetime")
    options = _parse_options(args.option)
    scores: list[int] = []
    levels: list[int] = []
    ended = 0
    try:
        for index in range(args.games):
            game_seed = args.seed * 100_003 + index
            bot = bot_from_spec(args.game, args.player, 2 * game_seed + 1, args.movetime, 1.0 / args.speed_factor)
            game = cls(options, seed=game_seed)
            while game.outcome() is None and game.ply < args.max_moves:
                move = bot.choose(game)
                if move is None:
                    break
                game.push(move)
            level = getattr(game, "level", 0) + 1
            scores.append(game.scores()[0])
            levels.append(level)
            ended += game.outcome() is not None
            if args.save:
                _save_record(args.save, index, game, [args.player])
            if not args.quiet:
                state = "no moves left" if game.outcome() is not None else f"stopped at {args.max_moves} moves"
                err.write(f"game {index + 1}/{args.games}: score {scores[-1]}, level {level}, "
                          f"{game.ply} moves ({state})\n")
                err.flush()
    except BotSpecError as error:
        raise CliError.from_error(error) from None
    count = len(scores)
    out.write(f"{args.game}: {args.player}, {count} games, seed {args.seed}, at most {args.max_moves} moves, "
              f"options {json.dumps(options or {}, sort_keys=True)}\n")
    out.write(f"score: mean {sum(scores) / count:.1f}, best {max(scores)}, worst {min(scores)}\n")
    out.write(f"level reached: mean {sum(levels) / count:.2f}, best {max(levels)}\n")
    out.write(f"games that ended with no move left: {ended} of {count}\n")
    return EXIT_OK


def _parse_options(items: list[str] | None) -> dict[str, str] | None:
    """``["size=20x20"]`` -> ``{"size": "20x20"}`` (None when there are none)."""
    if not items:
        return None
    options = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise CliError("error.cli.option", item=repr(item))
        options[key.strip()] = value.strip()
    return options


def _running(results: list[float]) -> str:
    wins = sum(1 for r in results if r == 1.0)
    draws = sum(1 for r in results if r == 0.5)
    return f"+{wins} ={draws} -{len(results) - wins - draws}"


# ----- render --------------------------------------------------------------------
MAX_RENDER_SIZE = 20_000
def view_for(game_id: str) -> Any:
    """The game's board view, as the registry says where it lives."""
    if registry.entry(game_id).module is None:
        raise CliError("error.game.not_available", game=repr(game_id))
    try:
        return registry.view(game_id)
    except GameError as error:
        raise CliError(error.key, **error.params) from None


def cmd_render(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .core.draw import DrawList, to_svg
    from .core.view import ViewState

    record = load_record(args.record)
    _print_notes(record, err)
    game = _replayed(record, args.ply)
    view = view_for(record.game)
    if not 1 <= args.size <= MAX_RENDER_SIZE:
        raise CliError("error.cli.size", limit=MAX_RENDER_SIZE)
    width = float(args.size)
    height = width / view.aspect_at(game, width)
    drawing = DrawList(width, height)
    view.draw(game, ViewState(flipped=args.flip, interactive=False), drawing)
    svg = to_svg(drawing) + "\n"
    if args.output == "-":
        out.write(svg)
    else:
        try:
            Path(args.output).write_text(svg, encoding="utf-8")
        except OSError as error:
            raise CliError("error.cli.cannot_write", path=args.output, detail=error.strerror or error) from None
        err.write(f"wrote {args.output} (ply {game.ply}, {width:g}x{height:g})\n")
    return EXIT_OK


# ----- benchmarks ----------------------------------------------------------------
def cmd_bench(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .benchmarks import run_all

    rows = run_all(quick=args.quick)
    if args.json:
        out.write(json.dumps(rows) + "\n")
    else:
        for row in rows:
            out.write(f"{row['name']:<52} {row['value']:>12,.1f} {row['unit']}\n")
    return EXIT_OK


# ----- argument parsing ------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python3 -m tessera",
                                     description="Tessera: rare abstract games on the command line.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    replay = sub.add_parser("replay", help="show the position a record reaches")
    replay.add_argument("record", help="record file (tessera/1 JSON), or - for stdin")
    replay.add_argument("--ply", type=int, default=None, help="stop after this many moves")
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    replay.set_defaults(run=cmd_replay)

    perft_ = sub.add_parser("perft", help="count the move tree to a depth")
    perft_.add_argument("game", help=f"one of {', '.join(registry.available_ids())}")
    perft_.add_argument("depth", type=int)
    perft_.add_argument("--setup", default=None, help="start from this position string")
    perft_.add_argument("--divide", action="store_true", help="one count per first move")
    perft_.set_defaults(run=cmd_perft)

    match = sub.add_parser(
        "match", help="play two bots against each other",
        description="Bots alternate seats; BOT is a level of the game (easy, hard ...) or a bot "
                    "name (random, greedy, alphabeta, mcts) with optional parameters, "
                    "e.g. alphabeta:max_depth=2.")
    match.add_argument("game")
    match.add_argument("bots", nargs=2, metavar="BOT")
    match.add_argument("--games", type=int, default=10)
    match.add_argument("--seed", type=int, default=0)
    match.add_argument("--movetime", type=int, default=None,
                       help="milliseconds per move for both bots (overrides levels)")
    match.add_argument("--speed-factor", type=float, default=3.0,
                       help="divide level move times by this (default 3: CPython runs about 3x "
                            "faster than the browser, so this matches the app's strength)")
    match.add_argument("--option", action="append", default=None, metavar="KEY=VALUE",
                       help="a game option, repeatable (e.g. --option size=20x20)")
    match.add_argument("--save", default=None, metavar="DIR", help="write each game's record here")
    match.add_argument("--quiet", action="store_true", help="no per-game progress on stderr")
    match.add_argument("--opening", type=int, default=0, metavar="PLIES",
                       help="open each pair of games (colours swapped) with this many seeded moves "
                            "of the game's weakest level, so the games differ")
    match.add_argument("--ponder", action="store_true",
                       help="the first bot ponders: after each of its moves it reads on the opponent's time "
                            "(as long as the opponent thought, run after it, as a second core would), "
                            "and answers from that reading when the reply it expected comes")
    match.set_defaults(run=cmd_match)

    scores = sub.add_parser("scores", help="endings and final points of saved records (match --save)")
    scores.add_argument("records", nargs="+", help="record files or folders of them")
    scores.set_defaults(run=cmd_scores)

    solo = sub.add_parser(
        "solo", help="a bot plays a one-player game (Abatis) many times",
        description="PLAYER is a level of the game (hint) or a bot name (random, abatis_hint:depth=1 ...). "
                    "Prints the mean and best score and level reached.")
    solo.add_argument("game")
    solo.add_argument("player", metavar="PLAYER")
    solo.add_argument("--games", type=int, default=20)
    solo.add_argument("--seed", type=int, default=0)
    solo.add_argument("--max-moves", type=int, default=500,
                      help="stop a game after this many moves (a Knockout game never runs out of moves)")
    solo.add_argument("--movetime", type=int, default=None, help="milliseconds per move (overrides the level)")
    solo.add_argument("--speed-factor", type=float, default=3.0, help="divide level move times by this")
    solo.add_argument("--option", action="append", default=None, metavar="KEY=VALUE",
                      help="a game option, repeatable (e.g. --option mode=knockout)")
    solo.add_argument("--save", default=None, metavar="DIR", help="write each game's record here")
    solo.add_argument("--quiet", action="store_true", help="no per-game progress on stderr")
    solo.set_defaults(run=cmd_solo)

    render = sub.add_parser("render", help="draw a record's position as SVG")
    render.add_argument("record")
    render.add_argument("--ply", type=int, default=None)
    render.add_argument("-o", "--output", required=True, help="SVG file to write, or - for stdout")
    render.add_argument("--size", type=int, default=640, help="width in pixels")
    render.add_argument("--flip", action="store_true", help="draw from the second seat's side")
    render.set_defaults(run=cmd_render)

    add_pictures_command(sub)

    bench = sub.add_parser("bench", help="engine and bot speed")
    bench.add_argument("--quick", action="store_true")
    bench.add_argument("--json", action="store_true")
    bench.set_defaults(run=cmd_bench)

    add_relay_command(sub)
    return parser


def main(argv: list[str] | None = None, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    """Run one command; returns the exit status (0 ok, 2 bad input)."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    try:
        return args.run(args, out, err)
    except RecordError as error:  # its text already names the move and why
        err.write(f"error: bad record: {one_line(error)}\n")
        return EXIT_BAD_INPUT
    except (CliError, GameError) as error:
        err.write(f"error: {one_line(error)}\n")
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # the last guard: a user never sees a traceback
        err.write(f"error: unexpected failure ({type(error).__name__}: {one_line(error)}); "
                  "please report it with the command and its input\n")
        return EXIT_ERROR


def one_line(error: BaseException, limit: int = 300) -> str:
    """An error's message on one line, at most ``limit`` characters."""
    text = " ".join(str(error).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"
