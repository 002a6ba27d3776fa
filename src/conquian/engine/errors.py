"""The errors of the engine: every one is a :class:`ValueError` (R7).

Their messages are :class:`~conquian.i18n.Msg`: ``str()`` is English, the same in every language
(records, logs and tests read it), and :meth:`ConquianError.render` gives a reader's language.
The engine never translates: it does not know who reads.

```pycon
>>> from conquian.i18n import translator
>>> err = IllegalActionError("R3.5", Msg("{seat} does not hold {card}", seat="p1", card="7h"))
>>> str(err), err.render(translator("es"))
('R3.5: p1 does not hold 7h', 'R3.5: p1 no tiene 7h')
>>> quote("p1 use " + "7h " * 1000).endswith("... (3007 characters)")
True

```
"""

from __future__ import annotations

from conquian.i18n import Msg, Translator

#: How much of a bad input an error message repeats (a 48 MB action is not echoed whole).
QUOTE_LIMIT = 60


def quote(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr`` of some input for an error message, cut to ``limit`` characters with its length."""
    if isinstance(text, str) and len(text) > limit:
        return repr(text[:limit]) + f"... ({len(text)} characters)"
    r = repr(text)
    return r if len(r) <= limit + 2 else r[:limit] + f"... ({len(r)} characters)"


class ConquianError(ValueError):
    """Base class of every error the engine raises on bad input.

    ``message`` is a :class:`~conquian.i18n.Msg` (translated where it is read); ``str()`` is English,
    and :meth:`render` gives the text in a reader's language.
    """

    def __init__(self, message: str | Msg = "", *args: object) -> None:
        self.message = message if isinstance(message, Msg) else Msg(str(message))
        super().__init__(str(self.message), *args)

    def render(self, tr: Translator | None = None) -> str:
        """The error in ``tr``'s language (English by default)."""
        return self.message.render(tr)


class NotationError(ConquianError):
    """Text (or an object) that cannot be read as a card, an action or a record field (docs/records.md)."""


class IllegalActionError(ConquianError):
    """An action that parses but breaks a rule (R7).

    ``rule`` is the R-number broken (``"R3.4"``), ``cause_message`` the reason (a
    :class:`~conquian.i18n.Msg`) and ``cause`` the same in English; ``str()`` gives both, and
    :meth:`render` both in a reader's language.  The state the action was tried on is left unchanged.
    """

    def __init__(self, rule: str, cause: str | Msg) -> None:
        self.rule = rule
        self.cause_message = cause if isinstance(cause, Msg) else Msg(cause)
        self.cause = str(self.cause_message)
        super().__init__(Msg("{rule}: {cause}", rule=rule, cause=self.cause_message))


class SetupError(IllegalActionError):
    """A deal or a match that cannot be set up as asked: a deck that is not the pack, a dealer or a
    player count out of range, or a deal dealt out of turn (R1, R3.1, R3.8, R4.1)."""


class RecordError(ConquianError):
    """A record file that is not a valid record, or whose ``result`` disagrees with its replay."""
