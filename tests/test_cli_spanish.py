"""The command line speaks Spanish: ``--lang es`` (before or after the command) or the environment's
language; argparse's own words too; what is written for machines never changes (docs/cli.md)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest

from conquian.cli import COMMANDS
from conquian.cli.language import prescan
from conquian.engine import rulebook
from conquian.i18n import LOCALE_DIR, translator

SRC = Path(__file__).resolve().parents[1] / "src"
ES = translator("es")
FORMAT = re.compile(r"%(?:\(\w+\))?\w")


def run(*args: str, lang: str | None = "C.UTF-8", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m conquian ARGS`` with ``LANG=lang`` and no other language variable set."""
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    if lang is not None:
        env["LANG"] = lang
    return subprocess.run([sys.executable, "-m", "conquian", *args], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL, env=env)


def english_sentences() -> list[str]:
    """The catalogue's English texts of three words or more that Spanish says otherwise, their
    ``{fields}`` and ``%``-fields cut out (what is left must not appear in a Spanish help)."""
    babel = pytest.importorskip("babel.messages.pofile")
    with (LOCALE_DIR / "es" / "LC_MESSAGES" / "conquian.po").open("rb") as f:
        catalogue = babel.read_po(f)
    out = []
    for m in catalogue:
        if not m.id or isinstance(m.id, tuple) or m.string == m.id:
            continue
        for piece in re.split(r"\{[^{}]*\}|%\(\w+\)\w|%\w|\n", m.id):
            piece = piece.strip(" .,:;()")
            if len(piece.split()) >= 3:
                out.append(piece)
    return out


def test_prescan_finds_lang_on_either_side_of_the_command() -> None:
    assert prescan(["--lang", "es", "play"]) == "es"
    assert prescan(["play", "--seed", "3", "--lang=es"]) == "es"
    assert prescan(["play"]) is None


@pytest.mark.parametrize("how", ["env", "before", "after"])
def test_play_help_is_in_spanish(how: str) -> None:
    args = {"env": ("play", "--help"), "before": ("--lang", "es", "play", "--help"),
            "after": ("play", "--lang", "es", "--help")}[how]
    p = run(*args, lang="es_MX.UTF-8" if how == "env" else "C.UTF-8")
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("uso: conquian play") and "opciones:" in p.stdout
    assert "muestra este mensaje de ayuda y sale" in p.stdout
    for english in ("usage:", "options:", "show this help message", "play a match in the terminal",
                    "seconds between the bots' moves", "cards without suit symbols"):
        assert english not in p.stdout


@pytest.mark.parametrize("command", [None, *sorted(COMMANDS)])
def test_every_help_in_spanish_has_no_english_sentence(command: str | None) -> None:
    p = run(*([command] if command else []), "--help", lang="es_MX.UTF-8")
    assert p.returncode == 0, p.stderr
    text = " ".join(p.stdout.split())  # argparse wraps lines where it likes
    assert text.startswith("uso: conquian")
    sentences = english_sentences()
    assert len(sentences) > 100
    left = [s for s in sentences if " ".join(s.split()) in text]
    assert not left, left[:5]


def test_a_bad_argument_is_one_spanish_line_and_exit_2() -> None:
    p = run("simulate", "--deals", "x", lang="es_MX.UTF-8")
    assert p.returncode == 2 and p.stdout == "" and "Traceback" not in p.stderr
    assert p.stderr == ("conquian simulate: error: argumento --deals: 'x' no es un número entero "
                        "(consulta conquian simulate --help)\n")
    p = run("--lang", "es", "nope")
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "opción no válida: 'nope'" in p.stderr
    p = run("--lang", "es")
    assert p.returncode == 2 and "faltan estos argumentos obligatorios: COMANDO" in p.stderr
    p = run("tournament", "--lang", "es", "--bots", "nobody")
    assert p.returncode == 2 and p.stderr.startswith("conquian tournament: bot desconocido 'nobody'")


