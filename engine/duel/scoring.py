"""Final scoring (D-END): domain totals, domains won, the tie-break used and ranks."""

from __future__ import annotations

from dataclasses import dataclass

from engine.duel import data
from engine.duel.state import State


@dataclass(frozen=True, slots=True)
class Score:
    seat: int
    totals: tuple[int, ...]  # points per domain, data.DOMAINS order (two stars 2, star 1, ink -1)
    cards: tuple[int, ...]  # domain cards won per domain
    opponent_totals: tuple[int, ...]  # the other seat's totals, for a side-by-side sheet
    domains: tuple[str, ...]  # the domains this seat won (D-END-1)
    points: int  # sum of all domain points, the first tie-break (D-END-2)
    vp: int  # domains won
    tiebreak: str  # what decided the game: "domains", "points" or "shared"
    rank: int  # 1 = winner; a shared win gives both rank 1

    def to_dict(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "totals": dict(zip(data.DOMAINS, self.totals, strict=True)),
            "cards": dict(zip(data.DOMAINS, self.cards, strict=True)),
            "opponent_totals": dict(zip(data.DOMAINS, self.opponent_totals, strict=True)),
            "domains": list(self.domains),
            "points": self.points,
            "vp": self.vp,
            "tiebreak": self.tiebreak,
            "rank": self.rank,
        }


def domain_totals(cards: tuple[int, ...]) -> tuple[int, ...]:
    """D-END-1: per domain, two stars 2, one star 1, ink blot -1; no cards 0."""
    return _per_domain(cards)[0]


def _per_domain(cards: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(points, cards) per domain, data.DOMAINS order, by table lookups: final_scores runs at
    the end of every AI rollout that finishes the game."""
    totals = [0] * len(data.DOMAINS)
    counts = [0] * len(data.DOMAINS)
    domain_of, points_of = data.CARD_DOMAIN, data.CARD_POINTS
    for card in cards:
        d = domain_of[card]
        totals[d] += points_of[card]
        counts[d] += 1
    return tuple(totals), tuple(counts)


def final_scores(state: State) -> list[Score]:
    """Both seats' results in seat order, from the won piles (valid mid-game too)."""
    (t0, c0), (t1, c1) = _per_domain(state.won[0]), _per_domain(state.won[1])
    totals = (t0, t1)
    counts = (c0, c1)
    # [fixed here] D-END-1: equal totals win the domain for nobody.
    domains = tuple(
        tuple(d for i, d in enumerate(data.DOMAINS) if totals[s][i] > totals[1 - s][i])
        for s in (0, 1)
    )
    points = (sum(totals[0]), sum(totals[1]))
    won = (len(domains[0]), len(domains[1]))
    # D-END-2 [fixed here]: more domains; if equal, more points; if equal too, a shared win.
    if won[0] != won[1]:
        tiebreak = "domains"
        keys = won
    elif points[0] != points[1]:
        tiebreak = "points"
        keys = points
    else:
        tiebreak = "shared"
        keys = (0, 0)
    return [
        Score(
            seat=s,
            totals=totals[s],
            cards=counts[s],
            opponent_totals=totals[1 - s],
            domains=domains[s],
            points=points[s],
            vp=won[s],
            tiebreak=tiebreak,
            rank=1 if keys[s] >= keys[1 - s] else 2,
        )
        for s in (0, 1)
    ]
