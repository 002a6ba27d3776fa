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
    second.goto(url + "/account")
    # the name field's request (conditional mediation) finds no passkey and waits for a focus;
    # then the passkey arrives (synced), and the person uses the button
    expect(second.locator("body")).to_have_attribute("data-passkey-autofill", "declined")
    cdp2.send("WebAuthn.addCredential", {"authenticatorId": auth2, "credential": creds[0]})
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


def named_with_passkey(browser: Any, url: str, locale: str, name: str) -> dict[str, Any]:  # noqa: F811
    """A device that chooses ``name`` and adds a passkey: the passkey (to copy to other devices)."""
    page, cdp, auth = device(browser, locale)
    page.goto(url + "/account")
    page.fill("#name", name)
    page.click("#name-form button[type=submit]")
    expect(page.locator("#add-passkey")).to_be_visible()
    page.click("#add-passkey")
    expect(page.locator("#passkeys li")).to_have_count(1)
    creds = cdp.send("WebAuthn.getCredentials", {"authenticatorId": auth})["credentials"]
    assert not page.errors
    page.context.close()
    return dict(creds[0])


def test_the_name_field_offers_the_passkey_and_signs_in(server: Server, browser: Any) -> None:  # noqa: F811
    """The sign-in page (/account for a visitor) asks for a passkey with conditional mediation as
    it opens: the name field says ``username webauthn``, and the browser's authenticator answers
    the waiting request (Chromium's virtual authenticator answers a conditional request with
    the passkey it holds, as a person choosing it among the field's suggestions does), which
    signs the browser in to the passkey's account, no button pressed.  In Spanish, phone-sized."""
    url = f"http://localhost:{server.port}"
    cred = named_with_passkey(browser, url, "es-MX", "Paloma")
    page, cdp, auth = device(browser, "es-MX")
    # what the page asks the browser for (the requests' mediation), as WebAuthn receives it
    page.add_init_script("""
        window.asked = [];
        const get = navigator.credentials.get.bind(navigator.credentials);
        navigator.credentials.get = (o) => { window.asked.push(o.mediation || "modal"); return get(o); };
    """)
    # first without the passkey: the page asks with conditional mediation as it opens; the
    # authenticator holds no passkey of this server and declines (a browser would show nothing
    # in the field), which the page does not report as an error; the button stays
    page.goto(url + "/account")
    assert page.evaluate("PublicKeyCredential.isConditionalMediationAvailable()") is True
    expect(page.locator("#name")).to_have_attribute("autocomplete", "username webauthn")
    expect(page.locator("body")).to_have_attribute("data-passkey-autofill", "declined")
    assert page.evaluate("window.asked") == ["conditional"]
    expect(page.locator("#passkey-signin")).to_have_text("Iniciar sesión con una llave de acceso")
    expect(page.locator("#alert")).to_be_hidden()
    page.focus("#name")  # the field offers the passkeys again when focused
    expect(page.locator("body")).to_have_attribute("data-passkey-autofill", "declined")
    for _ in range(100):
        if len(page.evaluate("window.asked")) == 2:
            break
        page.wait_for_timeout(50)
    assert page.evaluate("window.asked") == ["conditional", "conditional"]
    expect(page.locator("#main")).to_contain_text("en el campo del nombre")
    shots = SHOTS if os.environ.get("CONQUIAN_SCREENSHOTS") else server.tmp
    page.screenshot(path=str(shots / "web-account-passkey-autofill-phone-es.png"), full_page=True)
    assert page.context.cookies() and page.locator("#account-name").count() == 0
    # the passkey arrives (synced) and the page is opened again: the waiting request is answered
    cdp.send("WebAuthn.addCredential", {"authenticatorId": auth, "credential": cred})
    page.reload()
    expect(page.locator("#account-name")).to_have_text("Juegas como Paloma.", timeout=15000)
    assert page.evaluate("window.asked") == ["conditional"]  # no button pressed
    assert page.locator("body").get_attribute("data-passkey-autofill") is None
    assert cdp.send("WebAuthn.getCredentials", {"authenticatorId": auth})["credentials"][0]["signCount"] >= 1
    page.screenshot(path=str(shots / "web-account-passkey-autofill-signed-in-phone-es.png"), full_page=True)
    assert not page.errors
    page.context.close()


def test_a_named_account_switches_to_another_with_its_passkey(server: Server, browser: Any) -> None:  # noqa: F811
    """A browser holding a named account signs in to another account with that account's passkey,
    no signing out first: the page warns that an account with no passkey is left for good, and
    the other account's page follows."""
    url = f"http://localhost:{server.port}"
    cred = named_with_passkey(browser, url, "en-US", "Rosa")
    page, cdp, auth = device(browser, "en-US")
    cdp.send("WebAuthn.addCredential", {"authenticatorId": auth, "credential": cred})
    # this browser's own account first (the authenticator does not answer the field's request
    # while the person types a name)
    cdp.send("WebAuthn.setAutomaticPresenceSimulation", {"authenticatorId": auth, "enabled": False})
    page.goto(url + "/account")
    page.fill("#name", "Sara")
    page.click("#name-form button[type=submit]")
    expect(page.locator("#account-name")).to_have_text("You play as Sara.")
    expect(page.locator("#passkey-switch")).to_have_text("Sign in to another account")
    expect(page.locator("#main")).to_contain_text("Sara has no passkey and no other session")
    cdp.send("WebAuthn.setAutomaticPresenceSimulation", {"authenticatorId": auth, "enabled": True})
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.click("#passkey-switch")
    expect(page.locator("#account-name")).to_have_text("You play as Sara.")  # dismissed: still Sara
    assert asked and "Sara" in asked[0]
    page.once("dialog", lambda d: d.accept())
    page.click("#passkey-switch")
    expect(page.locator("#account-name")).to_have_text("You play as Rosa.")
    expect(page.locator("#passkeys li")).to_have_count(1)
    assert not page.errors
    page.context.close()
