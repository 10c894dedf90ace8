"""Nauticus as a platform plugin: its words, commands, panel and pictures.

Nauticus hides nothing, so its view carries the whole state (`view["state"]`); the words here
rebuild the state from the view they are given and never see anything else.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from bot import texts as common
from bot.games.nauticus import move_words, moves_map, refusal_words, rules_digest, words
from bot.games.nauticus import texts as nt
from bot.i18n import N_, tr, trn
from bot.plugin import (
    BadOption,
    EventLine,
    MoveCommand,
    OptionSpec,
    PanelButton,
    PanelSpec,
    Picture,
    Post,
    ReplayFrames,
    Seen,
    Suggestion,
)
from engine.api import Move, Rules
from engine.nauticus import RULES, State, data
from engine.nauticus.api import NauticusRules
from engine.nauticus.rules import price_of
from engine.nauticus.state import from_dict

# The last views built or read and their states, newest first (see `state_of`).
_last: list[tuple[dict[str, Any], State]] = []
_KEPT = 4


def _keep(view: dict[str, Any], state: State) -> None:
    _last[:] = [(view, state), *_last[: _KEPT - 1]]


def state_of(seen: Seen) -> State:
    """The (public) state inside a Nauticus view. The views this plugin's rules built last are
    kept with the state they were built from (a move's posts read the views before and after it
    in turn); any other view's state is rebuilt from it (and kept). Views are not changed."""
    view = seen.view
    # The view itself is kept (not its id): an id can be reused once an object is freed.
    for kept, state in _last:
        if kept is view:
            return state
    state = from_dict(view["state"])
    _keep(view, state)
    return state


