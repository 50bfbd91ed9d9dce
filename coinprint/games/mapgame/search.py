"""What agents know of the Map's chase besides its rules: a random move that walks as often as
it captures, the greedy evaluation, and play-outs on the fast path
(:mod:`coinprint.games.mapgame.fast`)."""

from __future__ import annotations

import random
from typing import Any

from coinprint.caps import MAX_AGENT_BUDGET
from coinprint.games.mapgame.arcs import propose_arc
from coinprint.games.mapgame.drawn import DrawRules
from coinprint.games.mapgame.fast import FastMap
from coinprint.games.mapgame.rules import PLAYERS, MapMove, MapRules, MapState
from coinprint.search import Agent, GreedyAgent, MonteCarloAgent, Search, SearchMove, other_player, playout_value


class LookaheadAgent(Agent[Any, Any]):
    """The Map's drawer that looks ahead: while the map is drawn, flat Monte Carlo over the
    proposed arcs with ``playouts`` play-outs that finish the map and chase on it
    (:meth:`DrawSearch.playout_total`; an arc far from the end is taken as proposed); in the
    chase, and on a map not drawn in the game, it plays as ``greedy``. Against ``greedy``,
    who chases alike, it shows what drawing with the chase in mind is worth."""

    name = "lookahead"

    def __init__(self, playouts: int = 400) -> None:
        self.drawer: MonteCarloAgent[Any, Any] = MonteCarloAgent(playouts)
        self.chaser: GreedyAgent[Any, Any] = GreedyAgent()

    def choose(self, search: Search[Any, Any], state: Any, rng: random.Random) -> Any:
        drawing = isinstance(search.rules, DrawRules) and search.rules.phase(state) == "draw"
        return (self.drawer if drawing else self.chaser).choose(search, state, rng)


MAP_AGENTS = {"lookahead": (LookaheadAgent, {"playouts": (int, 1, MAX_AGENT_BUDGET)})}
"""The agents the Map adds to the shared ones."""


class MapSearch(Search[MapState, MapMove]):
    """The Map's search: see each method."""

    rules: MapRules
    agents = MAP_AGENTS

    def __init__(self, rules: MapRules) -> None:
        super().__init__(rules)
        self._fast: FastMap | None = None

    def chase_total(self, state: MapState, player: str, rng: random.Random, depth: int, count: int) -> float:
        """The sum of ``count`` random play-out values for ``player`` from ``state`` itself (a
        chase about to start), on the fast path when it has one."""
        fast = self._fast_map()
        if fast.isolated:
            return sum(playout_value(self, state.copy(), player, rng, depth) for _ in range(count))
        return fast.playout_total(fast.position(state), PLAYERS.index(player), rng, depth, count)

    def _fast_map(self) -> FastMap:
        """The fast path of this map, made on first use."""
        if self._fast is None:
            self._fast = FastMap(self.rules)
        return self._fast

    def random_move(self, state: MapState, rng: random.Random) -> MapMove:
        """The move first, then its details: a neighbouring country, all equally likely; when
        that is a capture, then where to send the captured coin, every other country equally
        likely. (Drawing from the legal moves, which list a capture once per country it may
        send to, would capture about twenty times as often as it walks.)"""
        rules = self.rules
        player = rules.to_move(state)
        to = rng.choice(rules.near[state.coins[player]])
        if to != state.coins[other_player(PLAYERS, player)]:
            return MapMove(to)
        return MapMove(to, rng.choice([sid for sid in rules.ids if sid != to]))

    def playout_total(
        self, state: MapState, move: MapMove, player: str, rng: random.Random, depth: int, count: int
    ) -> float:
        """As :meth:`Search.playout_total`, on the fast path of :mod:`coinprint.games.mapgame.fast`
        (the same random numbers, the same sum)."""
        fast = self._fast_map()
        if fast.isolated:
            return super().playout_total(state, move, player, rng, depth, count)
        after = state.copy()
        self.rules.apply_unchecked(after, move)
        return fast.playout_total(fast.position(after), PLAYERS.index(player), rng, depth, count)

    def decision_key(self, move: MapMove) -> str:
        """The country moved to: a capture is one choice, whatever country the coin is sent to."""
        return move.to

    def position_key(self, state: MapState) -> tuple[Any, ...]:
        """The coins, the claims and whose turn it is."""
        return (state.coins["O"], state.coins["X"], tuple(state.owner.values()), state.turn % 2)

    def evaluate(self, state: MapState, player: str) -> float:
        """Claimed countries ahead, and a little for unclaimed countries next to your coin
        and fewer next to the opponent's (so a captured coin is sent where it claims least)."""
        other = other_player(PLAYERS, player)
        claimed, coins, owner, near = state.claimed, state.coins, state.owner, self.rules.near
        mine = [owner[s] for s in near[coins[player]]].count(None)
        theirs = [owner[s] for s in near[coins[other]]].count(None)
        return float(claimed[player] - claimed[other]) + 0.1 * (mine - theirs)


