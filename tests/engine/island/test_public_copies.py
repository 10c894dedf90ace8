"""Which copy of an object lies where is nobody's business but its holder's.

The four copies of an object play alike, and only the holder's own hand shows copy numbers
("food:ham:3"); everything else names the object ("food:ham"). These tests build pairs of
states that differ only in which copies were dealt or stored where, and check that every
audience that does not hold the swapped cards gets the same views, the same public events and
the same determinized states from both.
"""

from __future__ import annotations

import random
from typing import Any

from engine import island
from engine.island import data
from engine.island.state import State, rename_cards
from tests.engine.island.kit import acting, relocate, set_collection, set_stack, store
from tests.engine.island.walk import sample


def swap(state: State, a: str, b: str) -> State:
    """The same deal with the two copies `a` and `b` (one object) exchanged everywhere."""
    x, y = data.CARD_BY_ID[a], data.CARD_BY_ID[b]
    assert data.PUBLIC_IDS[x] == data.PUBLIC_IDS[y] and x != y
    new = list(range(data.CARD_COUNT))
    new[x], new[y] = y, x
    return rename_cards(state, new)


def holders(state: State, *card_ids: str) -> set[int]:
    """The seats holding any of these cards in hand."""
    cards = {data.CARD_BY_ID[c] for c in card_ids}
    return {i for i, p in enumerate(state.players) if cards & set(p.hand)}


def public_events(events: list[Any]) -> list[dict[str, Any]]:
    return [e.to_dict() for e in events if e.private_to is None]


def assert_alike(a: State, b: State, swapped: tuple[str, str]) -> list[int | None]:
    """`a` and `b` (= `swap(a, *swapped)`) look the same to every outsider, the seats holding
    neither swapped copy and the public: views, determinized states, and the public events of
    every legal move of the seat to play, and the views after it (a seat that has just drawn a
    swapped copy is then its holder). Returns the outsiders."""
    held = holders(a, *swapped)
    outsiders = [None, *(s for s in range(len(a.players)) if s not in held)]
    for seat in outsiders:
        assert island.view(a, seat) == island.view(b, seat), seat
        if island.is_over(a):
            # A finished game is returned as it is (nothing is left to decide or re-deal).
            continue
        for k in range(2):
            da = island.determinize(a, seat, random.Random(k))
            db = island.determinize(b, seat, random.Random(k))
            assert da == db, seat
    seat_to_play = a.current
    if seat_to_play is None:
        return outsiders
    moves = island.legal_moves(a, seat_to_play)
    assert moves == island.legal_moves(b, seat_to_play)
    for move in moves:
        after_a, events_a = island.apply(a, seat_to_play, move)
        after_b, events_b = island.apply(b, seat_to_play, move)
        assert public_events(events_a) == public_events(events_b), move
        for seat in outsiders:
            if seat is None or seat not in holders(after_a, *swapped):
                assert island.view(after_a, seat) == island.view(after_b, seat), (move, seat)
    return outsiders


def test_a_stored_copy_and_a_copy_in_another_hand_look_the_same_to_all_but_the_holder() -> None:
    state = acting(3, 0, 4, hand=("food:ham:1", "food:ham:2"))
    state = set_collection(state, 1, "food", "food:ham:3")
    state = relocate(state, ("hand", 2), "food:ham:4")
    # Seat 1 stored copy 3 and seat 2 holds copy 4, or the other way round.
    other = swap(state, "food:ham:3", "food:ham:4")
    assert assert_alike(state, other, ("food:ham:3", "food:ham:4")) == [None, 0, 1]
    # The holder knows which copy it holds: its own view does tell them apart.
    own = island.view(state, 2)["players"][2]["hand"]
    assert [c["id"] for c in own] == ["food:ham:4"]
    assert [c["id"] for c in island.view(other, 2)["players"][2]["hand"]] == ["food:ham:3"]
    stored = island.view(state, None)["players"][1]["collections"][4]["cards"]
    assert stored == [{"id": "food:ham", "category": "food", "object": "ham"}]


def test_a_face_up_top_and_a_face_down_copy_look_the_same_to_everyone() -> None:
    state = acting(3, 0, 4)
    # Stack 8 (face up) shows a saw; stack 9 (face down) hides another.
    state = set_stack(state, 8, "food:bread:1", "repair:saw:1")
    state = set_stack(state, 9, "repair:saw:2")
    other = swap(state, "repair:saw:1", "repair:saw:2")
    assert assert_alike(state, other, ("repair:saw:1", "repair:saw:2")) == [None, 0, 1, 2]
    # Seat 0 collects both saws: the public event names the object, the taker's own names the copy.
    _, events = island.apply(state, 0, {"type": "collect"})
    _, events2 = island.apply(other, 0, {"type": "collect"})
    taken = [e for e in public_events(events) if e["kind"] == "card_taken"]
    assert [(e["stack"], e["face"], e["card"]) for e in taken] == [
        (8, "up", "repair:saw"),
        (9, "down", None),
        (10, "down", None),
    ]
    drawn = [e.to_dict()["card"] for e in events if e.private_to == 0 and e.to_dict()["stack"] == 9]
    drawn2 = [
        e.to_dict()["card"] for e in events2 if e.private_to == 0 and e.to_dict()["stack"] == 9
    ]
    assert (drawn, drawn2) == (["repair:saw:2"], ["repair:saw:1"])


def test_the_cards_stored_event_names_objects_only() -> None:
    state = acting(3, 0, 4, hand=("food:ham:1", "food:ham:4", "food:bread:2"))
    # Seat 0 stores a ham: which of its two it lays is told to nobody, even when the other
    # seats could later learn where the other hams are.
    other = swap(state, "food:ham:4", "food:ham:3")  # copy 3 was in a stack or the box
    after, events = island.apply(state, 0, store("food", ham=2, bread=1))
    after2, events2 = island.apply(other, 0, store("food", ham=2, bread=1))
    stored = [e for e in public_events(events) if e["kind"] == "cards_stored"]
    assert stored == [
        {
            "kind": "cards_stored",
            "seat": 0,
            "category": "food",
            "cards": ("food:bread", "food:ham", "food:ham"),
            "size": 3,
            "private_to": None,
        }
    ]
    assert public_events(events) == public_events(events2)
    for seat in (None, 0, 1, 2):
        assert island.view(after, seat) == island.view(after2, seat)
    # The state itself still knows the copies: they differ.
    assert after.players[0].collections[4].cards != after2.players[0].collections[4].cards


def test_states_of_real_games_with_copies_swapped_look_the_same_to_outsiders() -> None:
    """Along seeded games, swap two copies of an object between two random places and check
    every audience holding neither of them: views, determinize, and each legal move's events."""
    pick = random.Random("public-copies")
    checked = 0
    for players in (2, 3, 4):
        for seed in range(3):
            for state in sample(players, 70_000 + seed, 0.05, pick):
                obj = pick.randrange(data.CARD_COUNT // data.COPIES)
                a, b = pick.sample(range(data.COPIES), 2)
                ca = data.CARD_IDS[obj * data.COPIES + a]
                cb = data.CARD_IDS[obj * data.COPIES + b]
                outsiders = assert_alike(state, swap(state, ca, cb), (ca, cb))
                checked += len(outsiders)
    assert checked > 100
