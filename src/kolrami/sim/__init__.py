"""Simulation and calculation: exact odds, the exact static duel, and assessments (many seeded
battles on local processes or Ray, win rates, ratings, fair values, the report)."""
