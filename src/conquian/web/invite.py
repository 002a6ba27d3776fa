"""Reaching a table from another device: this machine's address on the home network
(``conquian serve --lan``) and QR codes of an address, for a terminal and for the page
(:mod:`segno`, pure Python).

```pycon
>>> svg = qr_svg("http://192.168.1.20:8000/t/abc")
>>> svg.startswith(b"<svg") and b"viewBox" in svg and b"<script" not in svg
True
>>> print(terminal_qr("http://192.168.1.20:8000/").splitlines()[3][:12])
████ █   █ █
>>> lan_url("192.168.1.20", 8000)
'http://192.168.1.20:8000/'

```
"""

from __future__ import annotations

import contextlib
import io
import ipaddress
import socket

import segno

#: An address of the documentation range (RFC 5737): "connecting" a UDP socket there sends
#: nothing, and tells which of this machine's addresses would carry the packet.
PROBE = "192.0.2.1"


def _usable(address: str) -> bool:
    """An IPv4 address another device on the network can reach (not loopback, not link-local,
    not unspecified)."""
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def lan_address() -> str | None:
    """This machine's IPv4 address on its network (the one its default route leaves from; a
    private address such as ``192.168.1.20`` at home), or None when it has none."""
    candidates: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect((PROBE, 9))  # UDP: no packet is sent
            candidates.append(s.getsockname()[0])
    except OSError:
        pass
    with contextlib.suppress(OSError):
        candidates += socket.gethostbyname_ex(socket.gethostname())[2]
    usable = [a for a in candidates if _usable(a)]
    private = [a for a in usable if ipaddress.IPv4Address(a).is_private]
    best = private or usable
    return best[0] if best else None


def lan_url(address: str, port: int) -> str:
    """The lobby's address at ``address`` (an IPv6 one in brackets)."""
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}/"


def terminal_qr(text: str) -> str:
    """A QR code of ``text`` drawn with block characters (two rows of modules a line), dark on
    light, with the quiet zone phones need around it."""
    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True, border=4)
    return out.getvalue()


def qr_svg(text: str) -> bytes:
    """A QR code of ``text`` as an SVG image that scales to any size (``viewBox``, no fixed size),
    black on white with its quiet zone."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=1, border=4, omitsize=True, xmldecl=False,
                                     dark="#000", light="#fff", svgclass=None, lineclass=None)
    return out.getvalue()
