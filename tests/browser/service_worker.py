"""Waiting for the site's service worker to control a page.

A reload goes through the service worker only once it controls the page:
before that, the page fetches from the host, and its workers look in Cache
Storage themselves.  Tests of what the worker serves (the kept copies, a
damaged precache, offline play) reload only after this wait; a reload too soon
took the other path under load (stop 52's race).
"""

from __future__ import annotations

from playwright.sync_api import Page

CONTROLLED_JS = "() => navigator.serviceWorker.controller !== null"


def wait_controlled(page: Page, timeout_ms: float | None = None) -> None:
    """Once the page's service worker controls it (``timeout_ms``: the context's default
    when not given).  A controller is an active worker: no need to wait for
    ``navigator.serviceWorker.ready``, which would never settle on a page without one."""
    page.wait_for_function(CONTROLLED_JS, timeout=timeout_ms)
