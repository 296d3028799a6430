"""Kolrami: Star Trek fleet battles on the tabletop and in simulation."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("kolrami")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0"

__all__ = ["__version__"]
