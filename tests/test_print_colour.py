"""Printed colour: every coin a game names stands out from the space it lies on, in colour
and in grey; Coin Age's regions each get their own colour while there are colours enough,
and neighbouring regions never share one."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinprint.registry import GAMES
from coinprint.render.style import MIN_COIN_CONTRAST, coin_colour, contrast, grey, palette

if TYPE_CHECKING:
    from coinprint.render.scene import Scene

NAMED_COINS = ("penny", "dime", "nickel", "quarter")
"""The coins the games name: Coin Table's penny guides, the Map's penny and nickel, Coin
Age's and Flick's quarters, the dime at Flick's goal corners."""


@pytest.mark.parametrize("name", NAMED_COINS)
def test_every_named_coin_stands_out_from_every_space_fill(name):
    metal = coin_colour(name)
    for fill in palette("color").space_fill:
        assert contrast(metal, fill) >= MIN_COIN_CONTRAST, (name, fill, contrast(metal, fill))
        assert contrast(grey(metal), grey(fill)) >= MIN_COIN_CONTRAST, (name, fill)


def test_the_quarter_stands_out_from_every_region_fill():
    metal = coin_colour("quarter")
    fills = palette("color").region_fill
    assert len(set(fills)) == len(fills) >= 8
    for fill in fills:
        assert contrast(metal, fill) >= MIN_COIN_CONTRAST, (fill, contrast(metal, fill))
        assert contrast(grey(metal), grey(fill)) >= MIN_COIN_CONTRAST, fill


def test_the_quarter_stands_out_from_the_flick_zones():
    metal = coin_colour("quarter")
    for fill in palette("color").zone_fill:
        assert contrast(metal, fill) >= MIN_COIN_CONTRAST and contrast(grey(metal), grey(fill)) >= MIN_COIN_CONTRAST


def test_the_penny_is_copper_and_the_quarter_silver():
    assert coin_colour("penny") != coin_colour("quarter") == coin_colour("dime")


def test_labels_and_outlines_read_on_every_fill():
    colours = palette("color")
    for fill in (*colours.space_fill, *colours.region_fill):
        assert contrast(colours.space_stroke, fill) >= 3.0
        assert contrast(colours.guide, fill) >= 3.0


def _region_check(layout):
    from coinprint.games.coinage.draw import recoloured

    coloured = recoloured(layout)
    colour = {s.id: s.properties["color"] for s in coloured.spaces}
    region = {s.id: s.region or s.id for s in coloured.spaces}
    by_region = {region[s]: colour[s] for s in colour}
    for s in coloured.spaces:
        for n in coloured.neighbours(s.id):
            if region[n] != region[s.id]:
                assert colour[n] != colour[s.id], (s.id, n)
    count = len(palette("color").region_fill)
    if len(by_region) <= count:
        assert len(set(by_region.values())) == len(by_region)
    assert max(by_region.values()) < count  # every colour is a fill of its own


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sizes=st.lists(st.integers(1, 4), min_size=2, max_size=20).filter(lambda s: 6 <= sum(s) <= 20),
    seed=st.integers(0, 10_000),
)
def test_random_maps_colour_regions_apart(sizes, seed):
    from coinprint.errors import UsageError
    from coinprint.games.coinage.board import build_random

    try:
        layout = build_random(sizes, seed)
    except UsageError:  # no map for these sizes and seed: nothing to colour
        return
    _region_check(layout)


@pytest.mark.parametrize("name", ["classic", "terraces", "steps", "patchwork"])
def test_builtin_maps_colour_regions_apart(name):
    from coinprint.games.coinage.board import build_builtin

    _region_check(build_builtin(name))


# -- ink-saver is the whole kit ---------------------------------------------------------------------------
def _most_saturated(path) -> int:
    """The largest (max − min) of R, G, B over every pixel of every page: 0 for pure grey."""
    import numpy
    import pypdfium2

    pdf = pypdfium2.PdfDocument(str(path))
    try:
        worst = 0
        for page in pdf:
            pixels = numpy.asarray(page.render(scale=1.0).to_pil().convert("RGB")).astype(int)
            worst = max(worst, int((pixels.max(axis=2) - pixels.min(axis=2)).max()))
        return worst
    finally:
        pdf.close()


