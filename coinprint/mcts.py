"""Monte Carlo tree search (UCT, Kocsis & Szepesvári 2006) for every game on the rules
protocol of :mod:`coinprint.engine`, through its :class:`~coinprint.search.Search`, with an iteration budget: ``--agent mcts:iterations=800``.

One iteration walks down the tree from the position to move, choosing at each node the child
with the best upper confidence bound (UCB1: mean value + ``exploration`` · √(ln N / n)), adds
one new child, values it, and adds the value to every node on the way back up, each from the
point of view of the player who chose it. After the budget the most visited move is played
(ties broken at random).

- A node's moves are listed once (:meth:`coinprint.search.Search.scored_moves`: each with the
  rules' evaluation of the position after it, which a game may find without playing the move)
  and tried best first by it, and a node reached ``n`` times has at most ``widen · √n``
  children (progressive widening), so wide positions are searched deep on their likely moves;
  a move is played only when the search widens to it.
- A new child is valued by ``mix`` × its evaluation squashed into 0 to 1 plus (1 − ``mix``) ×
  the mean of ``playouts`` random play-outs from it on the rules' play-out path (the games' fast paths,
  :meth:`coinprint.search.Search.playout_total`: 1 a win, 0.5 a tie, 0 a loss) — the mixed
  leaf value of AlphaGo (Silver et al. 2016), with the evaluation standing in for a network.
- A parameter not given takes the game's own default when it has one
  (:meth:`coinprint.search.Search.tree_defaults`), else this module's.

Chance (Coin Age's throw before each turn) is handled open-loop: each time the walk reaches
a node it throws again (:meth:`~coinprint.engine.Rules.begin_turn`), and the node keeps
its untried moves per outcome (:meth:`~coinprint.search.Search.chance_key`); only the
children legal after this throw compete, and the bound counts how often they were available
(Cowling, Powley & Whitehouse 2012, "availability" counts). The throws are stratified by
visit (:class:`StratifiedChance`): a node's throws cycle through every combination of its
first four tosses, and siblings meet the same throws in the same order (common random
numbers), so two moves are compared under the same luck.

With ``halving`` k the root is a race instead (hybrid MCTS: Pepels, Cazenave & Winands
2014): the root's k best moves by the evaluation get the budget by sequential halving
(Karnin, Koren & Somekh 2013) and the tree below each is searched as above. Sequential
halving spends a fixed budget on finding the best move (simple regret) where UCB1 spends it
on playing well while searching (cumulative regret), and every move in a round gets the same
number of iterations, hence the same throws.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from operator import itemgetter
from typing import Any

from coinprint.search import Agent, Search, SearchMove

DEFAULT_ITERATIONS = 800
"""Iterations a move when no budget is given."""
DEFAULT_EXPLORATION = 0.3
"""UCB1's exploration constant for values in [0, 1]. Smaller than the textbook √2: with
children expanded best first by the evaluation, the search gains more from looking deeper at
the likely moves than from spreading over the rest (tuned by matches against greedy)."""
DEFAULT_DEPTH = 1000
"""Moves a play-out may last before it is judged by the evaluation's sign (rarely reached:
random games end sooner on the shipped boards)."""
DEFAULT_MIX = 0.3
"""Share of a leaf's value taken from the evaluation rather than the play-out (AlphaGo's λ)."""
DEFAULT_PLAYOUTS = 1
"""Random play-outs a new leaf is valued by (their mean is the play-out part of its value)."""
DEFAULT_HALVING = 0
"""Root moves raced by sequential halving; 0 for UCB1 at the root too."""
EVALUATION_SCALE = 4.0
"""An evaluation of this many points (spaces, countries, score) ahead reads as a 76 % chance."""
DEFAULT_WIDEN = 2.0
"""Progressive widening (Coulom 2007; Chaslot et al. 2008): a node reached ``n`` times has at
most ``widen · √n`` children, the best by the evaluation first, so a wide position (Coin
Age's whole turns, Coin Table's sixty-odd moves) is searched deep on its likely moves
instead of shallow on all of them."""


_GUESS_THEN_DRAW = itemgetter(0, 1)
"""The sort key of a node's untried moves: the squashed evaluation, then a random draw."""


class Node:
    """A tree node: the move that led here, who chose it, and the value it earned for them."""

    __slots__ = ("move", "mover", "visits", "value", "available", "children", "untried", "options", "expanded", "seen")

    def __init__(self, move: Any, mover: str | None) -> None:
        self.move = move
        self.mover = mover
        """The player who chose :attr:`move` (None at the root)."""
        self.visits = 0
        self.value = 0.0
        """Sum of play-out values for :attr:`mover` (1 a win, 0.5 a tie, 0 a loss)."""
        self.available = 0
        """Iterations in which this node's move was legal at its parent (the bound's N)."""
        self.children: dict[Any, Node] = {}
        self.untried: dict[Hashable, list[tuple[Any, float]]] = {}
        """Moves not yet expanded with their evaluations, per chance outcome (the next to
        expand last)."""
        self.options: dict[Hashable, int] = {}
        """How many legal moves there are, per chance outcome listed so far."""
        self.expanded: dict[Hashable, list[Node]] = {}
        """The children so far, per chance outcome (the ones that compete)."""
        self.seen: dict[Hashable, int] = {}
        """Iterations that reached this node with each chance outcome."""


