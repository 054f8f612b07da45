"""Each LLM SDK is imported by one module only, so a provider's API lives in one place."""

from __future__ import annotations

import re

from tests.support.paths import ROOT

_IMPORTS = {
    "anthropic": re.compile(r"^\s*(?:import anthropic\b|from anthropic(?:\.| import))", re.M),
    "openai": re.compile(r"^\s*(?:import openai\b|from openai(?:\.| import))", re.M),
}
_OWNERS = {
    "anthropic": "summarizer/providers/anthropic_api.py",
    "openai": "summarizer/providers/openai_api.py",
}


def test_each_sdk_is_imported_by_its_provider_module_only() -> None:
    importers: dict[str, list[str]] = {sdk: [] for sdk in _IMPORTS}
    for package in ("artifact_index", "summarizer"):
        for path in sorted((ROOT / package).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            for sdk, pattern in _IMPORTS.items():
                if pattern.search(text):
                    importers[sdk].append(path.relative_to(ROOT).as_posix())
    assert importers == {sdk: [owner] for sdk, owner in _OWNERS.items()}
