"""Charts drawn as scenes (no plotting library): shares with their intervals, histograms, and
a heat map of a layout's spaces. They take plain numbers and know nothing of rules.

Every chart is a :class:`Scene` in millimetres, y up. The value axis of a chart is labelled
at its ends, so a reader (or a test parsing the SVG) can map a bar back to its number.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from coinprint.render.board import Frame, label_point, region_border_items
from coinprint.render.pdf import text_width_mm
from coinprint.render.scene import Group, Item, Path, Scene, Style, Text, polygon, polyline, translate
from coinprint.render.style import palette

if TYPE_CHECKING:
    from coinprint.layout import Layout

INK = "#222222"
GRID = "#bbbbbb"
BAR = "#7a8fa6"
"""Bars of the histogram."""
SHARE_BAR = "#c9a227"
"""Bars of the share chart (the first player's coin colour in position drawings)."""
WHISKER = "#000000"
REFERENCE = "#b5553c"
"""The 50 % line."""
FIRST_COLOUR = (201, 162, 39)
SECOND_COLOUR = (122, 143, 166)
TITLE_MM = 4.0
LABEL_MAX_MM = 60.0
"""Row labels of the share chart are cut (from the front) to this width."""
TEXT_MM = 2.8


@dataclass(frozen=True)
class ShareRow:
    """One bar: a label, a share in 0–1 and its interval."""

    label: str
    value: float
    low: float
    high: float


def share_chart(rows: Sequence[ShareRow], title: str, *, width_mm: float = 170.0, reference: float = 0.5) -> Scene:
    """Horizontal bars from 0 to each row's value, a whisker from its low to its high end,
    and a line at ``reference``. The axis runs 0 % to 100 % and is labelled at both ends."""
    label_w = min(LABEL_MAX_MM, max([18.0, *(0.55 * TEXT_MM * len(r.label) for r in rows)]))
    axis_x0, axis_w = label_w + 4.0, width_mm - label_w - 10.0
    row_h = 7.0
    plot_h = row_h * max(1, len(rows))
    bottom = 10.0
    height = bottom + plot_h + TITLE_MM + 8.0
    scene = Scene(width_mm, height, title=title)

    def x(share: float) -> float:
        return axis_x0 + axis_w * min(1.0, max(0.0, share))

    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        scene.add(polyline([(x(tick), bottom), (x(tick), bottom + plot_h)], Style(stroke=GRID, stroke_mm=0.15)))
        scene.add(Text((x(tick), bottom - 4.5), f"{tick:.0%}", TEXT_MM, "middle", INK))
    for index, row in enumerate(rows):
        top = bottom + plot_h - index * row_h
        y0, y1, mid = top - row_h + 1.5, top - 1.5, top - row_h / 2
        if row.value > 0:
            scene.add(
                polygon(
                    [(x(0), y0), (x(row.value), y0), (x(row.value), y1), (x(0), y1)], Style(fill=SHARE_BAR, stroke=None)
                )
            )
        whisker = Style(stroke=WHISKER, stroke_mm=0.35)
        scene.add(polyline([(x(row.low), mid), (x(row.high), mid)], whisker))
        for end in (row.low, row.high):
            scene.add(polyline([(x(end), mid - 1.5), (x(end), mid + 1.5)], whisker))
        scene.add(Text((label_w, mid - TEXT_MM * 0.35), fit_label(row.label), TEXT_MM, "end", INK))
    scene.add(
        polyline(
            [(x(reference), bottom - 1.0), (x(reference), bottom + plot_h + 1.0)],
            Style(stroke=REFERENCE, stroke_mm=0.4, dash_mm=(1.2, 0.8)),
        )
    )
    scene.add(title_text(title, width_mm, height))
    return scene


def fit_label(label: str, width_mm: float = LABEL_MAX_MM, size_mm: float = TEXT_MM, bold: bool = False) -> str:
    """``label``, or its end after an ellipsis when it is wider than ``width_mm`` (the end of
    a layout name, its seed, is what tells rows apart)."""

    if text_width_mm(label, size_mm, bold) <= width_mm:
        return label
    cut = 1
    while cut < len(label) and text_width_mm("…" + label[cut:], size_mm, bold) > width_mm:
        cut += 1
    return "…" + label[cut:]


def title_text(title: str, width_mm: float, height_mm: float) -> Text:
    """A chart's title at its top left, set smaller (down to TEXT_MM) when it would not fit,
    and then cut after its ``what: `` part, keeping the end (see :func:`fit_label`)."""

    room = width_mm - 8.0
    size = TITLE_MM
    while size > TEXT_MM and text_width_mm(title, size, bold=True) > room:
        size = round(size - 0.1, 1)
    head, colon, rest = title.rpartition(": ") if ": " in title else ("", "", title)
    head += colon
    shown = head + fit_label(rest, room - text_width_mm(head, size, bold=True), size, bold=True)
    return Text((4.0, height_mm - TITLE_MM - 2.0), shown, size, "start", INK, bold=True)


def histogram_bins(values: Sequence[float], bins: int = 12) -> tuple[list[float], list[int]]:
    """Edges (``len(counts) + 1`` of them, equal whole-number widths) and counts; a value on
    an inner edge counts in the bin to its right, the last edge is inside the last bin."""
    if not values:
        return [0.0, 1.0], [0]
    low, high = math.floor(min(values)), math.ceil(max(values))
    width = max(1, math.ceil((high - low + 1) / bins))
    count = max(1, math.ceil((high - low + 1) / width))
    edges = [float(low + i * width) for i in range(count + 1)]
    counts = [0] * count
    for value in values:
        counts[min(count - 1, int((value - low) // width))] += 1
    return edges, counts


def histogram(values: Sequence[float], title: str, x_label: str, *, bins: int = 12, width_mm: float = 170.0) -> Scene:
    """Vertical bars of how many values fall in each bin. The count axis runs from 0 to the
    largest count (labelled at both ends); each bin's range is written under it."""
    edges, counts = histogram_bins(values, bins)
    left, bottom, plot_h = 14.0, 16.0, 50.0
    plot_w = width_mm - left - 6.0
    height = bottom + plot_h + TITLE_MM + 8.0
    scene = Scene(width_mm, height, title=title)
    top_count = max(counts) or 1
    bar_w = plot_w / len(counts)
    axis = Style(stroke=INK, stroke_mm=0.25)
    scene.add(polyline([(left, bottom + plot_h), (left, bottom), (left + plot_w, bottom)], axis))
    for value, label in ((0, "0"), (top_count, str(top_count))):
        y = bottom + plot_h * value / top_count
        scene.add(polyline([(left - 1.5, y), (left, y)], axis))
        scene.add(Text((left - 2.5, y - TEXT_MM * 0.35), label, TEXT_MM, "end", INK))
    for index, count in enumerate(counts):
        x0 = left + index * bar_w
        if count:
            h = plot_h * count / top_count
            scene.add(
                polygon(
                    [
                        (x0 + 0.4, bottom),
                        (x0 + bar_w - 0.4, bottom),
                        (x0 + bar_w - 0.4, bottom + h),
                        (x0 + 0.4, bottom + h),
                    ],
                    Style(fill=BAR, stroke=None),
                )
            )
    step = 1 if len(edges) <= 17 else 2
    for index in range(0, len(edges), step):
        scene.add(Text((left + index * bar_w, bottom - 4.0), f"{edges[index]:g}", TEXT_MM * 0.8, "middle", INK))
    scene.add(Text((left + plot_w / 2, bottom - 9.5), x_label, TEXT_MM, "middle", INK))
    scene.add(title_text(title, width_mm, height))
    return scene


def balance_colour(first: float, second: float) -> str:
    """A diverging fill: white when both hold a space equally often, towards the first
    player's gold as ``first - second`` goes to 1, towards the second's blue-grey at -1."""
    lean = max(-1.0, min(1.0, first - second))
    target = FIRST_COLOUR if lean >= 0 else SECOND_COLOUR
    weight = abs(lean)
    rgb = [round(255 + (c - 255) * weight) for c in target]
    return "#" + "".join(f"{c:02x}" for c in rgb)


def heat_map(
    layout: Layout,
    held: Mapping[str, Mapping[str, float]],
    players: Sequence[str],
    title: str,
    *,
    width_mm: float = 170.0,
    max_height_mm: float = 150.0,
) -> Scene:
    """The layout's spaces filled by who holds them at the end (see :func:`balance_colour`),
    each with two percentages: how often the first player, then the second, held it.
    The board is drawn to scale to fit ``width_mm`` × ``max_height_mm``."""

    frame = Frame(layout)
    scale = min(1.0, width_mm / frame.width, max_height_mm / frame.height)
    legend_h = 16.0
    height = frame.height * scale + legend_h + TITLE_MM + 6.0
    scene = Scene(width_mm, height, title=title)
    board: list[Item] = []
    text_mm = TEXT_MM / scale
    for space in layout.spaces:
        shares = held.get(space.id, {})
        first, second = shares.get(players[0], 0.0), shares.get(players[1], 0.0)
        fill = balance_colour(first, second)
        board.append(
            Path(tuple(frame.ring(r) for r in space.rings), Style(fill=fill, stroke=INK, stroke_mm=0.3 / scale))
        )
    board.extend(region_border_items(layout, frame, palette("ink-saver")))
    for space in layout.spaces:
        shares = held.get(space.id, {})
        x, y = frame.point(*label_point(space))
        # The space's name on top (and whose start it is), so a reader can find it on the board.
        name = space.name + (f" · {space.start} start" if space.start else "")
        board.append(Text((x, y + 1.35 * text_mm), name, 0.75 * text_mm, "middle", INK))
        board.append(
            Text((x, y + 0.15 * text_mm), f"{shares.get(players[0], 0.0):.0%}", text_mm, "middle", INK, bold=True)
        )
        board.append(Text((x, y - 1.05 * text_mm), f"{shares.get(players[1], 0.0):.0%}", text_mm, "middle", INK))
    x0 = (width_mm - frame.width * scale) / 2
    scene.add(Group(tuple(board), (scale, 0.0, 0.0, scale, x0, legend_h)))
    scene.add(*_heat_legend(players))
    scene.add(title_text(title, width_mm, height))
    return scene


def _heat_legend(players: Sequence[str]) -> list[Item]:
    items: list[Item] = []
    steps = 11
    x0, w = 4.0, 5.0
    for index in range(steps):
        lean = 1.0 - 2.0 * index / (steps - 1)
        fill = balance_colour(max(lean, 0.0), max(-lean, 0.0))
        x = x0 + index * w
        items.append(
            polygon([(x, 6.0), (x + w, 6.0), (x + w, 10.0), (x, 10.0)], Style(fill=fill, stroke=GRID, stroke_mm=0.1))
        )
    items.append(Text((x0, 2.0), f"{players[0]} holds it", TEXT_MM * 0.8, "start", INK))
    items.append(Text((x0 + steps * w, 2.0), f"{players[1]} holds it", TEXT_MM * 0.8, "end", INK))
    items.append(
        Text(
            (x0 + steps * w + 4.0, 7.0),
            f"in each space: its name, then % of games {players[0]} (bold), then {players[1]}, held it at the end",
            TEXT_MM * 0.8,
            "start",
            INK,
        )
    )
    return items


def stack(scenes: Sequence[Scene], title: str = "", gap_mm: float = 6.0) -> Scene:
    """Scenes one above the other (the first on top), left-aligned, in one scene."""
    width = max((s.width_mm for s in scenes), default=0.0)
    height = sum(s.height_mm for s in scenes) + gap_mm * max(0, len(scenes) - 1)
    whole = Scene(width, height, title=title)
    y = height
    for scene in scenes:
        y -= scene.height_mm
        whole.add(Group(tuple(scene.items), translate(0.0, y)))
        y -= gap_mm
    return whole


def text_block(title: str, lines: Sequence[str], *, width_mm: float = 170.0, size_mm: float = TEXT_MM) -> Scene:
    """A titled block of text lines (figures and what they mean), each wrapped to the width."""

    room = width_mm - 6.0
    wrapped: list[tuple[str, bool]] = []
    for line in lines:
        heading = line.startswith("# ")
        text = line[2:] if heading else line
        words, current = text.split(), ""
        for word in words:
            if current and text_width_mm(f"{current} {word}", size_mm, bold=heading) > room:
                wrapped.append((current, heading))
                current = "   " + word
            else:
                current = f"{current} {word}" if current else word
        wrapped.append((current, heading))
    step = size_mm * 1.45
    height = TITLE_MM + 8.0 + step * len(wrapped) + 2.0
    scene = Scene(width_mm, height, title=title)
    y = height - TITLE_MM - 8.0
    for text, heading in wrapped:
        scene.add(Text((2.0, y), text, size_mm, "start", INK, bold=heading))
        y -= step
    scene.add(title_text(title, width_mm, height))
    return scene
