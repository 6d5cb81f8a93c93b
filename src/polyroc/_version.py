"""The version of polyroc, in one place (``pyproject.toml`` reads it from here)."""

__version__ = "1.5.0"
