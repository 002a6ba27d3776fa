"""The engine: the rules of every form of the game, and nothing above them.

Shared by every family: :mod:`~conquian.engine.cards` (cards and card sets as int bitmasks),
:mod:`~conquian.engine.deck` (packs and seeded shuffles), :mod:`~conquian.engine.rules` (the
presets as data), :mod:`~conquian.engine.rulebook` (the rule book), :mod:`~conquian.engine.actions`
(actions and their notation), :mod:`~conquian.engine.scoring`, :mod:`~conquian.engine.errors`,
:mod:`~conquian.engine.deal` (what every deal shares), :mod:`~conquian.engine.table` (cutting for
seats), :mod:`~conquian.engine.match` (deals in turn and totals), :mod:`~conquian.engine.record`
and :mod:`~conquian.engine.files` (records), :mod:`~conquian.engine.redeal` (re-dealing what a
seat has not seen).

One sub-package per family, each with the same modules: ``deal`` (the state of one deal),
``listing`` (its legal actions as pure functions over card masks: the hot path), ``melds``
(its combinations), ``events`` (its public history) and ``view`` (what one seat may know):

- :mod:`conquian.engine.conquian`: Conquian (R3) and its presets;
- :mod:`conquian.engine.cooncan`: Cooncan (R4), one pack or two.

The engine imports nothing of the package outside it (``tests/test_layers.py``).
"""
