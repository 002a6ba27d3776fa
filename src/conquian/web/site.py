"""The offline app as files: the Pyodide runtime, the engine's package, ``conquian site build``.

The page plays offline with the engine itself: Pyodide (CPython compiled to WebAssembly, the
``pyodide`` package of the npm registry) runs this package in a Web Worker of the page.  Nothing
comes from a third-party site: the runtime is fetched once with ``npm pack`` at a pinned version,
checked against its pinned digest, and kept in a cache folder (:func:`runtime_dir`;
``conquian site fetch`` does it, ``conquian site build`` and ``conquian serve`` use it); the
server, or any static host the built site is copied to, serves it from its own origin.

The files of the offline app (``/offline/`` on the server, ``offline/`` in a built site):

- ``index.html``, ``offline.js``, ``offline.css``: the page (the table code is the server page's,
  ``../static/``, talking to the worker instead of the socket: ``docs/internals.md``);
- ``learn.html``: the Learn section (lessons and puzzles), the server's page whose lesson runner
  runs in the worker (:mod:`conquian.learn.api`);
- ``worker.js``: the Web Worker that loads Pyodide and the engine and answers the page;
- ``engine.zip``: this package's pure-Python modules and data (:func:`engine_zip`), the puzzles'
  answers sealed (puzzles offline are not rated);
- ``engine.snapshot``: the runtime's memory with the engine imported, where Node.js could
  make it (:mod:`conquian.web.memory_snapshot`);
- ``pyodide/``: the runtime (:data:`RUNTIME_FILES`);
- ``engine-assets.json``: every file the app needs (:func:`asset_list`); ``sw.js``: the offline
  app's former service worker, retired (the app's one worker is the site's own, ``/sw.js``:
  :mod:`conquian.web.app_shell`, written at a built site's root beside its manifest).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import io
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

from conquian.engine.errors import ConquianError
from conquian.i18n import Msg
from conquian.web import app_shell

#: The Pyodide release the offline app runs (Python 3.13), and the npm registry's digest of its package.
PYODIDE_VERSION = "0.29.3"
PYODIDE_INTEGRITY = "sha512-22UBuhOJawj7vKUnS7/F3xK+515LJdjiMAHoCfuS6/PbHiOrSQVnYwDe+2sbVwiOZ3sMMexdXICew6NqOMQGgA=="
#: The runtime's files the worker loads (the rest of the npm package is not served).
RUNTIME_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
#: The environment variable naming a folder that holds the runtime's files (else the cache).
RUNTIME_ENV = "CONQUIAN_PYODIDE_DIR"

PACKAGE = Path(__file__).resolve().parent.parent
OFFLINE = Path(__file__).resolve().parent / "offline"
STATIC = Path(__file__).resolve().parent / "static"
#: The offline page's scripts of ``../static/``, in the order it loads them (the one place that
#: order is set: its ``index.html`` is written with them; no lobby, chat, invitation, history or
#: replay: those are the server's), then its own ``offline.js``.
OFFLINE_SCRIPTS = ("cards.js", "page.js", "install.js", "play.js", "panels.js", "transport.js", "table.js", "screen.js")
#: The page's scripts and styles the offline app loads from ``../static/`` (its Learn page's too).
STATIC_FILES = ("style.css", "cards.css", "play.css", "screen.css", "favicon.svg", "icons/turn.svg", "learn.css",
                "learn.js", *OFFLINE_SCRIPTS)
#: The offline app's own files (and ``learn.html``, the Learn page: :func:`learn_page`).
APP_FILES = ("index.html", "offline.js", "offline.css", "worker.js", "sw.js")
#: The offline app's Learn page, made from the server's (:mod:`conquian.learn.page`).
LEARN_PAGE = "learn.html"
#: The engine's sub-packages and modules the page does not need (the terminal game, the learning
#: environments, the analysis, the command line, the server).
_SKIPPED = ("tui/", "envs/", "analysis/", "cli/", "web/static/", "web/offline/", "web/migrations/")
_WEB_KEPT = ("web/__init__.py", "web/table.py", "web/snapshot.py", "web/moves.py", "web/master.py",
             "web/local.py")
_DATA = (".py", ".json", ".mo", ".md", ".typed")
#: The puzzles' data file, whose answers the offline app gets sealed.
SEALED = "conquian/learn/puzzles.json"


class SiteError(ConquianError):
    """The runtime cannot be had: the message says what to do."""


def runtime_dir() -> Path:
    """Where the Pyodide runtime's files are: ``$CONQUIAN_PYODIDE_DIR``, else a folder of the
    user's cache (``$XDG_CACHE_HOME/conquian/pyodide-VERSION``)."""
    env = os.environ.get(RUNTIME_ENV)
    if env:
        return Path(env)
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "conquian" / f"pyodide-{PYODIDE_VERSION}"


