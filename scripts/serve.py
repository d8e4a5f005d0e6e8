#!/usr/bin/env python3
"""Tiny static file server for the built Tessera site.

Used by ``./build.sh serve``, the browser test fixtures and the bench harness.

    python3 scripts/serve.py [--root site] [--port 8000] [--bind 127.0.0.1]
                             [--prefix /games/tessera/] [--no-gzip] [--quiet]
                             [--mime .wasm=application/octet-stream ...]

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
  ``--mime EXT=TYPE`` (repeatable) overrides one, to play a host whose table
  lacks it (``--mime .wasm=application/octet-stream``).
* Like a real static host, it compresses: a client that sends
  ``Accept-Encoding: gzip`` gets text, JavaScript, JSON and wasm files of
  1 KB or more gzipped (``Content-Encoding: gzip``, the compressed
  ``Content-Length``, ``Vary: Accept-Encoding``).  Files are compressed once
  and kept in memory while unchanged.  Zips, .gz, .xz and .br files and images are sent
  as they are.  ``--no-gzip`` turns this off.
* ``If-Modified-Since`` gets ``304 Not Modified``; a single ``Range: bytes=``
  gets ``206 Partial Content`` of the uncompressed file (``416`` when out of
  bounds); several ranges get the whole file.

It can also be imported: ``make_server(root, port=0, bind=..., prefix=...,
gzip=True, mime={".wasm": ...})`` returns a ``ThreadingHTTPServer`` whose ``base_url`` attribute
is set; its ``stats`` counts what it sent (``bytes``, ``requests`` and
``by_path``, bytes per URL path, headers included), which the bench reads.
"""

from __future__ import annotations

import argparse
import email.utils
import functools
import http.server
import io
import os
import re
import sys
import threading
import zlib
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
    ".xz": "application/x-xz",
    ".br": "application/octet-stream",   # brotli bytes the page inflates itself, not a Content-Encoding
    ".gz": "application/gzip",
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


COMPRESSIBLE = ("text/", "application/javascript", "application/json", "application/wasm",
                "application/toml", "application/manifest+json", "image/svg+xml")
MIN_GZIP_SIZE = 1024
GZIP_LEVEL = 6


def accepts_gzip(header: str) -> bool:
    """True if an Accept-Encoding header allows gzip (``gzip;q=0`` does not)."""
    for part in header.split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip().lower() in ("gzip", "x-gzip", "*"):
            match = re.search(r"q\s*=\s*([0-9.]+)", params)
            try:
                return match is None or float(match.group(1)) > 0
            except ValueError:
                return False
    return False


class GzipCache:
    """Gzipped copies of files, made on first request, remade when the file changes."""

    def __init__(self):
        self._lock = threading.Lock()
        self._items: dict[str, tuple[tuple[int, int], bytes]] = {}

    def get(self, path: str, st: os.stat_result) -> bytes:
        key = (st.st_mtime_ns, st.st_size)
        with self._lock:
            item = self._items.get(path)
        if item is not None and item[0] == key:
            return item[1]
        with open(path, "rb") as fh:
            data = fh.read()
        # mtime 0 and no name: the same file always gives the same bytes.
        packer = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, 31)
        body = packer.compress(data) + packer.flush()
        with self._lock:
            self._items[path] = (key, body)
        return body


class _CountingWriter:
    """Wraps a handler's wfile to count the bytes sent (headers and bodies)."""

    def __init__(self, raw, handler):
        self._raw = raw
        self._handler = handler

    def write(self, data):
        n = self._raw.write(data)
        self._handler.sent += len(data) if n is None else n
        return n

    def __getattr__(self, name):
        return getattr(self._raw, name)


def parse_range(header: str, size: int) -> tuple[int, int] | None | str:
    """(first, last) of a single ``bytes=`` range; None to ignore it; "bad" if unsatisfiable."""
    match = re.fullmatch(r"\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*", header)
    if not match or (not match.group(1) and not match.group(2)):
        return None
    first, last = match.group(1), match.group(2)
    if not first:  # the last N bytes
        n = int(last)
        if n == 0 or size == 0:
            return "bad"
        return max(0, size - n), size - 1
    start = int(first)
    end = min(int(last), size - 1) if last else size - 1
    if start >= size or (last and int(last) < start):
        return "bad"
    return start, end


def normalize_prefix(prefix: str) -> str:
    prefix = "/" + prefix.strip("/")
    return prefix if prefix == "/" else prefix + "/"


