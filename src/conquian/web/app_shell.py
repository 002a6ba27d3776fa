"""The web table as an app a player installs: the Web App Manifest and the app's one service
worker, which keeps the app shell (the page, its scripts, styles, icons) and the offline app's
engine (its page, worker, package, catalogues and the Pyodide runtime) in the browser's cache.

The service worker is ``static/sw.js`` with three things filled in when the server serves it at
``/sw.js`` (its scope is then the whole site): the shell's files, the engine's files with their
digests and sizes (:func:`conquian.web.site.engine_files`; none if the runtime is not fetched), and a version that is a
digest of all their contents (and of ``CONQUIAN_RELEASE``, which a deployment may set to name its
release).  A change to any of them is a new service worker, which the browser installs beside the
one in use; the page then offers to reload (``static/install.js``).  A built site (``conquian site
build``) has the same worker at its root (:func:`conquian.web.site.site_worker`), its addresses
relative.  This module knows nothing of the engine's files: :mod:`conquian.web.site`, which makes
them, fills them in (:func:`conquian.web.site.server_worker`).

```pycon
>>> from conquian.i18n import ENGLISH
>>> m = manifest(ENGLISH)
>>> m["name"], m["display"], m["start_url"], sorted({i["sizes"] for i in m["icons"]})
('Conquián', 'standalone', '/', ['192x192', '512x512'])

```
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from conquian.i18n import Msg, Translator

STATIC = Path(__file__).with_name("static")
#: The environment variable naming a deployment's release: a new name is a new version of the app.
RELEASE_ENV = "CONQUIAN_RELEASE"
#: The colour of the felt's rim: the browser's bar and the splash screen of the installed app.
THEME_COLOUR = "#0b3d26"
#: What the manifest says of the app (the store-like line under its name): the README's words.
DESCRIPTION = Msg("Conquián, the original Rummy, and Cooncan: play at a table with friends or against the bots.")
#: The app's name, and its short name under its icon.
NAME = Msg("Conquián")


def manifest(tr: Translator, root: str = "/", start: str = "/") -> dict[str, Any]:
    """The Web App Manifest in ``tr``'s language; ``root`` and ``start``: the site's root and its
    start page (a built site's are relative: ``./`` and ``./offline/``)."""
    icons = [{"src": f"{root}static/icons/{kind}-{size}.png", "sizes": f"{size}x{size}", "type": "image/png",
              "purpose": "maskable" if kind == "maskable" else "any"}
             for kind in ("icon", "maskable") for size in (192, 512)]
    name = tr.render(NAME)
    return {
        "id": root, "name": name, "short_name": name, "description": tr.render(DESCRIPTION),
        "lang": tr.lang, "dir": "ltr", "start_url": start, "scope": root, "display": "standalone",
        "orientation": "any", "background_color": THEME_COLOUR, "theme_color": THEME_COLOUR,
        "categories": ["games", "entertainment"], "icons": icons,
    }


def shell_files() -> list[str]:
    """The addresses the service worker keeps: the page and every static file but itself."""
    files = sorted(p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*") if p.is_file() and p.name != "sw.js")
    return ["/", *(f"/static/{f}" for f in files)]


def render_worker(shell: list[str], engine: list[tuple[str, str, int]], salt: bytes = b"") -> str:
    """``static/sw.js`` with its shell's addresses, its engine's files and its version: a digest of
    the worker itself, ``salt`` (the shell's contents) and the engine's digests."""
    source = (STATIC / "sw.js").read_text(encoding="utf-8")
    digest = hashlib.sha256(source.encode() + os.environ.get(RELEASE_ENV, "").encode() + salt)
    digest.update(json.dumps([shell, engine]).encode())
    return (source.replace('"__VERSION__"', json.dumps(digest.hexdigest()[:16]))
            .replace("[/* __SHELL__ */]", json.dumps(shell))
            .replace("[/* __ENGINE__ */]", json.dumps([list(e) for e in engine])))


def shell_salt() -> bytes:
    """A digest of the shell's contents (every static file but the worker): part of the version."""
    salt = hashlib.sha256()
    for f in shell_files()[1:]:
        salt.update(f.encode() + b"\0" + (STATIC / f.removeprefix("/static/")).read_bytes())
    return salt.digest()
