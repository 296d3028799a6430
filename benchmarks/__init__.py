"""Kolrami's benchmark suite: `make bench` (python -m benchmarks) prints the figures as JSON."""