def _dark_share(path) -> list[float]:
    """Each page's share of pixels darker than mid grey."""
    import numpy
    import pypdfium2

    pdf = pypdfium2.PdfDocument(str(path))
    try:
        return [float((numpy.asarray(page.render(scale=1.0).to_pil().convert("L")) < 100).mean()) for page in pdf]
    finally:
        pdf.close()


@pytest.mark.parametrize("game", GAMES.names())
@pytest.mark.parametrize("command", ["kit", "rules"])
def test_ink_saver_pages_have_no_colour(cli, tmp_path, game, command):
    out = tmp_path / f"{game}-{command}.pdf"
    assert cli(command, game, "--style", "ink-saver", "-o", str(out)).code == 0
    assert _most_saturated(out) <= 2, "a page of the ink-saver kit prints in colour"
    if command == "rules":  # figures in outline, not the colour pictures in grey
        assert max(_dark_share(out)) < 0.06
    from tests.conftest import pdf_reading_text

    text = " ".join(pdf_reading_text(out).split()).lower()
    for word in ("colour", "gold", "blue", "red star"):  # words name only the colours printed
        assert word not in text, word
    from coinprint.kit.rulesheet import rule_sheet_template

    if "style_words" in rule_sheet_template(GAMES[game], "en"):  # its words name the colours it prints in
        coloured = tmp_path / f"{game}-{command}-colour.pdf"
        assert cli(command, game, "-o", str(coloured)).code == 0
        assert _most_saturated(coloured) > 60  # the colour kit keeps its colours (the test can fail)


@pytest.mark.parametrize(("lang", "printed", "unprinted"), [("en", "white", "gold"), ("sv", "vit", "guld")])
def test_ink_saver_words_name_only_the_colours_printed(cli, tmp_path, lang, printed, unprinted):
    from tests.conftest import pdf_reading_text

    out = tmp_path / "ink.pdf"
    assert cli("rules", "cointable", "--style", "ink-saver", "--lang", lang, "-o", str(out)).code == 0
    text = " ".join(pdf_reading_text(out).split())
    assert f"({printed})" in text and unprinted not in text
    colour = tmp_path / "colour.pdf"
    assert cli("rules", "cointable", "--lang", lang, "-o", str(colour)).code == 0
    assert f"({unprinted})" in " ".join(pdf_reading_text(colour).split())


def test_every_template_names_its_colours_for_each_style():
    """A template whose words name the colours printed (its ``style_words``) names them for
    every style; a game whose words name no colour needs none."""
    import json
    import re

    from coinprint.kit.rulesheet import languages, texts_folder
    from coinprint.render.style import palette_names

    checked = 0
    for game in GAMES:
        for lang in languages(game):
            text = (texts_folder(game) / f"{game.name}.{lang}.json").read_text(encoding="utf-8")
            if "style_words" not in json.loads(text):
                continue
            checked += 1
            words = json.loads(text)["style_words"]
            assert set(words) == set(palette_names()), (game.name, lang)
            used = set(re.findall(r"\{(\w+)\}", text))
            for style in words.values():
                assert set(style) == set(words["color"])
            named = {name for name in used if name in words["color"]}
            assert named, f"{game.name}.{lang}.json names no colour through its style words"
    assert checked


# -- claims stay visible with a coin on the country -------------------------------------------------------
def test_a_replay_frame_tints_each_claimed_country_in_its_claimers_colour(tmp_path):
    from coinprint.playback.page import scene_frames
    from coinprint.render.board import Frame, label_point, side_colour
    from coinprint.render.raster import draw_items, reduce
    from coinprint.source import game_named, validate_record
    from tests.replaycheck import positions, write_record

    path = write_record(tmp_path, "mapgame:countries=9,seed=3", seed=1, max_turns=30)
    record, rules, replayed = validate_record(str(path))
    frames = scene_frames(game_named(record.game), record, rules, replayed)
    _, states = positions(path)
    last, state = frames.frames[-1], states[-1]
    view = game_named(record.game).view(rules)
    held = view.holders(state)
    assert held, "the game claimed no country"
    scale = 4.0  # pixels per mm
    size = (round(frames.width_mm * scale), round(frames.height_mm * scale))
    board = [item for k, item in enumerate(frames.board) if k not in last.hidden]
    image = reduce(draw_items(board + [frames.pieces[k] for k in last.pieces], size, scale, frames.height_mm))
    placement = Frame(rules.layout)
    coins = {mark.space for mark in view.marks(state) if mark.side}
    for space in rules.layout.spaces:
        # A point inside the country away from its coin and its name: its widest disc's edge.
        import shapely

        x, y = label_point(space)
        inner = space.polygon.buffer(-1.0)
        probe = inner.exterior.interpolate(inner.exterior.project(shapely.Point(x, y - 50)))
        px, py = placement.point(probe.x, probe.y)
        pixel = image.getpixel((int(px * scale), int((frames.height_mm - py) * scale)))
        owner = held.get(space.id)
        if owner is None:
            assert max(pixel) - min(pixel) < 12, (space.name, pixel)  # unclaimed: no tint
            continue
        colour = side_colour(owner, rules.players)
        want = tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
        # Tinted toward the claimer's colour: the same hue order of the channels.
        assert max(pixel) - min(pixel) >= 12, (space.name, pixel, space.id in coins)
        order = sorted(range(3), key=lambda c: want[c])
        assert pixel[order[2]] >= pixel[order[0]], (space.name, pixel, want)


