"""A command of the command line, run on one transcript of many, its output kept for the caller.

:func:`run_command` is the per-file function of a batch run: it runs the
command exactly as for a single transcript, in a worker, and returns what
it printed, or the one sentence saying why it could not.
"""

from __future__ import annotations

import argparse
import copy
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Literal

from artifact_index.batch.capture import capturing
from artifact_index.batch.discovery import Candidate
from artifact_index.exceptions import ArtifactIndexError, BinaryInput, UnknownFormat
from artifact_index.redaction import redaction_disabled

__all__ = ["Outcome", "run_command"]


@dataclass(frozen=True)
class Outcome:
    """What a command did with one transcript."""

    kind: Literal["done", "failed", "not_transcript"]
    stdout: str = ""
    stderr: str = ""
    message: str | None = None  # why it failed, in one sentence


def run_command(candidate: Candidate, args: argparse.Namespace) -> Outcome:
    """Run ``args.run`` with ``args.transcript`` set to ``candidate``'s path."""
    one = copy.copy(args)
    one.transcript = candidate.path
    run: Callable[[argparse.Namespace], int] = one.run
    # A worker is another process: the --no-redact of the command line travels in ``args``.
    unredacted = redaction_disabled() if getattr(one, "no_redact", False) else nullcontext()
    with unredacted, capturing() as printed:
        try:
            status = run(one)
        except (UnknownFormat, BinaryInput) as exc:
            # In a folder, a file that is not a transcript is expected; named, it is a mistake.
            failure: Outcome | None = Outcome(
                "failed" if candidate.named else "not_transcript", message=str(exc)
            )
        except ArtifactIndexError as exc:
            failure = Outcome("failed", message=str(exc))
        except Exception as exc:  # one transcript's bug must not end the others
            failure = Outcome("failed", message=f"internal error: {type(exc).__name__}: {exc}")
        else:
            failure = None if status == 0 else Outcome("failed", message=f"exit status {status}")
    if failure is not None:
        return Outcome(failure.kind, printed.stdout, printed.stderr, failure.message)
    return Outcome("done", printed.stdout, printed.stderr)
