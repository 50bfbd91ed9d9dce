"""Keeping a figure's labels clear of its coins once the figure has its printed size.

A picture on a rule sheet is scaled to its column and its small labels are then enlarged to
stay legible (:func:`legible`); a label that was clear of the coin
beside it at full size may then run into it. :func:`clear_of_discs` moves every such label
the shortest way out: off every disc (a coin, a ring, a badge, a goal coin, a keep-out disc
round a penalty star) it is not wholly inside, and off the labels already placed. A label
wholly inside one disc is that disc's own text (a coin's letter, a badge's number) and stays.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from coinprint.render.pdf import text_width_mm
from coinprint.render.scene import Circle, Group, Item, Text

Box = tuple[float, float, float, float]
Disc = tuple[float, float, float]

ASCENT = 0.76
"""The height of a capital or digit as a share of the font size (the backends' sans)."""
DESCENT = 0.22


def text_box(text: Text) -> Box:
    """The box (minx, miny, maxx, maxy) an upright text's letters take."""

    width = text_width_mm(text.text, text.size_mm, text.bold)
    x, y = text.at
    left = x - width / 2 if text.anchor == "middle" else x - width if text.anchor == "end" else x
    return (left, y - DESCENT * text.size_mm, left + width, y + ASCENT * text.size_mm)


def disc_of(circle: Circle) -> Disc:
    """A circle as the disc its ink covers (half its stroke included)."""
    half = circle.style.stroke_mm / 2 if circle.style.stroke else 0.0
    return (circle.center[0], circle.center[1], circle.radius + half)


def box_inside_disc(box: Box, disc: Disc, slack: float = 0.0) -> bool:
    x, y, r = disc
    return all(math.hypot(cx - x, cy - y) <= r + slack for cx in (box[0], box[2]) for cy in (box[1], box[3]))


def box_meets_disc(box: Box, disc: Disc, gap: float = 0.0) -> bool:
    x, y, r = disc
    nearest_x, nearest_y = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
    return math.hypot(nearest_x - x, nearest_y - y) < r + gap


def boxes_meet(a: Box, b: Box, gap: float = 0.0) -> bool:
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def _shift(box: Box, dx: float, dy: float) -> Box:
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def clear_of_discs(items: Sequence[Item], bounds: Box | None = None) -> tuple[Item, ...]:
    """``items`` with every upright text moved the shortest way (down first) until it meets
    no disc it is not wholly inside and no label placed before it; texts already clear (a
    coin's own letter, wholly inside it, is), and turned texts, stay where they are. ``bounds`` keeps moved labels inside the picture."""
    circles = [
        (k, disc_of(item), item.style.fill is not None) for k, item in enumerate(items) if isinstance(item, Circle)
    ]
    placed: list[Box] = []
    out: list[Item] = []
    for index, item in enumerate(items):
        if not isinstance(item, Text) or item.angle or not item.text.strip():
            out.append(item)
            continue
        box = text_box(item)
        gap = item.size_mm * 0.15
        # On a filled coin, what was drawn before the coin is hidden under it.
        under = [k for k, d, filled in circles if filled and k < index and box_inside_disc(box, d, slack=0.05)]
        discs = [d for k, d, _ in circles if not under or k > max(under)]
        if _clear(box, discs, placed, gap, None):  # where the drawing put it: stays, even out of bounds
            placed.append(box)
            out.append(item)
            continue
        step = item.size_mm * 0.2
        moved = None
        for k in range(1, 61):
            for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, -1), (-1, 1), (1, 1)):
                candidate = _shift(box, dx * k * step, dy * k * step)
                if _clear(candidate, discs, placed, gap, bounds):
                    moved = (dx * k * step, dy * k * step)
                    break
            if moved:
                break
        if moved is None:  # nowhere clear: leave it (a test reports such a picture)
            out.append(item)
            continue
        placed.append(_shift(box, *moved))
        out.append(replace(item, at=(item.at[0] + moved[0], item.at[1] + moved[1])))
    return tuple(out)


def _clear(box: Box, discs: list[Disc], placed: list[Box], gap: float, bounds: Box | None) -> bool:
    if bounds is not None and (box[0] < bounds[0] or box[1] < bounds[1] or box[2] > bounds[2] or box[3] > bounds[3]):
        return False
    # Inside a disc is its own text (a coin's letter, a badge's number); else keep off it.
    crossed = any(box_meets_disc(box, d, gap) and not box_inside_disc(box, d, slack=0.05) for d in discs)
    return not crossed and not any(boxes_meet(box, p, gap) for p in placed)


def fit_labels(items: Sequence[Item], scale: float, minimum_mm: float, bounds: Box | None = None) -> tuple[Item, ...]:
    """A figure's items once it is scaled by ``scale``: every text enlarged to print at
    ``minimum_mm`` or more, the smallest disc round an enlarged text (a badge, a coin) grown
    with it so the text stays inside, then every label kept clear (:func:`clear_of_discs`)."""
    enlarged = legible(items, scale, minimum_mm)
    discs = {k: item for k, item in enumerate(items) if isinstance(item, Circle)}
    out = list(enlarged)
    for k, (before, after) in enumerate(zip(items, enlarged)):
        if not (isinstance(before, Text) and isinstance(after, Text)) or before.angle:
            continue
        if after.size_mm <= before.size_mm:
            continue
        holders = [j for j, c in discs.items() if box_inside_disc(text_box(before), disc_of(c), slack=0.05)]
        if not holders:
            continue
        j = min(holders, key=lambda h: discs[h].radius)
        holder = discs[j]
        if box_inside_disc(text_box(after), disc_of(holder), slack=0.05):
            continue
        factor = after.size_mm / before.size_mm
        (cx, cy), (x, y) = holder.center, before.at
        out[j] = replace(holder, radius=holder.radius * factor)
        out[k] = replace(after, at=(cx + (x - cx) * factor, cy + (y - cy) * factor))
    return clear_of_discs(out, bounds)


def legible(items: Sequence[Item], scale: float, minimum_mm: float) -> tuple[Item, ...]:
    """``items`` with every text large enough to print at ``minimum_mm`` or more once the
    drawing is scaled by ``scale`` (groups' own scaling included)."""
    out: list[Item] = []
    for item in items:
        if isinstance(item, Text) and item.size_mm * scale < minimum_mm:
            out.append(replace(item, size_mm=minimum_mm / scale))
        elif isinstance(item, Group):
            a, b, c, d = item.transform[:4]
            inner = scale * math.sqrt(abs(a * d - b * c)) or scale
            out.append(replace(item, items=legible(item.items, inner, minimum_mm)))
        else:
            out.append(item)
    return tuple(out)
