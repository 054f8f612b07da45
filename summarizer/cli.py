"""The summarizer's commands of ``artifact-index``: ``summary``, ``compact``, ``probe`` and ``hook``.

They join the engine's command line through the ``artifact_index.commands``
entry-point group (see :mod:`artifact_index.presentation.cli`), so the
engine never imports this package.  The SDK and the heavier modules (the
summary's, which ``hook`` and ``--help`` do without) are imported only by the
command that needs them.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from artifact_index.presentation.arguments import add_command, add_transcript_arguments
from artifact_index.presentation.output import (
    emit_json,
    emit_text,
    emit_transcript_json,
    report_skipped,
)
from summarizer.cli_options import add_llm_options, add_provider_options
from summarizer.exceptions import SummarizerError
from summarizer.integrations.service_commands import register_integration_commands

if TYPE_CHECKING:
    from artifact_index.live.store import SessionStore

__all__ = ["add_llm_options", "add_provider_options", "register_commands"]


def cmd_probe(args: argparse.Namespace) -> int:
    from artifact_index.ingestion.loading import open_transcript
    from artifact_index.trail.tracker import Tracker
    from summarizer.evaluation.probes import probe_summary
    from summarizer.sections.session_facts import session_facts
    from summarizer.summary_commands import events_until_compaction

    try:
        summary = Path(args.summary).read_text(encoding="utf-8")
    except OSError as exc:
        raise SummarizerError(
            f"summary {args.summary} cannot be read ({exc.strerror or exc})"
        ) from exc
    loaded = open_transcript(args.transcript, args.format)
    events = list(loaded.events())
    if args.until_compaction is not None:
        events = events_until_compaction(events, args.until_compaction)
    report_skipped(loaded)
    report = probe_summary(
        summary, session_facts(Tracker(format=loaded.adapter.name).feed_all(events))
    )
    if args.json:
        emit_transcript_json(
            args,
            {
                "overall": report.overall,
                "probes": [{**p.model_dump(), "score": p.score} for p in report.probes],
            },
        )
        return 0
    lines = []
    for probe in report.probes:
        if not probe.expected:
            lines.append(f"{probe.kind:13} -     (nothing to ask: {probe.question})")
            continue
        missing = (
            f"; missing: {', '.join(probe.missing[:6])}{'…' if len(probe.missing) > 6 else ''}"
            if probe.missing
            else ""
        )
        lines.append(
            f"{probe.kind:13} {probe.score:.2f}  {len(probe.expected) - len(probe.missing)}/"
            f"{len(probe.expected)} named{missing}"
        )
    lines.append(f"{'overall':13} {report.overall:.2f}")
    emit_text("".join(line + "\n" for line in lines))
    return 0


def cmd_evaluate(args: argparse.Namespace) -> int:
    from summarizer.evaluation.evaluate import render_evaluation
    from summarizer.evaluation.session_evaluation import evaluate_command

    evaluation = evaluate_command(
        args.transcript,
        args.summaries,
        format=args.format,
        until_compaction=args.until_compaction,
        agent_summary=args.agent_summary,
        use_llm=args.llm,
        provider=args.provider,
        base_url=args.base_url,
        model=args.model,
        config=args.config,
    )
    if args.json:
        emit_json(evaluation.model_dump(mode="json"))
    else:
        emit_text(render_evaluation(evaluation))
    return 0


def cmd_summary(args: argparse.Namespace) -> int:
    from artifact_index.ingestion.loading import open_transcript
    from summarizer.summary_commands import summary_command

    loaded = open_transcript(args.transcript, args.format)
    summary = summary_command(
        loaded,
        template=args.template,
        use_llm=args.llm,
        previous=args.previous,
        model=args.model,
        config=args.config,
        provider=args.provider,
        base_url=args.base_url,
        strategy=args.strategy,
        until_compaction=args.until_compaction,
        instructions=args.instructions,
    )
    report_skipped(loaded)
    emit_text(summary.markdown)
    return 0


def _warn(sentence: str) -> None:
    from artifact_index.redaction import redact_text

    print(redact_text(f"artifact-index: warning: {sentence}"), file=sys.stderr)


def cmd_compact(args: argparse.Namespace) -> int:
    from summarizer.summary_commands import compact_request, read_request_body

    emit_json(
        compact_request(
            read_request_body(args.request),
            context_window=args.context_window,
            state_dir=args.state_dir,
            use_llm=args.llm,
            model=args.model,
            config=args.config,
            provider=args.provider,
            base_url=args.base_url,
            template=args.template,
            force=args.force,
            instructions=args.instructions,
            exact_tokens=args.exact_tokens,
            report=_warn,
        )
    )
    return 0


def _hook_input(max_bytes: int) -> str:
    """Standard input, up to ``max_bytes`` (an endless one, like /dev/zero, is not read to its end)."""
    stream = sys.stdin
    if stream is None:  # closed: no hook input
        return ""
    binary = getattr(stream, "buffer", None)
    data: str | bytes = (
        binary.read(max_bytes + 1) if binary is not None else stream.read(max_bytes + 1)
    )
    if len(data) > max_bytes:
        raise SummarizerError(f"the hook input is over {max_bytes // 2**20} MiB")
    if isinstance(data, str):  # a text stream put in its place (a test's, an embedding program's)
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SummarizerError(f"the hook input is not UTF-8 ({exc.reason})") from exc


def _quietly(write: Callable[[], None]) -> None:
    """Write to a stream that may be closed: a hook has nobody to tell, and must not fail."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        write()


