"""The rule book in the package and ``conquian rules`` (issue 14): every rule a refusal can name
is in the book, every rule of the book has its source passage or decision, and the command
prints a rule, the book or the list, and refuses a bad number in one line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from conquian.cli import main
from conquian.engine import rulebook

SRC = Path(__file__).resolve().parent.parent / "src" / "conquian"

#: The rule numbers of the rule book (R1 to R8 and their sub-rules), fixed: code and records cite them.
NUMBERS = ["R1", "R2", "R2.1", "R2.2", "R2.3", "R2.4", "R3", "R3.1", "R3.2", "R3.3", "R3.4", "R3.5", "R3.6",
           "R3.7", "R3.8", "R4", "R4.1", "R4.2", "R4.3", "R4.4", "R4.5", "R4.6", "R5", "R5.1", "R5.2", "R5.3",
           "R5.4", "R6", "R6.1", "R6.2", "R6.3", "R7", "R8", "R8.1", "R8.2", "R8.3", "R8.4", "R8.5", "R8.6",
           "R8.7", "R8.8"]


def test_the_book_has_every_rule_in_order() -> None:
    assert rulebook.numbers() == NUMBERS


def test_every_rule_a_refusal_names_is_in_the_book() -> None:
    cited: set[str] = set()
    for path in SRC.rglob("*.py"):
        if path.name == "rulebook.py":
            continue
        cited |= set(re.findall(r"""["'](R\d+(?:\.\d+)?)["':]""", path.read_text()))
    assert cited, "the engine cites rules"
    assert cited <= set(NUMBERS), cited - set(NUMBERS)


def test_every_rule_shows_where_it_comes_from() -> None:
    # every rule without sub-rules quotes the sources or marks its decision (R7 is the program's own)
    leaves = [n for n in NUMBERS if not any(m.startswith(n + ".") for m in NUMBERS) and n != "R7"]
    for number in leaves:
        text = "\n" + rulebook.rules()[number].text
        assert "\n> " in text or "**Decision" in text, number


def test_decisions_on_the_ambiguities_are_marked() -> None:
    book = rulebook.text()
    for rule, words in [("R1", "max_pack_turns"), ("R2.4", "Spanish court"), ("R3.1", "for records"),
                        ("R3.3", "memory aid"), ("R3.4", "rearranged"), ("R3.6", "forcing a declined"),
                        ("R8.2", "for records"), ("R8.4", "names no one"), ("R8.7", "no pool")]:
        assert "**Decision" in rulebook.rules()[rule].text and words in rulebook.rules()[rule].text, rule
    assert "{#R" not in book  # the anchors are for the web page and the site only


@pytest.mark.parametrize("given", ["R3.4", "r3.4", "3.4", "R3.4."])
def test_a_rule_by_any_spelling(given: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", given, "--no-pager"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("R3.4 Using a card; borrowing\n") and "borrow" in out and "R3.5 " not in out


def test_a_section_holds_its_sub_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "R5"]) == 0
    out = capsys.readouterr().out
    assert "### R5.1 Conquian for games" in out and "R5.4" in out and "R6.1" not in out


def test_the_list_and_the_whole_book(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == NUMBERS and lines[3] == "  R2.2  Combinations"
    assert main(["rules", "--no-pager"]) == 0
    assert capsys.readouterr().out == rulebook.text()


@pytest.mark.parametrize("bad", ["R9.9", "R0", "hello", "R3.4.5", "-1"])
def test_a_bad_number_is_refused_in_one_line(bad: str) -> None:
    out = subprocess.run([sys.executable, "-m", "conquian", "rules", "--", bad], capture_output=True, text=True)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("conquian rules: ") and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


def test_r8_prints_the_conquian_mexicano(capsys: pytest.CaptureFixture[str]) -> None:
    # R8: `conquian rules R8` prints the section with every sub-rule, and a sub-rule alone
    assert main(["rules", "R8", "--no-pager"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("R8 Conquián mexicano") and all(f"R8.{k} " in out for k in range(1, 9))
    assert main(["rules", "r8.2", "--no-pager"]) == 0
    out = capsys.readouterr().out
    assert "cambio" in out and "p1 give 7c" in out and "R8.3 " not in out


def test_the_book_ships_in_the_package() -> None:
    from importlib.resources import files

    assert files("conquian.engine").joinpath("rulebook.md").is_file()
