"""The Flick referee: every numbered rule and every penalty, each with a log that triggers it
and one that just avoids it; the seed's five examples; team games; impossible and malformed
logs; ``validate game`` over event logs."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coinprint.engine import IllegalMoveError, InvalidMoveError, replay
from coinprint.errors import UsageError
from coinprint.games.flick.board import build
from coinprint.games.flick.rules import FlickRules

STOP = {"stop": True}


def referee(options=None, **mat) -> FlickRules:
    return FlickRules(build(**mat), options or {})


def shot(player: str, coin: str, edge=None, *during) -> list[dict]:
    """A shot of ``coin``: it enters over ``edge`` (None: it does not enter), then ``during``."""
    events = [{"shot": player, "coin": coin}]
    if edge is not None:
        events.append({"enter": coin, "edge": edge})
    return events + list(during) + [STOP]


def run(log, rules=None):
    rules = rules or referee()
    done = replay(rules, log)
    assert done.error is None, done.error
    return rules, done.state


def error_of(log, rules=None) -> str:
    done = replay(rules or referee(), log)
    assert done.error is not None
    return done.error


def penalty_of(log, rules=None):
    rules, state = run(log, rules)
    assert rules.is_over(state), rules.describe(state)
    return state.penalty, state.loser, rules.result(state)


def not_over(log, rules=None):
    rules, state = run(log, rules)
    assert not rules.is_over(state), rules.result(state).reason
    return rules, state


# -- ownership (3.1), in the goal (3.2), the flip on leaving (3.3) --------------------------------------
def test_a_player_shoots_only_coins_they_own():
    assert "t1 shows tails: heads does not own it (3.1)" in error_of([{"shot": "heads", "coin": "t1"}])
    # h1 missed and turned to tails (5.3): now Tails owns it and may shoot it, Heads may not.
    rules, state = not_over(shot("heads", "h1") + shot("tails", "h1", "tails"))
    assert state.faces["h1"] == "tails" and state.in_goal["h1"]
    assert "does not own" in error_of(shot("heads", "h1") + shot("tails", "t1") + [{"shot": "heads", "coin": "h1"}])


def test_coins_in_the_goal_score_for_the_face_they_show():
    rules, state = not_over(shot("heads", "h1", "heads") + shot("tails", "t1", "tails") + shot("heads", "h2", "heads"))
    assert rules.score(state) == {"heads": 2, "tails": 1}
    assert rules.result(state).finished is False


def test_a_coin_leaving_the_goal_flips_and_changes_owner():
    rules, state = not_over(shot("heads", "h1", "heads") + shot("tails", "t1", "tails", {"leave": "h1"}))
    assert state.faces["h1"] == "tails" and not state.in_goal["h1"]
    assert rules.score(state) == {"heads": 0, "tails": 1}
    # Knocked out, back in, out again: two flips, heads again.
    rules, state = not_over(
        shot("heads", "h1", "heads")
        + shot("tails", "t1", "tails", {"leave": "h1"}, {"enter": "h1", "edge": "tails"}, {"leave": "h1"})
    )
    assert state.faces["h1"] == "heads"


# -- shots (5) -----------------------------------------------------------------------------------------
def test_heads_starts_unless_the_last_winner_was_tails():
    assert referee().to_move(referee().initial_state()) == "heads"
    rules = referee({"first": "tails"})
    assert rules.to_move(rules.initial_state()) == "tails"
    not_over(shot("tails", "t1", "tails"), rules)
    with pytest.raises(UsageError, match="first must be one of"):
        referee({"first": "nobody"})


def test_a_shot_starts_with_the_active_players_coin_outside_the_goal():
    assert "heads is the active player, not tails" in error_of([{"shot": "tails", "coin": "t1"}])
    log = shot("heads", "h1", "heads") + shot("tails", "t1") + [{"shot": "heads", "coin": "h1"}]
    assert "is in the goal" in error_of(log)
    assert "already under way" in error_of([{"shot": "heads", "coin": "h1"}, {"shot": "heads", "coin": "h2"}])


def test_a_shot_coin_that_did_not_enter_flips():
    rules, state = not_over(shot("heads", "h1"))
    assert state.faces["h1"] == "tails" and rules.to_move(state) == "tails"
    # entering is enough, even when it leaves again (then only 3.3 flips it, once)
    rules, state = not_over(shot("heads", "h1", "heads", {"leave": "h1"}))
    assert state.faces["h1"] == "tails"
    rules, state = not_over(shot("heads", "h1", "heads"))
    assert state.faces["h1"] == "heads" and state.in_goal["h1"]


def test_only_the_shot_coin_flips_when_it_misses():
    rules, state = not_over(shot("heads", "h1", None))
    assert state.faces == {"h1": "tails", "h2": "heads", "t1": "tails", "t2": "tails"}


# -- turns (6), skipping (7), the end (8) -------------------------------------------------------------------
def test_players_alternate():
    rules, state = not_over(shot("heads", "h1", "heads"))
    assert rules.to_move(state) == "tails"
    rules, state = not_over(shot("heads", "h1", "heads") + shot("tails", "t1", "tails"))
    assert rules.to_move(state) == "heads"


def test_skipping_hands_the_turn_back():
    # Heads has both coins in the goal; Tails shoots and misses: the missed coin turns heads,
    # so Heads is not skipped. When Tails' shot scores, Heads (nothing outside) is skipped.
    log = shot("heads", "h1", "heads") + shot("tails", "t1") + shot("heads", "h2", "heads")
    rules, state = not_over(log)
    assert rules.to_move(state) == "tails"  # tails owns t2 outside
    rules, state = not_over(log + shot("tails", "t2", "tails"))
    # Heads owns t1 (turned by 5.3) outside the goal, so is not skipped
    assert state.faces["t1"] == "heads" and rules.to_move(state) == "heads"
    rules, state = run(log + shot("tails", "t2", "tails") + shot("heads", "t1", "heads"))
    # Now Tails owns nothing outside: skipped; Heads owns nothing outside: skipped: the end.
    assert rules.is_over(state) and state.skipped == ["tails", "heads"]
    assert rules.result(state).winner == "heads" and rules.result(state).score == {"heads": 3, "tails": 1}


def test_a_skipped_player_is_passed_over_while_the_other_still_plays():
    log = shot("heads", "h1", "heads") + shot("tails", "t1", "tails") + shot("heads", "h2", "heads")
    rules, state = not_over(log + shot("tails", "t2", "tails", {"leave": "t1"}))
    # t1 left and became heads: Heads owns a coin outside and plays; Tails owns none outside
    assert rules.to_move(state) == "heads" and state.faces["t1"] == "heads"
    rules, state = not_over(log + shot("tails", "t2", "tails", {"leave": "t1"}) + shot("heads", "t1"))
    # t1 missed, turned tails: Tails plays (nobody was skipped)
    assert rules.to_move(state) == "tails"
    rules, state = not_over(log + shot("tails", "t2", "tails", {"leave": "h1"}))
    # h1 left and is tails now: Heads owns nothing outside and is skipped; Tails plays again
    assert state.skipped == ["heads"] and rules.to_move(state) == "tails"


def test_the_game_ends_when_everyone_is_skipped_and_counts_the_goal():
    log = shot("heads", "h1", "heads") + shot("tails", "t1", "tails") + shot("heads", "h2", "heads")
    rules, state = run(log + shot("tails", "t2", "tails"))
    assert rules.is_over(state)
    result = rules.result(state)
    assert result.winner is None and result.score == {"heads": 2, "tails": 2} and "(8)" in result.reason
    # just avoided: one coin still outside, so the game goes on
    not_over(log)


def test_a_majority_wins():
    log = shot("heads", "h1", "heads") + shot("tails", "t1", "tails", {"leave": "h1"})
    log += shot("heads", "h2", "heads") + shot("tails", "t2", "tails") + shot("tails", "h1", "tails")
    rules, state = run(log)
    assert rules.is_over(state)
    assert rules.result(state).winner == "tails" and rules.result(state).score == {"heads": 1, "tails": 3}


# -- penalties A to H ------------------------------------------------------------------------------------
def test_A_a_player_who_is_not_active_touches_something():
    letter, loser, result = penalty_of([{"touch": "tails", "what": "table"}])
    assert (letter, loser, result.winner) == ("A", "tails", "heads")
    assert penalty_of(shot("heads", "h1", "heads") + [{"touch": "heads", "what": "h1"}])[:2] == ("A", "heads")
    # just avoided: the active player may touch the table outside a shot
    not_over([{"touch": "heads", "what": "table"}, {"touch": "heads", "what": "t1"}])


def test_B_the_active_player_touches_during_the_shot():
    letter, loser, result = penalty_of([{"shot": "heads", "coin": "h1"}, {"touch": "heads", "what": "h1"}])
    assert (letter, loser, result.winner) == ("B", "heads", "tails")
    assert result.reason == "penalty B: heads touched h1 during the shot (event 2); heads loses"
    # just avoided: touching before the shot begins
    not_over([{"touch": "heads", "what": "h1"}] + shot("heads", "h1", "heads"))


def test_C_a_coin_in_the_goal_moves_outside_a_shot():
    log = shot("heads", "h1", "heads")
    assert penalty_of(log + [{"move": "h1"}])[:2] == ("C", "tails")  # Tails is active when it moves
    assert penalty_of(log + [{"leave": "h1"}])[:2] == ("C", "tails")
    # just avoided: a coin outside the goal may move; a coin in the goal may move during a shot
    not_over(log + [{"move": "t1"}])
    not_over(log + shot("tails", "t1", "tails", {"leave": "h1"}))


def test_D_a_coin_flipped_by_hand():
    letter, loser, result = penalty_of([{"flip": "t2"}])
    assert (letter, loser) == ("D", "heads")
    # just avoided: the flips ordered by 3.3 and 5.3 are no penalty
    not_over(
        shot("heads", "h1", "heads")
        + shot("tails", "t1", None, {"enter": "t1", "edge": "tails"}, {"leave": "h1"})
        + shot("heads", "h2")
    )


def test_E_a_coin_the_active_player_does_not_own_enters():
    letter, loser, result = penalty_of(shot("heads", "h1", None, {"enter": "t1", "edge": "heads"})[:-1])
    assert (letter, loser, result.winner) == ("E", "heads", "tails")
    # even the active player's own coin, once knocked out and turned over, is no longer theirs
    assert penalty_of(
        shot("heads", "h1", "heads")
        + shot("tails", "t1", "tails", {"leave": "t1"}, {"enter": "t1", "edge": "tails"})[:-1]
    )[:2] == ("E", "tails")
    # just avoided: two of the player's own coins enter
    not_over(shot("heads", "h1", "heads", {"enter": "h2", "edge": "heads"}))


def test_F_a_coin_enters_over_another_side():
    letter, loser, _ = penalty_of(shot("heads", "h1", 2)[:-1])
    assert (letter, loser) == ("F", "heads")
    assert penalty_of(shot("heads", "h1", "tails")[:-1])[:2] == ("F", "heads")  # the opponent's line
    # just avoided: over the player's own line (by name or by side number)
    not_over(shot("heads", "h1", 1) + shot("tails", "t1", 3))
    # without F it is allowed
    not_over(shot("heads", "h1", 2) + shot("tails", "t1", "heads"), referee({"without_f": True}))


def test_G_a_goal_coin_moves():
    letter, loser, result = penalty_of(
        shot("heads", "h1", "heads") + [{"shot": "tails", "coin": "t1"}, {"goal-coin-moved": 3}]
    )
    assert (letter, loser, result.winner) == ("G", "tails", "heads")
    # just avoided: touching a goal coin before the shot, without moving it
    not_over([{"touch": "heads", "what": "goal-coin"}, {"touch": "heads", "what": "g4"}] + shot("heads", "h1", "heads"))


def test_H_only_with_the_option():
    parked = [{"shot": "heads", "coin": "h1"}, {"contact": ["h1", "h2"]}, {"enter": "h1", "edge": "heads"}, STOP]
    rules = referee({"penalty_h": True})
    letter, loser, result = penalty_of(parked, rules)
    assert (letter, loser) == ("H", "heads") and result.reason.startswith(
        "penalty H: h1 (in the goal during the shot) touched h2 (never in it) (event 2)"
    )
    not_over(parked)  # without the option: no penalty
    # just avoided: both coins were in the goal during the shot
    log = shot("heads", "h1", "heads") + shot("tails", "t1", "tails")
    not_over(
        log + [{"shot": "heads", "coin": "h2"}, {"enter": "h2", "edge": "heads"}, {"contact": ["h2", "h1"]}, STOP],
        rules,
    )
    # just avoided: neither was ever in the goal
    not_over([{"shot": "heads", "coin": "h1"}, {"contact": ["h1", "t2"]}, STOP], referee({"penalty_h": True}))


def test_the_penalty_ends_the_game_and_later_events_are_refused():
    log = [{"touch": "tails", "what": "table"}, {"shot": "heads", "coin": "h1"}]
    done = replay(referee(), log)
    assert (
        done.error
        == 'move 2 (heads): {"shot": "heads", "coin": "h1"} — the game is already over (penalty A: tails touched the table while heads was active (event 1); tails loses)'
    )


# -- the seed's examples -----------------------------------------------------------------------------------
def test_seed_example_1():
    rules, state = not_over(shot("heads", "h1", "heads") + shot("tails", "t1", "tails", {"leave": "h1"}))
    assert state.faces["h1"] == "tails" and rules.to_move(state) == "heads"


def test_seed_example_2():
    before = shot("heads", "h1", "heads") + shot("tails", "t1", "tails") + shot("heads", "h2", "heads")
    rules, state = not_over(before)
    owned_before = sum(1 for f in state.faces.values() if f == "heads")
    rules, state = not_over(before + shot("tails", "t2", "tails", {"leave": "h2"}, {"leave": "t1"}, {"leave": "t2"}))
    assert (state.faces["h2"], state.faces["t1"], state.faces["t2"]) == ("tails", "heads", "heads")
    assert sum(1 for f in state.faces.values() if f == "heads") == owned_before + 1
    assert rules.to_move(state) == "heads"


def test_seed_example_3():
    letter, loser, result = penalty_of(
        shot("heads", "h1", "heads")
        + [{"shot": "tails", "coin": "t1"}, {"enter": "t1", "edge": "tails"}, {"goal-coin-moved": 2}]
    )
    assert (letter, loser, result.winner) == ("G", "tails", "heads")


def test_seed_example_4():
    letter, loser, result = penalty_of(
        [{"touch": "heads", "what": "h1"}, {"move": "h1"}, {"enter": "h1", "edge": "heads"}]
    )
    assert (letter, loser, result.winner) == ("C", "heads", "tails")


def test_seed_example_5():
    rules, state = not_over([{"touch": "heads", "what": "h1"}, {"move": "h1"}, {"shot": "heads", "coin": "h1"}, STOP])
    assert state.faces["h1"] == "tails" and rules.to_move(state) == "tails"


# -- teams ----------------------------------------------------------------------------------------------------
def test_team_turns_go_round_the_table():
    rules = referee(sides=4, players=4)
    assert rules.players == ("heads-1", "tails-1", "heads-2", "tails-2")
    assert sorted(rules.initial_state().faces) == ["h1", "h2", "h3", "h4", "t1", "t2", "t3", "t4"]
    log = shot("heads-1", "h1", "heads-1") + shot("tails-1", "t1", "tails-1") + shot("heads-2", "h3", "heads-2")
    rules, state = not_over(log, rules)
    assert rules.to_move(state) == "tails-2"


def test_a_team_owns_its_face_and_each_player_has_their_own_line():
    rules = referee(sides=4, players=4)
    # heads-2 may shoot heads-1's coin: the team owns every coin showing heads
    not_over(
        shot("heads-1", "h1", "heads-1") + shot("tails-1", "t1", "tails-1") + shot("heads-2", "h2", "heads-2"), rules
    )
    # but heads-2 must bring it in over their own line, not their team mate's
    letter, loser, result = penalty_of(
        shot("heads-1", "h1", "heads-1") + shot("tails-1", "t1", "tails-1") + shot("heads-2", "h2", "heads-1")[:-1],
        rules,
    )
    assert (letter, loser, result.winner) == ("F", "heads-2", "tails")
    # a team mate who touches out of turn loses the game for the team
    letter, loser, result = penalty_of([{"touch": "heads-2", "what": "table"}], referee(sides=4, players=4))
    assert (letter, loser, result.winner) == ("A", "heads-2", "tails")


def test_a_team_game_ends_when_every_player_is_skipped():
    rules = referee(sides=6, players=3, coins=2)  # heads-1, tails-1, heads-2: heads h1–h4, tails t1–t2
    log = shot("heads-1", "h1", "heads-1") + shot("tails-1", "t1", "tails-1") + shot("heads-2", "h2", "heads-2")
    log += shot("heads-1", "h3", "heads-1") + shot("tails-1", "t2", "tails-1")
    rules, state = not_over(log, rules)
    assert state.skipped == [] and rules.to_move(state) == "heads-2"
    rules, state = run(log + shot("heads-2", "h4", "heads-2"), rules)
    assert rules.is_over(state) and rules.result(state).winner == "heads"
    assert rules.result(state).score == {"heads": 4, "tails": 2}


# -- impossible and malformed logs -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "log,message",
    [
        ([{"shot": "heads", "coin": "h9"}], "there is no coin 'h9'"),
        ([{"leave": "h1"}], "h1 is not in the goal"),
        (
            shot("heads", "h1", "heads") + [{"shot": "tails", "coin": "t1"}, {"enter": "h1", "edge": "tails"}],
            "already in the goal",
        ),
        ([STOP], "no shot is under way"),
        ([{"shot": "heads", "coin": "h1"}, {"move": "h2"}], "during a shot coins may move"),
        ([{"touch": "umpire", "what": "table"}], "'umpire' is not a player"),
        ([{"touch": "heads", "what": "chair"}], "a touch is of"),
        ([{"touch": "heads", "what": "g5"}], "g1…g4), not 'g5'"),
        ([{"shot": "heads", "coin": "h1"}, {"contact": ["h1", "h1"]}], "cannot touch itself"),
    ],
)
def test_an_impossible_log_is_reported_at_its_event(log, message):
    error = error_of(log)
    assert f"move {len(log)} (" in error and message in error


@pytest.mark.parametrize(
    "event,message",
    [
        ("shot heads h1", "an event is a JSON object"),
        ({"shot": "heads", "leave": "h1"}, "exactly one of"),
        ({"jump": "h1"}, "exactly one of"),
        ({"shot": "heads"}, 'needs a "coin" field'),
        ({"shot": "heads", "coin": 3}, '"coin" must be text'),
        ({"stop": False}, '{"stop": true}'),
        ({"leave": "h1", "edge": "heads"}, "has no field(s) edge"),
        ({"enter": "h1", "edge": "north"}, "edge 'north' is neither a player"),
        ({"enter": "h1", "edge": 5}, "side number from 1 to 4"),
        ({"enter": "h1"}, 'needs an "edge"'),
        ({"goal-coin-moved": 5}, "from 1 to 4"),
        ({"contact": "h1"}, "names two coins"),
    ],
)
def test_a_malformed_event_is_invalid(event, message):
    rules = referee()
    with pytest.raises(InvalidMoveError) as caught:
        rules.parse_move(rules.initial_state(), event)
    assert message in str(caught.value)


def test_unknown_options_are_usage_errors():
    with pytest.raises(UsageError, match="unknown flick option"):
        referee({"penalty_x": True})
    with pytest.raises(UsageError, match="must be true or false"):
        referee({"penalty_h": "yes"})
    with pytest.raises(UsageError, match="coins must be a whole number from 2 to 50, not 1"):
        referee({"coins": 1})
    assert sorted(referee({"coins": 3}).initial_state().faces) == ["h1", "h2", "h3", "t1", "t2", "t3"]
    assert sorted(referee(coins=4).initial_state().faces) == ["h1", "h2", "h3", "h4", "t1", "t2", "t3", "t4"]


# -- events as a game protocol ------------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), max_size=40), st.booleans(), st.sampled_from([2, 3, 4]))
def test_random_possible_events_replay_and_round_trip(choices, penalty_h, players):
    rules = FlickRules(build(4, players=players), {"penalty_h": penalty_h})
    state = rules.initial_state()
    log = []
    for choice in choices:
        events = rules.legal_moves(state)
        if not events:
            assert rules.is_over(state)
            break
        event = events[choice % len(events)]
        text = rules.move_text(state, event)
        assert rules.parse_move(state, json.loads(json.dumps(text))) == event
        rules.apply(state, event)
        log.append(text)
        assert len(state.faces) == 2 * players  # coins change owner, never number
        assert sum(rules.score(state).values()) == sum(state.in_goal.values())
    again = replay(rules, log)
    assert again.error is None and again.state.faces == state.faces and again.state.over == state.over


def test_validate_game_reads_event_logs(cli, tmp_path):
    def record(moves, result=None, options=None):
        doc = {
            "format": "coinprint-record/1",
            "game": "flick",
            "layout": "flick:sides=4,width=15cm",
            "options": options or {},
            "players": {"heads": "Ada", "tails": "Bo"},
            "moves": moves,
        }
        if result:
            doc["result"] = result
        path = tmp_path / f"log{len(list(tmp_path.iterdir()))}.json"
        path.write_text(json.dumps(doc))
        return str(path)

    example3 = shot("heads", "h1", "heads") + [
        {"shot": "tails", "coin": "t1"},
        {"enter": "t1", "edge": "tails"},
        {"goal-coin-moved": 2},
    ]
    done = cli("validate", "game", record(example3, {"winner": "heads"}))
    assert done.code == 0 and "heads wins (penalty G: goal coin 2 moved (event 6); tails loses)" in done.out
    done = cli("validate", "game", record(example3, {"winner": "tails"}))
    assert done.code == 1 and "winner 'tails', the moves give 'heads'" in done.out
    done = cli("validate", "game", record([{"shot": "tails", "coin": "t1"}]))
    assert done.code == 1 and "move 1 (heads)" in done.out and "heads is the active player" in done.out
    done = cli("validate", "game", record([{"stop": "now"}]))
    assert done.code == 1 and '{"stop": true}' in done.out
    done = cli("validate", "game", record([], options={"teams": 2}))
    assert done.code == 2 and "unknown flick option" in done.err
    full = (
        shot("heads", "h1", "heads") + shot("tails", "t1", "tails") + shot("heads", "h2", "heads") + shot("tails", "t2")
    )
    full += shot("heads", "t2", "heads")
    done = cli("validate", "game", record(full, {"winner": "heads", "score": {"heads": 3, "tails": 1}}), "--show")
    assert done.code == 0, done.out
    assert "heads wins (every player was skipped (8)); score: heads 3, tails 1" in done.out
    assert "heads: in the goal h1 h2 t2" in done.out


@pytest.mark.parametrize("sides,players", [(4, 2), (5, 2), (6, 3), (4, 4)])
def test_a_hand_made_mat_without_seat_properties_seats_players_by_geometry(sides, players):
    from coinprint.layout import from_geojson

    doc = build(sides, players=players).to_geojson()
    for feature in doc["features"]:
        if feature["properties"]["role"] == "line":
            for key in ("side", "seat", "face"):
                feature["properties"].pop(key)
        if feature["properties"]["role"] == "goal":
            feature["properties"].pop("sides")
    bare = FlickRules(from_geojson(doc), {})
    full = FlickRules(build(sides, players=players), {})
    assert bare.sides == sides
    assert [(p.name, p.face, p.side) for p in bare.seated] == [(p.name, p.face, p.side) for p in full.seated]
    # and F follows the geometry: the second player's line is their side
    second = full.seated[1]
    not_over(shot("heads" if players == 2 else "heads-1", "h1", 1) + shot(second.name, "t1", second.side), bare)


def test_impossible_events_are_illegal_not_invalid():
    rules = referee()
    state = rules.initial_state()
    for text in ({"leave": "h1"}, {"shot": "heads", "coin": "x1"}, {"stop": True}, {"shot": "tails", "coin": "t1"}):
        event = rules.parse_move(state, text)  # well formed …
        with pytest.raises(IllegalMoveError):  # … but impossible now
            rules.apply(state, event)
    assert state == rules.initial_state()  # nothing changed
