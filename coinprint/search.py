"""How agents play a game: the :class:`Search` a game may provide beside its referee, the
agents that use it, and :func:`play_game`.

A game's :class:`~coinprint.engine.Rules` is the referee: what is legal, what a move does,
who won, and the notation. What agents need on top of that — the positions after each move,
evaluations, cheap random play-outs, what makes two positions the same, chance for paired
games, tree-search settings — is a separate object, as OpenSpiel keeps a game's ``State``
apart from its observers. A game gets it from :meth:`coinprint.game.Game.search`; this class
is the default, a complete behaviour derived from the referee alone, and a game overrides only
what it can do faster or judge better (Coin Age lists and judges its turns on packed
positions).

>>> search = game.search(rules)                             # doctest: +SKIP
>>> outcome = play_game(search, {"heads": GreedyAgent(), "tails": RandomAgent()}, rng, 2000)  # doctest: +SKIP
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NamedTuple, TypeVar

if TYPE_CHECKING:
    from coinprint.engine import Result, Rules

S = TypeVar("S")  # a game's state type; it has copy()
M = TypeVar("M", bound=Hashable)  # a game's move type


class SearchMove(NamedTuple):
    """A move as tree search lists it (:meth:`Search.scored_moves`)."""

    move: Any
    value: float
    """:meth:`Search.tree_evaluate` of the position after the move, for the player making it
    (0 when the move ends the game)."""
    outcome: float | None
    """When the move ends the game, its value for the player making it: 1 a win, 0.5 a tie,
    0 a loss; else None."""


class Search(Generic[S, M]):
    """What agents know of a game besides its rules, for the referee ``rules``.

    Every method has a default derived from the referee; a game's own search overrides the
    ones it does better, finding the same moves in the same order."""

    agents: ClassVar[dict[str, Any]] = {}
    """Agents this game adds to the shared ones, by name: (maker, its parameters as
    ``coinprint.agents.AGENT_PARAMETERS`` gives them), e.g. Flick's parking player."""

    def __init__(self, rules: Rules[S, M]) -> None:
        self.rules = rules

    # -- moves -------------------------------------------------------------------------------------
    def successors(self, state: S) -> list[tuple[M, S]]:
        """Every legal move, in :meth:`~coinprint.engine.Rules.legal_moves`' order, with the
        position after it (a new state each). Agents that weigh every move use this; a game
        that finds the positions while listing its moves overrides it."""
        rules = self.rules
        found = []
        for move in rules.legal_moves(state):
            after: S = state.copy()  # type: ignore[attr-defined]
            rules.apply_unchecked(after, move)
            found.append((move, after))
        return found

    def random_move(self, state: S, rng: random.Random) -> M:
        """A uniformly random legal move (games with very many moves may do this faster)."""
        return rng.choice(self.rules.legal_moves(state))

    def candidates(self, state: S) -> list[M]:
        """The moves agents that weigh every choice consider (flat Monte Carlo): by default
        every legal move. A game whose choices are continuous (Flick's shots) offers a
        sample of them instead."""
        return self.rules.legal_moves(state)

    def execute(self, state: S, move: M, rng: random.Random) -> list[M]:
        """What happens when the player to move tries ``move``: the moves the record then
        holds, in order, to be applied one by one. By default ``move`` itself and no random
        number drawn; a dexterity game returns the shot as the player's hand executed it
        (with its noise, from ``rng``) and what the table did after it (Flick's events)."""
        return [move]

    def is_decision(self, state: S, move: M) -> bool:
        """Whether ``move`` is one a player chose (a turn), rather than something that followed
        from one (what the table did after a Flick shot: a coin entering the goal, the shot's
        stop). Measures of a game (its length, branching, leads) count decisions. By default
        every move is one."""
        return True

    def forced(self, state: S) -> M | None:
        """The move that now follows by itself, with no one choosing it (what the table does
        after a Flick shot the physics has played), or None when a player is to choose; by
        default None."""
        return None

    def playout_move(self, state: S, rng: random.Random) -> M:
        """A cheap random legal move for Monte Carlo play-outs. It need not be uniform: a game
        whose moves are costly to list (Coin Age's whole turns) builds one directly."""
        return self.random_move(state, rng)

    def scored_moves(self, state: S) -> list[SearchMove]:
        """Every legal move with what tree search orders and values it by: the search
        evaluation of the position after it, or the game's outcome when it ends the game.
        By default from :meth:`successors`; a game may list and judge its moves faster
        (Coin Age does so on packed positions), finding the same moves in the same order."""
        rules = self.rules
        mover = rules.to_move(state)
        listed = []
        for move, after in self.successors(state):
            if rules.is_over(after):
                winner = rules.result(after).winner
                listed.append(SearchMove(move, 0.0, 0.5 if winner is None else float(winner == mover)))
            else:
                listed.append(SearchMove(move, self.tree_evaluate(after, mover), None))
        return listed

    def playout_total(self, state: S, move: M, player: str, rng: random.Random, depth: int, count: int) -> float:
        """The sum of ``count`` random play-out values for ``player`` after ``move`` in ``state``
        (each 1 a win, 0.5 a tie, 0 a loss; a play-out cut at ``depth`` moves is judged by the
        sign of :meth:`evaluate`: 0.75, 0.5 or 0.25). ``state`` is left as it was.

        This is the reference; a game may override it with a fast path that plays only legal
        moves by the same policy (the same random process), deterministic for a given ``rng``
        state; it may draw its random numbers differently (the Map's draws the same ones, Coin
        Age's does not)."""
        total = 0.0
        for _ in range(count):
            game = state.copy()  # type: ignore[attr-defined]
            for step in self.execute(game, move, rng):
                self.rules.apply_unchecked(game, step)
            total += playout_value(self, game, player, rng, depth)
        return total

    # -- chance ------------------------------------------------------------------------------------
    def begin_paired_turn(self, state: S, chance_seed: int, turn: int) -> None:
        """Chance before turn number ``turn`` (0 first) of a paired game: every game with the
        same ``chance_seed`` meets the same luck turn by turn, whoever plays it. By default
        :meth:`~coinprint.engine.Rules.begin_turn` with a generator seeded by both; a game whose
        chance depends on the position (Coin Age throws the coins in the bank) draws each part
        of it from a stream of its own, so the games stay paired when their positions differ."""
        self.rules.begin_turn(state, random.Random(f"chance {chance_seed} {turn}"))

    def chance_key(self, state: S) -> Hashable:
        """The chance outcome :meth:`~coinprint.engine.Rules.begin_turn` set on ``state`` (Coin
        Age's throw), which decides what the legal moves are; None for games without chance.
        Tree search keeps its untried moves per outcome."""
        return None

    def recorded_chance(self, state: S, move: M) -> None:
        """Set on ``state`` the chance outcome a recorded ``move`` carries (Coin Age's throw),
        so the legal moves can be listed while replaying a record; most games have none."""

    # -- keys --------------------------------------------------------------------------------------
    def decision_key(self, move: M) -> Hashable:
        """What a player decides with ``move``, leaving out details decided after it (the Map:
        the country moved to, not where a captured coin is sent). Branching counts these."""
        return move

    def position_key(self, state: S) -> Hashable:
        """What makes two positions the same (for agents that avoid repeating themselves): by
        default the text of :meth:`~coinprint.engine.Rules.describe`; games override it with
        something cheaper."""
        return self.rules.describe(state)

    # -- judging -----------------------------------------------------------------------------------
    def evaluate(self, state: S, player: str) -> float:
        """A quick guess of how good ``state`` is for ``player`` (for greedy agents): by
        default the score difference."""
        score = self.rules.result(state).score
        return float(score.get(player, 0) - score.get(other_player(self.rules.players, player), 0))

    def tree_evaluate(self, state: S, player: str) -> float:
        """The evaluation tree search judges its leaves and orders its moves by, on the scale
        of :meth:`evaluate` (points ahead: the search reads ``x`` as a chance of winning of
        0.5 + 0.5·tanh(x / 4)); by default :meth:`evaluate` itself. A game may judge better
        here without changing what greedy agents play."""
        return self.evaluate(state, player)

    def tree_defaults(self) -> dict[str, float]:
        """Tree-search settings that suit this game better than the search's own (mcts's
        parameters by name, e.g. ``{"mix": 1.0}``); a parameter the agent is given wins. None
        by default."""
        return {}


