"""Neutron stars in the advanced game (module adv-terrain): ADV-NS-01. Reading in docs/rules.md."""

from __future__ import annotations

from kolrami.scenarios.models import Magnetar
from kolrami.scenarios.models import NeutronStar

CLAUSES = ("ADV-NS-01",)


def in_star_hex(star: NeutronStar | Magnetar, hex_cm: int, x: float, y: float) -> bool:
    """A ship that enters, or is pulled into, a neutron star's (or a magnetar's) hex is
    destroyed (ADV-NS-01)."""
    return star.distance(x, y) <= hex_cm / 2
