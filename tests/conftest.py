"""Shared test helpers: sample paths, shared fixtures, and the external-solver gate."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
# ../shared/ sits beside the repository (on developers' machines and in CI)
SHARED = ROOT.parent / "shared"
FIXTURES = SHARED / "fixtures"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

# Under CI, property tests run a fixed sequence of examples (a red CI must be reproducible) with no time
# limit per example (CI machines are shared); locally they explore new examples on every run.
settings.register_profile("ci", derandomize=True, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
if IN_CI:
    settings.load_profile("ci")


def require_tool(name: str) -> str:
    """Path of an external program; skips locally with the reason, fails under CI=true."""
    path = shutil.which(name)
    if path is None:
        msg = f"external solver {name!r} is not installed (.ci/run installs it)"
        if IN_CI:
            pytest.fail(msg + " -- under CI=true a missing solver is a failure")
        pytest.skip(msg)
    return path


def require_module(name: str):
    """Import a Python module; skips locally with the reason, fails under CI=true."""
    try:
        return __import__(name)
    except ImportError:
        msg = f"Python module {name!r} is not installed (pip install -e .[test])"
        if IN_CI:
            pytest.fail(msg + " -- under CI=true this is a failure")
        pytest.skip(msg)


def require_fixtures() -> Path:
    """The shared solver-output fixtures folder; skips locally, fails under CI=true, when absent."""
    if not FIXTURES.is_dir():
        msg = f"shared fixtures not found at {FIXTURES}"
        if IN_CI:
            pytest.fail(msg)
        pytest.skip(msg)
    return FIXTURES


@pytest.fixture
def samples() -> Path:
    """The samples/ folder."""
    return SAMPLES
