"""The built-in formats' names, aliases, extensions, kind, binary-ness and reader options have one home, the
catalogue in formats/signatures.py (NOTATIONS, MODELS; issue 39): each module's register_format names its format
and gives none of them again, no other module holds a table of them, and the views derived from the catalogue
(SIGNATURES, MODEL_MODULES, MODEL_EXTENSIONS) say what the registered formats say."""
from __future__ import annotations

import ast

import pytest

from mineconv.core.errors import InputError
from mineconv.formats.registry import formats, get_format, register_format
from mineconv.formats.signatures import BUILTIN, MODEL_EXTENSIONS, MODEL_MODULES, MODELS, NOTATIONS, SIGNATURES
from tests.conftest import ROOT

HOME = "formats/signatures.py (NOTATIONS, MODELS)"
SOURCE = ROOT / "converters"
FACTS = ("extensions", "kind", "aliases", "binary")   # what a built-in's register_format may not give


def registrations():
    """(folder, module, call) of every register_format call in formats/notations and formats/models."""
    for folder in ("notations", "models"):
        for path in sorted((SOURCE / "formats" / folder).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "register_format":
                    yield folder, path.stem, node


def test_each_register_format_call_names_a_catalogued_format_and_gives_none_of_its_facts():
    rows = {"notations": {b.name: b for b in NOTATIONS}, "models": {b.name: b for b in MODELS}}
    seen = []
    for folder, module, call in registrations():
        name = call.args[0].value if call.args and isinstance(call.args[0], ast.Constant) else None
        assert name in rows[folder], f"{folder}/{module}.py registers {name!r}, which has no row in {HOME}"
        assert rows[folder][name].module == module, f"{name!r}: its row in {HOME} names another module"
        again = [k.arg for k in call.keywords if k.arg in FACTS] + list(FACTS[:len(call.args) - 1])
        assert not again, f"{folder}/{module}.py gives {name!r}'s {', '.join(again)} again: their home is {HOME}"
        seen.append(name)
    assert sorted(seen) == sorted(b.name for b in NOTATIONS + MODELS), f"a row of {HOME} that no module registers"


def test_no_other_module_holds_a_table_of_format_names_or_extensions():
    words = {w for b in NOTATIONS + MODELS for w in (b.name, *b.aliases, *b.extensions)}
    copies = []
    for path in sorted(SOURCE.rglob("*.py")):
        if path.name == "signatures.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            items = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", [])
            hits = [i.value for i in items if isinstance(i, ast.Constant) and i.value in words]
            if len(hits) >= 3:
                copies.append(f"{path.relative_to(SOURCE)}:{node.lineno} {hits}")
    assert copies == [], f"a second copy of the formats' names or extensions; derive it from {HOME}: {copies}"


def test_every_registered_format_says_what_its_row_says():
    for f in formats("puzzle") + formats("model"):
        kind, row = BUILTIN[f.name]
        module = (f.reader or f.writer).__module__.rsplit(".", 1)[-1]   # type: ignore[union-attr]
        assert (f.kind, module, f.aliases, f.extensions, f.binary) == (kind, row.module, row.aliases,
                                                                          row.extensions, row.binary), f.name
        assert sorted(f.read_options) == sorted(row.read_options), f.name
    assert {f.name for f in formats("puzzle") + formats("model")} == set(BUILTIN)


def test_the_derived_views_agree_with_the_registered_formats():
    models = formats("model")
    assert MODEL_MODULES == {n: f.writer.__module__.rsplit(".", 1)[-1]   # type: ignore[union-attr]
                             for f in models for n in (f.name, *f.aliases)}
    assert MODEL_EXTENSIONS == {e: tuple(dict.fromkeys(f.writer.__module__.rsplit(".", 1)[-1]   # type: ignore
                                                       for f in models if e in f.extensions))
                                for f0 in models for e in f0.extensions}
    for module, sig in SIGNATURES.items():
        fmts = [f for f in formats("puzzle") if f.reader.__module__.endswith("." + module)]   # type: ignore
        assert sorted(sig.names) == sorted(n for f in fmts for n in (f.name, *f.aliases)), module
        assert sorted(sig.extensions) == sorted({e for f in fmts for e in f.extensions}), module


def _reader(text, source="<string>"):
    raise AssertionError("never called")


_reader.__module__ = "mineconv.formats.notations.dots"   # as the dots module's own reader would be


@pytest.mark.parametrize("given", [{"extensions": [".dots"]}, {"kind": "puzzle"}, {"aliases": ("gecode",)},
                                   {"binary": False}])
def test_a_builtin_registering_its_facts_again_is_refused_naming_the_home(given):
    before = get_format("dots")
    with pytest.raises(InputError, match="formats/signatures.py"):
        register_format("dots", reader=_reader, **given)
    assert get_format("dots") is before


def test_a_builtin_declaring_other_reader_options_than_its_row_is_refused():
    before = get_format("dots")
    with pytest.raises(InputError, match=r"reader options \['blank'\].*formats/signatures.py \[\]"):
        register_format("dots", reader=_reader, read_options={"blank": "x"})
    assert get_format("dots") is before
