"""The language of the command line: ``--lang``, else the environment's, and argparse's own words in it.

Help texts are handed to argparse when the parsers are built, so the language is chosen before:
:func:`prescan` reads ``--lang`` from the arguments (before or after the command), and
:func:`use_language` makes it the program's (:func:`conquian.i18n.set_language`).

argparse writes its own words ("usage:", "options:", "the following arguments are required: %s")
with the module-level functions ``_`` and ``ngettext`` it imported from :mod:`gettext`, which read
the system's ``argparse`` domain, not ours.  :func:`use_language` points those two names at our
catalogue's translator, and :data:`ARGPARSE_MESSAGES` marks argparse's texts (of Python 3.11 to
3.13) so that their translations are extracted into our catalogue.  They keep argparse's
``%``-fields as they are.

```pycon
>>> prescan(["play", "--lang", "es", "--seed", "1"]), prescan(["--lang=en", "rules"])
('es', 'en')
>>> prescan(["play", "--name", "x", "--", "--lang", "es"]) is None
True
>>> language("es_MX.UTF-8"), language("EN")
('es', 'en')

```
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from conquian.i18n import N_, NMsg, Translator, _, languages, match_language, set_language

#: argparse's own texts (Python 3.11 to 3.13), marked for the catalogue; argparse asks for them by
#: these very msgids through the ``_`` and ``ngettext`` that :func:`use_language` gives it.
ARGPARSE_MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("%(heading)s:"),
    N_(" (default: %(default)s)"),
    N_("subcommands"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("%(prog)s: warning: %(message)s\n"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("argument \"-\" with mode %r"),
    N_("%r is not callable"),
    N_("cannot have multiple subparser arguments"),
    N_("command '%(parser_name)s' is deprecated"),
    N_("option '%(option)s' is deprecated"),
    N_("argument '%(argument_name)s' is deprecated"),
)


#: argparse's texts with a plural (``ngettext``), marked the same way.
ARGPARSE_PLURALS = (
    NMsg("expected %s argument", "expected %s arguments", 2),
    NMsg("conflicting option string: %s", "conflicting option strings: %s", 2),
)


def prescan(argv: Sequence[str]) -> str | None:
    """The value of ``--lang`` among the arguments, wherever it stands (before ``--``), or None."""
    found = None
    args = list(argv)
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            found = args[i + 1]
        elif arg.startswith("--lang="):
            found = arg.partition("=")[2]
    return found


def language(text: str) -> str:
    """A language the program speaks, for ``--lang`` (``es``, ``es_MX``, ``en``), or an argparse error."""
    found = match_language(text)
    if found is None:
        raise argparse.ArgumentTypeError(
            _("no translation into {lang!r} (languages: {known})").format(lang=text[:30],
                                                                           known=", ".join(languages())))
    return found


def add_language_option(p: argparse.ArgumentParser) -> None:
    """``--lang`` on a parser (the main one and every command's, so it may stand on either side)."""
    p.add_argument("--lang", type=language, default=argparse.SUPPRESS, metavar="LANG",
                   help=_("the language of the program's words: {known} (default: from LANGUAGE, LC_ALL, "
                          "LC_MESSAGES or LANG; else English)").format(known=", ".join(languages())))


def use_language(requested: str | None) -> Translator:
    """Make ``requested`` (``--lang``; the environment's language when None) the program's language,
    argparse's words included.  A requested language the program does not speak is English."""
    tr = set_language((match_language(requested) or "en") if requested else None)
    # argparse looks these two names up in its own module each time it writes a word
    argparse._ = tr.gettext  # type: ignore[attr-defined]
    argparse.ngettext = tr.ngettext  # type: ignore[attr-defined]
    return tr


__all__ = ["ARGPARSE_MESSAGES", "ARGPARSE_PLURALS", "add_language_option", "language", "prescan", "use_language"]
