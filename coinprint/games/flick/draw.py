"""Drawing the Flick mat (true size) and the rule sheet's example diagrams.

The mat: the goal filled, each player's line drawn thick and named (inside the goal, upright
for the player sitting at it), the goal coins' outlines at the corners, each starting zone
with dashed outlines where the score coins start. A diagram is a small copy of the mat with
score coins placed on it (:class:`CoinDot`) and arrows for how they moved; what the
coins are and where they go comes from the caller (the rule-sheet template), never from rules.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from coinprint.render.board import SIDE_COLOURS, Frame
from coinprint.render.pages import Sheet, board_texts, page_words
from coinprint.render.scene import Circle, Item, Path, Scene, Style, Text, polygon, polyline
from coinprint.render.style import palette
from coinprint.units import coin, format_mm

if TYPE_CHECKING:
    from coinprint.layout import Feature, Layout, Mark
    from coinprint.render.pages import Sheet

FACE_COLOURS = {"heads": SIDE_COLOURS[0], "tails": SIDE_COLOURS[1]}
"""Coin colours in diagrams: heads gold, tails grey-blue (the colours of every picture)."""


def zone_fill(face: str) -> str:
    """A starting zone's fill: its face's colour, lightened so the coin outlines show."""
    colour = FACE_COLOURS.get(face)
    if colour is None:
        return "#eeeeee"
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c + (255 - c) * 0.45):02x}" for c in (r, g, b))


LINE_MM = 1.2


def _ring(feature: Feature) -> list[tuple[float, float]]:
    return [(float(p[0]), float(p[1])) for p in feature.geometry["coordinates"][0]]


def mat_items(
    layout: Layout,
    frame: Frame,
    style: str = "color",
    *,
    labels: bool = True,
    words: dict[str, Any] | None = None,
    coin_names: bool = True,
) -> list[Item]:
    """The mat's drawing: goal, goal coins, lines, zones and (when ``labels``) the words
    (``words``: the ``board`` part of a Flick template; default English), the goal coins'
    names too unless not ``coin_names``."""
    colours = palette(style)
    words = words or board_texts("flick")
    items: list[Item] = []
    for goal in layout.features_with_role("goal"):
        items.append(
            polygon(
                frame.ring(_ring(goal)),
                Style(fill=colours.fill(0), stroke=colours.space_stroke, stroke_mm=colours.space_stroke_mm),
            )
        )
    for zone in layout.features_with_role("zone"):
        # Each zone in its side's colour (Heads gold, Tails blue-grey), as in every picture.
        face = str(zone.properties.get("face", ""))
        fill = zone_fill(face) if colours.filled else None
        items.append(
            polygon(frame.ring(_ring(zone)), Style(fill=fill, stroke=colours.guide, stroke_mm=0.3, dash_mm=(2.0, 1.0)))
        )
        radius = coin(str(zone.properties.get("coin", "quarter"))).radius_mm
        for spot in zone.properties.get("spots", []):
            items.append(
                Circle(frame.point(*spot), radius, Style(stroke=colours.guide, stroke_mm=0.25, dash_mm=(1.0, 1.0)))
            )
            if labels:
                x, y = frame.point(*spot)
                face = str(zone.properties.get("face", ""))
                letter = words.get("face_letters", {}).get(face, face[:1].upper())
                items.append(Text((x, y - 1.4), letter, 4.0, "middle", colours.label))
    for line in layout.features_with_role("line"):
        (x1, y1), (x2, y2) = line.geometry["coordinates"]
        items.append(
            polyline([frame.point(x1, y1), frame.point(x2, y2)], Style(stroke=colours.accent, stroke_mm=LINE_MM))
        )
    for goal_coin in layout.features_with_role("goal-coin"):
        centre = goal_coin.properties.get("center") or list(goal_coin.shape.centroid.coords[0])
        radius = coin(str(goal_coin.properties.get("coin", "dime"))).radius_mm
        x, y = frame.point(*centre)
        items.append(
            Circle(
                (x, y),
                radius,
                Style(fill="#ffffff" if colours.filled else None, stroke=colours.space_stroke, stroke_mm=0.3),
            )
        )
        if labels and coin_names:
            items.append(Text((x, y - 0.8), goal_coin.id, 2.4, "middle", colours.label))
    if labels:
        items += _side_labels(layout, frame, colours.label, words)
        items += _centre_label(layout, frame, colours.label, words)
    return items


def _centre_label(layout: Layout, frame: Frame, colour: str, words: dict[str, Any]) -> list[Item]:
    """The goal's size in its middle, so a printed mat says how big it should be."""
    goals = layout.features_with_role("goal")
    width = layout.params.get("width_mm")
    if not goals or not width:
        return []
    centre = goals[0].shape.centroid
    x, y = frame.point(centre.x, centre.y)
    size = max(2.0, min(3.2, float(width) / 45))
    return [
        Text((x, y + size * 0.6), words["goal"], size * 1.6, "middle", colour, bold=True),
        Text(
            (x, y - size * 1.4),
            words["goal_width"].format(width=f"{float(width):.2f}".replace(".", words.get("decimal_mark", "."))),
            size,
            "middle",
            colour,
        ),
    ]


