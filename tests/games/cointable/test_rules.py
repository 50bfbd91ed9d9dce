"""The Coin Table rules engine: every rule and every illegal case of the seed, the notation,
the options, and a second, deliberately simple implementation that the engine must agree
with move for move (perft counts and random walks).

Boards used (cells as on the built-in boards, a1 at the bottom left):

size 2 (7 cells)::          size 5 (61 cells): rows 1..9, e5 the centre.
      b3  c3
    a2  b2  c2                On size 2 the centre b2 touches all six others; the six
      a1  b1                  triangles are b2 with each pair of neighbouring rim cells.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinprint.analysis import builtin_layout
from coinprint.engine import IllegalMoveError, InvalidMoveError
from coinprint.errors import UsageError
from coinprint.games.cointable.rules import CoinTableRules
from coinprint.games.cointable.search import CoinTableSearch
from coinprint.games.cointable.view import CoinTableView
from coinprint.search import GreedyAgent, RandomAgent, Search, play_game


@cache
def board(size: int):
    return builtin_layout(f"cointable:size={size}")


def rules_for(size: int = 5, **options) -> CoinTableRules:
    return CoinTableRules(board(size), options)


def play(rules: CoinTableRules, *moves: str):
    """The position after ``moves`` (each checked)."""
    state = rules.initial_state()
    for text in moves:
        rules.apply(state, rules.parse_move(state, text))
    return state


def refused(rules: CoinTableRules, state, text: str) -> str:
    """The reason the engine gives for refusing ``text`` in ``state``."""
    with pytest.raises(IllegalMoveError) as caught:
        rules.apply(state, rules.parse_move(state, text))
    return str(caught.value)


def legal_texts(rules: CoinTableRules, state) -> set[str]:
    return {rules.move_text(state, m) for m in rules.legal_moves(state)}


# -- the board as the engine sees it ------------------------------------------------------------------
def test_triangles_are_the_triangles_of_the_hex_grid():
    # A hexagon of side n has 6(n-1)^2 unit triangles: 6 on size 2, 24 on 3, 96 on 5.
    for size, expected in ((2, 6), (3, 24), (5, 96)):
        assert len(rules_for(size).triangles) == expected
    small = rules_for(2)
    named = {" ".join(sorted(small.names[i] for i in tri)) for tri in small.triangles}
    assert named == {"a1 b1 b2", "b1 b2 c2", "b2 c2 c3", "b2 b3 c3", "a2 b2 b3", "a1 a2 b2"}


def test_heads_moves_first_and_the_opening_is_a_place_anywhere():
    rules = rules_for(5)
    state = rules.initial_state()
    assert rules.to_move(state) == "heads"
    assert legal_texts(rules, state) == {f"place {name}" for name in rules.names}
    assert len(rules.legal_moves(state)) == 61


# -- place --------------------------------------------------------------------------------------------
def test_place_puts_your_face_up_and_takes_a_coin_from_the_supply():
    rules = rules_for(5)
    state = play(rules, "place e5")
    assert rules.to_move(state) == "tails"
    assert state.supply == 99
    assert rules.result(state).score == {"heads": 1, "tails": 0}
    state = play(rules, "place e5", "place d4")
    assert rules.result(state).score == {"heads": 1, "tails": 1}
    assert state.supply == 98


def test_place_on_an_occupied_space_is_illegal():
    rules = rules_for(5)
    state = play(rules, "place e5")
    assert refused(rules, state, "place e5") == "e5 already holds a coin (heads up)"


# -- touch and the safe coin --------------------------------------------------------------------------
def test_touch_any_coin_even_the_opponents_and_castled_ones():
    rules = rules_for(5)
    state = play(rules, "place e5", "touch e5", "touch e5")  # tails touches heads' coin, then heads
    assert state.supply == 99 and rules.to_move(state) == "tails"
    assert refused(rules, state, "touch a1") == "a1 is empty: there is no coin to touch"


def test_the_last_coin_placed_touched_or_flipped_is_safe():
    rules = rules_for(5)
    # Heads e5 d5; tails e4 d4 with d4 between d5 and e5 (d4 touches d5, e5 and e4).
    base = ("place e5", "place e4", "place d5")
    placed = play(rules, *base, "place d4")
    assert refused(rules, placed, "flip d4") == "d4 is safe: it was placed on the previous turn"
    touched = play(rules, *base, "place d4", "touch e5", "touch d4")
    assert refused(rules, touched, "flip d4") == "d4 is safe: it was touched on the previous turn"
    # Once another coin is touched, d4 is no longer safe and heads (d5, e5 next to it) flips it.
    later = play(rules, *base, "place d4", "touch e5", "touch e4")
    rules.apply(later, rules.parse_move(later, "flip d4"))
    assert later.faces[rules.cell("d4")] == 1


def test_a_flipped_coin_is_safe_for_one_turn():
    rules = rules_for(5)
    # Heads (e5, d5) flips d4; d4 now shows heads and tails may not flip it straight back.
    state = play(rules, "place e5", "place d4", "place d5", "place e4", "flip d4")
    assert state.faces[rules.cell("d4")] == 1
    assert refused(rules, state, "flip d4") == "d4 is safe: it was flipped on the previous turn"


# -- flip ---------------------------------------------------------------------------------------------
def test_flip_needs_two_of_your_coins_next_to_it():
    rules = rules_for(5)
    state = play(rules, "place e5", "place d4", "touch e5", "touch e5")
    # d4 is no longer safe (e5 was touched since); heads has only e5 next to d4.
    assert refused(rules, state, "flip d4") == "only 1 of your coins touches d4; a flip needs 2"
    state = play(rules, "place a1", "place e5", "touch a1", "touch a1")
    assert refused(rules, state, "flip e5") == "none of your coins touches e5; a flip needs 2"


def test_flip_turns_the_coin_and_changes_the_count():
    rules = rules_for(5)
    state = play(rules, "place e5", "place d4", "place d5", "touch e5", "flip d4")
    assert rules.result(state).score == {"heads": 3, "tails": 0}
    assert state.supply == 97  # a flip takes nothing from the supply


def test_flip_your_own_coin_or_an_empty_space_is_illegal():
    rules = rules_for(5)
    state = play(rules, "place e5", "place a1")
    assert refused(rules, state, "flip e5") == "e5 already shows your face (heads)"
    assert refused(rules, state, "flip b2") == "b2 is empty: there is no coin to flip"


def test_two_adjacent_coins_of_the_opponent_do_not_count():
    rules = rules_for(5)
    # Tails d5 and e5 are next to each other and to d4 (heads): tails may flip d4, but the two
    # tails coins are no help to heads, who has one coin only.
    state = play(rules, "place d4", "place d5", "touch d4", "place e5", "touch d5")
    assert {m for m in legal_texts(rules, state) if m.startswith("flip")} == {"flip d4"}
    rules.apply(state, rules.parse_move(state, "touch e5"))
    assert {m for m in legal_texts(rules, state) if m.startswith("flip")} == set()


# -- castle -------------------------------------------------------------------------------------------
CASTLE_READY = ("place d4", "place a1", "place e4", "place a2", "place e5", "place b1")
"""Heads holds the triangle d4 e4 e5 (tails has a1 a2 b1 in the corner); heads to move."""


def test_castle_on_three_mutually_adjacent_spaces_of_your_face():
    rules = rules_for(5)
    state = play(rules, *CASTLE_READY)
    assert "castle d4 e4 e5" in legal_texts(rules, state)
    rules.apply(state, rules.parse_move(state, "castle e5 d4 e4"))
    assert state.supply == 100 - 7  # six places and the castle coin
    assert rules.result(state).score == {"heads": 3, "tails": 3}  # a castle is no extra space
    assert all(state.castled[rules.cell(c)] for c in ("d4", "e4", "e5"))


def test_castled_coins_never_flip():
    rules = rules_for(5)
    # Tails surrounds e4 (castled) with d3 and e3 below it; e4 stays heads for the whole game.
    state = play(rules, *CASTLE_READY, "castle d4 e4 e5", "place d3", "touch a1", "place e3", "touch a1")
    assert refused(rules, state, "flip e4") == "e4 is part of the castle on d4 e4 e5: castled coins never flip"


def test_after_a_castle_nothing_is_safe():
    rules = rules_for(5)
    # Tails touches heads' b2 (so b2 is the safe coin), then heads castles: a castle is a coin
    # put on the board, so b2 stops being safe and tails (a1, b1, a2 next to it) flips it.
    state = play(rules, "place b2", "place a1", "place d4", "place b1", "place e4", "place a2", "place e5", "touch b2")
    assert state.safe == rules.cell("b2")
    rules.apply(state, rules.parse_move(state, "castle d4 e4 e5"))
    assert state.safe == -1
    assert "flip b2" in legal_texts(rules, state)
    rules.apply(state, rules.parse_move(state, "flip b2"))
    assert rules.result(state).score == {"heads": 3, "tails": 4}


def test_castle_on_a_non_triangle_is_illegal():
    rules = rules_for(5)
    state = play(rules, *CASTLE_READY)
    with pytest.raises(IllegalMoveError, match="d4 e4 f6 is not a triangle: d4 and f6 do not touch"):
        rules.parse_move(state, "castle d4 e4 f6")
    with pytest.raises(IllegalMoveError, match="not a triangle"):
        rules.parse_move(state, "castle c5 d5 e5")  # three in a row


def test_castle_needs_three_spaces_showing_your_face():
    rules = rules_for(5)
    state = play(rules, "place d4", "place e5", "place e4", "touch d4")
    assert (
        refused(rules, state, "castle d4 e4 e5")
        == "e5 shows tails; a castle needs three spaces showing your face (heads)"
    )
    state = play(rules, "place d4", "place a1", "place e4", "touch a1")
    assert (
        refused(rules, state, "castle d4 e4 e5") == "e5 is empty; a castle needs three spaces showing your face (heads)"
    )


def test_one_castle_per_triangle_but_a_space_may_be_in_several():
    rules = rules_for(5)
    state = play(rules, *CASTLE_READY, "castle d4 e4 e5", "touch a1")
    assert (
        refused(rules, state, "castle d4 e5 e4") == "there is already a castle on d4 e4 e5; a triangle holds one castle"
    )
    assert "castle d4 e4 e5" not in legal_texts(rules, state)
    # d5 joins d4 and e5 in a second triangle: a second castle shares two coins with the first.
    rules.apply(state, rules.parse_move(state, "place d5"))
    rules.apply(state, rules.parse_move(state, "touch a1"))
    rules.apply(state, rules.parse_move(state, "castle d5 d4 e5"))
    assert len(state.castles) == 2 and state.castled[rules.cell("d4")] == 2


def test_a_castle_can_be_the_move_that_empties_the_supply():
    rules = rules_for(5, supply=7)
    state = play(rules, *CASTLE_READY)
    assert state.supply == 1 and not rules.is_over(state)
    rules.apply(state, rules.parse_move(state, "castle d4 e4 e5"))
    assert rules.is_over(state)
    assert rules.result(state).reason == "supply empty"


# -- the end ------------------------------------------------------------------------------------------
def test_the_game_ends_when_the_board_is_full():
    rules = rules_for(2)
    # Alternate places around the small board: heads a1 b1 b2 b3, tails a2 c2 c3 (7 cells).
    state = play(rules, "place a1", "place a2", "place b1", "place c2", "place b2", "place c3", "place b3")
    assert rules.is_over(state) and rules.legal_moves(state) == []
    result = rules.result(state)
    assert (result.winner, result.score, result.reason) == ("heads", {"heads": 4, "tails": 3}, "board full")
    assert refused(rules, state, "touch a1") == "the game is already over (board full)"


def test_the_game_ends_when_the_supply_is_empty_and_equal_counts_tie():
    rules = rules_for(5, supply=4)
    state = play(rules, "place a1", "place e5", "place b1", "place e4")
    assert rules.is_over(state) and rules.legal_moves(state) == []
    result = rules.result(state)
    assert (result.winner, result.score, result.reason) == (None, {"heads": 2, "tails": 2}, "supply empty")
    assert refused(rules, state, "place c1") == "the game is already over (supply empty)"


def test_unfinished_game_reports_the_score_so_far():
    rules = rules_for(5)
    result = rules.result(play(rules, "place a1"))
    assert not result.finished and result.winner is None and result.score == {"heads": 1, "tails": 0}


def test_a_player_always_has_a_legal_move_until_the_end():
    # Empty board: a place is possible (the supply holds at least one coin until the end);
    # with a coin on the board a touch is possible. So the engine never needs a pass.
    for seed in range(20):
        rules = rules_for(3, supply=1 + seed)
        rng = random.Random(seed)
        state = rules.initial_state()
        while not rules.is_over(state):
            moves = rules.legal_moves(state)
            assert moves
            rules.apply(state, rng.choice(moves))


# -- notation -----------------------------------------------------------------------------------------
def test_notation_round_trips_for_every_legal_move():
    rules = rules_for(5)
    rng = random.Random(3)
    state = rules.initial_state()
    seen = Counter()
    for _ in range(300):
        if rules.is_over(state):
            break
        for move in rules.legal_moves(state):
            text = rules.move_text(state, move)
            assert rules.parse_move(state, text) == move
            assert rules.parse_move(state, text.upper()) == move
            seen[text.split()[0]] += 1
        rules.apply_unchecked(state, rng.choice(rules.legal_moves(state)))
    assert set(seen) == {"place", "touch", "flip", "castle"}


def test_castle_cells_in_any_order_are_written_back_in_board_order():
    rules = rules_for(5)
    state = play(rules, *CASTLE_READY)
    orders = ["castle d4 e4 e5", "castle E5 d4 E4", "castle e4 e5 d4", "  castle   e5 e4 d4 "]
    moves = {rules.parse_move(state, text) for text in orders}
    assert len(moves) == 1
    assert rules.move_text(state, moves.pop()) == "castle d4 e4 e5"


@pytest.mark.parametrize(
    "text, why",
    [
        ("", "the move is empty"),
        ("jump e5", "unknown move 'jump'; use place, touch, flip or castle"),
        ("place", "'place' takes one cell"),
        ("place e5 e4", "'place' takes one cell"),
        ("place z9", "there is no cell 'z9' on this board (cells a1 to i9)"),
        ("flip e10", "there is no cell 'e10'"),
        ("castle d4 e4", "'castle' takes three cells"),
        ("castle d4 d4 e5", "three different cells"),
        ("castle d4 e4 q1", "there is no cell 'q1'"),
    ],
)
def test_malformed_moves_are_invalid(text, why):
    rules = rules_for(5)
    with pytest.raises(InvalidMoveError) as caught:
        rules.parse_move(rules.initial_state(), text)
    assert why in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_a_move_that_is_not_text_is_invalid():
    rules = rules_for(5)
    with pytest.raises(InvalidMoveError, match="a move is text"):
        rules.parse_move(rules.initial_state(), ["place", "e5"])


# -- options ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "options, why",
    [
        ({"supply": 0}, "supply must be a whole number from 1 to"),
        ({"supply": "100"}, "not '100'"),
        ({"supply": True}, "supply must be"),
        ({"coins": 100}, "unknown Coin Table option(s) coins"),
    ],
)
def test_bad_options_are_usage_errors(options, why):
    with pytest.raises(UsageError) as caught:
        CoinTableRules(board(2), options)
    assert why in str(caught.value)


def test_default_supply_is_100():
    assert rules_for(5).initial_state().supply == 100


# -- pictures -----------------------------------------------------------------------------------------
def test_marks_show_faces_castles_and_the_safe_coin():
    rules = rules_for(5)
    state = play(rules, *CASTLE_READY, "castle d4 e4 e5", "place c3")
    marks = {m.space: m for m in CoinTableView(rules).marks(state)}
    assert set(marks) == {"a1", "a2", "b1", "d4", "e4", "e5", "c3"}
    assert (marks["d4"].text, marks["d4"].side, marks["d4"].ring) == ("H", "heads", "castle")
    assert (marks["a1"].text, marks["a1"].side, marks["a1"].ring) == ("T", "tails", "")
    assert marks["c3"].ring == "safe"


def test_describe_draws_the_rows_of_the_hex_board():
    rules = rules_for(2)
    state = play(rules, "place b2", "place a1", "place b1", "place c2", "place a2", "touch c2")
    lines = rules.describe(state).splitlines()
    assert lines[0].startswith("heads to move; heads 3, tails 2; supply 95")
    # Row 3 (b3 c3) on top, then row 2 (a2 b2 c2), then row 1 (a1 b1), each half a cell
    # to the left of the row above, as on the board.
    rows = lines[1:4]
    assert [r.split()[0] for r in rows] == ["b3", "a2", "a1"]
    assert rows[1].split()[1:] == ["H", "H", "(T)"]
    assert rows[2].split()[1:] == ["T", "H"]
    # a2's cell sits half a cell left of b3's and of a1's: column of its text is smaller.
    first = [r.index(r.split()[1], 3) for r in rows]
    assert first[1] < first[0] and first[1] < first[2] and first[0] == first[2]


# -- a second, simple implementation -------------------------------------------------------------------
class SimpleCoinTable:
    """Coin Table straight from the rule text, on labels and networkx, no speed tricks."""

    def __init__(self, layout, supply: int = 100) -> None:
        graph = layout.graph
        self.label = {s.id: s.name for s in layout.spaces}
        self.near = {self.label[a]: {self.label[b] for b in graph.neighbors(a)} for a in graph.nodes}
        self.start_supply = supply

    def start(self):
        return {"coins": {}, "castles": frozenset(), "safe": None, "mover": "heads", "supply": self.start_supply}

    def over(self, pos) -> bool:
        return len(pos["coins"]) == len(self.near) or pos["supply"] == 0

    def moves(self, pos) -> list[str]:
        if self.over(pos):
            return []
        me, coins = pos["mover"], pos["coins"]
        castled = set().union(*pos["castles"]) if pos["castles"] else set()
        found = [f"place {c}" for c in self.near if c not in coins]
        found += [f"touch {c}" for c in coins]
        for cell, face in coins.items():
            mine = sum(1 for other in self.near[cell] if coins.get(other) == me)
            if face != me and mine >= 2 and cell != pos["safe"] and cell not in castled:
                found.append(f"flip {cell}")
        for a in self.near:
            for b in self.near[a]:
                for c in self.near[b]:
                    tri = frozenset((a, b, c))
                    if (
                        len(tri) == 3
                        and a in self.near[c]
                        and tri not in pos["castles"]
                        and all(coins.get(x) == me for x in tri)
                    ):
                        found.append("castle " + " ".join(sorted(tri)))
        return sorted(set(found))

    def play(self, pos, move: str):
        verb, *cells = move.split()
        coins = dict(pos["coins"])
        castles, safe, supply = pos["castles"], cells[0], pos["supply"]
        if verb in ("place", "flip"):
            coins[cells[0]] = pos["mover"]
        if verb in ("place", "castle"):
            supply -= 1
        if verb == "castle":
            castles, safe = castles | {frozenset(cells)}, None
        other = "tails" if pos["mover"] == "heads" else "heads"
        return {"coins": coins, "castles": castles, "safe": safe, "mover": other, "supply": supply}


def canonical(text: str) -> str:
    verb, *cells = text.split()
    return " ".join([verb, *sorted(cells)])


def perft_fast(rules: CoinTableRules, state, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in rules.legal_moves(state):
        after = state.copy()
        rules.apply_unchecked(after, move)
        total += perft_fast(rules, after, depth - 1)
    return total


def perft_simple(simple: SimpleCoinTable, pos, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft_simple(simple, simple.play(pos, m), depth - 1) for m in simple.moves(pos))


def test_perft_first_moves_counted_by_hand():
    # Size 2: 7 places; then 6 places + 1 touch; nobody can flip or castle until some player
    # has two coins next to an opposing coin (move 5 at the earliest), so 7, 49, 343, 2401.
    rules = rules_for(2)
    assert [perft_fast(rules, rules.initial_state(), k) for k in range(1, 5)] == [7, 49, 343, 2401]


@pytest.mark.parametrize("size, supply, depth", [(2, 100, 6), (2, 4, 6), (3, 100, 3)])
def test_perft_matches_the_simple_implementation(size, supply, depth):
    rules = rules_for(size, supply=supply)
    simple = SimpleCoinTable(board(size), supply)
    assert perft_fast(rules, rules.initial_state(), depth) == perft_simple(simple, simple.start(), depth)


MIDGAME = ("place b2", "place a1", "place b1", "place c2", "place a2", "touch c2")
"""Size 2, heads to move with b2 b1 a2 round tails' a1: flips, castles and re-flips follow."""


