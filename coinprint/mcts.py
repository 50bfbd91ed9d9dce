"""Monte Carlo tree search (UCT, Kocsis & Szepesvári 2006) for every game on the rules
protocol of :mod:`coinprint.engine`, with an iteration budget: ``--agent mcts:iterations=800``.

One iteration walks down the tree from the position to move, choosing at each node the child
with the best upper confidence bound (UCB1: mean value + ``exploration`` · √(ln N / n)), adds
one new child, values it, and adds the value to every node on the way back up, each from the
point of view of the player who chose it. After the budget the most visited move is played
(ties broken at random).

- A node's moves are listed once and tried best first by the rules' evaluation of the position
  after them, and a node reached ``n`` times has at most ``widen · √n`` children (progressive
  widening), so wide positions are searched deep on their likely moves.
- A new child is valued by ``mix`` × its evaluation squashed into 0 to 1 plus (1 − ``mix``) ×
  the mean of ``playouts`` random play-outs from it on the rules' play-out path (the games' fast paths,
  :meth:`coinprint.engine.Rules.playout_total`: 1 a win, 0.5 a tie, 0 a loss) — the mixed
  leaf value of AlphaGo (Silver et al. 2016), with the evaluation standing in for a network.
- A parameter not given takes the game's own default when it has one
  (:meth:`coinprint.engine.Rules.search_defaults`), else this module's.

Chance (Coin Age's throw before each turn) is handled open-loop: each time the walk reaches
a node it throws again (:meth:`~coinprint.engine.Rules.begin_turn`), and the node keeps
its untried moves per outcome (:meth:`~coinprint.engine.Rules.chance_key`); only the
children legal after this throw compete, and the bound counts how often they were available
(Cowling, Powley & Whitehouse 2012, "availability" counts).
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from typing import Any

from coinprint.engine import Agent, Rules

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
EVALUATION_SCALE = 4.0
"""An evaluation of this many points (spaces, countries, score) ahead reads as a 76 % chance."""
DEFAULT_WIDEN = 2.0
"""Progressive widening (Coulom 2007; Chaslot et al. 2008): a node reached ``n`` times has at
most ``widen · √n`` children, the best by the evaluation first, so a wide position (Coin
Age's whole turns, Coin Table's sixty-odd moves) is searched deep on its likely moves
instead of shallow on all of them."""


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
        self.options: dict[Hashable, list[Any]] = {}
        """Every legal move, per chance outcome."""
        self.expanded: dict[Hashable, list[Any]] = {}
        """The moves with a child so far, per chance outcome (the ones that compete)."""
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
    ) -> None:
        given = {
            "iterations": iterations,
            "exploration": exploration,
            "depth": depth,
            "mix": mix,
            "widen": widen,
            "playouts": playouts,
        }
        self.given: dict[str, float] = {k: v for k, v in given.items() if v is not None}
        """The parameters as given; the others take the game's defaults
        (:meth:`Rules.search_defaults`), else this module's."""
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

    def choose(self, rules: Rules[Any, Any], state: Any, rng: random.Random) -> Any:
        self._settle(rules.search_defaults())
        moves = rules.successors(state)
        if len(moves) == 1:
            return moves[0][0]
        root = Node(None, None)
        self._list(rules, state, root, rules.chance_key(state), moves, rng)
        for _ in range(self.iterations):
            self._iterate(rules, state, root, rng)
        most = max(child.visits for child in root.children.values())
        best = [move for move, child in root.children.items() if child.visits == most]
        return best[0] if len(best) == 1 else rng.choice(best)

    def _list(
        self, rules: Rules, state: Any, node: Node, key: Hashable, moves: list[tuple[Any, Any]], rng: random.Random
    ) -> None:
        """Note the legal ``moves`` (each with the position after it) at ``node`` for chance
        outcome ``key``, to be expanded best first by the evaluation (ties in random order;
        all in random order when ``mix`` is 0)."""
        node.options[key] = [move for move, _ in moves]
        mover = rules.to_move(state)
        order = []
        for move, after in moves:
            guess = self._guess(rules, after, mover) if self.mix > 0 else 0.5
            order.append((guess, rng.random(), move))
        order.sort(key=lambda item: item[:2])
        node.untried[key] = [(move, guess) for guess, _, move in order]
        node.expanded[key] = []
        node.seen[key] = 0

    def _iterate(self, rules: Rules, start: Any, root: Node, rng: random.Random) -> None:
        state = start.copy()
        node, path = root, [root]
        while True:
            if rules.is_over(state):
                winner = rules.result(state).winner
                _back_up(path, None, 0.5 if winner is None else 1.0, winner)
                return
            if node is not root:
                rules.begin_turn(state, rng)
            key = rules.chance_key(state)
            if key not in node.options:
                self._list(rules, state, node, key, rules.successors(state), rng)
            mover = rules.to_move(state)
            untried, expanded = node.untried[key], node.expanded[key]
            seen = node.seen[key] = node.seen[key] + 1
            for move in expanded:
                node.children[move].available += 1
            # Progressive widening: a new child only while fewer than widen·√(visits) exist.
            if untried and (not expanded or len(expanded) < self.widen * math.sqrt(seen)):
                move, guess = untried.pop()
                child = node.children.get(move)
                if child is None:
                    child = node.children[move] = Node(move, mover)
                expanded.append(move)
                child.available += 1
                path.append(child)
                value = guess
                if self.mix < 1:
                    played = rules.playout_total(state, move, mover, rng, self.depth, self.playouts)
                    value = self.mix * guess + (1 - self.mix) * played / self.playouts
                _back_up(path, mover, value, None)
                return
            node = self._select(node, expanded, rng)
            rules.apply_unchecked(state, node.move)
            path.append(node)

    @staticmethod
    def _guess(rules: Rules, after: Any, mover: str) -> float:
        """The search evaluation (:meth:`Rules.search_evaluate`) of the position ``after`` a
        move for ``mover``, squashed into 0 to 1 (a game over is 1, 0.5 or 0)."""
        if rules.is_over(after):
            winner = rules.result(after).winner
            return 0.5 if winner is None else float(winner == mover)
        return 0.5 + 0.5 * math.tanh(rules.search_evaluate(after, mover) / EVALUATION_SCALE)

    def _select(self, node: Node, options: list[Any], rng: random.Random) -> Node:
        best: list[Node] = []
        best_bound = -math.inf
        c = self.exploration
        for move in options:
            child = node.children[move]
            bound = child.value / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
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
