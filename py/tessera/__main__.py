"""``python3 -m tessera ...``: the command line (see ``tessera.cli``)."""

from .cli import main

raise SystemExit(main())
