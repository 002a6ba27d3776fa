"""The rule book as a web page (``/rules``, and ``rules/{lang}.html`` of a built site): every rule
with its anchor, where refusals link (``/rules?lang=es#R3.4``)."""

from __future__ import annotations

from conquian.i18n import Msg
from conquian.web.lang import language_list, reader

__all__ = ["rules_html"]


def rules_html(lang: str = "en") -> str:
    """The rule book as a page in ``lang`` (its book where the package has one), every rule with
    its anchor (``/rules?lang=es#R3.4``, where refusals link), a way back to the tables and the
    languages' links."""
    import html

    import markdown

    from conquian.engine import rulebook

    tr = reader(lang, None)
    body = markdown.markdown(rulebook.markdown(lang=tr.lang), extensions=["attr_list", "tables"],
                             output_format="html")
    title = tr.render(Msg("The rules"))
    back = tr.render(Msg("Back to the tables"))
    language = tr.render(Msg("Language"))
    links = []
    for item in language_list():
        code = html.escape(item["code"])
        current = ' aria-current="page"' if item["code"] == tr.lang else ""
        links.append(f'<a href="/rules?lang={code}" hreflang="{code}" lang="{code}" class="lang-link"{current}>'
                     f'{html.escape(item["name"])}</a>')
    switch = " ".join(links)
    return (f"<!doctype html><html lang=\"{tr.lang}\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{html.escape(title)} - conquian</title><link rel=\"stylesheet\" href=\"/static/style.css\">"
            "</head><body><header class=\"top\"><a href=\"/\" class=\"brand\">conquian</a>"
            f"<span class=\"title\">{html.escape(title)}</span>"
            f"<a href=\"/\" class=\"back\" id=\"back\">{html.escape(back)}</a>"
            f"<nav class=\"langs\" aria-label=\"{html.escape(language)}\">{switch}</nav></header>"
            f"<main class=\"rulebook\">{body}</main></body></html>")
