"""Tessera: five rare abstract games, played in the browser on Pyodide.

The package is pure standard-library Python: ``core`` (the game protocol,
records, sessions, drawing lists), ``games`` (one package per game),
``bots`` (search, generic over the protocol) and ``ui`` (the only part that
touches the browser through ``js``).
"""

__version__ = "0.1.0"
