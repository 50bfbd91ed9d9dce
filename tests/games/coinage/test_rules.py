"""The Coin Age rules: throws, the turn table, placing, stacking, moving, capturing, paying,
the immediate end, scoring worked by hand, notation, legal turns and self-play records."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinprint.analysis import play_to_folder, validate_record
from coinprint.engine import IllegalMoveError, InvalidMoveError, replay
from coinprint.games.coinage import board as coinage
from coinprint.games.coinage.rules import CoinAgeRules
from coinprint.games.coinage.search import SEARCH_FEATURES, SEARCH_WEIGHTS, CoinAgeSearch
from coinprint.games.coinage.state import Turn
from coinprint.search import GreedyAgent
from coinprint.selfplay import RunPlan

D, P, N, Q = 0, 1, 2, 3
HEADS, TAILS = 0, 1


@pytest.fixture(scope="module")
def rules() -> CoinAgeRules:
    return CoinAgeRules(coinage.build("classic"), {})


@pytest.fixture(scope="module")
def search(rules) -> CoinAgeSearch:
    return CoinAgeSearch(rules)


def at(rules, label: str) -> int:
    return rules.index[rules.layout.space(label).id]


def position(rules, stacks: dict[str, list[tuple[int, int]]], banks=None, turn: int = 0):
    state = rules.initial_state()
    for label, coins in stacks.items():
        state.stacks[at(rules, label)] = tuple(coins)
    if banks is not None:
        state.banks = [list(b) for b in banks]
    state.turn = turn
    return state


def play(rules, state, text: str):
    """Play one turn from its notation (checked), returning the state."""
    rules.apply(state, rules.parse_move(state, text))
    return state


def illegal(rules, state, text: str, words: str) -> None:
    before = state.key()
    with pytest.raises(IllegalMoveError, match=words):
        rules.apply(state, rules.parse_move(state, text))
    assert state.key() == before  # a refused turn changes nothing


# -- set-up and throws ---------------------------------------------------------------------------
def test_banks_start_with_4_dimes_3_pennies_2_nickels_1_quarter(rules):
    state = rules.initial_state()
    assert state.banks == [[4, 3, 2, 1], [4, 3, 2, 1]]
    assert all(not s for s in state.stacks)
    assert rules.to_move(state) == "heads"


def test_the_throw_must_be_one_of_each_denomination_in_the_bank(rules):
    state = rules.initial_state()
    illegal(rules, state, "throw Q+ N+ P+", "one coin of each denomination in the bank")
    illegal(rules, state, "throw Q+ N+ P+ D+ D+", "one coin of each denomination")
    no_quarter = position(rules, {"A1": [(Q, HEADS)]}, banks=[[4, 3, 2, 0], [4, 3, 2, 1]])
    illegal(rules, no_quarter, "throw Q+ N+ P+ D+; place N b1", "one coin of each denomination in the bank \\(N P D\\)")
    play(rules, no_quarter, "throw N+ P- D-; place N b1")


def test_simulated_throws_are_seeded_and_cover_the_bank(rules):
    state = position(rules, {}, banks=[[4, 0, 2, 1], [4, 3, 2, 1]])
    throws = set()
    for seed in range(40):
        rules.begin_turn(state, random.Random(seed))
        assert [r for r, _ in state.throw] == [Q, N, D]
        throws.add(state.throw)
    assert len(throws) > 4
    rules.begin_turn(state, random.Random(3))
    first = state.throw
    rules.begin_turn(state, random.Random(3))
    assert state.throw == first


def test_a_recorded_turn_must_use_the_throw_that_was_made(rules):
    state = rules.initial_state()
    state.throw = ((Q, True), (N, False), (P, False), (D, False))
    illegal(rules, state, "throw Q+ N+ P+ D+; place N a1", "thrown as throw Q\\+ N- P- D-")


# -- the turn table ---------------------------------------------------------------------------------
def test_four_matches_place_two(rules):
    state = play(rules, rules.initial_state(), "throw Q+ N+ P+ D+; place Q a1; place N a2")
    assert state.banks[HEADS] == [4, 3, 1, 0]
    assert rules.to_move(state) == "tails"


def test_four_matches_a_third_placement_needs_a_payment(rules):
    illegal(rules, rules.initial_state(), "throw Q+ N+ P+ D+; place Q a1; place N a2; place P a3", "pay 1 coin first")
    state = play(rules, rules.initial_state(), "throw Q+ N+ P+ D+; pay D; place Q a1; place N a2; place P a3")
    assert state.banks[HEADS] == [3, 2, 1, 0]
    assert state.banks[TAILS] == [5, 3, 2, 1]  # the paid dime joined the opponent's bank


def test_paying_rules(rules):
    illegal(rules, rules.initial_state(), "throw Q+ N+ P+ D-; pay D", "dime is not a matching coin")
    illegal(rules, rules.initial_state(), "throw Q+ N+ P+ D-; pay N", "paying needs 4 matches")
    illegal(rules, rules.initial_state(), "throw Q+ N+ P+ D+; pay D; pay P", "only one coin may be paid")
    illegal(rules, rules.initial_state(), "throw Q+ N+ P+ D+; place Q a1; pay Q", "already been used")
    illegal(rules, rules.initial_state(), "throw Q+ N+ P+ D+; pay D; place D a1", "already been used")


def test_two_or_three_matches_place_two_of_the_matching_coins(rules):
    for throw in ("throw Q+ N+ P- D-", "throw Q+ N+ P+ D-"):
        play(rules, rules.initial_state(), f"{throw}; place Q a1; place N a2")
        illegal(
            rules,
            rules.initial_state(),
            f"{throw}; place Q a1; place N a2; place P a3",
            "no more placements|not a matching",
        )
        illegal(rules, rules.initial_state(), f"{throw}; place Q a1; move a1 a2", "allows no move")
    illegal(rules, rules.initial_state(), "throw Q+ N+ P- D-; place P a1", "penny is not a matching coin")


def test_placing_a_coin_you_did_not_throw(rules):
    state = position(rules, {"C2": [(Q, HEADS)]}, banks=[[4, 3, 2, 0], [4, 3, 2, 1]])
    illegal(rules, state, "throw N+ P+ D+; place Q a1", "quarter is not a matching coin")
    illegal(rules, state, "throw N+ P+ D+; place N a1; place N a2", "already been used")


def test_one_match_place_and_move_in_either_order(rules):
    start = position(rules, {"B2": [(D, TAILS)]})
    play(rules, start.copy(), "throw Q- N+ P- D-; place N a1; move b2 b3")
    play(rules, start.copy(), "throw Q- N+ P- D-; move b2 b3; place N b2")
    play(rules, start.copy(), "throw Q- N+ P- D-")  # everything is optional
    illegal(rules, start.copy(), "throw Q- N+ P- D-; move b2 b3; move b3 b4", "allows no move")
    illegal(rules, start.copy(), "throw Q- N+ P- D-; capture b2", "allows no capture")
    illegal(rules, start.copy(), "throw Q- N+ P- D-; place N a1; place Q a2", "not a matching coin")


def test_zero_matches_capture_and_move(rules):
    start = position(rules, {"B2": [(D, TAILS), (Q, HEADS)], "A1": [(P, TAILS)]})
    state = play(rules, start.copy(), "throw Q- N- P- D-; capture b2; move a1 a2")
    assert state.banks[HEADS] == [4, 3, 2, 2]  # heads took back a quarter
    illegal(rules, start.copy(), "throw Q- N- P- D-; capture b2; capture a1", "allows no capture")
    illegal(rules, start.copy(), "throw Q- N- P- D-; place D c1", "dime is not a matching coin")


# -- placing, moving, capturing -----------------------------------------------------------------------
def test_stacking_goes_only_on_a_higher_ranked_top_coin(rules):
    start = position(rules, {"A1": [(D, TAILS)], "A2": [(Q, TAILS)], "A3": [(P, HEADS)]})
    illegal(rules, start.copy(), "throw Q+ N- P- D-; place Q a1", "a quarter may not go on a dime")
    illegal(rules, start.copy(), "throw Q- N- P+ D-; place P a3", "a penny may not go on a penny")
    state = play(rules, start.copy(), "throw Q- N- P- D+; place D a2")
    assert state.stacks[at(rules, "A2")] == ((Q, TAILS), (D, HEADS))
    # on your own stack too, when it outranks you
    play(rules, start.copy(), "throw Q- N- P- D+; place D a3")


def test_moving_a_whole_stack_to_an_empty_adjacent_space(rules):
    start = position(rules, {"B2": [(Q, HEADS), (D, TAILS)], "B3": [(P, TAILS)]})
    state = play(rules, start.copy(), "throw Q- N- P- D-; move b2 a1")
    assert state.stacks[at(rules, "A1")] == ((Q, HEADS), (D, TAILS))
    assert state.stacks[at(rules, "B2")] == ()
    illegal(rules, start.copy(), "throw Q- N- P- D-; move b2 b3", "B3 is occupied")
    illegal(rules, start.copy(), "throw Q- N- P- D-; move b2 b4", "B4 is not next to B2")
    illegal(rules, start.copy(), "throw Q- N- P- D-; move a3 b4", "A3 is empty")
    play(rules, start.copy(), "throw Q- N- P- D-; move b3 b4")  # the opponent's stack may be moved


def test_capture_takes_the_top_coin_into_your_bank(rules):
    start = position(rules, {"C1": [(N, HEADS), (D, TAILS)]}, turn=0)
    state = play(rules, start.copy(), "throw Q- N- P- D-; capture c1")
    assert state.stacks[at(rules, "C1")] == ((N, HEADS),)
    assert state.banks[HEADS] == [5, 3, 2, 1]
    assert state.banks[TAILS] == [4, 3, 2, 1]
    illegal(rules, start.copy(), "throw Q- N- P- D-; capture c2", "C2 is empty")


# -- the end --------------------------------------------------------------------------------------
def test_filling_the_last_space_ends_the_game_at_once(rules):
    stacks = {s.name: [(D, TAILS)] for s in rules.layout.spaces if s.name != "C3"}
    start = position(rules, stacks, banks=[[4, 3, 2, 1], [0, 3, 2, 1]])
    illegal(
        rules, start.copy(), "throw Q+ N+ P- D-; place Q c3; place N a1", "ended at once \\(every space is filled\\)"
    )
    state = play(rules, start.copy(), "throw Q+ N+ P- D-; place Q c3")
    assert rules.is_over(state)
    with pytest.raises(IllegalMoveError, match="already over"):
        rules.apply(state, rules.parse_move(state, "throw D-"))


def test_placing_your_last_coin_ends_the_game(rules):
    start = position(rules, {}, banks=[[0, 0, 1, 0], [4, 3, 2, 1]])
    state = play(rules, start.copy(), "throw N+; place N b2")
    assert rules.is_over(state)
    assert "heads has placed every coin" in rules.result(state).reason


def test_acting_after_the_end_in_a_record(rules):
    moves = []
    state = rules.initial_state()
    rng = random.Random(4)
    while not rules.is_over(state):
        rules.begin_turn(state, rng)
        turn = rng.choice(rules.legal_moves(state))
        moves.append(rules.move_text(state, turn))
        rules.apply(state, turn)
    extra = "throw D-" if state.banks[state.mover][D] else "throw Q-"
    outcome = replay(rules, moves + [extra])
    assert outcome.error and f"move {len(moves) + 1}" in outcome.error and "already over" in outcome.error


# -- scoring, worked by hand ---------------------------------------------------------------------------
def test_scoring_with_region_doubling_and_bank_points(rules):
    # Regions: r1 {A1 A2 A3 B1}, r2 {C1 B2 B3}, r3 {B4 C3}, r4 {C2}.
    state = position(
        rules,
        {
            "A1": [(Q, HEADS)],
            "A2": [(D, TAILS)],
            "A3": [(N, TAILS), (P, HEADS)],
            "C1": [(N, TAILS)],
            "B2": [(D, HEADS)],
            "B4": [(P, TAILS)],
            "C3": [(D, TAILS)],
            "C2": [(N, HEADS)],
        },
        banks=[[3, 2, 1, 0], [2, 2, 0, 1]],
    )
    state.ended = "test"
    parts = rules.scores(state)
    # r1: heads holds A1 (4) and A3 (2) against tails' A2 (1): heads doubles, 12; tails 1.
    # r2: one space each, no doubling: tails 3, heads 1.  r3: tails alone: (2+1)*2 = 6.
    # r4: heads alone: 3*2 = 6.  Banks: heads 6 coins, tails 5 coins.
    assert parts["board"] == {"heads": 12 + 1 + 6, "tails": 1 + 3 + 6}
    assert parts["doubled"] == {"heads": ["r1", "r4"], "tails": ["r3"]}
    assert parts["bank"] == {"heads": 6, "tails": 5}
    assert parts["total"] == {"heads": 25, "tails": 15}
    result = rules.result(state)
    assert result.winner == "heads" and result.score == {"heads": 25, "tails": 15}


def test_a_tie_on_points_goes_to_the_higher_bank_value(rules):
    # heads: A1 dime, r1 alone → 2; bank 2D 4P 2N 1Q = 9 coins, value 2+8+6+4 = 20.
    # tails: C2 dime, r4 alone → 2; bank 3D 3P 2N 1Q = 9 coins, value 3+6+6+4 = 19.
    state = position(rules, {"A1": [(D, HEADS)], "C2": [(D, TAILS)]}, banks=[[2, 4, 2, 1], [3, 3, 2, 1]])
    state.ended = "test"
    result = rules.result(state)
    assert result.score == {"heads": 11, "tails": 11}
    assert result.winner == "heads" and "bank value 20–19" in result.reason
    state.banks = [[3, 3, 2, 1], [3, 3, 2, 1]]
    assert rules.result(state).winner is None


def test_an_unfinished_game_has_no_winner(rules):
    state = play(rules, rules.initial_state(), "throw Q+ N- P- D-; place Q a1")
    assert not rules.result(state).finished and rules.result(state).winner is None


# -- notation --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "throw Q+ N- P+ D+; place P b2; place D a1",
        "throw N- P- D+; place D b2",
        "throw Q- N- P- D-",
        "throw Q+ N+ P+ D+; pay N; place Q a1; place P a2; place D a3",
    ],
)
def test_notation_round_trips(rules, text):
    state = rules.initial_state()
    if text.startswith("throw N-"):
        state.banks[HEADS][Q] = 0
    turn = rules.parse_move(state, text)
    assert rules.move_text(state, turn) == text
    assert rules.parse_move(state, text.upper().replace("THROW", "throw")) == turn


@pytest.mark.parametrize(
    "text, words",
    [
        ("place P b2", "starts with its throw"),
        ("throw Q* N-", "not a thrown coin"),
        ("throw Q+ N+ P+ D+; put Q a1", "unknown action"),
        ("throw Q+ N+ P+ D+; place X a1", "not a coin"),
        ("throw Q+ N+ P+ D+; place Q z9", "no space called 'z9'"),
        ("throw Q+ N+ P+ D+; place Q", "should read like"),
        ("throw Q+ N+ P+ D+; ; place Q a1", "empty action"),
    ],
)
def test_bad_notation_says_what_is_wrong(rules, text, words):
    with pytest.raises(InvalidMoveError, match=words):
        rules.parse_move(rules.initial_state(), text)


# -- legal turns, agents, records ------------------------------------------------------------------------
def test_every_listed_turn_is_legal_and_they_are_distinct(rules):
    rng = random.Random(11)
    state = rules.initial_state()
    for _ in range(12):
        if rules.is_over(state):
            break
        rules.begin_turn(state, rng)
        turns = rules.legal_moves(state)
        outcomes = set()
        for turn in turns:
            rules.check(state, turn)
            after = state.copy()
            rules.apply_unchecked(after, turn)
            outcomes.add(after.key())
        assert len(outcomes) == len(turns)
        assert Turn(state.throw, ()) in turns  # passing is always possible
        rules.apply(state, rng.choice(turns))


def test_legal_moves_need_a_throw(rules):
    with pytest.raises(IllegalMoveError, match="no throw yet"):
        rules.legal_moves(rules.initial_state())


@pytest.mark.parametrize("spec", ["map=classic", "map=random,regions=3-3-2-2,seed=5"])
def test_self_play_records_revalidate(tmp_path, spec):
    name = f"coinage:{spec}"
    paths, summary = play_to_folder(name, {"heads": "random", "tails": "greedy"}, RunPlan(6, 1, 300), str(tmp_path))
    assert summary.games == 6 and summary.timeouts == 0
    for path in paths:
        record, _, replayed = validate_record(str(path))
        assert replayed.valid, replayed.report()
        assert record.result["score"] == replayed.result.score
        assert all(m.startswith("throw ") for m in record.moves)


def test_a_tampered_record_fails_at_the_right_move(tmp_path):
    paths, _ = play_to_folder(
        "coinage:map=classic", {"heads": "greedy", "tails": "random"}, RunPlan(1, 2, 300), str(tmp_path)
    )
    doc = json.loads(paths[0].read_text())
    doc["moves"][1] = doc["moves"][1].split(";")[0] + "; place Q a1; place Q a2"
    paths[0].write_text(json.dumps(doc))
    _, _, replayed = validate_record(str(paths[0]))
    assert not replayed.valid and replayed.error.startswith("move 2 (tails):")


def test_the_rule_sheet_example_is_a_real_game_that_replays():
    from coinprint.games.coinage.sheet import sheet_example, worked_example

    layout = coinage.build("classic")
    rules, state, turns = worked_example(layout)
    replayed = replay(CoinAgeRules(layout, {}), turns)
    assert replayed.error is None and replayed.result.finished
    assert replayed.state.key() == state.key()
    example = sheet_example(layout)
    # the table's rows add up to the totals the engine gives
    for player in ("heads", "tails"):
        board = sum(r["points"][player] for r in example["regions"])
        assert board + example["bank"][player] == example["total"][player] == replayed.result.score[player]
    assert any(r["doubled"] for r in example["regions"])


@pytest.mark.parametrize("card", ["a6", "credit", "poker"])
def test_the_classic_example_kept_as_a_record_is_the_game_the_search_finds(card):
    """The rule sheet replays its example on the classic card from a record: searching from
    seed 1 again, as on any other card, finds the very same game."""
    from coinprint.games.coinage.example import CLASSIC_TURNS
    from coinprint.games.coinage.sheet import worked_example

    layout = coinage.build("classic", card=card)
    _, state, turns = worked_example(layout)
    _, from_one, turns_from_one = worked_example(layout, 1)
    assert turns == list(CLASSIC_TURNS)
    assert turns == turns_from_one and state.key() == from_one.key()


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_random_games_round_trip_their_notation_and_replay(seed):
    rules = CoinAgeRules(coinage.build("terraces"), {})
    rng = random.Random(seed)
    state = rules.initial_state()
    moves = []
    while not rules.is_over(state) and len(moves) < 200:
        rules.begin_turn(state, rng)
        turn = rng.choice(rules.legal_moves(state))
        text = rules.move_text(state, turn)
        assert rules.parse_move(state, text) == turn
        moves.append(text)
        rules.apply(state, turn)
        # coins are neither made nor lost: 10 each, on the map or in a bank
        on_map = sum(len(s) for s in state.stacks)
        assert on_map + sum(map(sum, state.banks)) == 20
        assert all(all(a[0] > b[0] for a, b in zip(s, s[1:])) for s in state.stacks)  # ranks fall upward
    replayed = replay(rules, moves)
    assert replayed.error is None and replayed.state.key() == state.key()


def test_the_quick_evaluation_agrees_with_the_score():
    rules = CoinAgeRules(coinage.build("classic"), {})
    search = CoinAgeSearch(rules)
    rng = random.Random(5)
    state = rules.initial_state()
    while not rules.is_over(state):
        rules.begin_turn(state, rng)
        rules.apply(state, rng.choice(rules.legal_moves(state)))
        total = rules.scores(state)["total"]
        assert search.evaluate(state, "heads") == total["heads"] - total["tails"] == -search.evaluate(state, "tails")


def test_playout_turns_are_always_legal():
    """Monte Carlo play-outs build random turns action by action; every one must pass the
    same checks a recorded turn does."""
    import random

    from coinprint.games.coinage.board import build
    from coinprint.games.coinage.rules import CoinAgeRules

    rules = CoinAgeRules(build("classic"), {})
    search = CoinAgeSearch(rules)
    rng = random.Random(11)
    kinds = set()
    for _ in range(30):
        state = rules.initial_state()
        while not rules.is_over(state):
            rules.begin_turn(state, rng)
            turn = search.playout_move(state, rng)
            kinds.update(action[0] for action in turn.actions)
            assert rules.parse_move(state, rules.move_text(state, turn)) == turn
            rules.apply(state, turn)  # checked: raises IllegalMoveError if the turn is not legal
    assert kinds == {"place", "pay", "move", "capture"}


def test_search_features_are_counted_as_the_rules_score(rules, search):
    """Heads' quarter, nickel and dime hold A1, A2 and A3 (one region, so heads doubles it);
    tails' penny holds C2 (a region of its own, doubled too). Tails moves next and has dimes,
    so heads' quarter and nickel are open to it; heads' lowest bank coin is a penny, which
    cannot go on tails' penny. Every figure is worked by hand, heads' less tails'."""
    state = position(
        rules,
        {"A1": [(3, 0)], "A2": [(2, 0)], "A3": [(0, 0)], "C2": [(1, 1)]},
        banks=[[0, 3, 1, 0], [4, 2, 2, 1]],
        turn=1,
    )
    heads = search.features(state, "heads")
    assert dict(zip(SEARCH_FEATURES, heads)) == {
        "spaces held": 3 - 1,
        "points on the board": (4 + 3 + 1) * 2 - 2 * 2,
        "dimes in the bank": 0 - 4,
        "pennies in the bank": 3 - 2,
        "nickels in the bank": 1 - 2,
        "quarters in the bank": 0 - 1,
        # Tails' penny is not above heads' lowest coin (a penny); heads' quarter and nickel
        # are above tails' dime (the dime on A3 is not).
        "points the other could cover": 0 - (4 + 3),
        "points the next player could cover": -(4 + 3),
        "regions doubled": 1 - 1,
        "dimes on top": 1 - 0,
        "to move next": -1,
    }
    assert search.features(state, "tails") == tuple(-f for f in heads)
    expected = sum(w * f for w, f in zip(SEARCH_WEIGHTS, heads))
    assert search.tree_evaluate(state, "heads") == pytest.approx(expected)
    # A game over is judged by its score alone.
    state.ended = "every space is filled"
    assert search.tree_evaluate(state, "heads") == search.evaluate(state, "heads")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_search_evaluation_is_the_same_from_either_side(seed):
    """Every feature is one player's figure less the other's: the evaluation of any position
    of a random game for heads is minus tails'."""
    rules = CoinAgeRules(coinage.build("classic"), {})
    search = CoinAgeSearch(rules)
    rng = random.Random(seed)
    state = rules.initial_state()
    while not rules.is_over(state):
        rules.begin_turn(state, rng)
        rules.apply(state, search.playout_move(state, rng))
        heads, tails = search.tree_evaluate(state, "heads"), search.tree_evaluate(state, "tails")
        assert heads == pytest.approx(-tails)


