"""Sheets a print-and-play fan would keep, measured from the PDFs: type sizes, line lengths,
embedded fonts, page boxes, how boards and cards go on paper, where registration marks sit,
and the Swedish texts."""

from __future__ import annotations

import math

import pytest

from coinprint.registry import GAMES
from tests.conftest import MM_PER_PT, games_written_in, pdf_polygons, pdf_reading_text, pdf_text_runs

PAPERS = ("a4", "letter", "a3", "a5")


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    """Every kit on every paper (and Swedish on A4): {(paper, lang): folder} (a game without
    Swedish texts is printed in English there, and read in English only)."""
    from tests.conftest import run_cli

    made = {}
    for paper, lang in [*((p, "en") for p in PAPERS), ("a4", "sv")]:
        folder = tmp_path_factory.mktemp(f"{paper}-{lang}")
        assert run_cli("kit", "all", "--paper", paper, "--lang", lang, "-o", str(folder)).code == 0
        made[(paper, lang)] = folder
    return made


_RUNS: dict = {}


def rule_pages(path) -> int:
    """How many pages the rule sheet takes: the pages whose last text is a rule-sheet footer
    ("… — page 2 of 3"; a board page's "page 1 of 2 (row 1, column 1) …" does not count)."""
    import re

    footer = re.compile(r"— (page|sida) \d+ (of|av) \d+$")
    count = 0
    for page in rule_runs(path):
        count += bool(page and footer.search(page[-1]["text"]))
    return count


def rule_runs(path) -> list[list[dict]]:
    """The text runs of the rule-sheet pages of a kit (parsed once per file). The rule sheet
    is at most six pages; the board pages after it are left unparsed (they are slow)."""
    if path not in _RUNS:
        import re

        footer = re.compile(r"— (page|sida) \d+ (of|av) \d+$")
        pages = []
        for page in pdf_text_runs(path, slice(0, 6)):
            if not (page and footer.search(page[-1]["text"])):
                break
            pages.append(page)
        _RUNS[path] = pages
    return _RUNS[path]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES.names())
def test_rule_sheets_are_legible(kits, game, paper):
    """Every text at least 6 pt; every line of text (more than 15 characters) at least 9 pt
    and at most 80 characters long."""
    path = kits[(paper, "en")] / f"{game}-kit-{paper}-en.pdf"
    runs = rule_runs(path)
    assert len(runs) >= 1
    for page in runs:
        for run in page:
            assert run["size"] >= 6.0 - 1e-6, run
            if len(run["text"]) > 15:
                assert run["size"] >= 9.0 - 1e-6, run
            assert len(run["text"]) <= 80, run


@pytest.mark.parametrize("paper", PAPERS)
def test_no_rule_page_but_the_last_is_less_than_half_full(kits, paper):
    """On every rule page but the last, text reaches below the middle of the page in every
    column (the footer aside)."""
    height = {"a4": 297.0, "letter": 279.4, "a3": 420.0, "a5": 210.0}[paper] / MM_PER_PT
    for game in GAMES.names():
        pages = rule_runs(kits[(paper, "en")] / f"{game}-kit-{paper}-en.pdf")
        for number, page in enumerate(pages[:-1], start=1):
            body = page[:-1]  # the footer is the last run
            columns: dict[int, float] = {}
            for run in body:
                column = round(run["x0"] / 40)
                columns[column] = max(columns.get(column, 0.0), run["top"])
            lowest = max(columns.values())
            assert lowest > height / 2, (game, number)