def runtime_ready(folder: Path | None = None) -> bool:
    """Whether every runtime file is there."""
    folder = folder or runtime_dir()
    return all((folder / f).is_file() for f in RUNTIME_FILES)


def _check_integrity(data: bytes, integrity: str = PYODIDE_INTEGRITY) -> None:
    algo, _, want = integrity.partition("-")
    got = base64.b64encode(hashlib.new(algo, data).digest()).decode()
    if got != want:
        raise SiteError(Msg("the pyodide package's digest is {got}, not the pinned {want}: not used",
                            got=f"{algo}-{got}", want=integrity))


def fetch_runtime(folder: Path | None = None, npm: str = "npm") -> Path:
    """Fetch the pinned Pyodide package with ``npm pack``, check its digest, and keep its runtime
    files in ``folder`` (:func:`runtime_dir`); nothing is done if they are already there."""
    folder = folder or runtime_dir()
    if runtime_ready(folder):
        return folder
    exe = shutil.which(npm)
    if exe is None:
        raise SiteError(Msg("npm (Node.js) is needed once, to fetch the Pyodide runtime: install Node.js, or put "
                            "the files {files} of pyodide {version} in a folder named by ${env}",
                            files=", ".join(RUNTIME_FILES), version=PYODIDE_VERSION, env=RUNTIME_ENV))
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run([exe, "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", tmp, "--silent"],
                              capture_output=True, text=True, timeout=600, cwd=tmp, check=False)
        packs = list(Path(tmp).glob("pyodide-*.tgz"))
        if done.returncode != 0 or not packs:
            raise SiteError(Msg("npm could not fetch pyodide {version}: {reason}", version=PYODIDE_VERSION,
                                reason=(done.stderr or done.stdout).strip()[:300]))
        data = packs[0].read_bytes()
        _check_integrity(data)
        part = folder.with_name(folder.name + ".part")
        shutil.rmtree(part, ignore_errors=True)
        part.mkdir(parents=True)
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            for name in RUNTIME_FILES:
                member = tar.extractfile(f"package/{name}")
                if member is None:
                    raise SiteError(Msg("the pyodide package has no {name}", name=name))
                (part / name).write_bytes(member.read())
        shutil.rmtree(folder, ignore_errors=True)
        part.rename(folder)
    return folder


def _engine_files() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*")):
        rel = path.relative_to(PACKAGE).as_posix()
        if not path.is_file() or "__pycache__" in rel or not rel.endswith(_DATA):
            continue
        if rel.startswith(_SKIPPED) or (rel.startswith("web/") and rel not in _WEB_KEPT):
            continue
        yield f"conquian/{rel}", path


def engine_zip() -> bytes:
    """The engine's package as the worker unpacks it: its pure-Python modules and their data
    (rule books, catalogues, the bots' tables), never a compiled module; the same bytes for the
    same sources (no dates).  The puzzles' answers are sealed (:func:`~conquian.learn.puzzles.seal_puzzles`:
    digests, not moves)."""
    from conquian.learn.puzzles import seal_puzzles

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, path in _engine_files():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            data = path.read_bytes()
            if name == SEALED:
                data = json.dumps(seal_puzzles(json.loads(data)), ensure_ascii=False, separators=(",", ":")).encode()
            z.writestr(info, data)
    return out.getvalue()


def catalogue_json(lang: str) -> bytes:
    """The page's catalogue for ``lang`` (what the server serves at ``/i18n/{lang}.json``)."""
    from conquian.web.lang import catalogue

    return json.dumps(catalogue(lang), ensure_ascii=False, sort_keys=True).encode()


def _languages() -> list[str]:
    from conquian.i18n import languages

    return list(languages())


