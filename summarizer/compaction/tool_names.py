"""The compressible tools: whose old output micro-compaction may truncate.

Eight kinds of tool produce output that is safe to shorten once it is old:
reading a file, running a command, searching code, finding files, searching
the web, fetching a URL, writing and editing a file.  Each agent spells them
its own way (Claude Code's ``Read``/``Bash``/``Grep``/``Glob``/``WebFetch``,
Codex's ``exec_command``, OpenHands' ``str_replace_editor``/``execute_bash``,
Gemini CLI's ``run_shell_command`` ...); the engine's tool vocabulary
(:mod:`artifact_index.ingestion.vocabulary`) knows them all, and
:func:`canonical_tool` names the kind a tool belongs to.
"""

from __future__ import annotations

from artifact_index.ingestion.vocabulary import TOOL_FAMILIES, ToolFamily, tool_family, tool_key

__all__ = ["COMPRESSIBLE_TOOLS", "canonical_tool", "normalize_tool_name"]

# Each compressible kind, and the vocabulary's families it covers.
_KINDS: dict[str, tuple[ToolFamily, ...]] = {
    "read_file": ("read", "editor"),
    "execute_command": ("shell", "shell_session"),
    "search_code": ("search_code",),
    "search_files": ("search_files",),
    "web_search": ("web_search",),
    "fetch_url": ("fetch_url",),
    "write_file": ("write", "create"),
    "edit_file": ("edit", "multi_edit", "notebook_edit", "patch"),
}

COMPRESSIBLE_TOOLS: dict[str, frozenset[str]] = {
    kind: frozenset().union(*(TOOL_FAMILIES[family] for family in families))
    for kind, families in _KINDS.items()
}

_KIND_OF: dict[ToolFamily, str] = {
    family: kind for kind, families in _KINDS.items() for family in families
}


def normalize_tool_name(name: str) -> str:
    """The name a tool is known by: lower case, ``_`` for ``-``, no MCP prefix."""
    return tool_key(name)


def canonical_tool(name: str | None) -> str | None:
    """The compressible kind of a tool, or ``None`` if ``name`` is not compressible."""
    if not name:
        return None
    family = tool_family(name)
    return _KIND_OF.get(family) if family is not None else None
