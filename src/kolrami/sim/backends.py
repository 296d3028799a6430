"""Where an assessment's battles are played: this process, a pool of local processes, or Ray.

Every backend plays the same chunks with the same function (`assess.play_chunk`) and hands
each finished chunk to a callback at once; the order of arrival differs, the records do not.
On Ctrl-C a backend stops handing out work, waits for the chunks already being played (a
second Ctrl-C stops at once), passes them on, and raises Interrupted: nothing finished is lost.
"""

from __future__ import annotations

import gc
import logging
import math
import os
import signal
import socket
from collections.abc import Callable
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED
from concurrent.futures import Future
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import wait
from typing import Any

from kolrami.captains.registry import searches
from kolrami.errors import InvalidInputError
from kolrami.sim.assess import Chunk
from kolrami.sim.assess import Job
from kolrami.sim.assess import Plan
from kolrami.sim.assess import Record
from kolrami.sim.assess import RecordStore
from kolrami.sim.assess import play_chunk

OnBatch = Callable[[list[Record]], None]
#: Chunks in flight per worker: enough to keep every worker busy, few enough to drain quickly.
IN_FLIGHT_PER_WORKER = 3


class Interrupted(Exception):  # noqa: N818 - it names what happened, not a failure
    """The run was stopped by Ctrl-C after saving every finished battle."""


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def run_serial(job: Job, chunks: Sequence[Chunk], on_batch: OnBatch) -> None:
    """Play every chunk in this process, one battle at a time."""
    # the objects alive now (catalogue, fleets, modules) live through the sweep: frozen, the
    # collector stops walking them at every collection of a battle's garbage, as it does in
    # the workers of `run_processes` (which fork from a frozen parent)
    gc.freeze()
    try:
        for number, indices in chunks:
            for k in indices:
                on_batch(play_chunk(job, (number, (k,))))
    except KeyboardInterrupt:
        raise Interrupted from None
    finally:
        gc.unfreeze()


# --- local processes ---------------------------------------------------------------------------

_JOB: Job | None = None


def _init_worker(job: Job) -> None:
    """Each worker keeps the job and ignores Ctrl-C: the parent decides when to stop."""
    global _JOB
    _JOB = job
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play(chunk: Chunk) -> list[Record]:
    assert _JOB is not None, "worker started without a job"
    return play_chunk(_JOB, chunk)


def run_processes(job: Job, chunks: Sequence[Chunk], on_batch: OnBatch, workers: int) -> None:
    """Play the chunks on a pool of `workers` local processes."""
    pending = list(reversed(chunks))
    limit = workers * IN_FLIGHT_PER_WORKER
    gc.freeze()  # forked workers then leave the parent's objects alone: no copy-on-write churn
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_init_worker, initargs=(job,))
    running: set[Future[list[Record]]] = set()
    try:
        try:
            while pending or running:
                while pending and len(running) < limit:
                    running.add(pool.submit(_play, pending.pop()))
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for fut in done:
                    # saved before it leaves `running`: an interrupt in between saves it twice
                    # (reading keeps one), never not at all
                    on_batch(fut.result())
                    running.discard(fut)
        except KeyboardInterrupt:
            pending.clear()
            for fut in running:
                fut.cancel()
            for fut in running:
                if not fut.cancelled():
                    on_batch(fut.result())
            raise Interrupted from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        gc.unfreeze()


# --- Ray ----------------------------------------------------------------------------------------


def ray_module() -> Any:
    """The ray package, or a one-line error saying how to install it."""
    try:
        import ray  # here, not at the top: Ray is an optional extra (kolrami[ray]) and slow to load
    except ImportError:
        raise InvalidInputError(
            "--backend ray needs Ray: pip install 'kolrami[ray]' (or pip install ray)"
        ) from None
    return ray


