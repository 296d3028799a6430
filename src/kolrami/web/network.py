"""The address players' phones open: the join address on the printed sheets, the slips and the
organizer's screen, with its QR code.

An organizer at the counter usually opens the app as http://localhost:8000, an address only
that machine can reach. The phones need the machine's address on the store's network instead:
found by connecting a UDP socket towards an outside address (connecting a datagram socket sends
nothing; it only asks the system which interface and address it would use), or given by the
organizer (`kolrami serve --public-url`, or the KOLRAMI_PUBLIC_URL setting) when the store's
network is not the way out (a hotspot, a name the router gives, a tunnel). 127.0.0.1 is shown
only when the machine has no other address, and the page then says so.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

import segno
from fastapi import Request
from markupsafe import Markup

from kolrami.errors import InvalidInputError
from kolrami.errors import quoted

#: Where the UDP socket is pointed to find the outbound interface: documentation and private
#: ranges (nothing is sent, so they need not answer; one of them is routed on most networks).
_PROBES = ("192.0.2.1", "10.255.255.255", "172.31.255.255", "192.168.255.255")
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1", "0.0.0.0", "::"})


def lan_address() -> str | None:
    """The machine's IPv4 address on its network (the interface traffic would leave by), or
    None when it has none but loopback."""
    for probe in _PROBES:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))  # UDP: no packet is sent by connect
                address = str(s.getsockname()[0])
        except OSError:
            continue
        if not _loopback(address) and address != "0.0.0.0":
            return address
    return None


def _loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES or host.lower().endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


#: The longest public address taken: the pages print it as a QR code with paths after it, and a
#: phone's camera reads a small code best (segno's largest holds about 2,300 characters).
MAX_PUBLIC_URL = 200


def check_public_url(url: str, option: str = "--public-url") -> str:
    """A public URL as given (--public-url), without its trailing slash; refused unless it is
    http:// or https:// with a host and nothing after the path, and short enough to print as a
    QR code."""
    text = url.strip().rstrip("/")
    if len(text) > MAX_PUBLIC_URL:
        raise InvalidInputError(
            f"{option} {quoted(url, 40)}: an address of {len(text)} characters is too long to "
            f"print as a QR code; give one of at most {MAX_PUBLIC_URL}, like "
            "http://192.168.1.20:8000"
        )
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise InvalidInputError(
            f"{option} {quoted(url, 80)}: give the address phones open, like "
            "http://192.168.1.20:8000"
        )
    return text


@dataclass(frozen=True, slots=True)
class JoinAddress:
    """The address phones open (no trailing slash), and a warning when they cannot."""

    base: str
    warning: str = ""

    def url(self, path: str) -> str:
        """The full address of a path of this site."""
        return self.base + path


def join_address(
    request: Request, public_url: str | None = None, listen_host: str | None = None
) -> JoinAddress:
    """The address the players' phones open for this server: the organizer's own setting;
    else the address of the socket the request came in on (the server's own, as the operating
    system gives it, never the request's Host header, which any sender writes as he likes),
    unless that is loopback or every interface; then the machine's address on its network,
    with the port the server listens on."""
    server = request.scope.get("server") or ("127.0.0.1", 80)
    scheme = "https" if request.scope.get("scheme") in ("https", "wss") else "http"
    return phone_address(scheme, int(server[1] or 80), public_url, listen_host, str(server[0]))


def phone_address(
    scheme: str,
    port: int,
    public_url: str | None = None,
    listen_host: str | None = None,
    bound: str | None = None,
) -> JoinAddress:
    """The address phones get for a server on `port` (kolrami serve says it at start; the
    pages print it): `public_url` when given; else `bound`, the server's own address a request
    came in on, when it is one phones can reach; else the machine's address on its network."""
    if public_url:
        return JoinAddress(public_url.rstrip("/"))
    shown_port = "" if (scheme, port) in (("http", 80), ("https", 443)) else f":{port}"
    if bound and not _loopback(bound) and _is_address(bound):
        host = f"[{bound}]" if ":" in bound else bound
        return JoinAddress(f"{scheme}://{host}{shown_port}")
    lan = lan_address()
    if lan is None:
        return JoinAddress(
            f"{scheme}://127.0.0.1{shown_port}",
            "this machine is on no network, so only it can open this address: join the "
            "store's Wi-Fi, or start with kolrami serve --public-url",
        )
    warning = ""
    if listen_host is not None and _loopback(listen_host) and listen_host not in ("0.0.0.0", "::"):
        warning = (
            "the server listens only on this machine: start it with kolrami serve --host "
            "0.0.0.0 so that phones can open this address"
        )
    return JoinAddress(f"{scheme}://{lan}{shown_port}", warning)


def _is_address(host: str) -> bool:
    """An IP address (what a socket is bound to), not a name."""
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def qr_svg(text: str, scale: int = 4) -> Markup:
    """A QR code of `text` as inline SVG (segno; error correction M, a quiet zone of 4).

    Its width and height are its natural size, and a viewBox lets CSS scale it: without one a
    code drawn smaller than that size (the wall clock's, sized to the screen) was cut off at
    its right and bottom edges, a corner square lost and the code unreadable (issue 47 item 9)."""
    code = segno.make_qr(text, error="m")
    svg = code.svg_inline(scale=scale, title=f"QR code: {text}", dark="#000", light="#fff")
    width, height = code.symbol_size(scale=scale)
    svg = svg.replace("<svg ", f'<svg viewBox="0 0 {width} {height}" ', 1)
    return Markup(svg)  # segno escapes the text in the title: the SVG is safe as it is