def _side_labels(layout: Layout, frame: Frame, colour: str, words: dict[str, Any]) -> list[Item]:
    """Each side's name inside the goal, upright for someone sitting at that side."""
    goals = layout.features_with_role("goal")
    if not goals:
        return []
    ring = _ring(goals[0])[:-1]
    owners = {f.properties.get("side"): f for f in layout.features_with_role("line")}
    zones = {f.properties.get("player"): f for f in layout.features_with_role("zone")}
    items: list[Item] = []
    for side in range(1, len(ring) + 1):
        (x1, y1), (x2, y2) = ring[side - 1], ring[side % len(ring)]
        length = math.hypot(x2 - x1, y2 - y1)
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        inx, iny = -uy, ux  # into the goal
        angle = math.degrees(math.atan2(uy, ux))
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        size = max(2.5, min(5.0, length / 30))
        line = owners.get(side)
        if line is None:
            at = frame.point(mx + inx * (size + 2), my + iny * (size + 2))
            items.append(Text(at, words["side"].format(side=side), size * 0.7, "middle", colour, angle=angle))
            continue
        player = str(line.properties.get("player"))
        face = str(line.properties.get("face", player))
        at = frame.point(mx + inx * (size + 2.5), my + iny * (size + 2.5))
        name = words["players"].get(player.split("-")[0], player).upper() + player[len(player.split("-")[0]) :]
        label = words["player_side"].format(player=name, side=side)
        items.append(Text(at, label, size, "middle", colour, bold=True, angle=angle))
        zone = zones.get(player)
        if zone is not None:
            count = zone.properties.get("coins", 2)
            what = coin(str(zone.properties.get("coin", "quarter"))).title
            face_name = words["faces"].get(face, face)
            note = words["zone_note"].format(count=count, coin=what, face=face_name)
            at = frame.point(mx + inx * (2 * size + 4.5), my + iny * (2 * size + 4.5))
            items.append(Text(at, note, size * 0.62, "middle", colour, angle=angle))
    return items


def mat_scene(
    layout: Layout,
    style: str = "color",
    words: dict[str, Any] | None = None,
    *,
    labels: bool = True,
    coin_names: bool = True,
) -> Scene:
    """The mat at true size (without its words when not ``labels``, without the goal coins'
    names when not ``coin_names``: for small pictures)."""
    frame = Frame(layout)
    scene = frame.scene(title="Flick")
    scene.add(*mat_items(layout, frame, style, labels=labels, words=words, coin_names=coin_names))
    return scene


def mat_sheet(layout: Layout, style: str = "color", texts: dict[str, Any] | None = None, lang: str = "en") -> Sheet:
    """The printable mat: its scene, title and info lines (the pages add the ruler).
    ``texts`` is the ``board`` part of a Flick template (default: ``lang``'s)."""

    words = texts or board_texts("flick", lang)
    params = layout.params
    goal = coin(str(params.get("goal_coin", "dime")))
    score = coin(str(params.get("score_coin", "quarter")))
    players = [str(f.properties.get("player")) for f in layout.features_with_role("line")]
    values = {
        "goal": words["goal_line"].format(
            shape=words["shapes"].get(str(params.get("sides", 4)), str(params.get("sides"))),
            width=format_mm(float(params.get("width_mm", 0.0))),
        ),
        "goal_coin": goal.title,
        "goal_mm": goal.diameter_mm,
        "coins": params.get("coins", 2),
        "score_coin": score.title,
        "score_mm": score.diameter_mm,
        "players": ", ".join(words["players"].get(p.split("-")[0], p) + p[len(p.split("-")[0]) :] for p in players),
    }
    lines = [line.format(**values) for line in words["lines"]]
    return Sheet(mat_scene(layout, style, words), words["title"], lines, footprint=mat_footprint(layout), lang=lang)


