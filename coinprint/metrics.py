"""Design metrics from self-play, in the spirit of Ludii's game evaluation: balance, ties and
timeouts, duration, lead changes, decisiveness, branching, board coverage, who holds each
space at the end, and skill against luck (a strong agent against a weak one).

Each game is replayed move by move on its rules engine by :func:`game_metrics` (top level and
picklable, so a parallel runner can call it in its workers); :func:`analyse_layout` plays the
games and aggregates them per layout with 95 % intervals; families of
maps are ranked in :mod:`coinprint.families`. Nothing here draws.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any

from coinprint import caps, selfplay
from coinprint.caps import MAX_TURNS
from coinprint.errors import UsageError
from coinprint.selfplay import RunPlan
from coinprint.source import LayoutSource, rules_for
from coinprint.sprt import DEFAULT_PRECISION, UntilDecided
from coinprint.stats import Share, Spread, spread, wilson

if TYPE_CHECKING:
    from coinprint.game import Engines

SKILL_AGENTS = ("montecarlo", "random")
"""The strong and the weak agent of the skill test."""


# -- one game ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameMetrics:
    """What one game shows, from its moves replayed on the rules."""

    length: int
    """Turns played: the moves players chose (:meth:`~coinprint.search.Search.is_decision`; a
    Flick shot and what the table did after it are one turn)."""
    winner: str | None
    """The winner, or None for a tie or a timeout."""
    timeout: bool
    lead_changes: int
    """How often the leader by the rules' evaluation changed (even positions are skipped)."""
    decided_at: float | None
    """Share of the moves played before the final winner led for good (0: led from the first
    move on; near 1: only at the very end); None without a winner."""
    branching: float
    """Mean number of choices in the positions a move was chosen from (a capture counted once,
    whatever the details decided after it: :meth:`~coinprint.search.Search.decision_key`)."""
    used: tuple[str, ...]
    """Ids of the spaces held by someone at some point of the game (the start included)."""
    final: tuple[tuple[str, str], ...]
    """(space id, player) for every space held at the end."""
    score_lead_changes: int = 0
    """How often the leader on the score (the result's points) changed, even scores skipped."""
    drama: float | None = None
    """Share of the moves after which the final winner trailed on the score; None without a winner."""
    repetitions: int = 0
    """Moves that led to a position seen before in the game (:meth:`~coinprint.search.Search.position_key`)."""
    margin: int | None = None
    """The winner's points minus the loser's at the end; None without a winner."""
    kinds: tuple[tuple[str, int], ...] = ()
    """How many actions of each kind the game had (from the notation: place, touch, flip, castle,
    move, capture, pay; a Map move that sends a coin is a capture)."""
    first_kind: str = ""
    """The kind(s) of the first move, joined by ``+`` (``capture``, ``place+place``)."""


