"""The commands that put the index where agents compact: ``mcp``, ``serve``, ``install`` and ``uninstall``.

Each imports its server or installer when run, so the rest of the command
line pays nothing for them; a missing optional extra is one sentence naming
the ``pip install`` that brings it.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from artifact_index.redaction import redact_text
from summarizer.exceptions import SummarizerError

__all__ = ["register_integration_commands"]

DEFAULT_PORT = 8765


def cmd_mcp(args: argparse.Namespace) -> int:
    from summarizer.integrations.mcp_server import serve_stdio

    serve_stdio(args.store)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from summarizer.integrations.http_api import LOOPBACK_HOSTS, Compaction, build_app, serve
    except ImportError as exc:
        raise SummarizerError("the HTTP API needs its extra: pip install 'artifact-index[http]'") from exc
    from summarizer.compaction.summary_message import user_state_directory
    from summarizer.integrations.access import SessionAccess

    state = Path(args.state_dir) if args.state_dir else user_state_directory() / "sessions"
    compaction = Compaction(state_root=state, template=args.template, use_llm=args.llm, model=args.model,
                            config=args.config, context_window=args.context_window,
                            instructions=tuple(args.instructions))
    loopback = args.host in LOOPBACK_HOSTS
    if not loopback:
        print(f"artifact-index: warning: {args.host} is not a loopback address and the API has no "
              "authentication: whoever reaches it can read the stored sessions' trails", file=sys.stderr)
    app = build_app(SessionAccess(args.store), compaction, LOOPBACK_HOSTS if loopback else None)

    def announce(address: str) -> None:
        print(redact_text(f"artifact-index: serving on {address}/api (Ctrl-C stops)"), file=sys.stderr, flush=True)

    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how a server stops
        serve(app, args.host, args.port, announce)
    return 0


def _add_store_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--store", metavar="FILE", help="the session store (default: $ARTIFACT_INDEX_STORE, else "
                                                        "$XDG_DATA_HOME/artifact-index/sessions.db)")


def register_integration_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``mcp`` and ``serve`` to the ``artifact-index`` parser."""
    from summarizer.cli import add_llm_options

    mcp = sub.add_parser("mcp", help="the MCP server on standard input and output (needs artifact-index[mcp])")
    _add_store_option(mcp)
    mcp.set_defaults(run=cmd_mcp)

    serve = sub.add_parser("serve", help="the HTTP API: seed 000's compact route and the trail of stored "
                                         "sessions (needs artifact-index[http])")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT,
                       help=f"port (default: {DEFAULT_PORT}; 0 picks a free one)")
    _add_store_option(serve)
    serve.add_argument("--state-dir", metavar="DIR",
                       help="compaction event logs, one folder per session id (default: "
                            "$XDG_STATE_HOME/artifact-index/sessions)")
    serve.add_argument("--context-window", type=int, metavar="N",
                       help="the model's context window in tokens, unless a request says (default: 200000)")
    add_llm_options(serve, "claude-code")
    serve.set_defaults(run=cmd_serve)
