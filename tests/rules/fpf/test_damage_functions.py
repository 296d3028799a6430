"""FPF penetration and hit location as pure rules (FPF-DMG-01, -02, -06)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kolrami.catalog import Location
from kolrami.catalog.models import STANDARD_HIT_LOCATIONS
from kolrami.rules.fpf.damage import hit_location
from kolrami.rules.fpf.damage import penetrates
from kolrami.rules.fpf.damage import penetrating_faces
from kolrami.rules.fpf.damage import penetration_probability
from kolrami.rules.fpf.damage import penetration_target


@pytest.mark.rule("FPF-DMG-01")
def test_worked_example_strength_5_vs_shields_12() -> None:
    assert penetration_target(12, 5) == 7
    assert [r for r in range(1, 11) if penetrates(r, 12, 5)] == [7, 8, 9, 10]
    assert penetration_probability(12, 5) == 0.4


@pytest.mark.rule("FPF-DMG-02")
def test_worked_example_a_10_always_penetrates() -> None:
    assert penetration_target(20, 5) == 15
    assert [r for r in range(1, 11) if penetrates(r, 20, 5)] == [10]
    assert penetration_probability(20, 5) == 0.1


@pytest.mark.rule("FPF-DMG-02")
def test_worked_example_a_1_always_fails() -> None:
    assert penetration_target(10, 10) == 0
    assert [r for r in range(1, 11) if not penetrates(r, 10, 10)] == [1]
    assert penetration_probability(10, 10) == 0.9


@pytest.mark.rule("FPF-DMG-01", "FPF-DMG-02")
@given(st.integers(0, 40), st.integers(0, 40))
def test_penetration_is_between_one_and_nine_faces(shields: int, strength: int) -> None:
    faces = penetrating_faces(shields, strength)
    assert 1 <= faces <= 9
    assert penetrates(10, shields, strength)
    assert not penetrates(1, shields, strength)


@pytest.mark.rule("FPF-DMG-01", "FPF-DMG-10")
@given(st.integers(1, 40), st.integers(0, 40))
def test_lower_shields_never_make_penetration_harder(shields: int, strength: int) -> None:
    assert penetrating_faces(shields - 1, strength) >= penetrating_faces(shields, strength)
    assert penetrating_faces(shields, strength + 1) >= penetrating_faces(shields, strength)


@pytest.mark.rule("FPF-DMG-06")
def test_hit_location_table() -> None:
    got = [hit_location(r, STANDARD_HIT_LOCATIONS) for r in range(1, 11)]
    assert got == [Location.SHIELDS] * 4 + [Location.ENGINE_POWER] * 3 + [
        Location.PHASERS,
        Location.PHOTONS,
        Location.COMPUTER,
    ]
    assert STANDARD_HIT_LOCATIONS.label(Location.SHIELDS) == "1-4"
    assert STANDARD_HIT_LOCATIONS.label(Location.COMPUTER) == "0"


@pytest.mark.rule("FPF-DMG-01", "FPF-DMG-02")
@given(st.integers(-5, 40), st.integers(0, 40))
def test_closed_form_agrees_with_face_by_face(shields: int, strength: int) -> None:
    by_face = sum(penetrates(r, shields, strength) for r in range(1, 11))
    assert penetrating_faces(shields, strength) == by_face
