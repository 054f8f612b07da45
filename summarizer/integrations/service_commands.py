"""The commands that put the index where agents compact: ``mcp``, ``serve``, ``install`` and ``uninstall``.

Each imports its server or installer when run, so the rest of the command
line pays nothing for them; a missing optional part is one sentence naming
the command that adds it to this installation
(:func:`artifact_index.distribution.reinstall_with`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from artifact_index.exceptions import UsageError
from artifact_index.presentation.arguments import add_command
from artifact_index.presentation.output import emit_json
from summarizer.cli_options import add_llm_options
from summarizer.exceptions import SummarizerError

if TYPE_CHECKING:
    from summarizer.integrations.install import Change, Scope

__all__ = ["register_integration_commands"]

DEFAULT_PORT = 8765


def cmd_mcp(args: argparse.Namespace) -> int:
    from summarizer.integrations.mcp_server import serve_stdio

    serve_stdio(args.store)
    return 0


TOKEN_VARIABLE = "ARTIFACT_INDEX_HTTP_TOKEN"
_MIN_TOKEN_LENGTH = 16


def _http_token(token_file: str | None) -> str | None:
    """The HTTP API's token, from ``--token-file`` or the environment (never the command line: ``ps`` shows it)."""
    if token_file:
        try:
            token = Path(token_file).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise SummarizerError(f"cannot read the token file {token_file} ({exc})") from exc
        where = f"the token file {token_file}"
    else:
        token = os.environ.get(TOKEN_VARIABLE, "").strip()
        where = TOKEN_VARIABLE
        if not token:
            return None
    if len(token) < _MIN_TOKEN_LENGTH or any(c.isspace() or not c.isprintable() for c in token):
        raise SummarizerError(
            f"{where} must hold one token of at least {_MIN_TOKEN_LENGTH} printable characters "
            "without spaces (python -c 'import secrets; print(secrets.token_urlsafe())' makes one)"
        )
    return token


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from summarizer.integrations.http_api import LOOPBACK_HOSTS, Compaction, build_app, serve
    except ImportError as exc:
        # Only here: finding how this copy was installed takes packaging and urllib, which
        # every other command does without.
        from artifact_index.distribution import reinstall_with

        raise SummarizerError(
            f"the HTTP API is an optional part this installation lacks: {reinstall_with('http')}"
        ) from exc
    from summarizer.compaction.summary_message import user_state_directory
    from summarizer.integrations.access import SessionAccess
    from summarizer.providers.choice import LLMChoice, choose_endpoint

    state = Path(args.state_dir) if args.state_dir else user_state_directory() / "sessions"
    if args.llm:  # a provider that cannot be used is said now, not to each client later
        choose_endpoint(
            LLMChoice(
                use_llm=True,
                provider=args.provider,
                base_url=args.base_url,
                model=args.model,
                config=args.config,
            )
        )
    if args.max_body_mib <= 0:
        raise SummarizerError(f"--max-body-mib must be a positive size, not {args.max_body_mib:g}")
    if args.template_dir is not None and not Path(args.template_dir).is_dir():
        raise SummarizerError(f"--template-dir {args.template_dir} is not a folder")
    compaction = Compaction(
        state_root=state,
        template=args.template,
        use_llm=args.llm,
        model=args.model,
        config=args.config,
        provider=args.provider,
        base_url=args.base_url,
        context_window=args.context_window,
        instructions=tuple(args.instructions),
        template_folder=Path(args.template_dir) if args.template_dir else None,
        max_body_bytes=int(args.max_body_mib * 2**20),
    )
    loopback = args.host in LOOPBACK_HOSTS
    token = _http_token(args.token_file)
    if not loopback and token is None:
        raise SummarizerError(
            f"{args.host} is not a loopback address: whoever reaches it could read the stored "
            f"sessions, so serving there needs a token ({TOKEN_VARIABLE} or --token-file)"
        )
    app = build_app(
        SessionAccess(args.store), compaction, LOOPBACK_HOSTS if loopback else None, token
    )

    def announce(address: str) -> None:
        from artifact_index.redaction import redact_text

        print(
            redact_text(f"artifact-index: serving on {address}/api (Ctrl-C stops)"),
            file=sys.stderr,
            flush=True,
        )

    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how a server stops
        serve(app, args.host, args.port, announce)
    return 0


