#!/usr/bin/env python3
"""Train the `learned` captain (kolrami.captains.learned) by imitation of the admiral's choices
among kolrami.rl's macro-actions, with numpy alone; reproducible from `--seed`.

    python scripts/train_learned.py collect --battles 150 --out /tmp/a.npz
    python scripts/train_learned.py collect --battles 150 --start 150 --mirror --out /tmp/b.npz
    python scripts/train_learned.py fit /tmp/a.npz /tmp/b.npz --epochs 30

`collect` plays the admiral against the aggressive, kiting and random captains in turn (the
standard and Peak Performance scenarios in turn, sides alternating, cruisers against the
wolfpack), seeds 0 to battles - 1 (never those of docs/research.md's measurements), and keeps,
at each of the admiral's decisions, the observation, the mask and the macro-action whose order
is the admiral's. `fit` trains a one-hidden-layer network (masked softmax, cross-entropy,
Adam) and writes its weights to src/kolrami/captains/data/learned.npz.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from kolrami.captains.admiral import AdmiralCaptain
from kolrami.captains.base import BattleView
from kolrami.captains.features import observe
from kolrami.captains.learned import HIDDEN
from kolrami.captains.macro import MacroActions
from kolrami.captains.registry import make_captain
from kolrami.engine.chance import Dice
from kolrami.engine.driver import captain_dice
from kolrami.engine.driver import run
from kolrami.engine.orders import Decision
from kolrami.engine.orders import Order
from kolrami.fleet import fpf_preset_names
from kolrami.fleet import load_fleet
from kolrami.rules import new_battle
from kolrami.scenarios.models import builtin_scenario

OPPONENTS = ("aggressive", "kiting", "random")
SCENARIOS = ("standard", "peak-performance")
FLEETS = ("presets:federation-cruisers", "presets:klingon-wolfpack")
#: where the captain's weights ship, in a source checkout
SHIPPED = (
    Path(__file__).resolve().parents[1] / "src" / "kolrami" / "captains" / "data" / "learned.npz"
)


class Recorder:
    """The admiral, its choices kept as macro-action indexes."""

    name = "admiral"

    def __init__(self, dice: Dice) -> None:
        self.admiral = AdmiralCaptain(dice)
        self.macro = MacroActions()
        self.rows: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], int]] = []

    def decide(self, view: BattleView, decision: Decision) -> Order:
        order = self.admiral.decide(view, decision)
        choices = self.macro.choices(view, decision)
        for i, given in enumerate(choices.orders):
            if given is not None and given == order:
                mask = np.asarray(choices.mask, dtype=np.int8)
                self.rows.append((observe(view, decision), mask, i))
                break
        return order


def collect(battles: int, out: Path, start: int = 0, mirror: bool = False) -> None:
    xs, ms, ys = [], [], []
    started = time.perf_counter()
    presets = fpf_preset_names()
    for seed in range(start, start + battles):
        if mirror:  # every FPF preset fleet against itself in turn, as captain_strength.py
            fleet = load_fleet(f"presets:{presets[(seed // 2) % len(presets)]}")
            fleets = (fleet, fleet)
        else:
            fleets = (load_fleet(FLEETS[0]), load_fleet(FLEETS[1]))
        scenario = builtin_scenario(SCENARIOS[seed % 2])
        opponent = OPPONENTS[(seed // 2) % len(OPPONENTS)]
        side = "AB"[(seed // 6) % 2]
        other = "B" if side == "A" else "A"
        recorder = Recorder(captain_dice(seed, side))
        names = ("admiral", opponent) if side == "A" else (opponent, "admiral")
        battle = new_battle(scenario, fleets, seed, names)
        run(battle, {side: recorder, other: make_captain(opponent, captain_dice(seed, other))})
        for x, m, y in recorder.rows:
            xs.append(x)
            ms.append(m)
            ys.append(y)
        print(f"battle {seed}: {len(recorder.rows)} decisions kept", flush=True)
    np.savez_compressed(out, x=np.array(xs), mask=np.array(ms), y=np.array(ys))
    print(f"{len(ys)} decisions in {time.perf_counter() - started:.0f} s -> {out}")


def fit(data: list[Path], epochs: int, seed: int, out: Path) -> None:
    parts = [np.load(p) for p in data]
    x = np.concatenate([d["x"] for d in parts]).astype(np.float64)
    mask = np.concatenate([d["mask"] for d in parts]).astype(bool)
    y = np.concatenate([d["y"] for d in parts])
    rng = np.random.default_rng(seed)
    n, size = x.shape
    actions = mask.shape[1]
    params: dict[str, npt.NDArray[Any]] = {
        "w1": rng.normal(0, 1 / np.sqrt(size), (size, HIDDEN)),
        "b1": np.zeros(HIDDEN),
        "w2": rng.normal(0, 1 / np.sqrt(HIDDEN), (HIDDEN, actions)),
        "b2": np.zeros(actions),
    }
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    rate, batch, t = 3e-3, 256, 0
    order = rng.permutation(n)
    held = order[: n // 10]  # a tenth held out, to report
    train = order[n // 10 :]
    for epoch in range(epochs):
        rng.shuffle(train)
        for start in range(0, len(train), batch):
            idx = train[start : start + batch]
            grads = _grads(params, x[idx], mask[idx], y[idx])
            t += 1
            for k, g in grads.items():
                m, v = moments[k]
                m[:] = 0.9 * m + 0.1 * g
                v[:] = 0.999 * v + 0.001 * g * g
                params[k] -= rate * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
        acc = _accuracy(params, x[held], mask[held], y[held])
        print(f"epoch {epoch + 1}: held-out agreement with the admiral {acc:.3f}", flush=True)
    f32 = {k: v.astype(np.float32) for k, v in params.items()}
    np.savez_compressed(out, w1=f32["w1"], b1=f32["b1"], w2=f32["w2"], b2=f32["b2"])
    print(f"wrote {out} ({out.stat().st_size} bytes)")


def _logits(p: dict[str, npt.NDArray[Any]], x: npt.NDArray[Any]) -> tuple[Any, Any]:
    h = np.maximum(0.0, x @ p["w1"] + p["b1"])
    return h, h @ p["w2"] + p["b2"]


def _grads(
    p: dict[str, npt.NDArray[Any]], x: npt.NDArray[Any], mask: npt.NDArray[Any], y: npt.NDArray[Any]
) -> dict[str, npt.NDArray[Any]]:
    h, z = _logits(p, x)
    z = np.where(mask, z, -1e9)
    z = z - z.max(axis=1, keepdims=True)
    prob = np.exp(z) * mask
    prob /= prob.sum(axis=1, keepdims=True)
    dz = prob
    dz[np.arange(len(y)), y] -= 1.0
    dz /= len(y)
    dh = (dz @ p["w2"].T) * (h > 0)
    return {"w2": h.T @ dz, "b2": dz.sum(0), "w1": x.T @ dh, "b1": dh.sum(0)}


def _accuracy(
    p: dict[str, npt.NDArray[Any]], x: npt.NDArray[Any], mask: npt.NDArray[Any], y: npt.NDArray[Any]
) -> float:
    _, z = _logits(p, x)
    return float((np.where(mask, z, -np.inf).argmax(axis=1) == y).mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--battles", type=int, default=120)
    c.add_argument("--out", type=Path, default=Path("admiral.npz"))
    c.add_argument("--start", type=int, default=0, help="the first battle's seed")
    c.add_argument("--mirror", action="store_true", help="every FPF preset against itself")
    f = sub.add_parser("fit")
    f.add_argument("data", type=Path, nargs="+")
    f.add_argument("--epochs", type=int, default=30)
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--out", type=Path, default=SHIPPED)
    args = parser.parse_args()
    if args.command == "collect":
        collect(args.battles, args.out, args.start, args.mirror)
    else:
        fit(args.data, args.epochs, args.seed, args.out)


if __name__ == "__main__":
    main()
