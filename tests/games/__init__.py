"""Each game's own tests, one package per game as in ``coinprint/games/<game>/``."""