def unreachable(address: str, timeout: float = 3.0) -> str | None:
    """Why a TCP connection to the Ray address's host and port fails, or None when it opens.

    Ray itself retries an unreachable head node for minutes; this answers in seconds. Addresses
    without a port ('auto') are left to Ray.
    """
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        return None
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def run_ray(
    job: Job, chunks: Sequence[Chunk], on_batch: OnBatch, workers: int, address: str | None
) -> None:
    """Play the chunks as Ray tasks: on the cluster at `address`, or on a local instance."""
    ray = ray_module()
    if address and (why := unreachable(address)):
        raise InvalidInputError(
            f"cannot reach the Ray cluster at {address}: {why}; check --address (the head "
            "node prints it when Ray starts)"
        )
    started = False
    if not ray.is_initialized():
        try:
            if address:
                ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
            else:
                ray.init(
                    num_cpus=workers,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level=logging.ERROR,
                )
        except (ConnectionError, RuntimeError, ValueError) as exc:
            where = f"the Ray cluster at {address}" if address else "a local Ray instance"
            raise InvalidInputError(f"cannot start {where}: {exc}") from None
        started = True
    try:
        remote = ray.remote(num_cpus=1)(play_chunk)
        job_ref = ray.put(job)
        capacity = int(ray.cluster_resources().get("CPU", workers)) or 1
        limit = capacity * IN_FLIGHT_PER_WORKER
        pending = list(reversed(chunks))
        running: list[Any] = []
        try:
            while pending or running:
                while pending and len(running) < limit:
                    running.append(remote.remote(job_ref, pending.pop()))
                done, _ = ray.wait(running, num_returns=1)
                for ref in done:
                    on_batch(ray.get(ref))
                    running.remove(ref)
        except KeyboardInterrupt:
            for ref in running:
                on_batch(ray.get(ref))
            raise Interrupted from None
    finally:
        if started:
            ray.shutdown()


def run_chunks(
    job: Job,
    chunks: Sequence[Chunk],
    on_batch: OnBatch,
    backend: str = "local",
    workers: int = 1,
    address: str | None = None,
) -> None:
    """Play `chunks` on `backend` ('local' or 'ray') with `workers` workers."""
    if workers < 1:
        raise InvalidInputError(f"--workers {workers}: use 1 or more workers")
    if backend == "ray":
        run_ray(job, chunks, on_batch, workers, address)
    elif backend == "local":
        if address is not None:
            raise InvalidInputError("--address belongs to --backend ray")
        if workers == 1 or len(chunks) <= 1:
            run_serial(job, chunks, on_batch)
        else:
            run_processes(job, chunks, on_batch, workers)
    else:
        raise InvalidInputError(f"no backend '{backend}'; use local or ray")


def chunk_size(todo: int, workers: int, slow: bool = False) -> int:
    """Battles per chunk: small enough to share the work out evenly and to save often; one
    when a captain searches (`slow`: a battle then takes seconds, and the progress bar and the
    results on disk should move with each)."""
    if slow:
        return 1
    return max(1, min(25, math.ceil(todo / (workers * 16))))


def run_plan(
    plan: Plan,
    store: RecordStore | None = None,
    backend: str = "local",
    workers: int = 1,
    address: str | None = None,
    on_progress: Callable[[int], None] | None = None,
    records: dict[tuple[str, int], Record] | None = None,
) -> tuple[dict[tuple[str, int], Record], int]:
    """Play every battle of `plan` not yet in `store` (or in `records`, when the caller has
    loaded them already), saving each chunk as it arrives; with the plan's `precision`, a
    matchup's battles stop at the first checkpoint where its score is known well enough.

    Returns the plan's records and how many of them were there before. Raises Interrupted
    (after saving what finished) on Ctrl-C.
    """
    if records is None:
        if store is not None:
            store.open()
        records = store.load(plan) if store is not None else {}
    resumed = len(records)
    slow = any(searches(c) for c in plan.captains)
    size = chunk_size(plan.total - resumed, workers, slow)
    found = records

    def on_batch(batch: list[Record]) -> None:
        if store is not None:
            store.append(batch)
        for r in batch:
            found[r["m"], r["i"]] = r
        if on_progress is not None:
            on_progress(len(batch))

    # in stages, one a checkpoint: with --precision a matchup stops at the first checkpoint
    # where its interval is narrow enough (without it, one stage plays everything)
    job = plan.job()
    for upto in plan.checkpoints():
        chunks = plan.chunks(records, size, upto)
        if chunks:
            run_chunks(job, chunks, on_batch, backend, workers, address)
    return records, resumed
