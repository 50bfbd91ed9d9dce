"""Coin Age's own tests: ``coinprint/games/coinage/``."""
