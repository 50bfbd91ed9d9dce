"""Simulated Flick shots a second on one core, with 10 score coins on the mat (5 a player) and
the 4 goal coins: shots from Heads' zone into the goal at 0.6 to 1.6 m/s, aimed at random
points of the goal, so some strike the coins of Tails' zone beyond it.

    python bench/flick_physics.py [SHOTS]

Prints the shots a second (CPU time of this process), the mean steps a shot, and where the time
goes: building and freeing the world of a shot (the same scenes, no step taken) and the rest,
which is chipmunk's steps and the looks between them. The target (issue 43) is at least 1,000
shots a second, 1 ms a shot."""

from __future__ import annotations

import math
import random
import sys
import time
from dataclasses import replace

from coinprint.games.flick.board import build
from coinprint.games.flick.physics import STEP_S, Shot, _World, scene_of, simulate
from coinprint.games.flick.table import Table


def main(shots: int = 500) -> None:
    scene = scene_of(build(coins=5))
    heads = [c for c in scene.coins if c.id.startswith("h")]
    rng = random.Random(1)
    plan = []
    for _ in range(shots):
        coin = rng.choice(heads)
        tx, ty = rng.uniform(-60, 60), rng.uniform(-60, 60)
        direction = math.degrees(math.atan2(ty - coin.y, tx - coin.x))
        plan.append(Shot(coin.id, coin.x, coin.y, direction, rng.uniform(0.6, 1.6)))
    simulate(scene, plan[0], "heads")  # warm up
    steps = 0
    started = time.process_time()
    for shot in plan:
        steps += simulate(scene, shot, "heads").steps
    spent = time.process_time() - started
    started = time.process_time()
    for shot in plan:
        coins = tuple(replace(c, x=shot.x, y=shot.y) if c.id == shot.coin else c for c in scene.coins)
        world = _World(replace(scene, coins=coins), Table())
        world.check_overlaps()
        world.close()
    building = time.process_time() - started
    print(
        f"{shots / spent:,.0f} shots a second on one core ({spent / shots * 1000:.2f} ms a shot; "
        f"{steps / shots:.0f} steps of {STEP_S * 1000:g} ms a shot)\n"
        f"  building the world: {building / shots * 1000:.2f} ms a shot; "
        f"stepping: {(spent - building) / steps * 1e6:.2f} µs a step"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
