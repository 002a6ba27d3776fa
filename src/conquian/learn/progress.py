"""The learner's progress: the keys of the lessons done, kept in ``learn.json`` in the data folder
the terminal game already uses (beside ``records``)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from conquian.engine.files import atomic_write, records_dir


def progress_path() -> Path:
    """Where the progress is kept."""
    return records_dir().parent / "learn.json"


def done_lessons(path: Path | None = None) -> set[str]:
    """The keys of the lessons done (an unreadable file counts as none done)."""
    path = path or progress_path()
    with contextlib.suppress(OSError, ValueError):
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and isinstance(data.get("done"), list):
            return {k for k in data["done"] if isinstance(k, str)}
    return set()


def mark_done(key: str, path: Path | None = None) -> None:
    """Record a lesson as done."""
    path = path or progress_path()
    done = done_lessons(path) | {key}
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, json.dumps({"done": sorted(done)}) + "\n")  # a kill mid-write keeps the old file
