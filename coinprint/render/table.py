"""The studio's game table as data: the board drawn for play (each space's outline, its printed
colour, where its label and its coin go, region borders) and a position's coins, trays and
score, for the page's script to draw as SVG and to point at. Any game's :class:`View` fills it
in; nothing here names a game.

Coordinates are the layout's millimetres with y pointing down (as SVG draws), the board's
top-left corner at (0, 0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from coinprint.render.board import SIDE_COLOURS, Frame, label_point, room
from coinprint.render.style import ink_on, palette

if TYPE_CHECKING:
    from collections.abc import Sequence

    from coinprint.layout import Layout, Mark
    from coinprint.view import View

DIGITS = 2
"""Decimals kept in the table's coordinates (a hundredth of a millimetre)."""


FREE_MARGIN_MM = 40.0
"""Room kept round a board whose coins lie anywhere (no spaces: a Flick mat), so a coin that
slides past the mat's drawing stays in view."""


class _Flip:
    """Layout millimetres to the table's: shifted to (0, 0), y pointing down."""

    def __init__(self, layout: Layout, area: tuple[float, float, float, float] | None = None) -> None:
        self.frame = Frame(layout, pad=0.0 if layout.spaces or area else FREE_MARGIN_MM, bounds=area)

    def point(self, x: float, y: float) -> tuple[float, float]:
        fx, fy = self.frame.point(x, y)
        return (round(fx, DIGITS), round(self.frame.height - fy, DIGITS))

    def path(self, rings: Sequence[Sequence[Sequence[float]]], closed: bool = True) -> str:
        parts = []
        for ring in rings:
            points = [self.point(x, y) for x, y in ring]
            parts.append("M" + " L".join(f"{x:g},{y:g}" for x, y in points) + (" Z" if closed else ""))
        return " ".join(parts)


def _flip_of(view: View[Any, Any], state: Any) -> _Flip:
    """The table's frame in ``state``: the board's, or the area a growing board is drawn in."""
    return _Flip(view.board(state), view.table_area(state))


def table_board(view: View[Any, Any], state: Any) -> dict[str, Any]:
    """The board of ``view``'s game in ``state`` drawn for play: its size, and per space its
    id, name, outline (an SVG path), fill (the printed colour), label ink, label point and the
    radius of the largest coin that fits there; the region borders; each player's coin
    colour; how a person moves on it now (``interaction``) and what that needs (``facts``)."""
    import shapely

    layout = view.board(state)
    flip = _flip_of(view, state)
    colours = palette("color")
    spaces = []
    for space in layout.spaces:
        kind, number = view.fill(space)
        fill = (colours.region if kind == "region" else colours.fill)(number) or "#ffffff"
        x, y = flip.point(*label_point(space))
        spaces.append(
            {
                "id": space.id,
                "name": space.name,
                "d": flip.path(space.rings),
                "fill": fill,
                "ink": ink_on(fill, colours.label),
                "x": x,
                "y": y,
                "r": round(room(space), DIGITS),
                "region": space.region,
            }
        )
    regions: dict[str, list[shapely.Polygon]] = {}
    for space in layout.spaces:
        if space.region is not None and space.polygon.is_valid:
            regions.setdefault(space.region, []).append(space.polygon)
    borders = []
    for name in sorted(regions) if len(regions) > 1 else []:
        outline = shapely.union_all(regions[name]).boundary
        for line in getattr(outline, "geoms", [outline]):
            borders.append(flip.path([line.coords], closed=False))
    players = view.rules.players
    return {
        "width": round(flip.frame.width, DIGITS),
        "height": round(flip.frame.height, DIGITS),
        "spaces": spaces,
        "borders": borders,
        "features": _features(layout, flip),
        "sides": {player: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, player in enumerate(players)},
        "players": list(players),
        "interaction": view.interaction(state),
        # A layout point (x, y) is at (x + shift[0], height − y − shift[1]) on the table.
        "shift": [round(flip.frame.dx, 6), round(flip.frame.dy, 6)],
        "facts": _flipped_facts(view.table_facts(state), flip),
    }


