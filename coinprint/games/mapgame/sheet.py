"""The Map rule sheet's values (the words are ``templates/mapgame.<lang>.json``; its example
position is replayed by the rules engine), and drawn maps completed for print."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from coinprint.drawn import with_properties
from coinprint.game import RuleSheetParts
from coinprint.games.mapgame.board import DEFAULT_COINS
from coinprint.units import coin

if TYPE_CHECKING:
    from coinprint.layout import Layout


def rule_sheet_parts(countries: int = 21) -> RuleSheetParts:
    """The values of the Map sheet: the number of countries, the start countries, the coins."""

    values: dict[str, Any] = {
        "countries": countries,
        "start_o": countries - 1,
        "start_x": countries,
        "coin_o": coin(DEFAULT_COINS[0]).title,
        "coin_x": coin(DEFAULT_COINS[1]).title,
    }
    return RuleSheetParts(values, {}, {})


def printable(layout: Layout) -> Layout:
    """A drawn map with the number of countries the rule sheet printed with it states."""
    return with_properties(layout, {}, {"params": {**layout.params, "countries": len(layout)}})