def test_wide_pages_get_columns_not_longer_lines(kits):
    """The same sheet's longest lines are no longer on A3 than on A4: A3 gets more columns."""

    def longest(paper):
        return max(
            len(r["text"]) for page in rule_runs(kits[(paper, "en")] / f"cointable-kit-{paper}-en.pdf") for r in page
        )

    assert longest("a3") <= longest("a4") + 10
    lefts = {
        round(r["x0"]) for r in rule_runs(kits[("a3", "en")] / "cointable-kit-a3-en.pdf")[0] if len(r["text"]) > 30
    }
    assert len({x // 50 for x in lefts}) >= 3  # three columns on A3


@pytest.mark.parametrize("game", GAMES.names())
def test_fonts_are_embedded_and_every_page_has_a_trimbox(kits, game):
    from pypdf import PdfReader

    reader = PdfReader(kits[("a4", "en")] / f"{game}-kit-a4-en.pdf")
    for page in reader.pages:
        assert "/TrimBox" in page
        trim = [float(v) for v in page["/TrimBox"]]
        media = [float(v) for v in page.mediabox]
        assert media[0] <= trim[0] < trim[2] <= media[2] and media[1] <= trim[1] < trim[3] <= media[3]
        fonts = page["/Resources"]["/Font"]
        for font in fonts.values():
            font = font.get_object()
            descriptor = (
                font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
                if "/DescendantFonts" in font
                else font["/FontDescriptor"]
            )
            descriptor = descriptor.get_object()
            assert any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3")), font["/BaseFont"]


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_every_character_printed_is_in_the_font(lang):
    """Walk every text of every kit page (before it is drawn) and ask the font for it."""
    from coinprint.kit.kit import kit
    from coinprint.printing import PrintSettings
    from coinprint.render.pdf import missing_glyphs
    from coinprint.render.scene import Group, Text
    from coinprint.units import paper_size

    def texts(items):
        for item in items:
            if isinstance(item, Text):
                yield item
            elif isinstance(item, Group):
                yield from texts(item.items)

    settings = PrintSettings.checked(paper_size("a4"))
    for game in GAMES.names():
        for page in kit(GAMES[game], settings, lang).pages:
            for text in texts(page.items):
                assert not missing_glyphs(text.text, text.bold), (game, text.text)


def _rects(path, first: int) -> list[list[tuple[float, float]]]:
    """The sizes (mm, width and height) of the rectangles drawn on each page from ``first``."""
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        return [
            [(round(r["width"] * MM_PER_PT, 2), round(r["height"] * MM_PER_PT, 2)) for r in page.rects]
            for page in pdf.pages[first:]
        ]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_two_coin_age_cards_on_one_page(kits, paper):
    path = kits[(paper, "en")] / f"coinage-kit-{paper}-en.pdf"
    pages = _rects(path, rule_pages(path))
    assert len(pages) == 1, "the cards take one page"
    assert sum(1 for w, h in pages[0] if sorted((w, h)) == pytest.approx([105.0, 148.0], abs=0.05)) == 2


def test_an_a6_card_is_never_split_on_a5(kits):
    """Each card page shows whole cards (its window is the page less the margins)."""
    path = kits[("a5", "en")] / "coinage-kit-a5-en.pdf"
    pages = _rects(path, rule_pages(path))
    cards = [sum(1 for w, h in page if sorted((w, h)) == pytest.approx([105.0, 148.0], abs=0.05)) for page in pages]
    assert cards[0] >= 1 and len(pages) <= 2  # one card on the page (and the info page)


@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
def test_the_flick_mat_goes_on_one_page(kits, paper):
    """The goal (a 150 mm square between the goal coins) is drawn on a single page."""
    path = kits[(paper, "en")] / f"flick-kit-{paper}-en.pdf"
    pages = _rects(path, rule_pages(path))
    goals = [page for page in pages if (150.0, 150.0) in page]
    assert len(goals) == 1


# Not Flick: its mat turns the words along its sides to face the players sitting there.
@pytest.mark.parametrize("game", [name for name in GAMES.names() if name != "flick"])
def test_board_pages_have_no_turned_text_and_say_print_at_100(kits, game):
    import pdfplumber

    path = kits[("a4", "en")] / f"{game}-kit-a4-en.pdf"
    count = rule_pages(path)
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages[count:]:
            text = page.extract_text().replace("\n", " ")
            assert "Print at 100 % (actual size)" in text
            # The page's own words (the print note, the info block, the rulers) stand upright;
            # only a board turned to fit the paper turns its own labels with it.
            words = [w for w in page.extract_words(extra_attrs=["size", "upright"]) if w["size"] > 6.4]
            assert words and all(w["upright"] for w in words if w["size"] >= 8.4 or w["text"] in ("Print", "check:"))
            note = [w for w in words if w["text"] == "Print"][0]
            assert note["size"] >= 9.0 - 1e-6


@pytest.mark.parametrize("paper", ["a4", "letter", "a5"])
def test_registration_marks_are_never_on_a_playing_cell(tmp_path, cli, paper):
    import pdfplumber
    import shapely

    out = tmp_path / "board.pdf"
    assert cli("board", "cointable", "--paper", paper, "-o", str(out)).code == 0
    polygons = pdf_polygons(out)
    checked = 0
    with pdfplumber.open(out) as pdf:
        for page, shapes in zip(pdf.pages, polygons):
            height = float(page.height) * MM_PER_PT
            cells = shapely.union_all([shapely.Polygon(s) for s in shapes if len(s) == 7])
            window = shapely.box(10, 10, float(page.width) * MM_PER_PT - 10, height - 10)
            printed = cells.intersection(window)
            for curve in page.curves:
                w = (curve["x1"] - curve["x0"]) * MM_PER_PT
                if any(op[0] == "c" for op in curve.get("path", [])) and abs(w - 3.6) < 0.05:
                    centre = shapely.Point(
                        (curve["x0"] + curve["x1"]) / 2 * MM_PER_PT, (curve["top"] + curve["bottom"]) / 2 * MM_PER_PT
                    )
                    assert not printed.intersects(centre.buffer(3.5)), (page.page_number, centre)
                    checked += 1
    assert checked >= 2


def test_tiled_pages_show_where_they_go(tmp_path, cli):
    """A small grid in the top margin: one cell per page, this page's filled."""
    import pdfplumber

    out = tmp_path / "board.pdf"
    assert cli("board", "cointable", "--paper", "a5", "-o", str(out)).code == 0
    with pdfplumber.open(out) as pdf:
        tiles = [p for p in pdf.pages if "row" in (p.extract_text() or "")]
        for page in tiles:
            grid = [r for r in page.rects if r["top"] * MM_PER_PT < 10 and r["x0"] * MM_PER_PT > 100]
            assert len(grid) == len(tiles)
            assert sum(1 for r in grid if r["fill"]) == 1


@pytest.mark.parametrize("paper", ["60x60mm", "100x100mm"])
def test_tiny_paper_is_refused_with_the_minimum_named(cli, tmp_path, paper):
    for command in (["board", "flick"], ["board", "cointable"], ["kit", "coinage"]):
        result = cli(*command, "--paper", paper, "-o", str(tmp_path) + "/")
        assert result.code == 2 and "use at least 126 × 126 mm" in result.err, result.err
    assert list(tmp_path.iterdir()) == []


def test_huge_paper_works(cli, tmp_path):
    out = tmp_path / "mat.pdf"
    assert cli("board", "flick", "--paper", "10000x10000mm", "-o", str(out)).code == 0
    from pypdf import PdfReader

    assert len(PdfReader(out).pages) == 1


def _lab(colour: str) -> tuple[float, float, float]:
    def linear(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(colour[i : i + 2], 16)) for i in (1, 3, 5))
    x, y, z = (
        (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.9505,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.089,
    )
    f = [t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116 for t in (x, y, z)]
    return (116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2]))


