"""Command-line wiring for coinage (board, rules, play)."""
