"""`python -m bot offline --game island`: a whole game to the end, with pictures, and each seat's
private file holding its own panels and hand, never in the public transcript."""

from __future__ import annotations

import re
from pathlib import Path

from bot.offline import run_offline


async def test_an_offline_island_game_runs_to_the_end(tmp_path: Path) -> None:
    result = await run_offline(3, 1, tmp_path, game="island")
    text = result.transcript.read_text()
    assert "Nautilus Island begins" in text and "Nautilus Island is over!" in text
    assert result.moves > 60 and {rank for _, _, rank in result.scores} >= {1}
    names = {p.name for p in result.pictures}
    assert any("board" in n for n in names) and any("areas" in n for n in names)
    assert any("score" in n for n in names)
    private = tmp_path / "private"
    for who in ("ana", "ben", "cleo"):
        mine = (private / f"{who}.md").read_text()
        assert "Your hand" in mine and "/island hand" in mine
    assert len(result.private_pictures) == 3
    # The public transcript never shows a hand or a card identity.
    assert "Your hand" not in text and "you took the" not in text
    assert not re.search(r"[a-z]+:[a-z]+:[1-4]", text)
