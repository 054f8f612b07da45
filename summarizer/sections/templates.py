"""Summary templates: an ordered list of sections, each filled from the index or by the narrative writer.

Built-in templates are TOML files shipped as package data
(``summarizer/sections/builtin_templates/*.toml``); a user's own template is a TOML file of
the same shape::

    name = "mine"
    style = "markdown"          # or "claude-code": <analysis> then <summary>
    budget_tokens = 6000

    [[sections]]
    title = "Session Intent"
    fill = "narrative"          # written by the LLM / the offline writer
    key = "intent"
    instructions = "What the user is trying to accomplish."

    [[sections]]
    title = "Files Modified"
    fill = "index"              # rendered exactly from the artifact index
    key = "files_modified"
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from artifact_index.ingestion.events import JSONObject
from summarizer.exceptions import TemplateError
from summarizer.sections.index_keys import INDEX_KEYS, IndexKey
from summarizer.sections.template_name import DEFAULT_TEMPLATE

__all__ = [
    "DEFAULT_TEMPLATE",
    "INDEX_KEYS",
    "IndexKey",
    "Section",
    "Template",
    "builtin_templates",
    "load_template",
]


class Section(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    title: str = Field(min_length=1)
    fill: Literal["index", "narrative"]
    key: str
    instructions: str = ""

    @model_validator(mode="after")
    def _known_key(self) -> Section:
        known = INDEX_KEYS if self.fill == "index" else None
        if known is not None and self.key not in known:
            raise ValueError(f"index section key {self.key!r} is not one of {sorted(INDEX_KEYS)}")
        if self.fill == "narrative" and (not self.key.isidentifier() or self.key.startswith("_")):
            raise ValueError(f"narrative section key {self.key!r} must be an identifier")
        if self.fill == "narrative" and (
            self.key.startswith("model_") or hasattr(BaseModel, self.key)
        ):
            # Narrative keys become fields of the writer's pydantic reply model.
            raise ValueError(f"narrative section key {self.key!r} is reserved; choose another name")
        return self


class Template(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    name: str
    style: Literal["markdown", "claude-code"] = "markdown"
    budget_tokens: int = Field(default=6000, ge=500)
    sections: list[Section] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_keys(self) -> Template:
        # The narrative keys are the fields of the writer's reply model: two
        # sections with one key would silently share (or lose) their items.
        keys = [s.key for s in self.sections]
        repeated = sorted({k for k in keys if keys.count(k) > 1})
        if repeated:
            raise ValueError(
                f"section key(s) {', '.join(map(repr, repeated))} appear more than once"
            )
        return self

    @property
    def narrative_sections(self) -> list[Section]:
        return [s for s in self.sections if s.fill == "narrative"]


def builtin_templates() -> list[str]:
    folder = resources.files("summarizer.sections") / "builtin_templates"
    return sorted(
        p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml")
    )


def load_template(name_or_path: str) -> Template:
    """A built-in template by name, or a user's TOML file by path."""
    if name_or_path in builtin_templates():
        text = (
            resources.files("summarizer.sections") / "builtin_templates" / f"{name_or_path}.toml"
        ).read_text(encoding="utf-8")
        where = f"built-in template {name_or_path!r}"
    else:
        path = Path(name_or_path)
        if not path.is_file():
            raise TemplateError(
                f"no template {name_or_path!r}: give a built-in name ({', '.join(builtin_templates())}) "
                "or the path of a TOML file"
            )
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise TemplateError(f"{path} cannot be read ({exc})") from exc
        where = str(path)
    import tomllib  # only a template being read needs the TOML parser, not every command

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TemplateError(f"{where} is not valid TOML ({exc})") from exc
    try:
        return Template.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        message = first["msg"].removeprefix("Value error, ")
        raise TemplateError(
            f"{where} is not a valid template: {_where_in(data, first['loc'])}{message}"
        ) from exc


def _where_in(data: JSONObject, loc: tuple[int | str, ...]) -> str:
    """``loc`` as a reader finds it in the file: sections by number and title, not by 0-based index."""
    if not loc:
        return ""
    if loc[0] == "sections" and len(loc) > 1 and isinstance(loc[1], int):
        sections = data.get("sections")
        title = None
        if (
            isinstance(sections, list)
            and loc[1] < len(sections)
            and isinstance(sections[loc[1]], dict)
        ):
            title = sections[loc[1]].get("title")
        named = f"section {loc[1] + 1}" + (
            f" ({title!r})" if isinstance(title, str) and title else ""
        )
        rest = ".".join(str(p) for p in loc[2:])
        return f"{named}{' ' + rest if rest else ''}: "
    return ".".join(str(p) for p in loc) + ": "
