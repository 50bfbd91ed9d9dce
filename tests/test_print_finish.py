"""A kit finished like a published print-and-play, read back from the PDFs: page counts on
every paper, pieces that fit a page kept whole on one, rules on A4 when the paper is larger,
footers that count the kit's pages, a player aid in every kit, a contents block, double-
sided kits whose card backs lie behind their cards, the board on its own paper, and the cap
on cards a page."""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pytest

from coinprint.registry import GAMES
from tests.conftest import MM_PER_PT, pdf_reading_text, pdf_text_runs, rule_pages, run_cli

PAPERS = ("a4", "letter", "a5", "a3")
A4 = (210.0, 297.0)
LETTER = (215.9, 279.4)


@pytest.fixture(scope="module")
def kits(tmp_path_factory):
    """Every kit on every paper in English, and on A5 and Letter in Swedish: {(paper, lang): folder}."""
    made = {}
    for paper, lang in [*((p, "en") for p in PAPERS), ("a5", "sv"), ("letter", "sv")]:
        folder = tmp_path_factory.mktemp(f"{paper}-{lang}")
        assert run_cli("kit", "all", "--paper", paper, "--lang", lang, "-o", str(folder)).code == 0
        made[(paper, lang)] = folder
    return made


@pytest.fixture(scope="module")
def duplex(tmp_path_factory):
    """Every kit for a double-sided printer on A4, Letter and A5: {paper: folder}."""
    made = {}
    for paper in ("a4", "letter", "a5"):
        folder = tmp_path_factory.mktemp(f"duplex-{paper}")
        assert run_cli("kit", "all", "--paper", paper, "--duplex", "-o", str(folder) + "/").code == 0
        made[paper] = folder
    return made


def _kit(folder: Path, game: str, paper: str, lang: str = "en", tail: str = "") -> Path:
    return folder / f"{game}-kit-{paper}-{lang}{tail}.pdf"


def _sizes(path: Path) -> list[tuple[float, float]]:
    with pdfplumber.open(path) as pdf:
        return [(float(p.width) * MM_PER_PT, float(p.height) * MM_PER_PT) for p in pdf.pages]


def _boxes(page) -> list[tuple[float, float, float, float]]:
    """The straight-edged, axis-aligned four-cornered shapes of a page (x0, top, x1, bottom
    in mm): rectangles and closed four-point paths."""
    found = [(r["x0"], r["top"], r["x1"], r["bottom"]) for r in page.rects]
    for curve in page.curves:
        points = curve["pts"]
        ops = [op[0] for op in curve.get("path", [])]
        if ops and set(ops) <= {"m", "l", "h"} and len({(round(x, 1), round(y, 1)) for x, y in points}) == 4:
            xs, ys = [x for x, _ in points], [y for _, y in points]
            if len({round(x, 1) for x in xs}) == 2 and len({round(y, 1) for y in ys}) == 2:
                found.append((min(xs), min(ys), max(xs), max(ys)))
    return [tuple(v * MM_PER_PT for v in box) for box in found]


def _sized(boxes, size, tolerance=0.3):
    """The boxes of ``size`` (either way up)."""
    want = sorted(size)
    return [b for b in boxes if all(abs(a - w) <= tolerance for a, w in zip(sorted((b[2] - b[0], b[3] - b[1])), want))]


EXPECTED_PAGES = {
    "a4": {"cointable": 3, "coinage": 3, "mapgame": 3},
    "letter": {"cointable": 3, "coinage": 3, "mapgame": 3},
    "a5": {"cointable": 9, "coinage": 5, "mapgame": 5},  # the Map: 2 rules, the blank sheet, 2 tiles
    "a3": {"cointable": 2, "coinage": 3, "mapgame": 3},
}
"""Pages of each kit (Flick's depends on the words on its mat: its mat's pages are tested apart)."""


@pytest.mark.parametrize("paper", PAPERS)
def test_page_counts_per_paper(kits, paper):
    for game, pages in EXPECTED_PAGES[paper].items():
        assert len(_sizes(_kit(kits[(paper, "en")], game, paper))) == pages, game


