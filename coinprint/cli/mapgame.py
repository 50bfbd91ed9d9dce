"""Command-line wiring for mapgame (board, rules, play)."""
