"""What the page runs first: start the app, or say clearly why it cannot.

Kept tiny and free of the app's own imports, so that even an error while
importing the app reaches the loading screen (``tesseraBoot.fail`` in
assets/js/boot.js) instead of leaving it spinning.
"""

import random
import traceback

import js  # type: ignore[import-not-found]


def run() -> None:
    # The page starts from a memory snapshot taken after ``random`` was
    # imported, so its state would be the same on every load: reseed it.
    random.seed()
    try:
        from .app import start

        start()
    except Exception as error:  # the page must show something rather than hang
        js.console.error(traceback.format_exc())
        js.tesseraBoot.fail(f"{type(error).__name__}: {error}")
