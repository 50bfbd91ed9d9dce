"""Lengths, paper sizes and the coin catalogue."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coinprint.errors import UsageError
from coinprint.units import COINS, card_size, coin, paper_size, parse_length


@pytest.mark.parametrize(
    "text, mm",
    [
        ("1.25in", 31.75),
        ("31.75mm", 31.75),
        ("3cm", 30.0),
        ("72pt", 25.4),
        ("1 in", 25.4),
        (".5IN", 12.7),
        ("2.0 mm", 2.0),
    ],
)
def test_lengths_in_every_unit(text, mm):
    assert parse_length(text) == pytest.approx(mm, abs=1e-12)


@pytest.mark.parametrize("text", ["", "abc", "1.25", "-3mm", "0mm", "3 furlongs", "1e5mm", "nan mm", "inf in"])
def test_bad_lengths_name_the_value(text):
    with pytest.raises(UsageError) as caught:
        parse_length(text)
    assert "\n" not in str(caught.value)
    assert repr(text)[1:-1] in str(caught.value) or text == ""


@given(st.floats(min_value=0.001, max_value=10_000, allow_nan=False), st.sampled_from(["mm", "cm", "in", "pt"]))
def test_length_scales_linearly(value, unit):
    factor = {"mm": 1, "cm": 10, "in": 25.4, "pt": 25.4 / 72}[unit]
    assert parse_length(f"{value!r}{unit}") == pytest.approx(value * factor, rel=1e-12)


def test_bare_number_uses_default_unit():
    assert parse_length("12", default_unit="mm") == 12.0
    with pytest.raises(UsageError):
        parse_length("12")


@pytest.mark.parametrize(
    "name, size",
    [
        ("a5", (148, 210)),
        ("A4", (210, 297)),
        ("a3", (297, 420)),
        ("letter", (215.9, 279.4)),
        ("legal", (215.9, 355.6)),
        ("tabloid", (279.4, 431.8)),
    ],
)
def test_named_paper_is_portrait_and_exact(name, size):
    paper = paper_size(name)
    assert (paper.width_mm, paper.height_mm) == size
    assert (paper.landscape().width_mm, paper.landscape().height_mm) == (size[1], size[0])


def test_custom_paper_with_units():
    assert (paper_size("300x200mm").width_mm, paper_size("300x200mm").height_mm) == (200, 300)
    assert paper_size("8.5x11in").width_mm == pytest.approx(215.9)
    assert paper_size("20cm x 30cm").height_mm == pytest.approx(300)
    for bad in ("b7", "300x200", "10x10mm", "x3mm"):
        with pytest.raises(UsageError):
            paper_size(bad)


def test_cards():
    assert (card_size("credit").width_mm, card_size("credit").height_mm) == (54.0, 85.6)
    assert card_size("poker").height_mm == 88.9
    assert card_size("a6").width_mm == 105.0


def test_coin_catalogue_matches_the_design_facts():
    assert len(COINS) == 20
    assert coin("quarter").diameter_mm == 24.26 and coin("quarter").thickness_mm == 1.75
    assert coin("dime").diameter_mm == 17.91
    assert coin("EUR-2").diameter_mm == 25.75
    assert coin("uk-10p").diameter_mm == 24.5
    assert coin("uk-£2").diameter_mm == 28.4
    assert coin("penny").radius_mm == pytest.approx(19.05 / 2)
    # US coins grow dime < penny < nickel < quarter: Coin Age's ranks rely on it.
    sizes = [coin(n).diameter_mm for n in ("dime", "penny", "nickel", "quarter")]
    assert sizes == sorted(sizes)


def test_unknown_coin_lists_the_known_ones():
    with pytest.raises(UsageError, match="unknown coin 'peso'.*quarter"):
        coin("peso")
