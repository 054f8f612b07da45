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
from pathlib import Path
from typing import Any

from . import __version__
from .adapters import known_formats
from .errors import ArtifactIndexError
from .index import ArtifactIndex
from .loading import Loaded, build_index, open_transcript
from .render import (
    decisions_table,
    errors_table,
    files_json,
    files_table,
    history_table,
    op_json,
    show_text,
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
    diff = index.net_diff(args.path)
    if args.json:
        _emit({"path": args.path, "ops": [op_json(op) for op in ops], "net_diff": diff})
    else:
        sys.stdout.write(history_table(args.path, ops, net_diff=diff))
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


def cmd_show(args: argparse.Namespace) -> int:
    index, loaded = _index(args)
    if args.json:
        # Per file symbols go under "symbols": spread in, their "files" key would hide the file list.
        _emit({**files_json(index, skipped=len(loaded.skipped)), "symbols": symbols_json(index)["files"],
               "errors": index.errors(), "original": index.original_error(), "tests": index.tests(),
               "decisions": index.decisions(), "tasks": index.tasks(), "user_messages": index.user_messages()})
    else:
        sys.stdout.write(show_text(index))
    return 0


def cmd_errors(args: argparse.Namespace) -> int:
    index, _ = _index(args)
    if args.json:
        _emit({"original": index.original_error(), "errors": index.errors(), "tests": index.tests()})
    else:
        sys.stdout.write(errors_table(index))
    return 0


def cmd_refetch(args: argparse.Namespace) -> int:
    from .refetch import refetch_report

    index, _ = _index(args)
    report = refetch_report(index)
    again, after = report.rereads_after_compaction
    if args.json:
        _emit({**report.model_dump(), "rereads_after_compaction": again, "reads_after_compaction": after})
        return 0
    share = f"{report.redundant_reads / report.reads:.0%}" if report.reads else "-"
    print(f"{report.reads} reads, {report.redundant_reads} redundant ({share}): the file had not changed "
          "since the same agent last read it")
    for c in report.compactions:
        files = ", ".join(c.files[:8]) + ("…" if len(c.files) > 8 else "")
        print(f"compaction at turn {c.turn}: {c.rereads} of {c.reads_after} later reads re-read files read "
              f"before it" + (f" ({files})" if files else ""))
    if not report.compactions:
        print("no compaction in this transcript")
    return 0


def cmd_probe(args: argparse.Namespace) -> int:
    from summarizer.commands import events_until_compaction
    from summarizer.errors import SummarizerError
    from summarizer.facts import facts_from_index
    from summarizer.probes import probe_summary

    from .tracker import Tracker

    try:
        summary = Path(args.summary).read_text(encoding="utf-8")
    except OSError as exc:
        raise SummarizerError(f"summary {args.summary} cannot be read ({exc.strerror or exc})") from exc
    loaded = open_transcript(args.transcript, args.format)
    events = list(loaded.events())
    if args.until_compaction is not None:
        events = events_until_compaction(events, args.until_compaction)
    _report_skipped(loaded)
    report = probe_summary(summary, facts_from_index(Tracker(format=loaded.adapter.name).feed_all(events)))
    if args.json:
        _emit({"overall": report.overall,
               "probes": [{**p.model_dump(), "score": p.score} for p in report.probes]})
        return 0
    for probe in report.probes:
        if not probe.expected:
            print(f"{probe.kind:13} -     (nothing to ask: {probe.question})")
            continue
        missing = f"; missing: {', '.join(probe.missing[:6])}{'…' if len(probe.missing) > 6 else ''}" if probe.missing else ""
        print(f"{probe.kind:13} {probe.score:.2f}  {len(probe.expected) - len(probe.missing)}/{len(probe.expected)} "
              f"named{missing}")
    print(f"{'overall':13} {report.overall:.2f}")
    return 0


def cmd_summary(args: argparse.Namespace) -> int:
    from summarizer.commands import summary_command

    loaded = open_transcript(args.transcript, args.format)
    summary = summary_command(
        loaded, template=args.template, use_llm=args.llm, previous=args.previous, model=args.model,
        config=args.config, strategy=args.strategy, until_compaction=args.until_compaction,
        instructions=args.instructions,
    )
    _report_skipped(loaded)
    sys.stdout.write(summary.markdown)
    return 0


def cmd_compact(args: argparse.Namespace) -> int:
    from summarizer.commands import compact_command

    _emit(compact_command(
        args.request, context_window=args.context_window, state_dir=args.state_dir, use_llm=args.llm,
        model=args.model, config=args.config, template=args.template, force=args.force,
        instructions=args.instructions, exact_tokens=args.exact_tokens,
    ))
    return 0


def cmd_hook(args: argparse.Namespace) -> int:
    from summarizer.errors import SummarizerError
    from summarizer.hooks import hook_response

    try:
        hook_input = json.loads(sys.stdin.read() or "{}")
    except json.JSONDecodeError as exc:
        raise SummarizerError(f"the hook input on standard input is not JSON ({exc.msg})") from exc
    if not isinstance(hook_input, dict):
        raise SummarizerError("the hook input on standard input is not a JSON object")
    if args.event:
        hook_input["hook_event_name"] = args.event
    sys.stdout.write(hook_response(hook_input) + "\n")
    return 0


def _add_llm_options(parser: argparse.ArgumentParser, default_template: str) -> None:
    parser.add_argument("--template", default=default_template, metavar="NAME|FILE",
                        help=f"built-in template (default, claude-code, debugging, migration) or a TOML file "
                             f"(default: {default_template})")
    llm = parser.add_mutually_exclusive_group()
    llm.add_argument("--llm", dest="llm", action="store_true", default=None,
                     help="write the narrative with the Anthropic API (the default when ANTHROPIC_API_KEY is set)")
    llm.add_argument("--no-llm", dest="llm", action="store_false", help="offline extractive narrative")
    parser.add_argument("--model", help="model for the narrative (default: context.compactionModel, else the "
                                        "session's model)")
    parser.add_argument("--config", metavar="FILE", help="TOML settings ([context] compactionModel)")
    parser.add_argument("--instructions", action="append", default=[], metavar="TEXT",
                        help="extra context for the narrative writer (repeatable), like a PreCompact hook's")


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

    show = sub.add_parser("show", help="a one-screen overview of the whole index")
    _add_transcript(show)
    show.set_defaults(run=cmd_show)

    errors = sub.add_parser("errors", help="the error ledger and the last result of each test command")
    _add_transcript(errors)
    errors.set_defaults(run=cmd_errors)

    refetch = sub.add_parser("refetch", help="re-fetch frequency: redundant reads, and re-reads after each "
                                             "compaction (the quality signal of a summary)")
    _add_transcript(refetch)
    refetch.set_defaults(run=cmd_refetch)

    probe = sub.add_parser("probe", help="score a summary (ours or any other) on the probes the index can answer")
    _add_transcript(probe)
    probe.add_argument("summary", help="the summary to score (a Markdown or text file)")
    probe.add_argument("--until-compaction", type=int, metavar="N",
                       help="the summary covers what came before the transcript's N-th compaction boundary")
    probe.set_defaults(run=cmd_probe)

    summary = sub.add_parser("summary", help="the structured compaction summary (Markdown)")
    summary.add_argument("transcript", help="transcript file (.gz allowed) or - for standard input")
    summary.add_argument("--format", metavar="NAME", help="skip detection and read as NAME")
    _add_llm_options(summary, "default")
    summary.add_argument("--previous", metavar="SUMMARY.md",
                         help="the previous summary: its narrative is the anchor, only later turns are summarised")
    summary.add_argument("--strategy", choices=["anchored", "regenerative"], default="anchored",
                         help="merge into the previous narrative (default) or regenerate it")
    summary.add_argument("--until-compaction", type=int, metavar="N",
                         help="summarise only what came before the transcript's N-th compaction boundary")
    summary.set_defaults(run=cmd_summary)

    compact = sub.add_parser("compact", help="compact an Anthropic or OpenAI request body (JSON)")
    compact.add_argument("request", help="request body JSON file, or - for standard input")
    compact.add_argument("--context-window", type=int, metavar="N", help="the model's context window in tokens")
    compact.add_argument("--state-dir", metavar="DIR",
                         help="keep the compaction event log and the tracker state here, so the next "
                              "compaction resumes from them")
    compact.add_argument("--force", action="store_true", help="compact now, whatever the thresholds say")
    compact.add_argument("--exact-tokens", action="store_true",
                         help="count the prompt exactly with the API's token counting (needs ANTHROPIC_API_KEY)")
    _add_llm_options(compact, "claude-code")
    compact.set_defaults(run=cmd_compact)

    hook = sub.add_parser("hook", help="a Claude Code hook: the exact file trail after a compaction "
                                       "(reads the hook input JSON on standard input)")
    hook.add_argument("--event", choices=["SessionStart", "PreCompact"],
                      help="the hook event (default: hook_event_name of the input)")
    hook.set_defaults(run=cmd_hook)

    formats = sub.add_parser("formats", help="list the transcript formats this tool reads")
    formats.set_defaults(run=cmd_formats)
    return parser


def _is_summarizer_error(exc: BaseException) -> bool:
    # The summarizer is imported only by the commands that use it, so only
    # then can one of its errors be raised; this keeps `files` fast to start.
    errors = sys.modules.get("summarizer.errors")
    return errors is not None and isinstance(exc, errors.SummarizerError)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except BrokenPipeError:
        # A reader like `head` closed the pipe: not an error of ours.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print("artifact-index: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # the promise is one sentence, never a traceback
        if isinstance(exc, ArtifactIndexError) or _is_summarizer_error(exc):
            print(f"artifact-index: error: {exc}", file=sys.stderr)
            return EXIT_USAGE
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