def test_the_printed_maps_claim_circles_lie_beside_the_coin():
    import math

    from coinprint.games.mapgame.board import build, coins_of
    from coinprint.games.mapgame.draw import PENCIL_RADIUS_MM, map_scene
    from coinprint.render.scene import Circle

    for seed in range(5):
        layout = build(21, seed)
        big = max(coins_of(layout), key=lambda c: c.diameter_mm)
        circles = [i for i in map_scene(layout).items if isinstance(i, Circle)]
        guides = [c.center for c in circles if abs(c.radius - big.radius_mm) < 1e-6]
        pencils = [c.center for c in circles if abs(c.radius - PENCIL_RADIUS_MM) < 1e-6]
        assert len(guides) == len(pencils) == len(layout)
        beside = sum(math.dist(g, p) >= big.radius_mm + PENCIL_RADIUS_MM for g, p in zip(guides, pencils))
        # Country 1, the circle, has no room beside its coin; nearly every other one has.
        assert beside >= len(layout) - 3, (seed, beside)


# -- every printed word reads on what it is printed on ----------------------------------------------------
def _boards():
    from coinprint.games.coinage.board import build_builtin
    from coinprint.games.coinage.draw import card_scene
    from coinprint.games.cointable.board import build as cointable
    from coinprint.games.cointable.draw import board_scene
    from coinprint.games.flick.board import build as flick
    from coinprint.games.flick.draw import mat_scene
    from coinprint.games.mapgame.board import build as mapgame
    from coinprint.games.mapgame.draw import map_scene

    return {
        "cointable": board_scene(cointable()),
        "coinage": card_scene(build_builtin("classic")),
        "mapgame": map_scene(mapgame(21, 3)),
        "flick": mat_scene(flick()),
    }


def _board(game: str) -> Scene:
    """The board ``game`` prints in colour: a chosen one of a built-in game, else its standard
    board as its ``sheet`` hook draws it."""
    from coinprint.kit.rulesheet import print_job
    from coinprint.printing import PrintSettings
    from coinprint.source import builtin_layout
    from coinprint.units import paper_size

    chosen = _boards()
    if game in chosen:
        return chosen[game]
    played = GAMES[game]
    return played.sheet(
        builtin_layout(played.default_spec), print_job(played, PrintSettings.checked(paper_size("a4")))
    ).content


@pytest.mark.parametrize("game", GAMES.names())
def test_every_word_on_a_board_reads_at_4_5_to_1_on_its_fill(game):
    import shapely

    from coinprint.render.labels import text_box
    from coinprint.render.scene import Circle, Path, Text

    items = _board(game).items
    checked = 0
    for k, item in enumerate(items):
        if not isinstance(item, Text) or not item.text.strip() or item.angle:
            continue
        x0, y0, x1, y1 = text_box(item)
        middle = shapely.Point((x0 + x1) / 2, (y0 + y1) / 2)
        under = "#ffffff"  # the paper
        for shape in items[:k]:
            if isinstance(shape, Path) and shape.closed and shape.style.fill:
                if shapely.Polygon(shape.rings[0], shape.rings[1:]).contains(middle):
                    under = shape.style.fill
            elif isinstance(shape, Circle) and shape.style.fill:
                if middle.distance(shapely.Point(shape.center)) < shape.radius:
                    under = shape.style.fill
        assert contrast(item.color, under) >= 4.5, (game, item.text, item.color, under)
        checked += 1
    assert checked >= 5