def game_metrics(engines: Engines, record: Any, outcome: Any = None, *, branching: bool = True) -> GameMetrics:
    """Replay ``record.moves`` on ``engines.rules`` and measure the game (with the game's search
    for evaluations and keys, and its view for who holds each space).

    ``outcome`` (a self-play :class:`coinprint.search.Outcome`) says whether the game
    was cut at the turn limit; without it the record's ``timeout`` flag is read. Listing
    every legal move can cost more than playing (Coin Age's whole turns): ``branching=False``
    skips it and reports 0. A record that does not replay raises the engine's move error
    (:class:`coinprint.engine.IllegalMoveError` or ``InvalidMoveError``). With an
    ``outcome`` the moves are the engine's own, just played, so they are applied without
    checking them again.
    """
    rules, search, view = engines.rules, engines.search, engines.view
    first, second = rules.players
    state = rules.initial_state()
    used = set(view.holders(state))
    leads: list[float] = []
    score_leads: list[int] = []
    legal_counts: list[int] = []
    seen = {search.position_key(state)}
    repetitions = turns = 0
    kinds: dict[str, int] = {}
    first_kind = ""
    play = rules.apply if outcome is None else rules.apply_unchecked

    def turn_ended() -> None:  # the position a turn led to, once all that followed from it is played
        nonlocal repetitions
        leads.append(search.evaluate(state, first))
        score = rules.result(state).score
        score_leads.append(score.get(first, 0) - score.get(second, 0))
        key = search.position_key(state)
        repetitions += key in seen
        seen.add(key)

    for text in record.moves:
        move = rules.parse_move(state, text)
        search.recorded_chance(state, move)
        if search.is_decision(state, move):
            if turns:
                turn_ended()
            turns += 1
            if branching:
                legal_counts += _choices(search, state)
            these = move_kinds(text)
            for kind in these:
                kinds[kind] = kinds.get(kind, 0) + 1
            if not first_kind:
                first_kind = "+".join(these) or "pass"
        play(state, move)
        used.update(view.holders(state))
    if turns:
        turn_ended()
    timeout = bool(outcome.timeout) if outcome is not None else bool(record.extra.get("timeout"))
    winner = None if timeout or not rules.is_over(state) else rules.result(state).winner
    winner_leads = [value if winner == first else -value for value in leads]
    drama = margin = None
    if winner is not None:
        sign = 1 if winner == first else -1
        drama = sum(1 for lead in score_leads if sign * lead < 0) / len(score_leads) if score_leads else 0.0
        final = rules.result(state).score
        margin = sign * (final.get(first, 0) - final.get(second, 0))
    return GameMetrics(
        length=turns,
        winner=winner,
        timeout=timeout,
        lead_changes=lead_changes(leads),
        decided_at=decided_at(winner_leads) if winner is not None else None,
        branching=sum(legal_counts) / len(legal_counts) if legal_counts else 0.0,
        used=tuple(sorted(used)),
        final=tuple(sorted(view.holders(state).items())),
        score_lead_changes=lead_changes(score_leads),
        drama=drama,
        repetitions=repetitions,
        margin=margin,
        kinds=tuple(sorted(kinds.items())),
        first_kind=first_kind,
    )


def _choices(search: Any, state: Any) -> list[int]:
    """How many different choices the player to move weighs (:meth:`~coinprint.search.Search.candidates`,
    a capture counted once whatever is decided after it); none where the position cannot say
    (a Flick log that does not tell where the coins lie)."""
    try:
        return [len({search.decision_key(m) for m in search.candidates(state)})]
    except UsageError:
        return []


MOVE_KINDS = ("place", "touch", "flip", "castle", "move", "capture", "pay", "shot")
"""The action words of the games' notations (docs/formats.md, Move notation)."""


def move_kinds(text: Any) -> tuple[str, ...]:
    """The kinds of action in one move's notation: each ``;``-separated part's first word when
    it is an action word (Coin Age's ``throw`` is chance, not an action); a Map ``move N send M``
    is a capture. An event written as an object (Flick's) is of the kind its first key names."""
    if isinstance(text, dict):
        return tuple(k for k in list(text)[:1] if k in MOVE_KINDS)
    if not isinstance(text, str):
        return ()
    known = _KINDS.get(text)
    if known is None:
        known = _read_kinds(text)
        if len(_KINDS) < KINDS_CACHE:
            _KINDS[text] = known
    return known


KINDS_CACHE = 1 << 16
"""Most move texts whose kinds are remembered (a Map's moves repeat across its games)."""
_KINDS: dict[str, tuple[str, ...]] = {}


def _read_kinds(text: str) -> tuple[str, ...]:
    """:func:`move_kinds` of a text, read."""
    found = []
    for part in text.split(";"):
        words = part.split()
        if not words or words[0].lower() not in MOVE_KINDS:
            continue
        kind = words[0].lower()
        found.append("capture" if kind == "move" and "send" in (w.lower() for w in words) else kind)
    return tuple(found)


def lead_changes(leads: Sequence[float]) -> int:
    """How often the sign of ``leads`` (one player's lead after each move) changes, skipping
    even positions: ``[1, 0, -2, -1, 3]`` changes twice."""
    changes, leader = 0, 0
    for value in leads:
        sign = (value > 0) - (value < 0)
        if sign and leader and sign != leader:
            changes += 1
        leader = sign or leader
    return changes


