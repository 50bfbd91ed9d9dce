"""The Coin Age rule sheet's values (the words are ``templates/coinage.<lang>.json``): the
classic map and a worked example, a real game between two computer players, replayed and
scored by the rules engine; and drawn maps completed for print."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from coinprint.colouring import colour_regions
from coinprint.drawn import with_properties
from coinprint.engine import replay
from coinprint.game import RuleSheetParts
from coinprint.games.coinage.board import CARD_MARGIN_MM
from coinprint.games.coinage.coins import PLAYERS
from coinprint.games.coinage.draw import card_scene, position_scene
from coinprint.games.coinage.example import CLASSIC_TURNS
from coinprint.games.coinage.rules import CoinAgeRules
from coinprint.games.coinage.search import CoinAgeSearch
from coinprint.games.coinage.state import CoinAgeState, Turn
from coinprint.games.coinage.view import CoinAgeView
from coinprint.layout import Feature, close_ring, polygon_geometry
from coinprint.search import GreedyAgent
from coinprint.units import coin

if TYPE_CHECKING:
    from coinprint.layout import Layout


def worked_example(layout: Layout, first_seed: int | None = None) -> tuple[CoinAgeRules, CoinAgeState, list[str]]:
    """A finished game for the rule sheet's scoring example: greedy against greedy from
    ``first_seed`` upward (by default 1), the first game whose final position has a stack of
    two or more coins and a doubled region. Returns the rules, the final state and the turns
    played. On the classic card, given no ``first_seed``, the game found is replayed from its
    record (:data:`~coinprint.games.coinage.example.CLASSIC_TURNS`)."""

    if first_seed is None and layout.params.get("map") == "classic":
        rules = CoinAgeRules(layout, {})
        replayed = replay(rules, list(CLASSIC_TURNS))
        if replayed.error is None:
            return rules, replayed.state, list(CLASSIC_TURNS)
    first_seed = 1 if first_seed is None else first_seed
    rules = CoinAgeRules(layout, {})
    search = CoinAgeSearch(rules)
    for seed in range(first_seed, first_seed + 500):
        rng = random.Random(seed)
        state = rules.initial_state()
        turns: list[str] = []
        while not state.ended and len(turns) < 200:
            rules.begin_turn(state, rng)
            turn = GreedyAgent[CoinAgeState, Turn]().choose(search, state, rng)  # fresh each turn
            turns.append(rules.move_text(state, turn))
            rules.apply_unchecked(state, turn)
        doubled = rules.scores(state)["doubled"]
        held = [sum(1 for s in state.stacks if s and s[-1][1] == p) for p in (0, 1)]
        if state.ended and any(len(s) > 1 for s in state.stacks) and any(doubled.values()) and min(held) >= 4:
            return rules, state, turns
    raise RuntimeError("no example game found")  # pragma: no cover


def sheet_example(layout: Layout) -> dict[str, Any]:
    """The scoring example as plain data: the final position's marks, each region's spaces
    held and points, board, bank and total points, the winner, how and after how many
    turns the game ended."""

    rules, state, turns = worked_example(layout)
    parts = rules.scores(state)
    ended = "filled" if state.ended == "every space is filled" else (state.ended or "").split()[0]
    return {
        "layout": layout,
        "marks": CoinAgeView(rules).marks(state),
        "players": PLAYERS,
        "regions": rules.region_scores(state),
        "board": parts["board"],
        "bank": parts["bank"],
        "bank_value": parts["bank_value"],
        "total": parts["total"],
        "winner": rules.result(state).winner,
        "ended_by": ended,
        "turns": len(turns),
    }


def rule_sheet_parts(template: Mapping[str, Any], layout: Layout) -> RuleSheetParts:
    """The map ``layout`` (the classic one), the worked example's position on it and its
    score table, and the values the template's sentences about it use."""

    example = sheet_example(layout)
    words = template["words"]
    side = {p: words[p] for p in example["players"]}
    h, t = example["players"]
    ended = example["ended_by"]
    values = {
        "heads": side[h],
        "tails": side[t],
        "winner": side[example["winner"]] if example["winner"] else words["nobody"],
        "ended": words["ended_filled"] if ended == "filled" else words["ended_placed"].format(player=side[ended]),
        "turns": example["turns"],
        "quarter_mm": f"{coin('quarter').diameter_mm:.2f}",
        **{
            f"{p}_{key}": example[key][name]
            for p, name in (("h", h), ("t", t))
            for key in ("board", "bank", "total", "bank_value")
        },
    }
    figures = {
        "map": card_scene(layout),
        "example": position_scene(example["layout"], example["marks"], example["players"]),
    }
    return RuleSheetParts(values, figures, {"example_table": [_score_table(example, words)]})


def _score_table(example: dict[str, Any], words: Mapping[str, str]) -> dict[str, Any]:
    """The example's score, region by region, as a table block (literal braces escaped)."""
    side = {p: words[p] for p in example["players"]}
    h, t = example["players"]
    rows = [
        [
            words["region_column"],
            f"{side[h]}: {words['held_points']}",
            f"{side[t]}: {words['held_points']}",
            words["doubled_column"],
        ]
    ]
    for region in example["regions"]:
        rows.append(
            [
                " ".join(region["spaces"]),
                f"{region['held'][h]} / {region['points'][h]}",
                f"{region['held'][t]} / {region['points'][t]}",
                side[region["doubled"]] if region["doubled"] else words["nobody"],
            ]
        )
    rows.append([words["bank_row"], f"{example['bank'][h]}", f"{example['bank'][t]}", ""])
    rows.append([words["total_row"], f"{example['total'][h]}", f"{example['total'][t]}", ""])
    escaped = [[cell.replace("{", "{{").replace("}", "}}") for cell in row] for row in rows]
    return {"table": escaped, "widths": [2.2, 1.6, 1.6, 1.2]}


def printable(layout: Layout) -> Layout:
    """A drawn map completed for print: region colours (touching regions differ), region
    sizes, and a card outline around the spaces when the drawing has none."""
    import shapely

    region_of = {s.id: s.region or s.id for s in layout.spaces}
    sizes: dict[str, int] = {}
    for region in region_of.values():
        sizes[region] = sizes.get(region, 0) + 1
    touching = [(region_of[a], region_of[b]) for a, b in layout.border_pairs() if region_of[a] != region_of[b]]
    colours = colour_regions(sorted(sizes), touching) or {r: i for i, r in enumerate(sorted(sizes))}
    extra = {sid: {"color": colours[r], "region_size": sizes[r]} for sid, r in region_of.items()}
    features = list(layout.features)
    if not layout.features_with_role("card"):
        box = shapely.union_all([s.polygon for s in layout.spaces]).buffer(CARD_MARGIN_MM, join_style="mitre").envelope
        features.append(Feature("card", "card", polygon_geometry([close_ring(box.exterior.coords)])))
    card = [f for f in features if f.role == "card"][0].shape.bounds
    params = {"map": "custom", **layout.params, "card": f"{card[2] - card[0]:.1f}x{card[3] - card[1]:.1f}mm"}
    coloured = with_properties(layout, extra, {"params": params})
    coloured.features = features
    return coloured
