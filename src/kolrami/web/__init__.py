"""The web app for organizers and players: FastAPI, Jinja2 templates and vendored htmx.

`create_app(store)` builds it; `kolrami serve` runs it under uvicorn.
"""

from __future__ import annotations

from kolrami.web.app import create_app

__all__ = ["create_app"]
