"""The Map's print-and-play kit, read back from the PDF: the rule sheet takes one page on
A4 and Letter, in English and Swedish; the map page keeps its info lines on A4 and Letter."""

import pytest

from tests.conftest import pdf_reading_text, rule_pages, run_cli


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    """The Map's kit on A4 and Letter in English and Swedish: {(paper, lang): path}."""
    made = {}
    for paper in ("a4", "letter"):
        for lang in ("en", "sv"):
            folder = tmp_path_factory.mktemp(f"{paper}-{lang}")
            assert run_cli("kit", "mapgame", "--paper", paper, "--lang", lang, "-o", str(folder) + "/").code == 0
            made[(paper, lang)] = folder / f"mapgame-kit-{paper}-{lang}.pdf"
    return made


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_rule_sheets_fit_their_pages(kits, paper):
    for lang in ("en", "sv"):
        assert len(rule_pages(kits[(paper, lang)])) == 1, lang


def test_board_info_lines_are_kept_on_a4_and_letter(kits):
    for paper in ("a4", "letter"):
        text = pdf_reading_text(kits[(paper, "en")])
        for line in ["O starts in country"]:
            assert line in text, (paper, line)
