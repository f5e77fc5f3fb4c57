"""Where batch writes: one rule for folders, globs and files (issue 40.10).

An input keeps its path below the last folder its argument spells out, so a file lands in the same place
however it is named; a file named with its folder (which kept the path as given before) warns once.
"""
from __future__ import annotations

import warnings

import pytest

from mineconv.batch.inputs import collect_inputs
from tests.conftest import SAMPLES
from tests.helpers import run_cli


@pytest.fixture
def tree(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "boards" / "a").mkdir(parents=True)
    seed = (SAMPLES / "seed-3x3.txt").read_text()
    for rel in ("boards/top.txt", "boards/a/x.txt"):
        (tmp_path / rel).write_text(seed)
    return tmp_path


def _rels(*specs: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        items, missing = collect_inputs(list(specs), "out")
    assert missing == []
    return [i.rel for i in items]


def test_a_file_lands_in_the_same_place_however_it_is_named(tree):
    by_folder = dict(zip(["boards/a/x.txt", "boards/top.txt"], _rels("boards")[::-1]))
    assert by_folder == {"boards/a/x.txt": "a/x", "boards/top.txt": "top"}
    assert _rels("boards/*/*.txt") == ["a/x"]                 # below the glob's fixed prefix
    assert _rels("boards/**/*.txt") == ["a/x", "top"]
    assert _rels("boards/a") == ["x"]                         # the folder x sits in
    assert _rels("boards/a/x.txt") == ["x"]                   # the file on its own: the same as its folder gives
    assert _rels(str(tree / "boards" / "a" / "x.txt")) == ["x"]
    assert _rels("./boards/../boards/a/x.txt") == ["x"]


def test_a_file_named_with_its_folder_warns_once_with_the_old_place(tree):
    with pytest.warns(UserWarning) as seen:
        collect_inputs(["boards/a/x.txt", "boards/top.txt"], "out")
    (w,) = [w for w in seen if "named with its folder" in str(w.message)]
    assert "boards/a/x.txt and 1 other file(s)" in str(w.message)
    assert "-o OUTDIR/boards/a" in str(w.message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # a bare name or a folder: nothing changed, nothing said
        collect_inputs(["boards", "boards/*/*.txt"], "out")


def test_the_cli_writes_where_the_rule_says(tree, capsys):
    rc, _, err = run_cli(capsys, "batch", "boards/a/x.txt", "-o", "out1", "-t", "cnf")
    assert rc == 0 and (tree / "out1" / "x.cnf").is_file()
    assert "warning" in err and "named with its folder" in err
    rc, _, err = run_cli(capsys, "batch", "boards", "-o", "out2", "-t", "cnf")
    assert rc == 0 and sorted(p.relative_to(tree / "out2").as_posix() for p in (tree / "out2").rglob("*.cnf")) \
        == ["a/x.cnf", "top.cnf"]
    assert "named with its folder" not in err
    # two files of one name from two folders: the second fails and says so
    (tree / "boards" / "x.txt").write_text((tree / "boards" / "top.txt").read_text())
    rc, _, err = run_cli(capsys, "batch", "boards/a/x.txt", "boards/x.txt", "-o", "out3", "-t", "cnf")
    assert rc == 1 and "is already written from boards/a/x.txt (rename one of them)" in err