_AFTER_INSTALL = {
    "claude-code": "Claude Code reads it when a session starts; /hooks lists what it loaded.",
    # Codex 0.169 runs a new or changed hook only once the user trusts it (a hash kept in config.toml);
    # `codex exec` skips an untrusted one silently, which is what a real run showed.
    "codex": (
        "Codex reads it when a session starts, and runs it only once you trust it: `codex` asks at its next "
        "start (or see /hooks), or install with --trust. Until then `codex exec` skips it without a word; "
        "`codex exec --dangerously-bypass-hook-trust` runs it unreviewed."
    ),
    "opencode": "OpenCode loads it when it starts; at each compaction it runs `opencode export` for the session.",
}


def _project(args: argparse.Namespace) -> Path:
    return Path(args.project_dir) if args.project_dir else Path.cwd()


def _scope(args: argparse.Namespace) -> Scope:
    return "local" if args.local else "project" if args.project else "user"


def _show_plan(change: Change) -> None:
    """``--dry-run``: what the change would do to its file, as a unified diff."""
    import difflib

    if change.after == change.before:
        print(f"nothing would change in {change.path} ({change.what})")
        return
    if change.after is None:
        print(f"would remove {change.path} ({change.what})")
        for folder in change.folders:
            print(f"would remove the folder {folder}, left empty")
        return
    verb = "create" if change.before is None else "change"
    print(f"would {verb} {change.path} ({change.what}):")
    sys.stdout.writelines(
        difflib.unified_diff(
            (change.before or "").splitlines(keepends=True),
            change.after.splitlines(keepends=True),
            fromfile=str(change.path) if change.before is not None else "/dev/null",
            tofile=str(change.path),
        )
    )
    if not change.after.endswith("\n"):
        print()


def _warn_second_scope(agent: str, scope: Scope, project: Path) -> None:
    from summarizer.integrations.install import installed_scopes

    others = [(s, path) for s, path in installed_scopes(agent, project) if s != scope]
    for other, path in others:
        print(
            f"artifact-index: warning: the hooks are also installed at the {other} scope ({path}): "
            f"{agent} will run them twice; `artifact-index uninstall {agent} --{other}` removes "
            "those",
            file=sys.stderr,
        )


def cmd_install(args: argparse.Namespace) -> int:
    from summarizer.integrations.install import (
        apply,
        installed_command,
        plan_install,
        write_claude_plugin,
    )

    if args.trust and args.agent != "codex":
        raise UsageError("--trust is for codex, whose hooks run only once trusted")
    if args.plugin_dir:
        if args.agent != "claude-code":
            raise UsageError(
                "--plugin-dir writes Claude Code's plugin layout; it is for claude-code only"
            )
        if args.dry_run:
            print(f"would write Claude Code's plugin to {args.plugin_dir}")
            return 0
        folder = write_claude_plugin(Path(args.plugin_dir))
        print(
            f"wrote Claude Code's plugin to {folder} (load it with: claude --plugin-dir {folder})"
        )
        return 0
    codex = _codex_for_trust() if args.trust else None
    command = installed_command()
    change = plan_install(args.agent, _scope(args), _project(args), command)
    if args.dry_run:
        _show_plan(change)
        return 0
    apply(change)
    if codex is not None:
        _trust_codex(codex, change, _project(args))
    runs = " ".join(command)
    if change.done == "unchanged":
        print(f"already installed in {change.path} ({change.what}, running {runs})")
    else:
        print(f"{change.done} {change.what} in {change.path}, running {runs}")
        print(
            _AFTER_INSTALL[args.agent] if codex is None else "Codex reads it when a session starts."
        )
    _warn_second_scope(args.agent, _scope(args), _project(args))
    from summarizer.integrations.agents import codex_hooks_disabled

    if args.agent == "codex" and (warning := codex_hooks_disabled()):
        print(f"artifact-index: warning: {warning}", file=sys.stderr)
    return 0


