"""The ``artifact-index`` command.

Each sub-command is a thin layer over the library: load, query, render.
Other packages add commands through the ``artifact_index.commands``
entry-point group, the way ``llm`` plugins do: each entry point names a
function that takes the sub-command parsers and adds its own (the
summarizer's ``summary``, ``compact`` and ``probe`` arrive this way, so this
package never imports it).  A plugin's errors subclass
:class:`~artifact_index.exceptions.ArtifactIndexError` to be reported as
one sentence.
Exit codes: 0 done; 1 the input could not be used (an unreadable or unknown
transcript, a transcript of several that failed, a store or settings file
that cannot be read), one sentence on standard error; 2 the command line is
wrong (an unknown option, a missing argument, a value out of range: argparse
prints the sub-command's usage, :class:`~artifact_index.exceptions.UsageError`
one sentence); 3 an unexpected error, one sentence (set
``ARTIFACT_INDEX_DEBUG=1`` to see the traceback); 130 interrupted.  Skipped
input is reported on standard error with its line numbers.  When standard
output is closed, or its reader stops reading (``| head``), the command ends
quietly with exit code 0.

Options that hold for every command (``--no-redact``) are accepted before or
after the sub-command.

Everything written goes through :func:`emit_json` or :func:`emit_text`
(:mod:`artifact_index.presentation.output`), which redact secrets
(:mod:`artifact_index.redaction`); ``--no-redact`` leaves them in for local
debugging.  A plugin command writes through the same functions.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from importlib import import_module
from typing import TYPE_CHECKING, Any

from artifact_index import __version__
from artifact_index.exceptions import ArtifactIndexError, UnknownFormat, UsageError, one_line
from artifact_index.presentation.arguments import add_command, add_transcript_arguments
from artifact_index.presentation.output import (
    SCHEMA_VERSION,
    emit_json,
    emit_text,
    emit_transcript_json,
    report_skipped,
    terminal_width,
)
from artifact_index.presentation.sessions import add_session_commands

if TYPE_CHECKING:
    from artifact_index.ingestion.loading import Loaded
    from artifact_index.trail.index import ArtifactIndex

# The engine and the renderers are imported by the commands that use them (below), not here:
# building the command line must not cost a plugin's command (``hook``) or ``--help`` the
# import of every renderer.

__all__ = [
    "EXIT_DATA",
    "EXIT_INTERNAL",
    "EXIT_USAGE",
    "PLUGIN_GROUP",
    "SCHEMA_VERSION",
    "add_command",
    "add_transcript_arguments",
    "build_parser",
    "emit_json",
    "emit_text",
    "emit_transcript_json",
    "import_index_commands_modules",
    "main",
    "report_skipped",
    "terminal_width",
]

EXIT_DATA = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3


def import_index_commands_modules() -> None:
    """The modules every index query runs on: the engine, every adapter (detection asks each), the renderers."""
    from artifact_index.ingestion.adapters import known_formats

    for module in ("artifact_index.trail.build", "artifact_index.presentation.render"):
        import_module(module)
    known_formats()  # each adapter registers itself as its module is imported


def _import_for_command(args: argparse.Namespace) -> None:
    """Import what the command runs on (its ``imports`` default) with the cycle collector held off.

    A command imports its engine and renderers when it runs, not with the
    command line (``--help`` does without them), so the console script's
    import with the collector off (:mod:`~artifact_index.presentation.command`)
    does not cover them: their few hundred modules set off about eighty
    collections that find nothing to free, a tenth of a hook's start-up.  A
    command names them in its defaults (``imports``: a function that imports
    them); when the process is the command's own, what they built is frozen
    (:func:`gc.freeze`) so the collections of the command's own work do not
    walk it again.
    """
    imports: Callable[[], None] | None = getattr(args, "imports", None)
    collecting = gc.isenabled()
    gc.disable()
    try:
        # Every command prints through the redaction; building the command line (all of
        # `--help`) prints nothing through it, so it is imported here, not with the parser.
        import_module("artifact_index.redaction")
        if imports is not None:
            imports()
    finally:
        if args.owns_process:
            from artifact_index.trail.collection import freeze_for_process

            freeze_for_process()
        if collecting:
            gc.enable()


def _index(args: argparse.Namespace) -> tuple[ArtifactIndex, Loaded]:
    from artifact_index.trail.build import build_index

    index, loaded = build_index(args.transcript, args.format)
    report_skipped(loaded)
    return index, loaded


def cmd_files(args: argparse.Namespace) -> int:
    from artifact_index.presentation.render import files_json, files_table

    index, loaded = _index(args)
    if args.json:
        emit_transcript_json(
            args,
            files_json(
                index,
                skipped=len(loaded.skipped),
                changed_only=args.changed,
                workspace_only=args.workspace_only,
            ),
        )
    else:
        emit_text(
            files_table(
                index,
                all_files=not args.changed,
                workspace_only=args.workspace_only,
                width=terminal_width(args),
            )
        )
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    from artifact_index.presentation.render import history_json, history_table

    index, _ = _index(args)
    path = index.find_path(args.path) or args.path
    if args.json:
        emit_transcript_json(args, history_json(index, path))
    else:
        emit_text(history_table(path, index.history(path), net_diff=index.net_diff(path)))
    return 0


def cmd_symbols(args: argparse.Namespace) -> int:
    from artifact_index.presentation.render import symbols_json, symbols_table

    index, _ = _index(args)
    if args.json:
        emit_transcript_json(args, symbols_json(index, changed_only=args.changed))
    else:
        emit_text(symbols_table(index, changed_only=args.changed))
    return 0


def cmd_decisions(args: argparse.Namespace) -> int:
    from artifact_index.presentation.render import decisions_json, decisions_table

    index, _ = _index(args)
    if args.json:
        emit_transcript_json(args, decisions_json(index))
    else:
        emit_text(decisions_table(index.decisions()))
    return 0


def cmd_tasks(args: argparse.Namespace) -> int:
    from artifact_index.presentation.render import tasks_json, tasks_table

    index, _ = _index(args)
    if args.json:
        emit_transcript_json(args, tasks_json(index))
    else:
        emit_text(tasks_table(index.tasks(), index.user_messages()))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from artifact_index.presentation.render import show_json, show_text

    index, loaded = _index(args)
    if args.json:
        emit_transcript_json(args, show_json(index, skipped=len(loaded.skipped)))
    else:
        emit_text(show_text(index))
    return 0


def cmd_errors(args: argparse.Namespace) -> int:
    from artifact_index.presentation.render import errors_json, errors_table

    index, _ = _index(args)
    if args.json:
        emit_transcript_json(args, errors_json(index))
    else:
        emit_text(errors_table(index))
    return 0


def cmd_refetch(args: argparse.Namespace) -> int:
    from artifact_index.trail.refetch import refetch_report

    index, _ = _index(args)
    report = refetch_report(index)
    again, after = report.rereads_after_compaction
    if args.json:
        emit_transcript_json(
            args,
            {
                **report.model_dump(),
                "rereads_after_compaction": again,
                "reads_after_compaction": after,
            },
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
    from artifact_index.ingestion.adapters import adapter_named, known_formats

    if args.json:
        emit_json(
            {
                "formats": [
                    {"name": name, "description": adapter_named(name).description}
                    for name in known_formats()
                ]
            }
        )
        return 0
    for name in known_formats():
        print(f"{name:20} {adapter_named(name).description}")
    return 0


def _add_global_options(parser: argparse.ArgumentParser, *, on_subcommand: bool) -> None:
    """Options every command takes, before or after its name.

    On a sub-command they default to "not given", so one given before the
    sub-command is not undone by its absence after it.
    """
    default: Any = argparse.SUPPRESS if on_subcommand else False
    parser.add_argument(
        "--no-redact",
        action="store_true",
        default=default,
        help="leave secrets in the output (local debugging only; also ARTIFACT_INDEX_NO_REDACT=1)",
    )


PLUGIN_GROUP = "artifact_index.commands"


def _add_plugin_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from importlib.metadata import entry_points

    for entry in sorted(entry_points(group=PLUGIN_GROUP), key=lambda e: e.name):
        register: Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None] = (
            entry.load()
        )
        register(sub)


_EXAMPLE = "examples/claude-code-session.jsonl"


def _add_table_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--wide",
        action="store_true",
        help="never shorten a column to fit the terminal",
    )


def build_parser(*, plugins: bool = True) -> argparse.ArgumentParser:
    """The argument parser; ``plugins=False`` leaves out the commands of the entry-point group."""
    parser = argparse.ArgumentParser(
        prog="artifact-index",
        description="The file trail of a coding-agent transcript, computed without an LLM.",
        epilog="`artifact-index COMMAND --help` shows what a command does, with examples.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    _add_global_options(parser, on_subcommand=False)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    files = add_command(
        sub,
        "files",
        summary="files created, modified, deleted, renamed and read",
        description="The files a session created, modified, deleted, renamed, reverted and read, "
        "with the turns, the tools and the evidence (a shell-made change shows its command).",
        examples=[
            f"artifact-index files {_EXAMPLE}",
            f"artifact-index files {_EXAMPLE} --changed --json   # changed files, as JSON",
            "artifact-index files ~/.claude/projects --json > trails.jsonl   # every session",
        ],
    )
    add_transcript_arguments(files)
    files.add_argument("--changed", action="store_true", help="leave out files that were only read")
    files.add_argument(
        "--workspace-only",
        action="store_true",
        help="leave out files outside the workspace root (temporary files, other directories)",
    )
    _add_table_options(files)
    files.set_defaults(run=cmd_files, imports=import_index_commands_modules)

    history = add_command(
        sub,
        "history",
        summary="the timeline of one file",
        description="Every operation on one file, with its turn, tool and result, then its net "
        "diff where the session showed the file before and after. The file may be named as "
        "`files` prints it, absolutely, or by the end of its path (a bare file name).",
        examples=[f"artifact-index history {_EXAMPLE} auth.py"],
    )
    add_transcript_arguments(history)
    history.add_argument("path", help="the file: as `files` prints it, or the end of its path")
    history.set_defaults(run=cmd_history, imports=import_index_commands_modules)

    symbols = add_command(
        sub,
        "symbols",
        summary="functions, classes and methods each change touched",
        description="The functions, methods and classes each change added, modified or removed, "
        "and those the reads showed, found with tree-sitter.",
        examples=[f"artifact-index symbols {_EXAMPLE} --changed"],
    )
    add_transcript_arguments(symbols)
    symbols.add_argument(
        "--changed", action="store_true", help="leave out symbols that were only read"
    )
    symbols.set_defaults(run=cmd_symbols, imports=import_index_commands_modules)

    decisions = add_command(
        sub,
        "decisions",
        summary="candidate decisions stated by the assistant",
        description="Sentences in which the assistant made a choice, rejected an alternative or "
        "named a root cause, with the files and symbols they name.",
        examples=[f"artifact-index decisions {_EXAMPLE}"],
    )
    add_transcript_arguments(decisions)
    decisions.set_defaults(run=cmd_decisions, imports=import_index_commands_modules)

    tasks = add_command(
        sub,
        "tasks",
        summary="the agent's latest task list and every user message",
        description="The latest state of the agent's todo or plan list, then every message the "
        "user typed, with how it was given (a prompt, feedback when refusing a call, typed while "
        "a tool ran, queued, a slash command).",
        examples=[f"artifact-index tasks {_EXAMPLE}"],
    )
    add_transcript_arguments(tasks)
    tasks.set_defaults(run=cmd_tasks, imports=import_index_commands_modules)

    show = add_command(
        sub,
        "show",
        summary="a one-screen overview of the whole index",
        description="Files, symbols, errors, tests, tasks, git work and decisions on one screen.",
        examples=[f"artifact-index show {_EXAMPLE}"],
    )
    add_transcript_arguments(show)
    show.set_defaults(run=cmd_show, imports=import_index_commands_modules)

    errors = add_command(
        sub,
        "errors",
        summary="the error ledger and the last result of each test command",
        description="Every error with its exact message, file, line and symbol, first and last "
        "turn, and whether it was resolved (how, by which files) or there before the session; "
        "failed commands that were noise, with why; the last result of each test command.",
        examples=[f"artifact-index errors {_EXAMPLE}"],
    )
    add_transcript_arguments(errors)
    errors.set_defaults(run=cmd_errors, imports=import_index_commands_modules)

    refetch = add_command(
        sub,
        "refetch",
        summary="redundant reads, and re-reads after each compaction",
        description="Re-fetch frequency, the quality signal of a summary: reads of files the "
        "agent had already read and not changed since, and re-reads after each compaction.",
        examples=[f"artifact-index refetch {_EXAMPLE}"],
    )
    add_transcript_arguments(refetch)
    refetch.set_defaults(run=cmd_refetch, imports=import_index_commands_modules)

    formats = add_command(
        sub,
        "formats",
        summary="list the transcript formats this tool reads",
        description="Every transcript format, by the name `--format` takes; the format of a "
        "transcript is otherwise detected from its content.",
        examples=["artifact-index formats"],
    )
    formats.add_argument("--json", action="store_true", help="print JSON")
    formats.set_defaults(run=cmd_formats)
    add_session_commands(sub)
    if plugins:
        _add_plugin_commands(sub)
    for command in sub.choices.values():
        _add_global_options(command, on_subcommand=True)
    return parser


def _is_batch(transcripts: list[str]) -> bool:
    """Several transcripts, or a folder of them (standard input is one transcript, alone)."""
    if len(transcripts) == 1:
        return transcripts[0] != "-" and os.path.isdir(transcripts[0])
    if "-" in transcripts:
        raise UsageError("- (standard input) is one transcript; it cannot be read with others")
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


def _parse(parser: argparse.ArgumentParser, arguments: list[str]) -> argparse.Namespace:
    """The parsed command line; an unknown option is shown with the usage of its sub-command."""
    args, unknown = parser.parse_known_args(arguments)
    if unknown:
        commands = next(
            action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
        )
        commands.choices[args.command].error(f"unrecognized arguments: {' '.join(unknown)}")
    return args


def _first_word(arguments: list[str]) -> str | None:
    """The sub-command's name: the first word that is not a global option."""
    return next((word for word in arguments if not word.startswith("-")), None)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    for stream in ("stdout", "stderr"):
        if getattr(sys, stream) is None:
            # Started with the stream closed (`>&-`): what would be written there is discarded.
            setattr(sys, stream, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115
    # Finding plugins scans every installed distribution: a built-in command does without.
    parser = build_parser(plugins=_first_word(arguments) not in _BUILTIN_COMMANDS)
    args = _parse(parser, arguments)
    # Called without arguments, this is the process's own command line: a command may end the
    # process when it is done (a hook whose work still runs past its deadline does).
    args.owns_process = argv is None
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        _import_for_command(args)
        from artifact_index.redaction import redaction_disabled

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
        from artifact_index.redaction import redact_text

        if isinstance(exc, ArtifactIndexError):
            hint = " (--format NAME reads it as NAME)" if isinstance(exc, UnknownFormat) else ""
            print(redact_text(f"artifact-index: error: {one_line(exc)}{hint}"), file=sys.stderr)
            return EXIT_USAGE if isinstance(exc, UsageError) else EXIT_DATA
        if os.environ.get("ARTIFACT_INDEX_DEBUG"):
            raise
        print(
            redact_text(
                f"artifact-index: internal error: {type(exc).__name__}: {one_line(exc)} "
                "(set ARTIFACT_INDEX_DEBUG=1 for the traceback, and please report it)"
            ),
            file=sys.stderr,
        )
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
