"""Nautilus duel rules: `new_game`, `legal_moves` and `apply`, pure functions over frozen state.

`apply` parses and validates the whole move before it builds anything, so a refused move leaves
nothing behind; the new state reuses every hand, deck and tuple the move did not touch. Steps
that need no decision (dealing, the diving module's draw, the harpoon's grab, an arrow with one
possible move, the end of a round) happen inside the move that leads to them.
"""

from __future__ import annotations

from typing import Any

from engine.common import move_type_parser
from engine.duel import data
from engine.duel import events as ev
from engine.duel.state import Award, Eye, Hand, State, evolve
from engine.errors import IllegalMove
from engine.rng import shuffled

Move = dict[str, Any]
Space = tuple[int, int]  # (side, slot)

MOVE_TYPES: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # type: (required fields, optional fields)
    "keep": (frozenset({"special"}), frozenset()),
    "eye": (frozenset(), frozenset()),
    "dive": (frozenset({"keep"}), frozenset()),
    "harpoon": (frozenset({"give"}), frozenset()),
    "place": (frozenset({"card", "side", "slot"}), frozenset({"anchor"})),
    "arrow": (frozenset({"card", "side", "slot"}), frozenset()),
}
# The one move type each step takes.
STEP_MOVE = {
    "keep": "keep",
    "eye": "eye",
    "dive": "dive",
    "harpoon": "harpoon",
    "place": "place",
    "arrow": "arrow",
}
STEP_WORDS = {
    "keep": "the first player is choosing which special to keep",
    "eye": "the eye must be played",
    "dive": "the diving module's player must keep one of the two divers drawn",
    "harpoon": "the harpoon's player must keep the diver taken or return it",
    "place": "a card must be placed",
    "arrow": "the arrow's move must be chosen",
}


# --- small helpers -----------------------------------------------------------------------------


def _is_int(v: Any) -> bool:
    # bool is an int subclass; True is not a card value.
    return type(v) is int


def _set_pair(pair: tuple[Any, Any], seat: int, value: Any) -> Any:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def _add(items: tuple[int, ...], value: int) -> tuple[int, ...]:
    return tuple(sorted((*items, value)))


def _remove(items: tuple[int, ...], value: int) -> tuple[int, ...]:
    out = list(items)
    out.remove(value)
    return tuple(out)


def _with_seen(seen: tuple[tuple[str, ...], ...], seats: tuple[int, ...], *specials: str) -> Any:
    out = list(seen)
    for s in seats:
        out[s] = tuple(sorted(set(out[s]) | set(specials)))
    return (out[0], out[1])


