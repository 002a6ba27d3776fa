"""The documentation is tested (issue 14): the records of the reference page replay and give the
outputs the page shows, the README starts with its two set-up commands, and no link leaves the
repository except for public sites.  (The pages' Python examples run as doctests, and CI builds
the site with ``mkdocs build --strict``.)"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conquian.engine.record import read_record, replay

ROOT = Path(__file__).resolve().parent.parent
RECORDS_PAGE = ROOT / "docs" / "records.md"


def blocks(page: Path, language: str) -> list[str]:
    """The fenced blocks of a language, with MkDocs snippet includes (``--8<--``) read in."""
    found = re.findall(rf"```{language}\n(.*?)```", page.read_text(), flags=re.DOTALL)
    out = []
    for b in found:
        m = re.fullmatch(r'--8<-- "([^"]+)"\n', b)
        out.append((ROOT / m.group(1)).read_text() if m else b)
    return out


def test_every_record_on_the_reference_page_replays(tmp_path: Path) -> None:
    records = blocks(RECORDS_PAGE, "toml")
    assert len(records) == 2
    for text in records:
        rec = read_record(text)  # a result that disagrees with the replay would be refused here
        replay(rec)
    spade7 = replay(read_record(records[0]))
    assert spade7.totals == [1, -1]


def _replay_json(tmp_path: Path, text: str) -> tuple[int, object]:
    path = tmp_path / "r.toml"
    path.write_text(text)
    out = subprocess.run([sys.executable, "-m", "conquian", "replay", str(path), "--json"],
                         capture_output=True, text=True)
    return out.returncode, json.loads(out.stdout)


def test_the_replay_contract_shown_is_the_programs(tmp_path: Path) -> None:
    in_progress = blocks(RECORDS_PAGE, "toml")[1]
    shown = [json.loads(b) for b in blocks(RECORDS_PAGE, "json")]
    assert _replay_json(tmp_path, in_progress) == (0, shown[0])
    # "had Bea laid three kings and added the fourth, then discarded a card she does not hold"
    wrong = in_progress.replace('"p2 meld Kc Kd Kh Ks"]', '"p2 meld Kc Kd Kh", "p2 add 1 Ks", "p2 discard 9s"]')
    assert wrong != in_progress
    assert _replay_json(tmp_path, wrong) == (1, shown[1])


def test_the_readme_starts_with_the_two_set_up_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    first = re.search(r"```sh\n(.*?)```", readme, flags=re.DOTALL)
    assert first is not None
    commands = first.group(1).strip().splitlines()
    assert commands == [
        "python3 -m venv .venv && .venv/bin/pip install -e '.[play]' && .venv/bin/conquian play",
        "python3 -m venv .venv && .venv/bin/pip install -e '.[dev]' && .venv/bin/pytest -n auto",
    ]
    assert readme.index("```sh") < readme.index("\n## ")  # before anything else


def test_ci_runs_the_readme_s_test_command() -> None:
    """CI's tests are the README's: the same command, with the parallel run its options give."""
    readme = (ROOT / "README.md").read_text()
    setup = re.search(r"```sh\n(.*?)```", readme, flags=re.DOTALL)
    assert setup is not None
    command = setup.group(1).strip().splitlines()[1].rsplit(" && ", 1)[1]
    assert command.startswith(".venv/bin/pytest")
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert command in ci


@pytest.mark.parametrize("page", ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))])
def test_links_stay_in_the_repository_or_go_to_public_sites(page: str) -> None:
    path = ROOT / page
    for target in re.findall(r"\]\(([^)\s]+)\)", path.read_text()):
        if target.startswith(("https://", "http://", "#", "mailto:")):
            continue
        file = (path.parent / target.split("#")[0]).resolve()
        assert file.is_relative_to(ROOT), (page, target)
        assert file.exists(), (page, target)
