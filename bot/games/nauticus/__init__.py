"""Nauticus's words, commands, panel and pictures for the platform (see `plugin.py`)."""