def test_an_unknown_language_is_refused_in_english() -> None:
    p = run("play", "--lang", "xx", lang="es_MX.UTF-8")
    assert p.returncode == 2 and "Traceback" not in p.stderr and p.stderr.count("\n") == 1
    assert p.stderr.startswith("conquian play: error: argument --lang: no translation into 'xx' (languages: en, es)")


def test_lang_en_beats_the_environment() -> None:
    p = run("--lang", "en", "simulate", "--help", lang="es_MX.UTF-8")
    assert p.stdout.startswith("usage: conquian simulate") and "show this help message and exit" in p.stdout
    p = run("simulate", "--deals", "x", "--lang", "en", lang="es_MX.UTF-8")
    assert "argument --deals: 'x' is not a whole number (see conquian simulate --help)" in p.stderr
    assert run("simulate", "--help").stdout.startswith("usage:")  # nothing set: English


def test_rules_follow_the_language() -> None:
    p = run("rules", "R3.3", lang="es_MX.UTF-8")
    assert p.returncode == 0 and p.stdout.startswith("R3.3 "), p.stderr
    if files("conquian.engine").joinpath("rulebook.es.md").is_file():
        assert p.stdout == rulebook.rule("R3.3", lang="es")
    else:
        assert p.stdout == rulebook.rule("R3.3", lang="en")


def test_the_figures_are_in_spanish_and_the_json_is_not() -> None:
    p = run("simulate", "--deals", "3", "--seed", "1", lang="es_MX.UTF-8")
    assert p.returncode == 0 and "variante:" in p.stdout and "decisiones por mano:" in p.stdout
    es = run("simulate", "--deals", "3", "--seed", "1", "--json", lang="es_MX.UTF-8")
    en = run("simulate", "--deals", "3", "--seed", "1", "--json")
    strip = [line for line in es.stdout.split(", ") if "second" not in line]
    assert strip == [line for line in en.stdout.split(", ") if "second" not in line]


def test_records_and_replays_are_the_same_in_every_language(tmp_path: Path) -> None:
    made = {}
    for lang in ("en", "es"):
        out = tmp_path / f"{lang}.toml"
        p = run("--lang", lang, "simulate", "--variant", "cooncan", "--deals", "4", "--seed", "7", "--record",
                str(out))
        assert p.returncode == 0, p.stderr
        made[lang] = out.read_bytes()
    assert made["en"] == made["es"]
    en = run("replay", str(tmp_path / "en.toml"), "--json")
    es = run("replay", str(tmp_path / "es.toml"), "--json", lang="es_MX.UTF-8")
    assert en.returncode == es.returncode == 0 and en.stdout == es.stdout
    words = run("replay", str(tmp_path / "es.toml"), lang="es_MX.UTF-8")
    assert words.returncode == 0 and "Mano 1: reparte p" in words.stdout and "Totales: " in words.stdout


def test_argparse_words_keep_their_fields() -> None:
    for msgid in ("usage: ", "%(prog)s: error: %(message)s\n", "invalid choice: %(value)r (choose from %(choices)s)",
                  "argument %(argument_name)s: %(message)s", "the following arguments are required: %s"):
        es = ES.gettext(msgid)
        assert es != msgid or msgid.startswith("%(prog)s: error")
        assert sorted(FORMAT.findall(es)) == sorted(FORMAT.findall(msgid))
    assert ES.ngettext("expected %s argument", "expected %s arguments", 2) == "se esperaban %s argumentos"


def test_stats_writes_the_same_data_and_a_spanish_report(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    for lang in ("en", "es"):
        p = run("stats", "--lang", lang, "--variant", "cooncan", "--bots", "random", "--deals", "60", "--workers", "1",
                "--out", str(tmp_path / lang))
        assert p.returncode == 0, p.stderr
    assert (tmp_path / "en" / "stats.json").read_bytes() == (tmp_path / "es" / "stats.json").read_bytes()
    report = (tmp_path / "es" / "report.md").read_text()
    assert report.startswith("# cooncan, 3 jugadores: 60 manos") and "## Cuánto dura una mano" in report
    assert "How long a hand lasts" in (tmp_path / "en" / "report.md").read_text()