class Handler(http.server.SimpleHTTPRequestHandler):
    prefix = "/"
    quiet = False
    gzip = True
    cors = False
    gzip_cache: GzipCache | None = None

    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map)
    extensions_map.update(MIME_TYPES)

    def setup(self):
        super().setup()
        self.sent = 0
        self.wfile = _CountingWriter(self.wfile, self)

    def handle_one_request(self):
        self.sent = 0
        super().handle_one_request()
        stats = getattr(self.server, "stats", None)
        if stats is not None and self.sent:
            path = urlsplit(getattr(self, "path", "") or "").path
            with stats["lock"]:
                stats["bytes"] += self.sent
                stats["requests"] += 1
                stats["by_path"][path] = stats["by_path"].get(path, 0) + self.sent

    def send_head(self):
        """SimpleHTTPRequestHandler.send_head for files, with gzip, 304 and ranges."""
        url_path = urlsplit(self.path).path
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            index = os.path.join(path, "index.html")
            if not url_path.endswith("/") or not os.path.isfile(index):
                return super().send_head()  # redirect to the slash, or a listing
            path = index
        elif url_path.endswith("/") or not os.path.isfile(path):
            return super().send_head()  # 404
        try:
            fh = open(path, "rb")
        except OSError:
            self.send_error(404, "File not found")
            return None
        try:
            st = os.fstat(fh.fileno())
            ctype = self.guess_type(path)
            varies = self.gzip and ctype.startswith(COMPRESSIBLE) and st.st_size >= MIN_GZIP_SIZE
            if self._not_modified(st):
                fh.close()
                self.send_response(304)
                self._common_headers(st, varies)
                self.end_headers()
                return None
            ranged = self.headers.get("Range")
            span = parse_range(ranged, st.st_size) if ranged else None
            if span == "bad":
                fh.close()
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{st.st_size}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            if span is not None:
                first, last = span
                fh.seek(first)
                body = fh.read(last - first + 1)
                fh.close()
                self.send_response(206)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Range", f"bytes {first}-{last}/{st.st_size}")
                self.send_header("Content-Length", str(len(body)))
                self._common_headers(st, varies)
                self.end_headers()
                return io.BytesIO(body)
            if varies and accepts_gzip(self.headers.get("Accept-Encoding", "")):
                fh.close()
                body = self.gzip_cache.get(path, st)
                self.send_response(200)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(body)))
                self._common_headers(st, varies)
                self.end_headers()
                return io.BytesIO(body)
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(st.st_size))
            self._common_headers(st, varies)
            self.end_headers()
            return fh
        except Exception:
            fh.close()
            raise

    def _common_headers(self, st: os.stat_result, varies: bool) -> None:
        self.send_header("Last-Modified", self.date_time_string(st.st_mtime))
        self.send_header("Accept-Ranges", "bytes")
        if varies:
            self.send_header("Vary", "Accept-Encoding")

    def _not_modified(self, st: os.stat_result) -> bool:
        since = self.headers.get("If-Modified-Since")
        if not since or "If-None-Match" in self.headers:
            return False
        try:
            when = email.utils.parsedate_to_datetime(since)
        except (TypeError, ValueError, IndexError, OverflowError):
            return False
        if when is None or when.tzinfo is None:
            return False
        return int(st.st_mtime) <= when.timestamp()

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
        if self.cors:   # as GitHub Pages and most static hosts send: pages elsewhere may load embed.js
            self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()

    def log_message(self, format, *args):  # noqa: A002
        if not self.quiet:
            super().log_message(format, *args)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    base_url = ""
    stats: dict | None = None


def make_server(root: str, port: int = 0, bind: str = "127.0.0.1",
                prefix: str = "/", quiet: bool = True, gzip: bool = True,
                mime: dict[str, str] | None = None, cors: bool = False) -> Server:
    root = os.path.abspath(root)
    if not os.path.isdir(root):
        raise FileNotFoundError(f"site root {root!r} does not exist (run ./build.sh build)")
    handler = type("BoundHandler", (Handler,), {
        "prefix": normalize_prefix(prefix),
        "quiet": quiet,
        "gzip": gzip,
        "cors": cors,
        "gzip_cache": GzipCache(),
        "extensions_map": {**Handler.extensions_map, **(mime or {})},
    })
    server = Server((bind, port), functools.partial(handler, directory=root))
    server.stats = {"lock": threading.Lock(), "bytes": 0, "requests": 0, "by_path": {}}
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
    ap.add_argument("--no-gzip", action="store_true", help="never compress (like a host that does not)")
    ap.add_argument("--quiet", action="store_true", help="do not log requests")
    ap.add_argument("--cors", action="store_true",
                    help="send Access-Control-Allow-Origin: * (so pages of other origins may embed boards)")
    ap.add_argument("--mime", action="append", default=[], metavar="EXT=TYPE",
                    help="serve files ending in EXT as TYPE, e.g. .wasm=application/octet-stream")
    args = ap.parse_args(argv)
    mime = {}
    for item in args.mime:
        ext, sep, ctype = item.partition("=")
        if not sep or not ext.startswith(".") or not ctype:
            ap.error(f"--mime wants .EXT=TYPE, not {item!r}")
        mime[ext.lower()] = ctype
    try:
        server = make_server(args.root, args.port, args.bind, args.prefix, args.quiet,
                             gzip=not args.no_gzip, mime=mime, cors=args.cors)
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
