"""Shared test configuration (CPython and Pyodide).

Hypothesis profile: in Pyodide (about 3x slower than CPython) and on CI, the
per-example deadline is off and the "too slow" health check is not fatal, so
timing noise cannot fail a run. Explicit ``@settings(...)`` on a test still
win, and ``HYPOTHESIS_PROFILE=default`` (or any registered name) overrides.
"""

import os
import sys

try:
    from hypothesis import HealthCheck, settings
except ImportError:  # hypothesis is in requirements-dev.txt; tolerate its absence
    settings = None

if settings is not None:
    settings.register_profile(
        "tessera-slow",
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
        print_blob=True,
    )
    profile = os.environ.get("HYPOTHESIS_PROFILE")
    if not profile and (sys.platform == "emscripten" or os.environ.get("CI")):
        profile = "tessera-slow"
    if profile:
        settings.load_profile(profile)
