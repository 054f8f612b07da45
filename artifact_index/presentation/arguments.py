"""How a command is declared, and the arguments every command that reads transcripts shares.

Its own module so that each command group (``files`` and the queries, the
session store's commands, the summarizer's and the integrations') declares
its commands without importing the command line that assembles the groups.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

__all__ = ["add_command", "add_transcript_arguments"]


def _format_name(value: str) -> str:
    """``--format``'s value, checked when the command line is read (a usage error, not a data error)."""
    # Imported here: declaring the option must not import every adapter (``--help`` does without).
    from artifact_index.ingestion.adapters import known_formats

    if value not in known_formats():
        raise argparse.ArgumentTypeError(
            f"unknown format {value!r} (`artifact-index formats` lists them)"
        )
    return value


def add_transcript_arguments(parser: argparse.ArgumentParser, *, json_option: bool = True) -> None:
    """The transcript argument every indexing command shares, with the options of a batch run."""
    parser.add_argument(
        "transcript",
        nargs="+",
        metavar="TRANSCRIPT",
        help="transcript file (.gz allowed), - for standard input, or several, or folders "
        "(searched recursively)" + (" (one JSON line each with --json)" if json_option else ""),
    )
    parser.add_argument(
        "--format",
        metavar="NAME",
        type=_format_name,
        help="skip detection and read as NAME (see `formats`)",
    )
    if json_option:
        parser.add_argument(
            "--json", action="store_true", help="print JSON (one line per transcript)"
        )
    batch = parser.add_argument_group("several transcripts")
    batch.add_argument(
        "--jobs", type=_positive, metavar="N", help="worker processes (default: one per core)"
    )
    batch.add_argument(
        "--dask",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="run on a Dask cluster: the scheduler at ADDRESS, or a local one "
        "(needs the dask extra, see docs/install.md)",
    )


def _positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {number}")
    return number


def add_command(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    *,
    summary: str,
    description: str,
    examples: Sequence[str],
) -> argparse.ArgumentParser:
    """A sub-command whose ``--help`` says what it does and shows how it is run.

    ``summary`` is its line in ``artifact-index --help``; ``description`` opens
    its own help; ``examples`` are whole command lines, each followed by
    what it does after ``#``.
    """
    shown = "\n".join(f"  {example}" for example in examples)
    return sub.add_parser(
        name,
        help=summary,
        description=description,
        epilog=f"examples:\n{shown}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