def other_player(players: tuple[str, ...], player: str) -> str:
    """The opponent of ``player`` in a two-player game."""
    return players[1] if player == players[0] else players[0]


# -- agents --------------------------------------------------------------------------------------
class Agent(ABC, Generic[S, M]):
    """Chooses moves through a game's :class:`Search` (its referee is ``search.rules``).
    Agents are seeded through the ``rng`` they are given; the ones here play any game."""

    name = ""

    @abstractmethod
    def choose(self, search: Search[S, M], state: S, rng: random.Random) -> M: ...


class RandomAgent(Agent[S, M]):
    """Uniform over the legal moves."""

    name = "random"

    def choose(self, search: Search[S, M], state: S, rng: random.Random) -> M:
        return search.random_move(state, rng)


class GreedyAgent(Agent[S, M]):
    """The move with the best one-ply evaluation for the mover; ties broken at random.

    Repetition-aware, so it never stalls: a move back into a position this agent has already
    seen in the game counts :data:`REPEAT_PENALTY` less for each time it was seen (two greedy
    Map players would otherwise chase each other round a ring of claimed countries for ever)."""

    name = "greedy"

    REPEAT_PENALTY = 0.25

    def __init__(self) -> None:
        self.seen: dict[Hashable, int] = {}

    def choose(self, search: Search[S, M], state: S, rng: random.Random) -> M:
        player = search.rules.to_move(state)
        seen = self.seen
        here = search.position_key(state)
        seen[here] = seen.get(here, 0) + 1
        best: list[tuple[M, Hashable]] = []
        best_value = float("-inf")
        for move, after in search.successors(state):
            key = search.position_key(after)
            value = search.evaluate(after, player) - self.REPEAT_PENALTY * seen.get(key, 0)
            if value > best_value:
                best, best_value = [(move, key)], value
            elif value == best_value:
                best.append((move, key))
        move, key = best[0] if len(best) == 1 else rng.choice(best)
        seen[key] = seen.get(key, 0) + 1
        return move


