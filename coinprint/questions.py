"""A game's design questions answered by play: each question is a set of *arms* (the same game
with one thing changed: a penalty dropped, other coins, another goal, a parking player), every
arm played over the same seeds (paired games: game ``i`` of every arm meets the same luck and
the same hands), and compared with 95 % intervals; then each question is played again with the
table's physics at the corners of its ranges, to see whether its conclusion survives.

A game offers its questions through :attr:`coinprint.game.Game.questions` (Flick's five, in
:mod:`coinprint.games.flick.questions`); nothing here names a game. Games run where
:mod:`coinprint.selfplay` says (``--workers``, ``--dask``), and the answers do not depend on
where.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from coinprint import selfplay
from coinprint.caps import check_games, check_seed
from coinprint.errors import UsageError
from coinprint.selfplay import GameSetup, RunPlan
from coinprint.stats import Spread, spread


@dataclass(frozen=True)
class Arm:
    """One way of playing: a layout spec, the rules' options, an agent spec per player, and the
    players whose win counts for the side measured (``side``: its name in the report)."""

    name: str
    layout: str
    agents: dict[str, str]
    side: str
    winners: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Question:
    """A design question: its number and title, the seed's words, the arms (the first is the
    baseline every other is compared with) and what the measured score is of."""

    number: int
    title: str
    note: str
    arms: tuple[Arm, ...]
    measured: str
    """What the score is, in words ("the parking player's score")."""
    facts: tuple[str, ...] = ()
    """Figures the question is answered with besides play (a rebound from the physics)."""


@dataclass(frozen=True)
class Sweep:
    """The options set at each corner of the physics' ranges (e.g. friction and restitution at
    their lowest and highest), by a name for the corner."""

    corners: dict[str, dict[str, Any]]


@dataclass
class ArmResult:
    """One arm played: the side's score (1 a win, ½ a tie, 0 a loss) game by game, its mean with
    a 95 % interval, the mean length in turns, and how the games ended."""

    arm: Arm
    scores: list[float]
    score: Spread
    turns: Spread
    endings: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "arm": self.arm.name,
            "layout": self.arm.layout,
            "options": self.arm.options,
            "agents": self.arm.agents,
            "side": self.arm.side,
            "games": self.score.n,
            "score": _interval(self.score),
            "turns": round(self.turns.mean, 3),
            "endings": self.endings,
        }


@dataclass
class Difference:
    """An arm against the question's first, game by game (paired): the mean change of the
    side's score with its 95 % interval; ``clear`` when the interval leaves out 0."""

    arm: str
    change: Spread

    @property
    def clear(self) -> bool:
        return self.change.low > 0 or self.change.high < 0

    @property
    def sign(self) -> int:
        return (self.change.mean > 0) - (self.change.mean < 0)

    def to_json(self) -> dict[str, Any]:
        return {"arm": self.arm, "change": _interval(self.change), "clear": self.clear}


@dataclass
class Answer:
    """A question answered: every arm, every arm's difference from the first, and at each corner
    of the sweep whether each clear difference kept its sign."""

    question: Question
    arms: list[ArmResult]
    differences: list[Difference]
    corners: dict[str, list[Difference]]

    def survives(self) -> dict[str, bool]:
        """For each arm, whether its conclusion at the defaults holds at every corner of the
        sweep: a clear difference keeps its sign, and no clear difference stays unclear."""
        kept = {}
        for k, difference in enumerate(self.differences):
            at = [c[k] for c in self.corners.values()]
            if difference.clear:
                kept[difference.arm] = all(d.sign == difference.sign for d in at)
            else:
                kept[difference.arm] = not any(d.clear for d in at)
        return kept

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.question.number,
            "title": self.question.title,
            "note": self.question.note,
            "measured": self.question.measured,
            "facts": list(self.question.facts),
            "arms": [a.to_json() for a in self.arms],
            "differences": [d.to_json() for d in self.differences],
            "corners": {name: [d.to_json() for d in found] for name, found in self.corners.items()},
            "survives": self.survives(),
        }


def _interval(found: Spread) -> dict[str, float]:
    return {"mean": round(found.mean, 4), "low": round(found.low, 4), "high": round(found.high, 4)}


def of_game(game: Any) -> tuple[tuple[Question, ...], Sweep]:
    """The questions ``game`` asks (its :attr:`~coinprint.game.Game.questions` module's
    ``questions()`` and ``sweep()``); a :class:`UsageError` naming the games that ask some when
    it asks none."""
    import importlib

    if not game.questions:
        raise UsageError(f"{game.name} asks no design questions; flick and mapgame do (coinprint questions flick)")
    module = importlib.import_module(game.questions)
    return tuple(module.questions()), module.sweep()


# -- playing ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Plan:
    """How big and where: games per arm at the defaults and at each corner of the sweep, the
    first seed (every arm plays seeds ``seed`` to ``seed + games − 1``), the move limit, and
    where the games run."""

    games: int
    sweep_games: int
    seed: int
    max_turns: int
    workers: int | None = 1
    dask: str | None = None

    def check(self) -> None:
        check_games(self.games, "--games")
        if self.sweep_games:
            check_games(self.sweep_games, "--sweep-games")
        check_seed(self.seed)
        check_seed(self.seed + max(self.games, self.sweep_games) - 1, "--seed + --games")


