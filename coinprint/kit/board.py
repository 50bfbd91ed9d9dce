"""A board written to a file: a game's sheet tiled on the paper at true size (PDF), as one
true-size sheet (SVG) or as its layout (GeoJSON); and a position drawn as an SVG."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from coinprint.caps import check_pages
from coinprint.errors import UsageError
from coinprint.fileio import write_atomic
from coinprint.kit.output import require_suffix, resolve_output
from coinprint.render.pdf import pages_to_pdf
from coinprint.render.sheet import single_sheet
from coinprint.render.svg import scene_to_svg
from coinprint.render.tiling import paginate_with, plans

if TYPE_CHECKING:
    from pathlib import Path

    from coinprint.engine import Rules
    from coinprint.game import Game
    from coinprint.layout import Layout
    from coinprint.printing import PrintSettings
    from coinprint.render.scene import Scene
    from coinprint.render.sheet import Sheet
    from coinprint.render.words import InfoBlock


def export_board(
    layout: Layout,
    sheet: Sheet,
    settings: PrintSettings,
    output: str | None,
    fmt: str | None,
    default_name: str,
    notes: Sequence[str] = (),
) -> list[Path]:
    """Write a board as PDF (tiled pages at true size), SVG (one true-size sheet) or GeoJSON;
    ``notes`` are more info lines printed under the sheet's own (e.g. how fair the map is).

    Returns the paths written. Nothing is written when anything fails.
    """
    path, chosen = resolve_output(output, fmt, default_name)
    return [write_atomic(path, board_data(layout, sheet, settings, chosen, notes))]


def board_data(
    layout: Layout, sheet: Sheet, settings: PrintSettings, fmt: str, notes: Sequence[str] = ()
) -> bytes | str:
    """A board's file contents in ``fmt`` (``pdf``: tiled pages at true size, ``svg``: one
    true-size sheet, ``geojson``: the layout), exactly as :func:`export_board` writes them;
    ``notes`` are more info lines under the sheet's own."""
    if notes:
        sheet = replace(sheet, lines=[*sheet.lines, *notes])
    if fmt == "geojson":
        return layout.dumps()
    if fmt == "svg":
        return scene_to_svg(single_sheet(sheet, settings.margin_mm))
    if fmt != "pdf":
        raise UsageError(f"format {fmt} is not available here; use one of: pdf, svg, geojson")
    return pages_to_pdf(board_pages(sheet, settings), title=sheet.title, keywords=_keywords(layout))


def board_pages_with(
    sheet: Sheet, settings: PrintSettings, extra: Sequence[InfoBlock] = (), *, kit: bool = True
) -> tuple[list[Scene], bool]:
    """A sheet tiled on the paper of ``settings``, with ``extra`` (the player aid) where a page
    has room; the second value says whether it found room. ``kit``: the pages go into a kit
    (see :func:`~coinprint.render.tiling.paginate_with`)."""
    fewest = plans(sheet, settings.paper, settings.margin_mm, settings.overlap_mm, 0.0)
    check_pages(min(plan.pages for plan in fewest), f"this board on {settings.paper.name} paper")
    return paginate_with(sheet, settings.paper, settings.margin_mm, settings.overlap_mm, kit=kit, extra=extra)


def board_pages(sheet: Sheet, settings: PrintSettings) -> list[Scene]:
    """A board's sheet tiled on the paper of ``settings`` (the pages of its PDF)."""
    return board_pages_with(sheet, settings, kit=False)[0]


def _keywords(layout: Layout) -> dict[str, Any]:
    words: dict[str, Any] = {"game": layout.game}
    if layout.meta.get("seed") is not None:
        words["seed"] = layout.meta["seed"]
    for key, value in sorted(layout.params.items()):
        words[key] = value
    return words


def write_position_svg(game: Game, rules: Rules[Any, Any], state: Any, path: str) -> Path:
    """Draw a position of ``game`` as a true-size SVG file at ``path``."""
    require_suffix(path, "--svg", (".svg",), stdout=True)
    return write_atomic(path, game.position_svg(rules, state))