def rules_page(lang: str) -> bytes:
    """The rule book in ``lang`` as the built site's page ``rules/{lang}.html`` (the server's
    page, its links made relative; without the ``web`` extra, the book's text as it is)."""
    try:
        from conquian.web.rulebook_page import rules_html
    except ImportError:
        import html

        from conquian.engine import rulebook

        return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>conquian</title></head>'
                f"<body><pre>{html.escape(rulebook.markdown(lang=lang))}</pre></body></html>").encode()
    page = rules_html(lang)
    for code in _languages():
        page = page.replace(f'href="/rules?lang={code}"', f'href="{code}.html"')
    return page.replace('href="/static/', 'href="../static/').replace('href="/"', 'href="../offline/"').encode()


def learn_page() -> bytes:
    """The offline app's Learn page: the server's, its files relative to ``offline/``, its words
    filled in the reader's language by the engine in the page once it has loaded."""
    from conquian.i18n import ENGLISH
    from conquian.learn.api import page_words
    from conquian.learn.page import learn_html

    return learn_html(page_words(ENGLISH), ENGLISH.lang, offline=True).encode()


def app_files(runtime: Path | None = None) -> dict[str, bytes]:
    """The offline app's files but the runtime, by their path under the site's root (with the
    engine's memory snapshot if a build made one for this package and ``runtime``)."""
    from conquian.web import memory_snapshot

    files: dict[str, bytes] = {f"offline/{n}": app_file(n) for n in APP_FILES}
    files[f"offline/{LEARN_PAGE}"] = learn_page()
    files["offline/engine.zip"] = engine_zip()
    runtime = runtime or runtime_dir()
    snapshot = memory_snapshot.cached(files["offline/engine.zip"], runtime) if runtime_ready(runtime) else None
    if snapshot is not None:
        files[f"offline/{memory_snapshot.NAME}"] = snapshot
    for n in STATIC_FILES:
        files[f"static/{n}"] = (STATIC / n).read_bytes()
    for lang in _languages():
        files[f"i18n/{lang}.json"] = catalogue_json(lang)
        files[f"rules/{lang}.html"] = rules_page(lang)
    return files


def asset_list(files: dict[str, bytes], runtime: Path | None = None) -> dict[str, object]:
    """``engine-assets.json``: the version (a digest of every file, the runtime's too) and every
    file the offline app needs, relative to ``offline/``, for a service worker to cache."""
    runtime = runtime or runtime_dir()
    digest = hashlib.sha256(PYODIDE_INTEGRITY.encode())
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    names = ["./"] + [n[len("offline/"):] if n.startswith("offline/") else f"../{n}" for n in sorted(files)]
    names += [f"pyodide/{n}" for n in RUNTIME_FILES]
    return {"version": digest.hexdigest()[:16], "pyodide": PYODIDE_VERSION, "files": names}


def build_site(target: Path, runtime: Path | None = None) -> list[str]:
    """Write the offline app into ``target`` as static files that any static host serves (no
    server): ``index.html`` (to ``offline/``), ``offline/``, ``static/``, ``i18n/``.  The runtime
    is fetched first if it is not there.  Returns the paths written."""
    from conquian.web import memory_snapshot

    runtime = fetch_runtime(runtime)
    memory_snapshot.make(engine_zip(), runtime)  # the engine's memory snapshot, if Node.js can make it
    files = app_files(runtime)
    files["offline/engine-assets.json"] = json.dumps(asset_list(files, runtime), indent=1).encode()
    files["index.html"] = (b'<!doctype html><html><head><meta charset="utf-8">'
                           b'<meta http-equiv="refresh" content="0; url=offline/"><title>conquian</title></head>'
                           b'<body><a href="offline/">conquian</a></body></html>\n')
    # the app's manifest and its one service worker (conquian.web.app_shell), at the site's root
    from conquian.i18n import ENGLISH

    for icon in ("icon-192", "icon-512", "maskable-192", "maskable-512"):
        files[f"static/icons/{icon}.png"] = (STATIC / "icons" / f"{icon}.png").read_bytes()
    files["manifest.webmanifest"] = json.dumps(app_shell.manifest(ENGLISH, "./", "./offline/"), indent=1).encode()
    files["sw.js"] = site_worker(files, runtime).encode()
    written = []
    for name, data in sorted(files.items()):
        path = target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        written.append(name)
    (target / "offline" / "pyodide").mkdir(parents=True, exist_ok=True)
    for n in RUNTIME_FILES:
        shutil.copyfile(runtime / n, target / "offline" / "pyodide" / n)
        written.append(f"offline/pyodide/{n}")
    return written


