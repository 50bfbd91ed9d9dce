"""Hostile-input figures: how long the refusals and the capped checks take.

- reading a 40 MB layout of one 1,000,000-point polygon until the point cap refuses it
  (JSON nesting scan, parse, count);
- `validate layout` on 2,000 stacked spaces (the feature cap), which used to take > 25 s at 5,000;
- `validate layout` on one 240,000-point polygon (just under the point cap);
- refusing `balance mapgame --games 1000000000` and `board cointable --size 13 --hex 500mm
  --paper a5` (caps checked before any work).

Run from the repository root: python bench/hostile.py
Targets: every refusal under 1 s; every capped check under 10 s.
"""

from __future__ import annotations

import io
import json
import math
import sys
import tempfile
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from coinprint.cli import main  # noqa: E402


def run(*args: str) -> tuple[int, float]:
    """Exit code and wall seconds of one in-process command."""
    start = time.perf_counter()
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        try:
            main(list(args))
            code = 0
        except SystemExit as done:
            code = int(done.code or 0)
    return code, time.perf_counter() - start


def polygon_layout(points: int) -> str:
    ring = [[100 * math.cos(2 * math.pi * k / points), 100 * math.sin(2 * math.pi * k / points)] for k in range(points)]
    ring.append(ring[0])
    feature = {"type": "Feature", "id": "a", "geometry": {"type": "Polygon", "coordinates": [ring]}}
    feature["properties"] = {"role": "space"}
    return json.dumps({"type": "FeatureCollection", "coinprint": {"game": "mapgame"}, "features": [feature]})


def stacked_layout(spaces: int) -> str:
    features = [
        {
            "type": "Feature",
            "id": f"s{i}",
            "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [10 + i / 1000, 0], [10, 10], [0, 10], [0, 0]]]},
            "properties": {"role": "space", "region": "r"},
        }
        for i in range(spaces)
    ]
    return json.dumps({"type": "FeatureCollection", "coinprint": {"game": "coinage"}, "features": features})


def main_figures() -> None:
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        cases = {
            "1,000,000-point polygon (refused)": polygon_layout(1_000_000),
            "240,000-point polygon (checked)": polygon_layout(240_000),
            "2,000 stacked spaces (checked)": stacked_layout(2_000),
        }
        for name, text in cases.items():
            path = base / "layout.geojson"
            path.write_text(text)
            code, seconds = run("validate", "layout", str(path))
            print(f"validate layout, {name}: exit {code}, {seconds:.2f} s ({len(text) / 1e6:.0f} MB)")
        for args in (
            ("balance", "mapgame", "--games", "1000000000"),
            ("board", "cointable", "--size", "13", "--hex", "500mm", "--paper", "a5", "-o", str(base / "x.pdf")),
            ("board", "coinage", "--card", "0.01x0.01mm", "-o", str(base / "c.pdf")),
        ):
            code, seconds = run(*args)
            print(f"{' '.join(args[:6])}: exit {code}, {seconds:.2f} s")


if __name__ == "__main__":
    main_figures()
