"""The lessons, one module per concept, in the order of the path (:data:`LESSONS`)."""

from __future__ import annotations

from conquian.learn.lessons import basics, cooncan, forcing, foster, mexicano, scoring, spanish
from conquian.learn.model import Lesson

#: Every lesson in the order a newcomer takes them.
LESSONS: tuple[Lesson, ...] = (*basics.LESSONS, *forcing.LESSONS, *scoring.LESSONS, *spanish.LESSONS,
                               *mexicano.LESSONS, *cooncan.LESSONS, *foster.LESSONS)


def lesson(key: str) -> Lesson:
    """The lesson with this key (KeyError if none)."""
    for item in LESSONS:
        if item.key == key:
            return item
    raise KeyError(key)
