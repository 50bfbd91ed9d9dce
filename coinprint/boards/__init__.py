"""Board generators and layout checks, one module per game.

A generator returns a :class:`coinprint.layout.Layout`; a checker returns a list of
:class:`coinprint.boards.checks.Problem` and never raises on a bad layout.
"""
