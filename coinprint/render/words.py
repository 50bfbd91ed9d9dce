"""The words printed round a board: the page texts of each language, numbers written as the
language writes them, and the info block (title, info lines and the 100 mm / 4 in scale-check
bars) or a player aid set beside a board. The words come from ``templates/pages.<lang>.json``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from coinprint.render.pdf import text_width_mm
from coinprint.render.scene import (
    Item,
    Path,
    Style,
    Text,
    polyline,
)
from coinprint.render.style import text_style

INK = "#000000"
RULER_MM = 100.0
RULER_IN_MM = 4 * 25.4
GAP_MM = 3.0
"""The gap between a board and its info block."""


@cache
def page_words(lang: str = "en") -> dict[str, str]:
    """The texts printed round a board (``templates/pages.<lang>.json``)."""
    from coinprint.render.document import load_template

    words: dict[str, str] = load_template(f"pages.{lang}.json")
    return words


def localise_numbers(text: str, lang: str = "en") -> str:
    """``text`` with the decimal points of its numbers, and inches, written as ``lang`` writes
    them (``24,26 mm``, ``1,25 tum`` in Swedish)."""
    import re

    words = page_words(lang)
    mark, inch = words.get("decimal_mark", "."), words.get("inch_unit", "in")
    if mark != ".":
        text = re.sub(r"(?<=\d)\.(?=\d)", mark, text)
    if inch != "in":  # "(1.25 in)" as the language writes inches
        text = re.sub(r"(?<=\d) in\b", f" {inch}", text)
    return text


def board_texts(game: str, lang: str = "en") -> dict[str, Any]:
    """The ``board`` part of ``game``'s template in ``lang``: title and info lines."""
    from coinprint.render.document import load_template

    texts: dict[str, Any] = load_template(f"{game}.{lang}.json")["board"]
    return texts


# -- the info block: title, lines, ruler ----------------------------------------------------------------
def ruler_items(x: float, y: float, lang: str = "en", bars: tuple[str, ...] = ("in", "mm")) -> list[Item]:
    """A 100 mm bar and a 4 in bar (or those of ``bars``), ticked and labelled, with their
    bottom-left at (x, y)."""
    words = page_words(lang)
    label_mm = text_style("ruler_label").size_mm
    thin = Style(stroke=INK, stroke_mm=0.2)
    bar = Style(fill=INK, stroke=None)
    items: list[Item] = []
    kinds = {"in": (RULER_IN_MM, 8, words["ruler_in"]), "mm": (RULER_MM, 10, words["ruler_mm"])}
    for row, (length, ticks, label) in enumerate(kinds[kind] for kind in bars):
        base = y + row * 6.5
        items.append(Path((((x, base), (x + length, base), (x + length, base + 1.2), (x, base + 1.2)),), bar))
        for tick in range(ticks + 1):
            tx = x + length * tick / ticks
            items.append(polyline([(tx, base), (tx, base + (2.6 if tick in (0, ticks) else 1.9))], thin))
        items.append(Text((x, base + 3.2), label, label_mm, "start", INK))
    return items


RULER_SIZE = (RULER_IN_MM + 0.1, 12.0)


@dataclass(frozen=True)
class InfoBlock:
    items: tuple[Item, ...]
    width: float
    height: float
    rulers: bool = True
    """Whether the block carries the scale-check bars."""


INFO_WIDTH_MM = 125.0
"""Info lines are wrapped to this width, so the block fits beside a board."""
INFO_CHARS = 85
"""And to this many characters, so a line of the info block stays easy to read."""


def info_block(
    title: str, lines: list[str], lang: str = "en", width: float = INFO_WIDTH_MM, *, rulers: bool = True
) -> InfoBlock:
    """The title, the info lines (wrapped to ``width``) and, with ``rulers``, the bars under
    them, drawn with the bottom-left at (0, 0)."""
    from coinprint.render.document import wrap

    info, heading = text_style("board_info"), text_style("board_title")
    measure = max(width, RULER_SIZE[0]) if rulers else width
    shown = [
        part
        for line in lines
        for part in wrap(localise_numbers(line, lang), measure, info.size_mm, max_chars=INFO_CHARS)
    ]
    title = localise_numbers(title, lang)
    width = max([RULER_SIZE[0] if rulers else 0.0, *(text_width_mm(line, info.size_mm) for line in shown)])
    y = (RULER_SIZE[1] + 1.5 if rulers else 1.0) + info.leading_mm * len(shown)
    # Drawn top down (title, lines, bars), so the page's text reads in order.
    items: list[Item] = [Text((0.0, y + 0.5), title, heading.size_mm, "start", INK, bold=True)]
    for number, line in enumerate(shown, start=1):
        items.append(Text((0.0, y - number * info.leading_mm), line, info.size_mm, "start", INK))
    if rulers:
        items += ruler_items(0.0, 0.0, lang)
    width = max(width, text_width_mm(title, heading.size_mm, bold=True))
    return InfoBlock(tuple(items), width, y + 0.5 + heading.size_mm, rulers)


AID_WIDTHS_MM = (110.0, 80.0, 62.0)
"""The measures a player aid set beside a board is tried in (wide and short first)."""


def aid_blocks(title: str, lines: list[str], lang: str = "en") -> list[InfoBlock]:
    """A player aid in each of :data:`AID_WIDTHS_MM` (see :func:`aid_block`)."""
    return [aid_block(title, lines, lang, width) for width in AID_WIDTHS_MM]


def aid_block(title: str, lines: list[str], lang: str = "en", measure: float = AID_WIDTHS_MM[0]) -> InfoBlock:
    """A player aid to set where a board leaves room: its title and its lines, each behind a
    bullet and wrapped to ``measure`` with a hanging indent, drawn with the bottom-left at
    (0, 0)."""
    from coinprint.render.document import wrap

    info, heading = text_style("board_info"), text_style("board_title")
    indent = info.size_mm * 1.2
    rows = [
        (k == 0, part)
        for line in lines
        for k, part in enumerate(wrap(localise_numbers(line, lang), measure - indent, info.size_mm))
    ]
    y = 1.0 + info.leading_mm * len(rows)
    items: list[Item] = [Text((0.0, y + 0.5), localise_numbers(title, lang), heading.size_mm, "start", INK, bold=True)]
    for number, (first, part) in enumerate(rows, start=1):
        base = y - number * info.leading_mm
        if first:  # the bullet before its line, so the text reads in order
            items.append(Text((0.0, base), "•", info.size_mm, "start", INK))
        items.append(Text((indent, base), part, info.size_mm, "start", INK))
    width = max([indent + text_width_mm(part, info.size_mm) for _, part in rows] or [0.0])
    width = max(width, text_width_mm(title, heading.size_mm, bold=True))
    return InfoBlock(tuple(items), width, y + 0.5 + heading.size_mm, rulers=False)


def ruler_block(lang: str = "en", bars: tuple[str, ...] = ("in", "mm")) -> InfoBlock:
    """The scale-check bars alone (for a page that has no room for the whole info block)."""
    return InfoBlock(tuple(ruler_items(0.0, 0.0, lang, bars)), RULER_SIZE[0], 6.5 * (len(bars) - 1) + 5.5)
