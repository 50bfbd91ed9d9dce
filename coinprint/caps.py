"""Every limit coinprint puts on input and work, in one place.

A cap is checked up front, before any work starts, and the message that refuses an input
names the cap, so a user learns what is allowed rather than waiting for memory to run out.
``docs/formats.md`` lists them for users.
"""

from __future__ import annotations

MAX_INPUT_BYTES = 50 * 1024 * 1024
"""Largest file coinprint reads (a layout, a record, an event log, an SVG drawing): 50 MB."""
