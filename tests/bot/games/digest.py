"""Reading a turn ping's "since your last move" digest in the games' secrecy tests."""

from __future__ import annotations

HEADS = ("Since your last move:", "Since the last board picture:")


def split_digest(text: str) -> tuple[str, list[str]]:
    """(the text without its digest, the digest's move lines without their bullet)."""
    kept: list[str] = []
    digest: list[str] = []
    inside = False
    for line in text.splitlines():
        inside = inside or line in HEADS
        if inside and line.startswith("• "):
            digest.append(line[2:])
        else:
            kept.append(line)
    return "\n".join(kept), digest


def digest_moves(line: str) -> list[str]:
    """The moves told by one digest line ("🔴 Ana placed … · collected …", its bullet removed):
    the line less its seat mark and the player's name (one word at these tests' tables)."""
    return line.split(" ", 2)[2].split(" · ")
