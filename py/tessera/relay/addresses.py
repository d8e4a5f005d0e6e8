"""Who a client is, as far as limits go: its address, and what each address may hold and do.

One stranger with a script must not be able to take the relay from
everyone else, so every cap that protects the relay (rooms, sockets) is
also held per address, at a small share of the whole, and what an address
may start (rooms made or restored, seats and watchers joined) is paced by
a token bucket of its own.

The address is the socket's peer, unless the peer is a trusted proxy (an
address or a network; by default loopback: the relay binds 127.0.0.1 and
expects a TLS proxy in front of it), in which case it is the right-most ``X-Forwarded-For`` entry
that is not itself a trusted proxy (what nginx's
``$proxy_add_x_forwarded_for`` appends).  IPv6 addresses count by their
/64, which one household or one server usually holds whole; IPv4-mapped
IPv6 addresses count as the IPv4 address.  Nothing here stores an address
outside this process: a shared store is given ``address_key``, a hash.
"""

from __future__ import annotations

import hashlib
import ipaddress
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable

LOOPBACK = ("127.0.0.1", "::1")


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _parse(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """An IP address (an IPv4-mapped IPv6 one as IPv4), or None if ``text`` is not one."""
    try:
        address = ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _counted(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str:
    """An address as it is counted: IPv6 by its /64."""
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def client_address(peer: Any, forwarded: str | None, trusted: tuple[Network, ...]) -> str:
    """The address a connection counts as (see the module docstring).

    ``peer`` is the socket's ``remote_address`` (a tuple, or None for a socket
    that has none), ``forwarded`` the ``X-Forwarded-For`` header, ``trusted``
    the proxies' networks as ``trusted_set`` gives them.
    """
    host = peer[0] if isinstance(peer, (tuple, list)) and peer else None
    here = _parse(str(host)) if host is not None else None
    if here is None:
        return "unknown"
    if not forwarded or not _trusted(here, trusted):
        return _counted(here)
    for hop in reversed(forwarded.split(",")[-16:]):
        found = _parse(hop)
        if found is None:
            return _counted(here)  # a proxy we trust would not write that: count the proxy
        if not _trusted(found, trusted):
            return _counted(found)
    return _counted(here)


def _trusted(address: Any, trusted: tuple[Network, ...]) -> bool:
    return any(address.version == network.version and address in network for network in trusted)


def trusted_set(entries: Iterable[str]) -> tuple[Network, ...]:
    """The trusted proxies: addresses or networks (``172.30.0.0/24``); entries that are neither are dropped
    (the command line refuses them first)."""
    found = []
    for entry in entries:
        try:
            found.append(ipaddress.ip_network(entry.strip().strip("[]"), strict=False))
        except ValueError:
            continue
    return tuple(found)


def address_key(address: str) -> str:
    """A stable name for an address that a shared store may keep (not the address itself)."""
    return hashlib.sha256(("tessera-address\n" + address).encode("utf-8")).hexdigest()[:24]


@dataclass
class Pace:
    """A token bucket: ``per_minute`` starts a minute, bursts of ``burst``."""

    per_minute: float
    burst: int
    tokens: float
    last: float

    def take(self, moment: float) -> bool:
        self.tokens = min(float(self.burst), self.tokens + (moment - self.last) * self.per_minute / 60.0)
        self.last = moment
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def full(self, moment: float) -> bool:
        return self.tokens + (moment - self.last) * self.per_minute / 60.0 >= self.burst


class AddressBook:
    """Sockets open and starts made, by address, in this process.

    ``starts``: rooms created or restored (``per_minute``, ``burst``);
    ``joins``: seats and watchers joined.  An address's entry lives while it
    has a socket or a bucket not yet full again (``prune``), so closing every
    socket does not reset what it may start.
    """

    def __init__(self, starts: tuple[float, int] = (10.0, 10), joins: tuple[float, int] = (60.0, 30),
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.starts, self.joins, self.monotonic = starts, joins, monotonic
        self.sockets: dict[str, int] = {}
        self._paces: dict[tuple[str, str], Pace] = {}

    def connected(self, address: str) -> int:
        return self.sockets.get(address, 0)

    def open(self, address: str) -> None:
        self.sockets[address] = self.sockets.get(address, 0) + 1

    def close(self, address: str) -> None:
        left = self.sockets.get(address, 0) - 1
        if left > 0:
            self.sockets[address] = left
        else:
            self.sockets.pop(address, None)

    def may_start(self, address: str) -> bool:
        """One more room made or restored from ``address`` now?"""
        return self._take("start", address, self.starts)

    def may_join(self, address: str) -> bool:
        """One more join from ``address`` now?"""
        return self._take("join", address, self.joins)

    def _take(self, kind: str, address: str, pace: tuple[float, int]) -> bool:
        moment = self.monotonic()
        bucket = self._paces.get((kind, address))
        if bucket is None:
            bucket = self._paces[(kind, address)] = Pace(pace[0], pace[1], float(pace[1]), moment)
        return bucket.take(moment)

    def prune(self) -> None:
        """Forget buckets that are full again (a sweep calls this)."""
        moment = self.monotonic()
        for key in [key for key, bucket in self._paces.items() if bucket.full(moment)]:
            del self._paces[key]

    def __len__(self) -> int:
        return len(self._paces)
