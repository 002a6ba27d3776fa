"""The server's pages (the tables' page, the account page with its friends, the leaderboard, a
player's page): one shell, one header (the lobby's links, Learn included, and the app's
manifest), the app's service worker (``install.js``: every page keeps the app for use offline),
and each page's own style sheets and scripts after the shared ones.  Their words come
from the catalogue in the page (``page.js``), so the shell holds none but the no-script line.

```pycon
>>> b"/static/ratings.js" in shell_page("ratings.js").body
True

```
"""

from __future__ import annotations

import html

from starlette.responses import HTMLResponse

_SHELL = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="theme-color" content="#0b3d26">
<title>conquian</title>
<link rel="manifest" href="/manifest.webmanifest">
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="apple-touch-icon" href="/static/icons/icon-192.png">
<link rel="stylesheet" href="/static/style.css">
{styles}</head>
<body>
<header class="top">
  <a href="/" class="brand">conquian</a>
  <span id="title" class="title"></span>
  <span id="conn" class="conn" aria-live="polite"></span>
  <span id="lang-switch" class="lang-switch"></span>
  <a href="/learn" id="learn-link" class="rules-link"></a>
  <a href="/leaderboard" id="board-link" class="rules-link"></a>
  <a href="/account" id="account-link" class="rules-link"></a>
  <a href="/rules" id="rules-link" class="rules-link" target="_blank" rel="noopener"></a>
</header>
<div id="alert" class="alert" role="alert" hidden></div>
<main id="main"><p class="dim" id="loading"></p></main>
<noscript>{noscript}</noscript>
<script src="/static/cards.js"></script>
<script src="/static/page.js"></script>
<script src="/static/install.js"></script>
{scripts}
</body>
</html>
"""


def shell_page(*scripts: str, styles: tuple[str, ...] = (),
               noscript: str = "This page needs JavaScript. / Esta página necesita JavaScript.") -> HTMLResponse:
    """The page with these scripts of ``/static/`` (in this order, after ``cards.js``, ``page.js``
    and ``install.js``) and style sheets (after ``style.css``), never cached stale (``no-cache``: the
    browser asks again, the server's answer is small)."""
    tags = "\n".join(f'<script src="/static/{html.escape(s)}"></script>' for s in scripts)
    links = "".join(f'<link rel="stylesheet" href="/static/{html.escape(s)}">\n' for s in styles)
    page = _SHELL.replace("{styles}", links).replace("{noscript}", html.escape(noscript, quote=False))
    return HTMLResponse(page.replace("{scripts}", tags), headers={"Cache-Control": "no-cache"})


#: The account page's scripts (``/account``, and a friend's link ``/f/{code}`` that opens it).
ACCOUNT_SCRIPTS = ("invite.js", "friends.js", "account.js")

#: The tables' page (the lobby, a table, a replay, a review): its style sheets and scripts.
TABLE_STYLES = ("cards.css", "together.css", "review.css", "play.css", "screen.css")
TABLE_SCRIPTS = ("history.js", "lobby.js", "quick.js", "play.js", "panels.js", "invite.js", "friends.js",
                 "transport.js", "table.js", "chat.js", "screen.js", "replay.js", "app.js")


def tables_page() -> HTMLResponse:
    """The tables' page."""
    return shell_page(*TABLE_SCRIPTS, styles=TABLE_STYLES,
                      noscript="The web table needs JavaScript. / La mesa necesita JavaScript.")
