"""Kolrami for researchers: an FPF battle as a PettingZoo AEC environment (`env`), a Gymnasium
environment against any captain (`KolramiGym`), a vector environment (`VectorKolrami`) and an
OpenSpiel game (kolrami.rl.openspiel). Needs `pip install "kolrami[rl]"`; docs/research.md.
"""

from __future__ import annotations

try:
    import gymnasium as _gymnasium  # noqa: F401
    import pettingzoo as _pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - the extra not installed
    raise ImportError(
        f"kolrami.rl needs PettingZoo and Gymnasium ({exc}): pip install 'kolrami[rl]'"
    ) from None

from kolrami.rl.aec import KolramiAEC
from kolrami.rl.aec import env
from kolrami.rl.core import IllegalActionError
from kolrami.rl.core import Match
from kolrami.rl.core import configure
from kolrami.rl.gym import KolramiGym

__all__ = ["IllegalActionError", "KolramiAEC", "KolramiGym", "Match", "configure", "env"]
