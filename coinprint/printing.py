"""The vocabulary of printing, shared by the command line, the studio, the kit and each
game's print hook: :class:`PrintSettings` (how to print: paper, margins, style) and
:class:`PrintJob` (what one layout is printed for: the settings, the language and its words,
the copies, paged or one sheet).

Both are typed: the front doors convert what a user typed (a paper name, ``10mm``) at the
boundary, and :meth:`PrintSettings.checked` only checks the values against each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from coinprint.caps import MAX_BLEED_MM
from coinprint.errors import UsageError
from coinprint.render.style import palette_names
from coinprint.units import Length, PaperSize

ZERO = Length(0.0, "0")
"""No length at all (no bleed): what ``0`` and ``0mm`` mean where a length may be zero."""
DEFAULT_MARGIN = Length(10.0, "10mm")
"""The blank margin on every page edge, and the overlap of tiled pages, when none is given."""


@dataclass(frozen=True)
class PrintSettings:
    """How to print: the paper, margins, overlap of tiled pages, and the style name."""

    paper: PaperSize
    margin_mm: float = 10.0
    overlap_mm: float = 10.0
    style: str = "color"
    bleed_mm: float = 0.0
    """How far cards' colours run past their trim lines (with crop marks and a PDF BleedBox)."""
    board_paper: PaperSize | None = None
    """Kits: the paper of the board and the other printed parts (None: ``paper``)."""
    duplex: bool = False
    """Kits: pages ordered and blanked for a double-sided printer that flips on the long edge."""

    @classmethod
    def checked(
        cls,
        paper: PaperSize,
        *,
        margin: Length = DEFAULT_MARGIN,
        overlap: Length = DEFAULT_MARGIN,
        style: str = "color",
        bleed: Length = ZERO,
        board_paper: PaperSize | None = None,
        duplex: bool = False,
    ) -> PrintSettings:
        """Settings from typed values (as the command line's types convert them); values that
        do not go together (a margin wider than the page, an unknown style) raise
        :class:`~coinprint.errors.UsageError` naming them."""
        for each in (paper, board_paper or paper):
            if margin.mm * 2 > each.width_mm - 40:
                raise UsageError(
                    f"margin {margin} leaves too little of a {each.name} page; "
                    f"use at most {(each.width_mm - 40) / 2:.0f} mm"
                )
        if overlap.mm > 50:
            raise UsageError(f"overlap {overlap} is too large; use 0 to 50 mm")
        if style not in palette_names():
            raise UsageError(f"unknown style '{style}'; use {' or '.join(palette_names())}")
        if not 0 <= bleed.mm <= MAX_BLEED_MM:
            raise UsageError(f"bleed {bleed} is out of range; use 0 to {MAX_BLEED_MM:g} mm")
        return cls(paper, margin.mm, overlap.mm, style, bleed.mm, board_paper, duplex)

    @property
    def parts(self) -> PrintSettings:
        """The settings a kit's board and other parts are printed with (on ``board_paper``)."""
        return replace(self, paper=self.board_paper or self.paper)


@dataclass(frozen=True)
class PrintJob:
    """What a layout is printed for: the paper and style, the language (and the words of the
    game's template in it, its ``board`` part), how many cards (None: as many as fit), and
    whether it is ``paged`` (a PDF: cards are laid out on the paper) or one sheet (an SVG).

    A game's print hook returns a sheet in ``lang``: the sheet's own words (its info block,
    its rulers) are printed in the job's language."""

    settings: PrintSettings
    lang: str = "en"
    texts: Mapping[str, Any] = field(default_factory=dict)
    copies: int | None = None
    paged: bool = True
