"""Drawing Coin Age map cards: spaces filled by region colour, thick region borders, space
labels, one badge per region giving its size, the card outline; several cards per page with
cut lines; and a card with coins on it for a game position."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from coinprint.render.board import Frame, mark_items, space_items
from coinprint.render.pages import Sheet
from coinprint.render.scene import Circle, Group, Item, Path, Scene, Style, Text, polyline, translate
from coinprint.render.style import palette
from coinprint.units import PaperSize, coin, format_mm

if TYPE_CHECKING:
    from coinprint.layout import Layout, Mark, Space

CUT_MARK_MM = 6.0
"""How far cut lines run out beyond the cards."""
INFO_ROOM_MM = 40.0
"""Height kept free on a page of cards for the title, info lines and ruler."""


def _centre_and_radius(space: Space) -> tuple[float, float, float]:
    import shapely

    circle = shapely.maximum_inscribed_circle(space.polygon, tolerance=0.05)
    (x, y), _ = circle.coords
    return x, y, circle.length


def card_size_of(layout: Layout) -> tuple[float, float]:
    """The card's width and height (landscape), from its outline feature or the map's bounds."""
    cards = layout.features_with_role("card")
    if cards:
        minx, miny, maxx, maxy = cards[0].shape.bounds
        return maxx - minx, maxy - miny
    minx, miny, maxx, maxy = layout.bounds
    return maxx - minx, maxy - miny


def card_items(
    layout: Layout, style: str = "color", *, marks: Sequence[Mark] = (), players: Sequence[str] = ()
) -> list[Item]:
    """One card at true size with its bottom-left corner at (0, 0)."""
    from coinprint.render.pdf import text_width_mm

    colours = palette(style)
    frame = Frame(layout)
    items: list[Item] = []
    width, height = card_size_of(layout)
    items.append(
        Path(
            (((0, 0), (width, 0), (width, height), (0, height)),),
            Style(fill="#ffffff", stroke=colours.space_stroke, stroke_mm=0.2),
        )
    )
    items += space_items(layout, frame, colours, fill_by="color")
    items += _region_outlines(layout, frame, colours.space_stroke, colours.region_stroke_mm)
    label_mm = max(2.2, min(3.6, height * 0.032))
    shown_regions: set[str] = set()
    for space in layout.spaces:
        x, y, radius = _centre_and_radius(space)
        x, y = frame.point(x, y)
        # The label sits near the top of the space, clear of a coin in its middle.
        baseline = y + max(radius - label_mm * 1.3, label_mm * 0.2)
        items.append(Text((x, baseline), space.name, label_mm, "middle", colours.label, bold=True))
        size = space.properties.get("region_size")
        if size is not None and space.region is not None and space.region not in shown_regions:
            # One badge per region, beside the label of its first space: the region's size.
            shown_regions.add(space.region)
            badge = label_mm * 0.75
            bx = x + text_width_mm(space.name, label_mm, bold=True) / 2 + badge * 1.6
            by = baseline + label_mm * 0.35
            items.append(Circle((bx, by), badge, Style(fill="#ffffff", stroke=colours.space_stroke, stroke_mm=0.3)))
            items.append(Text((bx, by - badge * 0.45), str(size), badge * 1.3, "middle", colours.label, bold=True))
    if marks:
        items += mark_items(layout, frame, marks, players)
    return items


def _region_outlines(layout: Layout, frame: Frame, stroke: str, width_mm: float) -> list[Item]:
    """Each region's outline as closed rings (holes included), drawn thick."""
    import shapely

    regions: dict[str, list] = {}
    for space in layout.spaces:
        regions.setdefault(space.region or space.id, []).append(space.polygon)
    style = Style(fill=None, stroke=stroke, stroke_mm=width_mm)
    items: list[Item] = []
    for name in sorted(regions):
        union = shapely.union_all(regions[name])
        for polygon in getattr(union, "geoms", [union]):
            for ring in [polygon.exterior, *polygon.interiors]:
                items.append(Path((frame.ring(ring.coords),), style))
    return items