def decided_at(winner_leads: Sequence[float]) -> float:
    """Share of the moves before the winner leads for good: with the winner's lead after each
    move ``[1, -1, 2, 3]`` it leads for good from move 3, so 2 of 4 moves came before: 0.5."""
    if not winner_leads:
        return 0.0
    behind = [index for index, value in enumerate(winner_leads, start=1) if value <= 0]
    return (behind[-1] if behind else 0) / len(winner_leads)


# -- one layout ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Skill:
    """The strong agent against the weak one, half the games in each seating."""

    strong: str
    weak: str
    games: int
    strong_wins: int
    weak_wins: int
    ties: int
    timeouts: int
    share: Share
    """The strong agent's share of the decided games: near 50 % luck decides, near 100 % skill."""


@dataclass(frozen=True)
class LayoutReport:
    """Every figure for one layout from ``games`` games of ``agent`` against itself."""

    layout: str
    game: str
    agent: str
    seed: int
    max_turns: int
    players: tuple[str, str]
    games: int
    wins: dict[str, int]
    ties: int
    timeouts: int
    first_share: Share
    """The first player's share of the decided games."""
    tie_share: Share
    timeout_share: Share
    length: Spread
    lead_changes: Spread
    decided_at: Spread
    """Over decided games: share of moves before the winner led for good."""
    branching: Spread
    coverage: Spread
    """Per game: share of the spaces held at some point."""
    spaces: tuple[str, ...]
    held: dict[str, dict[str, float]]
    """Space id → player → share of games in which the player held it at the end."""
    lengths: tuple[int, ...]
    """Every game's length, in game order (for the histogram)."""
    skill: Skill | None = None
    stopped_early: bool = False
    """True when play stopped before ``games`` because the first-player figure was decided."""
    lead_changes_per_move: Spread | None = None
    """Per game: changes of the leader on the score, divided by the moves played (Ludii's
    Lead Change, Browne 2008)."""
    drama: Spread | None = None
    """Over decided games: share of moves after which the final winner trailed on the score
    (Ludii's Drama: the winner came back from behind)."""
    repetition: Spread | None = None
    """Per game: share of moves that led to a position seen before (Ludii's Stalling)."""
    margin: Spread | None = None
    """Over decided games: the winner's points minus the loser's (the winning-margin distribution)."""
    move_kinds: dict[str, float] = field(default_factory=dict)
    """Kind of action → its share of every action played (Ludii's move-type usage)."""
    first_moves: dict[str, float] = field(default_factory=dict)
    """Kind(s) of the first move → share of games that opened with it."""
    sequential: str | None = None
    """With ``--until-decided``: the sequential test's verdict, the headline of the figures."""
    names: dict[str, str] = field(default_factory=dict)
    """Space id → the name printed on the board (its label), where it differs from nothing."""

    def space_name(self, space: str) -> str:
        """The name a player reads on the board for space id ``space``."""
        return self.names.get(space, space)

    @property
    def decided(self) -> int:
        return self.games - self.ties - self.timeouts

    def to_json(self) -> dict[str, Any]:
        """Every figure as plain JSON values (the ``--json`` output's per-layout entry)."""
        doc = asdict(self)
        doc["players"] = list(self.players)
        doc["spaces"] = list(self.spaces)
        doc["lengths"] = list(self.lengths)
        doc["decided"] = self.decided
        return doc


