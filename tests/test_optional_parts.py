"""Which optional parts a copy can use comes from the requirements each declares, not from what imports.

The MCP SDK depends on Starlette and uvicorn, so a copy installed with
``[mcp]`` alone can serve the HTTP API too: `doctor` says where it came from
instead of listing it as asked for, and a part whose packages are there at a
version it does not accept is not usable, and said so.
"""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

import pytest

from artifact_index import distribution
from artifact_index.distribution import optional_parts, present_extras
from summarizer.integrations.doctor import examine


def _parts() -> dict[str, distribution.OptionalPart]:
    return {part.name: part for part in optional_parts()}


def _doctor_says(home: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    return [finding.text for finding in examine(home)]


def test_the_http_apis_server_counts_as_having_come_with_the_mcp_sdk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The test environment has every part; the MCP SDK's own requirements name Starlette and uvicorn.
    parts = _parts()
    assert set(parts) == {"mcp", "http", "dask"}
    assert all(part.usable for part in parts.values())
    assert parts["http"].came_with == "mcp"
    assert parts["mcp"].came_with is None and parts["dask"].came_with is None
    line = next(text for text in _doctor_says(tmp_path, monkeypatch) if "optional parts:" in text)
    assert "http (its dependencies came with mcp)" in line


def test_a_part_at_a_version_it_does_not_accept_is_not_usable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = metadata.version

    def version(name: str) -> str:
        return "0.30.0" if name == "starlette" else real(name)

    monkeypatch.setattr(distribution.metadata, "version", version)
    http = _parts()["http"]
    assert not http.usable and http.came_with is None
    assert http.unmet == (("starlette<2,>=0.40", "0.30.0"),)
    assert "http" not in present_extras()
    notes = _doctor_says(tmp_path, monkeypatch)
    assert "optional part http is not usable: it needs starlette<2,>=0.40 (0.30.0)" in notes


def test_the_hint_that_adds_a_part_keeps_the_parts_asked_for_and_not_those_they_brought(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(
        distribution,
        "installation",
        lambda: distribution.Installation(
            "uv-tool", Path("/tools/artifact-index"), "file:///src", False
        ),
    )
    real = metadata.version

    def without_dask(name: str) -> str:
        if name in ("dask", "distributed"):
            raise metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(distribution.metadata, "version", without_dask)
    assert distribution.reinstall_with("dask") == (
        "uv tool install --force 'artifact-index[dask,mcp] @ file:///src'"
    )
