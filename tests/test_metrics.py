"""Design metrics: hand-counted records, tiny layouts whose answers are known by construction,
and the statistics checked against textbook values."""

import json
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinprint.analysis import builtin_layout, resolve_layout, self_play
from coinprint.caps import MAX_TURNS
from coinprint.engine import Record
from coinprint.families import family_specs, rank_fairest
from coinprint.layout import Layout, Space
from coinprint.metrics import analyse_layout, decided_at, game_metrics, lead_changes
from coinprint.registry import GAMES
from coinprint.selfplay import RunPlan
from coinprint.source import engines_for
from coinprint.stats import spread, wilson


def _square(x0: float, y0: float, x1: float, y1: float) -> tuple:
    return (((x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)),)


def map_layout(triangle: bool) -> Layout:
    """Three 30 mm countries. O starts in country 2, X in country 3 (the last two).

    triangle: 1 lies on top of 2 and 3, which touch: every pair borders (O can capture at once).
    path:     2 | 1 | 3 in a row: O's only move is into 1, which claims the last country.
    """
    if triangle:
        rings = {1: _square(0, 30, 60, 60), 2: _square(0, 0, 30, 30), 3: _square(30, 0, 60, 30)}
    else:
        rings = {2: _square(0, 0, 30, 30), 1: _square(30, 0, 60, 30), 3: _square(60, 0, 90, 30)}
    spaces = [
        Space(f"c{k}", rings[k], label=str(k), order=k, start={2: "O", 3: "X"}.get(k), properties={"color": k % 3})
        for k in (1, 2, 3)
    ]
    return Layout("mapgame", spaces, meta={"params": {"countries": 3}})


def _record(game: str, moves: list[str]) -> Record:
    return Record(game, "hand", moves)


# -- one game, counted by hand -------------------------------------------------------------------
def test_map_capture_chase_counted_by_hand():
    engines = engines_for(map_layout(triangle=True))
    # O on 2, X on 3; every country borders the others, so each mover has 3 legal moves:
    # into the free neighbour, or onto the rival's coin sending it to either other country.
    moves = ["move 3 send 2", "move 3 send 1", "move 3 send 2", "move 1"]
    # O's lead after each move (claims + 0.1 × (free countries next to O − next to X)):
    # 1: O takes 3 (O 2, X 0), both coins next to free 1     → 2.0
    # 2: X takes 3 back, O sent to 1 (O 1, X 1); X next to 1 → -0.1
    # 3: O takes 3 again, X sent to 2 (O 2, X 0)             → 2.0
    # 4: X claims 1 (O 2, X 1): all claimed, O wins          → 1.0
    m = game_metrics(engines, _record("mapgame", moves))
    assert (m.length, m.winner, m.timeout) == (4, "O", False)
    assert m.lead_changes == 2  # O → X → O
    assert m.decided_at == pytest.approx(2 / 4)  # O led for good from move 3 on
    # Each mover chooses between 2 countries (a capture counts once, wherever it sends).
    assert m.branching == pytest.approx(2.0)
    # On the score (claims only): O 2-0, 1-1, 2-0, 2-1: never behind, never a change of
    # leader; O wins by 1. Move 3 re-creates move 1's position (O on 3, X on 2, O holds 2 and
    # 3, X to move): one repetition. Three captures, then a move; the game opened with a capture.
    assert (m.score_lead_changes, m.drama, m.margin, m.repetitions) == (0, 0.0, 1, 1)
    assert dict(m.kinds) == {"capture": 3, "move": 1} and m.first_kind == "capture"
    assert m.used == ("c1", "c2", "c3")
    assert dict(m.final) == {"c1": "X", "c2": "O", "c3": "O"}


def test_map_first_move_capture_wins_wire_to_wire():
    engines = engines_for(map_layout(triangle=True))
    # 1: O takes 3, X sent to 1 → O 2, X 0. 2: X walks onto 2 (O's, no coin): nothing changes.
    # 3: O claims 1 → O 3, X 0. O leads after every move; 3 moves listed each time.
    m = game_metrics(engines, _record("mapgame", ["move 3 send 1", "move 2", "move 1"]))
    assert (m.length, m.winner, m.lead_changes, m.decided_at) == (3, "O", 0, 0.0)
    assert m.branching == pytest.approx(2.0)
    # Country 1 was held by no one until the last move (a coin on it is not a claim).
    assert m.used == ("c1", "c2", "c3") and dict(m.final) == {"c1": "O", "c2": "O", "c3": "O"}


