"""One package per game; each registers itself in ``tessera.core.registry``."""
