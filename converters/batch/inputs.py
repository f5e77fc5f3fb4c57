"""What a batch converts: inputs from files, folders and globs, their safe output names, and collisions."""
from __future__ import annotations

import glob
import os
import re
import stat
import warnings
from dataclasses import dataclass, field
from typing import Any, Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple

from ..core.errors import FormatError
from ..formats.registry import Format, candidates_for_path, formats, get_format

#: status of one input in the results and the manifest
CONVERTED, SKIPPED, FAILED = "converted", "skipped", "failed"

@dataclass(frozen=True)
class Item:
    """One input file and where its outputs go: OUTDIR/<rel><format extension>."""

    index: int
    path: str
    rel: str          # relative output stem: no leading '/', no '..', the input's puzzle extension removed


@dataclass
class Settings:
    """Everything a worker needs to convert an item (sent once per process or per chunk)."""

    outdir: str
    formats: Tuple[str, ...]
    from_: Optional[str] = None
    strict: bool = False
    skip_existing: bool = False
    fsync: bool = False
    hash_outputs: bool = True
    options: Dict[str, Any] = field(default_factory=dict)        # writer options (card_encoding, ...)
    read_options: Dict[str, Any] = field(default_factory=dict)   # reader options (codes, ...), as given
    limits: Optional[Tuple[int, int]] = None   # (--max-bytes, --max-cells) of the run, for every worker
    journal: Optional[str] = None     # hidden file in OUTDIR: one line per finished input, for an interrupt
    stop_file: Optional[str] = None   # its appearance stops Dask workers at the next input
    # the output stems of this run's inputs that end in -<digits>: a collection's puzzle outputs
    # (NAME-3.cnf) must not replace another input's
    taken: FrozenSet[str] = frozenset()
    manifest: Optional[str] = None    # the manifest's real path: a collection's puzzle output must not be it


def resolve_formats(specs: Iterable[str]) -> List[Format]:
    """Output formats from names or extensions ('cnf', '.lp', 'cnf,lp'); FormatError on an unknown one."""
    out: List[Format] = []
    for spec in specs:
        for part in (p.strip() for p in spec.split(",")):
            if not part:
                continue
            if part.startswith("."):
                found = candidates_for_path("x" + part, direction="write")
                if not found:
                    valid = ", ".join(sorted({e for f in formats() if f.writer for e in f.extensions}))
                    raise FormatError(f"no writable format has the extension {part!r}; valid: {valid}")
                fmt = found[0]
            else:
                try:
                    fmt = get_format(part, direction="write")
                except FormatError:
                    found = candidates_for_path("x." + part.lower(), direction="write")
                    if not found:
                        raise
                    fmt = found[0]
            if fmt not in out:
                out.append(fmt)
    if not out:
        raise FormatError("name at least one output format with -t")
    seen: Dict[str, str] = {}
    for fmt in out:
        ext = output_extension(fmt)
        if ext in seen:
            raise FormatError(f"formats {seen[ext]!r} and {fmt.name!r} both write '{ext}' files; "
                              "convert them in separate runs (into different folders)")
        seen[ext] = fmt.name
    return out


def _puzzle_extensions() -> List[str]:
    exts = {e for f in formats("puzzle") if f.reader for e in f.extensions}
    return sorted(exts, key=len, reverse=True)  # compound ('.pred.json') before simple ('.json')


def _strip_extension(rel: str, exts: Sequence[str]) -> str:
    low = rel.lower()
    for ext in exts:
        if low.endswith(ext) and len(rel) > len(ext) and not rel[:-len(ext)].endswith("/"):
            return rel[:-len(ext)]
    return rel


def _safe_rel(rel: str) -> Optional[str]:
    """rel as a normalised relative path inside its base, or None when it is absolute or climbs out."""
    rel = rel.replace(os.sep, "/")
    if os.altsep:
        rel = rel.replace(os.altsep, "/")
    if rel.startswith("/") or os.path.isabs(rel):
        return None
    norm = os.path.normpath(rel).replace(os.sep, "/")
    if norm in (".", "") or norm == ".." or norm.startswith("../"):
        return None
    return norm


def _glob_base(pattern: str) -> str:
    """The leading part of a glob pattern that has no wildcard: matches are named relative to it."""
    parts = pattern.replace(os.sep, "/").split("/")
    fixed = []
    for part in parts[:-1]:
        if glob.has_magic(part):
            break
        fixed.append(part)
    base = "/".join(fixed)
    if pattern.startswith("/") and not base:
        base = "/"
    return base or "."


def _real(path: str, folders: Dict[str, str]) -> str:
    """os.path.realpath(path), resolving each folder once: one lstat per file instead of one per component.

    A path whose last component is not a symbolic link resolves to its folder's real path plus its name.
    """
    head, tail = os.path.split(path)
    if tail in ("", ".", ".."):
        return os.path.realpath(path)
    try:
        link = stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        link = False  # a missing file: realpath keeps the name as it is
    if link:
        return os.path.realpath(path)
    real = folders.get(head)
    if real is None:
        real = folders[head] = os.path.realpath(head or ".")
    return os.path.join(real, tail)


