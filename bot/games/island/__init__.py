"""Nautilus Island as a platform plugin."""
