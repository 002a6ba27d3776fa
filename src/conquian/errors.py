"""The errors of the engine: every one is a :class:`ValueError` (RULES R7)."""

from __future__ import annotations


class ConquianError(ValueError):
    """Base class of every error the engine raises on bad input."""


class NotationError(ConquianError):
    """Text that cannot be parsed: a card, an action or a record field (RECORDS.md)."""


class IllegalActionError(ConquianError):
    """An action that parses but breaks a rule (RULES R7).

    ``rule`` is the R-number broken (``"R3.4"``) and ``cause`` the reason in words;
    ``str()`` gives both.  The state the action was tried on is left unchanged.
    """

    def __init__(self, rule: str, cause: str) -> None:
        self.rule = rule
        self.cause = cause
        super().__init__(f"{rule}: {cause}")


class RecordError(ConquianError):
    """A record file that is not a valid record, or whose ``result`` disagrees with its replay."""