def _known_in(
    known: tuple[tuple[int, ...], tuple[int, ...]], hands: tuple[Hand, Hand]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """`known` without the divers that left the other hand (`hands`: the hands after the move).

    A diver leaves a hand only face up onto the Nautilus or into the other player's hand, both
    of which the knowing seat sees, so knowledge stays exactly the truth it was.
    """
    k0, k1 = known
    if k0:
        k0 = tuple(v for v in k0 if v in hands[1].divers)
    if k1:
        k1 = tuple(v for v in k1 if v in hands[0].divers)
    return k0, k1


def _hand_cards(hand: Hand) -> list[int]:
    """Values the hand may place: its divers and a kraken or fishbone it holds (D-ROUND-4)."""
    out = list(hand.divers)
    if hand.special in data.CARD_SPECIALS:
        out.append(data.CARD_SPECIALS[hand.special])
    return sorted(out)


def _empty_spaces(state: State) -> list[Space]:
    return [
        (side, slot)
        for side in (0, 1)
        for slot in range(data.SLOTS)
        if state.board[side][slot] is None
    ]


def arrow_options(state: State, arrow: int) -> list[tuple[int, int, int]]:
    """D-ROUND-5: every (card, side, slot) the arrow card `arrow`, lying on the board, may move.

    Only another, unanchored card on the arrow card's side moves: a 6 or 9 across the Nautilus to
    the empty space of the same slot, a 7 or 8 to any empty space on the same side.
    """
    at = state.where(arrow)
    assert at is not None
    side = at[0]
    row = state.board[side]
    out: list[tuple[int, int, int]] = []
    for slot, card in enumerate(row):
        if card is None or card == arrow or card == state.anchored:
            continue
        if arrow in data.VERTICAL_ARROWS:
            if state.board[1 - side][slot] is None:
                out.append((card, 1 - side, slot))
        else:
            out.extend((card, side, j) for j, other in enumerate(row) if other is None)
    return out


# --- new game and rounds -------------------------------------------------------------------------


def new_game(players: int, seed: int, *, first: int | None = None) -> State:
    """Set up a game (D-SETUP) and deal round 1 (D-ROUND-1).

    `first` is the seat holding the Nemo token in round 1; None draws it from the seed
    (D-SETUP-3: chosen at random unless the host sets it).

    Raises:
        IllegalMove: "bad_players" unless players == 2, "bad_seed" for a seed that is not a whole
        number, "bad_first" for a first player other than None, 0 or 1.
    """
    if type(players) is not int or players != data.PLAYERS:
        raise IllegalMove(
            "bad_players",
            f"Nautilus duel is played by exactly 2 players, not {players!r}.",
            players=players,
        )
    if type(seed) is not int:
        raise IllegalMove("bad_seed", f"The seed must be a whole number, not {seed!r}.", seed=seed)
    if first is not None and (type(first) is not int or first not in (0, 1)):
        raise IllegalMove(
            "bad_first",
            f"The first player must be seat 1 or 2 (0 or 1 in the engine), not {first!r}.",
            first=first,
        )
    if first is None:
        first = shuffled(seed, 0, (0, 1))[0]
    base = State(
        seed=seed,
        draws=3,
        round=0,
        first=first,
        step="keep",
        turn=first,
        domain_deck=shuffled(seed, 1, data.DOMAIN_CARDS),
        slots=(),
        board=((None,) * data.SLOTS, (None,) * data.SLOTS),
        anchored=None,
        hands=(Hand((), None), Hand((), None)),
        diver_deck=(),
        special_deck=shuffled(seed, 2, data.SPECIALS),
        aside=(),
        played=(),
        drawn=(),
        module=(),
        harpooned=None,
        arrow=None,
        placed=0,
        eye=None,
        known=((), ()),
        deck_top=None,
        seen=((), ()),
        won=((), ()),
        awards=(),
    )
    state, _ = _start_round(base, 1, first, [])
    return state


def _start_round(state: State, round_: int, first: int, out: list[ev.Event]) -> tuple[State, Any]:
    """Deal a round: 5 domain cards, 5 divers each, 2 specials to the first player."""
    special_deck, aside, seen = state.special_deck, state.aside, state.seen
    draws = state.draws
    if round_ > 1 and (round_ - 1) % data.REBUILD_AFTER_ROUND == 0:
        # D-ROUND-8: after round 3 the special deck is all 6 specials again, shuffled.
        special_deck = shuffled(state.seed, draws, data.SPECIALS)
        aside, seen = (), ((), ())
        draws += 1
        out.append(ev.SpecialDeckRebuilt(round_))
    # D-ROUND-8: all 14 divers are gathered and reshuffled every round [fixed here].
    divers = shuffled(state.seed, draws, data.DIVERS)
    second = 1 - first
    hands: list[Hand] = [Hand((), None), Hand((), None)]
    hands[first] = Hand(tuple(sorted(divers[: data.HAND_SIZE])), None)
    hands[second] = Hand(tuple(sorted(divers[data.HAND_SIZE : 2 * data.HAND_SIZE])), None)
    drawn = special_deck[: data.SPECIALS_DRAWN]
    slots = state.domain_deck[: data.SLOTS]
    state = evolve(
        state,
        draws=draws + 1,
        round=round_,
        first=first,
        step="keep",
        turn=first,
        domain_deck=state.domain_deck[data.SLOTS :],
        slots=slots,
        board=((None,) * data.SLOTS, (None,) * data.SLOTS),
        anchored=None,
        hands=(hands[0], hands[1]),
        diver_deck=divers[2 * data.HAND_SIZE :],
        special_deck=special_deck[data.SPECIALS_DRAWN :],
        aside=aside,
        played=(),
        drawn=drawn,
        module=(),
        harpooned=None,
        arrow=None,
        placed=0,
        eye=None,
        known=((), ()),
        deck_top=None,
        seen=_with_seen(seen, (first,), *drawn),
    )
    out.append(ev.RoundStarted(round_, first, slots))
    for seat in (first, second):
        out.append(ev.DiversDealt(seat, state.hands[seat].divers, private_to=seat))
    out.append(ev.SpecialsDrawn(first, drawn, private_to=first))
    return state, out


def _start_specials(state: State, out: list[ev.Event]) -> State:
    """D-ROUND-2: the next seat, first player first, holding the eye, module or harpoon plays it.

    The diving module's draw and the harpoon's grab need no decision, so they happen here; the
    decision that follows (which diver to keep) is the next move. With none left, placing starts.
    """
    for seat in (state.first, state.second):
        special = state.hands[seat].special
        if special not in data.START_SPECIALS:
            continue
        # Played face up as its turn comes (the table sees which special it is); the eye's
        # look, the module's choice and the harpoon's choice follow as the seat's move.
        hands = _set_pair(state.hands, seat, Hand(state.hands[seat].divers, None))
        played = (*state.played, (seat, special))
        seen = _with_seen(state.seen, (0, 1), special)
        out.append(ev.SpecialPlayed(seat, special))
        if special == data.EYE:
            return evolve(state, step="eye", turn=seat, hands=hands, played=played, seen=seen)
        if special == data.MODULE:
            drew = state.diver_deck[: data.MODULE_DRAW]
            out.append(ev.ModuleDrew(seat, drew, private_to=seat))
            return evolve(
                state,
                step="dive",
                turn=seat,
                hands=hands,
                played=played,
                seen=seen,
                module=drew,
                diver_deck=state.diver_deck[data.MODULE_DRAW :],
            )
        victim = 1 - seat
        took = shuffled(state.seed, state.draws, state.hands[victim].divers)[0]
        hands = _set_pair(
            hands, victim, Hand(_remove(hands[victim].divers, took), hands[victim].special)
        )
        out.append(ev.HarpoonTook(seat, victim))
        out.append(ev.HarpoonCard(seat, took, "took", private_to=seat))
        out.append(ev.HarpoonCard(victim, took, "lost", private_to=victim))
        return evolve(
            state,
            draws=state.draws + 1,
            step="harpoon",
            turn=seat,
            hands=hands,
            played=played,
            seen=seen,
            harpooned=took,
            known=_known_in(state.known, hands),
        )
    return evolve(state, step="place", turn=state.first)


def _end_round(state: State, out: list[ev.Event]) -> State:
    """D-ROUND-6..8: award the 5 domain cards, then deal the next round or end the game."""
    won = [list(state.won[0]), list(state.won[1])]
    awards = list(state.awards)
    per_round = [0, 0]
    for slot, card in enumerate(state.slots):
        v0, v1 = state.board[0][slot], state.board[1][slot]
        assert v0 is not None and v1 is not None
        winner = 0 if data.beats(v0, v1) else 1
        won[winner].append(card)
        per_round[winner] += 1
        awards.append(Award(state.round, slot, card, (v0, v1), winner))
        out.append(ev.SlotAwarded(state.round, slot, card, (v0, v1), winner))
    won_t = (tuple(sorted(won[0])), tuple(sorted(won[1])))
    out.append(ev.RoundEnded(state.round, (per_round[0], per_round[1])))
    for seat in (0, 1):
        out.append(ev.WonPile(seat, won_t[seat], private_to=seat))
    if not state.domain_deck:
        from engine.duel.scoring import final_scores  # scoring imports State only

        # The last round's board, slots and hands stay as they lay, for the final picture.
        state = evolve(state, won=won_t, awards=tuple(awards), step="over")
        scores = final_scores(state)
        winners = tuple(s.seat for s in scores if s.rank == 1)
        out.append(ev.GameEnded(winners, (scores[0].vp, scores[1].vp), scores[0].tiebreak))
        return state
    # D-ROUND-4, D-ROUND-8: every special of the round is set aside, played or not.
    aside = [*state.aside, *(sp for _, sp in state.played)]
    for seat in (state.first, state.second):
        special = state.hands[seat].special
        if special is not None:
            aside.append(special)
            out.append(ev.SpecialDiscarded(seat, special, private_to=seat))
    state = evolve(state, won=won_t, awards=tuple(awards), aside=tuple(aside))
    state, _ = _start_round(state, state.round + 1, state.second, out)
    return state


# --- move parsing --------------------------------------------------------------------------------


_parse_type = move_type_parser(MOVE_TYPES)


def _parse_int(move: Move, key: str, what: str) -> int:
    value = move[key]
    if not _is_int(value):
        raise IllegalMove(
            "malformed",
            f"{key!r} must be a whole number ({what}), not {value!r}.",
            field=key,
            value=repr(value),
        )
    return int(value)


def _parse_card(move: Move, key: str) -> int:
    value = _parse_int(move, key, "a card value 0 to 15")
    if not data.MIN_CARD <= value <= data.MAX_CARD:
        raise IllegalMove(
            "bad_card",
            f"{value!r} is not a card value; cards are 1 to 14 (divers), 0 (the fishbone) "
            "and 15 (the kraken).",
            card=value,
        )
    return value


def _parse_space(move: Move) -> Space:
    side = _parse_int(move, "side", "0 or 1, the seat whose side it is")
    slot = _parse_int(move, "slot", "0 to 4")
    if side not in (0, 1) or not 0 <= slot < data.SLOTS:
        raise IllegalMove(
            "bad_space",
            f"There is no space at side {side}, slot {slot}; side is 0 or 1 (the seat whose side "
            "of the Nautilus it is) and slot is 0 to 4.",
            side=side,
            slot=slot,
        )
    return side, slot


def _cards_text(cards: list[int] | tuple[int, ...]) -> str:
    return ", ".join(data.card_name(c)[4:] for c in cards) or "none"


# --- legal moves ---------------------------------------------------------------------------------


def legal_moves(state: State, seat: int) -> list[Move]:
    """Every move `seat` may make now, in menu order; [] if it is not that seat's decision."""
    if state.step == "over" or seat != state.turn:
        return []
    step = state.step
    if step == "keep":
        return [{"type": "keep", "special": s} for s in state.drawn]
    if step == "eye":
        return [{"type": "eye"}]
    if step == "dive":
        return [{"type": "dive", "keep": v} for v in state.module]
    if step == "harpoon":
        assert state.harpooned is not None
        gives = sorted({*state.hands[seat].divers, state.harpooned})
        return [{"type": "harpoon", "give": v} for v in gives]
    if step == "arrow":
        assert state.arrow is not None
        return [
            {"type": "arrow", "card": c, "side": s, "slot": k}
            for c, s, k in arrow_options(state, state.arrow)
        ]
    hand = state.hands[seat]
    spaces = _empty_spaces(state)
    if hand.special != data.ANCHOR:
        return [
            {"type": "place", "card": card, "side": side, "slot": slot}
            for card in _hand_cards(hand)
            for side, slot in spaces
        ]
    in_play = sorted(v for row in state.board for v in row if v is not None)
    out: list[Move] = []
    for card in _hand_cards(hand):
        # D-ROUND-4: the anchor goes onto the card placed or any card already in play.
        targets = sorted({card, *in_play})
        for side, slot in spaces:
            move: Move = {"type": "place", "card": card, "side": side, "slot": slot}
            out.append(move)
            out.extend({**move, "anchor": t} for t in targets)
    return out


# --- apply ---------------------------------------------------------------------------------------


def apply(state: State, seat: int, move: Move) -> tuple[State, list[ev.Event]]:
    """Play one move for `seat`; return the new state and what happened, in order.

    Raises:
        IllegalMove: and changes nothing.
    """
    if not _is_int(seat) or seat not in (0, 1):
        raise IllegalMove(
            "bad_seat", f"There is no seat {seat!r}; the seats are 0 and 1.", seat=repr(seat)
        )
    if state.step == "over":
        raise IllegalMove(
            "game_over",
            "The game is over; no more moves can be made. See the final scores.",
            seat=seat,
        )
    mtype = _parse_type(move)
    if seat != state.turn:
        raise IllegalMove(
            "not_your_turn",
            f"It is not seat {seat + 1}'s turn; seat {state.turn + 1} must decide now "
            f"({STEP_WORDS[state.step]}).",
            seat=seat,
            current=state.turn,
        )
    want = STEP_MOVE[state.step]
    if mtype != want:
        raise IllegalMove(
            "not_now",
            f"A {mtype!r} move is not possible now: {STEP_WORDS[state.step]}, so the move is "
            f"{want!r}.",
            type=mtype,
            expected=want,
        )
    out: list[ev.Event] = []
    if mtype == "keep":
        state = _keep(state, seat, move, out)
    elif mtype == "eye":
        state = _eye(state, seat, out)
    elif mtype == "dive":
        state = _dive(state, seat, move, out)
    elif mtype == "harpoon":
        state = _harpoon(state, seat, move, out)
    elif mtype == "place":
        state = _place(state, seat, move, out)
    else:
        state = _arrow(state, seat, move, out)
    return state, out


def _keep(state: State, seat: int, move: Move, out: list[ev.Event]) -> State:
    special = move["special"]
    offered = " or ".join(repr(s) for s in state.drawn)
    if not isinstance(special, str) or special not in data.SPECIALS:
        raise IllegalMove(
            "unknown_special",
            f"{special!r} is not a special card; keep {offered}.",
            special=repr(special),
        )
    if special not in state.drawn:
        raise IllegalMove(
            "not_drawn",
            f"You did not draw the {data.SPECIAL_NAMES[special]}; keep {offered}.",
            special=special,
        )
    given = next(s for s in state.drawn if s != special)
    other = 1 - seat
    hands = _set_pair(state.hands, seat, Hand(state.hands[seat].divers, special))
    hands = _set_pair(hands, other, Hand(hands[other].divers, given))
    out.append(ev.SpecialKept(seat, other))
    out.append(ev.SpecialChosen(seat, special, given, private_to=seat))
    out.append(ev.SpecialReceived(other, given, private_to=other))
    state = evolve(state, hands=hands, drawn=(), seen=_with_seen(state.seen, (other,), given))
    return _start_specials(state, out)


def _eye(state: State, seat: int, out: list[ev.Event]) -> State:
    other = 1 - seat
    divers = state.hands[other].divers
    out.append(ev.EyeSeen(seat, divers, private_to=seat))
    state = evolve(
        state,
        eye=Eye(seat, state.round, divers),
        known=_set_pair(state.known, seat, divers),
    )
    return _start_specials(state, out)


def _dive(state: State, seat: int, move: Move, out: list[ev.Event]) -> State:
    keep = _parse_int(move, "keep", "one of the two divers drawn")
    if keep not in state.module:
        raise IllegalMove(
            "not_drawn",
            f"The diving module did not draw {keep!r}; keep {_cards_text(state.module)}.",
            card=keep,
            allowed=list(state.module),
        )
    back = next(v for v in state.module if v != keep)
    hand = state.hands[seat]
    out.append(ev.ModuleKept(seat))
    out.append(ev.ModuleChosen(seat, keep, back, private_to=seat))
    state = evolve(
        state,
        hands=_set_pair(state.hands, seat, Hand(_add(hand.divers, keep), hand.special)),
        module=(),
        diver_deck=(back, *state.diver_deck),
        deck_top=(seat, back),
    )
    return _start_specials(state, out)


def _harpoon(state: State, seat: int, move: Move, out: list[ev.Event]) -> State:
    took = state.harpooned
    assert took is not None
    give = _parse_int(move, "give", "the diver you give the opponent")
    hand = state.hands[seat]
    if give != took and give not in hand.divers:
        raise IllegalMove(
            "not_in_hand",
            f"You cannot give {give!r}: give one of your divers ({_cards_text(hand.divers)}) "
            f"to keep the {took}, or give the {took} back.",
            card=give,
            allowed=sorted({*hand.divers, took}),
        )
    victim = 1 - seat
    other = state.hands[victim]
    kept = give != took
    mine = _add(_remove(hand.divers, give), took) if kept else hand.divers
    hands = _set_pair(state.hands, seat, Hand(mine, hand.special))
    hands = _set_pair(hands, victim, Hand(_add(other.divers, give), other.special))
    out.append(ev.HarpoonResolved(seat, victim, kept))
    if kept:
        out.append(ev.HarpoonExchange(seat, took, give, private_to=seat))
        out.append(ev.HarpoonExchange(victim, give, took, private_to=victim))
    else:
        out.append(ev.HarpoonExchange(seat, took, took, private_to=seat))
        out.append(ev.HarpoonExchange(victim, took, None, private_to=victim))
    known = _known_in(state.known, hands)
    # Both seats now know where the two divers went.
    known = _set_pair(known, seat, tuple(sorted({*known[seat], give})))
    if kept:
        known = _set_pair(known, victim, tuple(sorted({*known[victim], took})))
    state = evolve(state, hands=hands, harpooned=None, known=known)
    return _start_specials(state, out)


def _place(state: State, seat: int, move: Move, out: list[ev.Event]) -> State:
    card = _parse_card(move, "card")
    side, slot = _parse_space(move)
    anchor = _parse_card(move, "anchor") if "anchor" in move else None
    hand = state.hands[seat]
    cards = _hand_cards(hand)
    if card not in cards:
        raise IllegalMove(
            "not_in_hand",
            f"You do not hold {data.card_name(card)}; you can place {_cards_text(cards)}.",
            card=card,
            allowed=cards,
        )
    if state.board[side][slot] is not None:
        empty = ", ".join(f"side {s} slot {k}" for s, k in _empty_spaces(state))
        raise IllegalMove(
            "space_taken",
            f"Side {side}, slot {slot} already holds {data.card_name(state.board[side][slot] or 0)}"
            f"; the empty spaces are: {empty}.",
            side=side,
            slot=slot,
        )
    if anchor is not None:
        if hand.special != data.ANCHOR:
            raise IllegalMove(
                "no_anchor",
                "You do not hold the anchor; place the card without 'anchor'.",
                anchor=anchor,
            )
        in_play = sorted({card, *(v for row in state.board for v in row if v is not None)})
        if anchor not in in_play:
            raise IllegalMove(
                "bad_anchor_target",
                f"The anchor can only go on the card you place or a card already in play, not "
                f"on {data.card_name(anchor)}; choose {_cards_text(in_play)}.",
                anchor=anchor,
                allowed=in_play,
            )
    # Validated: build the new state.
    special = data.SPECIAL_OF_VALUE.get(card)
    if special is not None:
        hand = Hand(hand.divers, None)
    else:
        hand = Hand(_remove(hand.divers, card), hand.special)
    played = state.played
    if special is not None:
        played = (*played, (seat, special))
        out.append(ev.SpecialPlayed(seat, special))
    row = list(state.board[side])
    row[slot] = card
    board = _set_pair(state.board, side, tuple(row))
    out.append(ev.Placed(seat, card, side, slot))
    anchored = state.anchored
    seen = state.seen
    if anchor is not None:
        # [fixed here] D-ROUND-5: the anchor is attached before the arrow is resolved.
        hand = Hand(hand.divers, None)
        played = (*played, (seat, data.ANCHOR))
        anchored = anchor
        out.append(ev.SpecialPlayed(seat, data.ANCHOR))
        out.append(ev.Anchored(seat, anchor))
    if special is not None or anchor is not None:
        seen = _with_seen(seen, (0, 1), *(sp for _, sp in played))
    hands = _set_pair(state.hands, seat, hand)
    placed = state.placed + 1
    known = _known_in(state.known, hands)
    arrow = data.arrow_of(card) is not None
    changes: dict[str, Any] = {
        "hands": hands,
        "board": board,
        "played": played,
        "anchored": anchored,
        "seen": seen,
        "placed": placed,
        "known": known,
    }
    if not arrow and placed != data.SPACES:
        # The common case in one new state (the AI search makes tens of thousands of these a
        # decision): the next placer, as `_after_placement` would set it.
        return evolve(state, **changes, step="place", turn=_placer(state.first, placed))
    state = evolve(state, **changes)
    if arrow:
        options = arrow_options(state, card)
        if not options:
            out.append(ev.ArrowBlocked(seat, card))
        elif len(options) == 1:
            # One possible move is no choice: make it rather than ask.
            return _after_placement(_move_card(state, seat, card, options[0], True, out), out)
        else:
            out.append(ev.ArrowPending(seat, card, len(options)))
            return evolve(state, step="arrow", turn=seat, arrow=card)
    return _after_placement(state, out)


def _move_card(
    state: State,
    seat: int,
    arrow: int,
    target: tuple[int, int, int],
    forced: bool,
    out: list[ev.Event],
) -> State:
    card, side, slot = target
    at = state.where(card)
    assert at is not None
    rows = [list(state.board[0]), list(state.board[1])]
    rows[at[0]][at[1]] = None
    rows[side][slot] = card
    out.append(ev.ArrowMoved(seat, arrow, card, at[0], at[1], side, slot, forced))
    return evolve(state, board=(tuple(rows[0]), tuple(rows[1])), arrow=None)


def _placer(first: int, placed: int) -> int:
    """Who places next once `placed` cards lie on the Nautilus: players alternate, the first
    player first (D-ROUND-3)."""
    return first if placed % 2 == 0 else 1 - first


def _after_placement(state: State, out: list[ev.Event]) -> State:
    if state.placed == data.SPACES:
        return _end_round(state, out)
    return evolve(state, step="place", turn=_placer(state.first, state.placed))


def _arrow(state: State, seat: int, move: Move, out: list[ev.Event]) -> State:
    arrow = state.arrow
    assert arrow is not None
    card = _parse_card(move, "card")
    side, slot = _parse_space(move)
    options = arrow_options(state, arrow)
    if (card, side, slot) not in options:
        choices = "; ".join(f"{c} to side {s} slot {k}" for c, s, k in options)
        at = state.where(card)
        arrow_side = state.where(arrow)
        assert arrow_side is not None
        if at is None or at[0] != arrow_side[0] or card == arrow:
            code, why = (
                "not_movable",
                f"{data.card_name(card).capitalize()} cannot be moved by the {arrow}: only "
                f"another card on side {arrow_side[0]} can",
            )
        elif card == state.anchored:
            code, why = "anchored", f"{data.card_name(card).capitalize()} is anchored"
        else:
            how = (
                "straight across the Nautilus"
                if arrow in data.VERTICAL_ARROWS
                else "to an empty space on its own side"
            )
            code, why = (
                "bad_destination",
                f"The {arrow} moves a card {how}, and side {side} slot {slot} is not such an "
                "empty space",
            )
        raise IllegalMove(
            code,
            f"{why}; the moves are: {choices}.",
            card=card,
            side=side,
            slot=slot,
        )
    state = _move_card(state, seat, arrow, (card, side, slot), False, out)
    return _after_placement(state, out)