def cmd_hook(args: argparse.Namespace) -> int:
    """Fails open: whatever goes wrong, exit 0 and one line on standard error (exit 2 would block Claude Code).

    Answers within its deadline (``--seconds``, else ``ARTIFACT_INDEX_HOOK_SECONDS``),
    with the best it has by then; see :mod:`summarizer.integrations.hook_limits`.
    """
    from dataclasses import replace

    from summarizer.integrations.hook_limits import Deadline, HookLimits, limit_memory
    from summarizer.integrations.hooks import HookRun, run_bounded_hook

    limits = HookLimits.from_environment()
    seconds = _positive(args.seconds)
    if seconds is not None:
        limits = replace(limits, seconds=seconds)
    restore = limit_memory(limits.memory_bytes)
    # The process's own command ends the process with its answer: what the work read is kept
    # to the end rather than freed object by object (see run_bounded_hook).
    kept: list[object] | None = [] if args.owns_process else None
    if args.seconds is not None and seconds is None:
        run = HookRun(
            "", f"artifact-index hook: skipped, --seconds {args.seconds!r} is not a positive number"
        )
    else:
        run = run_bounded_hook(
            _hook_input,
            args.event,
            agent=args.agent,
            store=lambda: _session_store(args.store),
            limits=limits,
            # The host's clock started with the process: its start-up counts. Called in-process
            # (a test, an embedding program), the deadline starts now.
            deadline=Deadline.of_process(limits.seconds) if args.owns_process else None,
            keep_alive=kept,
        )
    restore()
    if run.note:
        _quietly(lambda: print(run.note, file=sys.stderr, flush=True))
    _quietly(lambda: emit_text(run.output))
    _quietly(lambda: sys.stdout.flush())
    if args.owns_process and (run.late or kept):
        # The work is still running in its thread: end now, as promised, without waiting for it.
        # Or it is done, and what it read would only be freed on the way out.
        _quietly(lambda: sys.stderr.flush())
        os._exit(run.exit_code)
    return run.exit_code


def _import_hook_modules() -> None:
    """What every hook runs on (the command line imports it with the collector held off).

    Not the session store (sqlite) nor the summary probes: only PreCompact and PostCompact
    use them.
    """
    from importlib import import_module

    for module in (
        "summarizer.integrations.hooks",
        "summarizer.integrations.hook_limits",
        "summarizer.integrations.hook_state",
        "summarizer.integrations.compactions",
    ):
        import_module(module)


def _session_store(path: str | None) -> SessionStore:
    # Imported when a hook snapshots (PreCompact): sqlite and the store's models are not a
    # SessionStart's to pay for.
    from artifact_index.live.store import SessionStore

    return SessionStore(path)


def _positive(text: str | None) -> float | None:
    try:
        value = float(text) if text is not None else None
    except ValueError:
        return None
    return value if value is not None and 0 < value < float("inf") else None


_EXAMPLE = "examples/claude-code-session.jsonl"


