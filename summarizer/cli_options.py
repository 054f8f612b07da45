"""The options of every command that writes a summary: the template and the narrative's writer.

Its own module so that the integrations' commands (``serve``) share them
without importing the command line that registers them.
"""

from __future__ import annotations

import argparse

from summarizer.sections.template_name import DEFAULT_TEMPLATE

__all__ = ["add_llm_options", "add_provider_options"]


def add_provider_options(parser: argparse.ArgumentParser, what: str = "the narrative") -> None:
    """--llm/--no-llm, --provider, --base-url, --model, --config: which LLM writes ``what``."""
    llm = parser.add_mutually_exclusive_group()
    llm.add_argument(
        "--llm",
        dest="llm",
        action="store_true",
        default=None,
        help=f"write {what} with an LLM (the default when a provider is configured: "
        "ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENAI_BASE_URL, --provider or the config's [llm])",
    )
    llm.add_argument(
        "--no-llm", dest="llm", action="store_false", help="no LLM: only what code can do offline"
    )
    parser.add_argument(
        "--provider",
        choices=["anthropic", "openai"],
        help="the LLM's API: anthropic, or openai for any OpenAI-compatible endpoint (OpenAI, "
        "OpenRouter, Ollama, llama.cpp, vLLM); default: the config's [llm] provider, else the "
        "one whose key is set",
    )
    parser.add_argument(
        "--base-url",
        metavar="URL",
        help="the endpoint, e.g. http://localhost:11434/v1 for Ollama (default: the config's "
        "[llm] base_url, else OPENAI_BASE_URL / ANTHROPIC_BASE_URL); a local server needs no key",
    )
    parser.add_argument(
        "--model",
        help=f"model for {what} (default: context.compactionModel, else the session's "
        "model when the provider serves it)",
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="TOML settings ([context] compactionModel; [llm] provider, base_url, api_key_env)",
    )


def add_llm_options(parser: argparse.ArgumentParser) -> None:
    """The options of every command that writes a summary: the template and the narrative's writer."""
    parser.add_argument(
        "--template",
        default=DEFAULT_TEMPLATE,
        metavar="NAME|FILE",
        help="built-in template (default, claude-code, debugging, migration) or a TOML file "
        f"(default: {DEFAULT_TEMPLATE})",
    )
    add_provider_options(parser)
    parser.add_argument(
        "--instructions",
        action="append",
        default=[],
        metavar="TEXT",
        help="extra context for the narrative writer (repeatable), like a PreCompact hook's",
    )
