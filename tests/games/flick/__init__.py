"""Flick's own tests: ``coinprint/games/flick/``."""
