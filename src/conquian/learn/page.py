"""The Learn page's HTML, the same for the server's ``/learn`` and the offline app's
``offline/learn.html`` (:func:`learn_html`).  Its words come in the reader's language: on the
server, in the page; offline, from the engine in the page once it has loaded (``learn.js`` fills
every element marked ``data-word``)."""

from __future__ import annotations

import html
import json


def learn_html(words: dict[str, str], lang: str, offline: bool = False) -> str:
    """The page: the path of lessons and the puzzles, one lesson, one puzzle.  ``offline``: the
    offline app's page (its files relative to ``offline/``, the engine in a worker of the page)."""
    def w(key: str) -> str:
        return f'<span data-word="{key}">{html.escape(words.get(key, ""))}</span>'

    data = html.escape(json.dumps(words, ensure_ascii=False), quote=True)
    static = "../static/" if offline else "/static/"
    root = ' data-i18n="../i18n/" data-rules="../rules/" data-sw="../sw.js"' if offline else ""
    home = "./" if offline else "/"
    learn_href = "learn.html" if offline else "/learn"
    # install.js: the app's service worker, which keeps the app (and its engine) for use offline
    scripts = ([f"{static}page.js", f"{static}transport.js"] if offline else []) + [f"{static}learn.js",
                                                                                   f"{static}install.js"]
    switch = '<span id="lang-switch" class="lang-switch"></span>' if offline else ""
    # offline, the page's own engine judges the answers: nothing there is rated
    unrated = f'<p id="puzzle-unrated" class="rating">{w("offline_unrated")}</p>' if offline else ""
    return f"""<!doctype html>
<html lang="{html.escape(lang)}"{root}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>conquian · {html.escape(words.get("learn", ""))}</title>
<link rel="manifest" href="{"../" if offline else "/"}manifest.webmanifest">
<link rel="icon" href="{static}favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="{static}learn.css">
</head>
<body data-lang="{html.escape(lang)}" data-words="{data}"{' data-offline="1"' if offline else ""}>
<header class="top"><a href="{home}" class="brand">conquian</a>
<a href="{learn_href}" class="learn-home">{w("learn")}</a>{switch}</header>
<main id="learn">
<p id="learn-status" class="status" aria-live="polite" hidden></p>
<section id="path"{" hidden" if offline else ""}><h1>{w("title")}</h1><ol id="lesson-list"></ol>
<h2>{w("puzzles")}</h2><p id="puzzle-rating" class="rating" hidden></p>{unrated}
<ul id="puzzle-list" class="puzzles"></ul></section>
<section id="puzzle" hidden>
<h1 id="p-title"></h1><ul id="p-lines" class="board"></ul>
<p id="p-prompt" class="prompt"></p><div id="p-moves" class="moves"></div>
<p id="p-result" class="answer" role="status"></p>
<p id="p-rating" class="rating" hidden></p>
<ul id="p-why" class="why"></ul>
<nav class="after"><button id="p-back" type="button">{w("back")}</button></nav>
</section>
<section id="lesson" hidden>
<h1 id="l-title"></h1><p id="l-intro"></p><p id="l-source" class="source"></p>
<ul id="l-board" class="board"></ul>
<p id="l-hand" class="hand"></p>
<p id="l-prompt" class="prompt" aria-live="polite"></p>
<p id="l-answer" class="answer" role="status"></p>
<div id="l-moves" class="moves" aria-label="{html.escape(words.get("moves", ""))}"></div>
<p id="l-summary" class="summary" hidden></p>
<nav class="after"><button id="l-back" type="button">{w("back")}</button>
<button id="l-next" type="button" hidden>{w("next")}</button></nav>
</section>
</main>
{"".join(f'<script src="{s}"></script>' for s in scripts)}
</body>
</html>
"""
