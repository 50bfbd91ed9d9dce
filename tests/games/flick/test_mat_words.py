"""The Flick mat's printed words are for players: no record ids or option syntax, sizes as
people say them, and the info lines and scale bars outside the goal where coins slide, the
whole mat with its scale on one page of A4 or Letter."""

from __future__ import annotations

import pytest

from tests.conftest import MM_PER_PT

JARGON = ("g1", "g2", "side 1", "side 3", "150.00", "Players:", "2 × US quarter", "× US")


def _mat(cli, tmp_path, paper: str, lang: str = "en"):
    out = tmp_path / f"mat-{paper}-{lang}.pdf"
    args = ("board", "flick", "--paper", paper, "-o", str(out))
    if lang != "en":
        args += ("--lang", lang)
    assert cli(*args).code == 0
    return out


def _goal_box(page) -> tuple[float, float, float, float]:
    """The goal: the largest filled shape on the page (pdf points, top-down)."""
    shapes = [c for c in page.curves + page.rects if c.get("fill")]
    goal = max(shapes, key=lambda c: (c["x1"] - c["x0"]) * (c["bottom"] - c["top"]))
    return (goal["x0"], goal["top"], goal["x1"], goal["bottom"])


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_mat_words_are_for_players(cli, tmp_path, paper):
    import pdfplumber

    with pdfplumber.open(_mat(cli, tmp_path, paper)) as pdf:
        assert len(pdf.pages) == 1  # the mat and its scale on one page
        text = pdf.pages[0].extract_text()
    for word in JARGON:
        assert word not in text, word
    assert "15 cm" in text and "two quarters" in text and "a dime" in text
    assert "Heads and Tails" in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_info_lines_and_scale_bars_lie_outside_the_goal(cli, tmp_path, paper):
    import pdfplumber

    with pdfplumber.open(_mat(cli, tmp_path, paper)) as pdf:
        page = pdf.pages[0]
        x0, top, x1, bottom = _goal_box(page)
        assert (x1 - x0) * MM_PER_PT > 140  # the goal itself, 15 cm across
        inside = [
            w["text"]
            for w in page.extract_words()
            if x0 < (w["x0"] + w["x1"]) / 2 < x1 and top < (w["top"] + w["bottom"]) / 2 < bottom
        ]
        # Only the players' names, their notes and the word GOAL are printed in the goal.
        allowed = {"GOAL", "HEADS", "TAILS", "Your", "line:", "start", "with", "two", "quarters", "in", "your"}
        allowed |= {"zone,", "heads", "tails", "up.", "HEADS", "SLIAT"}
        assert set(inside) <= allowed | {w[::-1] for w in allowed}, inside
        bars = [line for line in page.lines + page.rects if line.get("stroke") and line["height"] < 1.5]
        long_bars = [b for b in bars if 49 < (b["x1"] - b["x0"]) * MM_PER_PT < 52]
        assert len(long_bars) >= 2  # the 5 cm and the 2 in bars
        for bar in long_bars:
            mid = ((bar["x0"] + bar["x1"]) / 2, (bar["top"] + bar["bottom"]) / 2)
            assert not (x0 < mid[0] < x1 and top < mid[1] < bottom), bar


def test_scale_bars_measure_true(cli, tmp_path):
    import pdfplumber

    with pdfplumber.open(_mat(cli, tmp_path, "letter")) as pdf:
        page = pdf.pages[0]
        lengths = sorted(
            round((c["x1"] - c["x0"]) * MM_PER_PT, 2)
            for c in page.lines + page.rects + page.curves
            if 49 < (c["x1"] - c["x0"]) * MM_PER_PT < 52 and (c["bottom"] - c["top"]) < 1.5
        )
    assert any(abs(v - 50.0) < 0.1 for v in lengths) and any(abs(v - 50.8) < 0.1 for v in lengths), lengths


def test_swedish_mat_says_it_in_swedish(cli, tmp_path):
    import pdfplumber

    with pdfplumber.open(_mat(cli, tmp_path, "a4", "sv")) as pdf:
        text = pdf.pages[0].extract_text()
    assert "15 cm" in text and "två quarters" in text and "Krona och Klave" in text
    for word in (*JARGON, "Goal", "Your line"):
        assert word not in text, word
