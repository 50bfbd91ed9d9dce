"""The five design questions that close Flick's seed, as arms to play (see
:mod:`coinprint.questions`): parking just outside the goal with penalty H off and on, arsenals
of other coins, playing without penalty F, goals of 3 to 8 sides and 10 to 20 cm, and two
against two. Every arm is the computer playing itself at the ``club`` skill with
:data:`PLAYER`; the physics is swept over the corners of its friction and restitution ranges.
"""

from __future__ import annotations

from dataclasses import replace

from coinprint.games.flick.board import build
from coinprint.games.flick.physics import Placed, Shot, scene_of, simulate
from coinprint.games.flick.table import FRICTION_RANGE, RESTITUTION_RANGE, Table
from coinprint.questions import Arm, Question, Sweep
from coinprint.units import coin

PLAYER = "aim:repeats=2"
"""Every side's agent: the aiming player with two noisy tries of each shot (a quarter of its
default, so a question's arms play in minutes)."""
HEADS = ("heads", "heads-1", "heads-2")
"""The winners that count for Heads' side (a team game names its seats heads-1, heads-2)."""

NOTES = (
    "it's technically legal for the active player to place miscellaneous coins just barely outside "
    "the goal before taking a shot. Does this contribute to any powerful strategies? … penalty H",
    "Try allowing players to have an arsenal of coins of different shapes and masses … a US penny "
    "will hit a US quarter and then rebound, when another US quarter will not.",
    "Try playing without F.",
    "Try goals of different shapes and sizes.",
    "Try team games with each player by a different side of the goal.",
)


def _arm(name: str, layout: str = "flick", *, heads: str = PLAYER, **options: object) -> Arm:
    return Arm(name, layout, {"heads": heads, "tails": PLAYER}, "heads", HEADS, dict(options))


def questions() -> tuple[Question, ...]:
    """The seed's five notes as questions, each measured as Heads' score."""
    parking = Question(
        1,
        "Is parking coins just outside the goal a powerful strategy, and does penalty H stop it?",
        NOTES[0],
        (
            _arm("aim v aim"),
            _arm("park v aim, no H", heads="park"),
            _arm("park v aim, with H", heads="park", penalty_h=True),
        ),
        "the score of Heads (the parking player in arms 2 and 3)",
    )
    arsenals = Question(
        2,
        "What do other coins change: quarters, pennies, heptagons, a mixed arsenal?",
        NOTES[1],
        (
            _arm("quarters"),
            _arm("pennies", "flick:score_coin=penny"),
            _arm("UK 50p heptagons", "flick:score_coin=uk-50p"),
            _arm("UK 20p heptagons", "flick:score_coin=uk-20p"),
            _arm("quarters and pennies (mixed)", "flick:arsenal=quarter+penny"),
        ),
        "the score of Heads, who shoots first",
        tuple(rebounds()),
    )
    without_f = Question(
        3,
        "What does playing without penalty F change?",
        NOTES[2],
        (_arm("with F"), _arm("without F", without_f=True)),
        "the score of Heads, who shoots first",
    )
    goals = Question(
        4,
        "Do goals of other shapes and sizes change the game?",
        NOTES[3],
        (
            _arm("4 sides, 15 cm"),
            *(_arm(f"{n} sides, 15 cm", f"flick:sides={n}") for n in (3, 5, 6, 7, 8)),
            *(_arm(f"4 sides, {w} cm", f"flick:width={w}cm") for w in (10, 20)),
        ),
        "the score of Heads, who shoots first",
    )
    teams = Question(
        5,
        "Two against two, each player at a side of the goal",
        NOTES[4],
        (
            _arm("one against one"),
            Arm(
                "two against two",
                "flick:players=4",
                {seat: PLAYER for seat in ("heads-1", "tails-1", "heads-2", "tails-2")},
                "heads",
                HEADS,
            ),
        ),
        "the score of Heads' side, who shoots first",
    )
    return (parking, arsenals, without_f, goals, teams)


def sweep() -> Sweep:
    """The physics at the four corners of its ranges: friction and restitution each at its
    lowest and its highest."""
    corners = {}
    for mu_name, mu in (("μ low", FRICTION_RANGE[0]), ("μ high", FRICTION_RANGE[1])):
        for e_name, e in (("e low", RESTITUTION_RANGE[0]), ("e high", RESTITUTION_RANGE[1])):
            corners[f"{mu_name}, {e_name}"] = {"friction": mu, "restitution": e}
    return Sweep(corners)


def rebounds(speed: float = 1.0) -> list[str]:
    """The seed's example, from the physics: a coin sent head-on at ``speed`` m/s into a resting
    quarter, and how far back it comes (or how far on it follows) after the impact."""
    lines = []
    table = Table()
    for striker in ("penny", "quarter"):
        after = _head_on(striker, table, speed)
        word = f"rebounds {-after:.1f} mm" if after < 0 else f"follows {after:.1f} mm on"
        lines.append(
            f"a {striker} struck head-on at {speed:g} m/s into a resting quarter {word} "
            f"(restitution {table.restitution:g}; a penny rebounds when it is above "
            f"{coin('penny').mass_g:g}/{coin('quarter').mass_g:g} = {coin('penny').mass_g / coin('quarter').mass_g:.3f})"
        )
    return lines


def _head_on(striker: str, table: Table, speed: float) -> float:
    """Where the striker stops, in mm along its shot from where it touched the quarter."""
    base = scene_of(build())
    quarter, hitter = coin("quarter"), coin(striker)
    y = -260.0  # far outside the goal, on the table
    touch_x = -(quarter.radius_mm + hitter.radius_mm)
    coins = (Placed("t1", quarter, 0.0, y), Placed("h1", hitter, touch_x - 40.0, y))
    outcome = simulate(replace(base, coins=coins), Shot("h1", touch_x - 40.0, y, 0.0, speed), "heads", table)
    return outcome.rest["h1"][0] - touch_x
