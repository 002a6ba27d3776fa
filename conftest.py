"""Collection across the repository: the package's doctests are read from its Python sources,
except where ``conquian speedups build`` has put a compiled module beside one (Python then
imports the extension, whose file is not the source pytest would read; the pure-Python
doctests run wherever the hot path is not compiled, as in CI)."""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if collection_path.suffix == ".py" and any(collection_path.parent.glob(f"{collection_path.stem}.*.so")):
        return True
    return None
