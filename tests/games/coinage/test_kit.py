"""Coin Age's print-and-play kit, read back from the PDF: the card pages keep their info
lines on A4 and Letter."""

import pytest

from tests.conftest import game_kits, pdf_reading_text


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    """Coin Age's kit on A4 and Letter, in English: {paper: path}."""
    return {paper: path for (paper, _), path in game_kits(tmp_path_factory, "coinage", langs=("en",)).items()}


def test_board_info_lines_are_kept_on_a4_and_letter(kits):
    for paper in ("a4", "letter"):
        text = pdf_reading_text(kits[paper])
        for line in ["A quarter is 24.26 mm"]:
            assert line in text, (paper, line)
