"""Matplotlib pictures. The Agg backend is forced so plots work with no screen."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt

from kolrami.errors import InvalidInputError
from kolrami.errors import quoted


def damage_chart(
    damage: Mapping[int, Fraction],
    expected: Fraction,
    title: str,
    out: Path,
    threshold: int | None = None,
    threshold_label: str = "",
) -> None:
    """Bar chart of a damage distribution, with its mean and an optional threshold line."""
    if out.suffix.lower() != ".png":
        raise InvalidInputError(f"plot file '{quoted(out)}' must end in .png")
    if not out.parent.exists():
        raise InvalidInputError(
            f"cannot write plot '{quoted(out)}': folder '{quoted(out.parent)}' does not exist"
        )
    xs = list(damage)
    ys = [float(damage[x]) * 100 for x in xs]
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=110)
    try:
        ax.bar(xs, ys, color="#3b7dd8", edgecolor="#1d3f6e", width=0.8)
        ax.axvline(
            float(expected), color="#d8793b", linestyle="--", label=f"mean {float(expected):.2f}"
        )
        if threshold is not None:
            ax.axvline(threshold - 0.5, color="#b22222", linestyle=":", label=threshold_label)
        ax.set_xlabel("damage dealt")
        ax.set_ylabel("probability (%)")
        ax.set_title(title, fontsize=10)
        ax.legend()
        ax.grid(axis="y", alpha=0.3)
        fig.tight_layout()
        fig.savefig(out)
    except OSError as exc:
        raise InvalidInputError(f"cannot write plot '{quoted(out)}': {exc.strerror}") from None
    finally:
        plt.close(fig)
