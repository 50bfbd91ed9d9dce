"""Print-and-play kits: one PDF per game, rule sheet first, then the board at true size."""

from pathlib import Path

import pdfplumber
import pytest

from coinprint.registry import GAMES
from tests.conftest import MM_PER_PT, hexagon_flat_to_flat, pdf_polygons


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    from tests.conftest import run_cli

    folder = tmp_path_factory.mktemp("kits")
    result = run_cli("kit", "all", "-o", str(folder))
    assert result.code == 0, result.err
    return folder, result


def test_kit_all_writes_one_pdf_per_game(kits):
    folder, result = kits
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted(f"{game}-kit-a4-en.pdf" for game in GAMES.names())
    assert result.out.count("wrote ") == len(GAMES)


@pytest.mark.parametrize("game, title", [(game.name, game.title) for game in GAMES])
def test_each_kit_starts_with_the_rules_and_ends_with_the_board(kits, game, title):
    folder, _ = kits
    with pdfplumber.open(folder / f"{game}-kit-a4-en.pdf") as pdf:
        first = pdf.pages[0].extract_text()
        last = pdf.pages[-1].extract_text().replace("\n", " ")
        assert title in first and "print at 100%" not in first.replace("\n", " ")  # the rule sheet
        assert "Print at 100 % (actual size)" in last  # a board page
        for page in pdf.pages:  # every page is A4
            assert (round(float(page.width) * MM_PER_PT, 1), round(float(page.height) * MM_PER_PT, 1)) in (
                (210.0, 297.0),
                (297.0, 210.0),
            )


def test_the_kit_board_is_true_size(kits):
    folder, _ = kits
    hexes = [s for page in pdf_polygons(folder / "cointable-kit-a4-en.pdf") for s in page if len(s) == 7]
    # The rule sheet's diagrams are scaled; the board's 61 cells (on both tiles) measure 31.75 mm.
    true_size = [s for s in hexes if hexagon_flat_to_flat(s) == pytest.approx(31.75, abs=0.01)]
    assert len(true_size) >= 61 * 2


def test_kits_are_byte_identical_run_to_run(kits, tmp_path, cli):
    folder, _ = kits
    assert cli("kit", "all", "-o", str(tmp_path)).code == 0
    for made in folder.iterdir():
        assert (tmp_path / made.name).read_bytes() == made.read_bytes(), made.name


@pytest.mark.parametrize("command", [["kit", "flick"], ["kit", "all"], ["rules", "cointable"], ["rules", "mapgame"]])
def test_an_unknown_language_is_refused_everywhere(tmp_path, cli, command):
    result = cli(*command, "--lang", "de", "-o", str(tmp_path) + "/")
    assert result.code == 2 and "language 'de'; use one of: en, sv" in result.err
    assert list(tmp_path.iterdir()) == []


def test_kit_errors(tmp_path, cli):
    result = cli("kit", "chess")
    assert result.code == 2 and "'chess' is not one of" in result.err
    result = cli("kit", "all", "-o", str(tmp_path / "all.pdf"))
    assert result.code == 2 and "give a folder" in result.err
    result = cli("kit", "cointable", "--paper", "b9")
    assert result.code == 2 and "unknown paper 'b9'" in result.err


def test_a_kit_takes_its_games_layout_options(tmp_path, cli):
    target = tmp_path / "small.pdf"
    result = cli("kit", "cointable", "--size", "3", "-o", str(target))
    assert result.code == 0, result.err
    pages = pdf_polygons(target)
    board = [s for s in pages[-1] if len(s) == 7 and hexagon_flat_to_flat(s) == pytest.approx(31.75, abs=0.01)]
    assert len(board) == 19  # a side of 3 hexes: 19 cells, not the standard 61
    with pdfplumber.open(target) as pdf:
        # The rule sheet's contents describe the board printed.
        assert "19 hexes, 3 along each side" in pdf.pages[0].extract_text().replace("\n", " ")


def test_kit_help_lists_a_games_options_only_for_that_game(cli):
    assert "--size" not in cli("kit", "--help").out
    own = cli("kit", "cointable", "--help").out
    assert "--size INT" in own and "--blank" not in cli("kit", "mapgame", "--help").out


