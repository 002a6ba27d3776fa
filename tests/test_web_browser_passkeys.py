"""Passkeys in Chromium, with its WebAuthn virtual authenticator (CDP ``WebAuthn.*``): a phone-sized
browser signs up, chooses a name and adds a passkey from /account; a second browser (fresh
cookies, the same passkey copied into its own authenticator, as a synced passkey would be)
signs in with it from /account, no name asked, and is that account.  Once in English, once in
Spanish.  WebAuthn needs a secure context and a domain as its RP id, so the browsers open the
server as ``http://localhost``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("webauthn")

from playwright.sync_api import expect  # noqa: E402

from test_web_browser import SHOTS, browser  # noqa: E402, F401 (browser: a fixture)
from web_server import Server  # noqa: E402

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("browser-passkeys")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp).start()
    yield s
    s.stop()


def device(browser: Any, locale: str) -> tuple[Any, Any, str]:  # noqa: F811
    """A phone-sized browser with a virtual platform authenticator (user verification on): its
    page, its CDP session and the authenticator's id."""
    page = browser.new_context(locale=locale, viewport=PHONE).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    found = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})
    return page, cdp, found["authenticatorId"]


@pytest.mark.parametrize(("locale", "name", "texts"), [
    ("en-US", "Noor", {"add": "Add a passkey", "signin": "Sign in with a passkey", "you": "You play as Noor.",
                       "unused": "not used yet", "label": "phone"}),
    ("es-MX", "Oralia", {"add": "Agregar una llave de acceso", "signin": "Iniciar sesión con una llave de acceso",
                         "you": "Juegas como Oralia.", "unused": "sin usar todavía",
                         "label": "mi celular"}),
])
def test_a_passkey_made_on_one_device_signs_in_on_another(server: Server, browser: Any, locale: str,  # noqa: F811
                                                          name: str, texts: dict[str, str]) -> None:
    url = f"http://localhost:{server.port}"
    first, cdp1, auth1 = device(browser, locale)
    first.goto(url + "/account")
    first.fill("#name", name)
    first.click("#name-form button[type=submit]")
    expect(first.locator("#account-name")).to_have_text(texts["you"])
    expect(first.locator("#add-passkey")).to_have_text(texts["add"])
    first.fill("#passkey-label", texts["label"])
    first.click("#add-passkey")
    expect(first.locator("#passkeys li")).to_have_count(1)
    expect(first.locator("#passkeys li .passkey-label")).to_have_text(texts["label"])
    expect(first.locator("#passkeys li")).to_contain_text(texts["unused"])
    creds = cdp1.send("WebAuthn.getCredentials", {"authenticatorId": auth1})["credentials"]
    assert len(creds) == 1 and creds[0]["isResidentCredential"] and creds[0]["rpId"] == "localhost"

    # a second device: other cookies, the same passkey (synced); nothing of the account but it
    second, cdp2, auth2 = device(browser, locale)
    cdp2.send("WebAuthn.addCredential", {"authenticatorId": auth2, "credential": creds[0]})
    second.goto(url + "/account")
    expect(second.locator("#passkey-signin")).to_have_text(texts["signin"])
    expect(second.locator("#name-form")).to_be_visible()  # a visitor so far
    second.screenshot(path=str(server.tmp / f"visitor-{locale}.png"), full_page=True)
    second.click("#passkey-signin")
    expect(second.locator("#account-name")).to_have_text(texts["you"])
    expect(second.locator("#sessions li")).to_have_count(2)  # the first device's session and this one
    expect(second.locator("#passkeys li")).to_have_count(1)
    assert cdp2.send("WebAuthn.getCredentials", {"authenticatorId": auth2})["credentials"][0]["signCount"] >= 1
    cookies = {c["name"]: c for c in second.context.cookies()}
    assert cookies["conquian_account"]["httpOnly"] and cookies["conquian_account"]["sameSite"] == "Lax"

    # the first device sees the second's session and the passkey's use
    first.reload()
    expect(first.locator("#sessions li")).to_have_count(2)
    expect(first.locator("#passkeys li")).not_to_contain_text(texts["unused"])
    if locale.startswith("es"):
        shots = SHOTS if os.environ.get("CONQUIAN_SCREENSHOTS") else None
        second.screenshot(path=str((shots or server.tmp) / "web-account-passkeys-phone-es.png"), full_page=True)
        # the passkey removed from the page: the account keeps none
        second.once("dialog", lambda d: d.accept())
        second.click("#passkeys .remove-passkey")
        expect(second.locator("#passkeys")).to_have_count(0)
    assert not first.errors and not second.errors
    first.context.close()
    second.context.close()
