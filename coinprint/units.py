"""Lengths, paper sizes and the coin catalogue. The canonical unit is the millimetre.

>>> parse_length("1.25in")
31.75
>>> paper_size("a4")
PaperSize(name='a4', width_mm=210.0, height_mm=297.0)
>>> coin("quarter").diameter_mm
24.26
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from coinprint.caps import MAX_CARD_MM, MAX_PAPER_MM, MIN_CARD_MM
from coinprint.errors import UsageError

MM_PER_UNIT: dict[str, float] = {
    "mm": 1.0,
    "cm": 10.0,
    "in": 25.4,
    "pt": 25.4 / 72.0,
}
"""Millimetres in one of each unit a length may be written in."""

POINTS_PER_MM = 72.0 / 25.4

_LENGTH = re.compile(r"^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*([a-zA-Z]*)\s*$")


def parse_length(text: str | float | int, *, default_unit: str | None = None) -> float:
    """Return the length written in ``text`` in millimetres (``"1.25in"`` → 31.75).

    Units: mm, cm, in, pt. A bare number needs ``default_unit``. The length must be positive
    and finite; anything else raises :class:`UsageError` naming the bad value.
    """
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        value, unit = float(text), default_unit or "mm"
    else:
        match = _LENGTH.match(str(text))
        if not match:
            raise UsageError(f"'{text}' is not a length; write a number and a unit, e.g. 1.25in, 31.75mm, 3cm, 72pt")
        value, unit = float(match.group(1)), match.group(2).lower() or (default_unit or "")
        if not unit:
            raise UsageError(f"'{text}' has no unit; add one of: {', '.join(MM_PER_UNIT)}")
    if unit not in MM_PER_UNIT:
        raise UsageError(f"'{text}' has an unknown unit '{unit}'; use one of: {', '.join(MM_PER_UNIT)}")
    if not value > 0 or value == float("inf"):
        raise UsageError(f"'{text}' must be a positive length")
    return value * MM_PER_UNIT[unit]


@dataclass(frozen=True)
class Length:
    """A length read from text: its value in millimetres, and the text as it was written (so a
    record or a spec says what was typed, ``1.25in``, while drawing code uses ``mm``)."""

    mm: float
    text: str

    @classmethod
    def parse(cls, text: str, *, default_unit: str | None = "mm") -> Length:
        """The length written in ``text`` (see :func:`parse_length`)."""
        return cls(parse_length(text, default_unit=default_unit), text)

    def __str__(self) -> str:
        return self.text


def format_mm(mm: float) -> str:
    """A length for people: ``31.75 mm (1.25 in)``."""
    return f"{mm:.2f} mm ({mm / 25.4:.3g} in)"


@dataclass(frozen=True)
class PaperSize:
    """A sheet of paper, portrait: the width is the shorter side."""

    name: str
    width_mm: float
    height_mm: float

    def landscape(self) -> PaperSize:
        return PaperSize(self.name, self.height_mm, self.width_mm)


PAPER_SIZES: dict[str, tuple[float, float]] = {
    "a5": (148.0, 210.0),
    "a4": (210.0, 297.0),
    "a3": (297.0, 420.0),
    "letter": (215.9, 279.4),
    "legal": (215.9, 355.6),
    "tabloid": (279.4, 431.8),
}
"""Paper sizes in millimetres, portrait (docs/formats.md, Facts)."""

INCH_PAPERS = ("letter", "legal", "tabloid")
"""The papers of the inch family: a note naming a paper for one of them names one of them."""

CARD_SIZES: dict[str, tuple[float, float]] = {
    "credit": (54.0, 85.6),
    "poker": (63.5, 88.9),
    "a6": (105.0, 148.0),
}
"""Card sizes in millimetres, portrait (docs/formats.md, Facts)."""

_CUSTOM_SIZE = re.compile(r"^\s*([0-9.]+)\s*([a-z]*)\s*[x×]\s*([0-9.]+)\s*([a-z]*)\s*$")


def _named_or_custom(text: str, table: dict[str, tuple[float, float]], what: str) -> tuple[str, float, float]:
    key = text.strip().lower()
    if key in table:
        width, height = table[key]
        return key, width, height
    match = _CUSTOM_SIZE.match(key)
    if not match:
        raise UsageError(f"unknown {what} '{text}'; use one of {', '.join(table)} or WxH with a unit, e.g. 200x300mm")
    unit = match.group(4) or match.group(2)
    if not unit:
        raise UsageError(f"{what} '{text}' has no unit; write e.g. 200x300mm or 8x10in")
    width = parse_length(match.group(1) + (match.group(2) or unit))
    height = parse_length(match.group(3) + unit)
    return f"{width:g}x{height:g}mm", width, height


def paper_size(text: str) -> PaperSize:
    """The paper named by ``text`` (a5, a4, a3, letter, legal, tabloid or ``WxH`` with a unit).

    The result is portrait (width <= height); layout code decides the orientation.
    """
    name, width, height = _named_or_custom(text, PAPER_SIZES, "paper")

    if min(width, height) < 50.0:
        raise UsageError(f"paper '{text}' is too small; each side must be at least 50 mm")
    if max(width, height) > MAX_PAPER_MM:
        raise UsageError(
            f"paper '{text}' is over the {MAX_PAPER_MM:g} mm paper cap; each side must be 50 to {MAX_PAPER_MM:g} mm"
        )
    return PaperSize(name, min(width, height), max(width, height))


PAPER_VARIABLES = ("COINPRINT_PAPER", "PAPERSIZE")
"""The environment variables that name the default paper, first found first (``PAPERSIZE`` is
libpaper's, as many Unix tools read it)."""
PAPERSIZE_FILE = "/etc/papersize"
"""libpaper's system-wide paper, read after the variables."""


def default_paper(environ: dict[str, str] | None = None, papersize_file: str = PAPERSIZE_FILE) -> tuple[str, str]:
    """The paper to print on when none is given, and where that came from: ``COINPRINT_PAPER``,
    then ``PAPERSIZE``, then the first name in ``/etc/papersize``, then A4. A value that is
    not a paper is refused, naming where it was found."""
    import os

    env = os.environ if environ is None else environ
    for variable in PAPER_VARIABLES:
        value = env.get(variable, "").strip()
        if value:
            return _checked_paper(value, variable), variable
    try:
        with open(papersize_file, encoding="utf-8") as lines:
            names = [line.split("#", 1)[0].strip() for line in lines]
    except (OSError, UnicodeDecodeError):
        names = []
    for name in names:
        if name:
            return _checked_paper(name, papersize_file), papersize_file
    return "a4", "the default"


def _checked_paper(value: str, where: str) -> str:
    try:
        paper_size(value)
    except UsageError as exc:
        raise UsageError(f"{where} says paper {value!r}, which coinprint cannot print on: {exc}") from None
    return value.lower()


def card_size(text: str) -> PaperSize:
    """A card size by name (credit, poker, a6) or ``WxH`` with a unit, portrait."""

    name, width, height = _named_or_custom(text, CARD_SIZES, "card")
    if not MIN_CARD_MM <= min(width, height) or max(width, height) > MAX_CARD_MM:
        raise UsageError(
            f"card '{text}' is outside the card caps; each side must be {MIN_CARD_MM:g} to {MAX_CARD_MM:g} mm"
        )
    return PaperSize(name, min(width, height), max(width, height))


@dataclass(frozen=True)
class Coin:
    """A coin from the catalogue: its name, what it is, its diameter and thickness in mm, its
    mass in grams, and for a coin that is not round the number of its equal curves (the UK 20p
    and 50p are equal-curve heptagons whose diameter is their width, across a curve)."""

    name: str
    title: str
    diameter_mm: float
    thickness_mm: float
    mass_g: float = 0.0
    equal_curves: int = 0
    """0 for a disc; 7 for a Reuleaux heptagon."""

    @property
    def radius_mm(self) -> float:
        return self.diameter_mm / 2.0


COINS: dict[str, Coin] = {
    c.name: c
    for c in (
        Coin("dime", "US dime", 17.91, 1.35, 2.268),
        Coin("penny", "US penny", 19.05, 1.52, 2.5),
        Coin("nickel", "US nickel", 21.21, 1.95, 5.0),
        Coin("quarter", "US quarter", 24.26, 1.75, 5.67),
        Coin("eur-1c", "1 euro cent", 16.25, 1.67, 2.3),
        Coin("eur-2c", "2 euro cent", 18.75, 1.67, 3.06),
        Coin("eur-5c", "5 euro cent", 21.25, 1.67, 3.92),
        Coin("eur-10c", "10 euro cent", 19.75, 1.93, 4.1),
        Coin("eur-20c", "20 euro cent", 22.25, 2.14, 5.74),
        Coin("eur-50c", "50 euro cent", 24.25, 2.38, 7.8),
        Coin("eur-1", "1 euro", 23.25, 2.33, 7.5),
        Coin("eur-2", "2 euro", 25.75, 2.20, 8.5),
        Coin("uk-1p", "UK 1p", 20.3, 1.65, 3.56),
        Coin("uk-2p", "UK 2p", 25.9, 2.03, 7.12),
        Coin("uk-5p", "UK 5p", 18.0, 1.7, 3.25),
        Coin("uk-10p", "UK 10p", 24.5, 1.85, 6.5),
        Coin("uk-20p", "UK 20p", 21.4, 1.7, 5.0, 7),
        Coin("uk-50p", "UK 50p", 27.3, 1.78, 8.0, 7),
        Coin("uk-1", "UK £1", 23.43, 2.8, 8.75),
        Coin("uk-2", "UK £2", 28.4, 2.5, 12.0),
    )
}
"""The coin catalogue (docs/formats.md, Facts), by name: US, euro (``eur-…``) and UK (``uk-…``).
Masses: the US Mint's, the euro regulation's, and secondary sources' for UK coins (approximate)."""

_COIN_ALIASES = {
    "us-dime": "dime",
    "us-penny": "penny",
    "us-nickel": "nickel",
    "us-quarter": "quarter",
    "cent": "penny",
    "eur-100c": "eur-1",
    "eur-200c": "eur-2",
    "uk-100p": "uk-1",
    "uk-200p": "uk-2",
    "uk-£1": "uk-1",
    "uk-£2": "uk-2",
}


def coin(name: str) -> Coin:
    """The catalogue coin called ``name`` (``quarter``, ``eur-2``, ``uk-10p``; case-insensitive)."""
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = _COIN_ALIASES.get(key, key)
    if key not in COINS:
        raise UsageError(f"unknown coin '{name}'; use one of: {', '.join(COINS)}")
    return COINS[key]


def length_or_zero(text: str, *, default_unit: str | None = "mm") -> Length:
    """The length written in ``text``, where ``0`` (or ``0mm``) means none; a bad length raises
    :class:`~coinprint.errors.UsageError` naming it."""
    if str(text).strip() in ("0", "0mm"):
        return Length(0.0, str(text))
    return Length.parse(str(text).strip(), default_unit=default_unit)
