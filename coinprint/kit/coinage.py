"""The Coin Age kit: the rule sheet (with a worked example from a real game, replayed by the
rules engine) and a page of classic map cards."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from coinprint.kit import PrintSettings
    from coinprint.render.scene import Scene
    from coinprint.units import PaperSize


def rule_sheet_pages(paper: PaperSize, lang: str = "en") -> list[Scene]:
    """The rule sheet in ``lang`` on ``paper``, with the classic map and a worked example."""
    from coinprint.boards.coinage import build
    from coinprint.games.coinage import sheet_example
    from coinprint.render.coinage import rule_sheet_pages as pages

    layout = build("classic")
    return pages(lang, paper, layout, sheet_example(layout))


def kit_pages(settings: PrintSettings, lang: str = "en") -> list[Scene]:
    """The rule sheet, then a page of classic map cards with cut lines."""
    from coinprint.boards.coinage import build
    from coinprint.kit import board_pages
    from coinprint.render.coinage import board_sheet

    layout = build("classic")
    sheet = board_sheet(layout, settings.style, paper=settings.paper, margin=settings.margin_mm)
    return rule_sheet_pages(settings.paper, lang) + board_pages(sheet, settings)


def replay_note(rules: Any, state: Any, turn: Any) -> str:
    """What a replay page shows beside a turn: its throw, coin by coin, and the matches."""
    from coinprint.games.coinage import DENOMINATIONS

    coins = " ".join(f"{DENOMINATIONS[rank]}{'✓' if hit else '✗'}" for rank, hit in turn.throw)
    matches = sum(1 for _, hit in turn.throw if hit)
    return f"throw {coins}: {matches} match{'es' if matches != 1 else ''}"
