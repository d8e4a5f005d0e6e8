"""The shared core every game plugs into (standard library only)."""
