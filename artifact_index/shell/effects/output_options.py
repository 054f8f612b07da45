"""A program the analysis does not model, given an option that names its output file.

``xcrun devicectl list devices --json-output /tmp/devices.json``,
``tool report --output-file out/report.html``: whatever the program is, an
option spelled as an output (``--output``, ``--out``, ``--json-output``,
``--output-file``, ``--outfile``, with ``=`` or a separate value) names the
file it writes.  Precision first:

* only long options whose last word is ``out``/``output`` (optionally
  ``-file``/``-path``): ``--output-dir`` names a directory and
  ``--output-format json`` a format;
* a PowerShell script or cmdlet spells its parameters with one dash and
  any case (``./scripts/Export.ps1 -Out docs/x.md``, ``-OutFile``,
  ``-OutputPath``): the same names count there, and only those whole
  names (``-o`` of a POSIX program is too many other things);
* the value must read as a file: a name with an extension, not ``-``
  (standard output), no ``=`` (``-o Key=value`` settings), not ending in
  ``/``;
* a program that failed claims nothing.
"""

from __future__ import annotations

import posixpath
import re

from artifact_index.ingestion.events import FileOperation
from artifact_index.shell.invocation import Invocation

__all__ = ["output_option_writes"]

_OUTPUT_OPTION = re.compile(r"^--(?:[a-z0-9]+-)*(?:output|out)(?:-?file|-path)?$")
_OUTPUT_PARAMETER = re.compile(r"^-(?:output|out)(?:file|path)?$", re.IGNORECASE)


def _reads_as_file(value: str | None) -> bool:
    if not value or value == "-" or value.startswith("-") or "=" in value or value.endswith("/"):
        return False
    stem, extension = posixpath.splitext(posixpath.basename(value))
    return bool(stem) and len(extension) > 1


def output_option_writes(inv: Invocation) -> list[FileOperation]:
    """The files an unmodelled program's output options name, as writes."""
    if inv.failed:
        return []
    args = [a.value for a in inv.args[1:]]
    ops: list[FileOperation] = []
    for k, arg in enumerate(args):
        if arg is None or not arg.startswith("-"):
            continue
        name, eq, attached = arg.partition("=") if arg.startswith("--") else arg.partition(":")
        if not (_OUTPUT_OPTION.match(name) or _OUTPUT_PARAMETER.match(name)):
            continue
        value = attached if eq else (args[k + 1] if k + 1 < len(args) else None)
        if not _reads_as_file(value):
            continue
        assert value is not None
        placed = inv.place(value)
        if placed is not None:
            ops.append(inv.op("write", placed, detail=f"{inv.program} {name} writes it"))
    return ops
