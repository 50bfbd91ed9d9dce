"""Tiling a board over pages: page counts and sizes, whole cells, tiles that line up."""

import re

import pdfplumber
import pytest

from coinprint.render.tiling import window_starts
from tests.conftest import MM_PER_PT, pdf_page_sizes, pdf_polygons

STANDARD_CELLS = 61


@pytest.mark.parametrize(
    "paper, pages, size",
    [
        ("a4", 2, (210.0, 297.0)),
        ("letter", 2, (215.9, 279.4)),
        ("a3", 1, (420.0, 297.0)),
        ("tabloid", 1, (431.8, 279.4)),
        ("a5", 6, None),
    ],
)
def test_standard_board_page_counts_and_sizes(tmp_path, cli, paper, pages, size):
    out = tmp_path / f"{paper}.pdf"
    assert cli("board", "cointable", "--paper", paper, "-o", str(out)).code == 0
    sizes = pdf_page_sizes(out)
    assert len(sizes) == pages
    if size:
        for width, height in sizes:  # the paper, either way up
            assert sorted((width, height)) == [pytest.approx(min(size), abs=0.01), pytest.approx(max(size), abs=0.01)]


def _cells_by_page(path, margin=10.0):
    """For each page: label → hexagon corners (mm, y down) of the cells drawn whole inside
    the printable window (the page less its margins)."""
    import shapely

    found = []
    with pdfplumber.open(path) as pdf:
        polygons = pdf_polygons(path)
        for page, shapes in zip(pdf.pages, polygons):
            width, height = float(page.width) * MM_PER_PT, float(page.height) * MM_PER_PT
            words = page.extract_words()
            whole = {}
            for shape in (s for s in shapes if len(s) == 7):
                xs, ys = [p[0] for p in shape], [p[1] for p in shape]
                if min(xs) < margin - 0.01 or max(xs) > width - margin + 0.01:
                    continue
                if min(ys) < margin - 0.01 or max(ys) > height - margin + 0.01:
                    continue
                cell = shapely.Polygon(shape)
                for word in words:
                    cx = (word["x0"] + word["x1"]) / 2 * MM_PER_PT
                    cy = (word["top"] + word["bottom"]) / 2 * MM_PER_PT
                    if (
                        cell.contains(shapely.Point(cx, cy))
                        and re.fullmatch(r"[a-z][0-9]{1,2}", word["text"])  # a cell's name
                    ):
                        whole[word["text"]] = shape
            found.append(whole)
    return found


@pytest.mark.parametrize("paper", ["a4", "letter", "a5", "a3"])
def test_every_cell_is_drawn_whole_on_some_page(tmp_path, cli, paper):
    out = tmp_path / "board.pdf"
    assert cli("board", "cointable", "--paper", paper, "-o", str(out)).code == 0
    pages = _cells_by_page(out)
    labels = set().union(*pages)
    assert len(labels) == STANDARD_CELLS


def _crosses(path):
    """Centres (mm, y down) of the alignment crosses' circles on each page."""
    found = []
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            centres = []
            for curve in page.curves:
                w, h = (curve["x1"] - curve["x0"]) * MM_PER_PT, (curve["bottom"] - curve["top"]) * MM_PER_PT
                if any(op[0] == "c" for op in curve.get("path", [])) and abs(w - 3.6) < 0.1 and abs(h - 3.6) < 0.1:
                    centres.append(
                        ((curve["x0"] + curve["x1"]) / 2 * MM_PER_PT, (curve["top"] + curve["bottom"]) / 2 * MM_PER_PT)
                    )
            found.append(centres)
    return found


def test_tiles_line_up_across_the_overlap(tmp_path, cli):
    out = tmp_path / "board.pdf"
    assert cli("board", "cointable", "--paper", "a4", "-o", str(out)).code == 0
    first, second = ([s for s in page if len(s) == 7] for page in pdf_polygons(out))
    # Both pages draw the whole board (clipped to the window), in the same order: one single
    # shift carries every corner of every cell on page 2 onto itself on page 1.
    assert len(first) == len(second) == STANDARD_CELLS
    shifts = {(round(a[0] - b[0], 2), round(a[1] - b[1], 2)) for s1, s2 in zip(first, second) for a, b in zip(s1, s2)}
    assert len(shifts) == 1
    ((dx, dy),) = shifts
    # One direction only, and the windows (at most 277 mm) overlap by at least 10 mm.
    assert (dy == 0.0 and 0 < abs(dx) <= 277 - 10) or (dx == 0.0 and 0 < abs(dy) <= 277 - 10)
    # The alignment crosses mark the same spots of the board on both pages.
    crosses_1, crosses_2 = _crosses(out)
    assert len(crosses_1) == len(crosses_2) >= 2
    moved = sorted((round(x + dx, 2), round(y + dy, 2)) for x, y in crosses_2)
    assert moved == sorted((round(x, 2), round(y, 2)) for x, y in crosses_1)


def test_every_page_has_the_print_note_and_some_page_the_ruler(tmp_path, cli):
    out = tmp_path / "board.pdf"
    assert cli("board", "cointable", "--paper", "a5", "-o", str(out)).code == 0
    rulers = 0
    with pdfplumber.open(out) as pdf:
        count = len(pdf.pages)
        assert count in (6, 7)  # six tiles, and the info page when no tile has room for it
        for number, page in enumerate(pdf.pages, start=1):
            text = page.extract_text()
            assert "Print at 100 % (actual size)" in text.replace("\n", " ")
            note = [c for c in page.chars if c["text"] == "P"][0]
            assert note["size"] >= 9.0 - 1e-6
            if number <= 6:
                assert f"page {number} of {count}" in text
                assert "row" in text and "column" in text
            # The two ruler bars: filled bars 1.2 mm thick, 100 mm and 4 in long (either way up).
            lengths = []
            for shape in page.rects + page.curves:
                w, h = (shape["x1"] - shape["x0"]) * MM_PER_PT, (shape["bottom"] - shape["top"]) * MM_PER_PT
                if shape.get("fill") and min(w, h) == pytest.approx(1.2, abs=0.01):
                    lengths.append(round(max(w, h), 2))
            rulers += sorted(lengths) == [100.0, 101.6]
    assert rulers >= 1


