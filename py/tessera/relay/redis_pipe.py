"""One Redis connection that carries every room command of this process, pipelined.

A relay process sends a few short commands a move (one ``COMMIT`` script,
now and then an ``HMGET``), from many rooms at once.  Going through redis-py's
pool for each costs more CPU than Redis spends on it (a connection taken
and given back, a timeout armed per read).  Here the commands that are
waiting go out together on one connection, then their answers are read in
order; meanwhile the next ones queue up and go in the next batch.  So a
busy process sends few packets and never waits for a free connection, and
an idle one sends each command at once.

A batch has ``timeout`` seconds for its answers: past that (a paused or
lost Redis) every command of it fails with ``TimeoutError``, the connection
is dropped, and the next batch connects again.  A command that failed may
still have run (Redis may only have been slow): callers treat the failure
as "unknown", never as "not done".  An error reply (``ResponseError``) is
that command's alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from typing import Any


def pack(args: tuple[Any, ...]) -> bytes:
    """One command in Redis's wire format (an array of bulk strings): the few kinds of argument the
    store sends, packed in one pass (redis-py's own packer costs more than the script it sends)."""
    parts = [b"*%d\r\n" % len(args)]
    for arg in args:
        data = arg if isinstance(arg, bytes) else str(arg).encode("utf-8")
        parts.append(b"$%d\r\n%b\r\n" % (len(data), data))
    return b"".join(parts)


class CommandPipe:
    """Commands on one connection made like ``pool``'s, in batches (see the module docstring)."""

    def __init__(self, pool: Any, timeout: float) -> None:
        kwargs = {**pool.connection_kwargs, "socket_timeout": None}  # one deadline a batch, not a read
        self.connection = pool.connection_class(**kwargs)
        self.timeout = timeout
        self._waiting: list[tuple[tuple[Any, ...], asyncio.Future]] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None

    async def execute(self, *args: Any) -> Any:
        """Send one command and return its answer (a ``ResponseError`` is raised)."""
        if self._task is None:
            self._task = asyncio.create_task(self._run())
        future = asyncio.get_running_loop().create_future()
        self._waiting.append((args, future))
        self._wake.set()
        return await future

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
            self._task = None
        for _, future in self._waiting:
            if not future.done():
                future.cancel()
        self._waiting = []
        with contextlib.suppress(Exception):
            await self.connection.disconnect()

    async def _run(self) -> None:
        from redis.exceptions import ResponseError

        connection = self.connection
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._waiting = self._waiting, []
            if not batch:
                continue
            answered = 0
            try:
                async with asyncio.timeout(self.timeout):
                    await connection.send_packed_command(b"".join(pack(args) for args, _ in batch),
                                                         check_health=False)
                    for _, future in batch:
                        try:
                            answer = await connection.read_response(timeout=math.inf, disconnect_on_error=False)
                        except ResponseError as error:  # this command's own error; the rest go on
                            answered += 1
                            if not future.done():
                                future.set_exception(error)
                            continue
                        answered += 1
                        if not future.done():
                            future.set_result(answer)
            except asyncio.CancelledError:
                raise
            except BaseException as error:  # the connection is in an unknown state: drop it, fail the rest
                with contextlib.suppress(Exception):
                    await connection.disconnect(nowait=True)
                for _, future in batch[answered:]:
                    if not future.done():
                        future.set_exception(error)
