"""Drawing the Map game: the printed map (coloured countries, numbers, a circle to pencil
O or X in, the coin's outline, the start countries) and the blank sheet for drawing one."""

from __future__ import annotations

import json
import math
from functools import cache
from typing import TYPE_CHECKING, Any

from coinprint.games.mapgame.board import coins_of, country_colours
from coinprint.layout import Layout
from coinprint.render.board import Frame, space_items
from coinprint.render.scene import Circle, Path, Scene, Style, Text
from coinprint.render.sheet import Sheet
from coinprint.render.style import ink_on, palette, text_style
from coinprint.render.words import INFO_CHARS
from coinprint.resources import template_path

if TYPE_CHECKING:
    from coinprint.layout import Layout, Space

PENCIL_RADIUS_MM = 3.2
"""The small empty circle in each country where a player pencils in O or X."""
BLANK_AREA_MM = (190.0, 155.0)
BLANK_CLEAR_MM = 15.0
"""Room kept round the blank sheet's circle, at the least, for the first arcs."""
"""The drawing area on the blank sheet (fits A4 and Letter inside 10 mm margins)."""


@cache
def texts(language: str = "en") -> dict[str, Any]:
    """The printed texts of the Map game (``templates/mapgame.<language>.json``)."""
    words: dict[str, Any] = json.loads(template_path(f"mapgame.{language}.json").read_text(encoding="utf-8"))
    return words


def map_scene(layout: Layout, style: str = "color", lang: str = "en") -> Scene:
    """The map at true size: countries filled by their ``color`` number, each with its
    number, a dashed outline of the larger coin, a small circle for O or X, and the start
    countries' letters printed in their circles."""

    colours = palette(style)
    frame = Frame(layout, pad=1.0)
    scene = frame.scene(title="Map")
    if any("color" not in s.properties for s in layout.spaces):
        layout = _coloured(layout)
    scene.add(*space_items(layout, frame, colours))
    big = max(coins_of(layout), key=lambda c: c.diameter_mm)
    guide = Style(stroke=colours.guide, stroke_mm=0.2, dash_mm=(1.0, 1.0))
    pencil = Style(fill="#ffffff" if colours.filled else None, stroke=colours.space_stroke, stroke_mm=0.3)
    for space in layout.spaces:
        cx, cy = frame.point(*coin_spot(space))
        scene.add(Circle((cx, cy), big.radius_mm, guide))
        ink = ink_on(colours.fill(space.properties.get("color")), colours.label)  # white on a dark country
        scene.add(Text((cx, cy + 2.2), space.name, 4.6, "middle", ink, bold=True))
        px, py = frame.point(*pencil_spot(space, big.radius_mm))
        scene.add(Circle((px, py), PENCIL_RADIUS_MM, pencil))
        if space.start:
            # In the white claim circle: the accent where it reads on white, else black.
            letter = ink_on(pencil.fill, colours.accent)
            scene.add(Text((px, py - 1.4), space.start, 4.0, "middle", letter, bold=True))
            starts = texts(lang)["starts"].format(player=space.start)
            scene.add(
                Text(
                    (cx, cy - 9.2),
                    starts,
                    2.3,
                    "middle",
                    ink_on(colours.fill(space.properties.get("color")), colours.accent),
                    bold=True,
                )
            )
    return scene


def pencil_spot(space: Space, coin_radius: float) -> tuple[float, float]:
    """Where the circle for O or X goes (layout mm): beside the coin's outline, inside the
    country, so a coin on the country never hides who claimed it; below the coin's middle
    when the country has no room beside it."""
    import shapely

    x, y = coin_spot(space)
    reach = coin_radius + PENCIL_RADIUS_MM + 0.6
    room = space.polygon.buffer(-(PENCIL_RADIUS_MM + 0.6))
    for step in range(36):  # from straight below round both ways: the nearest room to below
        turn = (step + 1) // 2 * (1 if step % 2 else -1) * math.pi / 18
        angle = -math.pi / 2 + turn
        spot = (x + reach * math.cos(angle), y + reach * math.sin(angle))
        if room.contains(shapely.Point(spot)):
            return spot
    return (x, y - 3.6)


def coin_spot(space: Space) -> tuple[float, float]:
    """The centre of the widest disc inside a country (layout mm): where its coin fits."""
    import shapely

    (x, y), _ = shapely.maximum_inscribed_circle(space.polygon, 0.05).coords
    return x, y


def _coloured(layout: Layout) -> Layout:
    """A copy of a hand-made layout with four-colour numbers in its ``color`` properties."""
    from dataclasses import replace

    index = {s.id: k for k, s in enumerate(layout.spaces)}
    earlier = [
        frozenset(index[n] for n in layout.neighbours(s.id) if index[n] < k) for k, s in enumerate(layout.spaces)
    ]
    numbers = country_colours(earlier)
    spaces = [replace(s, properties={**s.properties, "color": numbers[k]}) for k, s in enumerate(layout.spaces)]
    return Layout(layout.game, spaces, list(layout.features), dict(layout.meta))


