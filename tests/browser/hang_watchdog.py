"""A watchdog that turns a browser test stuck for good into a failure.

Some Playwright calls have no timeout: ``page.evaluate``, ``keyboard.press``,
a DevTools command.  When a page's main thread never comes back (a script in
an endless loop), such a call waits for ever, and so did one CI run of the
whole suite, until CI stopped it 90 minutes later with nothing to say where.

Each phase of a test (setup, call, teardown) runs under a timer.  When it
fires, the watchdog notes where the test's thread stands (its Python stack)
and kills the Chromium renderers this process started: the waiting call then
raises Playwright's "Target crashed", the test fails with that stack in the
session's summary, and ``build.sh`` runs it once more (``--only-rerun
"(Target|Page) crashed"``); the reused context is made anew after a crash.  If the
phase still has not ended a minute later, every Chromium process of this
process goes, so the session's last fixtures fail instead of waiting.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

import greenlet   # Playwright's sync API runs on it

PHASE_LIMIT_S = float(os.environ.get("TESSERA_TEST_PHASE_LIMIT_S", "240"))
"""How long one phase of a browser test may run: the longest passes in about 90 s on a loaded
2-core machine (``--durations`` of ``./build.sh test``)."""
GRACE_S = 60.0
"""After the renderers were killed: how long before the whole browser goes too."""
TESTS_DIR = str(Path(__file__).resolve().parents[1])


def descendants(root_pid: int) -> list[tuple[int, str]]:
    """(pid, command line) of every process below ``root_pid``, read from /proc."""
    children: dict[int, list[int]] = {}
    commands: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:   # the process ended meanwhile
            continue
        # The command name, in parentheses, may hold spaces: the parent's pid follows its end.
        parent = int(stat[stat.rindex(")") + 2:].split()[1])
        children.setdefault(parent, []).append(int(entry))
        commands[int(entry)] = cmdline.replace(b"\0", b" ").decode(errors="replace")
    found: list[tuple[int, str]] = []
    todo = [root_pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append((child, commands.get(child, "")))
            todo.append(child)
    return found


def chromium_processes(renderers_only: bool) -> list[int]:
    """The Chromium processes this test process started (through Playwright's driver): their
    renderers, or all of them."""
    pids = []
    for pid, command in descendants(os.getpid()):
        if "chrom" not in command:
            continue
        if renderers_only and "--type=renderer" not in command:
            continue
        pids.append(pid)
    return pids


def kill(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


@dataclass
class Stuck:
    """One phase the watchdog stopped: which, and where the test's thread was waiting."""

    test: str
    phase: str
    stack: str
    killed: list[str] = field(default_factory=list)

    def describe(self) -> str:
        killed = "; ".join(self.killed) or "nothing to kill"
        return (f"{self.test} ({self.phase}) was still running after {PHASE_LIMIT_S:.0f} s: "
                f"{killed}. It was waiting in:\n{self.stack}")


class Watchdog:
    """The timers of the session's phases and what they stopped."""

    def __init__(self) -> None:
        self.stuck: list[Stuck] = []

    def start(self, test: str, phase: str) -> threading.Event:
        """Watch one phase; set the returned event when it ends."""
        ended = threading.Event()
        # A Playwright call of the sync API waits in its own greenlet: the test's frames are
        # those of the greenlet that called, suspended, not the thread's running ones.
        watched = (greenlet.getcurrent(), threading.get_ident())
        thread = threading.Thread(target=self._watch, args=(test, phase, watched, ended),
                                  name=f"watchdog {test} {phase}", daemon=True)
        thread.start()
        return ended

    def _watch(self, test: str, phase: str, watched: tuple[greenlet.greenlet, int],
               ended: threading.Event) -> None:
        if ended.wait(PHASE_LIMIT_S):
            return
        stuck = Stuck(test, phase, self._stack_of(watched))
        self.stuck.append(stuck)
        renderers = chromium_processes(renderers_only=True)
        kill(renderers)
        stuck.killed.append(f"killed {len(renderers)} renderer(s)")
        if ended.wait(GRACE_S):
            return
        browsers = chromium_processes(renderers_only=False)
        kill(browsers)
        stuck.killed.append(f"then, {GRACE_S:.0f} s later, {len(browsers)} Chromium process(es)")

    @staticmethod
    def _stack_of(watched: tuple[greenlet.greenlet, int]) -> str:
        caller, thread_id = watched
        frame: FrameType | None = caller.gr_frame   # None while it runs (not in a Playwright call)
        if frame is None:
            frame = sys._current_frames().get(thread_id)
        if frame is None:
            return "(the test's thread has ended)"
        # The test's own frames and the Playwright call they wait in; not pytest's nor greenlet's.
        lines = traceback.format_stack(frame)
        ours = [i for i, line in enumerate(lines) if TESTS_DIR in line]
        if ours:
            lines = lines[ours[0]:ours[-1] + 2]
        return "".join(lines).rstrip()
