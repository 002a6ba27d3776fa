"""The modules' paths before the engine had sub-packages, kept importing.

``from conquian.cooncan import CooncanDeal`` and the other imports of the flat layout still
work: the old name is the new module itself (the same objects, classes and functions), found
on first import.  New code imports from the new paths (``docs/internals.md``).

```pycon
>>> import conquian.twohand, conquian.engine.conquian.deal
>>> conquian.twohand is conquian.engine.conquian.deal
True

```
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

#: Old module path -> the module that is there now.
OLD_PATHS: dict[str, str] = {
    "conquian.errors": "conquian.engine.errors",
    "conquian.cards": "conquian.engine.cards",
    "conquian.deck": "conquian.engine.deck",
    "conquian.rules": "conquian.engine.rules",
    "conquian.rulebook": "conquian.engine.rulebook",
    "conquian.actions": "conquian.engine.actions",
    "conquian.scoring": "conquian.engine.scoring",
    "conquian.deal": "conquian.engine.deal",
    "conquian.table": "conquian.engine.table",
    "conquian.files": "conquian.engine.files",
    "conquian.match": "conquian.engine.match",
    "conquian.record": "conquian.engine.record",
    "conquian.redeal": "conquian.engine.redeal",
    "conquian.melds": "conquian.engine.conquian.melds",
    "conquian.twohand": "conquian.engine.conquian.deal",
    "conquian.conquian_listing": "conquian.engine.conquian.listing",
    "conquian.view": "conquian.engine.conquian.view",
    "conquian.combos": "conquian.engine.cooncan.melds",
    "conquian.cooncan": "conquian.engine.cooncan.deal",
    "conquian.cooncan_listing": "conquian.engine.cooncan.listing",
    "conquian.cooncan_view": "conquian.engine.cooncan.view",
    "conquian.fill": "conquian.bots.fill",
    "conquian.openspiel": "conquian.envs.openspiel",
}


class _OldPaths(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old path and gives the module now at the new one (its own spec kept)."""

    def __init__(self) -> None:
        self._specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in OLD_PATHS:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(OLD_PATHS[spec.name])
        self._specs[module.__name__] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # the import system stamps the alias's spec on the module: give it back its own
        module.__spec__ = self._specs[module.__name__]


def install() -> None:
    """Make the old paths importable (once; :mod:`conquian` does it on import)."""
    if not any(isinstance(f, _OldPaths) for f in sys.meta_path):
        sys.meta_path.append(_OldPaths())
