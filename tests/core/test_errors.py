"""The error rule: every error mineconv raises is a MineconvError and also a ValueError (bad input), a
RuntimeError (a solver or the machine failed) or an OSError (a file could not be opened, or is a folder).

Read from the source: every `raise` and every construction of a package error class in every module.
"""
from __future__ import annotations

import argparse
import ast
import importlib
import inspect
from pathlib import Path

import pytest

import mineconv
from mineconv.core import errors
from mineconv.core.errors import (
    FileAccessError,
    InputError,
    InputNotFoundError,
    MineconvError,
    ResourceError,
)
from mineconv.core.fileio import atomic_output

SOURCE = Path(mineconv.__file__).resolve().parent
KINDS = (ValueError, RuntimeError, OSError)

# Raised on purpose, and not errors of the kind the rule is about:
NOT_ERRORS = (
    KeyboardInterrupt,            # Ctrl-C and errors.Terminated (SIGTERM, SIGHUP) unwinding a run
    SystemExit,                   # a pool worker ending on a stop signal
    TypeError,                    # a caller passed the wrong Python type: a bug in the caller, not input
    IndexError,                   # Puzzle[r, c] outside the grid: the subscript protocol
    argparse.ArgumentTypeError,   # argparse's own protocol: it prints the usage line and exits 2
)


def follows_the_rule(cls: type) -> bool:
    return issubclass(cls, MineconvError) and cls is not MineconvError and issubclass(cls, KINDS)


def modules():
    for path in sorted(SOURCE.rglob("*.py")):
        parts = list(path.relative_to(SOURCE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts == ["__main__"]:
            continue
        yield ".".join(["mineconv"] + parts), path


def resolve(node: ast.expr, namespace: dict):
    """The object a Name or dotted Attribute names in the module's namespace, else None (a local)."""
    if isinstance(node, ast.Name):
        return namespace.get(node.id)
    if isinstance(node, ast.Attribute):
        base = resolve(node.value, namespace)
        return getattr(base, node.attr, None) if base is not None else None
    return None


def caught_names(tree: ast.AST) -> set:
    names = set()
    for handler in ast.walk(tree):
        if isinstance(handler, ast.ExceptHandler) and handler.type is not None:
            types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
            names |= {t.id for t in types if isinstance(t, ast.Name)}
    return names


def broken_raises():
    """(module:line, class name, why) for each raise or error construction that breaks the rule."""
    broken = []
    trees = {name: ast.parse(path.read_text("utf-8"), str(path)) for name, path in modules()}
    caught_in_room = {}   # a room (package) catches what any of its modules catches
    for name, tree in trees.items():
        caught_in_room.setdefault(name.rpartition(".")[0], set()).update(caught_names(tree))
    for name, tree in trees.items():
        namespace = vars(importlib.import_module(name))
        caught = caught_in_room[name.rpartition(".")[0]]
        raised = {id(n.exc) for n in ast.walk(tree) if isinstance(n, ast.Raise)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and node.exc is not None:
                target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            elif isinstance(node, ast.Call) and id(node) not in raised:
                target = node.func  # an error built here and raised elsewhere (a helper's `return Error(...)`)
            else:
                continue
            cls = resolve(target, namespace)
            if not (inspect.isclass(cls) and issubclass(cls, BaseException)):
                continue  # a function, a local variable (`raise exc`): its own construction is checked
            where = f"{name}:{node.lineno}"
            if issubclass(cls, MineconvError):
                if not follows_the_rule(cls):
                    broken.append((where, cls.__name__, "a MineconvError that is none of ValueError, "
                                   "RuntimeError, OSError (or MineconvError itself)"))
            elif not isinstance(node, ast.Raise) or issubclass(cls, NOT_ERRORS):
                continue
            elif cls.__module__.startswith("mineconv.") and cls.__name__ in caught:
                continue  # a signal raised and caught inside its room (Contradiction in levels/ and explain/)
            else:
                broken.append((where, cls.__name__, "not a MineconvError"))
    return broken


def test_every_raise_in_the_package_follows_the_rule():
    assert broken_raises() == []


def test_every_public_error_class_follows_the_rule():
    classes = [obj for key, obj in vars(errors).items()
               if not key.startswith("_") and inspect.isclass(obj) and issubclass(obj, Exception)
               and not issubclass(obj, Warning) and obj is not MineconvError]
    assert len(classes) >= 10
    assert [c.__name__ for c in classes if not follows_the_rule(c)] == []


def test_the_rule_checker_sees_a_breach(tmp_path):
    # the checker itself: a bare MineconvError, a builtin ValueError and a class that is only a MineconvError
    class OnlyMine(MineconvError):
        pass
    tree = ast.parse("raise MineconvError('x')\nraise ValueError('y')\nraise OnlyMine('z')\nraise InputError('w')\n")
    namespace = {"MineconvError": MineconvError, "ValueError": ValueError, "OnlyMine": OnlyMine,
                 "InputError": InputError}
    bad = [resolve(n.exc.func, namespace) for n in ast.walk(tree) if isinstance(n, ast.Raise)]
    assert [follows_the_rule(c) for c in bad] == [False, False, False, True]


def test_mineconv_error_is_only_a_base_class():
    with pytest.raises(TypeError, match="only a base class"):
        MineconvError("no kind")
    for cls, kind in ((InputError, ValueError), (ResourceError, RuntimeError), (FileAccessError, OSError),
                      (InputNotFoundError, FileNotFoundError)):
        exc = cls("message", source="f.txt", line=3)
        assert isinstance(exc, MineconvError) and isinstance(exc, kind)
        assert str(exc) == "f.txt:3: message"  # MineconvError's located text, not OSError's [Errno] form


def test_reading_a_folder_is_an_os_error_and_a_mineconv_error(tmp_path):
    with pytest.raises(OSError) as caught:
        mineconv.read(tmp_path)
    assert isinstance(caught.value, MineconvError)
    assert caught.value.message == "is a folder, not a file"


def test_writing_over_a_folder_is_an_os_error(tmp_path):
    with pytest.raises(FileAccessError, match="is a folder, not a file"):
        with atomic_output(tmp_path):
            pass


def test_an_error_inside_an_output_block_keeps_its_own_message(tmp_path):
    # A FileAccessError is an OSError too: atomic_output must not take it for a failed write of its own file
    # and report it again as "cannot write" under the outer file's name (a batch writes several outputs, each
    # one's atomic_output nested in the previous one's)
    inner = FileAccessError("is a folder, not a file", source=str(tmp_path / "inner"))
    for target in (tmp_path / "out.txt", "-"):
        with pytest.raises(FileAccessError) as caught:
            with atomic_output(target):
                raise inner
        assert caught.value is inner
        assert str(caught.value) == f"{tmp_path / 'inner'}: is a folder, not a file"
    assert not (tmp_path / "out.txt").exists()
