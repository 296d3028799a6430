"""`kolrami serve`: the web app for organizers and players, under uvicorn."""

from __future__ import annotations

import gc
from typing import Annotated, Any

import typer

from kolrami.cli.support import command, console, store_url
from kolrami.errors import InvalidInputError, quoted


def serve_cmd(
    host: Annotated[
        str, typer.Option(help="Address to listen on; 0.0.0.0 lets tablets and phones in.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None, typer.Option("--db", help="Database URL or SQLite file (./kolrami.db).")
    ] = None,
) -> None:
    """Run the web app: organizers run events, players report from their phones."""
    # FastAPI and the store, about 480 ms: only for serve
    from kolrami.tournament.store import database_url
    from kolrami.web import create_app

    if not 0 < port < 65536:
        raise InvalidInputError(f"--port {quoted(port, 20)}: use a port from 1 to 65535")
    app = create_app(store_url(database_url(db), create=True), own_hosts=(host,))
    store = app.state.web.store
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    out = console()
    out.print(f"Kolrami web app on [bold]http://{shown}:{port}/[/bold] (store {store.url})")
    if store.organizer_count() == 0:
        out.print(f"First time: open http://{shown}:{port}/setup to make the organizer account.")
    if host in ("0.0.0.0", "::"):
        out.print("Listening on every network interface: players' phones can reach it.")
    try:
        run_server(app, host, port)
    except OSError as exc:  # pragma: no cover - the port is taken, say so in one line
        raise InvalidInputError(f"cannot listen on {host}:{port}: {exc.strerror}") from None


def run_server(app: Any, host: str, port: int, log_level: str = "warning") -> None:
    """Serve the app with uvicorn as `kolrami serve` does (the load benchmark uses this too).

    One process: the attempt limits on PINs and passwords are counted in its memory, so a second
    worker would double the tries an attacker gets. No access log (a line per request costs
    as much as a kept page). uvicorn takes httptools and uvloop, dependencies of Kolrami, where
    they are installed.
    """
    import uvicorn  # about 40 ms, only to serve

    # What was made at start-up (the app, the catalog, templates) stays: the collector need not
    # walk it again. Each request makes thousands of short-lived objects, which reference
    # counting frees; a young generation of 50,000 rather than 700 lets the collector run ~70x
    # less often: the p95 of benchmarks/web_load.py went from 170-200 ms to about 145 ms.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    uvicorn.run(app, host=host, port=port, log_level=log_level, access_log=False)


def register(app: typer.Typer) -> None:
    """Add `kolrami serve` to the main app."""
    command(app, "serve")(serve_cmd)