@pytest.mark.parametrize("supply, depth", [(100, 5), (7, 5)])
def test_perft_from_a_midgame_with_flips_and_castles(supply, depth):
    rules = rules_for(2, supply=supply)
    simple = SimpleCoinTable(board(2), supply)
    state, pos = play(rules, *MIDGAME), simple.start()
    for text in MIDGAME:
        pos = simple.play(pos, text)
    assert "flip a1" in legal_texts(rules, state)
    assert perft_fast(rules, state, depth) == perft_simple(simple, pos, depth)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.sampled_from([2, 3, 4]), supply=st.integers(3, 60))
def test_random_walks_agree_with_the_simple_implementation(seed, size, supply):
    rules = rules_for(size, supply=supply)
    simple = SimpleCoinTable(board(size), supply)
    rng = random.Random(seed)
    state, pos = rules.initial_state(), simple.start()
    for _ in range(400):
        fast = sorted(canonical(rules.move_text(state, m)) for m in rules.legal_moves(state))
        assert fast == [canonical(m) for m in simple.moves(pos)]
        if not fast:
            break
        text = rng.choice(fast)
        rules.apply(state, rules.parse_move(state, text))
        pos = simple.play(pos, text)
    assert rules.is_over(state) == simple.over(pos)


# -- invariants over random self-play ----------------------------------------------------------------
def check_invariants(rules: CoinTableRules, state, castled_faces: dict[int, int], start_supply: int) -> None:
    faces = state.faces
    on_board = sum(1 for f in faces if f) + len(state.castles)
    assert on_board + state.supply == start_supply
    for i, face in castled_faces.items():
        assert faces[i] == face, "a castled coin changed face"
    for t in state.castles:
        for i in rules.triangles[t]:
            castled_faces.setdefault(i, faces[i])
    # The incremental tables agree with a count from scratch.
    for p in (1, 2):
        for i in range(rules.size):
            assert state.near[p][i] == sum(1 for j in rules.neighbours[i] if faces[j] == p)
        ready = {
            t for t, tri in enumerate(rules.triangles) if t not in state.castles and all(faces[i] == p for i in tri)
        }
        assert state.ready[p] == ready
        assert state.counts[p] == faces.count(p)
    assert state.empty == faces.count(0)
    assert state.basic == [i + rules.size * (face != 0) for i, face in enumerate(faces)]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.sampled_from([2, 3, 5]), supply=st.sampled_from([10, 40, 100]))