@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
def test_the_flick_mat_is_one_page_where_the_paper_holds_it(kits, paper):
    path = _kit(kits[(paper, "en")], "flick", paper)
    assert len(_sizes(path)) == len(rule_pages(path)) + 1


@pytest.mark.parametrize("paper", PAPERS)
def test_a3_and_larger_kits_set_their_rules_on_a4(kits, paper):
    """The rules of a kit are on the paper asked for, or on A4 when that is larger."""
    for game in GAMES.names():
        path = _kit(kits[(paper, "en")], game, paper)
        first = sorted(_sizes(path)[0])
        expected = A4 if paper == "a3" else {"a4": A4, "letter": LETTER, "a5": (148.0, 210.0)}[paper]
        assert first == pytest.approx(sorted(expected), abs=0.1), game


@pytest.mark.parametrize("paper", PAPERS)
def test_every_coin_age_card_is_whole_on_one_page(kits, paper):
    """The A6 card (148 × 105 mm) is drawn whole on a page: on A5 turned upright."""
    path = _kit(kits[(paper, "en")], "coinage", paper)
    with pdfplumber.open(path) as pdf:
        rules = len(rule_pages(path))
        cards = []
        for page in pdf.pages[rules:]:
            width, height = float(page.width) * MM_PER_PT, float(page.height) * MM_PER_PT
            for x0, y0, x1, y1 in _sized(_boxes(page), (148.0, 105.0)):
                assert 0 <= x0 and x1 <= width and 0 <= y0 and y1 <= height
                cards.append((x0, y0, x1, y1))
    assert cards
    assert len(_sizes(path)) == rules + 1  # one page of cards


def _circles(page, diameter_mm: float, tolerance: float = 0.5) -> list[tuple[float, float, float, float]]:
    """Closed shapes of ``diameter_mm`` across both ways (circles, many-sided polygons)."""
    found = []
    for curve in page.curves:
        xs, ys = [x * MM_PER_PT for x, _ in curve["pts"]], [y * MM_PER_PT for _, y in curve["pts"]]
        if abs(max(xs) - min(xs) - diameter_mm) <= tolerance and abs(max(ys) - min(ys) - diameter_mm) <= tolerance:
            found.append((min(xs), min(ys), max(xs), max(ys)))
    return found


FOLIO_RULES = re.compile(r"rules|regler", re.IGNORECASE)
"""A rule page's footer (the rules name the blank sheet too)."""


@pytest.mark.parametrize("paper, lang", [*((p, "en") for p in PAPERS), ("a5", "sv")])
def test_the_blank_map_sheet_is_one_page_with_its_circle_whole(kits, paper, lang):
    from coinprint.games.mapgame.board import blank_layout
    from coinprint.games.mapgame.draw import texts

    circle = blank_layout().spaces[0].polygon.bounds
    diameter = circle[2] - circle[0]
    title = texts(lang)["blank_title"]
    path = _kit(kits[(paper, lang)], "mapgame", paper, lang)
    with pdfplumber.open(path) as pdf:
        pages = [page for page in pdf.pages if title in (page.extract_text() or "").replace("\n", " ")]
        pages = [page for page in pages if not FOLIO_RULES.search((page.extract_text() or "").splitlines()[-1])]
        assert len(pages) == 1  # on one page only: not cut across pages
        page = pages[0]
        width, height = float(page.width) * MM_PER_PT, float(page.height) * MM_PER_PT
        x0, y0, x1, y1 = _circles(page, diameter)[0]
        assert 10 - 0.01 <= x0 and x1 <= width - 10 + 0.01 and 10 - 0.01 <= y0 and y1 <= height - 10 + 0.01
        assert not [line for line in page.lines if line.get("dash")]  # no trim line on the sheet


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_the_a5_map_kit_is_its_rules_the_blank_sheet_and_the_map(kits, lang):
    """Five A5 pages: two of rules (the worked example made smaller to stay on the second,
    clear of every line of text), the blank sheet (whose rules in brief stand for the player
    aid, as the contents say) and the map's two tiles."""
    from coinprint.games.mapgame.draw import texts

    path = _kit(kits[("a5", lang)], "mapgame", "a5", lang)
    rules = rule_pages(path)
    assert len(_sizes(path)) == 5 and len(rules) == 2
    contents = pdf_reading_text(path)
    assert texts(lang)["blank_title"] in contents
    assert {"en": "with the rules in brief", "sv": "med reglerna i korthet"}[lang] in " ".join(contents.split())
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[1]
        width, height = float(page.width) * MM_PER_PT, float(page.height) * MM_PER_PT
        shapes = [[(x * MM_PER_PT, y * MM_PER_PT) for x, y in curve["pts"]] for curve in page.curves]
        assert shapes  # the worked example
        xs, ys = [x for shape in shapes for x, _ in shape], [y for shape in shapes for _, y in shape]
        left, top, right, bottom = min(xs), min(ys), max(xs), max(ys)
        assert 10 <= left and right <= width - 10 and 10 <= top and bottom <= height - 10
        assert bottom - top > 35  # smaller, not a thumbnail: the 75 mm example at three fifths
        words = page.extract_words()
    # Text in the picture's box is its own labels (coin letters, country numbers), never a line.
    inside = [
        w["text"]
        for w in words
        if left < (w["x0"] + w["x1"]) / 2 * MM_PER_PT < right
        and top < (w["top"] + w["bottom"]) / 2 * MM_PER_PT < bottom
    ]
    assert inside and all(len(text) <= 2 for text in inside), inside


