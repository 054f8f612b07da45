"""What every command prints through: JSON lines and text, secrets redacted, tables as wide as the terminal.

Every ``--json`` output is JSON Lines: one object per line, ``schema_version``
first; a command about a transcript adds the ``transcript`` it read, so one
transcript and many give objects of one shape.  A plugin command prints
through the same functions.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from artifact_index.ingestion.loading import Loaded

# The redaction rules (and the dataclasses and hashing they are built with) are imported by the
# functions that print: building the command line, which `--help` is all of, prints nothing here.

__all__ = [
    "SCHEMA_VERSION",
    "emit_json",
    "emit_text",
    "emit_transcript_json",
    "report_skipped",
    "terminal_width",
]

# The shape of every JSON output; raised when a key changes meaning or goes away, not when one is added.
SCHEMA_VERSION = 1


def report_skipped(loaded: Loaded) -> None:
    """One warning on standard error naming the parts of the transcript that could not be used."""
    from artifact_index.redaction import redact_text

    skipped = loaded.skipped
    if not skipped:
        return
    shown = "; ".join(
        (f"line {s.line}: {s.reason}" if s.line is not None else s.reason) for s in skipped[:5]
    )
    more = f"; and {len(skipped) - 5} more" if len(skipped) > 5 else ""
    print(
        redact_text(
            f"artifact-index: warning: skipped {len(skipped)} unusable part(s) of {loaded.source.name}: "
            f"{shown}{more}"
        ),
        file=sys.stderr,
    )


def emit_json(data: Mapping[str, object]) -> None:
    """Print ``data`` as one line of JSON, ``schema_version`` first, secrets redacted."""
    from artifact_index.redaction import redact_json

    document = {"schema_version": SCHEMA_VERSION, **data}
    sys.stdout.write(json.dumps(redact_json(document), ensure_ascii=False) + "\n")


def emit_transcript_json(args: argparse.Namespace, data: Mapping[str, object]) -> None:
    """:func:`emit_json` for a command about one transcript: ``transcript`` says which."""
    emit_json({"transcript": args.transcript, **data})


def emit_text(text: str) -> None:
    """Print ``text`` on standard output as it is, secrets redacted."""
    from artifact_index.redaction import redact_text

    sys.stdout.write(redact_text(text))


def terminal_width(args: argparse.Namespace) -> int | None:
    """How wide a table may be on the terminal standard output is (``$COLUMNS`` if set, else its own).

    None, so nothing is shortened, with ``--wide`` or when the output goes
    into a pipe or a file, which a program may read whole.
    """
    if getattr(args, "wide", False) or not sys.stdout.isatty():
        return None
    return shutil.get_terminal_size().columns
