"""`kolrami serve`: the web app for organizers and players, under uvicorn."""

from __future__ import annotations

import asyncio
import gc
import logging
import ssl
from pathlib import Path
from typing import Annotated
from typing import Any

import typer

from kolrami.cli.support import DbOption
from kolrami.cli.support import command
from kolrami.cli.support import console
from kolrami.cli.support import store_url
from kolrami.errors import InvalidInputError
from kolrami.errors import quoted

# the options of serve_cmd, named
HostOption = Annotated[
    str, typer.Option(help="Address to listen on; 0.0.0.0 lets tablets and phones in.")
]
CertfileOption = Annotated[
    Path | None,
    typer.Option(
        "--certfile",
        help="TLS certificate (PEM) to serve https:// with; needs --keyfile. Passwords and "
        "PINs then never cross the network in clear, and the session cookie is Secure.",
    ),
]
KeyfileOption = Annotated[
    Path | None, typer.Option("--keyfile", help="The certificate's private key (PEM).")
]
PublicUrlOption = Annotated[
    str | None,
    typer.Option(
        "--public-url",
        envvar="KOLRAMI_PUBLIC_URL",
        help="The address players' phones open (the join address and QR code on the "
        "sheets), e.g. http://192.168.1.20:8000; by default this machine's address on its "
        "network.",
    ),
]
PlayOption = Annotated[
    str,
    typer.Option(
        "--play",
        help="Who may play battles in the browser (/play): open (anyone on the network), "
        "login (organizers only) or off.",
    ),
]
PlayFolderMbOption = Annotated[
    int,
    typer.Option(
        "--play-folder-mb",
        help="The most the games of /play keep on disk, in MiB (oldest finished first out).",
    ),
]
PlayHoursOption = Annotated[
    float,
    typer.Option("--play-hours", help="A /play game nobody moves in for this long is removed."),
]


def serve_cmd(
    host: HostOption = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: DbOption = None,
    certfile: CertfileOption = None,
    keyfile: KeyfileOption = None,
    public_url: PublicUrlOption = None,
    play: PlayOption = "open",
    play_folder_mb: PlayFolderMbOption = 200,
    play_hours: PlayHoursOption = 24.0,
) -> None:
    """Run the web app: organizers run events, players report from their phones."""
    # FastAPI and the store, about 480 ms: only for serve
    from kolrami.tournament.store import database_url
    from kolrami.web import create_app
    from kolrami.web.network import check_public_url
    from kolrami.web.network import phone_address
    from kolrami.web.routers.play import MIB  # (FastAPI: only for serve)
    from kolrami.web.routers.play import PlayLimits  # (FastAPI: only for serve)
    from kolrami.web.routers.play import PlayMode  # (FastAPI: only for serve)

    if not 0 < port < 65536:
        raise InvalidInputError(f"--port {quoted(port, 20)}: use a port from 1 to 65535")
    tls = check_tls(certfile, keyfile)
    public = check_public_url(public_url) if public_url is not None else None
    modes = [m.value for m in PlayMode]
    if play not in modes:
        raise InvalidInputError(f"--play {quoted(play, 20)}: choose one of {', '.join(modes)}")
    if not 1 <= play_folder_mb <= 1_000_000:
        raise InvalidInputError(
            f"--play-folder-mb {play_folder_mb}: give 1 to 1000000 MiB for /play's games"
        )
    if not 0.01 <= play_hours <= 24 * 365:
        raise InvalidInputError(
            f"--play-hours {play_hours:g}: give 0.01 to 8760 hours before an idle game goes"
        )
    limits = PlayLimits(
        mode=PlayMode(play),
        folder_bytes=play_folder_mb * MIB,
        expire_seconds=play_hours * 3600,
    )
    app = create_app(
        store_url(database_url(db), create=True),
        own_hosts=(host,),
        https_only=tls is not None,
        public_url=public,
        listen_host=host,
        play_limits=limits,
    )
    store = app.state.web.store
    store.check_health()  # a damaged file is one line now, not a 503 on some later page
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    scheme = "https" if tls else "http"
    out = console()
    out.print(f"Kolrami web app on [bold]{scheme}://{shown}:{port}/[/bold] (store {store.url})")
    if store.organizer_count() == 0:
        out.print(
            f"First time: open {scheme}://{shown}:{port}/setup to make the organizer account."
        )
    bound = None if host in ("0.0.0.0", "::", "localhost") else host
    phones = phone_address(scheme, port, public, host, bound)
    how = " (--public-url)" if public else ""
    out.print(f"Players' phones get {phones.url('/')}{how}: the join address and its QR code")
    if phones.warning:
        out.print(f"Phones cannot reach it yet: {phones.warning}")
    out.print(
        f"/play: {limits.mode.value}"
        + (
            f", games kept up to {play_folder_mb} MiB and {play_hours:g} hours idle"
            if limits.mode != PlayMode.OFF
            else ""
        )
    )
    if host in ("0.0.0.0", "::"):
        out.print("Listening on every network interface: players' phones can reach it.")
        if tls is None:
            out.print(
                "Without --certfile/--keyfile, passwords and PINs cross the network in clear."
            )
    try:
        run_server(app, host, port, tls=tls)
    except OSError as exc:  # pragma: no cover - the port is taken, say so in one line
        raise InvalidInputError(f"cannot listen on {host}:{port}: {exc.strerror}") from None


def check_tls(certfile: Path | None, keyfile: Path | None) -> tuple[str, str] | None:
    """The certificate and key to serve TLS with, checked before the server starts (a pair
    that does not load is one line, not a traceback from the first connection); None for
    plain http."""
    if certfile is None and keyfile is None:
        return None
    if certfile is None or keyfile is None:
        given, missing = (
            ("--certfile", "--keyfile") if keyfile is None else ("--keyfile", "--certfile")
        )
        raise InvalidInputError(
            f"{given} needs {missing} too: TLS takes the certificate and its private key "
            "(or give neither for plain http)"
        )
    for option, path in (("--certfile", certfile), ("--keyfile", keyfile)):
        if not path.is_file():
            raise InvalidInputError(f"{option} {path}: no such file; give the PEM file's path")
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(certfile, keyfile)
    except (ssl.SSLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", None) or getattr(exc, "strerror", None) or exc
        raise InvalidInputError(
            f"--certfile {certfile} with --keyfile {keyfile}: TLS cannot use them ({reason}); "
            "give a PEM certificate and the private key it was made with"
        ) from None
    return str(certfile), str(keyfile)


#: How long a stopping server lets answers in flight finish (see run_server).
SHUTDOWN_SECONDS = 3


def run_server(
    app: Any,
    host: str,
    port: int,
    log_level: str = "warning",
    tls: tuple[str, str] | None = None,
) -> None:
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
    certfile, keyfile = tls if tls else (None, None)
    logging.getLogger("uvicorn.error").addFilter(_quiet_cancel)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        access_log=False,
        ssl_certfile=certfile,
        ssl_keyfile=keyfile,
        # SIGTERM (systemd, docker stop, Ctrl-C): new connections are refused at once, answers
        # in flight get this long, then they are cancelled and the server exits; each write
        # is one transaction, so a cancelled one saved nothing
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,
    )


def _quiet_cancel(record: logging.LogRecord) -> bool:
    """Leave out the traceback of an answer cancelled because the server is stopping (uvicorn
    says once that it cancelled it)."""
    return not (record.exc_info and isinstance(record.exc_info[1], asyncio.CancelledError))


def register(app: typer.Typer) -> None:
    """Add `kolrami serve` to the main app."""
    command(app, "serve")(serve_cmd)
