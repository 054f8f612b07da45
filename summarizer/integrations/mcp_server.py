"""The MCP server (``artifact-index mcp``): the file trail as tools an agent can call, over stdio.

Built on the official ``mcp`` SDK (the ``artifact-index[mcp]`` extra).
Every tool takes the session as ``transcript`` (a path) or ``session`` (an
id of the session store, e.g. a session ``artifact-index watch`` keeps
current) and returns the JSON the command line prints; ``summary`` returns
Markdown.  A mistake (an unknown session, an unreadable file) comes back as
a tool error of one sentence, for the model to read and correct.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, Field, ValidationError

from artifact_index import __version__
from artifact_index.distribution import reinstall_with
from artifact_index.exceptions import ArtifactIndexError, one_line
from artifact_index.ingestion.events import JSONObject
from summarizer.exceptions import SummarizerError
from summarizer.integrations.access import Document, SessionAccess
from summarizer.sections.templates import DEFAULT_TEMPLATE

__all__ = ["build_server", "serve_stdio"]

Answer = TypeVar("Answer")

Transcript = Annotated[
    str | None, Field(description="Path of a transcript file (any format artifact-index reads)")
]
Session = Annotated[
    str | None,
    Field(
        description="Id of a stored session (see the sessions tool): the store's id, "
        "the agent's session id, or the transcript path"
    ),
]
Since = Annotated[
    str | None,
    Field(description="Only sessions active since: 7d, 24h, 2w, or a date like 2026-11-01"),
]

_INSTRUCTIONS = (
    "The exact file trail of coding-agent sessions, computed from their transcripts without an LLM: which files "
    "were created, modified, deleted, renamed and read, with the turns and tools; the error ledger and test "
    "results; symbols changed; decisions; tasks; and a structured summary. Name a session by its transcript path "
    "or by a stored session id (the sessions tool lists them). Use it after a compaction instead of re-reading "
    "files to learn what was already done."
)


def _answer(work: Callable[[], Answer]) -> Answer:
    """Run a tool's work; a domain error becomes the tool error the model reads."""
    from mcp.server.mcpserver.exceptions import ToolError

    try:
        return work()
    except ArtifactIndexError as exc:
        raise ToolError(one_line(exc)) from exc


def build_server(access: SessionAccess) -> Any:
    """The MCP server with its tools, answering from ``access``."""
    try:
        from mcp.server.mcpserver import MCPServer
    except ImportError as exc:
        raise SummarizerError(
            f"the MCP server is an optional part this installation lacks: {reinstall_with('mcp')}"
        ) from exc

    class Server(MCPServer):
        """Refuses what a tool does not take, in one sentence, before the SDK's own checks."""

        async def call_tool(self, name: str, arguments: JSONObject, context: Any = None) -> Any:
            tool = self._tool_manager.get_tool(name)
            if tool is not None:
                _check_arguments(name, tool.fn_metadata.arg_model, arguments)
            return await super().call_tool(name, arguments, context)

    server = Server(
        name="artifact-index", version=__version__, instructions=_INSTRUCTIONS, log_level="WARNING"
    )

    @server.tool(
        description="Files the session created, modified, deleted, renamed and read, with turns, tools "
        "and evidence (the `files --json` document)."
    )
    def files(
        transcript: Transcript = None,
        session: Session = None,
        changed: Annotated[bool, Field(description="Leave out files that were only read")] = False,
        workspace_only: Annotated[
            bool, Field(description="Leave out files outside the workspace root")
        ] = False,
    ) -> Document:
        return _answer(
            lambda: access.files(
                transcript, session, changed=changed, workspace_only=workspace_only
            )
        )

    @server.tool(
        description="One file's timeline in the session: every operation with its turn, tool and result, "
        "and the net diff where the session showed both sides."
    )
    def history(
        path: Annotated[
            str,
            Field(description="The file, as the files tool prints it, or the end of its path"),
        ],
        transcript: Transcript = None,
        session: Session = None,
    ) -> Document:
        return _answer(lambda: access.history(path, transcript, session))

    @server.tool(
        description="The error ledger: exact error messages with file, line and symbol, first and last "
        "turn, resolved or open; the session's original error; the last result of each test "
        "command."
    )
    def errors(transcript: Transcript = None, session: Session = None) -> Document:
        return _answer(lambda: access.query("errors", transcript, session))

    @server.tool(
        description="Functions, methods and classes each change added, modified or removed, and those "
        "the reads showed."
    )
    def symbols(
        transcript: Transcript = None,
        session: Session = None,
        changed: Annotated[
            bool, Field(description="Leave out symbols that were only read")
        ] = False,
    ) -> Document:
        return _answer(lambda: access.symbols(transcript, session, changed=changed))

    @server.tool(
        description="Candidate decisions the assistant stated (choices, rejected alternatives, root "
        "causes), with the files and symbols they name."
    )
    def decisions(transcript: Transcript = None, session: Session = None) -> Document:
        return _answer(lambda: access.query("decisions", transcript, session))

    @server.tool(description="The agent's latest task list and every message the user typed.")
    def tasks(transcript: Transcript = None, session: Session = None) -> Document:
        return _answer(lambda: access.query("tasks", transcript, session))

    @server.tool(
        description="The structured compaction summary (Markdown): the sections the index knows are exact; "
        "the narrative is written offline unless an Anthropic API key is configured."
    )
    def summary(
        transcript: Transcript = None,
        session: Session = None,
        template: Annotated[
            str,
            Field(description="default, claude-code, debugging or migration (default: default)"),
        ] = DEFAULT_TEMPLATE,
    ) -> str:
        return _answer(lambda: access.summary(transcript, session, template=template))

    @server.tool(
        description="The sessions in the session store, most recent first, with their changed and read "
        "files and open errors counted."
    )
    def sessions(
        root: Annotated[
            str | None,
            Field(description="Only sessions whose workspace is this folder or inside it"),
        ] = None,
        since: Since = None,
    ) -> Document:
        return _answer(lambda: access.sessions(root, since))

    @server.tool(description="Which stored sessions touched a file, and how (status, turns).")
    def where(
        path: Annotated[
            str,
            Field(description="The file; a relative path or a bare name matches it anywhere"),
        ],
        since: Since = None,
    ) -> Document:
        return _answer(lambda: access.where(path, since))

    # Advertised too: a client that reads the schema knows no other argument is taken.
    for tool in server._tool_manager.list_tools():
        tool.parameters["additionalProperties"] = False
    return server


def _check_arguments(name: str, model: type[BaseModel], arguments: JSONObject) -> None:
    """One sentence for an argument the tool does not take or a value of the wrong kind."""
    from mcp.server.mcpserver.exceptions import ToolError

    taken = sorted(model.model_fields)
    unknown = sorted(set(arguments) - set(taken))
    if unknown:
        raise ToolError(
            f"{name} takes {', '.join(taken) or 'no arguments'}; not {', '.join(unknown)}"
        )
    try:
        model.model_validate(arguments)
    except ValidationError as exc:
        problem = exc.errors(include_url=False)[0]
        where = ".".join(str(part) for part in problem["loc"]) or "the arguments"
        raise ToolError(f"{name}: {where}: {problem['msg']}") from None


def serve_stdio(store: str | Path | None = None) -> None:
    """Serve on standard input and output until the client closes them."""
    build_server(SessionAccess(store)).run("stdio")
