"""The ``artifact-index`` command.

Each sub-command is a thin layer over the library: load, query, render.
Domain errors become one sentence on standard error and exit code 2; an
unexpected error becomes one sentence and exit code 3 (set
``ARTIFACT_INDEX_DEBUG=1`` to see the traceback).  Skipped input is reported
on standard error with its line numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from . import __version__
from .adapters import known_formats
from .errors import ArtifactIndexError
from .index import ArtifactIndex
from .loading import Loaded, build_index
from .render import (
    decisions_table,
    files_json,
    files_table,
    history_table,
    op_json,
    symbols_json,
    symbols_table,
    tasks_table,
)

__all__ = ["main"]

EXIT_USAGE = 2
EXIT_INTERNAL = 3


def _report_skipped(loaded: Loaded) -> None:
    skipped = loaded.skipped
    if not skipped:
        return
    shown = "; ".join(
        (f"line {s.line}: {s.reason}" if s.line is not None else s.reason) for s in skipped[:5]
    )
    more = f"; and {len(skipped) - 5} more" if len(skipped) > 5 else ""
    print(
        f"artifact-index: warning: skipped {len(skipped)} unusable part(s) of {loaded.source.name}: {shown}{more}",
        file=sys.stderr,
    )


def _emit(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def _index(args: argparse.Namespace) -> tuple[ArtifactIndex, Loaded]:
    index, loaded = build_index(args.transcript, args.format)
    _report_skipped(loaded)
    return index, loaded


def cmd_files(args: argparse.Namespace) -> int:
    index, loaded = _index(args)
    if args.json:
        _emit(files_json(index, skipped=len(loaded.skipped)))
    else:
        sys.stdout.write(files_table(index, all_files=not args.changed))
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    index, _ = _index(args)
    ops = index.history(args.path)
    if args.json:
        _emit({"path": args.path, "ops": [op_json(op) for op in ops]})
    else:
        sys.stdout.write(history_table(args.path, ops))
    return 0


def cmd_symbols(args: argparse.Namespace) -> int:
    index, _ = _index(args)
    if args.json:
        _emit(symbols_json(index))
    else:
        sys.stdout.write(symbols_table(index, changed_only=args.changed))
    return 0


def cmd_decisions(args: argparse.Namespace) -> int:
    index, _ = _index(args)
    decisions = index.decisions()
    if args.json:
        _emit({"decisions": decisions})
    else:
        sys.stdout.write(decisions_table(decisions))
    return 0


def cmd_tasks(args: argparse.Namespace) -> int:
    index, _ = _index(args)
    tasks = index.tasks()
    if args.json:
        _emit({"tasks": tasks, "user_messages": index.user_messages()})
    else:
        sys.stdout.write(tasks_table(tasks))
    return 0


def cmd_formats(args: argparse.Namespace) -> int:
    from .adapters import adapter_named

    for name in known_formats():
        print(f"{name:20} {adapter_named(name).description}")
    return 0


def _add_transcript(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("transcript", help="transcript file (.gz allowed) or - for standard input")
    parser.add_argument("--format", metavar="NAME", help="skip detection and read as NAME (see `formats`)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="artifact-index",
        description="The file trail of a coding-agent transcript, computed without an LLM.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    files = sub.add_parser("files", help="files created, modified, deleted, renamed and read")
    _add_transcript(files)
    files.add_argument("--changed", action="store_true", help="hide files that were only read")
    files.set_defaults(run=cmd_files)

    history = sub.add_parser("history", help="the timeline of one file")
    _add_transcript(history)
    history.add_argument("path", help="the file, as `files` prints it")
    history.set_defaults(run=cmd_history)

    symbols = sub.add_parser("symbols", help="functions, classes and methods each change touched")
    _add_transcript(symbols)
    symbols.add_argument("--changed", action="store_true", help="hide symbols that were only read")
    symbols.set_defaults(run=cmd_symbols)

    decisions = sub.add_parser("decisions", help="candidate decisions stated by the assistant")
    _add_transcript(decisions)
    decisions.set_defaults(run=cmd_decisions)

    tasks = sub.add_parser("tasks", help="the latest task list of the agent's todo / plan tools")
    _add_transcript(tasks)
    tasks.set_defaults(run=cmd_tasks)

    formats = sub.add_parser("formats", help="list the transcript formats this tool reads")
    formats.set_defaults(run=cmd_formats)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except ArtifactIndexError as exc:
        print(f"artifact-index: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        # A reader like `head` closed the pipe: not an error of ours.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print("artifact-index: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # the promise is one sentence, never a traceback
        if os.environ.get("ARTIFACT_INDEX_DEBUG"):
            raise
        print(
            f"artifact-index: internal error: {type(exc).__name__}: {exc} "
            "(set ARTIFACT_INDEX_DEBUG=1 for the traceback, and please report it)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
