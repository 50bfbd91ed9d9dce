"""Command-line wiring for flick (board, rules, play)."""
