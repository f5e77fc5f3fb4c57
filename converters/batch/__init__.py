"""Batch conversion: many puzzles into several formats, in parallel, resumable, with a manifest.

`inputs` finds what to convert and names the outputs, `units` splits an input into its puzzles (a file that
holds several gives one record and NAME-<n> outputs per puzzle, `mineconv info`'s numbering; a file of one
keeps NAME), `worker` converts one item (in a worker process or on a Dask worker), `runner` drives the run
and writes the manifest. Below, what holds for an input holds for each puzzle of a collection.

Durability: every output is written to a hidden temp file beside its target and renamed over it, so an
interrupted or killed run never leaves a truncated output (Ctrl-C, SIGTERM and SIGHUP also remove the temp
files; only SIGKILL can leave a hidden `.NAME.*.part` temp behind, which a rerun ignores). An input gets all
its outputs or none: they are renamed in together once all are complete, a stop signal waiting until they
are in and the input's record is appended to the run's journal (a hidden `.mineconv-batch-*.journal` in
OUTDIR, removed at the end; only SIGKILL leaves it). An interrupted run reads the journal, so its summary
and manifest list exactly the outputs on disk, whichever worker wrote them (Dask workers, which get no
signal, stop at their next input when the run creates a stop file beside the journal). An output whose
folder, or which itself, is a symbolic link leading out of OUTDIR fails its input before any folder is made. Outputs are not fsynced
one by one unless asked (`fsync=True`, `--fsync`): thousands of fsyncs a second would cost more than the
conversion itself, and the rename is what "no truncated file" needs. What an fsync adds is power-loss
durability: without it the newest outputs of a run may be lost, or on some filesystems appear empty, after
the whole machine crashes; rerun such a batch without --skip-existing (or use --fsync from the start).
"""
from .convert_items import chunked, convert_chunk, format_error
from .inputs import (
                     CONVERTED,
                     FAILED,
                     SKIPPED,
                     Item,
                     Settings,
                     collect_inputs,
                     find_collisions,
                     output_extension,
                     output_paths,
                     resolve_formats,
)
from .runner import BatchResult, default_jobs, run_batch, stderr_is_terminal, write_manifest

__all__ = ["CONVERTED", "FAILED", "SKIPPED", "BatchResult", "Item", "Settings", "chunked", "collect_inputs",
           "convert_chunk", "default_jobs", "find_collisions", "format_error", "output_extension",
           "output_paths", "resolve_formats", "run_batch", "stderr_is_terminal", "write_manifest"]