GOAL_TEXT_MM = 17.5
"""How far into the goal the words along its sides reach."""


def mat_footprint(layout: Layout) -> Any:
    """Where the mat puts ink that the info block must keep off (content mm): everything but
    the open middle of the goal, between the words along its sides and those in its centre;
    the title and the scale bars may go there (the goal is played on, not read)."""
    import shapely

    frame = Frame(layout)
    whole = shapely.box(0, 0, frame.width, frame.height)
    goals = layout.features_with_role("goal")
    if not goals:
        return whole
    goal = shapely.affinity.translate(goals[0].shape, frame.dx, frame.dy)
    centre = goal.centroid
    middle = shapely.box(centre.x - goal.length / 8, centre.y - 9.0, centre.x + goal.length / 8, centre.y + 9.0)
    return whole.difference(goal.buffer(-GOAL_TEXT_MM).difference(middle))


# -- diagrams --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CoinDot:
    """A score coin in a diagram: where (mm, the mat's own coordinates), the face it shows,
    its name, and ``ghost`` for where it was before (a dashed outline)."""

    at: tuple[float, float]
    face: str
    label: str = ""
    ghost: bool = False


def diagram_scene(
    layout: Layout,
    coins: Sequence[CoinDot],
    arrows: Sequence[Sequence[tuple[float, float]]] = (),
    *,
    marks: Sequence[tuple[float, float]] = (),
    score_coin: str | None = None,
) -> Scene:
    """The mat in outline with ``coins`` on it, ``arrows`` (polylines, the arrowhead at the
    last point) for how coins moved, and ``marks`` (a burst) where something went wrong."""
    frame = Frame(layout, pad=2.0)
    scene = frame.scene(title="Flick diagram")
    scene.add(*mat_items(layout, frame, "ink-saver", labels=False))
    radius = coin(score_coin or str(layout.params.get("score_coin", "quarter"))).radius_mm
    for dot in coins:
        x, y = frame.point(*dot.at)
        if dot.ghost:
            scene.add(Circle((x, y), radius, Style(stroke="#555555", stroke_mm=0.4, dash_mm=(1.5, 1.0))))
        else:
            scene.add(
                Circle(
                    (x, y), radius, Style(fill=FACE_COLOURS.get(dot.face, "#dddddd"), stroke="#222222", stroke_mm=0.5)
                )
            )
        text = dot.label or dot.face[:1].upper()
        scene.add(
            Text(
                (x, y - radius * 0.3),
                text,
                radius * 0.8,
                "middle",
                "#555555" if dot.ghost else "#111111",
                bold=not dot.ghost,
            )
        )
    arrow_style = Style(stroke="#111111", stroke_mm=0.7)
    for arrow in arrows:
        points = [frame.point(*p) for p in arrow]
        scene.add(polyline(points, arrow_style))
        scene.add(_arrowhead(points[-2], points[-1], arrow_style))
    discs = [(frame.point(*dot.at), radius) for dot in coins if not dot.ghost]
    for goal_coin in layout.features_with_role("goal-coin"):
        centre = goal_coin.properties.get("center") or list(goal_coin.shape.centroid.coords[0])
        discs.append((frame.point(*centre), coin(str(goal_coin.properties.get("coin", "dime"))).radius_mm))
    for x, y in marks:
        at = frame.point(x, y)
        # The star's rays start outside any coin it marks, so they never cross a coin's name.
        inner = max([4.0, *(math.dist(at, c) + r + 1.0 for c, r in discs if math.dist(at, c) < r)])
        scene.add(*_burst(*at, inner))
        scene.add(Circle(at, inner + 5.5, Style(fill=None, stroke=None)))  # keeps labels off the star
    return scene


def _arrowhead(before: tuple[float, float], tip: tuple[float, float], style: Style) -> Path:
    angle = math.atan2(tip[1] - before[1], tip[0] - before[0])
    size = 5.0
    left = (tip[0] - size * math.cos(angle - 0.4), tip[1] - size * math.sin(angle - 0.4))
    right = (tip[0] - size * math.cos(angle + 0.4), tip[1] - size * math.sin(angle + 0.4))
    return polygon([left, tip, right], Style(fill=style.stroke, stroke=style.stroke, stroke_mm=0.2))