def _features(layout: Layout, flip: _Flip) -> list[dict[str, Any]]:
    """The board's other features (a Flick mat's goal, goal coins, lines and zones), each its
    role, id, player (when it has one) and outline as an SVG path, in drawing order."""
    drawn = []
    for feature in layout.features:
        shape = feature.shape
        if shape.geom_type == "Polygon":
            d = flip.path([shape.exterior.coords])
        elif shape.geom_type == "LineString":
            d = flip.path([shape.coords], closed=False)
        else:
            continue
        drawn.append(
            {"role": feature.role, "id": feature.id, "player": str(feature.properties.get("player", "")), "d": d}
        )
    return drawn


def _flipped_facts(facts: dict[str, Any], flip: _Flip) -> dict[str, Any]:
    """The interaction's facts, with any ``polygon`` (a list of layout points) in the table's
    coordinates."""
    if "polygon" in facts:
        facts = {**facts, "polygon": [list(flip.point(x, y)) for x, y in facts["polygon"]]}
    return facts


def table_position(view: View[Any, Any], state: Any) -> dict[str, Any]:
    """What lies on and beside the board in ``state``: the coins (each with its size against
    the game's largest; a coin lying anywhere with its centre and radius in the table's mm),
    who holds each space, the trays, and what makes the score."""
    flip = _flip_of(view, state)
    return {
        "pieces": [_piece(view, mark, flip) for mark in view.pieces(state)],
        "held": view.holders(state),
        "trays": [
            {
                "title": tray.title,
                "player": tray.player,
                "coins": [
                    {
                        "text": coin.text,
                        "side": coin.side,
                        "count": coin.count,
                        "pick": coin.pick,
                        "scale": coin.scale,
                        "ring": coin.ring,
                        "caption": coin.caption,
                    }
                    for coin in tray.coins
                ],
            }
            for tray in view.trays(state)
        ],
        "score_lines": view.score_lines(state),
    }


def _piece(view: View[Any, Any], mark: Mark, flip: _Flip) -> dict[str, Any]:
    piece: dict[str, Any] = {
        "space": mark.space,
        "text": mark.text,
        "side": mark.side,
        "stack": mark.stack,
        "ring": mark.ring,
        "scale": view.coin_scale(mark),
    }
    if mark.at is not None:
        x, y = flip.point(*mark.at)
        piece.update(x=x, y=y, r=round(view.free_coin_radius(mark), DIGITS))
    return piece


def table_motion(view: View[Any, Any], state: Any, pictures: Sequence[Sequence[Mark]]) -> list[list[dict[str, Any]]]:
    """A move under way from ``state`` (:meth:`~coinprint.view.View.motion`) for the page to
    animate: each picture's coins lying anywhere, their letter and centre in the table's mm."""
    if not pictures:
        return []
    flip = _flip_of(view, state)
    return [
        [{"text": m.text, **dict(zip("xy", flip.point(*m.at)))} for m in marks if m.at is not None]
        for marks in pictures
    ]


def table_preview(view: View[Any, Any], state: Any, move: Any) -> dict[str, Any] | None:
    """A move being made in ``state`` as the table shows it live (:meth:`~coinprint.view.View.preview`):
    whether the rules would take it and why not, the area it would make (an SVG path in the
    table's mm), the spaces it would touch and the lines shown beside it; None when the game
    previews nothing."""
    preview = view.preview(state, move)
    if preview is None:
        return None
    flip = _flip_of(view, state)
    return {
        "ok": preview.refusal is None,
        "refusal": preview.refusal,
        "d": flip.path([preview.shape]) if preview.shape else "",
        "spaces": list(preview.spaces),
        "lines": list(preview.lines),
    }
