"""The Map's own tests: ``coinprint/games/mapgame/``."""
