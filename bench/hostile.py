"""Hostile-input figures: how long the refusals and the capped checks take.

- reading a 40 MB layout of one 1,000,000-point polygon until the point cap refuses it
  (JSON nesting scan, parse, count);
- `validate layout` on 2,000 stacked spaces (the feature cap), which used to take > 25 s at 5,000;
- `validate layout` on one space of 248,000 points (over the 10,000-point cap for one space:
  refused before any geometry is built; it ran past 70 s at 1.5 GB before the cap);
- `validate layout` on a drawing whose one path has 190,000 straight segments (refused before
  svgelements parses it) and on one of 20,000 points (simplified within 0.01 mm, then checked);
- `validate layout` on a QGIS/GDAL GeoJSON in metres tagged EPSG:3857, read as mm (the
  ``--units m`` hint; it took 34 s to fail before);
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


def svg_path(points: int) -> str:
    """A drawing of one round space whose path has ``points`` straight segments."""
    corners = [
        (100 + 80 * math.cos(2 * math.pi * k / points), 100 + 80 * math.sin(2 * math.pi * k / points))
        for k in range(points)
    ]
    d = "M " + " L ".join(f"{x:.4f},{y:.4f}" for x, y in corners) + " Z"
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="200mm" height="200mm" viewBox="0 0 200 200">'
        f'<path id="land" d="{d}"/><rect id="sea" x="185" y="0" width="15" height="30"/></svg>'
    )


def metres_geojson() -> str:
    """A generated Map in metres, as QGIS saves a layer in EPSG:3857 (no coinprint member)."""
    from coinprint.games.mapgame import board

    layout = board.build(countries=21, seed=4)
    features = [
        {
            "type": "Feature",
            "properties": {"fid": n, "name": s.name},
            "geometry": {"type": "Polygon", "coordinates": [[[x / 1000, y / 1000] for x, y in r] for r in s.rings]},
        }
        for n, s in enumerate(layout.spaces, start=1)
    ]
    crs = {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::3857"}}
    return json.dumps({"type": "FeatureCollection", "crs": crs, "features": features})


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
            "1,000,000-point polygon (refused)": (polygon_layout(1_000_000), "layout.geojson", ()),
            "248,000-point space (refused)": (polygon_layout(248_000), "layout.geojson", ()),
            "9,999-point space (checked)": (polygon_layout(9_999), "layout.geojson", ()),
            "2,000 stacked spaces (checked)": (stacked_layout(2_000), "layout.geojson", ()),
            "SVG path of 190,000 segments (refused)": (svg_path(190_000), "drawing.svg", ("--game", "mapgame")),
            "SVG path of 20,000 points (simplified)": (svg_path(20_000), "drawing.svg", ("--game", "mapgame")),
            "GeoJSON in metres, EPSG:3857 (hint)": (metres_geojson(), "qgis.geojson", ("--game", "mapgame")),
        }
        for name, (text, file_name, options) in cases.items():
            path = base / file_name
            path.write_text(text)
            code, seconds = run("validate", "layout", str(path), *options)
            print(f"validate layout, {name}: exit {code}, {seconds:.2f} s ({len(text) / 1e6:.1f} MB)")
        for args in (
            ("balance", "mapgame", "--games", "1000000000"),
            ("board", "cointable", "--size", "13", "--hex", "500mm", "--paper", "a5", "-o", str(base / "x.pdf")),
            ("board", "coinage", "--card", "0.01x0.01mm", "-o", str(base / "c.pdf")),
        ):
            code, seconds = run(*args)
            print(f"{' '.join(args[:6])}: exit {code}, {seconds:.2f} s")


if __name__ == "__main__":
    main_figures()
