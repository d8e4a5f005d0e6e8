"""What every command of the command line shares: its user error and exit statuses."""

from __future__ import annotations

from .i18n import MessageError

EXIT_OK, EXIT_ERROR, EXIT_BAD_INPUT = 0, 1, 2


class CliError(MessageError):
    """A user error: printed as one line (its English text), exit status 2."""