@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
def test_the_flick_goal_is_whole_on_one_page_and_free_of_words(kits, paper):
    """The four goal coins' circles lie on one page, and no word is printed inside the goal
    apart from the mat's own (not the info block's title, lines or bars)."""
    from coinprint.units import coin

    path = _kit(kits[(paper, "en")], "flick", paper)
    dime = coin("dime").diameter_mm
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[-1]
        corners = _circles(page, dime)
        assert len(corners) == 4
        centres = [((a + c) / 2, (b + d) / 2) for a, b, c, d in corners]
        left, right = min(x for x, _ in centres), max(x for x, _ in centres)
        top, bottom = min(y for _, y in centres), max(y for _, y in centres)
        inside = [
            run
            for run in pdf_text_runs(path)[-1]
            if left < run["x0"] * MM_PER_PT < right and top < run["top"] * MM_PER_PT < bottom
        ]
    assert not [run for run in inside if "Flick mat" in run["text"] or "check:" in run["text"]]


def test_a_goal_too_big_for_the_paper_says_where_it_is_seamless(kits):
    text = " ".join(run["text"] for page in pdf_text_runs(_kit(kits[("a5", "en")], "flick", "a5")) for run in page)
    assert "print on A4 for a seamless mat" in text
    swedish = " ".join(
        run["text"] for page in pdf_text_runs(_kit(kits[("a5", "sv")], "flick", "a5", "sv")) for run in page
    )
    assert "skriv ut på A4" in swedish


def test_the_flick_info_block_is_printed_once_on_a5(kits):
    runs = [run["text"] for page in pdf_text_runs(_kit(kits[("a5", "en")], "flick", "a5")) for run in page]
    assert sum(1 for text in runs if text == "Flick mat") == 1


@pytest.mark.parametrize("paper, lang", [("a5", "en"), ("a5", "sv"), ("a4", "en"), ("letter", "sv")])
def test_rule_pages_end_on_a_whole_sentence(kits, paper, lang):
    """A paragraph is never cut mid-sentence where a rule page ends (Coin Table's rules)."""
    path = _kit(kits[(paper, lang)], "cointable", paper, lang)
    pages = rule_pages(path)
    for page in pages[:-1]:
        last = [run for run in page if abs(run["size"] - 9.5) < 0.05][-1]  # the last line of text set
        assert re.search(r"[.!?:;)]$", last["text"].strip()), last["text"]


FOLIO = re.compile(r"(?:page|sida) (\d+) (?:of|av) (\d+)")


