"""Alt-text helpers shared by every game's pictures."""

from __future__ import annotations

from collections.abc import Iterable

from render.words import w

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


def clauses(parts: Iterable[str]) -> str:
    """Clauses of one sentence joined by semicolons as the language writes them: English
    'a; b', French 'a ; b' (a narrow no-break space before ';'). The separator is a template
    of the catalogue, so code never glues punctuation between translated words."""
    out = ""
    for part in parts:
        if not part:
            continue
        out = w("{before}; {after}", before=out, after=part) if out else part
    return out


def labelled(label: str, text: str) -> str:
    """'Label: text' as the language writes it (French 'Étiquette : texte', with a narrow
    no-break space before ':')."""
    return w("{label}: {text}", label=label, text=text)
