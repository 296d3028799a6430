"""Simulation and calculation: exact odds now; batch runs and assessment later."""
