"""The shape of a replay's data, shared by the HTML replay (replay.py) and the track plot
(tracks.py): the ship status codes and the indexes of a ship's state in a step's snapshot, and
the colours of the sides and squadrons.
"""

from __future__ import annotations

#: Bump when the data the page reads changes shape. 2: meta.seed is a string (a 64-bit seed is
#: more than a JavaScript number holds exactly).
FORMAT_VERSION = 2

#: Ship status codes in snapshots (index STATUS in a ship's state).
OK, ADRIFT, DERELICT, DESTROYED, RESET = range(5)
STATUS_NAMES = ("in action", "out of control", "derelict", "destroyed", "reset")

#: Indexes of a ship's state array: position, heading, then the sheet's tracks.
X, Y, H, SS, SHIELDS, ENGINE, SYSTEMS, PHASERS, PHOTONS, TOKENS, STATUS, SPEED = range(12)

#: Fill colours per side, one shade per squadron (the page and the track plot share them).
SIDE_COLOURS = {
    "A": ("#2f7fe0", "#19b5c9", "#6c63ff", "#4aa3ff"),
    "B": ("#e0413a", "#f08a24", "#d6336c", "#b8342e"),
}
#: Marker colours of the hit locations (FPF-DMG-06).
LOCATION_COLOURS = {
    "shields": "#4fc3f7",
    "engine_power": "#ffb74d",
    "phasers": "#fff176",
    "photons": "#f06292",
    "computer": "#81c784",
    "superstructure": "#e0e0e0",
}


def squadron_colour(side: str, squadron: str) -> str:
    """The fill colour of a squadron ('AS2' is side A's second squadron)."""
    shades = SIDE_COLOURS.get(side, ("#9e9e9e",))
    digits = "".join(c for c in squadron if c.isdigit())
    number = int(digits) if digits else 1
    return shades[(number - 1) % len(shades)]
