"""The arguments every command that reads transcripts shares.

Its own module so that each command group (``files`` and the queries, the
session store's commands, the summarizer's) adds them without importing
the command line that assembles the groups.
"""

from __future__ import annotations

import argparse

__all__ = ["add_transcript_arguments"]


def add_transcript_arguments(parser: argparse.ArgumentParser, *, json_option: bool = True) -> None:
    """The transcript argument every indexing command shares, with the options of a batch run."""
    parser.add_argument(
        "transcript",
        nargs="+",
        metavar="TRANSCRIPT",
        help="transcript file (.gz allowed), - for standard input, or several, or folders "
        "(searched recursively; JSON Lines with --json)",
    )
    parser.add_argument(
        "--format", metavar="NAME", help="skip detection and read as NAME (see `formats`)"
    )
    if json_option:
        parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    batch = parser.add_argument_group("several transcripts")
    batch.add_argument(
        "--jobs", type=int, metavar="N", help="worker processes (default: one per core)"
    )
    batch.add_argument(
        "--dask",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="run on a Dask cluster: the scheduler at ADDRESS, or a local one "
        "(needs artifact-index[dask])",
    )