class _ViewsKept(NauticusRules):
    """The engine's rules, each view kept with the state it was built from: `state_of` then
    returns that state instead of rebuilding it from the view's copy with `from_dict` (a turn
    ping, a done line and a phase post each read one). The two are equal: a view holds
    `to_dict(state)`, and `from_dict(to_dict(s)) == s` (tests/bot/test_service_state_of.py)."""

    def view(self, state: State, seat: int | None = None) -> dict[str, Any]:
        made = super().view(state, seat)
        _keep(made, state)
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (to the AI's worker processes) as a copy of the engine's own rules, as they
        # were before: the worker imports no bot module to read them, and keeps no views there.
        return (copy.copy, (RULES,))


_RULES = _ViewsKept(
    RULES.name, RULES.engine_version, (RULES.min_players, RULES.max_players), RULES._f
)


_THEN = {
    "buy": N_("Where does it go?"),
    "transport": N_("Where does it go?"),
    "money": N_("How many workers?"),
    "crowns": N_("How many workers?"),
    "reward": N_("Which goods?"),
    "extra": N_("Which action?"),
}


def _command(spec: moves_map.CommandSpec) -> MoveCommand:
    return MoveCommand(
        spec.name,
        spec.description,
        tuple(
            OptionSpec(
                o.name,
                o.description,
                o.type,
                o.required,
                autocomplete=o.name != "confirm",
            )
            for o in spec.options
        ),
    )


class NauticusPlugin:
    rules: Rules = _RULES
    kind = "nauticus"
    title = "Nauticus"
    command = "nauticus"
    description = "Play Nauticus, the ship-building board game, in this channel"
    hand_command = "me"
    hand_description = "Your shipyard, storage and resources (only to you)"
    move_commands: Sequence[MoveCommand] = tuple(_command(c) for c in moves_map.MOVE_COMMANDS)
    rules_topics: Mapping[str, str] = {k: t for k, (t, _) in rules_digest.TOPICS.items()}
    panel = PanelSpec(
        buttons=(
            PanelButton("pass", N_("Pass"), "secondary"),
            PanelButton("extra", N_("Extra action"), "primary"),
            PanelButton("end_extra", N_("End extra action"), "primary"),
            PanelButton("end_turn", N_("End turn"), "success", after_back=True),
        ),
        yes_anyway=N_("Yes, buy it anyway"),
    )

    # --- commands ------------------------------------------------------------------------

    def rules_digest(self, topic: str | None) -> str:
        return rules_digest.digest(topic)

    def move_from_call(self, command: str, options: Mapping[str, Any]) -> Move:
        try:
            return moves_map.from_call(command, options)
        except moves_map.BadOption as exc:
            raise BadOption(str(exc)) from None

    def call_text(self, move: Move) -> str:
        return moves_map.to_call(move).text()

    def suggest(
        self, seen: Seen, command: str, option: str, typed: str, filled: Mapping[str, Any]
    ) -> list[Suggestion]:
        assert seen.audience is not None
        found = moves_map.suggest(state_of(seen), seen.audience, command, option, typed, filled)
        return [Suggestion(s.name, s.value) for s in found]

    # --- the panel -----------------------------------------------------------------------

    def panel_header(self, seen: Seen) -> str:
        assert seen.audience is not None
        state = state_of(seen)
        return f"{_resources_line(state, seen.audience)}\n{_situation(state, seen.audience)}"

    def group_key(self, move: Move) -> str:
        t = move["type"]
        if t == "choose_action":
            return f"choose.{move['space']}"
        if t in ("take_bonus", "buy", "take_free_tile", "transport"):
            return f"{t.split('_')[-1] if t != 'take_free_tile' else 'free'}.{move['item']}"
        if t == "deliver":
            return f"deliver.{move['ship']}"
        if t == "reward":
            return f"reward.{move['kind']}"
        return str(t)

    def group_label(self, seen: Seen, key: str, moves: Sequence[Move]) -> str:
        assert seen.audience is not None
        state, seat, move = state_of(seen), seen.audience, moves[0]
        if len(moves) == 1 and move["type"] in ("money", "crowns"):
            # A group of one move is played at once, so its label names the move exactly.
            return tr(
                "{action}: {choice}",
                action=words.action_label(move["type"]),
                choice=self.then_label(seen, move),
            )
        player = state.players[seat]
        t = move["type"]
        if t == "choose_action":
            return words.space_label(state, move["space"])
        if t == "take_bonus":
            return tr("Bonus: {item} (to storage)", item=words.item_label(move["item"]))
        if t == "buy":
            label = words.buy_label(state, move["item"])
            units = data.item_units(move["item"])
            full = player.storage_used + units > data.STORAGE_UNITS
            if full and move["to"] == "storage" and price_of(state, move["item"]) == 0:
                label += tr(" — storage full: it would be lost")
            return label
        if t == "take_free_tile":
            return tr("Free tile: {item} (to storage)", item=words.item_label(move["item"]))
        if t == "transport":
            n = player.storage.count(move["item"])
            return tr(
                "Transport {item} — 1 worker ({n} in storage)",
                item=words.item_label(move["item"]),
                n=n,
            )
        if t == "money":
            return tr("Money — 1 worker each, 2 taler per worker")
        if t == "crowns":
            return tr(
                "Crowns — {crowns} × workers (max 15 VP)",
                crowns=words.plural(player.crowns, "crown"),
            )
        if t == "deliver":
            return words.deliver_label(player, move["ship"])
        if t == "reward":
            return tr("Reward: {reward}", reward=words.reward_label(move["kind"]))
        if t == "extra":
            return tr("Extra action — +{n} workers, then any action", n=data.EXTRA_WORKERS)
        return key

    def then_label(self, seen: Seen, move: Move) -> str:
        assert seen.audience is not None
        state = state_of(seen)
        player = state.players[seen.audience]
        t = move["type"]
        if t in ("buy", "transport"):
            return words.dest_label(player, move["item"], move["to"])[:100]
        if t in ("money", "crowns"):
            return words.workers_label(state, t, move["workers"])
        if t == "reward":
            return words.reward_label("goods", move.get("goods"))
        if t == "extra":
            return words.action_label(move["action"])
        return str(move)

    def then_placeholder(self, move: Move) -> str:
        placeholder = _THEN.get(str(move["type"]))
        return tr(placeholder) if placeholder is not None else tr("Choose")

    # --- words ---------------------------------------------------------------------------

    def refusal_words(self) -> dict[str, str]:
        """The engine's words as its refusals quote them, in the context's language
        (bot.refusals)."""
        return refusal_words.refusal_words()

    def describe_move(self, move: Move, state: Any | None = None) -> str:
        """The move log's line, in the language of the context (bot.move_words)."""
        return move_words.describe(move, state)

    def must_decide(self, seen: Seen, *, you: bool) -> str:
        return nt.must_decide(state_of(seen), you=you)

    def status_line(self, seen: Seen) -> str:
        return nt.status_line(state_of(seen), seen.names)

    def turn_ping(self, seen: Seen, user_id: int) -> str:
        return nt.turn_ping(state_of(seen), seen.names, user_id)

    def start_post(self, seen: Seen) -> Post:
        state = state_of(seen)
        head = tr(
            "**Nauticus begins** — {players} players, {rounds} rounds of {phases} action phases.",
            players=len(seen.names),
            rounds=state.rounds,
            phases=data.PHASES_PER_ROUND,
        )
        text = common.fit(f"{head}\n{common.legend(seen.names)}")
        return Post(text, ("board",))

    def unit(self, seen: Seen) -> tuple[int, int]:
        # The view spells the round and phase out: no need to rebuild its state for them.
        view = seen.view
        return int(view["round"]), int(view["phase"])

    def unit_of_state(self, state: Any) -> tuple[int, int]:
        assert isinstance(state, State)
        return state.round, state.phase

    def done_line(self, before: Seen, seat: int, events: Sequence[dict[str, Any]]) -> str:
        return nt.done_line(state_of(before), before.names[seat], seat, list(events))

    def phase_post(
        self,
        before: Seen,
        after: Seen,
        unit_moves: Sequence[EventLine],
        events: Sequence[dict[str, Any]],
    ) -> Post | None:
        if not any(e["kind"] == "phase_ended" for e in events):
            return None
        state = state_of(before)
        by_seat: dict[int, list[dict[str, Any]]] = {}
        header: dict[str, Any] = {}
        for m in unit_moves:
            by_seat.setdefault(m.seat, []).extend(m.events)
            for e in m.events:
                if e["kind"] == "action_chosen":
                    header = {"round": state.round, "phase": state.phase, **e}
        penalties = {e["seat"]: e["vp"] for e in events if e["kind"] == "round_penalty"}
        players = len(state.players)
        order = [(state.start + i) % players for i in range(players)]
        text = nt.phase_summary(before.names, header, by_seat, order, penalties or None)
        return Post(text, ("board", "shipyards"))

    def final_post(self, seen: Seen) -> Post:
        return Post(nt.final_result(state_of(seen), seen.names), ("score_sheet",))

    def hand_text(self, seen: Seen) -> str:
        assert seen.audience is not None
        seat = seen.audience
        state = state_of(seen)
        player = state.players[seat]
        lines = [tr("**Your shipyard** (seat {n})", n=seat + 1), _resources_line(state, seat)]
        for i, ship in enumerate(player.ships):
            goods = ", ".join(words.goods_word(g) for g in ship.goods if g is not None)
            lines.append(
                tr("Ship #{n}: {summary}", n=i + 1, summary=words.ship_summary(ship))
                + (f" · {goods}" if goods else "")
            )
        if not player.ships:
            lines.append(tr("No ships yet."))
        stored = ", ".join(words.item_label(i) for i in player.storage) or tr("empty")
        lines.append(tr("Storage: {items}", items=stored))
        return "\n".join(lines)

    def private_line(self, event: Mapping[str, Any]) -> str:
        # Nauticus has no private events; a stored one would be shown as its kind.
        return str(event.get("kind", "?"))

    # --- moves the platform plays or checks ------------------------------------------------

    def confirmation(self, seen: Seen, move: Move) -> str | None:
        assert seen.audience is not None
        return nt.confirmation_needed(state_of(seen), seen.audience, move)

    def skip_move(self, seen: Seen) -> Move:
        # End the extra action, pass, end the turn; a decision that can't be passed (start
        # player's action, bonus, rewards) takes the first choice the engine lists, so the
        # same state always skips the same way.
        for wanted in ("end_extra", "pass", "end_turn"):
            for m in seen.legal:
                if m["type"] == wanted:
                    return dict(m)
        return dict(seen.legal[0])

    def skip_ends(self, before: Seen, after: Seen, move: Move) -> bool:
        b, a = state_of(before), state_of(after)
        return (
            a.step == "over"
            or a.current != b.current
            or (a.round, a.phase) != (b.round, b.phase)
            or move["type"] == "end_turn"
        )

    # --- pictures --------------------------------------------------------------------------

    def draw(self, pictures: Sequence[str], seen: Seen) -> list[Picture]:
        import render.nauticus as pics  # loads fonts: only when a picture is drawn

        drawn: list[Any] = []
        for kind in pictures:
            if kind == "board":
                drawn.append(pics.board(seen.view, names=seen.names, before=seen.before))
            elif kind == "shipyards":
                drawn.extend(pics.shipyards(seen.view, names=seen.names, before=seen.before))
            elif kind == "score_sheet":
                drawn.append(pics.score_sheet(seen.view, names=seen.names))
            elif kind == "my_shipyard" and seen.audience is not None:
                drawn.append(
                    pics.shipyard(seen.view, seen.audience, names=seen.names, before=seen.before)
                )
            else:
                raise ValueError(f"unknown picture {kind!r}")
        return [Picture(p.filename, p.data, p.alt_text) for p in drawn]

    def board_pictures(self) -> tuple[str, ...]:
        return ("board",)

    def replay_frames(
        self, views: Sequence[dict[str, Any]], names: Sequence[str]
    ) -> ReplayFrames | None:
        # The board with every shipyard below it, on one palette; each frame's delta holds
        # only the parts drawn again. Imported here: it loads fonts, needed only to draw.
        from render.nauticus.replay import Frames

        return Frames(views, names)

    def hand_pictures(self) -> tuple[str, ...]:
        return ("my_shipyard",)


def _resources_line(state: State, seat: int) -> str:
    """Workers, taler, crowns, storage used/12 and whether the extra action is ready."""
    p = state.players[seat]
    turn = state.turn
    blue = ""
    if turn is not None and turn.seat == seat and turn.extra is None and turn.blue:
        blue = trn(" (+{n} blue)", " (+{n} blue)", turn.blue)
    extra = tr("extra action ready") if p.extra else tr("extra action used")
    return tr(
        "{workers}{blue} · {taler} · {crowns} · storage {used}/{size} · {vp} VP · {extra}",
        workers=words.plural(p.workers, "worker"),
        blue=blue,
        taler=words.taler(p.taler),
        crowns=words.plural(p.crowns, "crown"),
        used=p.storage_used,
        size=data.STORAGE_UNITS,
        vp=p.score,
        extra=extra,
    )


def _situation(state: State, seat: int) -> str:
    """What the seat must decide now, in one line."""
    head = tr(
        "Round {round}/{rounds} · Phase {phase}/{phases}",
        round=state.round,
        rounds=state.rounds,
        phase=state.phase,
        phases=data.PHASES_PER_ROUND,
    )
    if state.step == "over":
        return tr("{head} — the game is over.", head=head)
    if state.current != seat:
        return tr(
            "{head} — not your turn: seat {n} decides now.", head=head, n=(state.current or 0) + 1
        )
    if state.step == "choose":
        return tr("{head} — you are start player: choose the action for this phase.", head=head)
    if state.step == "bonus":
        space = state.space
        assert space is not None
        return tr(
            "{head} — choose the tile of your bonus ({bonus}).",
            head=head,
            bonus=words.bonus_text(data.SPACE_BONUS[space]),
        )
    turn = state.turn
    assert turn is not None
    if turn.pending:
        pending = turn.pending[0]
        if pending.kind == "reward":
            return tr(
                "{head} — ship #{n} is finished! Choose {rewards} (max 2 of each).",
                head=head,
                n=pending.ship + 1,
                rewards=words.plural(pending.left, "reward"),
            )
        return tr("{head} — you bought all four: choose your free tile.", head=head)
    if turn.extra is not None:
        return tr(
            "{head} — extra action: {action} (no blue workers).",
            head=head,
            action=words.action_label(turn.extra),
        )
    action = words.action_label(state.action or "")
    if turn.passed:
        return tr(
            "{head} — {action}: you passed; take your extra action or end your turn.",
            head=head,
            action=action,
        )
    if turn.uses:
        return tr("{head} — {action}: go on, or end your turn.", head=head, action=action)
    return tr("{head} — {action}: your turn — perform it or pass.", head=head, action=action)


PLUGIN = NauticusPlugin()