def summarise_layout(
    layout: str,
    game: str,
    agent: str,
    seed: int,
    max_turns: int,
    players: tuple[str, str],
    spaces: Sequence[str],
    measured: Sequence[GameMetrics],
    skill: Skill | None = None,
    stopped_early: bool = False,
    names: Sequence[str] | None = None,
) -> LayoutReport:
    """Aggregate per-game metrics of one layout (``names``: the spaces' printed names, in the
    order of ``spaces``; their ids when not given)."""
    games = len(measured)
    wins = {p: sum(1 for m in measured if m.winner == p) for p in players}
    timeouts = sum(1 for m in measured if m.timeout)
    ties = games - timeouts - sum(wins.values())
    counts: dict[str, dict[str, int]] = {s: {p: 0 for p in players} for s in spaces}
    for m in measured:
        for space, player in m.final:
            if space in counts and player in counts[space]:
                counts[space][player] += 1
    held = {s: {p: n / games if games else 0.0 for p, n in by.items()} for s, by in counts.items()}
    return LayoutReport(
        layout=layout,
        game=game,
        agent=agent,
        seed=seed,
        max_turns=max_turns,
        players=players,
        games=games,
        wins=wins,
        ties=ties,
        timeouts=timeouts,
        first_share=wilson(wins[players[0]], games - ties - timeouts),
        tie_share=wilson(ties, games),
        timeout_share=wilson(timeouts, games),
        length=spread([m.length for m in measured]),
        lead_changes=spread([m.lead_changes for m in measured]),
        decided_at=spread([m.decided_at for m in measured if m.decided_at is not None]),
        branching=spread([m.branching for m in measured]),
        coverage=spread([len(m.used) / len(spaces) for m in measured] if spaces else []),
        spaces=tuple(spaces),
        held=held,
        lengths=tuple(m.length for m in measured),
        skill=skill,
        stopped_early=stopped_early,
        lead_changes_per_move=spread([m.score_lead_changes / m.length for m in measured if m.length]),
        drama=spread([m.drama for m in measured if m.drama is not None]),
        repetition=spread([m.repetitions / m.length for m in measured if m.length]),
        margin=spread([m.margin for m in measured if m.margin is not None]),
        move_kinds=_shares(kind for m in measured for kind, count in m.kinds for _ in range(count)),
        first_moves=_shares(m.first_kind for m in measured if m.first_kind),
        names=dict(zip(spaces, names)) if names is not None else {},
    )


