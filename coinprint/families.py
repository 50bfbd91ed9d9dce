"""Families of generated maps: their layout specs (one seed after another), each analysed
(:func:`~coinprint.metrics.analyse_layout`) and ranked fairest first, the first player
winning closest to half the decided games. The ``analyse`` command runs :func:`analyse_game`."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from coinprint import caps
from coinprint.caps import check_maps, check_seed
from coinprint.errors import UsageError
from coinprint.metrics import LayoutReport, analyse_layout, check_run
from coinprint.params import parse_layout_name
from coinprint.selfplay import RunPlan
from coinprint.sprt import DEFAULT_PRECISION

if TYPE_CHECKING:
    from coinprint.game import Game


def unfairness(report: LayoutReport) -> float:
    """How far the first player's share is from 50 % (1 when no game was decided)."""
    return abs(report.first_share.value - 0.5) if report.first_share.total else 1.0


def rank_fairest(reports: Iterable[LayoutReport]) -> list[LayoutReport]:
    """Reports fairest first: first-player share closest to 50 %, then the narrower interval,
    then the order given (a stable sort, so ties keep the generation order)."""
    return sorted(reports, key=lambda r: (unfairness(r), r.first_share.high - r.first_share.low))


def family_specs(game: Game, count: int, seed: int, base: str | None = None) -> list[str]:
    """``count`` generated layouts of ``game`` from seeds ``seed``, ``seed + 1``, …: random
    Coin Age maps or Map maps, with the other parameters of ``base`` (a built-in name)."""

    caps.check_maps(count, "count")
    caps.check_seed(seed, "seed")
    caps.check_seed(seed + count - 1, "seed + count - 1")

    generated = game.generated
    if generated is None:
        raise UsageError(f"generated families are for games whose maps grow from a seed, not {game.title}")
    params: dict[str, str] = {}
    if base:
        name, params = parse_layout_name(base)
        if name != game.name:
            raise UsageError(f"--layout {base} is not a {game.name} layout")
    params = {**params, **generated.asks}
    params.pop("seed", None)
    fixed = ",".join(f"{k}={v}" for k, v in params.items())
    return [f"{game.name}:" + ",".join(filter(None, (fixed, f"seed={seed + i}"))) for i in range(count)]


def analyse_game(
    game: Game,
    layout_spec: str | None,
    plan: RunPlan,
    *,
    maps: int | None = None,
    map_seed: int = 0,
    agent: str = "random",
    skill_games: int | None = None,
    until_decided: bool = False,
    precision: float = DEFAULT_PRECISION,
    note: Callable[[str], None] | None = None,
    units: str = "mm",
    tolerance_mm: float | None = None,
) -> list[LayoutReport]:
    """Analyse one layout of ``game`` (``layout_spec``, default the game's standard one) over
    the games of ``plan``, or with ``maps`` that many generated maps from ``map_seed`` on
    (with the other parameters of ``layout_spec`` or of the standard layout), ranked fairest
    first. ``skill_games`` defaults to 10 for one layout and 0 for a family; ``until_decided``,
    ``precision`` and ``note`` are :func:`~coinprint.metrics.analyse_layout`'s."""

    if not game.simulated:
        raise UsageError(f"analyse works for games agents can play, not {game.title}")
    check_run(plan.games, plan.seed, plan.max_turns, 10 if skill_games is None and maps is None else skill_games or 0)
    if maps is not None:
        check_maps(maps, "maps")
        check_seed(map_seed, "map_seed")
        check_seed(map_seed + maps - 1, "map_seed + maps - 1")
    base = layout_spec or game.default_spec

    def measure(spec: str, skill: int) -> LayoutReport:
        return analyse_layout(
            spec,
            plan,
            agent,
            skill_games=skill,
            until_decided=until_decided,
            precision=precision,
            note=note,
            game=game.name,
            units=units,
            tolerance_mm=tolerance_mm,
        )

    if maps is None:
        return [measure(base, 10 if skill_games is None else skill_games)]
    skill = 0 if skill_games is None else skill_games
    return rank_fairest(measure(spec, skill) for spec in family_specs(game, maps, map_seed, base))
