"""What agents know of the Map's chase besides its rules: a random move that walks as often as
it captures, the greedy evaluation, and play-outs on the fast path
(:mod:`coinprint.games.mapgame.fast`)."""

from __future__ import annotations

import random
from typing import Any

from coinprint.games.mapgame.fast import FastMap
from coinprint.games.mapgame.rules import PLAYERS, MapMove, MapRules, MapState
from coinprint.search import Search, other_player


class MapSearch(Search[MapState, MapMove]):
    """The Map's search: see each method."""

    rules: MapRules

    def __init__(self, rules: MapRules) -> None:
        super().__init__(rules)
        self._fast: FastMap | None = None

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
        fast = self._fast
        if fast is None:
            fast = self._fast = FastMap(self.rules)
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


class DrawSearch(Search[Any, Any]):
    """The search of a Map game drawn together (:class:`~coinprint.games.mapgame.drawn.DrawRules`):
    while the map is drawn, the generator's proposals and no opinion of a half-drawn map (0);
    once it is whole, the chase's own search (:class:`MapSearch`) on the map drawn."""

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

    def position_key(self, state: Any) -> Any:
        chase = self._chase(state)
        if chase is None:
            return ("draw", len(state.drawn))
        return ("chase", chase.position_key(state.position))

    def evaluate(self, state: Any, player: str) -> float:
        chase = self._chase(state)
        return 0.0 if chase is None else chase.evaluate(state.position, player)
