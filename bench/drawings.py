"""Reading drawings: time to read and check the example Coin Age card, the largest Coin Table
board (side 13, 469 hexes) drawn as an Inkscape file rounded to 0.1 mm and as a hex tool's
469 clones, a 101-country Map drawn as one path per country (its borders joined), and a
drawing at the MAX_DRAWING_NUMBERS cap, 1,500 touching circles (400,000 points joined); how fast a nested-clone fan-out is refused; and how
close flattened circles come to their true area.

Run from the repository root: python bench/drawings.py
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from coinprint.analysis import check_layout  # noqa: E402
from coinprint.caps import MAX_DRAWING_NUMBERS  # noqa: E402
from coinprint.errors import UnreadableInputError  # noqa: E402
from coinprint.games.cointable import board as cointable  # noqa: E402
from coinprint.games.mapgame import board as mapgame  # noqa: E402
from coinprint.source import read_layout_data as parse_layout  # noqa: E402
from tests.drawings import hex_grid_svg, inkscape_svg, layout_svg  # noqa: E402


def timed(work) -> tuple[float, object]:
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def main() -> None:
    example = (ROOT / "examples" / "coinage-card.svg").read_bytes()
    seconds, read = timed(lambda: parse_layout(example, source="example", game="coinage"))
    check_seconds, _ = timed(lambda: check_layout(read.layout))  # type: ignore[attr-defined]
    print(f"example Coin Age card: read {seconds * 1000:.0f} ms, checked {check_seconds * 1000:.0f} ms")

    board = cointable.build(13, "20mm")
    drawing = hex_grid_svg(board, page_mm=600.0).encode()
    seconds, read = timed(lambda: parse_layout(drawing, source="hexes", game="cointable"))
    check_seconds, problems = timed(lambda: check_layout(read.layout))  # type: ignore[attr-defined]
    print(
        f"Coin Table side 13 ({len(board)} hexes, {len(drawing) // 1024} KB): read {seconds:.2f} s, "
        f"checked {check_seconds:.2f} s, {len(problems)} problems"  # type: ignore[arg-type]
    )

    step = 10 * 3**0.5
    uses = "".join(
        f'<use href="#hex" x="{300 + step * (q + r / 2):.4f}" y="{300 + 15 * r:.4f}" />'
        for q in range(-12, 13)
        for r in range(-12, 13)
        if abs(q + r) <= 12
    )
    corners = " ".join(
        f"{10 * math.cos(math.radians(30 + 60 * k)):.4f},{10 * math.sin(math.radians(30 + 60 * k)):.4f}"
        for k in range(6)
    )
    clones = inkscape_svg(
        f'<defs><polygon id="hex" points="{corners}" /></defs>{uses}',
        width="600mm",
        height="600mm",
        viewbox="0 0 600 600",
    ).encode()
    seconds, read = timed(lambda: parse_layout(clones, source="clones", game="cointable"))
    check_seconds, problems = timed(lambda: check_layout(read.layout))  # type: ignore[attr-defined]
    print(
        f"Coin Table side 13 as 469 clones ({len(clones) // 1024} KB): read {seconds:.2f} s, "
        f"checked {check_seconds:.2f} s, {len(problems)} problems"  # type: ignore[arg-type]
    )

    world = mapgame.build(101, 0)
    drawing = layout_svg(world, "mapgame", page_mm=1000.0).encode()
    seconds, read = timed(lambda: parse_layout(drawing, source="map", game="mapgame"))
    check_seconds, problems = timed(lambda: check_layout(read.layout))  # type: ignore[attr-defined]
    points = sum(len(s.rings[0]) for s in read.layout.spaces)  # type: ignore[attr-defined]
    print(
        f"Map of 101 countries ({points:,} points, {len(drawing) // 1024} KB): read and joined {seconds:.2f} s, "
        f"checked {check_seconds:.2f} s, {len([p for p in problems if p.severity == 'error'])} errors"  # type: ignore[attr-defined]
    )

    circles = "".join(f'<circle cx="{12 + 21 * (k % 40)}" cy="{12 + 21 * (k // 40)}" r="10.5"/>' for k in range(1500))
    touching = inkscape_svg(circles, width="900mm", height="900mm", viewbox="0 0 900 900").encode()
    seconds, read = timed(lambda: parse_layout(touching, source="circles", game="cointable"))
    points = sum(len(s.rings[0]) for s in read.layout.spaces)  # type: ignore[attr-defined]
    print(f"1,500 touching circles ({points:,} points once flattened): read and joined {seconds:.2f} s")

    levels = ['<g id="l0"><rect width="1" height="1"/></g>']
    levels += [f'<g id="l{n}"><use href="#l{n - 1}"/><use href="#l{n - 1}" x="1"/></g>' for n in range(1, 31)]
    bomb = inkscape_svg("<defs>" + "".join(levels) + '</defs><use href="#l30"/>').encode()
    start = time.perf_counter()
    try:
        parse_layout(bomb, source="bomb", game="cointable")
    except UnreadableInputError as refused:
        print(
            f"{len(bomb)} B file of clones fanning out to 2^30 copies refused in {time.perf_counter() - start:.3f} s: {refused}"
        )

    steps = " ".join("1,0.001" for _ in range(MAX_DRAWING_NUMBERS // 2 + 1))
    huge = inkscape_svg(f'<path id="huge" d="m 0,0 l {steps} z" />').encode()
    start = time.perf_counter()
    try:
        parse_layout(huge, source="huge", game="cointable")
    except UnreadableInputError as refused:
        print(f"{len(huge) // 1024} KB path over the cap refused in {time.perf_counter() - start:.2f} s: {refused}")

    for radius in (5.0, 12.13, 50.0):
        svg = inkscape_svg(f'<circle id="c" cx="100" cy="100" r="{radius}" />')
        area = parse_layout(svg.encode(), source="circle", game="cointable").layout.spaces[0].polygon.area
        error = abs(area - math.pi * radius**2) / (math.pi * radius**2)
        print(f"circle r={radius} mm: area off by {error:.4%}")


if __name__ == "__main__":
    main()
