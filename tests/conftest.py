"""Shared pytest fixtures for the whole suite. pytest-django provides ``client`` and ``db``."""
