"""The static files (stylesheets, scripts, the favicon), served from memory under hashed names.

Each file is read once when the app is made and named by its content: `kolrami.css` is linked as
`/static/kolrami.3f2a9c1d.css`. A hashed name never changes its content, so browsers keep it a
year without asking again (Cache-Control immutable) and a new release is fetched at once (its
names are new). The plain names still answer, with `no-cache` and an ETag, for anything that
links them directly. The files are a few dozen kilobytes: kept in memory, a request costs no
file system call and no thread.
"""

from __future__ import annotations

import hashlib
import mimetypes
from dataclasses import dataclass
from pathlib import Path

from starlette.types import Receive
from starlette.types import Scope
from starlette.types import Send

#: A year: the longest max-age caches honour; with `immutable` a browser does not revalidate.
IMMUTABLE = b"public, max-age=31536000, immutable"
REVALIDATE = b"no-cache"


@dataclass(frozen=True, slots=True)
class _Asset:
    body: bytes
    media_type: bytes
    etag: bytes


class Assets:
    """An ASGI app serving one folder's files from memory (mounted at /static)."""

    def __init__(self, folder: Path, prefix: str = "/static") -> None:
        self.prefix = prefix
        self._files: dict[str, _Asset] = {}
        self._hashed: dict[str, str] = {}  # plain name: hashed name
        self._immutable: set[str] = set()
        for path in sorted(folder.iterdir()):
            if not path.is_file() or path.suffix == ".md":
                continue
            body = path.read_bytes()
            digest = hashlib.sha256(body).hexdigest()[:12]
            kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            if kind.startswith("text/") or kind in ("application/javascript", "image/svg+xml"):
                kind += "; charset=utf-8"
            asset = _Asset(body, kind.encode(), f'"{digest}"'.encode())
            hashed = f"{path.stem}.{digest}{path.suffix}"
            self._files[path.name] = asset
            self._files[hashed] = asset
            self._hashed[path.name] = hashed
            self._immutable.add(hashed)

    def url(self, name: str) -> str:
        """The address of a static file by its plain name, under its hashed name."""
        return f"{self.prefix}/{self._hashed.get(name, name)}"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        name = str(scope.get("path", "")).rsplit("/", 1)[-1]
        asset = self._files.get(name)
        method = scope.get("method", "GET")
        if asset is None or method not in ("GET", "HEAD"):
            status = 404 if asset is None else 405
            body = b"there is no such file here" if asset is None else b"GET only"
            await _send(send, status, body, b"text/plain; charset=utf-8", REVALIDATE)
            return
        cache = IMMUTABLE if name in self._immutable else REVALIDATE
        headers = dict(scope.get("headers") or [])
        if headers.get(b"if-none-match") == asset.etag:
            await _send(send, 304, b"", asset.media_type, cache, asset.etag)
            return
        body = b"" if method == "HEAD" else asset.body
        await _send(send, 200, body, asset.media_type, cache, asset.etag, len(asset.body))


async def _send(
    send: Send,
    status: int,
    body: bytes,
    media_type: bytes,
    cache: bytes,
    etag: bytes = b"",
    length: int | None = None,
) -> None:
    headers = [
        (b"content-type", media_type),
        (b"content-length", str(len(body) if length is None else length).encode()),
        (b"cache-control", cache),
    ]
    if etag:
        headers.append((b"etag", etag))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
