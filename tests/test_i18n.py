"""The translations' catalogues are whole and sound (docs/translating.md).

Every text marked in the code is in the template and translated in every language, no entry is
fuzzy, every translation keeps its fields (``{name}``) and the compiled ``.mo`` files shipped in
the package are those of the ``.po`` files beside them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

babel = pytest.importorskip("babel")
from babel.messages.extract import extract_from_dir  # noqa: E402
from babel.messages.mofile import read_mo  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

from conquian.i18n import LOCALE_DIR, Msg, NMsg, languages, negotiate, translator  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "Msg": None, "NMsg": (1, 2)}
FIELD = re.compile(r"\{(\w*)[^{}]*\}")
CATALOGUES = sorted(LOCALE_DIR.glob("*/LC_MESSAGES/conquian.po"))


def read(path: Path):  # type: ignore[no-untyped-def]
    with path.open("rb") as f:
        return read_po(f)


def extracted() -> set[str]:
    """The msgids marked in the code now, as the template's extraction finds them."""
    method_map = [("src/conquian/**.py", "python"), ("src/conquian/web/static/**.js", "javascript")]
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map, keywords=KEYWORDS, comment_tags=()):
        found.add(message[0] if isinstance(message, tuple) else message)
    return found


def test_there_is_a_spanish_catalogue() -> None:
    assert "es" in languages()
    assert [p.parent.parent.name for p in CATALOGUES] == [lang for lang in languages() if lang != "en"]


def test_the_template_has_every_text_the_code_marks() -> None:
    template = {m.id if isinstance(m.id, str) else m.id[0] for m in read(LOCALE_DIR / "conquian.pot") if m.id}
    missing = extracted() - template
    assert not missing, f"run `python scripts/catalogues.py update`: {sorted(missing)[:10]}"


#: A text the page's scripts mark: ``_("...")`` (also inside a template literal's ``${...}``).
JS_MARKED = re.compile(r'(?<![\w.])_\("((?:[^"\\]|\\.)*)"\)')


def test_every_text_the_pages_scripts_mark_is_in_the_template() -> None:
    """Read as plain text, so a text the JavaScript extractor would miss (inside a template literal,
    after syntax it cannot follow) is caught here rather than lost from the catalogues."""
    template = {m.id if isinstance(m.id, str) else m.id[0] for m in read(LOCALE_DIR / "conquian.pot") if m.id}
    scripts = [*sorted((ROOT / "src/conquian/web/static").glob("*.js")),
               *sorted((ROOT / "src/conquian/web/offline").glob("*.js"))]
    marked = {m.encode().decode("unicode_escape") if "\\" in m else m
              for path in scripts for m in JS_MARKED.findall(path.read_text(encoding="utf-8"))}
    assert len(marked) > 100  # the scripts were read
    missing = marked - template
    assert not missing, f"texts the extractor did not find (see babel.cfg): {sorted(missing)[:10]}"


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda p: p.parent.parent.name)
def test_every_text_is_translated_and_sound(po: Path) -> None:
    catalogue = read(po)
    marked = extracted()
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in catalogue if m.id}
    assert marked <= ids, f"not in {po.name}: {sorted(marked - ids)[:10]}"
    for m in catalogue:
        if not m.id:
            continue
        assert "fuzzy" not in m.flags, f"fuzzy: {m.id!r}"
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        assert all(strings), f"untranslated: {m.id!r}"
        sources = m.id if isinstance(m.id, tuple) else (m.id,)
        want = {f for s in sources for f in FIELD.findall(s)}
        for s in strings:
            got = set(FIELD.findall(s))
            # a translation keeps every field, but a singular may leave out {n} ("una carta")
            assert got <= want and want - got <= {"n"}, f"fields differ: {m.id!r} -> {s!r}"
    errors = [(m.id, e) for m, e in catalogue.check()]
    assert not errors, errors[:5]


def messages(catalogue) -> dict[tuple[str | None, object], object]:  # type: ignore[no-untyped-def]
    """What a catalogue translates, keyed by context and id: the header (tool versions, dates) left out."""
    def plain(x: object) -> object:  # a plural reads as a list from a .mo, a tuple from a .po
        return x if isinstance(x, str) else tuple(x)  # type: ignore[call-overload]

    return {(m.context, plain(m.id)): plain(m.string) for m in catalogue if m.id and "fuzzy" not in m.flags}


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda p: p.parent.parent.name)
def test_the_shipped_mo_is_compiled_from_the_po(po: Path) -> None:
    # the messages are compared, not the bytes: the header names the Babel that wrote it, and a
    # fresh install may have a newer one
    with po.with_suffix(".mo").open("rb") as f:
        shipped = read_mo(f)
    assert messages(shipped) == messages(read(po)), "run `python scripts/catalogues.py compile`"
    header = dict(shipped.mime_headers)
    assert "charset=utf-8" in header.get("Content-Type", "").lower()
    assert shipped.plural_forms == read(po).plural_forms


def test_messages_render_in_each_language() -> None:
    over = Msg("the deal is over")
    assert str(over) == "the deal is over"
    assert translator("es").render(over) == "la mano ya terminó"
    assert translator("es-MX").lang == "es" and translator("fr").lang == "en"
    assert NMsg("{n} card", "{n} cards", 1).render() == "1 card"
    assert negotiate("") == "en" and negotiate("es;q=0,en") == "en" and negotiate("garbage;;q=x,es") == "es"
