"""The printed map and the blank sheet, read back from the PDF and SVG files."""

from __future__ import annotations

import re

import pdfplumber
import pytest
from click.testing import CliRunner

from coinprint.cli import cli
from coinprint.units import coin
from tests.conftest import pdf_reading_text

PT = 25.4 / 72.0


def board(tmp_path, *args: str):
    result = CliRunner().invoke(cli, ["board", "mapgame", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


@pytest.mark.parametrize("paper, size", [("a4", (210.0, 297.0)), ("letter", (215.9, 279.4))])
@pytest.mark.parametrize("seed", [0, 3, 17, 123])
def test_the_map_prints_on_one_page(tmp_path, paper, size, seed) -> None:
    out = tmp_path / f"map-{paper}-{seed}.pdf"
    board(tmp_path, "--seed", str(seed), "--paper", paper, "-o", str(out))
    with pdfplumber.open(out) as pdf:
        assert len(pdf.pages) == 1
        page = pdf.pages[0]
        assert (round(page.width * PT, 1), round(page.height * PT, 1)) == size
        words = {w["text"] for w in page.extract_words()}
        assert {str(k) for k in range(1, 22)} <= words, "every country is numbered"
        # Everything drawn stays on the paper, inside the 10 mm margins.
        for shape in page.curves + page.rects + page.lines:
            assert shape["x0"] * PT >= 9.9 and shape["x1"] * PT <= size[0] - 9.9
            assert shape["top"] * PT >= 9.9 and shape["bottom"] * PT <= size[1] - 9.9


def test_coin_outlines_are_true_size(tmp_path) -> None:
    out = tmp_path / "map.pdf"
    board(tmp_path, "--seed", "3", "-o", str(out))
    nickel = coin("nickel").diameter_mm
    with pdfplumber.open(out) as pdf:
        sizes = [((c["x1"] - c["x0"]) * PT, (c["bottom"] - c["top"]) * PT) for c in pdf.pages[0].curves]
    guides = [s for s in sizes if abs(s[0] - nickel) < 0.2 and abs(s[1] - nickel) < 0.2]
    assert len(guides) == 21, "one dotted nickel outline per country, at true size"


def test_same_seed_gives_the_same_files(tmp_path) -> None:
    for name in ("a.pdf", "b.pdf", "a.svg", "b.svg"):
        board(tmp_path, "--seed", "9", "-o", str(tmp_path / name))
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    assert (tmp_path / "a.svg").read_bytes() == (tmp_path / "b.svg").read_bytes()


def test_start_countries_are_marked(tmp_path) -> None:
    out = tmp_path / "map.svg"
    board(tmp_path, "--seed", "4", "-o", str(out))
    text = out.read_text()
    assert ">O starts<" in text and ">X starts<" in text


def test_ink_saver_has_no_fills(tmp_path) -> None:
    out = tmp_path / "map.svg"
    board(tmp_path, "--seed", "4", "--style", "ink-saver", "-o", str(out))
    fills = set(re.findall(r'fill="(#[0-9a-fA-F]{6})"', out.read_text()))
    assert not fills & {"#f3e3c3", "#d9ead3", "#cfe2f3", "#f4cccc"}


def test_geojson_output_validates(tmp_path) -> None:
    out = tmp_path / "map.geojson"
    board(tmp_path, "--seed", "5", "--countries", "9", "-o", str(out))
    result = CliRunner().invoke(cli, ["validate", "layout", str(out)], standalone_mode=False)
    assert result.return_value == 0 and "valid mapgame layout with 9 spaces" in result.output


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_blank_sheet(tmp_path, paper) -> None:
    out = tmp_path / "blank.pdf"
    board(tmp_path, "--blank", "--paper", paper, "-o", str(out))
    with pdfplumber.open(out) as pdf:
        assert len(pdf.pages) == 1
        page = pdf.pages[0]
        text = " ".join(page.extract_text().split())
        assert "draw ONE arc" in text and "at most four countries" in text
        assert "more countries wins" in text
        circles = [
            c for c in page.curves if abs((c["x1"] - c["x0"]) * PT - 2 * 1.3 * (coin("nickel").radius_mm + 1.0)) < 0.3
        ]
        assert len(circles) == 1, "the circle, country 1, sized for the coins"


@pytest.mark.parametrize(
    "args, words",
    [
        (["--countries", "20"], "countries 20"),
        (["--coin", "pebble"], "unknown coin 'pebble'"),
        (["--max-neighbours", "0"], "--max-neighbours 0 is out of range; use 1 to 8"),
    ],
)
def test_bad_options(tmp_path, args, words) -> None:
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-m", "coinprint", "board", "mapgame", *args, "-o", str(tmp_path / "x.pdf")],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and words in run.stderr
    assert not (tmp_path / "x.pdf").exists()


def test_rule_sheet_and_kit(tmp_path) -> None:
    runner = CliRunner()
    rules_pdf, kit_pdf = tmp_path / "rules.pdf", tmp_path / "kit.pdf"
    assert runner.invoke(cli, ["rules", "mapgame", "-o", str(rules_pdf)]).exit_code == 0
    assert runner.invoke(cli, ["kit", "mapgame", "-o", str(kit_pdf)]).exit_code == 0
    text = pdf_reading_text(rules_pdf)
    with pdfplumber.open(rules_pdf) as pdf:
        last = pdf.pages[-1].extract_text()
    assert "at most four countries" in text and "move 12 send 3" not in text
    assert not re.search(r"coinprint (?!\d)", text)  # no command; the version on a board page is fine
    assert "The blank sheet with the circle in the middle (page 2)" in text
    assert "ONE arc" in last, "the blank sheet follows the rule sheet"
    with pdfplumber.open(kit_pdf) as pdf:
        pages = len(pdf.pages)
        words = {w["text"] for w in pdf.pages[-1].extract_words()}
    with pdfplumber.open(rules_pdf) as pdf:
        assert pages == len(pdf.pages) + 1, "the kit adds the ready-made map on one page"
    assert {str(k) for k in range(1, 22)} <= words


def test_rule_sheet_example_is_replayed_by_the_engine() -> None:
    from coinprint.errors import CoinprintError
    from coinprint.kit.rulesheet import example_position
    from coinprint.registry import GAMES

    game = GAMES["mapgame"]
    example_position(game, {"layout": "mapgame:countries=9,seed=2", "moves": ["move 6", "move 1", "move 1 send 5"]})
    with pytest.raises(CoinprintError, match="example move 1"):
        example_position(game, {"layout": "mapgame:countries=9,seed=2", "moves": ["move 2"]})


def test_a_hand_made_map_without_colours_gets_four_colours() -> None:
    from coinprint.games.mapgame.draw import map_sheet
    from coinprint.layout import from_geojson
    from coinprint.render.scene import Path

    features = []
    for k in range(1, 6):
        ring = [[30 * (k - 1), 0], [30 * k, 0], [30 * k, 30], [30 * (k - 1), 30], [30 * (k - 1), 0]]
        features.append(
            {
                "type": "Feature",
                "id": f"c{k}",
                "geometry": {"type": "Polygon", "coordinates": [ring]},
                "properties": {"role": "space", "label": str(k), "order": k},
            }
        )
    layout = from_geojson({"type": "FeatureCollection", "coinprint": {"game": "mapgame"}, "features": features})
    fills = [item.style.fill for item in map_sheet(layout).content.items if isinstance(item, Path)][:5]
    assert all(fills) and all(a != b for a, b in zip(fills, fills[1:])), "neighbours in a row never share a colour"
