"""Charts read back from their SVG: the bars, whiskers and numbers shown are the figures given."""

import re
import xml.etree.ElementTree as ET

import pytest

from coinprint.analysis import builtin_layout
from coinprint.render import charts
from coinprint.render.svg import scene_to_svg

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"


def _points(d: str) -> list[tuple[float, float]]:
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", d)]
    return list(zip(numbers[0::2], numbers[1::2]))


def shapes(svg: bytes) -> list[tuple[dict, list[tuple[float, float]]]]:
    """Every path as (attributes, absolute points), with ``<use>`` of a defined shape expanded.
    Charts draw no group transforms at the top level, so SVG coordinates are final."""
    root = ET.fromstring(svg)
    defined = {p.get("id"): _points(p.get("d")) for p in root.iter(f"{SVG}path") if p.get("id")}
    found = []
    for element in root.iter():
        if element.tag == f"{SVG}path" and not element.get("id"):
            found.append((element.attrib, _points(element.get("d"))))
        elif element.tag == f"{SVG}use":
            x, y = float(element.get("x")), float(element.get("y"))
            relative = defined[element.get(XLINK).lstrip("#")]
            found.append((element.attrib, [(x + dx, y + dy) for dx, dy in relative]))
    return found


def texts(svg: bytes) -> list[tuple[str, float, float]]:
    root = ET.fromstring(svg)
    return [(t.text, float(t.get("x")), float(t.get("y"))) for t in root.iter(f"{SVG}text")]


def test_share_bars_and_whiskers_show_the_figures():
    rows = [
        charts.ShareRow("even", 0.5, 0.4, 0.6),
        charts.ShareRow("first", 0.75, 0.62, 0.85),
        charts.ShareRow("second", 0.2, 0.1, 0.35),
        charts.ShareRow("also even", 0.5, 0.45, 0.55),
    ]
    svg = scene_to_svg(charts.share_chart(rows, "First player's share"))
    ticks = {text: x for text, x, _ in texts(svg) if text.endswith("%")}
    x0, x100 = ticks["0%"], ticks["100%"]

    def share(x: float) -> float:
        return (x - x0) / (x100 - x0)

    bars = [pts for attrs, pts in shapes(svg) if attrs.get("fill") == charts.SHARE_BAR]
    bars.sort(key=lambda pts: min(y for _, y in pts))  # top row first (SVG y grows downwards)
    assert [pytest.approx(share(max(x for x, _ in pts)), abs=1e-3) for pts in bars] == [r.value for r in rows]
    assert all(min(x for x, _ in pts) == pytest.approx(x0, abs=1e-3) for pts in bars)
    whiskers = [
        pts
        for attrs, pts in shapes(svg)
        if attrs.get("stroke") == charts.WHISKER and len(pts) == 2 and pts[0][1] == pts[1][1]
    ]
    whiskers.sort(key=lambda pts: pts[0][1])
    assert [(round(share(a[0]), 3), round(share(b[0]), 3)) for a, b in whiskers] == [(r.low, r.high) for r in rows]
    reference = [pts for attrs, pts in shapes(svg) if attrs.get("stroke") == charts.REFERENCE]
    assert len(reference) == 1 and share(reference[0][0][0]) == pytest.approx(0.5, abs=1e-3)


def test_histogram_bars_are_the_counts():
    lengths = [3, 4, 4, 5, 9, 9, 9, 12, 20]
    edges, counts = charts.histogram_bins(lengths, bins=6)
    # 3..20 is 18 whole values, in 6 bins of width 3: [3,6) [6,9) [9,12) [12,15) [15,18) [18,21).
    assert edges == [3, 6, 9, 12, 15, 18, 21] and counts == [4, 0, 3, 1, 0, 1]
    svg = scene_to_svg(charts.histogram(lengths, "Game length", "moves", bins=6))
    labels = {text: y for text, _, y in texts(svg)}
    full = labels["0"] - labels["4"]  # the count axis: 0 at the bottom, the largest count at the top
    bars = sorted(
        (pts for attrs, pts in shapes(svg) if attrs.get("fill") == charts.BAR), key=lambda p: min(x for x, _ in p)
    )
    heights = [max(y for _, y in p) - min(y for _, y in p) for p in bars]
    assert [round(4 * h / full, 3) for h in heights] == [c for c in counts if c]
    for edge in edges:
        assert f"{edge:g}" in labels


def test_heat_map_writes_each_spaces_shares_and_colours_by_the_balance():
    layout = builtin_layout("cointable:size=2")
    held = {s.id: {"heads": i / 10, "tails": 1 - i / 10} for i, s in enumerate(layout.spaces)}
    svg = scene_to_svg(charts.heat_map(layout, held, ("heads", "tails"), "Held at the end"))
    shown = [text for text, _, _ in texts(svg) if text.endswith("%")]
    expected = [f"{held[s.id][p]:.0%}" for s in layout.spaces for p in ("heads", "tails")]
    assert shown == expected
    fills = {attrs.get("fill") for attrs, _ in shapes(svg)}
    for shares in held.values():
        assert charts.balance_colour(shares["heads"], shares["tails"]) in fills


def test_balance_colour_runs_from_gold_through_white_to_blue_grey():
    assert charts.balance_colour(1.0, 0.0) == "#c9a227"
    assert charts.balance_colour(0.5, 0.5) == "#ffffff"
    assert charts.balance_colour(0.0, 1.0) == "#7a8fa6"


def test_long_labels_keep_their_end_and_fit():
    from coinprint.render.pdf import text_width_mm

    long = "some/deeply/nested/folder/of/layouts/mapgame-custom-board-number-12.geojson"
    shown = charts.fit_label(long)
    assert shown.startswith("…") and long.endswith(shown[1:])
    assert text_width_mm(shown, charts.TEXT_MM) <= charts.LABEL_MAX_MM
    assert charts.fit_label("mapgame:countries=21,seed=3") == "mapgame:countries=21,seed=3"


def test_long_titles_are_set_smaller_to_fit():
    from coinprint.render.pdf import text_width_mm

    title = "Game length: mapgame:countries=21,growth=packed,seed=1234"
    scene = charts.histogram([1, 2, 3], title, "moves", width_mm=120.0)
    (shown,) = [t for t in scene.items if isinstance(t, charts.Text) and t.text == title]
    assert shown.size_mm < charts.TITLE_MM and text_width_mm(title, shown.size_mm, bold=True) <= 120.0 - 8.0
    longer = "Game length: mapgame:countries=21,growth=packed,max_neighbours=4,seed=123456"
    scene = charts.histogram([1, 2, 3], longer, "moves", width_mm=120.0)
    (cut,) = [t for t in scene.items if isinstance(t, charts.Text) and t.text.startswith("Game length: …")]
    assert cut.size_mm == charts.TEXT_MM and longer.endswith(cut.text.partition("…")[2])
    assert text_width_mm(cut.text, cut.size_mm, bold=True) <= 120.0 - 8.0
    short = [
        t for t in charts.histogram([1], "Short", "moves").items if isinstance(t, charts.Text) and t.text == "Short"
    ]
    assert short[0].size_mm == charts.TITLE_MM
