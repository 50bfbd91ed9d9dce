"""The Flick kit: the rule sheet and the standard goal mat (a 15 cm square marked by dimes)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from coinprint.kit import PrintSettings
    from coinprint.render.scene import Scene
    from coinprint.units import PaperSize


def rule_sheet_pages(paper: PaperSize, lang: str = "en") -> list[Scene]:
    """The rule sheet as page scenes for ``paper``."""
    from coinprint.render.flick import rule_sheet_pages as pages

    return pages(paper, lang)


def kit_pages(settings: PrintSettings, lang: str = "en") -> list[Scene]:
    """The rule sheet, then the standard mat at true size."""
    from coinprint.boards.flick import build
    from coinprint.kit import board_pages
    from coinprint.render.flick import mat_sheet, rule_sheet_pages

    layout = build()
    return rule_sheet_pages(settings.paper, lang) + board_pages(mat_sheet(layout, settings.style), settings)
