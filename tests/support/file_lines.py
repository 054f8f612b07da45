"""What a scripted reply leaves out of the per-file lines, filled in as a model would (tests of other things)."""

from __future__ import annotations

from typing import Any

__all__ = ["complete_file_lines"]

FILE_NOTES = "files_changed"


def complete_file_lines(tool_input: Any, schema: dict[str, Any]) -> Any:
    """``tool_input`` with a line for each changed path the schema asks for, when the test scripted none.

    A test that checks the per-file lines scripts them itself (and they are validated as sent).
    """
    if not isinstance(tool_input, dict) or FILE_NOTES in tool_input:
        return tool_input
    wanted = schema.get("properties", {}).get(FILE_NOTES)
    others = [key for key in schema.get("required", []) if key != FILE_NOTES]
    if wanted is None or any(key not in tool_input for key in others):
        return tool_input  # a reply malformed on purpose stays as the test wrote it
    ref = wanted.get("$ref") or next(
        (s.get("$ref") for s in wanted.get("allOf", []) if "$ref" in s), None
    )
    model = schema.get("$defs", {}).get(ref.rsplit("/", 1)[-1], {}) if ref else wanted
    paths = list(model.get("properties", {}))
    return {**tool_input, FILE_NOTES: {path: f"The change to {path}." for path in paths}}
