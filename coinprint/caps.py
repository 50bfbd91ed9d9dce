"""Every limit coinprint puts on input and work, in one place.

A cap is checked up front, before any work starts, and the message that refuses an input
names the cap, so a user learns what is allowed rather than waiting for memory to run out.
``docs/formats.md`` lists them for users.
"""

from __future__ import annotations

MAX_INPUT_BYTES = 50 * 1024 * 1024
"""Largest file coinprint reads (a layout, a record, an event log, an SVG drawing): 50 MB."""

MAX_DRAWING_SHAPES = 5000
"""Most shapes (paths, rectangles, circles, …) coinprint reads from one drawing."""
MAX_DRAWING_NUMBERS = 400_000
"""Most numbers in the path data and point lists of one drawing (about 200,000 points),
counted before any path is parsed, so a huge path is refused at once."""
MAX_FLATTENED_POINTS = 500_000
"""Most points all shapes of one drawing may have once curves are flattened into lines."""
MAX_GEOJSON_FEATURES = 20_000
"""Most features coinprint reads from one GeoJSON file."""