def card_scene(layout: Layout, style: str = "color") -> Scene:
    """One card as a scene (for pictures and the rule sheet's diagram)."""
    width, height = card_size_of(layout)
    scene = Scene(width, height, title=f"Coin Age map: {layout.params.get('map', 'custom')}")
    scene.add(*card_items(layout, style))
    return scene


def position_scene(layout: Layout, marks: Sequence[Mark], players: Sequence[str], style: str = "color") -> Scene:
    """A card with the coins of a position on it."""
    width, height = card_size_of(layout)
    scene = Scene(width, height, title="Coin Age position")
    scene.add(*card_items(layout, style, marks=marks, players=players))
    return scene


def cards_per_page(card: tuple[float, float], paper: PaperSize, margin: float) -> tuple[int, int, bool]:
    """(columns, rows, turned) for the most cards on one page of ``paper`` either way up,
    leaving room for the info block; at least one card."""
    best = (1, 1, False)
    for page_w, page_h in ((paper.width_mm, paper.height_mm), (paper.height_mm, paper.width_mm)):
        for turned in (False, True):
            w, h = (card[1], card[0]) if turned else card
            columns = int((page_w - 2 * margin - 2 * CUT_MARK_MM) // w)
            rows = int((page_h - 2 * margin - 2 * CUT_MARK_MM - INFO_ROOM_MM) // h)
            if columns * rows > best[0] * best[1]:
                best = (columns, rows, turned)
    return best


def cards_scene(layout: Layout, style: str, columns: int, rows: int, turned: bool) -> Scene:
    """``columns`` × ``rows`` cards edge to edge, with dashed cut lines running out past them."""
    card_w, card_h = card_size_of(layout)
    w, h = (card_h, card_w) if turned else (card_w, card_h)
    pad = CUT_MARK_MM
    scene = Scene(columns * w + 2 * pad, rows * h + 2 * pad, title="Coin Age map cards")
    card = tuple(card_items(layout, style))
    for row in range(rows):
        for column in range(columns):
            x, y = pad + column * w, pad + row * h
            matrix = (0.0, 1.0, -1.0, 0.0, x + w, y) if turned else translate(x, y)
            scene.add(Group(card, matrix))
    cut = Style(stroke="#000000", stroke_mm=0.2, dash_mm=(2.0, 1.0))
    for column in range(columns + 1):
        x = pad + column * w
        scene.add(polyline([(x, 0.0), (x, scene.height_mm)], cut))
    for row in range(rows + 1):
        y = pad + row * h
        scene.add(polyline([(0.0, y), (scene.width_mm, y)], cut))
    return scene


def board_sheet(
    layout: Layout,
    style: str = "color",
    *,
    paper: PaperSize | None = None,
    margin: float = 10.0,
    copies: int | None = None,
) -> Sheet:
    """The printable map cards: as many as fit one page of ``paper`` (or ``copies``, at most
    that many), with cut lines; without ``paper``, one card."""
    card = card_size_of(layout)
    if paper is None:
        columns, rows, turned = 1, 1, False
    else:
        columns, rows, turned = cards_per_page(card, paper, margin)
        if copies is not None:
            while columns * rows > max(1, copies):
                if rows > 1 and (rows - 1) * columns >= copies:
                    rows -= 1
                elif columns > 1:
                    columns -= 1
                else:
                    rows -= 1
    scene = cards_scene(layout, style, columns, rows, turned)
    params = layout.params
    quarter = coin("quarter")
    name = params.get("map", "custom")
    lines = [
        f"Map: {name}"
        + (f", regions {params.get('regions')}, seed {params.get('seed')}" if name == "random" else "")
        + f"; card {card[0]:.1f} × {card[1]:.1f} mm ({params.get('card', 'custom')}); {len(layout)} spaces.",
        "Cut along the dashed lines. The number in a white circle is the size of its region (spaces in it).",
        f"A {quarter.title} is {format_mm(quarter.diameter_mm)} across.",
    ]
    w, h = (card[1], card[0]) if turned else card
    pieces = [
        (CUT_MARK_MM + c * w, CUT_MARK_MM + r * h, CUT_MARK_MM + (c + 1) * w, CUT_MARK_MM + (r + 1) * h)
        for r in range(rows)
        for c in range(columns)
    ]
    return Sheet(scene, "Coin Age map card", lines, footprint=None, rotatable=False, pieces=pieces)


# -- the rule sheet ----------------------------------------------------------------------------------
def _load_rule_texts(lang: str) -> dict:
    """The rule-sheet texts for ``lang`` from ``templates/coinage.<lang>.json``."""
    import json

    from coinprint.errors import UsageError
    from coinprint.resources import templates_dir

    folder = templates_dir()
    path = folder / f"coinage.{lang}.json"
    if not lang.isalpha() or not path.is_file():
        have = sorted(p.name.split(".")[1] for p in folder.glob("coinage.*.json"))
        raise UsageError(f"no Coin Age rule sheet in language '{lang}'; available: {', '.join(have)}")
    return json.loads(path.read_text(encoding="utf-8"))


def rule_sheet_pages(lang: str, paper: PaperSize, map_layout: Layout, example: dict) -> list[Scene]:
    """The rule sheet as pages. ``example`` describes a finished game for the scoring
    example (what the rules engine says about it, so this module needs no rules):
    ``layout``, ``marks``, ``players``, ``regions`` (per region: ``spaces``, ``held``,
    ``points``, ``doubled``), ``board``, ``bank``, ``bank_value``, ``total`` (by player),
    ``winner``, ``ended_by`` (``filled`` or a player who placed every coin), ``turns``."""
    from coinprint.render.document import blocks_from_json, layout_document

    texts = _load_rule_texts(lang)
    words = texts["words"]
    side = {p: words[p] for p in example["players"]}
    h, t = example["players"]
    rows = [
        [
            words["region_column"],
            f"{side[h]}: {words['held_points']}",
            f"{side[t]}: {words['held_points']}",
            words["doubled_column"],
        ]
    ]
    for region in example["regions"]:
        rows.append(
            [
                " ".join(region["spaces"]),
                f"{region['held'][h]} / {region['points'][h]}",
                f"{region['held'][t]} / {region['points'][t]}",
                side[region["doubled"]] if region["doubled"] else words["nobody"],
            ]
        )
    rows.append([words["bank_row"], f"{example['bank'][h]}", f"{example['bank'][t]}", ""])
    rows.append([words["total_row"], f"{example['total'][h]}", f"{example['total'][t]}", ""])
    ended = example["ended_by"]
    values = {
        "heads": side[h],
        "tails": side[t],
        "winner": side[example["winner"]] if example["winner"] else words["nobody"],
        "ended": words["ended_filled"] if ended == "filled" else words["ended_placed"].format(player=side[ended]),
        "turns": example["turns"],
        "quarter_mm": f"{coin('quarter').diameter_mm:.2f}",
        **{
            f"{p}_{key}": example[key][name]
            for p, name in (("h", h), ("t", t))
            for key in ("board", "bank", "total", "bank_value")
        },
    }
    doc = []
    for entry in texts["blocks"]:
        if entry.get("example_table"):
            doc.append({"table": rows, "widths": [2.2, 1.6, 1.6, 1.2]})
        else:
            doc.append(entry)
    figures = {
        "map": card_scene(map_layout),
        "example": position_scene(example["layout"], example["marks"], example["players"]),
    }
    blocks = blocks_from_json(doc, values=values, figures=figures, source=f"coinage.{lang}.json")
    return layout_document(blocks, paper, title=texts["title"], margin=12.0, text_size_mm=3.1)
