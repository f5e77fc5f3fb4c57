"""pytest configuration: the hypothesis profile for CI, and the `samples` fixture.

Helpers that test modules import live in helpers.py; the names below are re-exported for modules that
still import them from here.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from helpers import FIXTURES, IN_CI, ROOT, SAMPLES, require_module, require_tool  # noqa: F401

# Under CI, property tests run a fixed sequence of examples (a red CI must be reproducible) with no time
# limit per example (CI machines are shared); locally they explore new examples on every run.
settings.register_profile("ci", derandomize=True, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
if IN_CI:
    settings.load_profile("ci")


@pytest.fixture
def samples() -> Path:
    """The samples/ folder."""
    return SAMPLES
