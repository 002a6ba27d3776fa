"""Draw the web app's icons: ``src/conquian/web/static/icons/icon.svg`` and ``icon-maskable.svg``
rendered to PNG at 192 and 512 pixels by Chromium (through Playwright), for the Web App Manifest.

    .venv/bin/python scripts/app_icons.py
"""

from __future__ import annotations

import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parent.parent / "src" / "conquian" / "web" / "static" / "icons"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def main() -> None:
    """Write icon-192.png, icon-512.png, maskable-192.png and maskable-512.png beside their SVG."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        for source, name in (("icon.svg", "icon"), ("icon-maskable.svg", "maskable")):
            svg = (ICONS / source).read_text()
            for size in (192, 512):
                page = browser.new_page(viewport={"width": size, "height": size})
                page.set_content(f"<html><body style='margin:0;background:transparent'>"
                                 f"<div style='width:{size}px;height:{size}px'>{svg}</div></body></html>")
                page.evaluate("s => { const e = document.querySelector('svg'); e.setAttribute('width', s);"
                              " e.setAttribute('height', s); e.style.display = 'block'; }", size)
                page.screenshot(path=str(ICONS / f"{name}-{size}.png"), omit_background=True)
                page.close()
        browser.close()


if __name__ == "__main__":
    main()
