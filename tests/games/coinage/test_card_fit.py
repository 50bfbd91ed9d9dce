"""A Coin Age card too small for the coin says so on the page, not only on the terminal."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from coinprint.games.coinage.board import build, check

SVG_TEXT = "{http://www.w3.org/2000/svg}text"


def card_words(path) -> str:
    return " ".join((node.text or "").strip() for node in ET.parse(path).iter(SVG_TEXT))


@pytest.mark.parametrize("card", ["poker", "credit", "a6"])
def test_the_card_says_how_many_spaces_the_coin_overhangs(cli, tmp_path, card: str) -> None:
    overhangs = [p.feature for p in check(build("classic", card=card)) if "will overhang" in p.message]
    out = tmp_path / f"{card}.svg"
    assert cli("board", "coinage", "--card", card, "-o", str(out)).code == 0
    words = card_words(out)
    if overhangs:
        assert f"does not fit {len(overhangs)} of the 10 spaces" in words
    else:
        assert "does not fit" not in words
