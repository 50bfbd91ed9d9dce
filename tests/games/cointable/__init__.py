"""Coin Table's own tests: ``coinprint/games/cointable/``."""