#: Content types of the offline app's files, by ending.
CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8", ".json": "application/json", ".zip": "application/zip",
                 ".wasm": "application/wasm", ".svg": "image/svg+xml", ".snapshot": "application/octet-stream"}
_served: dict[str, bytes] = {}


def app_file(name: str) -> bytes:
    """One of the offline app's own files (:data:`APP_FILES`); its page with its scripts' tags
    (:data:`OFFLINE_SCRIPTS`, then ``offline.js``).

    ```pycon
    >>> page = app_file("index.html").decode()
    >>> page.index('src="../static/page.js"') < page.index('src="../static/table.js"') < page.index('src="offline.js"')
    True

    ```
    """
    data = (OFFLINE / name).read_bytes()
    if name != "index.html":
        return data
    sources = [*(f"../static/{n}" for n in OFFLINE_SCRIPTS), "offline.js"]
    tags = "".join(f'<script src="{s}"></script>\n' for s in sources)
    return data.replace(b"<!-- scripts: conquian.web.site.OFFLINE_SCRIPTS, in their order -->\n", tags.encode())


def offline_file(path: str) -> tuple[bytes, str] | None:
    """A file of the offline app as the server serves it under ``/offline/`` (``""``: the page),
    with its content type; None if there is no such file (or the runtime is not fetched: the page
    then says what to run)."""
    path = path or "index.html"
    if path in APP_FILES:
        data = app_file(path)
    elif path == LEARN_PAGE:
        data = learn_page()
    elif path in ("engine.zip", "engine-assets.json", "engine.snapshot"):
        if not _served:
            files = app_files()
            _served.update({n.removeprefix("offline/"): files[n] for n in ("offline/engine.zip",
                                                                          "offline/engine.snapshot") if n in files})
            _served["engine-assets.json"] = json.dumps(asset_list(files), indent=1).encode()
        if path not in _served:
            return None
        data = _served[path]
    elif path.startswith("pyodide/") and path[len("pyodide/"):] in RUNTIME_FILES:
        file = runtime_dir() / path[len("pyodide/"):]
        if not file.is_file():
            return None
        data = file.read_bytes()
    else:
        return None
    return data, CONTENT_TYPES.get(Path(path).suffix, "application/octet-stream")


def _entry(address: str, data: bytes) -> tuple[str, str, int]:
    return address, hashlib.sha256(data).hexdigest()[:16], len(data)


def engine_files(files: dict[str, bytes] | None = None, runtime: Path | None = None,
                 root: str = "/") -> list[tuple[str, str, int]]:
    """The offline app's files the service worker keeps as "the engine", each as (address, digest,
    bytes): the offline page (at ``{root}offline/`` too), its worker, the engine's package, the
    catalogues and the Pyodide runtime; ``files``: the site's files (:func:`app_files`),
    made here if not given.  The server's own (``root`` ``/``) leave out the static files (the
    shell has them), the rule book (the server's page) and the offline app's former service
    worker; a built site's keep every file.  None if the runtime is not fetched."""
    runtime = runtime or runtime_dir()
    if not runtime_ready(runtime):
        return []
    files = files if files is not None else app_files(runtime)
    served = root == "/"
    out = [_entry(f"{root}offline/", files["offline/index.html"])]
    for name, data in sorted(files.items()):
        if name in ("offline/sw.js", "offline/engine-assets.json", "index.html"):
            continue
        if served and not name.startswith(("offline/", "i18n/")):
            continue
        out.append(_entry(root + name, data))
    out += [_entry(f"{root}offline/pyodide/{n}", (runtime / n).read_bytes()) for n in RUNTIME_FILES]
    return out


@functools.lru_cache(maxsize=1)
def server_worker() -> str:
    """The server's ``/sw.js``: the shell (the tables' page and every static file) and the engine
    (:func:`engine_files`), by :func:`conquian.web.app_shell.render_worker`."""
    return app_shell.render_worker(app_shell.shell_files(), engine_files(), app_shell.shell_salt())


def site_worker(files: dict[str, bytes], runtime: Path) -> str:
    """A built site's ``sw.js`` (at its root): its start page as the shell, every other file of
    the site as the engine, by addresses relative to the root."""
    return app_shell.render_worker(["./"], engine_files(files, runtime, root="./"))
