"""Who may talk to the assistant server, and how large and deep a request may be: the checks before any work.

The threat (issue 41): every web page the user visits can send requests to 127.0.0.1, and DNS rebinding
(a hostname of the attacker's that later resolves to 127.0.0.1) lets such a page read the answers too. The
defences are the ones Jupyter's server uses for the same threat:
- Host: only names of the bound address (127.0.0.1, localhost, [::1], the address --host names; any IP
  address when bound to all of them), with the bound port. A rebound page's requests carry the
  attacker's hostname and are refused.
- Origin: a request a browser marks as coming from another origin is refused.
- A per-run secret (the token in the address the server prints) on every /api/ request. The page sends it
  in a header, which another origin cannot add without a CORS preflight the server never grants.
- JSON only: an HTML form or any other "simple" cross-site request cannot send `application/json`.
The page itself (index.html and its static files) is served without the token, as it holds no data.
"""
from __future__ import annotations

import hmac
import ipaddress
import json
import re
from http import HTTPStatus
from typing import Any, Dict, Optional, Set, Tuple, Union

from ..core.errors import InputError
from ..core.fileio import max_bytes, max_cells

BODY_MARGIN = 1 << 20        # bytes beyond the largest board: the other fields, JSON quoting, headers of a file
SKELETON_LIMIT = 1 << 16     # bytes a request may hold outside its strings: a few named fields, never big lists
DEPTH_LIMIT = 8              # nesting a request may have: its fields are strings and numbers
WILDCARDS = ("", "0.0.0.0", "::")
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
TOKEN_MISSING = ("this page was opened without the server's key: open the address `mineconv serve` printed "
                 "(it ends in ?token=...)")
TOKEN_WRONG = ("the server's key does not match (was the server restarted?): open the address "
               "`mineconv serve` printed this time")
# a JSON string, quotes and escapes included (the unrolled form: one character class per run, no backtracking)
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)


class Refused(InputError):
    """A request the server will not serve, with the HTTP status that says why."""

    def __init__(self, message: str, status: HTTPStatus) -> None:
        super().__init__(message)
        self.status = status


def body_cap() -> int:
    """The largest request body read: the largest board --max-cells allows, as text, plus a margin.

    Two bytes a cell covers a board's text with its newlines as JSON writes them (`\\n`) and the base64 of
    a binary replay of that board (4/3 of a byte a cell and its clicks); --max-bytes caps it too.
    """
    return 2 * min(max_cells(), max_bytes()) + BODY_MARGIN


