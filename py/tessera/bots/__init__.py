"""Bots that play any game through the core protocol."""
