"""The Map's print-and-play kit, read back from the PDF: the rule sheet takes one page on
A4 and Letter, in English and Swedish; the map page keeps its info lines on A4 and Letter."""

import pytest

from tests.conftest import game_kits, pdf_reading_text, rule_pages


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    """The Map's kit on A4 and Letter in English and Swedish: {(paper, lang): path}."""
    return game_kits(tmp_path_factory, "mapgame")


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_rule_sheets_fit_their_pages(kits, paper):
    for lang in ("en", "sv"):
        assert len(rule_pages(kits[(paper, lang)])) == 1, lang


def test_board_info_lines_are_kept_on_a4_and_letter(kits):
    for paper in ("a4", "letter"):
        text = pdf_reading_text(kits[(paper, "en")])
        for line in ["O starts in country"]:
            assert line in text, (paper, line)
