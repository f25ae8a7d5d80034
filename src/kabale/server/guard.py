"""The request rules of docs/api.md ("Errors and request rules") and the security headers,
as one ASGI middleware.

The server listens on a loopback address only, but a web page elsewhere runs in the same
browser, and that is what these rules keep out:

- DNS rebinding: a name of the attacker's that resolves to 127.0.0.1 makes the browser treat
  this server as that page's own origin. Such a request carries the attacker's name in
  ``Host``, so only the loopback addresses and ``localhost``, with this server's port, pass.
- Cross-site requests: a form or a ``text/plain`` fetch from another page needs no
  permission from the server (no CORS preflight). Every POST must declare JSON, which no
  form can and which makes a cross-origin fetch ask first (and this server never says yes);
  a request whose ``Origin`` is another origin is refused outright.
- The page runs only its own script files: the Content-Security-Policy allows no inline or
  eval'd script and no framing, ``nosniff`` stops a JSON answer being run as script, and no
  address (which holds game ids) is sent on as a referrer.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Mapping
from typing import Protocol

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kabale.core.errors import quoted


class Site(Protocol):
    """A hosted server's request rules (server.site.Site)."""

    @property
    def origins(self) -> tuple[str, ...]: ...

    @property
    def public_origin(self) -> str | None: ...

    def host_allowed(self, host: str) -> bool: ...

SECURITY_HEADERS: Mapping[str, str] = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
_RAW_HEADERS = [(k.lower().encode("latin-1"), v.encode("latin-1"))
                for k, v in SECURITY_HEADERS.items()]


def is_loopback_name(host: str) -> bool:
    """``localhost``, an IPv4 loopback address (127.0.0.0/8) or ``[::1]``."""
    host = host.lower()
    if host == "localhost":
        return True
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def split_host(value: str) -> tuple[str, int | None] | None:
    """``("127.0.0.1", 8000)`` from ``"127.0.0.1:8000"``, ``("[::1]", None)`` from ``"[::1]"``;
    None when the value is not a host with an optional port."""
    if value.startswith("["):
        end = value.find("]") + 1
        host, rest = value[:end], value[end:]
        if not end or (rest and not rest.startswith(":")):
            return None
        colon, port = rest[:1], rest[1:]
    else:
        host, colon, port = value.rpartition(":")
        if not colon:
            host = value
        if ":" in host:
            return None
    if not host or (colon and not (port.isascii() and port.isdigit() and len(port) <= 5)):
        return None
    return host, int(port) if colon else None


def is_own_address(value: str, port: int | None) -> bool:
    """Is ``value`` (``host[:port]``) a loopback name with this server's port?"""
    parts = split_host(value)
    return parts is not None and is_loopback_name(parts[0]) and (parts[1] or 80) == port


def host_problem(value: str | None, port: int | None) -> str | None:
    """Why a Host header value is not this server's address, or None when it is."""
    if not value or not is_own_address(value, port):
        return (f"refused: Host {quoted(value)} is not this server's address; kabale answers only "
                f"at localhost or a loopback address with its port ({port})")
    return None


def origin_problem(origin: str | None, port: int | None) -> str | None:
    """Why an Origin header is another origin than this server's, or None when it is not."""
    if origin is None:
        return None
    scheme, sep, rest = origin.partition("://")
    if not (sep and scheme.lower() == "http" and "/" not in rest and is_own_address(rest, port)):
        return (f"refused: a page from another origin ({quoted(origin)}) may not use this server; "
                "open kabale's own page instead")
    return None


def site_host_problem(value: str | None, site: Site) -> str | None:
    """A hosted server's Host rule: the name (any port) must be one of its allowed hosts."""
    parts = split_host(value or "")
    if parts is None or not site.host_allowed(parts[0]):
        return (f"refused: Host {quoted(value)} is not a name this server answers to "
                "(its allowed hosts: --allowed-host / KABALE_ALLOWED_HOSTS)")
    return None


def site_origin_problem(origin: str | None, host: str | None, fetch_site: str | None,
                        method: str, site: Site, path: str = "/api/") -> str | None:
    """A hosted server's Origin rule: a request from a page is this server's own (its
    Origin is the public origin, one of the allowed origins, or the scheme and Host it was
    sent to), and no browser says it is cross-site. With the cookie that now names the
    player, this is what keeps another site's page from acting as them (CSRF): it cannot
    send JSON without asking (and is never told yes), and its Origin gives it away. The API
    is refused to another site's request even for a GET (a link or an image with the
    player's cookie): some GETs count as help (the win chance)."""
    if (method not in ("GET", "HEAD") or path.startswith("/api/")) and \
            fetch_site == "cross-site":
        return "refused: a page from another site may not use this server"
    if origin is None:
        return None
    own = {f"http://{host}", f"https://{host}"} if host else set()
    allowed = {*site.origins, *([site.public_origin] if site.public_origin else []), *own}
    if origin.rstrip("/") not in allowed:
        return (f"refused: a page from another origin ({quoted(origin)}) may not use this "
                "server; open its own page instead")
    return None


def content_type_problem(method: str, content_type: str | None) -> str | None:
    """Why a request body's declared type is refused (every POST declares JSON), or None."""
    if method != "POST":
        return None
    media, _, params = (content_type or "").partition(";")
    if media.strip().lower() != "application/json":
        return (f"refused: a POST must send JSON with Content-Type: application/json, "
                f"not {quoted(content_type)}")
    charset = _charset(params)
    if charset is not None and charset not in ("utf-8", "utf8"):
        # JSON between systems is UTF-8 (RFC 8259 §8.1) and the body is read as UTF-8:
        # a body declared in another charset would be read as something it does not say.
        return (f"refused: a JSON body is UTF-8; Content-Type {quoted(content_type)} "
                "declares another charset (send charset=utf-8 or none)")
    return None


def _charset(params: str) -> str | None:
    """The charset a Content-Type's parameters name (lower case, unquoted), or None."""
    for param in params.split(";"):
        name, _, value = param.partition("=")
        if name.strip().lower() == "charset":
            return value.strip().strip('"').lower()
    return None


class Guard:
    """ASGI middleware: refuse what the rules above refuse, add SECURITY_HEADERS to the rest."""

    def __init__(self, app: ASGIApp, site: Site | None = None) -> None:
        self.app = app
        self.site = site

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        server = scope.get("server")
        port = server[1] if server else None
        if self.site is None:
            refusal = host_problem(headers.get("host"), port) or origin_problem(
                headers.get("origin"), port)
        else:
            refusal = site_host_problem(headers.get("host"), self.site) or site_origin_problem(
                headers.get("origin"), headers.get("host"), headers.get("sec-fetch-site"),
                scope["method"], self.site, scope["path"])
        status = 403
        if refusal is None:
            refusal = content_type_problem(scope["method"], headers.get("content-type"))
            status = 415
        if refusal is not None:
            await _answer(send, status, refusal)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *_RAW_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _answer(send: Send, status: int, error: str,
                  headers: list[tuple[bytes, bytes]] | None = None, *,
                  guarded: bool = False) -> None:
    """Answer ``{"error": error}`` with ``status``, ``headers`` and the security headers
    (unless ``guarded``: sent through the Guard, which adds them)."""
    body = json.dumps({"error": error}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *(headers or []),
                            *([] if guarded else _RAW_HEADERS)]})
    await send({"type": "http.response.body", "body": body})
