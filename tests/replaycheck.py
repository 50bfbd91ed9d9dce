"""Helpers for the replay page tests: games to replay, and what the engine says each frame
must show, in the page's SVG coordinates."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from coinprint.analysis import resolve_layout, rules_for, self_play
from coinprint.registry import GAMES
from coinprint.render.board import SIDE_COLOURS, Frame, label_point

NAME = "<script>alert(1)</script>"
"""A player name that would run if a page let it through as markup."""


def write_record(folder: Path, spec: str, seed: int = 1, *, players: dict | None = None, max_turns: int = 400) -> Path:
    """Self-play one game on ``spec`` with random agents and write its record."""
    layout = resolve_layout(spec)
    rules = rules_for(layout, {})
    record, _ = next(self_play(spec, {p: "random" for p in rules.players}, 1, seed, max_turns))
    if players is not None:
        record.players = players
    path = folder / f"{layout.game}-{seed}.json"
    path.write_text(record.dumps(), encoding="utf-8")
    return path


def positions(path: Path):
    """The rules and the state after each move of the record at ``path`` (the start first),
    replayed here move by move."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    layout = resolve_layout(doc["layout"], base=path.parent)
    rules = rules_for(layout, doc.get("options", {}))
    state = rules.initial_state()
    states = [state.copy()]
    for text in doc["moves"]:
        rules.apply(state, rules.parse_move(state, text))
        states.append(state.copy())
    return rules, states


def view_of(rules):  # type: ignore[no-untyped-def]
    """The view of ``rules``' game (what pictures of its positions hold: coins, notes beside moves)."""
    return GAMES[rules.layout.game].view(rules)


def picture_width(path: Path) -> float:
    """The width (mm) of a replay's picture of the record at ``path``: the board, and the
    column beside it when a move shows coins there (a Coin Age throw)."""
    from coinprint.render.board import aside_width

    doc = json.loads(path.read_text(encoding="utf-8"))
    layout = resolve_layout(doc["layout"], base=path.parent)
    rules = rules_for(layout, doc.get("options", {}))
    view = view_of(rules)
    state = rules.initial_state()
    most = 0
    for text in doc["moves"]:
        move = rules.parse_move(state, text)
        most = max(most, len(view.move_aside(state, move)))
        rules.apply(state, move)
    return Frame(layout).width + aside_width(most)


def board_height(rules) -> float:
    """The height (mm) of the drawing the page shows, to flip y as SVG does."""
    return GAMES[rules.layout.game].position_sheet(rules.layout, [], rules.players).content.height_mm


def expected_coins(rules, state) -> set[tuple[str, str]]:
    """(space id, coin colour) for every coin the engine puts on the board (a mark with no
    side and no ring is a Map claim: a letter, not a coin)."""
    coins = set()
    for mark in view_of(rules).marks(state):
        if not mark.side and not mark.ring and mark.text:
            continue
        colour = SIDE_COLOURS[rules.players.index(mark.side)] if mark.side in rules.players else "#dddddd"
        coins.add((mark.space, colour))
    return coins


def coins_seen(rules, circles: list[tuple[float, float, str]]) -> set[tuple[str, str]]:
    """(space id, colour) for every filled circle drawn, each placed on the space whose coin
    spot (label point) is nearest its centre; circles far from any spot fail the test."""
    layout = rules.layout
    frame = Frame(layout)
    height = board_height(rules)
    spots = {s.id: frame.point(*label_point(s)) for s in layout.spaces}
    seen = set()
    for cx, cy, fill in circles:
        if fill in ("none", ""):
            continue  # rings round a coin
        x, y = cx, height - cy
        space, distance = min(((sid, math.dist((x, y), p)) for sid, p in spots.items()), key=lambda t: t[1])
        assert distance < 0.01, f"a coin at ({x:.2f}, {y:.2f}) is on no space's spot"
        seen.add((space, fill))
    return seen


def page_data(page: str) -> dict:
    """The JSON the page's script reads."""
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)
    assert found, "the page has no replay data"
    return json.loads(found.group(1))


def first_point(d: str) -> tuple[float, float]:
    """The first point of an SVG path's ``d``."""
    x, y = re.findall(r"-?\d+(?:\.\d+)?", d)[:2]
    return float(x), float(y)
