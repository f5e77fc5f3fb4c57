"""The former home of `deprecated_calls`, kept only for analysis/ while it is moved into rooms on another branch.

analysis/propagation.py and analysis/report.py import from here; when that branch lands they import
`core.deprecated_calls` and this module goes (tests/test_names.py lists it with that reason).
"""
from .deprecated_calls import callable_array, callable_list, callable_optional_list

__all__ = ["callable_array", "callable_list", "callable_optional_list"]