class MCTSAgent(Agent[Any, Any]):
    """UCT with ``iterations`` play-outs a move (see the module docstring)."""

    name = "mcts"

    def __init__(
        self,
        iterations: int | None = None,
        exploration: float | None = None,
        depth: int | None = None,
        mix: float | None = None,
        widen: float | None = None,
        playouts: int | None = None,
        halving: int | None = None,
    ) -> None:
        given = {
            "iterations": iterations,
            "exploration": exploration,
            "depth": depth,
            "mix": mix,
            "widen": widen,
            "playouts": playouts,
            "halving": halving,
        }
        self.given: dict[str, float] = {k: v for k, v in given.items() if v is not None}
        """The parameters as given; the others take the game's defaults
        (:meth:`Search.tree_defaults`), else this module's."""
        self._settle({})

    def _settle(self, game: dict[str, float]) -> None:
        """Set every parameter: as given, else the game's default, else this module's."""
        chosen = {**game, **self.given}
        self.iterations = int(chosen.get("iterations", DEFAULT_ITERATIONS))
        self.exploration = float(chosen.get("exploration", DEFAULT_EXPLORATION))
        self.depth = int(chosen.get("depth", DEFAULT_DEPTH))
        self.mix = float(chosen.get("mix", DEFAULT_MIX))
        self.widen = float(chosen.get("widen", DEFAULT_WIDEN))
        self.playouts = int(chosen.get("playouts", DEFAULT_PLAYOUTS))
        self.halving = int(chosen.get("halving", DEFAULT_HALVING))

    def choose(self, search: Search[Any, Any], state: Any, rng: random.Random) -> Any:
        self._settle(search.tree_defaults())
        moves = search.scored_moves(state)
        if len(moves) == 1:
            return moves[0].move
        root = Node(None, None)
        self._list(search, state, root, search.chance_key(state), moves, rng)
        chance = StratifiedChance(rng)
        if self.halving > 1:
            return self._race(search, state, root, rng, chance)
        for _ in range(self.iterations):
            self._iterate(search, state, root, rng, chance)
        most = max(child.visits for child in root.children.values())
        best = [move for move, child in root.children.items() if child.visits == most]
        return best[0] if len(best) == 1 else rng.choice(best)

    def _list(
        self,
        search: Search[Any, Any],
        state: Any,
        node: Node,
        key: Hashable,
        moves: list[SearchMove],
        rng: random.Random,
    ) -> None:
        """Note the legal ``moves`` at ``node`` for chance outcome ``key``, to be expanded
        best first by the evaluation (ties in random order; all in random order when ``mix``
        is 0)."""
        node.options[key] = len(moves)
        rand = rng.random
        if self.mix > 0:
            tanh, scale = math.tanh, EVALUATION_SCALE
            order = [
                (
                    listed.outcome if listed.outcome is not None else 0.5 + 0.5 * tanh(listed.value / scale),
                    rand(),
                    listed.move,
                )
                for listed in moves
            ]
        else:
            order = [(0.5, rand(), listed.move) for listed in moves]
        order.sort(key=_GUESS_THEN_DRAW)
        node.untried[key] = [(move, guess) for guess, _, move in order]
        node.expanded[key] = []
        node.seen[key] = 0

    def _race(
        self, search: Search[Any, Any], state: Any, root: Node, rng: random.Random, chance: StratifiedChance
    ) -> Any:
        """Sequential halving over the root's ``halving`` best moves by the evaluation: the
        budget is split evenly over ⌈log₂ k⌉ rounds; in each, every move still racing gets the
        same number of iterations (at least one; a move's first is its leaf value), then the
        better half by mean value races on (ties keep the evaluation's order). Returns the
        move left."""
        mover = search.rules.to_move(state)
        racing: list[Node] = []
        for move, guess in reversed(root.untried[search.chance_key(state)][-self.halving :]):
            child = root.children[move] = Node(move, mover)
            self._value_leaf(search, state, [root, child], mover, guess, rng)
            racing.append(child)
        rounds = math.ceil(math.log2(len(racing)))
        left = self.iterations
        for done in range(rounds):
            each = max(1, left // (len(racing) * (rounds - done)))
            for _ in range(each - (done == 0)):  # round one began with the leaf values
                for child in racing:
                    self._iterate(search, state, root, rng, chance, child)
            left -= each * len(racing)
            racing.sort(key=lambda child: child.value / child.visits, reverse=True)
            racing = racing[: math.ceil(len(racing) / 2)]
        return racing[0].move

    def _iterate(
        self,
        search: Search[Any, Any],
        start: Any,
        root: Node,
        rng: random.Random,
        chance: StratifiedChance,
        first: Node | None = None,
    ) -> None:
        """One walk from the root (through its child ``first`` when given) to a new leaf or
        the end of the game, and back up."""
        state = start.copy()
        node, path = root, [root]
        if first is not None:
            _play(search, state, first.move, rng)
            node = first
            path.append(first)
        while True:
            if search.rules.is_over(state):
                winner = search.rules.result(state).winner
                _back_up(path, None, 0.5 if winner is None else 1.0, winner)
                return
            if node is not root:
                chance.visit(node.visits - 1)  # a node's first visit made it: no throw there
                search.rules.begin_turn(state, chance)
            key = search.chance_key(state)
            if key not in node.options:
                self._list(search, state, node, key, search.scored_moves(state), rng)
            mover = search.rules.to_move(state)
            untried, expanded = node.untried[key], node.expanded[key]
            seen = node.seen[key] = node.seen[key] + 1
            for child in expanded:
                child.available += 1
            # Progressive widening: a new child only while fewer than widen·√(visits) exist.
            if untried and (not expanded or len(expanded) < self.widen * math.sqrt(seen)):
                move, guess = untried.pop()
                new = node.children.get(move)
                if new is None:
                    new = node.children[move] = Node(move, mover)
                expanded.append(new)
                new.available += 1
                path.append(new)
                self._value_leaf(search, state, path, mover, guess, rng)
                return
            node = self._select(node, expanded, rng)
            _play(search, state, node.move, rng)
            path.append(node)

    def _value_leaf(
        self, search: Search[Any, Any], state: Any, path: list[Node], mover: str, guess: float, rng: random.Random
    ) -> None:
        """Value the new leaf ending ``path`` (its move, ``mover``'s, not yet played on
        ``state``; ``guess`` its evaluation squashed) by the mix of evaluation and play-outs,
        and back it up."""
        value = guess
        if self.mix < 1:
            played = search.playout_total(state, path[-1].move, mover, rng, self.depth, self.playouts)
            value = self.mix * guess + (1 - self.mix) * played / self.playouts
        _back_up(path, mover, value, None)

    def _select(self, node: Node, options: list[Node], rng: random.Random) -> Node:
        best: list[Node] = []
        best_bound = -math.inf
        c, log, sqrt = self.exploration, math.log, math.sqrt
        for child in options:
            visits = child.visits
            bound = child.value / visits + c * sqrt(log(child.available) / visits)
            if bound > best_bound:
                best, best_bound = [child], bound
            elif bound == best_bound:
                best.append(child)
        return best[0] if len(best) == 1 else rng.choice(best)


def _back_up(path: list[Node], player: str | None, value: float, winner: str | None) -> None:
    """Add one play-out to every node of ``path``: ``value`` is for ``player``; or, at the end
    of a game (``player`` None), 1 for ``winner``'s nodes, 0 for the other's, 0.5 in a tie."""
    for node in path:
        node.visits += 1
        if node.mover is None:
            continue
        if player is not None:
            node.value += value if node.mover == player else 1.0 - value
        elif winner is None:
            node.value += 0.5
        elif node.mover == winner:
            node.value += 1.0


class StratifiedChance(random.Random):
    """The chance tree search throws with: at a node's n-th throw its first four draws from
    :meth:`random` fall in the halves of [0, 1) that pattern n mod 16 of :data:`PATTERNS`
    gives (bit i set: the upper half for draw i), uniformly within them; later draws are
    plain. For Coin Age's throw (one toss a coin, a draw below ½ a match) every 16 throws at a
    node meet each combination of the four coins once (stratified sampling), the two throws of
    each pair are mirror images (antithetic), and siblings meet the same throws in the same
    order (common random numbers)."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(0)
        self._rng = rng
        self._pattern = 0
        self._draws = 0

    def visit(self, throws: int) -> None:
        """Begin a node's throw number ``throws`` (0 for its first)."""
        self._pattern = PATTERNS[throws % len(PATTERNS)]
        self._draws = 0

    def random(self) -> float:
        draw = self._draws
        self._draws = draw + 1
        if draw >= 4:
            return self._rng.random()
        return ((self._pattern >> draw & 1) + self._rng.random()) / 2


PATTERNS: tuple[int, ...] = (
    *(0b0011, 0b1100, 0b0101, 0b1010, 0b0110, 0b1001),
    *(0b0001, 0b1110, 0b0010, 0b1101, 0b0100, 0b1011, 0b1000, 0b0111),
    *(0b0000, 0b1111),
)
"""The order of a node's throws (bit i: the upper half for draw i): pairs of mirror images,
the usual ones first (two of four, then one or three, then none or all), so a node with few
visits meets typical throws and every prefix of even length is balanced for each draw."""


def _play(search: Search[Any, Any], state: Any, move: Any, rng: random.Random) -> None:
    """Play ``move`` on ``state`` as the game executes it: the move itself, or a dexterity
    game's shot with the hand's noise and what the table did (open loop, as chance is)."""
    for step in search.execute(state, move, rng):
        search.rules.apply_unchecked(state, step)
