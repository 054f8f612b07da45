"""The context service's compressible tools, and their names in other agents.

The context service's design names eight tools whose old output may be truncated.  Each agent
spells them its own way (Claude Code's ``Read``/``Bash``/``Grep``/``Glob``/
``WebFetch``, Codex's ``exec_command``/``shell``, OpenHands'
``str_replace_editor``/``execute_bash``, Gemini CLI's ``run_shell_command``
...); :func:`canonical_tool` maps them onto the seed's names.
"""

from __future__ import annotations

from artifact_index.ingestion.vocabulary import SHELL_TOOLS

__all__ = ["COMPRESSIBLE_TOOLS", "canonical_tool", "normalize_tool_name"]

COMPRESSIBLE_TOOLS: dict[str, frozenset[str]] = {
    "read_file": frozenset(
        {
            "read",
            "read_file",
            "readfile",
            "view",
            "view_file",
            "open_file",
            "cat",
            "read_many_files",
            "notebookread",
            "get_file",
            "file_read",
            "str_replace_editor",
            "str_replace_based_edit_tool",
            "text_editor",
            "file_editor",
        }
    ),
    "execute_command": frozenset(SHELL_TOOLS | {"bashoutput", "killshell", "write_stdin"}),
    "search_code": frozenset(
        {
            "grep",
            "search_code",
            "codebase_search",
            "grep_search",
            "ripgrep",
            "rg",
            "search",
            "find_in_files",
            "semantic_search",
            "search_file_content",
        }
    ),
    "search_files": frozenset(
        {
            "glob",
            "search_files",
            "find_files",
            "file_search",
            "list_files",
            "ls",
            "list_dir",
            "list_directory",
            "find",
            "find_file",
            "find_by_name",
        }
    ),
    "web_search": frozenset({"websearch", "web_search", "google_web_search", "search_web"}),
    "fetch_url": frozenset(
        {"webfetch", "fetch_url", "fetch", "web_fetch", "read_url", "url_fetch", "browse"}
    ),
    "write_file": frozenset(
        {"write", "write_file", "writefile", "write_to_file", "create_file", "file_write"}
    ),
    "edit_file": frozenset(
        {
            "edit",
            "edit_file",
            "multiedit",
            "multi_edit",
            "str_replace",
            "replace",
            "search_replace",
            "apply_patch",
            "applypatch",
            "notebookedit",
            "replace_in_file",
        }
    ),
}

_BY_ALIAS = {
    alias: canonical for canonical, aliases in COMPRESSIBLE_TOOLS.items() for alias in aliases
}


def normalize_tool_name(name: str) -> str:
    """Lower case; an MCP prefix (``mcp__server__tool``) reduced to the tool itself."""
    lowered = name.strip().lower()
    if lowered.startswith("mcp__"):
        lowered = lowered.rsplit("__", 1)[-1]
    return lowered.replace("-", "_")


def canonical_tool(name: str | None) -> str | None:
    """The name the context service's design gives a compressible tool, or ``None`` if ``name`` is not one."""
    if not name:
        return None
    return _BY_ALIAS.get(normalize_tool_name(name))
