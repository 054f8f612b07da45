"""The ``artifact-index`` command.

Each sub-command is a thin layer over the library: load, query, render.
Other packages add commands through the ``artifact_index.commands``
entry-point group, the way ``llm`` plugins do: each entry point names a
function that takes the sub-command parsers and adds its own (the
summarizer's ``summary``, ``compact`` and ``probe`` arrive this way, so this
package never imports it).  A plugin's errors subclass
:class:`~artifact_index.exceptions.ArtifactIndexError` to be reported as
one sentence.
Domain errors become one sentence on standard error and exit code 2; an
unexpected error becomes one sentence and exit code 3 (set
``ARTIFACT_INDEX_DEBUG=1`` to see the traceback).  Skipped input is reported
on standard error with its line numbers.  When standard output is closed, or
its reader stops reading (``| head``), the command ends quietly with exit
code 0.

Everything written goes through :func:`emit_json` or :func:`emit_text`,
which redact secrets (:mod:`artifact_index.redaction`); ``--no-redact``
leaves them in for local debugging.  A plugin command writes through the
same two functions.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from typing import Any

from pydantic import ValidationError

from artifact_index import __version__
from artifact_index.exceptions import ArtifactIndexError
from artifact_index.ingestion.adapters import known_formats
from artifact_index.ingestion.loading import Loaded
from artifact_index.presentation.render import (
    decisions_json,
    decisions_table,
    errors_json,
    errors_table,
    files_json,
    files_table,
    history_json,
    history_table,
    show_json,
    show_text,
    symbols_json,
    symbols_table,
    tasks_json,
    tasks_table,
)
from artifact_index.presentation.sessions import add_session_commands
from artifact_index.redaction import redact_json, redact_text, redaction_disabled
from artifact_index.trail.build import build_index
from artifact_index.trail.index import ArtifactIndex

__all__ = [
    "PLUGIN_GROUP",
    "add_transcript_arguments",
    "build_parser",
    "emit_json",
    "emit_text",
    "main",
    "report_skipped",
]

EXIT_USAGE = 2
EXIT_INTERNAL = 3


def report_skipped(loaded: Loaded) -> None:
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


def emit_json(data: Any) -> None:
    """Print ``data`` as JSON on standard output, secrets redacted."""
    sys.stdout.write(json.dumps(redact_json(data), indent=2, ensure_ascii=False) + "\n")


def emit_text(text: str) -> None:
    """Print ``text`` on standard output as it is, secrets redacted."""
    sys.stdout.write(redact_text(text))


def _index(args: argparse.Namespace) -> tuple[ArtifactIndex, Loaded]:
    index, loaded = build_index(args.transcript, args.format)
    report_skipped(loaded)
    return index, loaded


def cmd_files(args: argparse.Namespace) -> int:
    index, loaded = _index(args)
    if args.json:
        emit_json(
            files_json(
                index,
                skipped=len(loaded.skipped),
                changed_only=args.changed,
                workspace_only=args.workspace_only,
            )
        )
    else:
        emit_text(
            files_table(index, all_files=not args.changed, workspace_only=args.workspace_only)
        )
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    index, _ = _index(args)
    if args.json:
        emit_json(history_json(index, args.path))
    else:
        emit_text(
            history_table(args.path, index.history(args.path), net_diff=index.net_diff(args.path))
        )
    return 0


def cmd_symbols(args: argparse.Namespace) -> int:
    index, _ = _index(args)
    if args.json:
        emit_json(symbols_json(index))
    else:
        emit_text(symbols_table(index, changed_only=args.changed))
    return 0


def cmd_decisions(args: argparse.Namespace) -> int:
    index, _ = _index(args)
    if args.json:
        emit_json(decisions_json(index))
    else:
        emit_text(decisions_table(index.decisions()))
    return 0


def cmd_tasks(args: argparse.Namespace) -> int:
    index, _ = _index(args)
    if args.json:
        emit_json(tasks_json(index))
    else:
        emit_text(tasks_table(index.tasks()))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    index, loaded = _index(args)
    if args.json:
        emit_json(show_json(index, skipped=len(loaded.skipped)))
    else:
        emit_text(show_text(index))
    return 0


def cmd_errors(args: argparse.Namespace) -> int:
    index, _ = _index(args)
    if args.json:
        emit_json(errors_json(index))
    else:
        emit_text(errors_table(index))
    return 0


def cmd_refetch(args: argparse.Namespace) -> int:
    from artifact_index.trail.refetch import refetch_report

    index, _ = _index(args)
    report = refetch_report(index)
    again, after = report.rereads_after_compaction
    if args.json:
        emit_json(
            {
                **report.model_dump(),
                "rereads_after_compaction": again,
                "reads_after_compaction": after,
            }
        )
        return 0
    share = f"{report.redundant_reads / report.reads:.0%}" if report.reads else "-"
    lines = [
        f"{report.reads} reads, {report.redundant_reads} redundant ({share}): the file had not changed "
        "since the same agent last read it"
    ]
    for c in report.compactions:
        files = ", ".join(c.files[:8]) + ("…" if len(c.files) > 8 else "")
        lines.append(
            f"compaction at turn {c.turn}: {c.rereads} of {c.reads_after} later reads re-read files read "
            f"before it" + (f" ({files})" if files else "")
        )
    if not report.compactions:
        lines.append("no compaction in this transcript")
    emit_text("".join(line + "\n" for line in lines))
    return 0


def cmd_formats(args: argparse.Namespace) -> int:
    from artifact_index.ingestion.adapters import adapter_named

    for name in known_formats():
        print(f"{name:20} {adapter_named(name).description}")
    return 0


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


PLUGIN_GROUP = "artifact_index.commands"


def _add_plugin_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from importlib.metadata import entry_points

    for entry in sorted(entry_points(group=PLUGIN_GROUP), key=lambda e: e.name):
        register: Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None] = (
            entry.load()
        )
        register(sub)


def build_parser(*, plugins: bool = True) -> argparse.ArgumentParser:
    """The argument parser; ``plugins=False`` leaves out the commands of the entry-point group."""
    parser = argparse.ArgumentParser(
        prog="artifact-index",
        description="The file trail of a coding-agent transcript, computed without an LLM.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "--no-redact",
        action="store_true",
        help="leave secrets in the output (local debugging only; also ARTIFACT_INDEX_NO_REDACT=1)",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    files = sub.add_parser("files", help="files created, modified, deleted, renamed and read")
    add_transcript_arguments(files)
    files.add_argument("--changed", action="store_true", help="hide files that were only read")
    files.add_argument(
        "--workspace-only",
        action="store_true",
        help="hide files outside the workspace root (temporary files, other directories)",
    )
    files.set_defaults(run=cmd_files)

    history = sub.add_parser("history", help="the timeline of one file")
    add_transcript_arguments(history)
    history.add_argument("path", help="the file, as `files` prints it")
    history.set_defaults(run=cmd_history)

    symbols = sub.add_parser("symbols", help="functions, classes and methods each change touched")
    add_transcript_arguments(symbols)
    symbols.add_argument("--changed", action="store_true", help="hide symbols that were only read")
    symbols.set_defaults(run=cmd_symbols)

    decisions = sub.add_parser("decisions", help="candidate decisions stated by the assistant")
    add_transcript_arguments(decisions)
    decisions.set_defaults(run=cmd_decisions)

    tasks = sub.add_parser("tasks", help="the latest task list of the agent's todo / plan tools")
    add_transcript_arguments(tasks)
    tasks.set_defaults(run=cmd_tasks)

    show = sub.add_parser("show", help="a one-screen overview of the whole index")
    add_transcript_arguments(show)
    show.set_defaults(run=cmd_show)

    errors = sub.add_parser(
        "errors", help="the error ledger and the last result of each test command"
    )
    add_transcript_arguments(errors)
    errors.set_defaults(run=cmd_errors)

    refetch = sub.add_parser(
        "refetch",
        help="re-fetch frequency: redundant reads, and re-reads after each "
        "compaction (the quality signal of a summary)",
    )
    add_transcript_arguments(refetch)
    refetch.set_defaults(run=cmd_refetch)

    formats = sub.add_parser("formats", help="list the transcript formats this tool reads")
    formats.set_defaults(run=cmd_formats)
    add_session_commands(sub)
    if plugins:
        _add_plugin_commands(sub)
    return parser


def _is_batch(transcripts: list[str]) -> bool:
    """Several transcripts, or a folder of them (standard input is one transcript, alone)."""
    if len(transcripts) == 1:
        return transcripts[0] != "-" and os.path.isdir(transcripts[0])
    if "-" in transcripts:
        raise ArtifactIndexError(
            "- (standard input) is one transcript; it cannot be read with others"
        )
    return True


_BUILTIN_COMMANDS = frozenset(
    {
        "files",
        "history",
        "symbols",
        "decisions",
        "tasks",
        "show",
        "errors",
        "refetch",
        "formats",
        "store",
        "sessions",
        "where",
        "watch",
    }
)


def _one_line(exc: BaseException) -> str:
    """The message of ``exc`` as one line (a pydantic error names its first problem only)."""
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        return f"invalid {exc.title}: {where + ': ' if where else ''}{first['msg']}{more}"
    return " ".join(str(exc).split())[:1000]


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    for stream in ("stdout", "stderr"):
        if getattr(sys, stream) is None:
            # Started with the stream closed (`>&-`): what would be written there is discarded.
            setattr(sys, stream, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115
    # Finding plugins scans every installed distribution: a built-in command does without.
    parser = build_parser(plugins=not arguments or arguments[0] not in _BUILTIN_COMMANDS)
    args = parser.parse_args(arguments)
    # Called without arguments, this is the process's own command line: a command may end the
    # process when it is done (a hook whose work still runs past its deadline does).
    args.owns_process = argv is None
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        with redaction_disabled() if args.no_redact else nullcontext():
            if isinstance(getattr(args, "transcript", None), list) and getattr(args, "batch", True):
                if _is_batch(args.transcript):
                    from artifact_index.presentation.batch import run_batch

                    return run_batch(args)
                args.transcript = args.transcript[0]
            return run(args)
    except BrokenPipeError:
        # A reader like `head` closed the pipe: not an error of ours.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print("artifact-index: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # the promise is one sentence, never a traceback
        # Messages can quote the input, so they are redacted like any output.
        if isinstance(exc, ArtifactIndexError):
            print(redact_text(f"artifact-index: error: {_one_line(exc)}"), file=sys.stderr)
            return EXIT_USAGE
        if os.environ.get("ARTIFACT_INDEX_DEBUG"):
            raise
        print(
            redact_text(
                f"artifact-index: internal error: {type(exc).__name__}: {_one_line(exc)} "
                "(set ARTIFACT_INDEX_DEBUG=1 for the traceback, and please report it)"
            ),
            file=sys.stderr,
        )
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
