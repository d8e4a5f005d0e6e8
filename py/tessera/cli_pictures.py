"""``python3 -m tessera pictures PAGE``: a page's boards get their pictures.

The site's own pages are built with a picture of each ``<tessera-board>``'s
opening position inside it (``ui.embed.pictures``), so they show boards
before any Python loads.  A page elsewhere has no such build step: this
command is it.  It draws every board of an HTML page the same way, with
the games' own views, and writes the page with the pictures in; a board
that already has its picture is left as it is, so running it again after
editing one board redraws nothing else.  Records named by ``src`` are read
relative to the page's folder.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, TextIO

from .cli_base import EXIT_OK, CliError

MAX_PAGE_BYTES = 8 * 1024 * 1024
"""A page bigger than this is not a hand-written page of boards."""


def cmd_pictures(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from .ui.embed.pictures import add_pictures

    page_path = Path(args.page)
    try:
        if page_path.stat().st_size > MAX_PAGE_BYTES:
            raise CliError("error.cli.too_large", name=args.page, count=MAX_PAGE_BYTES)
        page = page_path.read_text(encoding="utf-8")
    except OSError as error:
        raise CliError("error.cli.cannot_read", path=args.page, detail=error.strerror or error) from None
    except UnicodeDecodeError:
        raise CliError("error.cli.not_utf8", name=args.page) from None
    folder = page_path.resolve().parent

    def read_src(src: str) -> str:
        if "://" in src or src.startswith("//"):
            raise OSError(f"{src} is not a file beside the page")
        path = (folder / src.split("#")[0].split("?")[0])
        if path.stat().st_size > MAX_PAGE_BYTES:
            raise OSError("too large")
        return path.read_text(encoding="utf-8")

    drawn, problems = add_pictures(page, read_src)
    target = args.output or args.page
    if target == "-":
        out.write(drawn)
    else:
        try:
            Path(target).write_text(drawn, encoding="utf-8")
        except OSError as error:
            raise CliError("error.cli.cannot_write", path=target, detail=error.strerror or error) from None
        boards = drawn.count("<tessera-board")
        err.write(f"wrote {target}: {boards} board(s), {len(problems)} without a picture\n")
    for problem in problems:
        err.write(f"warning: {problem}\n")
    return EXIT_OK


def add_pictures_command(sub: Any) -> None:
    """The ``pictures`` sub-command, on the command line's sub-parsers."""
    pictures = sub.add_parser("pictures", help="draw each <tessera-board> of an HTML page into it",
                              description="Put a picture of each board's position inside its "
                                          "<tessera-board> element, so the page shows boards before "
                                          "Python loads (what the build does for the site's own pages).")
    pictures.add_argument("page", help="the HTML page")
    pictures.add_argument("-o", "--output", default=None,
                          help="write here (- for stdout); default: the page itself")
    pictures.set_defaults(run=cmd_pictures)
