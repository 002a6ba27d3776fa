"""The web table as an app a player installs: the Web App Manifest and the service worker that
keeps the app shell (the page, its scripts, styles, icons) in the browser's cache.

The service worker is ``static/sw.js`` with two things filled in when the server serves it at
``/sw.js`` (its scope is then the whole site): the shell's files, and a version that is a digest of
their contents (and of ``CONQUIAN_RELEASE``, which a deployment may set to name its release).  A
change to any of them is a new service worker, which the browser installs
beside the one in use; the page then offers to reload (``static/install.js``).

```pycon
>>> from conquian.i18n import ENGLISH
>>> m = manifest(ENGLISH)
>>> m["name"], m["display"], m["start_url"], sorted({i["sizes"] for i in m["icons"]})
('Conquián', 'standalone', '/', ['192x192', '512x512'])

```
"""

from __future__ import annotations

import functools
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
#: What the manifest says of the app (the store-like line under its name).
DESCRIPTION = Msg("Conquián, the Mexican rummy, and Cooncan: play at a table with friends or against the bots.")


def manifest(tr: Translator) -> dict[str, Any]:
    """The Web App Manifest in ``tr``'s language."""
    icons = [{"src": f"/static/icons/{kind}-{size}.png", "sizes": f"{size}x{size}", "type": "image/png",
              "purpose": "maskable" if kind == "maskable" else "any"}
             for kind in ("icon", "maskable") for size in (192, 512)]
    return {
        "id": "/", "name": "Conquián", "short_name": "Conquián", "description": tr.render(DESCRIPTION),
        "lang": tr.lang, "dir": "ltr", "start_url": "/", "scope": "/", "display": "standalone",
        "orientation": "any", "background_color": THEME_COLOUR, "theme_color": THEME_COLOUR,
        "categories": ["games", "entertainment"], "icons": icons,
    }


def shell_files() -> list[str]:
    """The addresses the service worker keeps: the page and every static file but itself."""
    files = sorted(p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*") if p.is_file() and p.name != "sw.js")
    return ["/", *(f"/static/{f}" for f in files)]


@functools.lru_cache(maxsize=1)
def service_worker() -> str:
    """``static/sw.js`` with the shell's files and its version (a digest of them and of itself)."""
    source = (STATIC / "sw.js").read_text(encoding="utf-8")
    digest = hashlib.sha256(source.encode() + os.environ.get(RELEASE_ENV, "").encode())
    for f in shell_files()[1:]:
        digest.update(f.encode() + b"\0" + (STATIC / f.removeprefix("/static/")).read_bytes())
    return (source.replace('"__VERSION__"', json.dumps(digest.hexdigest()[:16]))
            .replace("[/* __SHELL__ */]", json.dumps(shell_files())))
