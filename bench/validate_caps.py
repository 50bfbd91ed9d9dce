"""How long `validate layout` takes on layouts at the caps (2,000 features, 250,000 points),
for every game that reads hand-made layouts, on the shapes that make pairwise checks slow:

- a fan: 1,999 wedges of one disc that all meet at its centre (every pair touches there, so
  an index of bounding boxes alone pairs them all);
- the same fan with its edges cut into many points (the point cap);
- a grid of 1,999 squares, each bordering up to four others;
- a row of 1,999 squares whose sides are cut into pieces up to the point cap (a Map drawn
  left to right: its outline grows to a quarter of a million points), and the same row with
  its third square missing (an invalid Map, replayed against its whole outline).

Run from the repository root: python bench/validate_caps.py [--games mapgame,coinage]
Target: every case under 10 s on one core (the CPU figure; the wall figure grows when the
machine is busy with other work).
"""

from __future__ import annotations

import argparse
import io
import json
import math
import sys
import tempfile
import time
from contextlib import redirect_stderr, redirect_stdout
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from coinprint.caps import MAX_FEATURES, MAX_VERTICES  # noqa: E402
from coinprint.cli import main  # noqa: E402
from coinprint.games.mapgame.board import MAX_COUNTRIES  # noqa: E402

SPACES = MAX_FEATURES - 1


def run(*args: str) -> tuple[int, float, float, str]:
    """Exit code, wall seconds, CPU seconds of this process (what the target is about on a
    machine shared with other work) and the last line printed of one in-process command."""
    out = io.StringIO()
    start, cpu = time.perf_counter(), time.process_time()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        try:
            main(list(args))
            code = 0
        except SystemExit as done:
            code = int(done.code or 0)
    lines = out.getvalue().strip().splitlines()
    return code, time.perf_counter() - start, time.process_time() - cpu, lines[-1] if lines else ""


def _feature(index: int, ring: list[list[float]], game: str, count: int) -> dict:
    properties: dict = {"role": "space", "label": f"s{index + 1}"}
    if game == "coinage":
        properties["region"] = f"r{index % 4}"
    if game == "mapgame":
        properties.update(order=index + 1, label=str(index + 1))
        if index == count - 2:
            properties["start"] = "O"
        if index == count - 1:
            properties["start"] = "X"
    geometry = {"type": "Polygon", "coordinates": [ring]}
    return {"type": "Feature", "id": f"s{index + 1}", "geometry": geometry, "properties": properties}


def fan(game: str, count: int = SPACES, points_per_edge: int = 1, radius: float = 20_000.0) -> str:
    """``count`` wedges of a disc of ``radius`` mm meeting at its centre; each straight edge cut
    into ``points_per_edge`` pieces (the same points on both sides of a border)."""
    rim = [
        (radius * math.cos(2 * math.pi * k / count), radius * math.sin(2 * math.pi * k / count)) for k in range(count)
    ]
    features = []
    for k in range(count):
        a, b = rim[k], rim[(k + 1) % count]
        out = [[a[0] * t / points_per_edge, a[1] * t / points_per_edge] for t in range(points_per_edge + 1)]
        back = [[b[0] * t / points_per_edge, b[1] * t / points_per_edge] for t in range(points_per_edge, -1, -1)]
        ring = out + back[:-1] + [out[0]]
        features.append(_feature(k, ring, game, count))
    return _document(game, features)


def grid(game: str, count: int = SPACES, side: float = 40.0) -> str:
    """``count`` squares in rows of 40, drawn row by row."""
    features = []
    for k in range(count):
        x, y = (k % 40) * side, (k // 40) * side
        ring = [[x, y], [x + side, y], [x + side, y + side], [x, y + side], [x, y]]
        features.append(_feature(k, ring, game, count))
    return _document(game, features)


def row(game: str, count: int = SPACES, side: float = 30.0) -> str:
    """``count`` squares in one row, drawn left to right, each side cut into as many pieces as
    the point cap allows: the map's outline grows to the point cap."""
    per = max(1, (MAX_VERTICES // count - 1) // 4)
    features = []
    for k in range(count):
        x = k * side
        ring = [[x + side * t / per, 0.0] for t in range(per)]
        ring += [[x + side, side * t / per] for t in range(per)]
        ring += [[x + side - side * t / per, side] for t in range(per)]
        ring += [[x, side - side * t / per] for t in range(per)]
        features.append(_feature(k, ring + [[x, 0.0]], game, count))
    return _document(game, features)


def row_with_a_gap(game: str, count: int = SPACES) -> str:
    """:func:`row` without its third square: an invalid map, whose replay goes on against the
    whole outline from the fourth country (the map falls apart there)."""
    doc = json.loads(row(game, count))
    kept = [f for f in doc["features"] if f["id"] != "s3"]
    for number, feature in enumerate(kept, start=1):
        if game == "mapgame":
            feature["properties"]["order"] = number
    doc["features"] = kept
    return json.dumps(doc)


def _document(game: str, features: list[dict]) -> str:
    meta = {"format": 1, "game": game, "units": "mm"}
    return json.dumps({"type": "FeatureCollection", "coinprint": meta, "features": features})


def count_for(game: str) -> int:
    """Spaces at the caps: the feature cap, or the Map's own cap of 401 countries (a larger
    Map is invalid before any geometry is looked at)."""
    return MAX_COUNTRIES if game == "mapgame" else SPACES


def main_figures(games: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "layout.geojson"
        for game in games:
            count = count_for(game)
            per_edge = max(1, (MAX_VERTICES // count - 2) // 2)
            cases = {
                f"fan of {count:,} wedges": partial(fan, game, count),
                f"fan of {count:,} wedges, {per_edge} pieces an edge": partial(fan, game, count, per_edge),
                f"grid of {count:,} squares": partial(grid, game, count),
                f"row of {count:,} squares at the point cap": partial(row, game, count),
                "the same row with a gap": partial(row_with_a_gap, game, count),
            }
            for name, make in cases.items():
                path.write_text(make())
                code, seconds, cpu, last = run("validate", "layout", str(path))
                print(
                    f"validate layout, {game}, {name}: exit {code}, {cpu:.2f} s CPU ({seconds:.2f} s wall)  ({last[-60:]})"
                )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="cointable,coinage,mapgame")
    main_figures(parser.parse_args().games.split(","))
