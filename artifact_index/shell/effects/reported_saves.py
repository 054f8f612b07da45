"""A program the analysis does not know, whose report names a file of its command line as saved.

Browser drivers, screenshot tools, exporters and project CLIs write files
the analysis cannot foresee from the program's name (``$B screenshot
"$DIR/shot.png"``).  Many say so: ``Screenshot saved: /tmp/x/shot.png``,
``Saved to out.csv``, ``Wrote report.html``.  Such a line is evidence that
this call wrote the file.

Decisions, precision first:

* Only a path the command line itself names counts: an operand, or the
  value of an option (``--out=F``), once expanded and placed.  A path the
  report names that the command did not is another program's business.
* The report line must say the file was saved, written, created, exported
  or generated, and name the path right after that verb (``saved: P``,
  ``saved (clip ...): P``, ``Wrote P``, ``Saved to P``), as written or
  placed (absolute).  A line that only mentions the path (``Loading
  x.png``, ``Generated types for schema.graphql``) proves nothing.
* ``.``, a directory, or a bare word (a subcommand) is no file.
* A program that failed claims nothing; one of several commands that
  printed into one output is judged by the lines naming its own operands.
"""

from __future__ import annotations

import re

from artifact_index.ingestion.events import FileOperation
from artifact_index.lazy_pattern import lazy_pattern
from artifact_index.shell.invocation import Invocation, Runtime

__all__ = ["reported_saves"]

# A verb of writing before the path on the same line: `Screenshot saved (clip ...): PATH`,
# `Saved to PATH`, `Wrote PATH`, `Exported 3 rows to PATH`, `PDF written: PATH`.
_SAVED = lazy_pattern(
    r"\b(?:saved|wrote|written|created|exported|generated|rendered|downloaded)\b",
    re.IGNORECASE,
)
# What may stand between the verb and the path: `saved (clip 0,0,10,10): `, `wrote file `,
# `saved to `, `written -> `.  `Generated types for schema.graphql` names an input, not an output.
_GAP = lazy_pattern(
    r"(?:\s*\([^()]*\))?\s*(?:(?:new\s+)?(?:file|image|screenshot|output|report)\s+)?"
    # `Wrote 46 package entries to PATH`: a count of what it wrote, then where.
    r"(?:\d[\d,]*\s+(?:[\w-]+\s+){0,3}(?=(?:to|into|->|=>)\s))?"
    r"(?:(?::|to|as|into|at|in|->|=>)\s*)?[`'\"]?",
    re.IGNORECASE,
)
_MAX_OUTPUT = 200_000


def _candidates(inv: Invocation, runtime: Runtime) -> list[tuple[str, str]]:
    """(as written, placed) for each argument of the command that may name a file."""
    found: list[tuple[str, str]] = []
    for arg in inv.args[1:]:
        value = arg.value
        if value is None or arg.glob:
            continue
        if value.startswith("--") and "=" in value:
            value = value.split("=", 1)[1]
        elif value.startswith("-"):
            continue
        if ("/" not in value and "." not in value) or value.strip("./") == "":
            continue  # a subcommand or a word, not a file
        placed = inv.place(value)
        if (
            placed is not None
            and not value.endswith("/")
            and runtime.files.is_directory(placed) is not True
        ):
            found.append((value, placed))
    return found


def reported_saves(inv: Invocation, runtime: Runtime) -> list[FileOperation]:
    """Writes of the files of ``inv``'s command line that the output says were saved."""
    output = runtime.output
    if inv.failed or not output or len(output) > _MAX_OUTPUT or not _SAVED.search(output):
        return []
    lines = [line for line in output.splitlines() if _SAVED.search(line)]
    ops: list[FileOperation] = []
    for written, placed in _candidates(inv, runtime):
        for line in lines:
            if _names(line, placed) or (written != placed and _names(line, written)):
                ops.append(inv.op("write", placed, detail="its output says it saved the file"))
                break
    return ops


def _names(line: str, path: str) -> bool:
    """Whether ``line`` names ``path`` after its verb of writing, as a whole path."""
    for verb in _SAVED.finditer(line):
        gap = _GAP.match(line, verb.end())
        at = gap.end() if gap is not None else verb.end()
        if not line.startswith(path, at):
            continue
        end = at + len(path)
        after = line[end] if end < len(line) else " "
        if after.isspace() or after in "'\"`),;":
            return True
    return False
