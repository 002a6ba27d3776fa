"""Keep the translations' catalogues in step with the code (docs/translating.md).

    python scripts/catalogues.py update     # extract the texts, merge them into every .po
    python scripts/catalogues.py compile    # compile every .po into the .mo shipped in the package
    python scripts/catalogues.py init fr    # start a new language's catalogue
    python scripts/catalogues.py stats      # how much of each language is translated

The commands are Babel's (``pybabel extract``, ``update``, ``init``, ``compile``) with this
project's keywords and paths, so that nobody needs to remember them.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "src" / "conquian" / "locale"
TEMPLATE = LOCALE / "conquian.pot"
#: The functions that mark a text: the standard ones, and the messages translated when read.
KEYWORDS = ["-k", "Msg", "-k", "NMsg:1,2", "-k", "N_", "-k", "CMsg:1c,2", "-k", "pgettext:1c,2"]


def pybabel(*args: str) -> None:
    # from the repository's root, so that the catalogues' references read src/conquian/...
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        CommandLineInterface().run(["pybabel", "-q", *args])
    finally:
        os.chdir(here)


def extract() -> None:
    pybabel("extract", "-F", "babel.cfg", *KEYWORDS, "--sort-by-file", "--no-wrap",
            "--project", "conquian", "--copyright-holder", "The conquian maintainers",
            "--msgid-bugs-address", "https://github.com/conquian/conquian/issues",
            "-o", str(TEMPLATE.relative_to(ROOT)), ".")


def update() -> None:
    extract()
    pybabel("update", "-i", str(TEMPLATE), "-d", str(LOCALE), "-D", "conquian", "--no-wrap",
            "--ignore-obsolete", "--no-fuzzy-matching")


def compile_all() -> None:
    pybabel("compile", "-d", str(LOCALE), "-D", "conquian", "--statistics")


def init(lang: str) -> None:
    extract()
    pybabel("init", "-i", str(TEMPLATE), "-d", str(LOCALE), "-D", "conquian", "-l", lang, "--no-wrap")


def stats() -> None:
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/conquian.po")):
        with po.open("rb") as f:
            cat = read_po(f)
        messages = [m for m in cat if m.id]
        done = [m for m in messages if (all(m.string) if isinstance(m.string, tuple) else m.string)
                and "fuzzy" not in m.flags]
        print(f"{po.parent.parent.name}: {len(done)} of {len(messages)} translated")


def main(argv: list[str]) -> int:
    commands = {"extract": extract, "update": update, "compile": compile_all, "stats": stats}
    if len(argv) == 2 and argv[0] == "init":
        init(argv[1])
        return 0
    if len(argv) != 1 or argv[0] not in commands:
        print(__doc__)
        return 2
    commands[argv[0]]()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