def map_sheet(layout: Layout, style: str = "color", lang: str = "en") -> Sheet:
    """The printable map: its scene, where it puts ink, its title and info lines."""
    import shapely

    frame = Frame(layout, pad=1.0)
    land = shapely.union_all([s.polygon for s in layout.spaces])
    footprint = shapely.affinity.translate(land, frame.dx, frame.dy)
    o, x = coins_of(layout)
    big = max((o, x), key=lambda c: c.diameter_mm)
    starts = {s.start: s.name for s in layout.spaces if s.start}
    words = texts(lang)
    named = words.get("coin_names", {})  # a coin as people say it ("a penny"), else its title
    values = {
        "countries": len(layout),
        "seed": layout.meta.get("seed", "-"),
        "coin_o": named.get(o.name, o.title),
        "coin_x": named.get(x.name, x.title),
        "big": named.get(big.name, big.title),
        "big_mm": big.diameter_mm,
        "start_o": starts.get("O", "?"),
        "start_x": starts.get("X", "?"),
    }
    lines = [line.format(**values) for line in words["board_lines"]]
    name = layout.meta.get("name")
    # A drawn map is called by its file's name (else "a map": it has no number); a generated one
    # by its number.
    drawn = layout.meta.get("seed") is None and "board_title_drawn" in words
    if isinstance(name, str) and name:
        title = name
    else:
        title = words["board_title_drawn" if drawn else "board_title"].format(**values)
    return Sheet(map_scene(layout, style, lang), title, lines, footprint=footprint, rotatable=False, lang=lang)


def blank_sheet(
    layout: Layout, lang: str = "en", window: tuple[float, float] | None = None, room: float = 0.0
) -> Sheet:
    """The sheet for drawing a map by hand: the circle (``layout``'s country 1, true size)
    in a drawing area, and the rules summary under it; with ``window`` (the width and
    height of a page inside its margins), the area shrinks to fit that page either way up
    with ``room`` left under it (for the info block), so the sheet is never cut across pages."""
    import shapely

    words = texts(lang)
    body, heading = text_style("board_info"), text_style("board_title")
    size, leading = body.size_mm, body.leading_mm
    minx, miny, maxx, maxy = layout.spaces[0].polygon.bounds
    least = max(maxx - minx, maxy - miny) + 2 * BLANK_CLEAR_MM
    width, height = BLANK_AREA_MM
    titles, rule_lines = _blank_lines(words, width)
    if window is not None:
        fits: list[tuple[float, int, float, float, list[str], list[str]]] = []
        for across, down in (window, window[::-1]):
            w = min(BLANK_AREA_MM[0], across)
            heads, lines = _blank_lines(words, w)
            h = min(BLANK_AREA_MM[1], down - room - _blank_text_height(heads, lines))
            if w >= least and h >= least:
                fits.append((w * h, -len(fits), w, h, heads, lines))
        if fits:
            _, _, width, height, titles, rule_lines = max(fits)
    text_height = _blank_text_height(titles, rule_lines)
    scene = Scene(width, height + text_height, title=words["blank_title"])
    y = text_height - leading + HEADING_LEADING * leading
    for title in titles:
        y -= HEADING_LEADING * leading
        scene.add(Text((0.0, y), title, heading.size_mm, "start", "#000000", bold=True))
    for line in rule_lines:
        y -= leading
        scene.add(Text((0.0, y), line, size, "start", "#000000"))
    circle = layout.spaces[0].polygon
    minx, miny, maxx, maxy = circle.bounds
    centre = (width / 2, text_height + height / 2)
    shift = (centre[0] - (minx + maxx) / 2, centre[1] - (miny + maxy) / 2)
    ring = tuple((x + shift[0], y + shift[1]) for x, y in circle.exterior.coords)
    scene.add(Path((ring,), Style(stroke="#000000", stroke_mm=0.5)))
    scene.add(Text((centre[0], centre[1] - 1.5), "1", 4.6, "middle", "#000000", bold=True))
    footprint = shapely.box(0, 0, width, text_height + height)
    return Sheet(scene, words["blank_title"], [], footprint=footprint, rotatable=False, lang=lang, brief=True)


HEADING_LEADING = 1.4
"""The blank sheet's heading lines, in lines of its rules."""


def _blank_text_height(titles: list[str], lines: list[str]) -> float:
    """How tall the blank sheet's heading and rules are."""
    leading = text_style("board_info").leading_mm
    return leading * (len(lines) + 1) + 2.0 + HEADING_LEADING * leading * (len(titles) - 1)


def _blank_lines(words: dict[str, Any], width: float) -> tuple[list[str], list[str]]:
    """The blank sheet's heading and its numbered rules wrapped to ``width`` (later lines
    of a rule indented)."""
    from coinprint.render.document import wrap

    size = text_style("board_info").size_mm
    titles = wrap(words["blank_heading"], width, text_style("board_title").size_mm, True)
    lines: list[str] = []
    for number, rule in enumerate(words["rules"], start=1):
        wrapped = wrap(rule, width - 8.0, size, max_chars=INFO_CHARS - 4)
        lines.append(f"{number}. {wrapped[0]}")
        lines += [f"    {line}" for line in wrapped[1:]]
    return titles, lines
