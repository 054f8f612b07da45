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

from artifact_index.distribution import reinstall_with
from artifact_index.exceptions import UsageError
from artifact_index.redaction import redact_text
from summarizer.exceptions import SummarizerError

if TYPE_CHECKING:
    from summarizer.integrations.install import Scope

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


def _codex_hooks_disabled() -> str | None:
    """Why Codex would not run the hooks, read from its config.toml, if it says so."""
    import tomllib

    from summarizer.integrations.agents import codex_home

    config = codex_home() / "config.toml"
    try:
        features = tomllib.loads(config.read_text(encoding="utf-8")).get("features", {})
    except (OSError, tomllib.TOMLDecodeError):
        return None
    for key in ("hooks", "codex_hooks"):
        if isinstance(features, dict) and features.get(key) is False:
            return f"{config} turns hooks off ([features] {key} = false): Codex will not run them"
    return None


def _project(args: argparse.Namespace) -> Path:
    return Path(args.project_dir) if args.project_dir else Path.cwd()


def _scope(args: argparse.Namespace) -> Scope:
    return "local" if args.local else "project" if args.project else "user"


def cmd_install(args: argparse.Namespace) -> int:
    from summarizer.integrations.install import install, installed_command, write_claude_plugin

    command = installed_command()
    if args.trust and args.agent != "codex":
        raise UsageError("--trust is for codex, whose hooks run only once trusted")
    if args.plugin_dir:
        if args.agent != "claude-code":
            raise UsageError(
                "--plugin-dir writes Claude Code's plugin layout; it is for claude-code only"
            )
        folder = write_claude_plugin(Path(args.plugin_dir), command)
        print(
            f"wrote Claude Code's plugin to {folder} (load it with: claude --plugin-dir {folder})"
        )
        return 0
    change = install(args.agent, _scope(args), _project(args), command)
    runs = " ".join(command)
    if change.done == "unchanged":
        print(f"already installed in {change.path} ({change.what}, running {runs})")
    else:
        print(f"{change.done} {change.what} in {change.path}, running {runs}")
        print(_AFTER_INSTALL[args.agent])
    if args.agent == "codex" and (warning := _codex_hooks_disabled()):
        print(f"artifact-index: warning: {warning}", file=sys.stderr)
    if args.trust:
        return _trust_codex(change.path, _project(args))
    return 0


def _trust_codex(hooks_file: Path, project: Path) -> int:
    """``--trust``: Codex records our hook as trusted, as its own review would (the hook is installed either way)."""
    import shutil

    from summarizer.integrations.codex_trust import trust_codex_hooks
    from summarizer.integrations.install import InstallError

    codex = shutil.which("codex")
    if codex is None:
        print(
            "artifact-index: `codex` is not on PATH, so the hook is installed but not trusted: start `codex` "
            "and trust it there",
            file=sys.stderr,
        )
        return 1
    try:
        keys = trust_codex_hooks(codex, hooks_file, project.resolve())
    except InstallError as exc:
        print(
            f"artifact-index: the hook is installed but not trusted ({exc}): start `codex` and trust it there",
            file=sys.stderr,
        )
        return 1
    print(f"Codex trusts it now ({', '.join(keys)}), as you asked with --trust.")
    return 0


def cmd_uninstall(args: argparse.Namespace) -> int:
    from summarizer.integrations.install import uninstall

    change = uninstall(args.agent, _scope(args), _project(args))
    if change.done == "removed":
        print(f"removed {change.what} from {change.path}")
    else:
        print(f"nothing to remove from {change.path} ({change.what})")
    return 0


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


def _add_store_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store",
        metavar="FILE",
        help="the session store (default: $ARTIFACT_INDEX_STORE, else "
        "$XDG_DATA_HOME/artifact-index/sessions.db)",
    )


def register_integration_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``mcp``, ``serve``, ``install``, ``uninstall`` and ``doctor`` to the ``artifact-index`` parser."""
    from artifact_index.presentation.cli import add_command
    from summarizer.cli import add_llm_options

    mcp = add_command(
        sub,
        "mcp",
        summary="the MCP server on standard input and output (the mcp extra)",
        description="Serve the index to an MCP client over standard input and output: the tools "
        "files, history, errors, symbols, decisions, tasks and summary for one session (by its "
        "transcript path or a stored session's id), sessions and where over the session store.",
        examples=[
            "artifact-index mcp   # what an MCP client starts; it speaks on stdin and stdout",
            'claude mcp add artifact-index -- "$(command -v artifact-index)" mcp',
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
