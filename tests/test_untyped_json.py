"""Where the product gives up typing on a JSON object, and how often.

``dict[str, Any]`` and ``Mapping[str, Any]`` let anything through unchecked:
a field read from one is ``Any``, so mypy sees nothing of what flows on.
The project's own JSON objects are ``dict[str, object]`` (``JSONObject``),
whose fields must be narrowed before use.  What remains untyped is kept for
shapes the project does not own (an API's messages, an SDK's keyword
arguments, an older version's saved state): this test keeps that count low,
counting the aliases of those types where they are used.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("artifact_index", "summarizer")
LIMIT = 40

_UNTYPED = r"(?:Mutable)?Mapping\[str, Any\]|dict\[str, Any\]"
_ALIAS = re.compile(rf"^(_?[A-Za-z]\w*)(?:: TypeAlias)? = (?:{_UNTYPED})\s*$", re.MULTILINE)


def _sources() -> dict[Path, str]:
    return {
        path: path.read_text(encoding="utf-8")
        for package in PRODUCT
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def untyped_uses(sources: dict[Path, str], root: Path = ROOT) -> list[str]:
    """Each use of an untyped JSON object type (or of an alias of one), as ``path:line``."""
    aliases = {name for text in sources.values() for name in _ALIAS.findall(text)}
    pattern = re.compile(_UNTYPED + "".join(rf"|\b{re.escape(name)}\b" for name in sorted(aliases)))
    uses = []
    for path, text in sources.items():
        for number, line in enumerate(text.splitlines(), 1):
            if _ALIAS.match(line) or line.lstrip().startswith(("#", "__all__")):
                continue
            uses.extend(f"{path.relative_to(root)}:{number}" for _ in pattern.finditer(line))
    return uses


def test_untyped_json_objects_stay_few() -> None:
    uses = untyped_uses(_sources())
    assert len(uses) < LIMIT, f"{len(uses)} untyped JSON objects:\n" + "\n".join(uses)


def test_the_count_sees_aliases_and_both_spellings(tmp_path: Path) -> None:
    sources = {
        tmp_path / "a.py": "Blob = dict[str, Any]\n"
        "def f(x: Blob, y: Mapping[str, Any]) -> Blob: ...\n"
        "z: dict[str, object] = {}\n",
    }
    assert untyped_uses(sources, tmp_path) == ["a.py:2"] * 3


def test_the_projects_own_json_object_is_typed() -> None:
    events = (ROOT / "artifact_index" / "ingestion" / "events.py").read_text(encoding="utf-8")
    assert "JSONObject: TypeAlias = dict[str, object]" in events
