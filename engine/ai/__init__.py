"""The AI seat: a fair search player for any game behind `engine.api.Rules`.

    >>> from engine import ai, duel
    >>> state = duel.RULES.new_game(2, seed=1)
    >>> seat = duel.RULES.current(state)
    >>> move = ai.choose(duel.RULES, state, seat, level="easy", seed=7)
    >>> move in duel.RULES.legal_moves(state, seat)
    True

`choose` (information-set MCTS, levels in `LEVELS`) and `greedy` (one ply) read the state only
through `rules.determinize(state, seat, ·)` and `rules.view(state, seat)`: a decision is a
function of what the seat may see, the level and the seed. Pure: no I/O. See README.md.
"""

from engine.ai.canon import ContractError, canonical
from engine.ai.greedy import greedy
from engine.ai.levels import LEVELS, Level, level
from engine.ai.search import choose, choose_with_stats, move_key, rewards

__all__ = [
    "LEVELS",
    "ContractError",
    "Level",
    "canonical",
    "choose",
    "choose_with_stats",
    "greedy",
    "level",
    "move_key",
    "rewards",
]
