"""pyrules: exact dice rules for four tabletop role-playing resolution systems."""

__version__ = "0.1.0"