def test_random_self_play_keeps_every_invariant(seed, size, supply):
    rules = rules_for(size, supply=supply)
    rng = random.Random(seed)
    state = rules.initial_state()
    castled_faces: dict[int, int] = {}
    plies = 0
    while not rules.is_over(state) and plies < 3000:
        move = rng.choice(rules.legal_moves(state))
        rules.check(state, move)  # a generated move is always legal
        rules.apply_unchecked(state, move)
        plies += 1
        check_invariants(rules, state, castled_faces, supply)
    assert rules.is_over(state)
    result = rules.result(state)
    assert sum(result.score.values()) == rules.size - state.empty


def test_greedy_agents_finish_their_games():
    rules = rules_for(3)
    agents = {"heads": GreedyAgent(), "tails": RandomAgent()}
    for seed in range(3):
        outcome = play_game(CoinTableSearch(rules), agents, random.Random(seed), 2000)
        assert not outcome.timeout and outcome.result.finished


def test_evaluate_counts_spaces_castled_coins_and_coins_open_to_a_flip():
    rules = rules_for(5)
    search = CoinTableSearch(rules)
    state = play(rules, *CASTLE_READY, "castle d4 e4 e5")
    # 3 spaces each; heads' three castled coins count once more; nothing is open to a flip.
    assert search.evaluate(state, "heads") == 3.0
    assert search.evaluate(state, "tails") == -3.0
    # Heads e5 d5 with tails d4 between them: after tails touches e5, d4 is open to heads.
    state = play(rules, "place e5", "place d4", "place d5", "touch e5")
    assert search.evaluate(state, "tails") == (1 - 2) - 1
    assert search.evaluate(state, "heads") == 2 - 1