def test_pdf_asks_viewers_not_to_scale_and_keeps_page_boxes(tmp_path, cli):
    out = tmp_path / "board.pdf"
    assert cli("board", "cointable", "-o", str(out)).code == 0
    data = out.read_bytes()
    assert b"/PrintScaling /None" in data
    with pdfplumber.open(out) as pdf:
        for page in pdf.pages:
            assert page.mediabox == page.cropbox  # no crop marks changing the page


@pytest.mark.parametrize(
    "length, window, overlap, expected",
    [(100, 190, 10, 1), (190, 190, 10, 1), (286, 190, 10, 2), (370, 190, 10, 2), (371, 190, 10, 3), (1000, 100, 0, 10)],
)
def test_pages_needed_along_one_direction(length, window, overlap, expected):
    assert len(window_starts(length, window, overlap, [])) == expected


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from coinprint.games.cointable.board import build  # noqa: E402
from coinprint.games.cointable.draw import board_sheet  # noqa: E402
from coinprint.render.scene import apply  # noqa: E402
from coinprint.render.tiling import _content_matrix, plans  # noqa: E402
from coinprint.units import paper_size  # noqa: E402

BOARDS_ON_PAPER = dict(
    side=st.integers(2, 9),
    hex_mm=st.floats(15, 60),
    paper=st.sampled_from(["a5", "a4", "letter", "a3", "legal", "tabloid"]),
    orientation=st.sampled_from(["pointy", "flat"]),
    overlap=st.sampled_from([0.0, 5.0, 10.0, 25.0]),
)


@settings(max_examples=40, deadline=None)
@given(**BOARDS_ON_PAPER)
def test_any_board_on_any_paper_keeps_every_cell_whole_somewhere(side, hex_mm, paper, orientation, overlap):
    _check_every_cell_whole(side, hex_mm, paper, orientation, overlap)


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(**BOARDS_ON_PAPER)
def test_many_boards_on_paper_keep_every_cell_whole(side, hex_mm, paper, orientation, overlap):
    _check_every_cell_whole(side, hex_mm, paper, orientation, overlap)


def _check_every_cell_whole(side, hex_mm, paper, orientation, overlap):
    sheet = board_sheet(build(side, hex_mm, orientation=orientation, guide_coin=None))
    margin = 10.0
    plan = plans(sheet, paper_size(paper), margin, overlap, 0.0)[0]
    windows = []
    for row in range(plan.rows):
        for column in range(plan.columns):
            windows.append(_content_matrix(sheet, plan, margin, column, row))
    width, height = plan.page.width_mm, plan.page.height_mm
    for x0, y0, x1, y1 in sheet.pieces:
        corners = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]
        assert any(
            all(
                margin - 1e-6 <= px <= width - margin + 1e-6 and margin - 1e-6 <= py <= height - margin + 1e-6
                for px, py in (apply(matrix, c) for c in corners)
            )
            for matrix in windows
        )
    # Neighbouring windows overlap by at least the overlap asked for.
    window_w, window_h = width - 2 * margin, height - 2 * margin
    assert all(b - a <= window_w - overlap + 1e-6 for a, b in zip(plan.xs, plan.xs[1:]))
    assert all(b - a <= window_h - overlap + 1e-6 for a, b in zip(plan.ys, plan.ys[1:]))


def test_a_tiled_board_prints_its_info_block_once_and_the_bars_where_there_is_room(tmp_path, cli):
    out = tmp_path / "board.pdf"
    assert cli("board", "cointable", "--paper", "a5", "-o", str(out)).code == 0
    with pdfplumber.open(out) as pdf:
        texts = [page.extract_text().replace("\n", " ") for page in pdf.pages]
    assert [("Each hex: 31.75 mm" in text) for text in texts] == [True] + [False] * (len(texts) - 1)
    # The second page has room for the block too: it carries the bars alone.
    assert "check: this bar measures 10 cm" in texts[1]


def test_page_counts_are_filled_in_once_the_document_is_known():
    from coinprint.render.pdf import Folio, folio_text, number_pages
    from coinprint.render.scene import Scene, Text

    pages = [
        Scene(100, 100).add(Folio((1, 1), folio_text("A {b}") + " — page {kit_page} of {kit_pages}")) for _ in range(3)
    ]
    numbered = number_pages(pages)
    texts = [item.text for page in numbered for item in page.items]
    assert texts == ["A {b} — page 1 of 3", "A {b} — page 2 of 3", "A {b} — page 3 of 3"]
    assert all(type(item) is Text for page in numbered for item in page.items)


def test_a_part_too_big_for_the_paper_says_which_paper_holds_it_whole():
    import shapely

    from coinprint.render.scene import Scene
    from coinprint.render.sheet import Sheet
    from coinprint.render.tiling import _keeping_whole
    from coinprint.units import paper_size

    sheet = Sheet(Scene(170, 230), "Mat", whole=shapely.box(0, 30, 168, 198), whole_note="print on {paper}")
    assert _keeping_whole(sheet, paper_size("a5"), 10.0).lines == ["print on A4"]
    assert _keeping_whole(sheet, paper_size("tabloid"), 10.0).pieces == [(0.0, 30.0, 168.0, 198.0)]
