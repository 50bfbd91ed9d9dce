"""Coin Age engine speed on the classic map: checked turns replayed from records.

Plays ``--games`` random games (the play-out policy, seeds 1, 2, …) into records, then
replays every record from the start, each turn checked before it is applied
(:meth:`CoinAgeRules.apply`, what ``validate game`` does after reading a turn), and prints:

- checked turns: turns checked and applied a second over the parsed turns, the figure the
  Java peer (an independent Coin Age engine) gives through its API (410,000 to 500,000 a
  second, measured when the differential run compared the two engines);
- parsed and checked: the same from the records' text (:func:`coinprint.engine.replay`);
- listed: distinct turns a second that tree search's listing finds and judges
  (:meth:`CoinAgeSearch.scored_moves`), against the reference listing (``successors``
  with :meth:`CoinAgeSearch.tree_evaluate` of each position after a turn).

Every figure is CPU seconds of this process, the best of three rounds.

Run from the repository root: ``python bench/coinage_engine.py [--games 2000]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import argparse
import random
import time
from collections.abc import Callable

from coinprint.analysis import builtin_layout
from coinprint.engine import replay
from coinprint.games.coinage.rules import CoinAgeRules
from coinprint.games.coinage.search import CoinAgeSearch
from coinprint.games.coinage.state import CoinAgeState, Turn

ROUNDS = 3
JAVA_PEER = 410_000
"""The Java peer's checked turns a second (the low end of what it was measured at)."""


def _records(search: CoinAgeSearch, games: int) -> list[list[str]]:
    """``games`` random games' turns, as their records write them."""
    rules = search.rules
    records = []
    for seed in range(1, games + 1):
        rng = random.Random(seed)
        state, moves = rules.initial_state(), []
        while not rules.is_over(state):
            rules.begin_turn(state, rng)
            turn = search.playout_move(state, rng)
            moves.append(rules.move_text(state, turn))
            rules.apply_unchecked(state, turn)
        records.append(moves)
    return records


def _best(work: Callable[[], int]) -> tuple[float, int]:
    """The least CPU seconds of :data:`ROUNDS` runs of ``work``, and what it counted."""
    best, count = float("inf"), 0
    for _ in range(ROUNDS):
        start = time.process_time()
        count = work()
        best = min(best, time.process_time() - start)
    return best, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    rules = CoinAgeRules(builtin_layout("coinage:map=classic"), {})
    search = CoinAgeSearch(rules)
    records = _records(search, args.games)
    parsed: list[list[Turn]] = []
    for moves in records:
        state, turns = rules.initial_state(), []
        for text in moves:
            turn = rules.parse_move(state, text)
            turns.append(turn)
            rules.apply(state, turn)
        parsed.append(turns)

    def checked() -> int:
        count = 0
        for turns in parsed:
            state = rules.initial_state()
            for turn in turns:
                rules.apply(state, turn)
            count += len(turns)
        return count

    def from_text() -> int:
        count = 0
        for moves in records:
            found = replay(rules, moves)
            assert found.valid, found.report()
            count += found.moves_played
        return count

    seconds, turns = _best(checked)
    rate = turns / seconds
    print(f"checked turns: {rate:,.0f} a second ({turns:,} turns of {args.games:,} games in {seconds:.2f} s CPU)")
    print(f"  against the Java peer's {JAVA_PEER:,} a second: {rate / JAVA_PEER:.2f}x")
    seconds, turns = _best(from_text)
    print(f"parsed and checked (replay of the records' text): {turns / seconds:,.0f} turns a second")

    positions: list[CoinAgeState] = []
    rng = random.Random(0)
    for turns in parsed[:200]:
        state = rules.initial_state()
        for turn in turns:
            rules.begin_turn(state, rng)
            positions.append(state.copy())
            state.throw = None
            rules.apply(state, turn)

    def listed() -> int:
        return sum(len(search.scored_moves(position)) for position in positions)

    def reference() -> int:
        count = 0
        for position in positions:
            mover = rules.to_move(position)
            for _, after in search.successors(position):
                if not rules.is_over(after):
                    search.tree_evaluate(after, mover)
                count += 1
        return count

    fast_seconds, found = _best(listed)
    slow_seconds, _ = _best(reference)
    print(
        f"listed and judged for tree search: {found / fast_seconds:,.0f} turns a second "
        f"(the reference listing: {found / slow_seconds:,.0f}; {slow_seconds / fast_seconds:.1f}x)"
    )


if __name__ == "__main__":
    main()