def _codex_for_trust() -> str:
    """The ``codex`` that ``--trust`` asks, found before anything is installed: all or nothing."""
    import shutil

    codex = shutil.which("codex")
    if codex is None:
        raise SummarizerError(
            "--trust asks `codex` to trust the hook, and `codex` is not on PATH: nothing was "
            "installed (install without --trust, then trust the hook when `codex` asks)"
        )
    return codex


def _trust_codex(codex: str, change: Change, project: Path) -> None:
    """``--trust``: Codex records our hook as trusted, as its own review would.

    When Codex cannot, the install is undone: the user asked for a hook that
    runs, and an untrusted one is skipped without a word.
    """
    from summarizer.integrations.codex_trust import trust_codex_hooks
    from summarizer.integrations.install import InstallError, apply, undone

    try:
        keys = trust_codex_hooks(codex, change.path, project.resolve())
    except InstallError as exc:
        apply(undone(change))
        raise SummarizerError(
            f"Codex could not trust the hook ({exc}), so it was not installed: install without "
            "--trust and trust it when `codex` asks"
        ) from exc
    print(f"Codex trusts it now ({', '.join(keys)}), as you asked with --trust.")


def cmd_uninstall(args: argparse.Namespace) -> int:
    from summarizer.integrations.install import apply, plan_uninstall

    change = plan_uninstall(args.agent, _scope(args), _project(args))
    if args.dry_run:
        _show_plan(change)
        return 0
    apply(change)
    if change.done == "removed":
        print(f"removed {change.what} from {change.path}")
        for folder in change.folders:
            print(f"removed the folder {folder}, which install had made and nothing else uses")
    else:
        print(f"nothing to remove from {change.path} ({change.what})")
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    from summarizer.integrations.doctor import examine

    findings = examine(_project(args), Path(args.plugin_dir) if args.plugin_dir else None)
    problems = sum(1 for f in findings if f.verdict == "problem")
    if args.json:
        emit_json(
            {
                "findings": [
                    {"subject": f.subject, "verdict": f.verdict, "text": f.text} for f in findings
                ],
                "problems": problems,
            }
        )
    else:
        marks = {"ok": "ok     ", "problem": "PROBLEM", "note": "       "}
        for finding in findings:
            print(f"{marks[finding.verdict]} {finding.subject}: {finding.text}")
        print(f"\n{problems} problem(s)" if problems else "\nno problem found")
    return 1 if problems else 0


def _add_agent_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("agent", choices=["claude-code", "codex", "opencode"])
    scope = parser.add_mutually_exclusive_group()
    scope.add_argument(
        "--user", action="store_true", help="for every project of this user (the default)"
    )
    scope.add_argument(
        "--project",
        action="store_true",
        help="for one project, in its shared settings (see --project-dir)",
    )
    scope.add_argument(
        "--local",
        action="store_true",
        help="for one project, on this machine only (Claude Code's .claude/settings.local.json)",
    )
    parser.add_argument(
        "--project-dir", metavar="DIR", help="the project (default: the current directory)"
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="show what would change (a diff) and change nothing"
    )


def _add_store_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store",
        metavar="FILE",
        help="the session store (default: $ARTIFACT_INDEX_STORE, else "
        "$XDG_DATA_HOME/artifact-index/sessions.db)",
    )