def test_cointable_side_two_record_counted_by_hand():
    engines = engines_for(builtin_layout("cointable:size=2"), {"supply": 3})
    # 7 cells. Move 1: 7 empty cells to place on. Move 2: 6 places + touch b2. Move 3: 5 places
    # + touch a1 + touch b2 (no flip: a1 has one heads neighbour). The third coin empties the
    # supply: heads 2, tails 1. Heads' lead after each move: 1, 0, 1 (an even position is no
    # lead change); heads led for good only after move 3 (move 2 was level).
    m = game_metrics(engines, _record("cointable", ["place b2", "place a1", "place c3"]))
    assert (m.length, m.winner, m.lead_changes) == (3, "heads", 0)
    assert m.decided_at == pytest.approx(2 / 3)
    assert m.branching == pytest.approx(7.0)
    assert m.used == ("a1", "b2", "c3") and dict(m.final) == {"a1": "tails", "b2": "heads", "c3": "heads"}


def test_coin_age_turns_are_counted_for_their_recorded_throw():
    engines = engines_for(builtin_layout("coinage"))
    # No match on an empty map: the turn allows a capture and a move, but there is nothing to
    # capture or move, so the only turn is the pass.
    m = game_metrics(engines, _record("coinage", ["throw Q- N- P- D-"]))
    assert m.branching == 1.0 and m.length == 1 and m.used == () and m.winner is None


def test_a_timeout_has_no_winner_and_no_decisiveness():
    engines = engines_for(map_layout(triangle=True))
    record = Record("mapgame", "hand", ["move 3 send 1"], extra={"timeout": True})
    m = game_metrics(engines, record)
    assert m.timeout and m.winner is None and m.decided_at is None


def test_lead_changes_and_decided_at_by_hand():
    assert lead_changes([1, 0, -2, -1, 3]) == 2
    assert lead_changes([0, 0, 1, 1]) == 0
    assert decided_at([1, -1, 2, 3]) == 0.5
    assert decided_at([1, 2]) == 0.0
    assert decided_at([-1, -1, 0]) == 1.0  # never ahead by the evaluation: decided at the very end


# -- statistics ---------------------------------------------------------------------------------------------
def test_wilson_matches_the_textbook_values():
    share = wilson(50, 100)  # 0.4038 to 0.5962 with z = 1.96
    assert share.value == 0.5 and share.low == pytest.approx(0.4038, abs=1e-4)
    assert share.high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(10, 10).low == pytest.approx(10 / (10 + 1.959964**2), abs=1e-9)  # p = 1: n / (n + z²)
    assert (wilson(0, 0).low, wilson(0, 0).high) == (0.0, 1.0)


def test_spread_by_hand_and_against_the_statistics_module():
    values = [1, 2, 3, 4, 10]
    s = spread(values)
    # mean 4; squares of deviations 9+4+1+0+36 = 50, sd = √(50/4); t(4 df) = 2.776.
    assert s.mean == 4 and s.sd == pytest.approx(12.5**0.5)
    assert s.high - s.mean == pytest.approx(2.776 * 12.5**0.5 / 5**0.5, rel=2e-4)  # t from a 3-decimal table
    # Linear percentiles: position 0.4 → 1.4, 2 → 3, 3.6 → 4 + 0.6 × 6 = 7.6.
    assert (s.p10, s.p50, s.p90) == pytest.approx((1.4, 3.0, 7.6))
    deciles = statistics.quantiles(values, n=10, method="inclusive")
    assert (s.p10, s.p90) == pytest.approx((deciles[0], deciles[-1]))


# -- layouts whose answers are known by construction -------------------------------------------------------
def test_map_where_the_first_mover_wins_at_once(tmp_path):
    path = tmp_path / "path.geojson"
    path.write_text(map_layout(triangle=False).dumps())
    report = analyse_layout(str(path), RunPlan(12, 3, 50))
    # O's only move claims the last country: every game is O's, in one move, 2 countries to 1.
    assert report.wins == {"O": 12, "X": 0} and report.first_share.value == 1.0
    assert report.first_share.low == pytest.approx(12 / (12 + 1.959964**2))
    assert (report.length.mean, report.length.sd, report.length.p90) == (1, 0, 1)
    assert report.branching.mean == 1.0 and report.coverage.mean == 1.0
    assert report.lead_changes.mean == 0 and report.decided_at.mean == 0.0
    assert report.held == {"c1": {"O": 1.0, "X": 0.0}, "c2": {"O": 1.0, "X": 0.0}, "c3": {"O": 0.0, "X": 1.0}}


