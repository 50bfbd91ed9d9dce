"""Fit the weights of Coin Age's search evaluation (``SEARCH_WEIGHTS`` in
``coinprint/games/coinage/search.py``) and print them with how much better they predict who
wins than the plain score does.

Positions come from ε-greedy self-play on the classic map: each game picks ε from 0, 0.1 and
0.3, and each turn is then a uniformly random legal turn with chance ε, else greedy's turn
(the best by the plain score, ties at random). Every position after a turn, while the game
goes on, is taken from both players' sides; its target is whether that player won (1, a tie
0.5, 0). The weights are a logistic regression of the target on
``CoinAgeSearch.features`` by Newton's method (no constant: every feature is one
player's figure less the other's, so the fit is the same from either side), scaled so that
tree search's squash of an evaluation, 0.5 + 0.5·tanh(x / EVALUATION_SCALE), is the fitted
chance of winning. The figures are mean log-losses on held-out games (the last fifth), lower
is better; always guessing 50 % scores 0.693.

Run from the repository root (about a minute on two cores):
    python bench/fit_coinage_evaluation.py [--games 4000] [--workers 2]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import numpy

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from coinprint.games.coinage.board import build  # noqa: E402
from coinprint.games.coinage.coins import PLAYERS  # noqa: E402
from coinprint.games.coinage.rules import CoinAgeRules  # noqa: E402
from coinprint.games.coinage.search import SEARCH_FEATURES, SEARCH_WEIGHTS, CoinAgeSearch  # noqa: E402
from coinprint.games.coinage.state import CoinAgeState, Turn  # noqa: E402
from coinprint.mcts import EVALUATION_SCALE  # noqa: E402

FIRST_SEED = 100_000
EPSILONS = (0.0, 0.1, 0.3)

RULES = CoinAgeRules(build("classic"), {})
SEARCH = CoinAgeSearch(RULES)


def greedy_turn(state: CoinAgeState, rng: random.Random, epsilon: float) -> Turn:
    """A random legal turn with chance ``epsilon``, else the best by the plain score."""
    moves = SEARCH.successors(state)
    if rng.random() < epsilon:
        return rng.choice(moves)[0]
    player = RULES.to_move(state)
    best: list[Turn] = []
    best_value = float("-inf")
    for move, after in moves:
        value = SEARCH.evaluate(after, player)
        if value > best_value:
            best, best_value = [move], value
        elif value == best_value:
            best.append(move)
    return rng.choice(best)


def samples(seed: int) -> list[tuple[tuple[float, ...], float, float]]:
    """(features, won, plain score difference) of every position of one game, from both
    sides."""
    rng = random.Random(seed)
    epsilon = rng.choice(EPSILONS)
    state = RULES.initial_state()
    positions = []
    while not RULES.is_over(state):
        RULES.begin_turn(state, rng)
        RULES.apply_unchecked(state, greedy_turn(state, rng, epsilon))
        if not RULES.is_over(state):
            positions.append(state.copy())
    winner = RULES.result(state).winner
    found = []
    for position in positions:
        for me in PLAYERS:
            won = 0.5 if winner is None else float(winner == me)
            found.append((SEARCH.features(position, me), won, SEARCH.evaluate(position, me)))
    return found


def logistic_fit(features: numpy.ndarray, won: numpy.ndarray) -> numpy.ndarray:
    """Weights w maximising the likelihood of ``won`` under P(win) = 1 / (1 + e^(−features·w))."""
    weights = numpy.zeros(features.shape[1])
    for _ in range(30):
        chance = 1 / (1 + numpy.exp(-features @ weights))
        gradient = features.T @ (won - chance)
        hessian = (features * (chance * (1 - chance))[:, None]).T @ features
        step = numpy.linalg.solve(hessian + 1e-9 * numpy.eye(len(weights)), gradient)
        weights += step
        if numpy.abs(step).max() < 1e-10:
            break
    return weights


def log_loss(logits: numpy.ndarray, won: numpy.ndarray) -> float:
    """Mean log-loss of the chances 1 / (1 + e^(−logits)) for outcomes ``won``."""
    chance = numpy.clip(1 / (1 + numpy.exp(-logits)), 1e-12, 1 - 1e-12)
    return float(-numpy.mean(won * numpy.log(chance) + (1 - won) * numpy.log(1 - chance)))


def table(games: list[list[tuple[tuple[float, ...], float, float]]]) -> tuple[numpy.ndarray, ...]:
    rows = [row for game in games for row in game]
    return tuple(numpy.array([row[i] for row in rows], dtype=float) for i in range(3))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    start = time.perf_counter()
    with Pool(args.workers) as pool:
        games = pool.map(samples, range(FIRST_SEED, FIRST_SEED + args.games), chunksize=50)
    held_out = len(games) // 5
    features, won, plain = table(games[:-held_out])
    test_features, test_won, test_plain = table(games[-held_out:])
    weights = logistic_fit(features, won)
    plain_weight = logistic_fit(plain[:, None], won)
    to_points = EVALUATION_SCALE / 2  # 0.5 + 0.5·tanh(x / s) is 1 / (1 + e^(−2x / s))
    shipped = numpy.array(SEARCH_WEIGHTS) / to_points
    print(f"{len(won) + len(test_won):,} positions from {args.games:,} games in {time.perf_counter() - start:.0f} s")
    print(f"log-loss on {held_out:,} held-out games (lower is better; a coin toss: 0.693):")
    print(f"  plain score, fitted scale: {log_loss(test_plain * plain_weight[0], test_won):.4f}")
    print(f"  features, fitted weights:  {log_loss(test_features @ weights, test_won):.4f}")
    print(f"  features, shipped weights: {log_loss(test_features @ shipped, test_won):.4f}")
    for name, weight, now in zip(SEARCH_FEATURES, weights * to_points, SEARCH_WEIGHTS):
        print(f"  {name:36} {weight:+.2f}   (shipped {now:+.2f})")
    print("SEARCH_WEIGHTS = (" + ", ".join(f"{w:.2f}" for w in weights * to_points) + ")")


if __name__ == "__main__":
    main()
