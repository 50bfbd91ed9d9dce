"""The tests: shared ones here, each game's own under ``tests/games/<game>/``."""
