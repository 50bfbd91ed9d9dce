"""Printed colour: every coin a game names stands out from the space it lies on, in colour
and in grey; Coin Age's regions each get their own colour while there are colours enough,
and neighbouring regions never share one."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coinprint.render.style import MIN_COIN_CONTRAST, coin_colour, contrast, grey, palette

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
