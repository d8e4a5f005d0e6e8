#!/usr/bin/env python3
"""Tiny static file server for the built Tessera site.

Used by ``./build.sh serve``, the browser test fixtures and the bench harness.

    python3 scripts/serve.py [--root site] [--port 8000] [--bind 127.0.0.1]
                             [--prefix /games/tessera/] [--quiet]

* Binds 127.0.0.1 by default.
* ``--port 0`` lets the OS pick a free port.
* The first line printed on stdout (flushed) is always the base URL, e.g.
  ``http://127.0.0.1:43117/`` or ``http://127.0.0.1:43117/games/tessera/``;
  callers parse it to learn the port.
* ``--prefix`` serves the root under a sub-path only (everything else is 404,
  the prefix without its trailing slash redirects to it), to check that the
  site works when hosted below the domain root.
* MIME types are explicit (.mjs/.js text/javascript, .wasm application/wasm,
  .toml, .json, .zip, ...) so they do not depend on the machine's mime.types.

It can also be imported: ``make_server(root, port=0, bind=..., prefix=...)``
returns a ``ThreadingHTTPServer`` whose ``base_url`` attribute is set.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import sys
from urllib.parse import urlsplit

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".htm": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".toml": "application/toml",
    ".py": "text/x-python; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webmanifest": "application/manifest+json",
    ".woff2": "font/woff2",
    "": "application/octet-stream",
}


def normalize_prefix(prefix: str) -> str:
    prefix = "/" + prefix.strip("/")
    return prefix if prefix == "/" else prefix + "/"


class Handler(http.server.SimpleHTTPRequestHandler):
    prefix = "/"
    quiet = False

    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map)
    extensions_map.update(MIME_TYPES)

    def _route(self) -> bool:
        """Strip the prefix from self.path. Returns False if a reply was sent."""
        if self.prefix == "/":
            return True
        path = urlsplit(self.path).path
        if path == self.prefix.rstrip("/"):
            query = urlsplit(self.path).query
            self.send_response(301)
            self.send_header("Location", self.prefix + ("?" + query if query else ""))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return False
        if not path.startswith(self.prefix):
            self.send_error(404, "Outside of the served prefix")
            return False
        return True

    def translate_path(self, path):
        if self.prefix != "/" and path.startswith(self.prefix):
            path = "/" + path[len(self.prefix):]
        return super().translate_path(path)

    def do_GET(self):  # noqa: N802 (http.server API)
        if self._route():
            super().do_GET()

    def do_HEAD(self):  # noqa: N802
        if self._route():
            super().do_HEAD()

    def end_headers(self):
        # Service workers may be registered from anywhere under the prefix.
        if urlsplit(self.path).path.endswith("sw.js"):
            self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format, *args):  # noqa: A002
        if not self.quiet:
            super().log_message(format, *args)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    base_url = ""


def make_server(root: str, port: int = 0, bind: str = "127.0.0.1",
                prefix: str = "/", quiet: bool = True) -> Server:
    root = os.path.abspath(root)
    if not os.path.isdir(root):
        raise FileNotFoundError(f"site root {root!r} does not exist (run ./build.sh build)")
    handler = type("BoundHandler", (Handler,), {
        "prefix": normalize_prefix(prefix),
        "quiet": quiet,
    })
    server = Server((bind, port), functools.partial(handler, directory=root))
    host, real_port = server.server_address[:2]
    shown = f"[{host}]" if ":" in host else host
    server.base_url = f"http://{shown}:{real_port}{handler.prefix}"
    return server


def main(argv: list[str] | None = None) -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description="Serve the built Tessera site.")
    ap.add_argument("--root", default=os.path.join(here, "..", "site"),
                    help="directory to serve (default: the repo's site/)")
    ap.add_argument("--port", type=int, default=8000, help="0 picks a free port")
    ap.add_argument("--bind", default="127.0.0.1")
    ap.add_argument("--prefix", default="/", help="serve under this sub-path, e.g. /games/tessera/")
    ap.add_argument("--quiet", action="store_true", help="do not log requests")
    args = ap.parse_args(argv)
    try:
        server = make_server(args.root, args.port, args.bind, args.prefix, args.quiet)
    except (OSError, FileNotFoundError) as exc:
        print(f"serve.py: {exc}", file=sys.stderr)
        return 1
    print(server.base_url, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
