"""The Coin Table rule sheet: `rules cointable` writes a PDF whose text (read back with
pdfplumber) states the rules and the notation, and whose example positions replay legally."""

from __future__ import annotations

import pdfplumber
import pytest

from coinprint.caps import MAX_SUPPLY
from coinprint.cli import main
from coinprint.errors import CoinprintError
from coinprint.kit.rulesheet import example_position
from coinprint.registry import GAMES
from coinprint.render.board import SIDE_COLOURS
from coinprint.render.document import load_template
from coinprint.render.scene import Circle
from tests.conftest import pdf_reading_text


def run(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exited:
        main(list(args))
    out = capsys.readouterr()
    return exited.value.code, out.out, out.err


def pdf_text(path) -> tuple[list[tuple[float, float]], str]:
    with pdfplumber.open(path) as pdf:
        sizes = [(round(p.width), round(p.height)) for p in pdf.pages]
    return sizes, " ".join(pdf_reading_text(path).split())


def test_rule_sheet_states_the_rules_and_the_notation(tmp_path, capsys):
    """The sheet states the rules on one A4 page; the notation and the commands are only on
    the "for computers" page that --appendix adds."""
    target = tmp_path / "rules.pdf"
    code, out, _ = run(capsys, "rules", "cointable", "-o", str(target))
    assert code == 0 and f"wrote {target}" in out
    sizes, text = pdf_text(target)
    assert sizes == [(595, 842)]  # one A4 page, in points
    for phrase in (
        "On your turn",
        "61 hexes, 5 along each side",
        "100 coins",
        "Heads moves first",
        "two of your coins must lie on spaces next to it",
        "after a castle no coin is safe",
    ):
        assert phrase in text, phrase
    notation = ("place e5", "touch e5", "flip d4", "castle d4 e4 e5", "e5 in the centre", "coinprint")
    assert not [phrase for phrase in notation if phrase in text]
    target = tmp_path / "appendix.pdf"
    code, _, _ = run(capsys, "rules", "cointable", "--appendix", "-o", str(target))
    sizes, text = pdf_text(target)
    assert code == 0 and len(sizes) == 2
    for phrase in (*notation, "coinprint validate game", "a1 at the bottom left"):
        assert phrase in text, phrase


def test_rule_sheet_follows_size_supply_and_paper(tmp_path, capsys):
    target = tmp_path / "small.pdf"
    code, _, _ = run(
        capsys, "rules", "cointable", "--size", "4", "--supply", "60", "--paper", "letter", "-o", str(target)
    )
    assert code == 0
    sizes, text = pdf_text(target)
    assert all(size == (612, 792) for size in sizes)
    assert "37 hexes, 4 along each side" in text and "60 coins" in text
    target = tmp_path / "small-appendix.pdf"
    run(capsys, "rules", "cointable", "--size", "4", "--appendix", "-o", str(target))
    _, text = pdf_text(target)
    assert "d4 in the centre" in text and "board cointable --size 4" in text


def test_rule_sheet_is_byte_identical_run_to_run(tmp_path, capsys):
    for name in ("a.pdf", "b.pdf"):
        run(capsys, "rules", "cointable", "-o", str(tmp_path / name))
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()


@pytest.mark.parametrize(
    "args, message",
    [
        (["-o", "rules.svg"], "format svg is not available here; use one of: pdf"),
        (["--size", "20"], "--size 20 is out of range; use 2 to 13"),
        (["--supply", "0"], f"--supply must be a whole number from 1 to {MAX_SUPPLY:,}, not 0"),
    ],
)
def test_rule_sheet_refuses_bad_options(tmp_path, capsys, args, message):
    code, _, err = run(
        capsys, "rules", "cointable", *[a if not a.endswith(".svg") else str(tmp_path / a) for a in args]
    )
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def coins(scene) -> list[Circle]:
    return [item for item in scene.items if isinstance(item, Circle) and item.style.fill in SIDE_COLOURS]


def test_example_positions_replay_and_show_their_coins():
    figures = load_template("cointable.en.json")["figures"]
    # flip: heads c3 b3, tails b2 → 3 coins; castle: heads c3 c2 d3, tails a1 e5 → 5 coins.
    assert len(coins(example_position(GAMES["cointable"], figures["flip"]))) == 3
    castle = example_position(GAMES["cointable"], figures["castle"])
    assert len(coins(castle)) == 5
    assert [c.style.fill for c in coins(castle)].count(SIDE_COLOURS[0]) == 3


def test_an_illegal_example_in_a_template_is_reported():
    spec = {"layout": "cointable:size=3", "moves": ["place c3", "flip c3"]}
    with pytest.raises(CoinprintError, match=r"example move 2 \(flip c3\) is not legal: c3 is safe"):
        example_position(GAMES["cointable"], spec)