Progress = Callable[[int], None]


def answer(questions: Sequence[Question], sweep: Sweep, plan: Plan, progress: Progress | None = None) -> list[Answer]:
    """Play every question's arms over paired games, compare each arm with the first, and play
    them again at each corner of ``sweep`` (``plan.sweep_games`` games; none when 0)."""
    plan.check()
    places = [("", {}), *(sweep.corners.items() if plan.sweep_games else [])]
    setups = {  # every arm checked before any game is played
        (q.number, arm.name, corner): _setup(arm, options, plan.max_turns)
        for q in questions
        for arm in q.arms
        for corner, options in places
    }
    answers = []
    for question in questions:
        played = [
            _play(setups[question.number, arm.name, ""], arm, plan.games, plan, progress) for arm in question.arms
        ]
        corners = {}
        if plan.sweep_games:
            for corner in sweep.corners:
                at = [
                    _play(setups[question.number, arm.name, corner], arm, plan.sweep_games, plan, progress)
                    for arm in question.arms
                ]
                corners[corner] = _differences(at)
        answers.append(Answer(question, played, _differences(played), corners))
    return answers


def _setup(arm: Arm, corner: dict[str, Any], max_turns: int) -> GameSetup:
    return GameSetup.build(arm.layout, arm.agents, max_turns, {**arm.options, **corner})


def _play(setup: GameSetup, arm: Arm, games: int, plan: Plan, progress: Progress | None) -> ArmResult:
    run = RunPlan(games, plan.seed, plan.max_turns, plan.workers, plan.dask)
    scores, turns, endings = [], [], Counter[str]()
    stream = selfplay.run(setup, run, summarise=ending)
    try:
        for result in stream:
            won = result.winner in arm.winners
            scores.append(0.5 if result.winner is None else 1.0 if won else 0.0)
            turns.append(float(result.moves))
            endings["timeout" if result.timeout else str(result.summary)] += 1
            if progress:
                progress(1)
    finally:
        stream.close()
    return ArmResult(arm, scores, spread(scores), spread(turns), dict(sorted(endings.items())))


def ending(engines: Any, record: Any, outcome: Any) -> str:
    """How a game ended, in the words before the reason's first colon ("penalty E", "every
    player was skipped (8)"); runs in the worker (a picklable function)."""
    reason = str(outcome.result.reason or "")
    return reason.split(":", 1)[0].strip() or "ended"


def _differences(arms: list[ArmResult]) -> list[Difference]:
    base = arms[0].scores
    return [Difference(a.arm.name, spread([x - y for x, y in zip(a.scores, base, strict=True)])) for a in arms[1:]]


# -- the report ------------------------------------------------------------------------------------------
def report(answers: Sequence[Answer], plan: Plan) -> list[str]:
    """The answers as lines of text."""
    lines = [
        f"{plan.games} paired games an arm (seeds {plan.seed}–{plan.seed + plan.games - 1})"
        + (
            f"; the physics swept over {plan.sweep_games} games a corner (* a clear change there)"
            if plan.sweep_games and any(a.corners for a in answers)
            else ""
        )
    ]
    for found in answers:
        q = found.question
        lines += ["", f"{q.number}. {q.title}", f"   the seed: {q.note}", f"   score: {q.measured}, 95 % intervals"]
        lines += [f"   {fact}" for fact in q.facts]
        for arm in found.arms:
            ends = ", ".join(f"{name} {count}" for name, count in sorted(arm.endings.items(), key=lambda e: -e[1])[:3])
            lines.append(f"   {arm.arm.name:<34} {_pct(arm.score)}  {arm.turns.mean:4.1f} turns; {ends}")
        for difference in found.differences:
            verdict = "a clear change" if difference.clear else "no clear change"
            lines.append(
                f"   {difference.arm} against {found.arms[0].arm.name}: {_signed(difference.change)} ({verdict})"
            )
        names = [d.arm for d in found.differences]
        for name, holds in found.survives().items() if found.corners else []:
            at = ", ".join(
                f"{corner} {_signed_mean(d[names.index(name)].change)}{'*' if d[names.index(name)].clear else ''}"
                for corner, d in found.corners.items()
            )
            lines.append(f"   {name}: the conclusion {'holds' if holds else 'does not hold'} over the sweep ({at})")
    return lines


def _pct(found: Spread) -> str:
    """A score with its interval, in % (the interval kept within 0–100: a score cannot leave it)."""
    return f"{100 * found.mean:5.1f} % [{100 * max(0.0, found.low):5.1f}, {100 * min(1.0, found.high):5.1f}]"


def _signed(found: Spread) -> str:
    """A change of score with its interval, in points (kept within ±100)."""
    return f"{100 * found.mean:+.1f} points [{100 * max(-1.0, found.low):+.1f}, {100 * min(1.0, found.high):+.1f}]"


def _signed_mean(found: Spread) -> str:
    return f"{100 * found.mean:+.1f}"
