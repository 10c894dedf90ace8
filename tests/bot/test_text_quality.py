"""Issue 23, item 3: every line a player reads, in both languages, read by a proof-reader.

Seeded games of every game are played through the plugins (English and French; random seats,
and seats played by the AI's one-ply `greedy`), and every line the table or a seat reads is
collected: the log line of each move (what `/games log`, the digests and the history show), the
digest line it makes, the ping's done line, phase posts, turn pings, what a seat must decide,
status lines, panel headers, hand texts, the start and final posts, and the pictures' alt texts
(read aloud by screen readers). `problems` then flags what a native reader would stumble on:

- a line about another player's move told in the second person or as an instruction;
- a label said twice ("Money: Money:", "must Masts: buy"), or a line ending in a loose gerund;
- English "a" before a vowel sound ("a Anchor ship");
- French "de le", "à le", "de les", "à les", "du le" and a missing elision ("de Ana", "que il");
- a count that disagrees with its noun ("1 talers", "1 crowns", "2 voile", "(1 bleus)");
- English words left in a French line, and French ":" ";" "!" "?" without their no-break space.

Each example the issue lists, planted into a transcript, must be caught.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import render.duel.text as duel_alt
import render.island.text as island_alt
import render.nauticus.text as nauticus_alt
from bot import i18n, move_words
from bot.games import GAMES
from bot.plugin import EventLine
from bot.visibility import event_dict, readable, seen
from engine import ai

Line = tuple[str, str]  # (surface, text)

NAMES = ("Ana", "Ben", "Cleo", "Dev")
ALT_EVERY = 6  # alt texts are collected every this many moves (and at the end)

# The surfaces that tell the table about a player's moves: never "you", never an instruction.
ABOUT_OTHERS = frozenset({"log", "digest", "done", "post", "status", "must", "final", "alt"})


def _alts(kind: str, view: dict[str, Any], players: int) -> list[str]:
    """The alt texts of the public pictures of `view` (the texts render writes for them)."""
    over = bool(view.get("final"))
    if kind == "nauticus":
        out = [nauticus_alt.board_alt(view)]
        out += [nauticus_alt.shipyard_alt(view, s) for s in range(players)]
        return out + ([nauticus_alt.scores_alt(view)] if over else [])
    if kind == "island":
        out = [island_alt.board_alt(view), island_alt.areas_alt(view, list(range(players)))]
        out += [island_alt.player_alt(view, s) for s in range(players)]
        return out + ([island_alt.scores_alt(view)] if over else [])
    return [duel_alt.board_alt(view)] + ([duel_alt.scores_alt(view)] if over else [])


def _hand_alts(kind: str, view: dict[str, Any]) -> list[str]:
    """The alt text of the private hand picture the seat to play is sent (Nauticus has none)."""
    if kind == "island":
        return [island_alt.hand_alt(view)]
    if kind == "duel":
        return [duel_alt.hand_alt(view)]
    return []


def transcript(
    kind: str, players: int, seed: int, locale: str, ai_seats: frozenset[int]
) -> list[Line]:
    """Every line read in one seeded game of `kind`, in `locale`."""
    plugin = GAMES.get(kind)
    rules = plugin.rules
    names = NAMES[:players]
    rng = random.Random(f"text-quality/{kind}/{seed}")
    state = rules.new_game(players, seed)
    out: list[Line] = []
    with i18n.use(locale):
        out.append(("start", plugin.start_post(seen(plugin, state, names, None)).text))
        unit: list[EventLine] = []
        n = 0
        while not rules.is_over(state):
            seat = rules.current(state)
            assert seat is not None
            if seat in ai_seats:
                move = dict(ai.greedy(rules, state, seat, seed=seed * 1000 + n))
            else:
                move = dict(rng.choice(rules.legal_moves(state, seat)))
            before = seen(plugin, state, names, None)
            text = move_words.describe(kind, move, state)
            state, raw = rules.apply(state, seat, move)
            n += 1
            events = readable([event_dict(e) for e in raw], None)
            after = seen(plugin, state, names, None)
            out.append(("log", text))
            # The digest line of a ping, as the service writes it (`Posts.digest`).
            out.append(
                (
                    "digest",
                    i18n.tr("• {emoji} {name} {moves}", emoji="🔵", name=names[seat], moves=text),
                )
            )
            out.append(("done", plugin.done_line(before, seat, events)))
            if unit and (unit[-1].round, unit[-1].phase) != plugin.unit(before):
                unit = []
            unit.append(EventLine(n, seat, *plugin.unit(before), text, tuple(events)))
            post = plugin.phase_post(before, after, unit, events)
            if post is not None:
                out.append(("post", post.text))
            if not rules.is_over(state):
                current = rules.current(state)
                assert current is not None
                mine = seen(plugin, state, names, current)
                out.append(("ping", plugin.turn_ping(after, 10_000 + current)))
                out.append(("must", plugin.must_decide(after, you=False)))
                out.append(("mustyou", plugin.must_decide(after, you=True)))
                out.append(("status", plugin.status_line(after)))
                out.append(("panel", plugin.panel_header(mine)))
                out.append(("hand", plugin.hand_text(mine)))
            if n % ALT_EVERY == 0 or rules.is_over(state):
                out.extend(("alt", a) for a in _alts(kind, after.view, players))
                if not rules.is_over(state):
                    # Private pictures speak to their reader ("Your hand"): not "about others".
                    out.extend(("handalt", a) for a in _hand_alts(kind, mine.view))
        out.append(("final", plugin.final_post(seen(plugin, state, names, None)).text))
    return out


# --- the proof-reader ----------------------------------------------------------------------------

_CODE = re.compile(r"`[^`]*`|<@!?\d+>|https?://\S+")

_EN_YOU = re.compile(r"\b(you|your|yours)\b", re.IGNORECASE)
_FR_YOU = re.compile(r"\b(vous|votre|vos)\b", re.IGNORECASE)
# A line that starts as an instruction (the old log lines: "Place your pawn…", "Placer…").
_LEAD = r"^(?:[•✓]\s*)?(?:[^\w\s]+\s+)?(?:[\w'’-]+[ \u202f\u00a0]?:\s+)?"
_EN_ORDER = re.compile(
    _LEAD + r"(Place|Move|Keep|Take|Buy|Choose|Collect|Store|Close|Play|Return|Transport|End|"
    r"Pass|Deliver|Do)\b"
)
_FR_ORDER = re.compile(
    _LEAD + r"(Placer|Déplacer|Garder|Prendre|Acheter|Choisir|Récolter|Stocker|Fermer|Jouer|"
    r"Rendre|Transporter|Finir|Passer|Livrer|Poser|Ne rien)\b"
)
_COLON = "[ \u202f\u00a0]?:"
_DOUBLE_LABEL = re.compile(rf"\b([A-ZÀ-Ý][\w'’-]*(?: [\w'’-]+)?){_COLON}\s+\1{_COLON}", re.I)
_MUST_LABEL = re.compile(rf"\b(must|doit|decides?|décide)\s+\**[A-ZÀ-Ý][\w'’ -]{{0,20}}{_COLON}\s")
_GERUND_END = re.compile(r":\s*\w+ing\.?$|:\s*choix en cours\.?$")
_EN_A = re.compile(r"\b[Aa] (?:(?!one|uni|use|eu|ur)[aeiouAEIOU]\w*|8\w*|11\b|18\b)")
_FR_CONTRACT = re.compile(r"\b(?:de|à|du|au|De|À|Du|Au) (?:le|les)\b(?! (?:faire|jouer|voir|lire))")
_FR_ELIDE = re.compile(
    r"(?<!-)\b(?:de|que|le|la|ne|je|me|te|se|si|De|Que|Le|La|Ne) "
    r"(?:il|ils|[aeiouâàéèêëîïôœûAEIOUÂÀÉÈÊÎÔŒ]\w*)"
)
# French "si" elides only before "il(s)": "si impair", "si elle", "si on" are right.
_FR_ELIDE_OK = re.compile(r"\b(?:la|le) (?:ou|et|à|en|un|une)\b|\bsi (?!ils?\b)|\bque (?:à|au)\b")
# A count of one with a plural noun, or a larger count with a singular one.
_EN_NOUNS = (
    "crown|taler|worker|card|stack|token|diver|domain|mast|sail|ship|tile|reward|way|bow|stern|"
    "good|porthole|point|player|round|phase|turn|move"
)
_EN_ONE_MANY = re.compile(
    rf"(?<![\d.,])\b1 (?:blue |face-down |[A-Z][a-z]+ (?:ship )?)?(?:{_EN_NOUNS})s\b"
)
# "taler" is the game's own plural in English ("2 taler"), so only "1 talers" is wrong.
_EN_MANY_ONE = re.compile(
    rf"(?<![\d.,−-])\b(?:[2-9]|[1-9]\d+) (?:blue |face-down |[A-Z][a-z]+ (?:ship )?)?"
    rf"(?:{_EN_NOUNS.replace('taler|', '')})\b(?!s|-| cards?\b| (?:mast|sail)s\b)"
)
_FR_NOUNS = (
    "thaler|taler|ouvrier|couronne|carte|pile|jeton|tuile|navire|mât|voile|récompense|"
    "scaphandrier|domaine|hublot|proue|poupe|façon|manche|coup|joueur|marchandise"
)
_FR_ONE_MANY = re.compile(
    rf"(?<![\d.,])\b[01] (?:{_FR_NOUNS})s\b|(?<![\d.,])\b[01] \w+ \((?:\w+ )?\w+s\)|\([01] \w+s\)|"
    r"(?<![\d.,])\b[01] (?:\w+ )?(?:bleus|retournées|restantes|restants|cachées)\b"
)
_FR_MANY_ONE = re.compile(rf"(?<![\d.,−-])\b(?:[2-9]|[1-9]\d+) (?:{_FR_NOUNS})\b(?!s)(?! d'une)")
_FR_NO_ARTICLE = re.compile(r"\b(?:de|à|au-dessus|au-dessous) (?:place|colonne|case|manche) \d")
_ENGLISH_IN_FR = re.compile(
    r"\b(the|and|with|your|their|seat|lobby|workers?|crowns?|storage|ships?|tiles?|cards?|"
    r"wins|passed|bought|took|placed|moved|stored|collected|kept|nothing|none|Game over|"
    r"board|slot|arrow|divers?|specials?|players?|Tie-break|taler|Whale|Helm|Anchor ship|"
    r"Nautilus duel|VP)\b"
)
_FR_SPACE = re.compile(r"(?:[^\s\u202f\u00a0]|^)[:;!?](?=\s|$)| [:;!?](?=\s|$)")


def flagged(surface: str, text: str, locale: str) -> list[tuple[str, str, str]]:
    """What a proof-reader would flag in one text (`surface`: where it is read), as (rule, the
    words flagged, the line)."""
    found: list[tuple[str, str, str]] = []
    for raw in text.split("\n"):
        line = _CODE.sub("`…`", raw).replace("**", "")

        def flag(rule: str, match: re.Match[str] | None, raw: str = raw) -> None:
            if match is not None:
                found.append((rule, match.group(0), raw))

        if surface in ABOUT_OTHERS:
            you = _FR_YOU if locale == i18n.FRENCH else _EN_YOU
            order = _FR_ORDER if locale == i18n.FRENCH else _EN_ORDER
            flag("second person about others", you.search(line))
            flag("an instruction about others", order.search(line.lstrip("• ")))
        flag("a label twice", _DOUBLE_LABEL.search(line))
        flag("a label inside the decision", _MUST_LABEL.search(line))
        flag("a loose gerund", _GERUND_END.search(line.strip()))
        if locale == i18n.ENGLISH:
            flag("'a' before a vowel sound", _EN_A.search(line))
            flag("one with a plural", _EN_ONE_MANY.search(line))
            flag("many with a singular", _EN_MANY_ONE.search(line))
            continue
        flag("de le / à le", _FR_CONTRACT.search(line))
        for m in _FR_ELIDE.finditer(line):
            if not _FR_ELIDE_OK.match(m.group(0)):
                flag("missing elision", m)
        flag("one with a plural", _FR_ONE_MANY.search(line))
        flag("many with a singular", _FR_MANY_ONE.search(line))
        flag("a missing article", _FR_NO_ARTICLE.search(line))
        flag("English in French", _ENGLISH_IN_FR.search(line))
        flag("no no-break space before punctuation", _FR_SPACE.search(line))
    return found


def problems(surface: str, text: str, locale: str) -> list[str]:
    return [
        f"{rule}: {words!r} in {line!r}" for rule, words, line in flagged(surface, text, locale)
    ]


def read(lines: list[Line], locale: str) -> list[str]:
    return [p for surface, text in lines for p in problems(surface, text, locale)]


# --- the transcripts -----------------------------------------------------------------------------

GAMES_PLAYED = [
    # (kind, players, seed, AI seats)
    ("nauticus", 3, 1, frozenset()),
    ("nauticus", 2, 2, frozenset({0, 1})),
    ("island", 3, 3, frozenset()),
    ("island", 4, 4, frozenset({0, 2})),
    ("duel", 2, 5, frozenset()),
    ("duel", 2, 6, frozenset({0, 1})),
]


def _cases() -> Iterator[Any]:
    for kind, players, seed, seats in GAMES_PLAYED:
        for locale in i18n.LOCALES:
            who = "ai" if seats else "random"
            yield pytest.param(kind, players, seed, locale, seats, id=f"{kind}-{locale}-{who}")


@pytest.mark.parametrize(("kind", "players", "seed", "locale", "seats"), list(_cases()))
def test_every_line_of_a_seeded_game_reads_right(
    kind: str, players: int, seed: int, locale: str, seats: frozenset[int]
) -> None:
    lines = transcript(kind, players, seed, locale, seats)
    # A whole game was read: its moves, their digests, pings, posts and the final post.
    assert sum(s == "log" for s, _ in lines) >= 20
    assert {s for s, _ in lines} >= {"log", "digest", "done", "ping", "post", "alt", "final"}
    assert lines[-1][0] == "final"
    # The alt texts are read like every other line (a screen reader says them aloud).
    assert sum(s == "alt" for s, _ in lines) >= 3
    assert (sum(s == "handalt" for s, _ in lines) >= 3) == (kind != "nauticus")
    found = read(lines, locale)
    assert found == [], "\n".join(sorted(set(found))[:40])


# --- the proof-reader catches every example of issue 23 -----------------------------------------

PLANTED: list[tuple[str, str, str]] = [
    # (locale, surface, line) — each as the issue quotes it, in a line the table reads.
    ("en", "digest", "• 🔵 Ben: Place your pawn above column 0"),
    ("fr", "digest", "• 🔴 Ana : Placer votre pion au-dessus de la colonne 0"),
    ("en", "log", "Take a Anchor ship sail as bonus"),
    ("en", "done", "✓ 🟢 Cleo — Money: Money: 2 workers → 4 taler"),
    ("en", "done", "✓ 🟢 Cleo — Crowns: Crowns: 1 worker × 3 crowns → 3 VP"),
    ("en", "status", "Round 2/5 · Phase 3/7 · 🔴 Nemo (seat 1) must Masts: buy or pass."),
    (
        "fr",
        "status",
        "Manche 2/5 · Phase 3/7 · 🔴 Nemo (place 1) doit Livrer\u202f: livrer ou passer.",
    ),
    ("en", "post", "the 8's arrow can move 3 ways: choosing."),
    ("fr", "done", "✓ 🔴 Ana a déplacé le 5 avec la flèche du le 8."),
    ("fr", "done", "✓ 🔵 Ben a posé le 7 du côté de Ana, emplacement 2."),
    ("fr", "done", "✓ 🟢 Cleo a pris 2 thalers avec 1 ouvrier · coût\u202f: 1 talers"),
    ("fr", "done", "✓ 🟢 Cleo a acheté une proue · coût\u202f: 1 ouvrier (bleus)"),
    ("fr", "panel", "3 ouvriers (1 bleus) · 4 thalers"),
    ("fr", "panel", "3 ouvriers (+1 bleus) · 4 thalers"),
    ("fr", "done", "✓ Ana (Coques) a acheté une proue · coût\u202f: 3 ouvriers (dont 1 bleus)"),
    ("fr", "alt", "Ana a 1 couronnes."),
    ("fr", "alt", "Pile des gains\u202f: 3 cartes (1 retournées)."),
    ("fr", "alt", "Navire 1\u202f: proue, 2 voile Tour."),
    ("fr", "alt", "Chantier naval de place 1."),
    ("fr", "status", "Manche 1 · à place 3 de jouer."),
    ("fr", "alt", "Campement: vivres, jeton 2 PV."),
    ("fr", "alt", "Marchandises : café 1; sel 2."),
    ("fr", "final", "Game over"),
    ("fr", "start", "Salon d'attente de Nautilus duel"),
    ("en", "alt", "Ana has a Anchor ship mast."),
    ("en", "panel", "4 workers (+1 blue workers) · 3 taler"),
    ("en", "done", "✓ 🔴 Ana (Crowns) scored 2 workers × 1 crowns → 2 VP"),
    ("en", "alt", "Ana: 1 crowns, 3 Tower sail, 2 bow."),
    ("en", "alt", "Camp: food, 2 VP token (1 tokens left)."),
]


@functools.cache
def _clean_start(locale: str) -> list[Line]:
    """The first 40 lines of a duel transcript (read once per language)."""
    return transcript("duel", 2, 7, locale, frozenset())[:40]


@pytest.mark.parametrize(("locale", "surface", "line"), PLANTED, ids=range(len(PLANTED)))
def test_each_example_of_the_issue_planted_in_a_transcript_makes_it_fail(
    locale: str, surface: str, line: str
) -> None:
    # A short clean game in the same language, with the example planted in its middle.
    lines = _clean_start(locale)
    assert read(lines, locale) == []
    planted = [*lines[:20], (surface, line), *lines[20:]]
    found = read(planted, locale)
    assert found, f"not caught: {line!r}"
    assert all(repr(line) in f for f in found)


def test_the_proof_reader_passes_the_lines_the_issue_asks_for() -> None:
    # The voice the issue asks for reads clean: a name, the past, one label.
    good: list[tuple[str, str, str]] = [
        ("en", "digest", "• 🔵 Ben: placed their pawn above column 0 (2 stacks, 5 cards left)"),
        ("fr", "digest", "• 🔵 Ben\u202f: a placé son pion au-dessus de la colonne 0"),
        ("en", "done", "✓ 🟢 Cleo (Crowns) scored 2 workers × 3 crowns → 6 VP"),
        ("en", "status", "Round 2/5 · Phase 3/7 · 🔴 Nemo (seat 1) must buy masts or pass."),
        ("fr", "done", "✓ 🔵 Ben a posé le 7 du côté d'Ana, emplacement 2."),
        ("fr", "done", "✓ 🟢 Cleo a pris 1 thaler avec 1 ouvrier bleu"),
        ("en", "log", "took an Anchor ship mast as bonus"),
    ]
    for locale, surface, line in good:
        assert problems(surface, line, locale) == [], line
