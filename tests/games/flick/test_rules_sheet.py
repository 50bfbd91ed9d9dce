"""The Flick rule sheet: its text, its lettered penalties, its example diagrams, and that each
example's log, replayed by the referee, gives what the sheet says."""

from __future__ import annotations

import re

import pytest

from coinprint.engine import replay
from coinprint.games.flick.board import build
from coinprint.games.flick.rules import FlickRules
from coinprint.kit.rulesheet import rule_sheet_template
from coinprint.registry import GAMES
from tests.conftest import MM_PER_PT


@pytest.fixture(scope="module")
def sheet(tmp_path_factory):
    from tests.conftest import run_cli

    path = tmp_path_factory.mktemp("rules") / "flick-rules.pdf"
    done = run_cli("rules", "flick", "-o", str(path))
    assert done.code == 0, done.err
    return path


def _pages_text(path) -> list[str]:
    from tests.conftest import pdf_text_runs

    return ["\n".join(run["text"] for run in page) for page in pdf_text_runs(path)]


def test_the_sheet_states_the_rules_and_letters_the_penalties(sheet):
    text = "\n".join(_pages_text(sheet))
    for heading in (
        "Flick",
        "Setting up",
        "Who owns what",
        "Playing",
        "Penalties",
        "Variants",
        "Examples",
    ):
        assert heading in text
    # The event log is for a computer: it is only on the --appendix page.
    assert "event log" not in text and "coinprint" not in text and "penalty_h" not in text
    penalties = text[text.index("Penalties") : text.index("Variants")]
    assert re.findall(r"^([A-G])\.", penalties, flags=re.M) == list("ABCDEFG")
    assert "Penalty H" in text and "Without F" in text and "Teams" in text
    flat = " ".join(text.split())
    assert "15 cm" in flat and "150.00" not in flat and "US dime" in flat and "US quarter" in flat


def test_every_example_is_drawn(sheet):
    """Each figure is a mat with 4 goal coins (dimes); at the figure's scale a quarter is
    24.26/17.91 of a dime. Every diagram coin, plus the 4 dashed start spots of each figure,
    must be there as a quarter-sized circle."""
    import pdfplumber

    ratio = 24.26 / 17.91
    dimes = quarters = 0
    with pdfplumber.open(sheet) as pdf:
        text = "\n".join(page.extract_text() or "" for page in pdf.pages)
        for page in pdf.pages:
            widths = []
            for curve in page.curves:
                width = float(curve["x1"]) - float(curve["x0"])
                height = float(curve["bottom"]) - float(curve["top"])
                if width > 1 and abs(width - height) < 0.05:
                    widths.append(width)
            page_dimes = [w for w in widths if any(abs(w * ratio - q) < 0.02 for q in widths)]
            dime_size = {round(w, 1) for w in page_dimes}
            dimes += len(page_dimes)
            quarters += sum(1 for w in widths if any(abs(w / ratio - d) < 0.1 for d in dime_size))
    for number in range(1, 6):
        assert f"Example {number}." in text
    examples = rule_sheet_template(GAMES["flick"])["examples"]
    figures = 1 + len(examples)  # the mat and one diagram per example
    assert dimes == 4 * figures
    assert quarters == 4 * figures + sum(len(spec["coins"]) for spec in examples.values())


@pytest.mark.parametrize("name", ["example1", "example2", "example3", "example4", "example5"])
def test_each_example_log_gives_what_the_sheet_says(name):
    spec = rule_sheet_template(GAMES["flick"])["examples"][name]
    rules = FlickRules(build(), {})
    done = replay(rules, spec["log"])
    assert done.error is None, done.error
    state, expect = done.state, spec["expect"]
    if "penalty" in expect:
        assert rules.is_over(state)
        assert (state.penalty, state.loser, rules.result(state).winner) == (
            expect["penalty"],
            expect["loser"],
            expect["winner"],
        )
    else:
        assert not rules.is_over(state)
        assert rules.to_move(state) == expect["active"]
        assert {c: state.faces[c] for c in expect["faces"]} == expect["faces"]
        assert sorted(c for c, inside in state.in_goal.items() if inside) == sorted(expect["in_goal"])


def test_each_caption_names_the_outcome_its_log_gives():
    template = rule_sheet_template(GAMES["flick"])
    captions = {b["figure"]: b["caption"] for b in template["blocks"] if "figure" in b}
    for name, spec in template["examples"].items():
        expect = spec["expect"]
        if "penalty" in expect:
            assert f"{expect['loser'].capitalize()} loses ({expect['penalty']})" in captions[name]
        else:
            assert f"{expect['active'].capitalize()} plays next" in captions[name]


def test_unknown_language_and_wrong_format_are_usage_errors(cli, tmp_path):
    done = cli("rules", "flick", "--lang", "xx", "-o", str(tmp_path / "r.pdf"))
    assert done.code == 2 and "no rule sheet in language 'xx'; use one of: en, sv" in done.err
    done = cli("rules", "flick", "-o", str(tmp_path / "r.svg"))
    assert done.code == 2 and "format svg is not available here" in done.err
    assert list(tmp_path.iterdir()) == []


def test_the_sheet_is_byte_identical_each_time(cli, tmp_path, sheet):
    again = tmp_path / "again.pdf"
    assert cli("rules", "flick", "-o", str(again)).code == 0
    assert again.read_bytes() == sheet.read_bytes()


def test_letter_paper(cli, tmp_path):
    path = tmp_path / "r.pdf"
    assert cli("rules", "flick", "--paper", "letter", "-o", str(path)).code == 0
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        assert abs(float(pdf.pages[0].width) * MM_PER_PT - 215.9) < 0.1
