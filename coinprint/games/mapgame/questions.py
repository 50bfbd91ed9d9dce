"""The Map drawn together, asked as design questions (see :mod:`coinprint.questions`): does
drawing the map together change the first player's edge, and what does the four-neighbour rule
do, to the game and to the arcs a player would draw without it. The Map has no physics, so
nothing is swept.
"""

from __future__ import annotations

import random

from coinprint.games.mapgame.arcs import DrawnMap, propose_arc
from coinprint.questions import Arm, Question, Sweep

PLAYER = "greedy"
"""Both sides' agent: the greedy player, which beat random 40 to 0 in drawn games."""
MAPS = 12
"""Maps drawn to count how often the rule refuses an arc drawn without it."""


LOOKAHEAD = "lookahead"
"""O's drawer that looks ahead (play-outs that finish the map and chase on it); it chases as
``greedy`` does, so only the drawing differs."""


def _arm(name: str, layout: str, o: str = PLAYER) -> Arm:
    return Arm(name, layout, {"O": o, "X": PLAYER}, "O", ("O",))


def questions() -> tuple[Question, ...]:
    """Drawing against a generated map, the four-neighbour rule against none, and drawing
    with the chase in mind against drawing the generator's arcs as they come."""
    drawing = Question(
        1,
        "Does drawing the map together change the first player's edge?",
        "both players collaborate to make a map … then O's coin starts in country 20 and X's in 21",
        (_arm("a generated map", "mapgame"), _arm("drawn together (O draws first)", "mapgame:countries=21,draw=1")),
        "the score of O, who draws first and moves first",
    )
    limit = Question(
        2,
        "What does the four-neighbour rule do?",
        "each new country must hold a coin and border at most four countries when drawn",
        (
            _arm("drawn, at most 4 neighbours", "mapgame:countries=21,draw=1"),
            _arm("drawn, at most 8 neighbours", "mapgame:countries=21,max_neighbours=8,draw=1"),
        ),
        "the score of O, who draws first and moves first",
        tuple(refusals()),
    )
    strategy = Question(
        3,
        "Do drawing strategies matter?",
        "both players collaborate to make a map … then O's coin starts in country 20 and X's in 21",
        (
            _arm("O draws arcs as they come", "mapgame:countries=21,draw=1"),
            _arm("O draws looking ahead", "mapgame:countries=21,draw=1", LOOKAHEAD),
        ),
        "the score of O, who draws first and moves first (both chase alike)",
    )
    return (drawing, limit, strategy)


def sweep() -> Sweep:
    """No physics to sweep."""
    return Sweep({})


def refusals(maps: int = MAPS, countries: int = 21, seed: int = 1) -> list[str]:
    """How often the four-neighbour rule refuses the arc a player would draw without it: on
    ``maps`` maps drawn arc by arc within the rule, the generator's next arc with no limit (up
    to 8 neighbours), judged by the rule."""
    rng = random.Random(seed)
    wanted = refused = 0
    by_half = [[0, 0], [0, 0]]  # countries 2–11 and 12–21: [wanted, refused]
    for _ in range(maps):
        drawn = DrawnMap(max_neighbours=4)
        while len(drawn) < countries:
            free = DrawnMap.__new__(DrawnMap)
            free.__dict__.update(drawn.__dict__)
            free.max_neighbours = 8
            arc = propose_arc(free, rng, growth="sprawling")
            if arc is not None:
                half = by_half[len(drawn) + 1 > 11]
                wanted += 1
                half[0] += 1
                if drawn.judge(arc).refusal is not None:
                    refused += 1
                    half[1] += 1
            kept = propose_arc(drawn, rng)
            if kept is None:
                break
            drawn.draw(kept)
    share = refused / wanted if wanted else 0.0
    early, late = (h[1] / h[0] if h[0] else 0.0 for h in by_half)
    return [
        f"the rule refused {refused} of {wanted} arcs drawn without it ({share:.0%}): {early:.0%} of countries "
        f"2–11, {late:.0%} of countries 12–21 ({maps} maps; each arc the generator's own, drawn with no "
        "neighbour limit: the generator draws small countries, so this counts only the arcs it would draw)"
    ]