def register_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the summarizer's commands to the ``artifact-index`` parser."""
    probe = add_command(
        sub,
        "probe",
        summary="score a summary (ours or any other) on the probes the index can answer",
        description="Score a compaction summary on the questions whose answers the index knows: "
        "which files changed (artifact), the original error (recall), what is left to do "
        "(continuation), and what was decided about which files (decision).",
        examples=[
            f"artifact-index summary {_EXAMPLE} > summary.md && "
            f"artifact-index probe {_EXAMPLE} summary.md",
        ],
    )
    add_transcript_arguments(probe)
    probe.add_argument("summary", help="the summary to score (a Markdown or text file)")
    probe.add_argument(
        "--until-compaction",
        type=int,
        metavar="N",
        help="the summary covers what came before the transcript's N-th compaction boundary",
    )
    probe.set_defaults(run=cmd_probe)

    evaluate = add_command(
        sub,
        "evaluate",
        summary="compare summaries of a session: probes from the index, answered from each summary "
        "by an LLM, graded against the index, judged on six dimensions",
        description="Compare compaction strategies on your own sessions: questions of four kinds "
        "(recall, artifact, continuation, decision) are generated from the index, answered from "
        "each summary by an LLM and graded against the index; a judge rates each summary on "
        "accuracy, context awareness, artifact trail, completeness, continuity and instruction "
        "following.",
        examples=[
            f"artifact-index evaluate {_EXAMPLE} ours.md theirs.md",
            "artifact-index evaluate SESSION.jsonl ours.md --until-compaction 1 --agent-summary",
        ],
    )
    evaluate.add_argument("transcript", metavar="TRANSCRIPT", help="the session (.gz allowed)")
    evaluate.add_argument(
        "summaries",
        nargs="*",
        metavar="SUMMARY",
        help="the summaries to evaluate (Markdown or text files: ours, an agent's own, any other)",
    )
    evaluate.add_argument(
        "--format", metavar="NAME", help="skip detection and read as NAME (see `formats`)"
    )
    evaluate.add_argument("--json", action="store_true", help="print JSON instead of a table")
    evaluate.add_argument(
        "--until-compaction",
        type=int,
        metavar="N",
        help="the summaries cover what came before the transcript's N-th compaction boundary",
    )
    evaluate.add_argument(
        "--agent-summary",
        action="store_true",
        help="also evaluate the agent's own summary recorded at that boundary",
    )
    add_provider_options(evaluate, "the answers and the judgement")
    evaluate.set_defaults(run=cmd_evaluate)

    summary = add_command(
        sub,
        "summary",
        summary="the structured compaction summary (Markdown)",
        description="The summary an agent needs to continue after its context is compacted. The "
        "sections the index knows are exact; the narrative (intent, decisions, state, next "
        "steps) is written by an LLM when one is configured (ANTHROPIC_API_KEY, OPENAI_API_KEY or "
        "OPENAI_BASE_URL, or --llm with --provider/--base-url/--config), else offline.",
        examples=[
            f"artifact-index summary {_EXAMPLE}",
            f"artifact-index summary {_EXAMPLE} --template claude-code --no-llm",
        ],
    )
    add_transcript_arguments(summary, json_option=False)
    add_llm_options(summary)
    summary.add_argument(
        "--previous",
        metavar="SUMMARY.md",
        help="the previous summary: its narrative is the anchor, only later turns are summarized",
    )
    summary.add_argument(
        "--strategy",
        choices=["anchored", "regenerative"],
        default="anchored",
        help="merge into the previous narrative (default) or regenerate it",
    )
    summary.add_argument(
        "--until-compaction",
        type=int,
        metavar="N",
        help="summarize only what came before the transcript's N-th compaction boundary",
    )
    summary.set_defaults(run=cmd_summary)

    compact = add_command(
        sub,
        "compact",
        summary="compact an Anthropic or OpenAI request body (JSON)",
        description="Apply the context policies to the request body of an agent's next call "
        "(micro-compaction of old tool outputs, pruning, the summary at a threshold) and print "
        '{"schema_version", "messages", "result": {"didCompress", "released", '
        '"promptEstimate"}}.',
        examples=[
            "artifact-index compact examples/anthropic-messages.json --force --no-llm",
            "artifact-index compact request.json --state-dir .compaction   # incremental",
        ],
    )
    compact.add_argument("request", help="request body JSON file, or - for standard input")
    compact.add_argument(
        "--context-window", type=int, metavar="N", help="the model's context window in tokens"
    )
    compact.add_argument(
        "--state-dir",
        metavar="DIR",
        help="keep the compaction event log and the tracker state here, so the next "
        "compaction resumes from them",
    )
    compact.add_argument(
        "--force", action="store_true", help="compact now, whatever the thresholds say"
    )
    compact.add_argument(
        "--exact-tokens",
        action="store_true",
        help="count the prompt exactly with the API's token counting (needs ANTHROPIC_API_KEY)",
    )
    add_llm_options(compact)
    compact.set_defaults(run=cmd_compact)

    hook = add_command(
        sub,
        "hook",
        summary="an agent's compaction hook (reads the hook input JSON on standard input)",
        description="What the installed hooks run: reads the agent's hook input on standard "
        "input and answers with the exact file trail (after a compaction), snapshots it "
        "(before one) or scores the agent's summary (after one). It never blocks the agent: "
        "whatever goes wrong, it exits 0 with one line on standard error.",
        examples=[
            'echo \'{"hook_event_name": "SessionStart", "source": "compact", '
            f'"transcript_path": "{_EXAMPLE}"}}\' | artifact-index hook',
        ],
    )
    # Not argparse choices: a wrong value must fail open like any other error, never exit 2.
    hook.add_argument(
        "--event",
        metavar="SessionStart|PreCompact|PostCompact",
        help="the hook event (default: hook_event_name of the input)",
    )
    hook.add_argument(
        "--agent",
        default="claude-code",
        metavar="claude-code|codex|opencode",
        help="whose hook input it is (default: claude-code)",
    )
    hook.add_argument(
        "--seconds",
        metavar="N",
        help="answer within N seconds, with what is known by then (default: "
        "$ARTIFACT_INDEX_HOOK_SECONDS, else 20; the hosts stop a hook at 60)",
    )
    hook.add_argument(
        "--store",
        metavar="FILE",
        help="the session store PreCompact snapshots into and PostCompact "
        "logs into (default: $ARTIFACT_INDEX_STORE, else the user's)",
    )
    hook.set_defaults(run=cmd_hook, imports=_import_hook_modules)

    register_integration_commands(sub)
