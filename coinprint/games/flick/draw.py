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
from coinprint.render.scene import Circle, Item, Path, Scene, Style, Text, polygon, polyline
from coinprint.render.sheet import Sheet
from coinprint.render.style import ink_on, palette
from coinprint.render.words import board_texts, page_words
from coinprint.units import coin

if TYPE_CHECKING:
    from coinprint.layout import Feature, Layout, Mark
    from coinprint.render.sheet import Sheet

FACE_COLOURS = {"heads": SIDE_COLOURS[0], "tails": SIDE_COLOURS[1]}
"""Coin colours in diagrams: heads gold, tails grey-blue (the colours of every picture)."""


def zone_fill(face: str) -> str:
    """A starting zone's fill: its face's colour, dark so a quarter on it stands out (the
    colour palette's ``zone_fill``: heads, then tails)."""
    fills = palette("color").zone_fill
    order = list(FACE_COLOURS)
    return fills[order.index(face) % len(fills)] if face in order else "#3a3a3a"


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
) -> list[Item]:
    """The mat's drawing: goal, goal coins, lines, zones and (when ``labels``) the players'
    names and notes (``words``: the ``board`` part of a Flick template; default English)."""
    colours = palette(style)
    words = words or board_texts("flick")
    goal_fill = colours.fill(0)
    items: list[Item] = []
    for goal in layout.features_with_role("goal"):
        items.append(
            polygon(
                frame.ring(_ring(goal)),
                Style(fill=goal_fill, stroke=colours.space_stroke, stroke_mm=colours.space_stroke_mm),
            )
        )
    for zone in layout.features_with_role("zone"):
        # Each zone in its side's colour (Heads gold, Tails blue-grey), as in every picture.
        face = str(zone.properties.get("face", ""))
        fill = zone_fill(face) if colours.filled else None
        outline = colours.guide if colours.filled else colours.space_stroke
        items.append(
            polygon(frame.ring(_ring(zone)), Style(fill=fill, stroke=outline, stroke_mm=0.3, dash_mm=(2.0, 1.0)))
        )
        kinds = zone.properties.get("arsenal") or []
        for k, spot in enumerate(zone.properties.get("spots", [])):
            kind = str(kinds[k]) if k < len(kinds) else str(zone.properties.get("coin", "quarter"))
            radius = coin(kind).radius_mm
            items.append(Circle(frame.point(*spot), radius, Style(stroke=outline, stroke_mm=0.25, dash_mm=(1.0, 1.0))))
            if labels:
                x, y = frame.point(*spot)
                letter = words.get("face_letters", {}).get(face, face[:1].upper())
                items.append(Text((x, y - 1.4), letter, 4.0, "middle", ink_on(fill, colours.label)))
    for line in layout.features_with_role("line"):
        (x1, y1), (x2, y2) = line.geometry["coordinates"]
        items.append(
            polyline([frame.point(x1, y1), frame.point(x2, y2)], Style(stroke=colours.accent, stroke_mm=LINE_MM))
        )
    for goal_coin in layout.features_with_role("goal-coin"):
        centre = goal_coin.properties.get("center") or list(goal_coin.shape.centroid.coords[0])
        radius = coin(str(goal_coin.properties.get("coin", "dime"))).radius_mm
        # On the paper round the goal: outlined in the label's ink so it shows on white.
        items.append(Circle(frame.point(*centre), radius, Style(fill=None, stroke=colours.label, stroke_mm=0.3)))
    if labels:
        ink = ink_on(goal_fill, colours.label)
        items += _side_labels(layout, frame, ink, words)
        items += _centre_label(layout, frame, ink, words)
    return items


def _centre_label(layout: Layout, frame: Frame, colour: str, words: dict[str, Any]) -> list[Item]:
    """The word GOAL in the goal's middle."""
    goals = layout.features_with_role("goal")
    width = layout.params.get("width_mm")
    if not goals or not width or not words.get("goal"):
        return []
    centre = goals[0].shape.centroid
    x, y = frame.point(centre.x, centre.y)
    size = max(2.0, min(3.2, float(width) / 45))
    return [Text((x, y - size * 0.6), words["goal"], size * 1.6, "middle", colour, bold=True)]


def said_length(mm: float, lang: str = "en") -> str:
    """A length as people say it: whole centimetres ("15 cm"), else to the millimetre
    ("15.5 cm"), with ``lang``'s decimal mark."""
    cm = round(mm / 10, 1)
    text = f"{cm:.0f} cm" if abs(cm - round(cm)) < 1e-9 else f"{cm:.1f} cm"
    return text.replace(".", page_words(lang).get("decimal_mark", "."))


