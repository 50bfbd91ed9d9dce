"""Flick's table-measuring sheet: one A4 page, printed at true size, to measure a table's
friction μ and the coins' restitution e with a ruler, and boxes for the figures that the
record options of :mod:`coinprint.games.flick.table` take (docs/games/flick.md, Measure your
table).

The friction: a strip of card cut from the sheet is a ramp whose foot rests on the table at
its mark and whose top rests on a support (a stack of books) at the same run each time; a coin
let go at the top slides down and on over the table. Done at two heights, the ramp's own
friction cancels (:func:`~coinprint.games.flick.table.friction_from_slides`). The restitution:
a coin slid head-on into one of its kind at rest; both slides after the impact give e
(:func:`~coinprint.games.flick.table.restitution_from_rebound`)."""

from __future__ import annotations

from dataclasses import replace

from coinprint.render.pdf import pages_to_pdf
from coinprint.render.scene import Item, Path, Scene, Style, Text, polygon, polyline

PAGE_MM = (210.0, 297.0)
MARGIN_MM = 15.0
RULER_MM = 180
"""The printed ruler's length: check it against a real ruler before measuring."""
RAMP_MM = (170.0, 30.0)
"""The ramp strip to cut out: its length along the slope and its width."""
RAMP_RUN_MM = 150.0
"""Where the ramp's top rests, measured along the table from its foot: the same both times."""

LINE = Style(stroke="#000000", stroke_mm=0.25)
THIN = Style(stroke="#000000", stroke_mm=0.15)
CUT = Style(stroke="#000000", stroke_mm=0.25, dash_mm=(2.0, 1.5))

STEPS = [
    "Friction. Cut out the ramp strip. Lay its foot on the table at the foot mark, bend it into a",
    "gentle curve there (no crease), and rest its top edge on a stack of books 150 mm away along",
    "the table. Measure the height of the top edge: the low ramp (about 20 mm). Let a coin go at",
    "the top mark, face down; measure how far it slid from the foot mark. Three times, write the",
    "middle one. Again with the stack higher (about 50 mm), the foot and the stack on their marks.",
    "Restitution. Two coins of one kind: one at rest, the other slid into it head-on, centre on",
    "centre. Mark where the striker touched (one diameter before the resting coin). Measure how far",
    "the struck coin slid, and how far the striker went on from where it touched. If the striker",
    "slides less than 5 mm, flick harder; if it still does, the restitution is high: use 0.8.",
]


def measuring_scene() -> Scene:
    """The sheet as a scene in mm, y down, at true size."""
    width, height = PAGE_MM
    scene = Scene(width, height, title="Flick: measure your table")
    x0, y = MARGIN_MM, MARGIN_MM + 8
    scene.add(Text((x0, y), "Flick: measure your table", 6.0, anchor="start", bold=True))
    y += 8
    scene.add(
        Text((x0, y), "Print at 100 % (no fit to page); check the ruler against a real one.", 3.2, anchor="start")
    )
    y += 8
    scene.add(*_ruler(x0, y))
    y += 22
    for line in STEPS:
        scene.add(Text((x0, y), line, 3.2, anchor="start"))
        y += 5
    y += 6
    scene.add(*_ramp_strip(x0, y))
    y += RAMP_MM[1] + 14
    boxes = [
        ("ramp_low_mm", "low ramp height (mm)"),
        ("slide_low_mm", "slide from the low ramp (mm)"),
        ("ramp_high_mm", "high ramp height (mm)"),
        ("slide_high_mm", "slide from the high ramp (mm)"),
        ("struck_mm", "the struck coin slid (mm)"),
        ("striker_mm", "the striker slid on (mm)"),
    ]
    for option, words in boxes:
        scene.add(*_box(x0, y, option, words))
        y += 13
    y += 4
    for line in (
        "friction = (high ramp - low ramp) / (high slide - low slide)          (0.2 to 0.6)",
        "r = square root of (striker / struck);  restitution = (1 - r) / (1 + r)   (0.45 to 0.9)",
        "Or give the six figures as the record's options under their names above.",
    ):
        scene.add(Text((x0, y), line, 3.2, anchor="start"))
        y += 5
    # Laid out from the top down; a scene's y runs up from the bottom of the page.
    scene.items = [_from_top(item, height) for item in scene.items]
    return scene


def measuring_sheet_pdf() -> bytes:
    """The sheet as a one-page PDF."""
    return pages_to_pdf([measuring_scene()], title="Flick: measure your table", keywords={"game": "flick"})


def _from_top(item: Item, height: float) -> Item:
    if isinstance(item, Path):
        return replace(item, rings=tuple(tuple((x, height - y) for x, y in ring) for ring in item.rings))
    if isinstance(item, Text):
        return replace(item, at=(item.at[0], height - item.at[1]))
    return item


def _ruler(x0: float, y: float) -> list[Item]:
    items: list[Item] = [polyline([(x0, y), (x0 + RULER_MM, y)], LINE)]
    for mm in range(RULER_MM + 1):
        tick = 6.0 if mm % 10 == 0 else 4.0 if mm % 5 == 0 else 2.5
        items.append(polyline([(x0 + mm, y), (x0 + mm, y + tick)], THIN))
        if mm % 10 == 0:
            items.append(Text((x0 + mm, y + 10), str(mm), 2.8))
    items.append(Text((x0 + RULER_MM + 3, y + 5), "mm", 3.0, anchor="start"))
    return items


def _ramp_strip(x0: float, y: float) -> list[Item]:
    length, width = RAMP_MM
    items: list[Item] = [polygon([(x0, y), (x0 + length, y), (x0 + length, y + width), (x0, y + width)], CUT)]
    items.append(polyline([(x0 + 10, y), (x0 + 10, y + width)], LINE))
    items.append(Text((x0 + 12, y + width / 2 + 1), "foot: on the table", 3.0, anchor="start"))
    items.append(polyline([(x0 + length - 15, y), (x0 + length - 15, y + width)], LINE))
    items.append(Text((x0 + length - 17, y + width / 2 + 1), "coin starts here", 3.0, anchor="end"))
    items.append(Text((x0, y + width + 5), "Ramp strip: cut along the dashes; glue on card.", 3.0, anchor="start"))
    return items


def _box(x0: float, y: float, option: str, words: str) -> list[Item]:
    box: Path = polygon([(x0 + 110, y - 7), (x0 + 160, y - 7), (x0 + 160, y + 3), (x0 + 110, y + 3)], LINE)
    return [Text((x0, y), f"{words}", 3.4, anchor="start"), Text((x0 + 75, y), option, 3.0, anchor="start"), box]
