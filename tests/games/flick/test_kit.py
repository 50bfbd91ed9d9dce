"""Flick's print-and-play kit, read back from the PDF: the rule sheet takes two pages on
A4 and Letter, in English and Swedish."""

import pytest

from tests.conftest import game_kits, rule_pages


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    """Flick's kit on A4 and Letter in English and Swedish: {(paper, lang): path}."""
    return game_kits(tmp_path_factory, "flick")


@pytest.mark.parametrize("paper, pages", [("a4", 2), ("letter", 3)])
def test_rule_sheets_fit_their_pages(kits, paper, pages):
    """On Letter the kit's contents and the player aid take a third page (the mat leaves
    no room for the aid beside it)."""
    for lang in ("en", "sv"):
        assert len(rule_pages(kits[(paper, lang)])) == pages, lang
