"""Rendering: a device-independent scene in mm, and SVG and PDF backends.

Renderers know nothing about rules: a game state reaches them as marks on a layout.
"""