@pytest.mark.parametrize("paper, lang", [("a4", "en"), ("a5", "en"), ("a5", "sv"), ("letter", "sv"), ("a3", "en")])
def test_footers_count_the_kits_pages(kits, paper, lang):
    """Every page says its number among the kit's pages ("page 4 of 9"), board tiles too."""
    for game in GAMES.names():
        path = _kit(kits[(paper, lang)], game, paper, lang)
        pages = pdf_text_runs(path)
        for number, page in enumerate(pages, start=1):
            counts = {(int(a), int(b)) for run in page for a, b in FOLIO.findall(run["text"])}
            assert (number, len(pages)) in counts, (game, number, counts)


def test_board_tiles_are_numbered_among_the_board_pages(kits):
    runs = [run["text"] for page in pdf_text_runs(_kit(kits[("a5", "en")], "cointable", "a5")) for run in page]
    assert any("board page 1 of 6" in text for text in runs)
    assert not any("— page 1 of 6" in text for text in runs)


@pytest.mark.parametrize("paper, lang", [*((p, "en") for p in PAPERS), ("a5", "sv"), ("letter", "sv")])
def test_every_kit_has_a_player_aid_and_its_contents(kits, paper, lang):
    """Each kit prints its player aid, or (where no page has room for it: the Map on A5) its
    contents name the sheet whose rules in brief stand for it, and that sheet prints them."""
    from coinprint.games.mapgame.draw import texts

    aid, contents = ("Player aid", "In this kit") if lang == "en" else ("Lathund", "Innehåll")
    brief = {"en": "with the rules in brief", "sv": "med reglerna i korthet"}[lang]
    for game in GAMES.names():
        path = _kit(kits[(paper, lang)], game, paper, lang)
        pages = pdf_text_runs(path)
        assert any(run["text"] == contents for run in pages[0]), game  # on the first page
        if any(run["text"] == aid for page in pages for run in page):
            continue
        assert (game, paper) == ("mapgame", "a5"), game
        assert brief in " ".join(pdf_reading_text(path).split())
        heading = " ".join(texts(lang)["blank_heading"].split()[:3])
        assert any(heading in " ".join(run["text"] for run in page) for page in pages[len(rule_pages(path)) :])


def test_coin_tables_player_aid_goes_beside_the_board_rather_than_on_a_page_of_its_own(kits):
    path = _kit(kits[("a4", "en")], "cointable", "a4")
    pages = pdf_text_runs(path)
    assert len(rule_pages(path)) == 1
    assert any(run["text"] == "Player aid" for run in pages[-1])


@pytest.mark.parametrize("paper", ["a4", "letter", "a5"])
def test_duplex_kits_have_an_even_page_count(duplex, paper):
    for game in GAMES.names():
        path = _kit(duplex[paper], game, paper, tail="-duplex")
        sizes = _sizes(path)
        assert len(sizes) % 2 == 0, game
        rules = len(rule_pages(path))
        if rules % 2:  # the rules end on a front: their back is blank, the board starts a sheet
            assert pdf_text_runs(path)[rules][0]["text"].startswith("This page is left blank"), game


@pytest.mark.parametrize("paper", ["a4", "letter", "a5"])
def test_card_backs_lie_behind_their_cards(duplex, paper):
    """Turned over on its long edge, each card's back outline lies on its front's within
    0.5 mm, and it carries the player aid."""
    path = _kit(duplex[paper], "coinage", paper, tail="-duplex")
    with pdfplumber.open(path) as pdf:
        carded = [k for k, page in enumerate(pdf.pages) if _sized(_boxes(page), (148.0, 105.0))]
        fronts = carded[::2]  # each front is followed by its back
        assert fronts and len(carded) == 2 * len(fronts)
        for k in fronts:
            front, back = pdf.pages[k], pdf.pages[k + 1]
            assert k % 2 == 0  # a front is an odd page (counted from 1)
            width, height = float(front.width) * MM_PER_PT, float(front.height) * MM_PER_PT
            cards = _sized(_boxes(front), (148.0, 105.0))
            backs = _sized(_boxes(back), (148.0, 105.0))
            assert len(backs) == len(cards)
            for x0, y0, x1, y1 in cards:
                if width <= height:  # the long edge runs up the page: x is mirrored
                    expected = (width - x1, y0, width - x0, y1)
                else:
                    expected = (x0, height - y1, x1, height - y0)
                assert any(all(abs(a - b) <= 0.5 for a, b in zip(expected, box)) for box in backs)
            assert "Player aid" in (back.extract_text() or "")


