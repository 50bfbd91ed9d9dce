"""Printing to files: where outputs go (:mod:`~coinprint.kit.output`), boards
(:mod:`~coinprint.kit.board`), rule sheets (:mod:`~coinprint.kit.rulesheet`) and whole
print-and-play kits (:mod:`~coinprint.kit.kit`), for any :class:`~coinprint.game.Game`."""
