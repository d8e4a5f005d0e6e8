"""PyScript entry point: start the Tessera app, or say clearly why it cannot.

Kept tiny so the page does as little as possible before the first screen:
``tessera.ui.app`` imports only what the home screen needs.
"""

import traceback

import js  # type: ignore[import-not-found]

try:
    from tessera.ui.app import start

    start()
except Exception as error:  # the page must show something rather than hang
    js.console.error(traceback.format_exc())
    js.tesseraBoot.fail(f"{type(error).__name__}: {error}")
