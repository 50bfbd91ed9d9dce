"""Coin Table's print-and-play kit, read back from the PDF: the rule sheet takes one page on
A4 and Letter, in English and Swedish."""

import pytest

from tests.conftest import rule_pages, run_cli


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    """Coin Table's kit on A4 and Letter in English and Swedish: {(paper, lang): path}."""
    made = {}
    for paper in ("a4", "letter"):
        for lang in ("en", "sv"):
            folder = tmp_path_factory.mktemp(f"{paper}-{lang}")
            assert run_cli("kit", "cointable", "--paper", paper, "--lang", lang, "-o", str(folder) + "/").code == 0
            made[(paper, lang)] = folder / f"cointable-kit-{paper}-{lang}.pdf"
    return made


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_rule_sheets_fit_their_pages(kits, paper):
    for lang in ("en", "sv"):
        assert len(rule_pages(kits[(paper, lang)])) == 1, lang
