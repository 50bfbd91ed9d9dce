"""Swedish as a Swede writes it: the calques of the first translation are gone from every
Swedish template, and ``board --lang sv`` prints the board's words in Swedish."""

from __future__ import annotations

import json

import pytest

from coinprint.kit.rulesheet import texts_folder
from coinprint.registry import GAMES
from coinprint.resources import template_path
from tests.conftest import games_written_in, pdf_reading_text

SWEDISH_GAMES = games_written_in("sv")
"""The games with Swedish texts (``templates/<game>.sv.json``)."""

CALQUES = {
    "hålla": "to hold a space is to take it over (ta över, behålla)",
    "Så läser vi": "a rulebook says Förtydliganden",
    "deras tur": "singular 'their' is 'en spelares', 'sin'",
    "deras sida": "singular 'their' is 'den egna'",
    "deras bokstav": "singular 'their' is 'motståndarens'",
    "deras mynt": "singular 'their' is 'motståndarens'",
    "turer": "turns are counted in drag",
    "Prickade": "the circles are dashed: streckade",
    "prickade": "the circles are dashed: streckade",
    "har alltid ett drag: på en tom plan att lägga": "Swedish word order",
    "Map,": "the title is Swedish: Karta nr",
    "spelet att skriva ut": "print-and-play is 'skriv ut och spela'",
    "fångar det:": "the player captures: 'fångar du det'",
    "är ett riktigt drag": "a touch counts as a move: 'räknas som ett drag'",
}


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


@pytest.mark.parametrize("game", SWEDISH_GAMES)
def test_swedish_templates_have_no_calques(game):
    words = json.loads((texts_folder(GAMES[game]) / f"{game}.sv.json").read_text(encoding="utf-8"))
    text = "\n".join(_strings(words))
    for calque, why in CALQUES.items():
        assert calque not in text, f"{game}.sv.json: {calque!r} ({why})"


def test_swedish_headings_are_a_rulebooks():
    for game in ("cointable", "coinage", "mapgame"):
        words = json.loads(template_path(f"{game}.sv.json").read_text(encoding="utf-8"))
        assert any(b.get("h2") == "Förtydliganden" for b in words["blocks"]), game
        english = json.loads(template_path(f"{game}.en.json").read_text(encoding="utf-8"))
        assert any(b.get("h2") == "Clarifications" for b in english["blocks"]), game


SWEDISH_BOARD = {  # some words each board's page says in Swedish
    "cointable": ("Streckade cirklar", "rutor"),
    "coinage": ("kartkort", "Karta: klassisk"),
    "mapgame": ("Karta nr", "länder", "streckade"),
    "flick": ("Flick-matta", "två quarters", "Krona och Klave"),
}


@pytest.mark.parametrize("game", SWEDISH_GAMES)
def test_board_in_swedish_carries_swedish_words(cli, tmp_path, game):
    out = tmp_path / f"{game}-sv.pdf"
    assert cli("board", game, "--lang", "sv", "-o", str(out)).code == 0
    text = " ".join(pdf_reading_text(out).split())
    for word in SWEDISH_BOARD.get(game, ()):
        assert word in text, (game, word)
    assert "Print at 100" not in text and "Skriv ut i 100 %" in text
    english = tmp_path / f"{game}-en.pdf"
    assert cli("board", game, "-o", str(english)).code == 0
    assert "Print at 100" in pdf_reading_text(english)


def test_board_refuses_an_unknown_language(cli, tmp_path):
    result = cli("board", "flick", "--lang", "xx", "-o", str(tmp_path / "x.pdf"))
    assert result.code == 2 and "xx" in result.err and "\n" not in result.err.strip()
    assert not (tmp_path / "x.pdf").exists()