def test_greedy_against_greedy_ends_without_flip_wars():
    rules = rules_for(5)
    for seed in range(3):
        agents = {"heads": GreedyAgent(), "tails": GreedyAgent()}
        outcome = play_game(CoinTableSearch(rules), agents, random.Random(seed), 2000)
        assert not outcome.timeout and outcome.result.finished


def test_any_valid_coin_table_layout_works_including_one_read_from_geojson(tmp_path):
    from coinprint.layout import load

    path = tmp_path / "board.geojson"
    path.write_text(board(3).dumps(), encoding="utf-8")
    rules = CoinTableRules(load(str(path)), {})
    assert len(rules.triangles) == 24
    state = play(rules, "place B2", "place c3")
    assert rules.result(state).score == {"heads": 1, "tails": 1}


def relabelled_board(tmp_path, rename):
    """The size-2 board as GeoJSON with every label changed by ``rename``."""
    from coinprint.layout import load

    doc = board(2).to_geojson()
    for feature in doc["features"]:
        if feature["properties"].get("role") == "space":
            feature["properties"]["label"] = rename(feature["properties"]["label"])
    path = tmp_path / "relabelled.geojson"
    path.write_text(__import__("json").dumps(doc), encoding="utf-8")
    return load(str(path))


def test_moves_use_the_boards_own_labels_and_describe_falls_back_to_a_list(tmp_path):
    rules = CoinTableRules(relabelled_board(tmp_path, lambda name: "Cell-" + name.upper()), {})
    state = play(rules, "place cell-B2", "place CELL-A1")
    assert rules.move_text(state, rules.parse_move(state, "touch cell-a1")) == "touch Cell-A1"
    with pytest.raises(InvalidMoveError, match="no cell 'b2'"):
        rules.parse_move(state, "place b2")
    text = rules.describe(state)
    assert "\nCell-B2  H\n" in text and "\nCell-A1 (T)\n" in text and "\nCell-C3  .\n" in text