def test_palette_colours_differ():
    # The fills are dark so coins stand out on them (tests/test_print_colour.py); they
    # stay apart by hue: at least 15 apart in CIELAB.
    from coinprint.render.style import palette

    for fills in (palette("color").space_fill, palette("color").region_fill):
        assert len(fills) >= 4  # every board colours its spaces with at most four numbers
        labs = [_lab(c) for c in fills]
        assert all(math.dist(a, b) >= 15 for k, a in enumerate(labs) for b in labs[k + 1 :]), fills
    assert palette("ink-saver").fill(0) is None


@pytest.mark.parametrize("game", games_written_in("sv"))
def test_swedish_kits_are_swedish(kits, game):
    path = kits[("a4", "sv")] / f"{game}-kit-a4-sv.pdf"
    text = pdf_reading_text(path)
    assert " sida 1 av " in text
    assert "Skriv ut i 100 %" in text
    assert " the " not in text.replace("{", "")


def test_rule_sheet_content(tmp_path, cli):
    out = tmp_path / "ct.pdf"
    assert cli("rules", "cointable", "--size", "8", "-o", str(out)).code == 0
    text = " ".join(pdf_reading_text(out).split())
    assert "169 hexes, 8 along each side" in text and "61" not in text and "coinprint" not in text
    assert "Tails could not flip b2 back" in text and "no castle on that triangle yet" in text
    assert "a touch is a real move" in text
    out = tmp_path / "flick.pdf"
    assert cli("rules", "flick", "-o", str(out)).code == 0
    text = " ".join(pdf_reading_text(out).split())
    assert "Touch a goal coin" not in text and "If a goal coin moves during your turn" in text
    assert "Then your opponent plays" not in text and "in a team game the next player" in text