def register_integration_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``mcp``, ``serve``, ``install``, ``uninstall`` and ``doctor`` to the ``artifact-index`` parser."""
    mcp = add_command(
        sub,
        "mcp",
        summary="the MCP server on standard input and output (the mcp extra)",
        description="Serve the index to an MCP client over standard input and output: the tools "
        "files, history, errors, symbols, decisions, tasks and summary for one session (by its "
        "transcript path or a stored session's id), sessions and where over the session store.",
        examples=[
            "artifact-index mcp   # what an MCP client starts; it speaks on stdin and stdout",
            'claude mcp add -s user artifact-index -- "$(command -v artifact-index)" mcp   # -s user: in every project',
            'codex mcp add artifact-index -- "$(command -v artifact-index)" mcp',
        ],
    )
    _add_store_option(mcp)
    mcp.set_defaults(run=cmd_mcp)

    serve = add_command(
        sub,
        "serve",
        summary="the HTTP API: the compact route and the trail of stored sessions (the http extra)",
        description="Serve the HTTP API on loopback: POST /api/sessions/ID/compact compacts the "
        "request body of a session's next call; GET routes answer what the commands print for "
        "stored sessions. A token (ARTIFACT_INDEX_HTTP_TOKEN or --token-file) guards every "
        "route but /api/health.",
        examples=[
            "artifact-index serve --no-llm",
            "artifact-index serve --port 0 --token-file ~/.artifact-index-token",
        ],
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)"
    )
    serve.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"port (default: {DEFAULT_PORT}; 0 picks a free one)",
    )
    _add_store_option(serve)
    serve.add_argument(
        "--state-dir",
        metavar="DIR",
        help="compaction event logs, one folder per session id (default: "
        "$XDG_STATE_HOME/artifact-index/sessions)",
    )
    serve.add_argument(
        "--token-file",
        metavar="FILE",
        help=f"require Authorization: Bearer TOKEN, the token read from FILE (or set {TOKEN_VARIABLE}); "
        "needed to listen beyond loopback",
    )
    serve.add_argument(
        "--context-window",
        type=int,
        metavar="N",
        help="the model's context window in tokens, unless a request says (default: 200000)",
    )
    serve.add_argument(
        "--max-body-mib",
        type=float,
        default=10,
        metavar="N",
        help="refuse request bodies over N MiB, read no further (default: 10)",
    )
    serve.add_argument(
        "--template-dir",
        metavar="DIR",
        help="?template=NAME also finds DIR/NAME.toml (by default only the built-in templates)",
    )
    add_llm_options(serve)
    serve.set_defaults(run=cmd_serve)

    install = add_command(
        sub,
        "install",
        summary="install the compaction hooks of Claude Code, Codex or OpenCode",
        description="Put the hooks where the agent looks for them, running this artifact-index "
        "by its absolute path, merged into the agent's own file without touching anything "
        "else. Run it again after moving artifact-index: the path is replaced.",
        examples=[
            "artifact-index install claude-code   # ~/.claude/settings.json",
            "artifact-index install codex --trust   # ~/.codex/hooks.json, trusted by Codex",
            "artifact-index install opencode --project --dry-run   # show what would change",
        ],
    )
    _add_agent_arguments(install)
    install.add_argument(
        "--plugin-dir",
        metavar="DIR",
        help="instead, write Claude Code's plugin layout (hooks/hooks.json) into DIR",
    )
    install.add_argument(
        "--trust",
        action="store_true",
        help="codex: have Codex (on PATH) trust the hook now, as its own review would; "
        "Codex 0.169 runs no untrusted hook",
    )
    install.set_defaults(run=cmd_install)

    uninstall = add_command(
        sub,
        "uninstall",
        summary="remove exactly what `install` added",
        description="Remove the hooks `install` added, and the files and folders it created "
        "when nothing else is in them; every other hook and setting stays as it was.",
        examples=[
            "artifact-index uninstall claude-code",
            "artifact-index uninstall codex --project",
        ],
    )
    _add_agent_arguments(uninstall)
    uninstall.set_defaults(run=cmd_uninstall)

    doctor = add_command(
        sub,
        "doctor",
        summary="what is installed where, whether it runs, and whether each agent will run it",
        description="Check this installation and every agent's hooks at every scope: the "
        "command each hook runs and whether it answers, a hook installed twice, Codex's switch "
        "and trust, an OpenCode plugin changed since it was installed. Changes nothing; exits 1 "
        "when it finds a problem.",
        examples=[
            "artifact-index doctor",
            "artifact-index doctor --project-dir ~/src/webapp --json",
            "artifact-index doctor --plugin-dir ~/claude-plugins/artifact-index",
        ],
    )
    doctor.add_argument(
        "--project-dir",
        metavar="DIR",
        help="the project whose own hooks to check too (default: the current directory)",
    )
    doctor.add_argument(
        "--plugin-dir", metavar="DIR", help="also check the Claude Code plugin folder DIR"
    )
    doctor.add_argument("--json", action="store_true", help="print JSON")
    doctor.set_defaults(run=cmd_doctor)
