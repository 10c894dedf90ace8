"""The Nauticus board's alt text fits Discord's 1,024-character attachment description, uncut,
in English and French, over many states of 2-4 players, and still says everything a player
needs (the French one said up to ~1,140 characters and lost its scores line to the cut)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from bot import i18n
from bot.games import GAMES  # installs the catalogue into render.words
from engine.ai.evaluate import _nauticus_rollout
from engine.nauticus import RULES, view
from render.nauticus.text import ACTIONS, CREST, HULL, _short, bonus_words, crest, good
from render.text import ALT_LIMIT
from render.words import w

assert GAMES  # imported for its side effect


def views() -> Iterator[dict[str, Any]]:
    """Every fifth public view of 36 whole games (2, 3 and 4 players; uniform random players
    and the AI's rollout policy, which builds ships and delivers)."""
    for g in range(36):
        players = 2 + g % 3
        rng = random.Random(g)
        state = RULES.new_game(players, 100 + g)
        k = 0
        yield view(state, None)
        while not RULES.is_over(state):
            seat = RULES.current(state)
            assert seat is not None
            moves = RULES.legal_moves(state, seat)
            move = _nauticus_rollout(state, seat, moves, rng) if g % 2 else rng.choice(moves)
            state, _ = RULES.apply(state, seat, move)
            k += 1
            if k % 5 == 0 or RULES.is_over(state):
                yield view(state, None)


@cache
def all_views() -> tuple[dict[str, Any], ...]:
    """`views()`, played once by the worker that runs these tests (not at collection, which
    every worker does)."""
    return tuple(views())


def said(v: dict[str, Any]) -> list[str]:
    """What the text must say in the language of the context: the facts a player reads."""
    facts = []
    for s in v["spaces"]:
        # "Space 3" / "Case 3", as the template without marks names it.
        facts.append(w("Space {n}: {action}", n=s["index"], action="").split(":")[0].strip())
        facts.append(w(ACTIONS[s["action"]]))
        if not s["flipped"]:
            facts.append("+" + bonus_words(s["bonus"]))
            facts += [f"{_short(it['item'])} {it['price']}" for it in s["items"]]
    sup = v["supply"]
    facts += [f"{w(HULL[h])} {sup[h]}" for h in HULL]
    facts += [f"{good(g)} {sup[g]}" for g in ("coffee", "grain", "fish", "salt")]
    facts += [
        w(
            "{crest} {masts} and {sails}",
            crest=crest(c),
            masts=sup[f"mast_{c}"],
            sails=sup[f"sail_{c}"],
        )
        for c in CREST
    ]
    return facts


@pytest.mark.parametrize("locale", ["en", "fr"])
def test_every_board_alt_text_fits_uncut_and_ends_with_the_scores(locale: str) -> None:
    from render.nauticus.text import board_alt

    assert len(all_views()) > 1500
    longest = 0
    with i18n.use(locale):
        for v in all_views():
            alt = board_alt(v)
            longest = max(longest, len(alt))
            assert len(alt) <= ALT_LIMIT and not alt.endswith("…"), alt
            # The scores line is last and whole: every seat's VP.
            last = alt.rsplit("\n", 1)[1]
            scores = ", ".join(
                w("{vp} for {seat}", vp=p["score"], seat=w("seat {n}", n=p["seat"] + 1))
                for p in v["players"]
            )
            assert last == w("VP: {scores}.", scores=scores)
            for fact in said(v):
                assert fact in alt, (fact, alt)
            # Blue workers: each space's number, once, in the grouped sentence.
            blue = {s["index"]: s["blue"] for s in v["spaces"] if s["blue"]}
            line = next(
                (
                    x
                    for x in alt.split("\n")
                    if x.startswith(w("Blue workers: {groups}.", groups="")[:-1])
                ),
                "",
            )
            told = {int(n): c for c, spaces in _groups(line) for n in spaces}
            assert told == blue, line
    # Room to spare, so the longest state no test met still fits.
    assert longest <= ALT_LIMIT - 30


def _groups(line: str) -> Iterator[tuple[int, list[str]]]:
    """(count, spaces) of each clause of the blue workers' sentence, English or French."""
    for clause in re.split(r"\s?; ", line.split(":", 1)[1].rstrip(".")) if line else []:
        numbers = re.findall(r"\d+", clause)
        yield int(numbers[-1]), numbers[:-1]


def test_the_french_board_text_reads_as_french() -> None:
    from render.nauticus.text import board_alt

    v = next(v for v in all_views() if v["players_count"] == 4 and v["step"] != "over")
    with i18n.use("fr"):
        alt = board_alt(v)
    nnbsp = "\u202f"
    lines = alt.split("\n")
    assert lines[0].startswith("Plateau, manche ") and f"Premier joueur{nnbsp}: place " in lines[0]
    blue = next(x for x in lines if x.startswith("Ouvriers bleus"))
    assert re.fullmatch(
        rf"Ouvriers bleus{nnbsp}: (l(a case \d+ en a|es cases [\d, ]+ et \d+ en ont) \d)"
        rf"({nnbsp}; l(a case \d+ en a|es cases [\d, ]+ et \d+ en ont) \d)*\.",
        blue,
    ), blue
    assert lines[-2].startswith(f"Mâts et voiles{nnbsp}: Baleine ") and " et " in lines[-2]
    assert re.fullmatch(
        rf"PV{nnbsp}: -?\d+ pour la place 1(, -?\d+ pour la place \d)+\.", lines[-1]
    )
    for line in lines[1:9]:
        assert re.match(rf"Case \d( \([^)]*\))?{nnbsp}: ", line), line
