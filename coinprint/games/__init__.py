"""Rules engines: one module per game on a shared core (:mod:`coinprint.engine`).

Engines see a layout only as a graph with labels and regions; they know nothing of drawing.
"""
