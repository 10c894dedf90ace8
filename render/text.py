"""Alt-text helpers shared by every game's pictures."""

from __future__ import annotations

ALT_LIMIT = 1024  # Discord's limit for an attachment's description


def fit(text: str, limit: int = ALT_LIMIT) -> str:
    """`text` cut at a clause boundary to `limit` characters, marked with '…' when cut."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    for sep in ("; ", "\n", ", "):
        at = cut.rfind(sep)
        if at > limit // 2:
            return cut[:at] + "…"
    return cut + "…"