class AimAgent(Agent[S, M]):
    """The candidate move (:meth:`Search.candidates`) whose executions (:meth:`Search.execute`)
    score best on average over ``repeats`` tries; ties broken at random. In a game without
    execution noise one try tells all, and it plays as greedy would over the same moves; in a
    dexterity game it weighs each shot by what a hand of the game's skill makes of it."""

    name = "aim"

    def __init__(self, repeats: int = 8) -> None:
        self.repeats = repeats

    def choose(self, search: Search[S, M], state: S, rng: random.Random) -> M:
        rules = search.rules
        player = rules.to_move(state)
        best: list[M] = []
        best_value = float("-inf")
        for move in search.candidates(state):
            value = 0.0
            for _ in range(self.repeats):
                after = state.copy()  # type: ignore[attr-defined]
                for step in search.execute(after, move, rng):
                    rules.apply_unchecked(after, step)
                value += search.evaluate(after, player)
            if value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return best[0] if len(best) == 1 else rng.choice(best)


class MonteCarloAgent(Agent[S, M]):
    """Flat Monte Carlo: the budget of ``playouts`` random games is shared equally among the
    legal moves, each getting at least ``playouts / moves`` (rounded up) and never fewer than
    ``min_per_move``; a play-out runs to the end of the game, or is cut at ``depth`` moves and
    judged by the sign of the evaluation. The best average wins; equal averages are broken at
    random."""

    name = "montecarlo"

    def __init__(self, playouts: int = 1000, depth: int = 1000, min_per_move: int = 2) -> None:
        self.playouts = playouts
        self.depth = depth
        self.min_per_move = min_per_move

    def choose(self, search: Search[S, M], state: S, rng: random.Random) -> M:
        player = search.rules.to_move(state)
        moves = search.candidates(state)
        if len(moves) == 1:
            return moves[0]
        per_move = max(self.min_per_move, -(-self.playouts // len(moves)))
        best: list[M] = []
        best_total = float("-inf")
        for move in moves:
            total = search.playout_total(state, move, player, rng, self.depth, per_move)
            if total > best_total:
                best, best_total = [move], total
            elif total == best_total:
                best.append(move)
        return best[0] if len(best) == 1 else rng.choice(best)


def playout_value(search: Search[Any, Any], state: Any, player: str, rng: random.Random, depth: int) -> float:
    """One random play-out from ``state`` (changed as it is played) for ``player``, valued as
    :meth:`Search.playout_total` values each."""
    rules = search.rules
    for _ in range(depth):
        if rules.is_over(state):
            winner = rules.result(state).winner
            return 1.0 if winner == player else (0.5 if winner is None else 0.0)
        rules.begin_turn(state, rng)
        for step in search.execute(state, search.playout_move(state, rng), rng):
            rules.apply_unchecked(state, step)
    value = search.evaluate(state, player)
    return 0.5 + (0.25 if value > 0 else -0.25 if value < 0 else 0.0)


# -- self-play -------------------------------------------------------------------------------------
@dataclass
class Outcome:
    """One self-played game: its moves (notation), its result, whether it timed out, and how
    many turns (decisions) its moves make."""

    moves: list[Any]
    result: Result
    timeout: bool
    turns: int


def play_game(
    search: Search[S, M],
    agents: dict[str, Agent[S, M]],
    rng: random.Random,
    max_turns: int,
    chance_seed: int | None = None,
) -> Outcome:
    """Play one game between ``agents`` (keyed by player) up to ``max_turns`` turns (a turn is
    one decision, recorded as the moves :meth:`Search.execute` makes of it).

    A game cut at the limit is a timeout: its result is unfinished, never a win. Chance
    (:meth:`~coinprint.engine.Rules.begin_turn`: Coin Age's throws) comes from ``rng`` like
    the agents' choices; with a ``chance_seed`` it comes instead from
    :meth:`Search.begin_paired_turn`, seeded by ``chance_seed`` and the turn's number, so two
    games with the same ``chance_seed`` meet the same throws turn by turn whoever plays them
    (paired games, as duplicate bridge deals both tables the same cards).
    """
    rules = search.rules
    state = rules.initial_state()
    moves: list[Any] = []
    turns = 0
    while not rules.is_over(state):
        if turns >= max_turns:
            return Outcome(moves, rules.result(state), timeout=True, turns=turns)
        if chance_seed is None:
            rules.begin_turn(state, rng)
        else:
            search.begin_paired_turn(state, chance_seed, turns)
        move = agents[rules.to_move(state)].choose(search, state, rng)
        for step in search.execute(state, move, rng):
            moves.append(rules.move_text(state, step))
            rules.apply_unchecked(state, step)
        turns += 1
    return Outcome(moves, rules.result(state), timeout=False, turns=turns)
