"""PyScript entry point (copied to site/main.py): hand over to the package.

Everything that touches the page lives in ``tessera.ui``; ``entry.run``
also reports a failed start on the loading screen.
"""

from tessera.ui.entry import run

run()