def test_letter_number_labels_that_disagree_with_the_grid_are_listed_not_drawn(tmp_path):
    # Swap the row numbers: the names still look like a1, b3, … but a diagram built from them
    # would put neighbours apart, so the position is listed instead.
    swap = {"1": "3", "3": "1", "2": "2"}
    rules = CoinTableRules(relabelled_board(tmp_path, lambda name: name[0] + swap[name[1]]), {})
    assert rules.grid is None
    state = play(rules, "place b2")
    assert "\nb2 (H)\n" in rules.describe(state)


def test_duplicate_or_unusable_cell_names_are_refused(tmp_path):
    with pytest.raises(UsageError, match="two cells are both named"):
        CoinTableRules(relabelled_board(tmp_path, lambda name: "A1" if name == "b1" else name), {})
    with pytest.raises(UsageError, match="must be one word"):
        CoinTableRules(relabelled_board(tmp_path, lambda name: name + " x"), {})


def test_castled_coins_count_as_neighbours_for_a_flip():
    rules = rules_for(5)
    # Heads castles d4 e4 e5; tails places d5, which touches d4 and e5 (both castled heads).
    state = play(rules, *CASTLE_READY, "castle d4 e4 e5", "place d5")
    assert refused(rules, state, "flip d5") == "d5 is safe: it was placed on the previous turn"
    state = play(rules, *CASTLE_READY, "castle d4 e4 e5", "place d5", "touch a1", "touch b1")
    rules.apply(state, rules.parse_move(state, "flip d5"))
    assert state.faces[rules.cell("d5")] == 1


@settings(max_examples=150, deadline=None)
@given(st.sampled_from((3, 4, 5)), st.integers(0, 10**9), st.integers(0, 200), st.integers(1, 40))
def test_the_search_listing_judges_each_move_as_playing_it_would(size: int, seed: int, plies: int, supply: int) -> None:
    """Tree search's listing (the evaluation found from what each move changes) against the
    reference (every move played on a copy and judged): the same moves in the same order, the
    same evaluation, the same outcome when a move ends the game; on positions of random and
    greedy plies mixed, with small supplies so that games end."""
    game = CoinTableRules(builtin_layout(f"cointable:size={size}"), {"supply": supply})
    search = CoinTableSearch(game)
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(plies):
        if game.is_over(state):
            break
        reference = Search.scored_moves(search, state)
        listed = search.scored_moves(state)
        assert [m.move for m in reference] == [m.move for m in listed]
        assert [m.outcome for m in reference] == [m.outcome for m in listed]
        assert [m.value for m in reference if m.outcome is None] == [m.value for m in listed if m.outcome is None]
        best = max(reference, key=lambda m: m.value).move
        game.apply_unchecked(state, best if rng.random() < 0.4 else rng.choice(game.legal_moves(state)))
