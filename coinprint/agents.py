"""The agents by name, and agent specs (``mcts:iterations=800``): what ``play``, ``balance``,
``analyse`` and ``ladder`` accept. The agents themselves are in :mod:`coinprint.search`
(random, greedy, aim, montecarlo) and :mod:`coinprint.mcts`."""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from typing import Any

from coinprint.caps import MAX_AGENT_BUDGET
from coinprint.errors import UsageError
from coinprint.mcts import MCTSAgent
from coinprint.search import Agent, AimAgent, GreedyAgent, MonteCarloAgent, RandomAgent


def _mcts(**params: Any) -> Agent[Any, Any]:
    return MCTSAgent(**params)


AGENTS: dict[str, Callable[..., Agent[Any, Any]]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "aim": AimAgent,
    "montecarlo": MonteCarloAgent,
    "mcts": _mcts,
}
"""Agents by the names ``coinprint play`` accepts (each takes its parameters as keywords)."""

AGENT_PARAMETERS: dict[str, dict[str, tuple[type, int | float, int | float]]] = {
    "random": {},
    "greedy": {},
    "aim": {"repeats": (int, 1, 1000)},
    "montecarlo": {"playouts": (int, 1, MAX_AGENT_BUDGET), "depth": (int, 1, 10**5), "min_per_move": (int, 1, 10**4)},
    "mcts": {
        "iterations": (int, 1, MAX_AGENT_BUDGET),
        "exploration": (float, 0.0, 10.0),
        "depth": (int, 1, 10**5),
        "mix": (float, 0.0, 1.0),
        "widen": (float, 0.1, 1000.0),
        "halving": (int, 0, 1000),
        "playouts": (int, 1, 1000),
    },
}
"""Each agent's parameters: (type, least, most)."""


GameAgents = dict[str, tuple[Callable[..., Agent[Any, Any]], dict[str, tuple[type, int | float, int | float]]]]
"""Agents a game adds to the shared ones (:attr:`coinprint.search.Search.agents`): by name, the
maker and its parameters as in :data:`AGENT_PARAMETERS`."""


def agent_parameters(
    spec: str, player: str = "", extra: GameAgents | None = None
) -> tuple[str, dict[str, int | float]]:
    """Read an agent spec, ``name`` or ``name:key=value,…`` (``mcts:iterations=800``):
    the name and the parameters, checked. Raises :class:`UsageError` naming what is wrong and
    what is allowed (and ``player``, whose agent it is, when given). ``extra`` are the agents
    the game adds (a Flick parking player)."""
    extra = extra or {}
    name, _, rest = spec.strip().partition(":")
    if name not in AGENTS and name not in extra:
        whose = f" for {player}" if player else ""
        known = ", ".join([*AGENTS, *extra])
        raise UsageError(f"unknown agent {name!r}{whose}; use one of: {known} (e.g. mcts:iterations=800)")
    allowed = extra[name][1] if name in extra else AGENT_PARAMETERS.get(name, {})
    params: dict[str, int | float] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, text = (x.strip() for x in part.partition("="))
        if not eq or key not in allowed:
            known = ", ".join(f"{k}=N" for k in allowed) or "none"
            raise UsageError(f"agent {spec!r}: {part!r} is not a parameter of {name} (its parameters: {known})")
        kind, least, most = allowed[key]
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not least <= value <= most or isinstance(value, float) and not math.isfinite(value):
            what = "a whole number" if kind is int else "a number"
            raise UsageError(f"agent {spec!r}: {key} must be {what} from {least:,} to {most:,}, not {text!r}")
        params[key] = value
    return name, params


def make_agent(spec: str, player: str = "", extra: GameAgents | None = None) -> Agent[Any, Any]:
    """A fresh agent from its spec (see :func:`agent_parameters`; ``extra``, the game's own)."""
    name, params = agent_parameters(spec, player, extra)
    maker = extra[name][0] if extra and name in extra else AGENTS[name]
    return maker(**params)


def checked_agent(spec: str, option: str, game_agents: Collection[str] = ()) -> str:
    """``spec`` when it names an agent with valid parameters; else a :class:`UsageError`
    that names ``option`` (``--agent``, ``--heads``) first. A name in ``game_agents`` (an agent
    a game adds, such as Flick's ``park``) is left for the game to check when it is set up."""
    if spec.strip().partition(":")[0] in game_agents:
        return spec
    try:
        agent_parameters(spec)
    except UsageError as bad:
        raise UsageError(f"{option}: {bad}") from None
    return spec