def test_bleed_adds_a_bleedbox_and_crop_marks(tmp_path, cli):
    import pdfplumber
    from pypdf import PdfReader

    out = tmp_path / "cards.pdf"
    assert cli("board", "coinage", "--bleed", "3mm", "-o", str(out)).code == 0
    page = PdfReader(out).pages[0]
    trim = [float(v) * MM_PER_PT for v in page["/TrimBox"]]
    bleed = [float(v) * MM_PER_PT for v in page["/BleedBox"]]
    assert [b - t for b, t in zip(bleed, trim)] == pytest.approx([-3.0, -3.0, 3.0, 3.0], abs=0.01)
    assert trim[2] - trim[0] == pytest.approx(148.0, abs=0.01)  # two A6 cards, one above the other
    assert trim[3] - trim[1] == pytest.approx(2 * 105.0 + 2 * 3.0, abs=0.01)
    with pdfplumber.open(out) as pdf:
        height = float(pdf.pages[0].height) * MM_PER_PT
        lines = [
            (ln["x0"] * MM_PER_PT, height - ln["bottom"] * MM_PER_PT, ln["x1"] * MM_PER_PT) for ln in pdf.pages[0].lines
        ]
    # Crop marks: short vertical lines below the cards at both trim edges, outside the bleed.
    below = [x for x, y, x1 in lines if abs(x - x1) < 0.01 and y < trim[1] - 3.0]
    assert any(abs(x - trim[0]) < 0.05 for x in below) and any(abs(x - trim[2]) < 0.05 for x in below)
    done = cli("board", "coinage", "--bleed", "20mm", "-o", str(tmp_path / "x.pdf"))
    assert done.code == 2 and "use 0 to 6 mm" in done.err


@pytest.mark.parametrize("paper", ["a4", "a5", "letter"])
def test_trim_lines_follow_cell_edges(paper):
    """Each dashed trim line of a tiled Coin Table runs along the edges of cells, or where
    no cell is: a trimmed page never cuts through a cell it is meant to show."""
    import shapely

    from coinprint.games.cointable.board import build
    from coinprint.games.cointable.draw import board_sheet
    from coinprint.render.scene import Group, Path, apply
    from coinprint.render.tiling import paginate
    from coinprint.units import paper_size

    pages = paginate(board_sheet(build()), paper_size(paper))
    assert len(pages) > 1
    trims = 0
    for page in pages:
        content = next(item for item in page.items if isinstance(item, Group) and item.clip is not None)
        cells = [
            shapely.Polygon([apply(content.transform, p) for p in item.rings[0]])
            for item in content.items
            if isinstance(item, Path) and item.closed and len(item.rings[0]) == 7
        ]
        union = shapely.union_all(cells)
        edges = shapely.union_all([cell.boundary for cell in cells])
        for item in page.items:
            if isinstance(item, Path) and not item.closed and item.style.dash_mm == (2.0, 1.5):
                for a, b in zip(item.rings[0], item.rings[0][1:]):
                    middle = shapely.Point((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                    assert middle.distance(edges) < 0.05 or not union.buffer(-0.05).contains(middle)
                    trims += 1
    assert trims > 0