def test_search_evaluation_predicts_winners_better_than_the_score(rules, search):
    """The shipped weights still mean something: on greedy games played here (seeds the fit
    never saw), the search evaluation's sign names the final winner of more positions than
    the plain score's does (measured: 64 % against 54 % here, 66 % against 57 % on 200 other
    games)."""
    rng = random.Random(5)
    right = {"search": 0, "plain": 0}
    judged = 0
    for _ in range(120):
        state, positions, agent = rules.initial_state(), [], GreedyAgent()
        while not rules.is_over(state):
            rules.begin_turn(state, rng)
            rules.apply_unchecked(state, agent.choose(search, state, rng))
            positions.append(state.copy())
        winner = rules.result(state).winner
        if winner is None:
            continue
        for seen in positions[:-1]:
            tree, plain = search.tree_evaluate(seen, "heads"), search.evaluate(seen, "heads")
            judged += 1
            right["search"] += (tree > 0) == (winner == "heads")
            right["plain"] += (plain > 0) == (winner == "heads")
    assert judged > 1000
    assert right["search"] > right["plain"] + 0.04 * judged


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), name=st.sampled_from(["classic", "terraces", "steps", "patchwork"]))
def test_successors_are_every_distinct_outcome_once(seed, name):
    """Along a random game: each listed turn, replayed through the checked engine, gives the
    position listed with it; no two listed turns end in the same position; and any turn a
    random player builds action by action ends in one of the listed positions."""
    rules = CoinAgeRules(coinage.build(name), {})
    search = CoinAgeSearch(rules)
    rng = random.Random(seed)
    state = rules.initial_state()
    while not rules.is_over(state):
        rules.begin_turn(state, rng)
        found = search.successors(state)
        assert [turn for turn, _ in found] == rules.legal_moves(state)
        outcomes = set()
        for turn, after in found:
            replayed = state.copy()
            rules.apply(replayed, turn)
            assert (replayed.key(), replayed.turn, replayed.throw) == (after.key(), after.turn, None)
            outcomes.add(after.key())
        assert len(outcomes) == len(found)
        for _ in range(5):
            built = state.copy()
            rules.apply(built, search.playout_move(state, rng))
            assert built.key() in outcomes
        state = rng.choice(found)[1]