def test_duplex_leaves_the_backs_of_board_pages_blank(duplex):
    path = _kit(duplex["a4"], "cointable", "a4", tail="-duplex")
    pages = pdf_text_runs(path)
    rules = len(rule_pages(path))
    for back in pages[rules + 1 :: 2]:
        assert " ".join(run["text"] for run in back).startswith("This page is left blank")


def test_the_board_goes_on_its_own_paper(tmp_path):
    out = tmp_path / "kit.pdf"
    assert run_cli("kit", "cointable", "--paper", "a4", "--board-paper", "a3", "-o", str(out)).code == 0
    sizes = [tuple(sorted((round(w), round(h)))) for w, h in _sizes(out)]
    assert sizes[0] == (210, 297) and sizes[-1] == (297, 420)
    assert len(set(sizes)) == 2
    assert len(sizes) == 2  # the board whole on one A3 page


def test_a_bad_board_paper_is_refused_in_one_line(tmp_path):
    result = run_cli("kit", "cointable", "--board-paper", "b9", "-o", str(tmp_path / "k.pdf"))
    assert result.code == 2
    assert len(result.err.strip().splitlines()) == 1
    assert not (tmp_path / "k.pdf").exists()


def test_a_huge_page_takes_at_most_100_cards_and_says_so(tmp_path):
    out = tmp_path / "cards.pdf"
    assert run_cli("board", "coinage", "--paper", "2000x2000mm", "-o", str(out)).code == 0
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[0]
        cards = _sized(_boxes(page), (148.0, 105.0))
        text = page.extract_text() or ""
    assert len(cards) == 100
    assert "At most 100 cards go on one page." in text


def test_more_copies_than_the_cap_are_refused_in_one_line(tmp_path):
    result = run_cli("board", "coinage", "--paper", "2000x2000mm", "--copies", "150", "-o", str(tmp_path / "c.pdf"))
    assert result.code == 2
    assert len(result.err.strip().splitlines()) == 1
    assert "100" in result.err
    assert not (tmp_path / "c.pdf").exists()


@pytest.mark.parametrize("paper", ["a4", "letter", "a5"])
def test_a_player_aid_that_ends_the_rules_is_never_split_between_pages(duplex, paper):
    """Double-sided kits end their rules with the player aid (its page would be a back anyway):
    the aid's heading and its last line are on the same page."""
    import json

    from coinprint.kit.rulesheet import texts_folder

    for game in GAMES.names():
        lines = json.loads((texts_folder(GAMES[game]) / f"{game}.en.json").read_text())["player_aid"]["lines"]
        last = " ".join(lines[-1].split()[:4])  # its first words: one line of the page's text
        path = _kit(duplex[paper], game, paper, tail="-duplex")
        with pdfplumber.open(path) as pdf:
            texts = [" ".join((page.extract_text() or "").split()) for page in pdf.pages[: len(rule_pages(path))]]
        with_heading = [k for k, text in enumerate(texts) if "Player aid" in text]
        if with_heading:  # else the aid sits beside the board
            assert last in texts[with_heading[0]], (game, with_heading)


def test_the_map_on_a5_is_two_tiles_with_its_info_block_under_the_last(kits):
    """The Map's A5 kit: its map on two tiles (the room they spare gathered at the foot of the
    last, where the info block goes), every country's number on a tile."""
    path = _kit(kits[("a5", "en")], "mapgame", "a5")
    pages = pdf_text_runs(path)
    tiles = [page for page in pages if any("board page" in run["text"] for run in page)]
    assert len(tiles) == 2 and pages[-2:] == tiles
    texts = [{run["text"].strip() for run in tile} for tile in tiles]
    assert "Map no. 0" not in texts[0] and "Map no. 0" in texts[1]
    assert {str(n) for n in range(1, 22)} <= texts[0] | texts[1]
