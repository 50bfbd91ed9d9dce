"""What tree search and the fair search cost, in CPU seconds of this process (one core).

- a game of mcts at its default budget against greedy on each agent game (mcts moving first in
  half the games, seeds 1, 2, …, paired throws as in a match), and how long one computer turn
  takes, on average and at most, at the default and at the studio's quick MCTS level
  (``mcts:iterations=200``);
- ``board … --fair`` on a random Coin Age card and on a Map: 10 candidates, random agents,
  the 400-game re-measure (the search itself, without drawing the card), and what it found.

Strength is :mod:`bench.agent_strength`'s (it plays hundreds of games).

Run from the repository root: ``python bench/search_speed.py [--games 4] [--game coinage]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import argparse
import random
import time
from typing import Any

from coinprint.agents import make_agent
from coinprint.analysis import builtin_layout
from coinprint.fair import fair_search, search_plan
from coinprint.registry import GAMES
from coinprint.search import Agent, GreedyAgent, Search, other_player, play_game
from coinprint.source import engines_for

AGENT_GAMES = ("cointable", "coinage", "mapgame")
FAIR = {"coinage": "coinage:map=random,seed=0", "mapgame": GAMES["mapgame"].default_spec}
STUDIO_LEVEL = "mcts:iterations=200"


class _Timed(Agent[Any, Any]):
    """An agent whose every choice is timed (CPU seconds)."""

    def __init__(self, inner: Agent[Any, Any], turns: list[float]) -> None:
        self.inner, self.turns = inner, turns

    def choose(self, search: Search[Any, Any], state: Any, rng: random.Random) -> Any:
        start = time.process_time()
        move = self.inner.choose(search, state, rng)
        self.turns.append(time.process_time() - start)
        return move


def _games(spec: str, agent: str, games: int) -> tuple[float, list[float]]:
    """CPU seconds a game of ``agent`` against greedy, and the time of each of its turns."""
    search = engines_for(builtin_layout(spec)).search
    first, second = search.rules.players
    turns: list[float] = []
    start = time.process_time()
    for k in range(games):
        mine = first if k % 2 == 0 else second
        agents = {mine: _Timed(make_agent(agent), turns), other_player(search.rules.players, mine): GreedyAgent()}
        play_game(search, agents, random.Random(k + 1), 2000, chance_seed=k // 2 + 1)
    return (time.process_time() - start) / games, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games of each agent against greedy")
    parser.add_argument("--game", action="append", choices=AGENT_GAMES, help="only these games (repeat)")
    parser.add_argument("--no-fair", action="store_true", help="skip the fair searches")
    args = parser.parse_args()
    for game in args.game or AGENT_GAMES:
        spec = GAMES[game].default_spec
        for agent in ("mcts", STUDIO_LEVEL):
            if agent == STUDIO_LEVEL and game != "coinage":
                continue
            seconds, turns = _games(spec, agent, args.games)
            mean = sum(turns) / len(turns) if turns else 0.0
            print(
                f"{spec}: {agent} v greedy: {seconds:.2f} s CPU a game (mean of {args.games}); "
                f"a turn {mean:.3f} s on average, {max(turns, default=0.0):.3f} s at most",
                flush=True,
            )
    if args.no_fair:
        return
    for game, spec in FAIR.items():
        if args.game and game not in args.game:
            continue
        start = time.process_time()
        found = fair_search(spec, 10, search_plan(workers=1))
        print(f"fair search from {spec}: {time.process_time() - start:.1f} s CPU; {found.info_line()}", flush=True)


if __name__ == "__main__":
    main()
