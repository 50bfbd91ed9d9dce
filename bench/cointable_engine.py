"""Coin Table engine speed on the standard board (side 5, 61 cells).

Prints three figures:
- replay: moves parsed, checked and applied per second (``core.replay`` over records);
- random self-play: moves per second and games per second (``core.play_game`` with two
  random agents, as ``coinprint play`` runs it, writing each move's notation);
- raw random play-outs: moves per second of legal-move generation + unchecked apply only;
- batch random play-outs: moves per second of the NumPy batch simulator
  (``bench/cointable_batch.py``), and the same for OpenSpiel's Havannah on its 61-cell
  hex board (``havannah(board_size=5)``, C++ behind Python), measured side by side in this run.
  OpenSpiel is a comparison only (``pip install open_spiel``); without it the ratio is n/a.

Both batch figures are CPU seconds of this process (single-threaded), the best of three
rounds taken in turn, so other load on the machine disturbs them little. The last line is
``batch random play-outs vs OpenSpiel havannah(5): RATIO``.

Run from the repository root: ``python bench/cointable_engine.py [--games N]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run from a checkout: the repository root goes first on the path.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import argparse
import random
import time

from bench.cointable_batch import BatchSimulator
from coinprint.analysis import builtin_layout
from coinprint.engine import replay
from coinprint.games.cointable.rules import CoinTableRules
from coinprint.games.cointable.search import CoinTableSearch
from coinprint.search import RandomAgent, play_game

ROUNDS = 3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="self-play games to time (default 200)")
    parser.add_argument("--size", type=int, default=5, help="board side (default 5)")
    parser.add_argument("--batch-games", type=int, default=8192, help="batch simulator games a round (default 8192)")
    parser.add_argument("--spiel-games", type=int, default=2000, help="OpenSpiel games a round (default 2000)")
    args = parser.parse_args()

    rules = CoinTableRules(builtin_layout(f"cointable:size={args.size}"), {})
    agents = {"heads": RandomAgent(), "tails": RandomAgent()}

    start = time.perf_counter()
    search = CoinTableSearch(rules)
    outcomes = [play_game(search, agents, random.Random(seed), 100_000) for seed in range(args.games)]
    elapsed = time.perf_counter() - start
    moves = sum(len(o.moves) for o in outcomes)
    print(f"board: side {args.size}, {rules.size} cells, {len(rules.triangles)} triangles")
    print(
        f"random self-play: {args.games} games, {moves} moves in {elapsed:.2f} s: "
        f"{moves / elapsed:,.0f} moves/s, {args.games / elapsed:,.1f} games/s "
        f"(mean {moves / args.games:.0f} moves a game)"
    )

    start = time.perf_counter()
    for outcome in outcomes:
        replayed = replay(rules, outcome.moves)
        assert replayed.valid, replayed.error
    elapsed = time.perf_counter() - start
    print(f"replay (parse + check + apply): {moves / elapsed:,.0f} moves/s")

    rng = random.Random(0)
    start = time.perf_counter()
    played = 0
    for _ in range(args.games):
        state = rules.initial_state()
        while True:
            legal = rules.legal_moves(state)
            if not legal:
                break
            rules.apply_unchecked(state, rng.choice(legal))
            played += 1
    elapsed = time.perf_counter() - start
    print(
        f"raw random play-outs (legal_moves + apply_unchecked): {played / elapsed:,.0f} moves/s, "
        f"{args.games / elapsed:,.1f} games/s"
    )

    simulator = BatchSimulator(rules)
    spiel = _openspiel()
    batch_rates, spiel_rates = [], []
    for round_ in range(ROUNDS):
        batch_rates.append(_batch_rate(simulator, args.batch_games, round_))
        if spiel is not None:
            spiel_rates.append(_spiel_rate(spiel, args.spiel_games, round_))
    batch = max(batch_rates)
    print(f"batch random play-outs (NumPy, {args.batch_games} games a round): {batch:,.0f} moves/s")
    if spiel is None:
        print("OpenSpiel is not installed (pip install open_spiel): no comparison")
        print("batch random play-outs vs OpenSpiel havannah(5): n/a")
        return
    print(f"OpenSpiel havannah(5) random play-outs ({args.spiel_games} games a round): {max(spiel_rates):,.0f} moves/s")
    print(f"batch random play-outs vs OpenSpiel havannah(5): {batch / max(spiel_rates):.2f}")


def _batch_rate(simulator: BatchSimulator, games: int, seed: int) -> float:
    start = time.process_time()
    played = simulator.play(games, seed)
    return float(played.lengths.sum()) / (time.process_time() - start)


def _openspiel():
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel.load_game("havannah(board_size=5)")


def _spiel_rate(game, games: int, seed: int) -> float:
    """Random play-outs as OpenSpiel's own examples run them: legal_actions, a uniform choice,
    apply_action, until the game ends."""
    rng = random.Random(seed)
    played = 0
    start = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            played += 1
    return played / (time.process_time() - start)


if __name__ == "__main__":
    main()