def inside(path: str, folder: str) -> bool:
    """True when the real path `path` is `folder` or lies under it (both already resolved by realpath)."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def collect_inputs(inputs: Sequence[str], outdir: str, *, from_: Optional[str] = None,
                   ) -> Tuple[List[Item], List[Dict[str, Any]]]:
    """Expand files, folders (recursed) and globs into items, and records for inputs that match nothing.

    Folders contribute files with a puzzle extension (every file when the notation is named with from_),
    hidden files and folders excluded, and nothing under OUTDIR. Files named or matched by a glob are
    always taken. Output names follow one rule: an input keeps its path below the last folder the
    argument spells out. A folder's files keep their path inside it (`boards/` -> b/x), a glob's matches
    their path below its fixed prefix (`boards/*/*.txt` -> b/x), a file named on its own its bare name
    (`boards/b/x.txt` -> x), so a file lands in the same place however it is named. A name that would
    climb out of OUTDIR falls back to the bare file name.
    """
    exts = _puzzle_extensions()
    out_real = os.path.realpath(outdir)
    found: List[Tuple[str, str]] = []
    missing: List[Dict[str, Any]] = []
    moved: List[str] = []   # files named with a relative folder: their outputs' place changed (issue 40)
    seen_paths = set()
    folders: Dict[str, str] = {}

    def add(path: str, rel: str) -> None:
        key = _real(path, folders)
        if key in seen_paths:
            return
        seen_paths.add(key)
        safe = _safe_rel(rel)
        if safe is None:
            safe = _safe_rel(os.path.basename(path)) or "input"
        found.append((path, _strip_extension(safe, exts)))

    def wanted(name: str) -> bool:
        return not name.startswith(".") and (from_ is not None or any(name.lower().endswith(e) for e in exts))

    def walk(folder: str, base: str) -> None:
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".")
                                 and not inside(os.path.realpath(os.path.join(dirpath, d)), out_real))
            for name in sorted(filenames):
                if wanted(name):
                    full = os.path.join(dirpath, name)
                    add(full, os.path.relpath(full, base))

    for spec in inputs:
        if os.path.isdir(spec):
            if inside(os.path.realpath(spec), out_real):
                missing.append(_failure(spec, f"{spec}: the input folder is the output folder or inside it "
                                              "(its outputs would become inputs)"))
                continue
            walk(spec, spec)
        elif os.path.lexists(spec):
            add(spec, os.path.basename(spec))
            if not os.path.isabs(spec) and os.path.dirname(os.path.normpath(spec)) not in ("", "."):
                moved.append(spec)
        elif glob.has_magic(spec):
            base = _glob_base(spec)
            matches = sorted(glob.glob(spec, recursive=True))
            if not matches:
                missing.append(_failure(spec, f"{spec}: no file matches this pattern"))
            for m in matches:
                if os.path.isdir(m):
                    if not inside(os.path.realpath(m), out_real):
                        walk(m, base)  # 'sets/*' keeps sets/a/x.txt and sets/b/x.txt apart
                elif not inside(os.path.realpath(m), out_real):
                    add(m, os.path.relpath(m, base))
        else:
            missing.append(_failure(spec, f"{spec}: no such file or folder"))
    if moved:   # the place changed in issue 40 for these: said once a run, with the way back
        _warn_moved(moved)
    items = [Item(i, p, r) for i, (p, r) in enumerate(found)]
    return items, missing


def _warn_moved(moved: List[str]) -> None:
    """Say once that files named with their folder are now placed by their bare name (they kept the path)."""
    others = f" and {len(moved) - 1} other file(s)" if len(moved) > 1 else ""
    warnings.warn(f"{moved[0]}{others}: a file named with its folder now has its outputs named from the file "
                  f"alone (OUTDIR/{os.path.basename(moved[0])}...), as that folder's files are; until now they "
                  "kept the path as given (OUTDIR/" + moved[0].replace(os.sep, "/") + "...): for that place, "
                  "give -o OUTDIR/" + os.path.dirname(os.path.normpath(moved[0])).replace(os.sep, "/"),
                  stacklevel=3)


def output_extension(fmt: Format) -> str:
    """The extension a format's outputs get: its first one, or '.<name>' for a format without any."""
    return fmt.extensions[0] if fmt.extensions else "." + fmt.name


def output_paths(item: Item, settings: Settings) -> List[Tuple[str, str]]:
    """(format name, output path) pairs of an item."""
    return [(name, os.path.join(settings.outdir, item.rel + output_extension(get_format(name))))
            for name in settings.formats]


def find_collisions(items: Sequence[Item], settings: Settings) -> Tuple[List[Item], List[Dict[str, Any]]]:
    """Drop items whose outputs another item already writes (or that would overwrite their own input)."""
    owner: Dict[str, str] = {}
    keep: List[Item] = []
    bad: List[Dict[str, Any]] = []
    folders: Dict[str, str] = {}
    for item in items:
        outs = [p for _, p in output_paths(item, settings)]
        clash = next((p for p in outs if p in owner), None)
        own = _real(item.path, folders)
        if clash is not None:
            bad.append(_failure(item.path, f"{item.path}: its output {clash} is already written from "
                                           f"{owner[clash]} (rename one of them)"))
        elif any(_real(p, folders) == own for p in outs):
            bad.append(_failure(item.path, f"{item.path}: the output would overwrite the input itself"))
        else:
            for p in outs:
                owner[p] = item.path
            keep.append(item)
    return keep, bad


def numbered_stems(items: Sequence[Item]) -> FrozenSet[str]:
    """The output stems ending in -<digits> (what Settings.taken holds)."""
    return frozenset(item.rel for item in items if re.search(r"-[0-9]+$", item.rel))


def _failure(path: str, error: str) -> Dict[str, Any]:
    return {"input": path, "status": FAILED, "outputs": [], "error": error}
