"""Nautilus duel: the two-player card game as a platform plugin (`PLUGIN` in plugin.py)."""