@pytest.mark.parametrize(
    "args, says",
    [
        (["kit", "cointable", "--size", "99"], "--size 99 is out of range; use 2 to 13"),
        (["kit", "cointable", "--countries", "9"], "No such option '--countries'"),
        (["kit", "mapgame", "--blank"], "No such option '--blank'"),
        (["kit", "all", "--size", "3"], "kit all prints each game's standard kit; --size is Coin Table's"),
    ],
)
def test_a_bad_kit_option_is_one_line(tmp_path, cli, args, says):
    result = cli(*args, "-o", str(tmp_path) + "/")
    assert result.code == 2 and says in result.err
    assert len(result.err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_a_drawn_kit_takes_no_layout_options(tmp_path, cli):
    card = Path(__file__).resolve().parent.parent / "examples" / "coinage-card.svg"
    result = cli("kit", "coinage", "--layout", str(card), "--seed", "3", "-o", str(tmp_path) + "/")
    assert result.code == 2 and "--layout prints the file as it is drawn; leave out --seed" in result.err
    assert list(tmp_path.iterdir()) == []


def _typesettings_per_kit(monkeypatch, game_name: str) -> int:
    """How many times ``game_name``'s A4 kit sets its rule sheet on pages (a spy on the one
    typesetting function every rule sheet goes through)."""
    import coinprint.render.document as document
    from coinprint.kit.kit import kit
    from coinprint.printing import PrintSettings
    from coinprint.units import paper_size

    calls = []
    real = document.layout_document

    def spy(*args, **kwargs):
        calls.append(kwargs.get("title"))
        return real(*args, **kwargs)

    monkeypatch.setattr(document, "layout_document", spy)
    kit(GAMES[game_name], PrintSettings.checked(paper_size("a4")), "en")
    return len(calls)


def test_page_numbers_are_filled_in_after_the_setting_and_read_as_set(tmp_path):
    """The kit's contents name its pages as fields filled in once the sheet is set: the PDF
    says where the board is, in the words a sheet set directly with those numbers has."""
    from coinprint.kit.kit import kit_pdf
    from coinprint.printing import PrintSettings
    from coinprint.render.document import FIELD
    from coinprint.units import paper_size

    path = tmp_path / "kit.pdf"
    path.write_bytes(kit_pdf(GAMES["coinage"], PrintSettings.checked(paper_size("a4")), "en"))
    with pdfplumber.open(path) as pdf:
        text = "\n".join(page.extract_text() for page in pdf.pages)
        pages = len(pdf.pages)
    # The rule sheet takes two pages; the card is the third and last.
    assert pages == 3 and "Page 3: Coin Age map card" in text, text[:400]
    assert not FIELD.search(text) and not any("\ue000" <= ch <= "\ue8ff" for ch in text)


ONE_SETTING = {"coinage", "mapgame", "flick"}
"""The A4 kits whose player aid ends the rule sheet: the sheet set with its aid tells how long
it would be without (its body is set the same), so it is set once. Coin Table's aid would cost
the sheet a page and goes beside the board: only a setting with the aid shows that, and the
sheet is then set without it, twice in all."""


@pytest.mark.parametrize("game", GAMES.names())
def test_a_kit_sets_its_rule_sheet_once_or_twice_where_its_aid_goes_beside_the_board(monkeypatch, game):
    assert _typesettings_per_kit(monkeypatch, game) == (1 if game in ONE_SETTING else 2)


def test_page_numbers_of_one_width_set_a_sheet_alike():
    # Digits are as wide as each other in the sheets' fonts; a longer number or another word
    # changes the setting.
    from coinprint.render.document import same_measure

    assert same_measure("pages 3–4: the board", "pages 5–6: the board")
    assert not same_measure("page 9", "page 10")
    assert not same_measure("page 4", "pages 4–5")
    assert not same_measure("page 4", "sida 4")


@pytest.mark.parametrize("first,final", [("2–3", "5–6"), ("7", "8"), ("12", "19")])
def test_a_sheet_set_with_a_field_and_filled_is_the_sheet_set_with_its_words(first, final):
    """Setting with page numbers as fields and filling them in afterwards gives the very pages
    a setting with the final numbers gives (the numbers are as wide as each other)."""
    from coinprint.render.document import Paragraph, field, fill_fields, layout_document
    from coinprint.units import paper_size

    words = "A long paragraph that wraps over several lines of a column, " * 30

    def sheet(number: str) -> list:
        blocks = [Paragraph(words + f"then pages {number}: the board, " + words)]
        return layout_document(blocks, paper_size("a5"), title="Test")

    marked = layout_document(
        [Paragraph(words + f"then pages {field(0, first)}: the board, " + words)], paper_size("a5"), title="Test"
    )
    assert fill_fields(marked, [final]) == sheet(final)
    assert fill_fields(marked, [first]) == sheet(first)
