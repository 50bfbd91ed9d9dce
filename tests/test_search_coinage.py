"""Coin Age's search listing (:meth:`CoinAgeSearch.scored_moves`, on packed positions) against
the reference listing (:meth:`CoinAgeSearch.successors` and :meth:`tree_evaluate`), on many
random positions of several maps."""

from __future__ import annotations

import random
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from coinprint.analysis import builtin_layout
from coinprint.search import Search
from coinprint.source import engines_for

MAPS = (
    "coinage:map=classic",
    "coinage:map=random,regions=3-3-2-2-2,seed=4",
    "coinage:map=random,regions=4-3-2-1,seed=5",
)


@cache
def _search(spec: str) -> Search:  # type: ignore[type-arg]
    """Coin Age's search on the layout ``spec`` names (its referee is ``.rules``)."""
    return engines_for(builtin_layout(spec)).search


def _position(search: Search, seed: int, turns: int):  # type: ignore[no-untyped-def, type-arg]
    """The position after ``turns`` random play-out turns (fewer if the game ends), with a
    throw pending; None when the game ended."""
    game = search.rules
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(turns):
        game.begin_turn(state, rng)
        game.apply_unchecked(state, search.playout_move(state, rng))
        if game.is_over(state):
            return None
    game.begin_turn(state, rng)
    return state


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(MAPS), st.integers(0, 10**9), st.integers(0, 30))
def test_the_search_listing_is_the_reference_listing(spec: str, seed: int, turns: int) -> None:
    """The same turns in the same order, each judged as the reference judges the position after
    it: the search evaluation for the mover, or the outcome when the turn ends the game."""
    search = _search(spec)
    game = search.rules
    state = _position(search, seed, turns)
    if state is None:
        return
    mover = game.to_move(state)
    reference = search.successors(state)
    listed = search.scored_moves(state)
    assert [move for move, _ in reference] == [item.move for item in listed]
    for (_, after), item in zip(reference, listed):
        if game.is_over(after):
            winner = game.result(after).winner
            assert item.outcome == (0.5 if winner is None else float(winner == mover))
        else:
            assert item.outcome is None
            assert abs(item.value - search.tree_evaluate(after, mover)) < 1e-9


def test_the_listing_covers_every_kind_of_throw() -> None:
    """Throws of 0 to 4 matches, and turns that end the game, all met by the positions above."""
    search = _search(MAPS[0])
    matches, endings = set(), 0
    for seed in range(300):
        state = _position(search, seed, seed % 25)
        if state is None:
            continue
        matches.add(sum(hit for _, hit in state.throw))
        endings += sum(item.outcome is not None for item in search.scored_moves(state))
    assert matches == {0, 1, 2, 3, 4} and endings > 0


def _corrupt(turn, rng: random.Random, size: int):  # type: ignore[no-untyped-def]
    """``turn`` with one part changed at random (often making it illegal)."""
    actions = list(turn.actions)
    what = rng.randrange(5)
    if what == 0 and turn.throw:  # another match
        throw = list(turn.throw)
        k = rng.randrange(len(throw))
        throw[k] = (throw[k][0], not throw[k][1])
        return type(turn)(tuple(throw), turn.actions)
    if what == 1:  # a random action added
        kind = rng.choice(("place", "pay", "move", "capture"))
        space, other, rank = rng.randrange(size), rng.randrange(size), rng.randrange(4)
        added = {"place": ("place", rank, space), "pay": ("pay", rank), "move": ("move", space, other)}
        actions.insert(rng.randrange(len(actions) + 1), added.get(kind, ("capture", space)))
    elif what == 2 and actions:  # one dropped
        actions.pop(rng.randrange(len(actions)))
    elif what == 3 and len(actions) > 1:  # two swapped
        i, j = rng.sample(range(len(actions)), 2)
        actions[i], actions[j] = actions[j], actions[i]
    elif what == 4 and turn.throw:  # a coin left out of the throw
        return type(turn)(turn.throw[1:], turn.actions)
    return type(turn)(turn.throw, tuple(actions))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(MAPS), st.integers(0, 10**9), st.integers(0, 30), st.booleans())
def test_a_checked_turn_is_the_references(spec: str, seed: int, turns: int, corrupt: bool) -> None:
    """``apply`` (one pass) against the reference (``check``, then ``apply_unchecked``) on random
    turns, legal and changed: the same position after a legal one; for an illegal one the
    same error and the position untouched."""
    from coinprint.engine import IllegalMoveError

    search = _search(spec)
    game = search.rules
    state = _position(search, seed, turns)
    if state is None:
        return
    rng = random.Random(seed)
    turn = search.playout_move(state, rng)
    if corrupt:
        turn = _corrupt(turn, rng, len(state.stacks))
    pending = rng.random() < 0.5  # a throw pending (simulation) or not (a record replayed)
    fast, slow = state.copy(), state.copy()
    if not pending:
        fast.throw = slow.throw = None
    try:
        game.check(slow, turn)
    except IllegalMoveError as bad:
        before = fast.copy()
        try:
            game.apply(fast, turn)
        except IllegalMoveError as also:
            assert str(also) == str(bad)
            assert fast.key() == before.key() and fast.turn == before.turn
        else:
            raise AssertionError(f"apply took an illegal turn: {bad}")
        return
    game.apply_unchecked(slow, turn)
    game.apply(fast, turn)
    assert (fast.key(), fast.turn, fast.throw) == (slow.key(), slow.turn, slow.throw)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(MAPS), st.integers(0, 10**9), st.integers(0, 30))
def test_a_random_turn_is_the_references_choice(spec: str, seed: int, turns: int) -> None:
    """Coin Age's random agent picks from the packed listing: the same turn as a uniform
    choice from the reference's list for the same generator (so records stay the same)."""
    search = _search(spec)
    state = _position(search, seed, turns)
    if state is None:
        return
    assert search.random_move(state, random.Random(seed)) == Search.random_move(search, state, random.Random(seed))