def test_coin_table_side_two_with_one_coin_is_the_first_players():
    report = analyse_layout("cointable:size=2", RunPlan(21, 1, 10), options={"supply": 1})
    # Heads places the only coin: the supply is empty, heads wins 1-0 in one move, every time.
    assert report.wins == {"heads": 21, "tails": 0} and report.ties == report.timeouts == 0
    assert report.branching.mean == 7.0  # 7 empty cells
    assert report.coverage.mean == pytest.approx(1 / 7)
    # Exactly one cell is held per game, so the held shares add up to one game.
    assert sum(h["heads"] for h in report.held.values()) == pytest.approx(1.0)


def test_aggregates_agree_with_the_games_self_play_gives():
    report = analyse_layout("cointable:size=2", RunPlan(15, 4, 300))
    played = [o for _, o in self_play("cointable:size=2", {"heads": "random", "tails": "random"}, 15, 4, 300)]
    heads = sum(1 for o in played if not o.timeout and o.result.winner == "heads")
    assert report.wins["heads"] == heads and report.games == 15
    assert list(report.lengths) == [len(o.moves) for o in played]
    assert report.length.mean == pytest.approx(statistics.mean(len(o.moves) for o in played))
    assert json.loads(json.dumps(report.to_json()))["first_share"]["count"] == heads


def test_the_same_seed_gives_the_same_report():
    first = analyse_layout("mapgame:countries=9,seed=2", RunPlan(8, 5, 300))
    again = analyse_layout("mapgame:countries=9,seed=2", RunPlan(8, 5, 300))
    assert first == again


def test_skill_plays_both_seatings():
    report = analyse_layout("cointable:size=2", RunPlan(2, 1, 200), skill_games=4)
    skill = report.skill
    assert skill is not None and skill.games == 4
    assert skill.strong_wins + skill.weak_wins + skill.ties + skill.timeouts == 4


def test_families_are_seeded_maps_and_ranking_puts_the_fairest_first():
    assert family_specs(GAMES["mapgame"], 3, 7, "mapgame:countries=9,seed=1") == [
        "mapgame:countries=9,seed=7",
        "mapgame:countries=9,seed=8",
        "mapgame:countries=9,seed=9",
    ]
    assert family_specs(GAMES["coinage"], 1, 0, "coinage:regions=3-3-2-2") == [
        "coinage:regions=3-3-2-2,map=random,seed=0"
    ]
    reports = [
        analyse_layout(s, RunPlan(20, 1, 300)) for s in family_specs(GAMES["mapgame"], 3, 0, "mapgame:countries=9")
    ]
    ranked = rank_fairest(reports)
    distances = [abs(r.first_share.value - 0.5) for r in ranked]
    assert distances == sorted(distances)
    assert resolve_layout(ranked[0].layout).game == "mapgame"


@pytest.mark.parametrize("spec", ["cointable:size=3", "coinage"])
def test_fast_holders_agree_with_the_coins_drawn(spec):
    from coinprint.view import View

    engines = engines_for(builtin_layout(spec))
    rules, view = engines.rules, engines.view
    assert type(view).holders is not View.holders  # the game's own, faster
    for record, _ in self_play(spec, {p: "random" for p in rules.players}, 3, 2, 300):
        state = rules.initial_state()
        for text in record.moves:
            rules.apply(state, rules.parse_move(state, text))
            assert view.holders(state) == View.holders(view, state)  # the default reads the marks


# -- properties over self-played games ------------------------------------------------------------------------
LAYOUTS = ["cointable:size=2", "cointable:size=3", "mapgame:countries=9,seed=1", "coinage"]


