"""Coin Age from the command line, as a new user would try it: cards measured back from the
PDF and SVG, random cards, the rule sheets, self-play records that validate, bad input."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pdfplumber
import pytest
import shapely
from click.testing import CliRunner

from coinprint.cli import cli
from tests.conftest import pdf_reading_text

PT_MM = 25.4 / 72
QUARTER_RADIUS = 24.26 / 2


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), standalone_mode=False, catch_exceptions=True)
    code = result.exit_code if result.return_value is None else result.return_value
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        code = getattr(result.exception, "exit_code", 99)
        return code, str(result.exception)
    return code, result.output


def pdf_spaces_and_card(path) -> tuple[list[shapely.Polygon], tuple[float, float]]:
    """The filled coloured shapes (the spaces) and the white card rectangle on page 1, in mm."""
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        height = float(page.height)
        spaces = []
        for curve in page.curves:
            colour = curve.get("non_stroking_color")
            if (
                curve.get("fill")
                and colour
                and len(colour) == 3
                and colour not in ((1, 1, 1), (0, 0, 0))
                and len(curve["pts"]) > 8
            ):
                spaces.append(shapely.Polygon([(x * PT_MM, (height - y) * PT_MM) for x, y in curve["pts"]]))
        cards = [r for r in page.rects if r.get("fill") and tuple(r.get("non_stroking_color") or ()) == (1, 1, 1)]
        card = cards[0]
        return spaces, ((card["x1"] - card["x0"]) * PT_MM, (card["bottom"] - card["top"]) * PT_MM)


def test_classic_card_pdf_measures_true_size_and_a_quarter_fits(tmp_path):
    out = tmp_path / "classic.pdf"
    code, text = run("board", "coinage", "--map", "classic", "--copies", "1", "-o", str(out))
    assert code == 0, text
    spaces, card = pdf_spaces_and_card(out)
    assert card == pytest.approx((148.0, 105.0), abs=0.05)
    assert len(spaces) == 10
    for polygon in spaces:
        radius = shapely.maximum_inscribed_circle(polygon.buffer(0), tolerance=0.02).length
        assert radius >= QUARTER_RADIUS + 0.5


def test_random_card_pdf_a_quarter_fits(tmp_path):
    out = tmp_path / "random.pdf"
    code, text = run(
        "board", "coinage", "--map", "random", "--regions", "3,3,2,2", "--seed", "5", "--copies", "1", "-o", str(out)
    )
    assert code == 0, text
    assert "seed 5" in text
    spaces, _ = pdf_spaces_and_card(out)
    assert len(spaces) == 10
    assert all(
        shapely.maximum_inscribed_circle(p.buffer(0), tolerance=0.02).length >= QUARTER_RADIUS + 0.5 for p in spaces
    )


def test_a_page_holds_several_cards_with_cut_lines(tmp_path):
    out = tmp_path / "cards.pdf"
    code, _ = run("board", "coinage", "--map", "steps", "--paper", "a4", "-o", str(out))
    assert code == 0
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[0]
        cards = [r for r in page.rects if tuple(r.get("non_stroking_color") or ()) == (1, 1, 1)]
        assert len(cards) == 2
        dashed = [c for c in page.curves + page.lines + page.rects if c.get("dash") and c["dash"][0]]
        assert len(dashed) >= 5  # 2 vertical + 3 horizontal cut lines


def test_svg_card_is_true_size(tmp_path):
    out = tmp_path / "card.svg"
    code, _ = run("board", "coinage", "--map", "patchwork", "-o", str(out))
    assert code == 0
    root = ET.parse(out).getroot()
    width = float(root.get("width").removesuffix("mm"))
    assert root.get("viewBox").split()[2] == f"{width:g}"
    # the card outline: a white rectangle path 148 × 105 user units (= mm)
    ns = "{http://www.w3.org/2000/svg}"
    found = []
    for path in root.iter(f"{ns}path"):
        if path.get("fill") == "#ffffff":
            xs, ys = zip(*[tuple(map(float, p.split(","))) for p in re.findall(r"[-\d.]+,[-\d.]+", path.get("d"))])
            found.append((max(xs) - min(xs), max(ys) - min(ys)))
    assert (148.0, 105.0) in [(round(w, 2), round(h, 2)) for w, h in found]


def test_geojson_output_validates(tmp_path):
    out = tmp_path / "map.geojson"
    code, _ = run("board", "coinage", "--map", "random", "--regions", "4-3-2-1", "--seed", "8", "-o", str(out))
    assert code == 0
    code, text = run("validate", "layout", str(out))
    assert code == 0 and "valid coinage layout with 10 spaces" in text and "region sizes" in text


def test_small_card_warns_but_succeeds(tmp_path):
    out = tmp_path / "credit.geojson"
    code, _ = run("board", "coinage", "--card", "credit", "-o", str(out))
    assert code == 0
    code, text = run("validate", "layout", str(out))
    assert code == 0 and "warning" in text and "overhang" in text


def test_same_seed_gives_byte_identical_files(tmp_path):
    for name in ("a", "b"):
        for ext in ("pdf", "svg", "geojson"):
            run(
                "board",
                "coinage",
                "--map",
                "random",
                "--regions",
                "5,3,2",
                "--seed",
                "2",
                "-o",
                str(tmp_path / f"{name}.{ext}"),
            )
    for ext in ("pdf", "svg", "geojson"):
        assert (tmp_path / f"a.{ext}").read_bytes() == (tmp_path / f"b.{ext}").read_bytes()


@pytest.mark.parametrize(
    "args, words",
    [
        (("--map", "random", "--regions", "1,1"), "6 to 20"),
        (("--map", "classic", "--regions", "4,3,2,1"), "for the random map"),
        (("--card", "tiny"), "unknown card"),
        (("--map", "atlantis"), "is not one of"),
    ],
)
def test_bad_board_options_are_usage_errors(tmp_path, args, words):
    code, text = run("board", "coinage", *args, "-o", str(tmp_path / "x.pdf"))
    assert code == 2 and words in text
    assert not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize("lang, words", [("en", "Your turn"), ("sv", "Din tur")])
def test_rule_sheets(tmp_path, lang, words):
    out = tmp_path / f"rules-{lang}.pdf"
    code, _ = run("rules", "coinage", "--lang", lang, "-o", str(out))
    assert code == 0
    with pdfplumber.open(out) as pdf:
        assert 1 <= len(pdf.pages) <= 2
    text = pdf_reading_text(out)
    assert words in text
    assert "penny < nickel < quarter" in text
    assert "throw Q+" not in text  # the record notation is for computers: --appendix
    appendix = tmp_path / f"appendix-{lang}.pdf"
    assert run("rules", "coinage", "--lang", lang, "--appendix", "-o", str(appendix))[0] == 0
    assert "throw Q+ N- P+ D+; place P b2; place D a1" in pdf_reading_text(appendix)


def test_rule_sheet_unknown_language(tmp_path):
    code, text = run("rules", "coinage", "--lang", "xx", "-o", str(tmp_path / "r.pdf"))
    assert code == 2 and "use one of: en, sv" in text


def test_play_writes_records_that_validate(tmp_path):
    code, text = run(
        "play",
        "coinage",
        "--games",
        "5",
        "--map",
        "random",
        "--regions",
        "3,3,2,2",
        "--map-seed",
        "5",
        "-o",
        str(tmp_path),
    )
    assert code == 0, text
    assert "coinage:map=random,regions=3-3-2-2,seed=5" in text
    records = sorted(tmp_path.glob("coinage-*.json"))
    assert len(records) == 5
    for record in records:
        code, report = run("validate", "game", str(record))
        assert code == 0 and "valid:" in report
    doc = json.loads(records[0].read_text())
    doc["moves"][0] = "throw Q+ N+ P+ D+; place D a1; place D a2"
    records[0].write_text(json.dumps(doc))
    code, report = run("validate", "game", str(records[0]))
    assert code == 1 and "move 1 (heads)" in report and "already been used" in report