def _shares(items: Iterable[str]) -> dict[str, float]:
    """Each distinct item's share of all the items, most common first (ties by name)."""
    counts: dict[str, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    total = sum(counts.values())
    return {item: counts[item] / total for item in sorted(counts, key=lambda k: (-counts[k], k))}


def play_measured(
    source: LayoutSource,
    agents: dict[str, str],
    plan: RunPlan,
    *,
    branching: bool = True,
    options: dict[str, Any] | None = None,
) -> Iterator[GameMetrics]:
    """Self-play the games of ``plan`` on the layout of ``source`` (read and checked once) and
    measure each in the process that played it; yields the metrics in game order. Stopping
    the iteration stops the workers."""
    from functools import partial

    setup = selfplay.GameSetup.build(source, agents, plan.max_turns, options)
    measure = game_metrics if branching else partial(game_metrics, branching=False)
    results = selfplay.run(setup, plan, summarise=measure)
    try:
        for result in results:
            yield result.summary
    finally:
        results.close()


def measure_skill(source: LayoutSource | str, plan: RunPlan, options: dict[str, Any] | None = None) -> Skill:
    """Montecarlo against random over the games of ``plan``: the first half with montecarlo
    moving first, the rest with random moving first (seeds continue, so every game has its own)."""
    if isinstance(source, str):
        source = LayoutSource.resolve(source)
    games, seed = plan.games, plan.seed
    players = rules_for(source.layout, options).players
    strong, weak = SKILL_AGENTS
    first_half = (games + 1) // 2
    strong_wins = weak_wins = ties = timeouts = 0
    for seating, count, start in ((0, first_half, seed), (1, games - first_half, seed + first_half)):
        if count == 0:
            continue
        agents = {players[seating]: strong, players[1 - seating]: weak}
        strong_side = players[seating]
        for m in play_measured(source, agents, plan.later(count, start - seed), branching=False, options=options):
            if m.timeout:
                timeouts += 1
            elif m.winner is None:
                ties += 1
            elif m.winner == strong_side:
                strong_wins += 1
            else:
                weak_wins += 1
    share = wilson(strong_wins, strong_wins + weak_wins)
    return Skill(strong, weak, games, strong_wins, weak_wins, ties, timeouts, share)


def analyse_layout(
    layout_spec: str,
    plan: RunPlan,
    agent: str = "random",
    *,
    skill_games: int = 0,
    until_decided: bool = False,
    precision: float = DEFAULT_PRECISION,
    branching: bool = True,
    options: dict[str, Any] | None = None,
    note: Callable[[str], None] | None = None,
    game: str | None = None,
    units: str = "mm",
    tolerance_mm: float | None = None,
    progress: Callable[[int], None] | None = None,
) -> LayoutReport:
    """Self-play the games of ``plan`` (how many, from which seed, cut at how many moves, and
    where: see :class:`~coinprint.selfplay.RunPlan`) with ``agent`` against itself on
    ``layout_spec`` and measure them; ``skill_games`` more games pit montecarlo against
    random. ``options`` are the game's rule options (e.g. Coin Table's ``{"supply": 30}``).
    ``note`` hears what is being played next when that may take a while (the skill games). A
    layout file is read for ``game`` (needed for drawings) and must be a valid layout of it.

    With ``until_decided`` play stops by ``balance``'s rule (:class:`coinprint.sprt.UntilDecided`
    with ``precision`` points): at the first decided game after which the sequential test
    decides or the interval is narrower than ``precision``; the plan's games are then the cap.
    ``branching=False`` skips counting legal moves (see :func:`game_metrics`).
    ``progress`` hears each game played (not the skill games). Same arguments, same report.
    """

    games, seed, max_turns = plan.games, plan.seed, plan.max_turns
    check_run(games, seed, max_turns, skill_games)
    rule = UntilDecided(precision) if until_decided else None
    source = LayoutSource.resolve(layout_spec, game=game, units=units, tolerance_mm=tolerance_mm)
    layout = source.layout
    rules = rules_for(layout, options)
    players: tuple[str, str] = rules.players
    measured: list[GameMetrics] = []
    stopped = False
    agents = {p: agent for p in players}
    played = play_measured(source, agents, plan, branching=branching, options=options)
    try:
        for m in played:
            measured.append(m)
            if progress is not None:
                progress(1)
            if rule is None or m.winner is None:
                continue
            if rule.add(m.winner == players[0]):
                stopped = len(measured) < games
                break
    finally:
        close = getattr(played, "close", None)
        if close is not None:
            close()  # stop the workers now, not when the generator is collected
    skill = None
    if skill_games:
        if note is not None:
            note(
                f"{layout_spec}: {skill_games} games of {SKILL_AGENTS[0]} against {SKILL_AGENTS[1]} for the skill figure"
            )
        skill = measure_skill(source, plan.later(skill_games, games), options)
    spaces = [space.id for space in layout.spaces]
    names = [space.name for space in layout.spaces]
    report = summarise_layout(
        layout_spec, layout.game, agent, seed, max_turns, players, spaces, measured, skill, stopped, names
    )
    if rule is not None:
        report = replace(report, sequential=rule.test.describe())
    return report


FAIR_TURNS_PER_SPACE = 150
"""The fair-map search cuts a game after this many moves per space (at least
:data:`FAIR_MIN_TURNS`): random play on a Map of n countries lasts about 3·n^1.6 moves
(17 moves per country at 21 countries, 100 at 401), so 150 per space leaves nearly every
game on every board size decided."""
FAIR_MIN_TURNS = 400


def scaled_max_turns(spaces: int) -> int:
    """The turn limit for a layout of ``spaces`` spaces when none is given (within the cap)."""

    return min(MAX_TURNS, max(FAIR_MIN_TURNS, FAIR_TURNS_PER_SPACE * spaces))


def check_run(games: int, seed: int, max_turns: int, skill_games: int = 0) -> None:
    """The caps on one layout's games (checked before any game is played): games, turns,
    and every seed the games and the skill games use."""

    caps.check_games(games, "games")
    caps.check_skill_games(skill_games, "skill_games")
    caps.check_max_turns(max_turns, "max_turns")
    caps.check_seed(seed, "seed")
    caps.check_seed(seed + games + skill_games - 1, "seed + games + skill_games - 1")