def _check_invariants(spec: str, seed: int) -> None:
    engines = engines_for(resolve_layout(spec))
    rules = engines.rules
    agents = {p: "random" for p in rules.players}
    for record, outcome in self_play(spec, agents, 1, seed, 150):
        m = game_metrics(engines, record, outcome)
        ids = {s.id for s in rules.layout.spaces}
        assert m.length == len(outcome.moves) and m.timeout == outcome.timeout
        assert m.winner == (None if outcome.timeout else outcome.result.winner)
        assert 0 <= m.lead_changes <= max(0, m.length - 1)
        assert m.decided_at is None or 0.0 <= m.decided_at <= 1.0
        assert m.length == 0 or m.branching >= 1.0  # every move played was among those listed
        assert {space for space, _ in m.final} <= set(m.used) <= ids
        assert {player for _, player in m.final} <= set(rules.players)


@settings(max_examples=12, deadline=None)
@given(spec=st.sampled_from(LAYOUTS), seed=st.integers(0, 10_000))
def test_metrics_of_any_self_played_game_are_within_their_bounds(spec, seed):
    _check_invariants(spec, seed)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(spec=st.sampled_from(LAYOUTS), seed=st.integers(0, 10_000_000))
def test_metrics_bounds_hold_over_many_games(spec, seed):
    _check_invariants(spec, seed)


def test_until_decided_stops_where_the_sequential_test_decides(tmp_path):
    path = tmp_path / "path.geojson"
    path.write_text(map_layout(triangle=False).dumps())
    # O (first) wins every game on this board. With an edge of d, each win adds ln((1/2 + d)/(1/2))
    # to the SPRT's evidence and it decides at ln((1 - 5 %)/2.5 %) = ln 38 = 3.638:
    # d = 5 points: 3.638 / ln 1.1 = 38.2, so after game 39; d = 10 points: 3.638 / ln 1.2 = 19.95,
    # so after game 20. (The interval, z²/(n + z²) wide with every game won, is narrower than
    # 5 points only after 73 games, 10 points after 35: later.)
    for precision, stop in ((5.0, 39), (10.0, 20)):
        report = analyse_layout(str(path), RunPlan(100, 1, 50), until_decided=True, precision=precision)
        assert report.stopped_early and report.games == stop and report.first_share.count == stop
    whole = analyse_layout(str(path), RunPlan(30, 1, 50), until_decided=True)
    assert not whole.stopped_early and whole.games == 30  # undecided at the cap: every game is played


def test_fair_search_cuts_games_by_the_size_of_the_map():
    from coinprint.fair import fairest_layout

    # Random play on a 41-country Map lasts about a thousand moves: a fixed limit of 400
    # cut nearly every game; a limit scaled to the map lets them all finish.
    search = fairest_layout(["mapgame:countries=41,seed=1"], RunPlan(10, 1, MAX_TURNS), fair_games=0)
    (report,) = search.reports
    assert report.timeouts == 0 and report.first_share.total == report.games == 10
    assert report.max_turns > max(report.lengths) and sum(length > 400 for length in report.lengths) >= 5


def test_fair_search_refuses_when_no_candidate_had_a_decided_game():
    from coinprint.errors import UsageError
    from coinprint.fair import fairest_layout

    with pytest.raises(UsageError, match="no game on any of the 2 candidates was decided within 3 moves"):
        fairest_layout(["mapgame:countries=9,seed=1", "mapgame:countries=9,seed=2"], RunPlan(10, 1, 3))


def test_the_fair_figure_is_re_measured_on_seeds_the_search_never_used():
    from coinprint.fair import fairest_layout

    specs = [f"mapgame:countries=9,seed={s},growth=packed,starts=apart" for s in (1, 2, 3, 4)]
    search = fairest_layout(specs, RunPlan(20, 7, MAX_TURNS), fair_games=50)
    first, past = search.search_seeds
    # 4 candidates: 20 games each, then 20 more for the fairer 2, and the fairer of those wins.
    assert (first, past) == (7, 7 + 40) and search.rounds == 2
    assert search.check is not None and search.check.seed == past and search.check.games == 50
    # The re-measure is the chosen map analysed alone on the fresh seeds, game for game.
    alone = analyse_layout(search.best.layout, RunPlan(50, past, search.best.max_turns), branching=False)
    assert alone.first_share == search.check.first_share and alone.lengths == search.check.lengths
    # And the search's figure of the winner is its 40 games on seeds 7 to 46.
    assert search.best.games == 40
    assert search.best.layout in {report.layout for report in search.reports}