def _burst(x: float, y: float, inner: float = 4.0) -> list[Item]:
    """A red star of eight rays from ``inner`` to 5 mm further out round (x, y)."""
    style = Style(stroke="#b00000", stroke_mm=0.9)
    items: list[Item] = []
    for k in range(8):
        angle = math.pi * k / 4
        items.append(
            polyline(
                [
                    (x + inner * math.cos(angle), y + inner * math.sin(angle)),
                    (x + (inner + 5) * math.cos(angle), y + (inner + 5) * math.sin(angle)),
                ],
                style,
            )
        )
    return items


# -- the rule sheet ------------------------------------------------------------------------------------------
def example_figures(layout: Layout, template: Mapping[str, Any]) -> dict[str, Scene]:
    """The template's example diagrams drawn on ``layout``, by name."""
    figures = {}
    names = template.get("coin_names", {})  # the coins' names in the sheet's language (h1 → kr1)

    def shown(coin_id: str) -> str:
        return names.get(coin_id[:1], coin_id[:1]) + coin_id[1:] if coin_id else coin_id

    for name, spec in template.get("examples", {}).items():
        coins = [
            CoinDot(tuple(c["at"]), c["face"], shown(c.get("id", "")), bool(c.get("ghost", False)))
            for c in spec.get("coins", [])
        ]
        arrows = [[tuple(p) for p in arrow] for arrow in spec.get("arrows", [])]
        marks = [tuple(m) for m in spec.get("marks", [])]
        figures[name] = diagram_scene(layout, coins, arrows, marks=marks)
    return figures


# -- a position ------------------------------------------------------------------------------------------
def arrange(layout: Layout, marks: Sequence[Mark]) -> list[CoinDot]:
    """Where to draw each coin of a position given as marks (name, face shown, ``space``
    "goal" when in the goal): coins in the
    goal on a grid round its centre, coins outside on the start spots of a player of their
    face, further out when there are more coins than spots."""
    import shapely

    radius = coin(str(layout.params.get("score_coin", "quarter"))).radius_mm
    pitch = 2 * radius + 2.0
    goal = layout.features_with_role("goal")[0].shape
    centre = goal.centroid
    room = goal.buffer(-(radius + 1.0))
    reach = int(math.sqrt(goal.area) / pitch) + 2
    grid = [
        (centre.x + i * pitch, centre.y + j * pitch) for i in range(-reach, reach + 1) for j in range(-reach, reach + 1)
    ]
    inside = sorted(
        (p for p in grid if room.contains(shapely.Point(p))),
        key=lambda p: (round(math.dist(p, (centre.x, centre.y)), 6), p[1], p[0]),
    )
    outside: dict[str, list[tuple[float, float]]] = {}
    further: dict[str, list[tuple[int, int, tuple[float, float]]]] = {}
    for number, zone in enumerate(layout.features_with_role("zone")):
        spots = [tuple(s) for s in zone.properties.get("spots", [])]
        middle = zone.shape.centroid
        away = math.dist((middle.x, middle.y), (centre.x, centre.y)) or 1.0
        ux, uy = (middle.x - centre.x) / away, (middle.y - centre.y) / away
        face = str(zone.properties.get("face"))
        outside.setdefault(face, []).extend(spots)
        further.setdefault(face, []).extend(
            (k, number, (x + ux * pitch * k, y + uy * pitch * k)) for k in range(1, 20) for x, y in spots
        )
    for face in outside:  # every zone's own spots first, then a row further out of each, …
        outside[face] += [point for _, _, point in sorted(further[face], key=lambda e: e[:2])]
    dots, used = [], {face: 0 for face in outside}
    taken_inside = 0
    for name, face, in_goal in ((m.text, m.side, m.space == "goal") for m in marks):
        if in_goal and taken_inside < len(inside):
            dots.append(CoinDot(inside[taken_inside], face, name))
            taken_inside += 1
        elif outside.get(face) and used[face] < len(outside[face]):
            dots.append(CoinDot(outside[face][used[face]], face, name))
            used[face] += 1
    return dots


def marks_sheet(layout: Layout, marks: Sequence[Mark], players: Sequence[str] = (), title: str = "") -> Sheet:
    """A picture of a position (see :func:`arrange`), true size, for ``validate game --svg``."""

    scene = diagram_scene(layout, arrange(layout, marks))

    return Sheet(scene, title or "Flick", [page_words("en")["flick_position"]], footprint=None)
