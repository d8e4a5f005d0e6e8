"""What Chromium said while a browser test ran, for the report of a test that failed.

A renderer that dies (a failed CHECK, the kernel's out-of-memory killer, a
signal) leaves the test only Playwright's "Target crashed" or "Page
crashed", and one CI run failed on that with no word of why.  Chromium's own
log says more: the browser notes a killed tab, a renderer its failed check or
its out-of-memory.  Each Chromium the tests launch logs, from warnings up, to
a file of its own in one folder; a failed test's report shows what was added
to them while it ran, with the machine's free memory and disk.
"""

from __future__ import annotations

import itertools
import shutil
import tempfile
from pathlib import Path

LOG_LEVEL_WARNING = "1"
"""Chromium's --log-level: warnings, errors and fatal messages (the page's console is in PageLog)."""
NOISE = ("dbus", "idle_linux.cc", "alsa_util.cc", "user_education")
"""Lines a headless Chromium writes on a machine without D-Bus or sound: they say nothing about a
test."""
MAX_LINES = 40


class ChromiumLogs:
    """The log files of the Chromium processes launched by this test session."""

    def __init__(self) -> None:
        self.folder: Path | None = None   # made at the first launch: the bench imports conftest too
        self._numbers = itertools.count(1)

    def args_for_launch(self) -> list[str]:
        """Chromium's arguments for logging one more browser to a new file (its renderers and
        workers write to it too)."""
        if self.folder is None:
            self.folder = Path(tempfile.mkdtemp(prefix="tessera-chromium-log-"))
        path = self.folder / f"chromium-{next(self._numbers)}.log"
        return ["--enable-logging", f"--log-file={path}", f"--log-level={LOG_LEVEL_WARNING}"]

    def mark(self) -> dict[Path, int]:
        """How far each file has been written: what ``since`` starts from."""
        return {path: path.stat().st_size for path in self._files()}

    def since(self, mark: dict[Path, int]) -> list[str]:
        """The lines written after ``mark`` (noise left out, the last MAX_LINES of them)."""
        lines: list[str] = []
        for path in self._files():
            try:
                with path.open("rb") as file:
                    file.seek(mark.get(path, 0))
                    text = file.read().decode(errors="replace")
            except OSError:
                continue
            lines += [f"{path.name}: {line}" for line in text.splitlines()
                      if line.strip() and not any(noise in line for noise in NOISE)]
        if len(lines) > MAX_LINES:
            lines = [f"({len(lines) - MAX_LINES} earlier lines left out)"] + lines[-MAX_LINES:]
        return lines

    def remove(self) -> None:
        """Delete the folder, once the session's browsers have closed."""
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)

    def _files(self) -> list[Path]:
        return sorted(self.folder.glob("*.log")) if self.folder is not None else []
