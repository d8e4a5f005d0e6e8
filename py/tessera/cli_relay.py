"""``python3 -m tessera relay``: the relay for remote play, on the command line.

Apart from ``cli`` because only this command needs ``websockets`` (and
Redis), which it imports when it runs.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
from typing import Any, TextIO

from .cli_base import EXIT_OK, CliError


def cmd_relay(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run the relay until interrupted, first printing where it listens.  Imported
    here: only the relay needs ``websockets``, the rest (and the page) does without."""
    import asyncio
    try:
        import websockets  # noqa: F401
        from .relay.addresses import LOOPBACK
        from .relay.server import RelayConfig, serve_forever
    except ImportError as error:
        raise CliError("error.cli.relay_needs_websockets", detail=error.name or error) from None
    limits = [args.max_rooms, args.max_connections, args.idle_minutes, args.pending_minutes,
              args.spectators_per_room]
    limits += [value for value in (args.rooms_per_address, args.connections_per_address) if value is not None]
    if min(limits) < 1:
        raise CliError("error.cli.relay_limits")
    for entry in args.trust_proxy or ():
        try:
            ipaddress.ip_network(entry.strip("[]"), strict=False)
        except ValueError:
            raise CliError("error.cli.relay_bad_proxy", value=entry[:64]) from None
    config = RelayConfig(host=args.host, port=args.port, max_rooms=args.max_rooms, origins=args.origin,
                         max_connections=args.max_connections, idle_seconds=args.idle_minutes * 60,
                         pending_seconds=args.pending_minutes * 60, spectators_per_room=args.spectators_per_room,
                         rooms_per_address=args.rooms_per_address,
                         connections_per_address=args.connections_per_address,
                         trusted_proxies=tuple(args.trust_proxy) if args.trust_proxy is not None else LOOPBACK)
    store = None
    unavailable: tuple[type[Exception], ...] = ()  # Redis out of reach, once the relay starts
    if args.redis is not None:
        from .relay.redis_store import RedisStore, StoreUnavailable  # imports redis only when a store is made
        unavailable = (StoreUnavailable,)
        try:
            store = RedisStore(args.redis, ttl=config.idle_seconds, pending_ttl=config.pending_seconds)
        except ImportError as error:
            raise CliError("error.cli.relay_needs_redis", detail=error.name or error) from None
        except StoreUnavailable as error:
            raise CliError("error.cli.relay_bad_redis_url", url=error.url, detail=error.detail) from None
    try:
        asyncio.run(serve_forever(config, lambda line: print(line, file=out, flush=True), store))
    except OSError as error:
        raise CliError("error.cli.relay_cannot_listen", host=args.host, port=args.port,
                       detail=error.strerror or error) from None
    except unavailable as error:
        raise CliError("error.cli.relay_no_redis", url=error.url, detail=error.detail) from None
    return EXIT_OK


def add_relay_command(sub: Any) -> None:
    """The ``relay`` sub-command and its options, on the command line's sub-parsers."""
    relay = sub.add_parser("relay", help="run the relay server for remote play (needs websockets)",
                           description="Pages play remotely through this WebSocket relay. Port 0 picks a "
                                       "free port; the first line printed is the address.")
    relay.add_argument("--host", default="127.0.0.1", help="address to bind (default loopback)")
    relay.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    relay.add_argument("--max-rooms", type=int, default=1000, metavar="N")
    relay.add_argument("--max-connections", type=int, default=2000, metavar="N")
    relay.add_argument("--origin", action="append", default=None, metavar="URL",
                       help="accept pages from this origin only (repeatable)")
    relay.add_argument("--idle-minutes", type=int, default=360, metavar="N",
                       help="remove a room nobody has been connected to for this long")
    relay.add_argument("--pending-minutes", type=int, default=10, metavar="N",
                       help="remove a room whose second player never came, once nobody has been "
                            "connected to it for this long")
    relay.add_argument("--rooms-per-address", type=int, default=None, metavar="N",
                       help="rooms one client address may hold (default 5%% of --max-rooms, at least 2)")
    relay.add_argument("--connections-per-address", type=int, default=None, metavar="N",
                       help="sockets one client address may hold (default 5%% of --max-connections, at least 4)")
    relay.add_argument("--spectators-per-room", type=int, default=20, metavar="N",
                       help="watchers of one room on this process")
    relay.add_argument("--trust-proxy", action="append", default=None, metavar="ADDRESS",
                       help="a proxy (an address or a network such as 172.30.0.0/24) whose X-Forwarded-For "
                            "names the client (repeatable; default 127.0.0.1 and ::1)")
    relay.add_argument("--redis", default=os.environ.get("TESSERA_RELAY_REDIS") or None, metavar="URL",
                       help="keep rooms in Redis (e.g. redis://127.0.0.1:6379/0), shared by every relay "
                            "process given the same URL (needs the redis package); default: the "
                            "TESSERA_RELAY_REDIS environment variable, which keeps a password out of ps")
    relay.set_defaults(run=cmd_relay)