def split_host(value: str) -> Tuple[str, Optional[int]]:
    """A Host header's name (lower case, IPv6 without brackets) and port (None when absent or not a number)."""
    value = value.strip().lower()
    if value.startswith("["):
        name, _, rest = value[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else ("" if not rest else "x")
    elif value.count(":") == 1:
        name, port_text = value.split(":")
    else:
        name, port_text = value, ""
    if port_text == "":
        return name, 80
    return name, int(port_text) if port_text.isdigit() and len(port_text) <= 5 else None


def ip_of(name: str) -> Optional[Union[ipaddress.IPv4Address, ipaddress.IPv6Address]]:
    """The IP address a host name spells, or None for a name."""
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None


class Gate:
    """The Host, Origin and token checks of one server: its bound address, its port, its secret."""

    def __init__(self, bound: str, port: int, token: str) -> None:
        self.port = port
        self.token = token
        self.any_address = bound.lower() in WILDCARDS
        self.names: Set[str] = set(LOOPBACK_NAMES) | {split_host(f"[{bound}]" if ":" in bound else bound)[0]}

    def host_allowed(self, value: Optional[str]) -> bool:
        """True when a Host header names this server: one of its names (or a loopback IP) and its port."""
        if not value:
            return False
        name, port = split_host(value)
        if port != self.port:
            return False
        if name in self.names:
            return True
        ip = ip_of(name)
        # an IP address cannot be rebound; with every address bound, any of them may reach the page
        return ip is not None and (ip.is_loopback or self.any_address)

    def check(self, headers: Any, api: bool) -> None:
        """Refuse (403) a request with a foreign Host or Origin, or an /api/ request without the token."""
        host = headers.get("Host")
        if not self.host_allowed(host):
            raise Refused(f"this server answers only at its own address (127.0.0.1, localhost or [::1] and port "
                          f"{self.port}), not at {host!r}", HTTPStatus.FORBIDDEN)
        origin = headers.get("Origin")
        if origin is not None and origin.strip().lower() != f"http://{host.strip().lower()}":
            raise Refused(f"requests from another site ({origin}) are refused", HTTPStatus.FORBIDDEN)
        if api:
            sent = sent_token(headers)
            if sent is None:
                raise Refused(TOKEN_MISSING, HTTPStatus.FORBIDDEN)
            if not hmac.compare_digest(sent.encode("utf-8", "surrogateescape"), self.token.encode("ascii")):
                raise Refused(TOKEN_WRONG, HTTPStatus.FORBIDDEN)


def sent_token(headers: Any) -> Optional[str]:
    """The token a request carries: `Authorization: token T` (as Jupyter's clients send) or `X-Mineconv-Token: T`."""
    authorization = headers.get("Authorization") or ""
    scheme, _, value = authorization.strip().partition(" ")
    if scheme.lower() in ("token", "bearer") and value.strip():
        return str(value.strip())
    token = headers.get("X-Mineconv-Token")
    return str(token).strip() if token else None


def pending_body(headers: Any) -> int:
    """The bytes a request's body will bring after its headers, read or not (-1: unknown, chunked or garbled)."""
    text = headers.get("Content-Length")
    if headers.get("Transfer-Encoding") or (text is not None and not text.strip().isdigit()):
        return -1
    return int(text) if text is not None else 0


def body_length(headers: Any, required: bool) -> int:
    """The body's announced length, checked against the cap before a byte of it is read (411, 413, 400)."""
    if headers.get("Transfer-Encoding"):
        raise Refused("send the request with a Content-Length, not in chunks", HTTPStatus.LENGTH_REQUIRED)
    text = headers.get("Content-Length")
    if text is None:
        if required:
            raise Refused("the request has no Content-Length", HTTPStatus.LENGTH_REQUIRED)
        return 0
    if not text.strip().isdigit():
        raise Refused(f"the request's Content-Length is not a number: {text!r}", HTTPStatus.BAD_REQUEST)
    length = int(text)
    if length > body_cap():
        raise Refused(f"the request ({length} bytes) is larger than the largest board the server reads "
                      f"({body_cap()} bytes, from --max-cells and --max-bytes)", HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
    return length


def check_json_type(value: Optional[str]) -> None:
    """Refuse (415) a body that is not declared `application/json` (charset parameters allowed)."""
    if (value or "").split(";")[0].strip().lower() != "application/json":
        raise Refused(f"the request must be JSON (Content-Type: application/json), not {value or 'untyped'}",
                      HTTPStatus.UNSUPPORTED_MEDIA_TYPE)


def parse_body(data: bytes) -> Dict[str, Any]:
    """The request's JSON object, its shape checked before parsing: few values outside strings, shallow.

    A body of 200,000 `[` ran json's recursion out, and a 60 MB list of `{}` grew the server by 1.6 GB
    (issue 41): stripping the strings leaves the skeleton, whose size bounds the number of values and
    whose brackets give the depth, in one pass of a regular expression and one short loop.
    """
    skeleton = _STRING.sub(b'""', data)
    if len(skeleton) > SKELETON_LIMIT:
        raise Refused(f"the request holds more than {SKELETON_LIMIT} bytes outside its strings: the page sends "
                      "a few named fields, not long lists", HTTPStatus.BAD_REQUEST)
    depth = deepest = 0
    for byte in skeleton:
        if byte in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        elif byte in b"]}":
            depth -= 1
    if deepest > DEPTH_LIMIT:
        raise Refused(f"the request nests deeper than {DEPTH_LIMIT} levels", HTTPStatus.BAD_REQUEST)
    try:
        body = json.loads(data or b"{}")
    except (ValueError, RecursionError):
        body = None
    if not isinstance(body, dict):
        raise Refused("the request body is not a JSON object", HTTPStatus.BAD_REQUEST)
    return body
