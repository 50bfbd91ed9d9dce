"""The Map kit: the rule sheet (``templates/mapgame.<lang>.json`` through
:func:`coinprint.kit.rule_sheet`, with an example position replayed by the rules engine),
the blank sheet for drawing a map by hand, and a ready-made map."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from coinprint.games.mapgame.board import DEFAULT_COINS, blank_layout, build
from coinprint.games.mapgame.draw import blank_sheet, map_sheet
from coinprint.kit import PrintSettings, SheetParts, board_pages, rule_sheet, with_rule_sheet
from coinprint.units import coin

if TYPE_CHECKING:
    from coinprint.kit import PrintSettings, SheetParts
    from coinprint.render.scene import Scene
    from coinprint.units import PaperSize


def kit_pages(settings: PrintSettings, lang: str = "en", seed: int = 0) -> list[Scene]:
    """The rule sheet, the blank sheet, then the 21-country map of ``seed``."""

    layout = build(seed=seed)
    parts = {
        "blank_pages": blank_pages(settings, lang=lang),
        "board_pages": board_pages(map_sheet(layout, settings.style, lang), settings),
    }
    return with_rule_sheet("mapgame", settings.paper, lang, parts)


def blank_pages(settings: PrintSettings, coins: tuple[str, str] | None = None, lang: str = "en") -> list[Scene]:
    """The blank sheet (the circle and the rules summary) on the paper of ``settings``."""

    layout = blank_layout(coins or DEFAULT_COINS)
    return board_pages(blank_sheet(layout, lang), settings)


def rules_extra_pages(paper: PaperSize, lang: str = "en") -> list[Scene]:
    """The blank sheet, printed after the rule sheet by ``rules mapgame``."""

    return blank_pages(PrintSettings(paper), lang=lang)


def rule_sheet_pages(paper: PaperSize, lang: str = "en", countries: int = 21) -> list[Scene]:
    """The rule sheet as page scenes for ``paper``."""

    return rule_sheet("mapgame", paper, lang, countries=countries)


def sheet_parts(template: dict[str, Any], source: str, countries: int = 21) -> SheetParts:
    """The values of the Map sheet: the number of countries, the start countries, the coins."""

    values: dict[str, Any] = {
        "countries": countries,
        "start_o": countries - 1,
        "start_x": countries,
        "coin_o": coin(DEFAULT_COINS[0]).title,
        "coin_x": coin(DEFAULT_COINS[1]).title,
    }
    return SheetParts(values, {}, {})