LOOKAHEAD_ARCS = 4
"""Play-outs from a half-drawn map with more arcs than this still to draw after the move judge
it even (0.5 each, at no cost): the chase starts in the last two countries drawn, so an early
arc decides little, and drawing the rest of a map costs about 1.8 ms an arc."""
CHASES_PER_MAP = 16
"""Chase play-outs run on each random completion of a half-drawn map (completing it costs
far more than chasing on it)."""


class DrawSearch(Search[Any, Any]):
    """The search of a Map game drawn together (:class:`~coinprint.games.mapgame.drawn.DrawRules`):
    while the map is drawn, the generator's proposals, no opinion of a half-drawn map (0), and
    play-outs that finish the map with the generator's arcs and chase on it; once it is whole,
    the chase's own search (:class:`MapSearch`) on the map drawn."""

    rules: DrawRules
    agents = MAP_AGENTS

    def __init__(self, rules: Any) -> None:
        super().__init__(rules)
        self._chases: dict[int, MapSearch] = {}

    def _chase(self, state: Any) -> MapSearch | None:
        if state.chase is None or state.position is None:
            return None
        found = self._chases.get(id(state.chase))
        if found is None or found.rules is not state.chase:
            if len(self._chases) > 64:
                self._chases.clear()
            found = self._chases[id(state.chase)] = MapSearch(state.chase)
        return found

    def random_move(self, state: Any, rng: random.Random) -> Any:
        chase = self._chase(state)
        return super().random_move(state, rng) if chase is None else chase.random_move(state.position, rng)

    def decision_key(self, move: Any) -> Any:
        return move.to if isinstance(move, MapMove) else move

    def scored_moves(self, state: Any) -> list[SearchMove]:
        """As :meth:`Search.scored_moves`; but while more than LOOKAHEAD_ARCS arcs are still to
        draw after this one, only the first of the proposals: no play-out sees that far, so
        tree search takes it at once instead of weighing arcs it cannot tell apart."""
        listed = super().scored_moves(state)
        if self._chase(state) is None and self._far_from_the_end(state):
            return listed[:1]
        return listed

    def _far_from_the_end(self, state: Any) -> bool:
        return bool(self.rules.countries - (len(state.drawn) + 1) > LOOKAHEAD_ARCS)

    def playout_total(self, state: Any, move: Any, player: str, rng: random.Random, depth: int, count: int) -> float:
        """In the chase, :meth:`MapSearch.playout_total`. While drawing: within LOOKAHEAD_ARCS
        of the end, the map is finished with the generator's arcs (a random completion for
        every CHASES_PER_MAP play-outs) and chased on the fast path; farther from it, each
        play-out is judged even (0.5). A play-out's ``depth`` counts the arcs drawn too."""
        chase = self._chase(state)
        if chase is not None:
            return chase.playout_total(state.position, move, player, rng, depth, count)
        rules = self.rules
        if self._far_from_the_end(state):
            return 0.5 * count
        total, left = 0.0, count
        while left > 0:
            runs = min(CHASES_PER_MAP, left)
            left -= runs
            game = state.copy()
            rules.apply_unchecked(game, move)
            finished = _finished_chase(game, rules.countries, rng)
            if finished is None or rules.countries - len(state.drawn) >= depth:  # no room, or cut: no opinion
                total += 0.5 * runs
                continue
            chase, position = finished
            total += chase.chase_total(position, player, rng, depth - (rules.countries - len(state.drawn)), runs)
        return total

    def position_key(self, state: Any) -> Any:
        chase = self._chase(state)
        if chase is None:
            return ("draw", len(state.drawn))
        return ("chase", chase.position_key(state.position))

    def evaluate(self, state: Any, player: str) -> float:
        chase = self._chase(state)
        return 0.0 if chase is None else chase.evaluate(state.position, player)


FINISH_TRIES = 3
"""Generator proposals tried for each arc when a play-out finishes a map."""


def _finished_chase(state: Any, countries: int, rng: random.Random) -> tuple[MapSearch, MapState] | None:
    """Draw the rest of ``state``'s map (to ``countries``) with the generator's arcs (as the random drawer
    would; ``state`` is changed) and the chase about to start on it, its adjacency taken from
    the drawing (:meth:`~coinprint.games.mapgame.arcs.DrawnMap.neighbours`: no geometry); None
    when the generator finds no room."""
    if state.chase is not None:
        return MapSearch(state.chase), state.chase.initial_state()
    drawn = state.drawn
    while len(drawn) < countries:
        before = len(drawn)
        for _ in range(FINISH_TRIES):
            points = propose_arc(drawn, rng)
            if points is not None and drawn.draw(points).accepted:
                break
        if len(drawn) == before:
            return None
    chase = MapRules(drawn.layout(), {}, neighbours=drawn.neighbours())
    return MapSearch(chase), chase.initial_state()