def coins_said(count: int, name: str, words: Mapping[str, Any]) -> str:
    """``count`` coins called ``name`` as people say it: "two quarters", "a dime"."""
    said = words.get("coin_words", {}).get(name)
    if said is None:  # a coin the template does not name: its catalogue title
        title = coin(name).title
        return str(words["coin_fallback"]).format(count=count, coin=title)
    number = words.get("numbers", {}).get(str(count), str(count))
    return str(said[0]) if count == 1 else f"{number} {said[1]}"


def _side_labels(layout: Layout, frame: Frame, colour: str, words: dict[str, Any]) -> list[Item]:
    """Each player's name inside the goal by their line, upright for them, and what they
    start with."""
    goals = layout.features_with_role("goal")
    if not goals:
        return []
    ring = _ring(goals[0])[:-1]
    owners = {f.properties.get("side"): f for f in layout.features_with_role("line")}
    zones = {f.properties.get("player"): f for f in layout.features_with_role("zone")}
    items: list[Item] = []
    for side in range(1, len(ring) + 1):
        line = owners.get(side)
        if line is None:  # a side nobody sits at needs no words
            continue
        (x1, y1), (x2, y2) = ring[side - 1], ring[side % len(ring)]
        length = math.hypot(x2 - x1, y2 - y1)
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        inx, iny = -uy, ux  # into the goal
        angle = math.degrees(math.atan2(uy, ux))
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        size = max(2.5, min(5.0, length / 30))
        player = str(line.properties.get("player"))
        face = str(line.properties.get("face", player))
        at = frame.point(mx + inx * (size + 2.5), my + iny * (size + 2.5))
        items.append(Text(at, _player_name(player, words).upper(), size, "middle", colour, bold=True, angle=angle))
        zone = zones.get(player)
        if zone is not None and words.get("zone_note"):
            count = int(zone.properties.get("coins", 2))
            what = coins_said(count, str(zone.properties.get("coin", "quarter")), words)
            note = words["zone_note"].format(coins=what, face=words["faces"].get(face, face))
            at = frame.point(mx + inx * (2 * size + 4.5), my + iny * (2 * size + 4.5))
            items.append(Text(at, note, size * 0.62, "middle", colour, angle=angle))
    return items


def _player_name(player: str, words: Mapping[str, Any]) -> str:
    """A player's name in the template's words (``heads-2`` stays numbered)."""
    base = player.split("-")[0]
    return str(words["players"].get(base, base)) + player[len(base) :]


def mat_scene(
    layout: Layout,
    style: str = "color",
    words: dict[str, Any] | None = None,
    *,
    labels: bool = True,
) -> Scene:
    """The mat at true size (without its words when not ``labels``: for small pictures)."""
    frame = Frame(layout)
    scene = frame.scene(title="Flick")
    scene.add(*mat_items(layout, frame, style, labels=labels, words=words))
    return scene


CORNER_TEXT_MM = 2.6
"""The size of the mat's own info lines, in the corners outside the goal."""


def mat_sheet(layout: Layout, style: str = "color", texts: dict[str, Any] | None = None, lang: str = "en") -> Sheet:
    """The printable mat: its scene with its title, info lines and scale bars in the corners
    outside the goal (where no coin slides), so the mat and its scale fit one page.
    ``texts`` is the ``board`` part of a Flick template (default: ``lang``'s)."""
    import shapely

    words = texts or board_texts("flick", lang)
    params = layout.params
    players = [str(f.properties.get("player")) for f in layout.features_with_role("line")]
    names = [_player_name(p, words) for p in players]
    values = {
        "goal": words["goal_line"].format(
            shape=words["shapes"].get(str(params.get("sides", 4)), str(params.get("sides"))),
            width=said_length(float(params.get("width_mm", 0.0)), lang),
        ),
        "goal_coins": coins_said(1, str(params.get("goal_coin", "dime")), words),
        "coins": coins_said(int(params.get("coins", 2)), str(params.get("score_coin", "quarter")), words),
        "players": words["and"].join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names),
    }
    lines = [line.format(**values) for line in words["lines"]]
    frame = Frame(layout)
    scene = mat_scene(layout, style, words)
    scene.add(*corner_items(scene, layout_ink(layout, frame), words["title"], lines, words))
    footprint = shapely.box(0, 0, scene.width_mm, scene.height_mm)
    return Sheet(scene, words["title"], [], footprint=footprint, lang=lang, own_info=True)


def layout_ink(layout: Layout, frame: Frame) -> Any:
    """Where the mat itself puts ink (scene mm): the goal, its coins, the zones."""
    import shapely

    shapes = [shapely.affinity.translate(f.shape, frame.dx, frame.dy) for f in layout.features]
    return shapely.union_all(shapes).buffer(2.0)


