"""Settings of the summarizer: which model writes the narrative, and whether one is used at all.

Read from a TOML file with the seed's key (``[context] compactionModel``;
empty means the session's own model) and from the environment
(``ANTHROPIC_API_KEY``, ``ANTHROPIC_BASE_URL`` are the SDK's own).
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from summarizer.exceptions import SummarizerError

__all__ = [
    "DEFAULT_MODEL",
    "ContextSettings",
    "Settings",
    "api_key_configured",
    "load_settings",
    "pick_model",
]

# Used only when neither the config nor the transcript names a model.
DEFAULT_MODEL = "claude-sonnet-4-5"


class ContextSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    compaction_model: str = Field(default="", alias="compactionModel")


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    context: ContextSettings = Field(default_factory=ContextSettings)


def load_settings(path: str | Path | None) -> Settings:
    if path is None:
        return Settings()
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        return Settings.model_validate(data)
    except OSError as exc:
        raise SummarizerError(f"config {path} cannot be read ({exc.strerror or exc})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise SummarizerError(f"config {path} is not valid TOML ({exc})") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        raise SummarizerError(
            f"config {path}: {'.'.join(map(str, first['loc']))}: {first['msg']}"
        ) from exc


def pick_model(explicit: str | None, settings: Settings, session_model: str | None) -> str:
    """``--model``, else ``context.compactionModel``, else the session's model, else the default."""
    return explicit or settings.context.compaction_model or session_model or DEFAULT_MODEL


def api_key_configured() -> bool:
    return bool(os.environ.get("ANTHROPIC_API_KEY"))
