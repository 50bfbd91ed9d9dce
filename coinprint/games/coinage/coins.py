"""The coins of Coin Age: ranks, names, points and the bank each player starts with (shared by
the reference engine and its fast play-outs)."""

DENOMINATIONS = ("D", "P", "N", "Q")
"""Coins by rank, lowest first (dime < penny < nickel < quarter)."""
NAMES = {"D": "dime", "P": "penny", "N": "nickel", "Q": "quarter"}
VALUES = (1, 2, 3, 4)
"""Points for a controlled space, by rank."""
START_BANK = (4, 3, 2, 1)
"""Coins each player starts with, by rank."""
PLAYERS = ("heads", "tails")