def corner_items(scene: Scene, ink: Any, title: str, lines: Sequence[str], words: Mapping[str, Any]) -> list[Item]:
    """The title and ``lines`` wrapped into the top-left corner beside the mat's ink, and
    the 5 cm and 2 in scale bars in the bottom-right corner, both off the goal."""
    from coinprint.render.document import wrap

    x0, _, x1, y1 = corner_box(scene, ink, "top-left")
    size, leading = CORNER_TEXT_MM, CORNER_TEXT_MM * 1.3
    shown = [part for line in lines for part in wrap(line, x1 - x0, size, max_chars=60)]
    y = y1 - size * 1.3
    items: list[Item] = [Text((x0, y), title, size * 1.3, "start", "#000000", bold=True)]
    for line in shown:
        y -= leading
        items.append(Text((x0, y), line, size, "start", "#000000"))
    _, b0, b1, _ = corner_box(scene, ink, "bottom-right")
    items += scale_bar_items(b1 - SCALE_BAR_MM, b0, words)
    return items


def corner_box(scene: Scene, ink: Any, corner: str) -> tuple[float, float, float, float]:
    """The largest box (minx, miny, maxx, maxy) from the scene's ``corner`` (``top-left``,
    ``bottom-right`` …) that keeps clear of ``ink``, less 1 mm all round."""
    import shapely

    width, height = scene.width_mm, scene.height_mm
    shapely.prepare(ink)
    right, top = corner.endswith("right"), corner.startswith("top")
    best, area = (0.0, 0.0, 0.0, 0.0), 0.0
    for w in range(5, int(width) + 1):
        low, high = 0.0, height  # the tallest box this wide that keeps clear, by halving
        for _ in range(12):
            h = (low + high) / 2
            box = _anchored(width, height, w, h, right, top)
            low, high = (h, high) if not ink.intersects(shapely.box(*box)) else (low, h)
        if w * low > area:
            best, area = _anchored(width, height, w, low, right, top), w * low
    x0, y0, x1, y1 = best
    return (x0 + 1.0, y0 + 1.0, x1 - 1.0, y1 - 1.0)


def _anchored(
    width: float, height: float, w: float, h: float, right: bool, top: bool
) -> tuple[float, float, float, float]:
    x0 = width - w if right else 0.0
    y0 = height - h if top else 0.0
    return (x0, y0, x0 + w, y0 + h)


SCALE_BAR_MM = 50.8
"""The longer of the mat's two scale bars (2 in; the other is 5 cm)."""


def scale_bar_items(x: float, y: float, words: Mapping[str, Any]) -> list[Item]:
    """A 5 cm bar ticked each centimetre over a 2 in bar ticked each half inch, labelled,
    with their bottom-left at (x, y): a ruler laid on them tells the mat printed true."""
    thick, thin = Style(stroke="#000000", stroke_mm=0.8), Style(stroke="#000000", stroke_mm=0.2)
    items: list[Item] = []
    for row, (length, ticks, label) in enumerate(((50.8, 4, words["scale_in"]), (50.0, 5, words["scale_cm"]))):
        base = y + 0.4 + row * 7.0
        items.append(polyline([(x, base), (x + length, base)], thick))
        for k in range(ticks + 1):
            items.append(polyline([(x + length * k / ticks, base), (x + length * k / ticks, base + 1.6)], thin))
        items.append(Text((x, base + 2.3), label, 2.3, "start", "#000000"))
    return items


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
    # The coins' printed names (h1 → 1): by number, not by the face they started on, so a
    # coin that turns over keeps its name while its colour shows its face.
    names = template.get("coin_names", {})

    def shown(coin_id: str) -> str:
        return str(names.get(coin_id, coin_id))

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
    "goal" when in the goal, ``at`` where it lies when known): a coin where it lies; else coins in the
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
    for name, face, in_goal, at in ((m.text, m.side, m.space == "goal", m.at) for m in marks):
        if at is not None:
            dots.append(CoinDot(at, face, name))
        elif in_goal and taken_inside < len(inside):
            dots.append(CoinDot(inside[taken_inside], face, name))
            taken_inside += 1
        elif outside.get(face) and used[face] < len(outside[face]):
            dots.append(CoinDot(outside[face][used[face]], face, name))
            used[face] += 1
    return dots


def marks_sheet(layout: Layout, marks: Sequence[Mark], title: str = "") -> Sheet:
    """A picture of a position (see :func:`arrange`), true size, for ``validate game --svg``."""

    scene = diagram_scene(layout, arrange(layout, marks))

    return Sheet(scene, title or "Flick", [page_words("en")["flick_position"]], footprint=None)
