"""Work items of issue trackers driven from the shell: ``bd`` (beads) and ``gh issue`` / ``gh pr``.

Many agents keep their plan outside the todo tool, in the project's issue
tracker: ``bd update spotter-gqc.6 --status in_progress`` to start an item,
``bd close spotter-gqc.6`` when it is done, ``bd show`` and ``bd ready`` to
pick the next one, ``gh pr create`` and ``gh pr merge`` to hand work in.
Those items are the session's tasks as much as a ``TodoWrite`` list is.
:func:`observe_tracker_command` folds one shell command and what it printed
into the items seen so far; only what the command did or showed is taken:

* a state change (create, update ``--status``, close, reopen, merge) counts
  when the tracker confirmed it (``✓ Updated issue: X``, the URL ``gh``
  prints) or the command succeeded;
* ``bd show`` (text or ``--json``) names the item, its title, its state and
  its description; the session looked at it, so it is tracked from then on;
* listings (``bd list``, ``bd ready``, an epic's children) only refresh the
  state of items already tracked: the rest of a backlog is not the
  session's work.  The latest listing is kept whole beside them
  (:attr:`TrackedItems.listing`): it is what the session would pick its next
  item from.  And every item any listing showed is remembered as it was
  last listed (:attr:`TrackedItems.seen`: state, title, the turn and the
  command), so the open items of the epic in hand are known even when a
  later ``bd ready`` of the whole backlog left them out.

The items live in the session state (:class:`TrackedItems`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from artifact_index.facts.errors.checks import segments
from artifact_index.lazy_pattern import lazy_pattern

__all__ = [
    "ListedItem",
    "SeenInListing",
    "TrackedItems",
    "TrackerListing",
    "WorkItem",
    "WorkItemStatus",
    "observe_tracker_command",
]

WorkItemStatus = Literal["open", "in_progress", "blocked", "deferred", "closed", "merged"]

_STATUS: dict[str, WorkItemStatus] = {
    "open": "open",
    "ready": "open",
    "reopened": "open",
    "in_progress": "in_progress",
    "in-progress": "in_progress",
    "blocked": "blocked",
    "deferred": "deferred",
    "closed": "closed",
    "done": "closed",
    "merged": "merged",
}
_GLYPH: dict[str, WorkItemStatus] = {
    "○": "open",
    "◐": "in_progress",
    "✓": "closed",
    "❄": "deferred",
}
_HINT = lazy_pattern(r"(?:^|[\s;&|(/])(?:bd|gh)\s")
_MAX_DESCRIPTION = 4000
_MAX_LISTED = (
    200  # items of one listing remembered: the rest of a long backlog is not the session's work
)

# `bd show`: "○ spotter-gqc.4 · Title   [● P2 · OPEN]" (an epic adds "[EPIC]" before the dot).
_BD_HEADER = lazy_pattern(
    r"^[○◐●✓❄]\s+(?P<id>[\w.-]+)(?P<epic>\s+\[EPIC\])?\s+·\s+(?P<title>.+?)\s+"
    r"\[●\s*P\d\s*·\s*(?P<status>[A-Z_]+)\]\s*$",
    re.M,
)
# A section heading of `bd show`: a line of capitals alone ("DESCRIPTION", "DEPENDS ON").
_BD_SECTION = lazy_pattern(r"^[A-Z][A-Z ]{2,30}$")
# `bd list`: "○ spotter-gqc.7 [● P2] [task] - Title (blocked by: ...)"; an epic's child: "↳ ✓ spotter-dov.1: Title ● P1".
_BD_LISTED = lazy_pattern(r"^\s*(?:↳\s*)?(?P<glyph>[○◐●✓❄])\s+(?P<id>[\w.-]+?)(?::|\s+\[)", re.M)
# `bd ready`: "3. [● P1] [task] spotter-a0y.3: Title" -- ready means open and unblocked.
_BD_READY = lazy_pattern(r"^\s*\d+\.\s+\[●\s*P\d\]\s+\[\w+\]\s+(?P<id>[\w.-]+):", re.M)
# The same lines read whole, for the latest listing: id, title and kind.
_BD_READY_LINE = lazy_pattern(
    r"^\s*\d+\.\s+\[●\s*P\d\]\s+\[(?P<kind>\w+)\]\s+(?P<id>[\w.-]+):\s*(?P<title>.+?)\s*$", re.M
)
_BD_LIST_LINE = lazy_pattern(
    r"^\s*(?P<glyph>[○◐●✓❄])\s+(?P<id>[\w.-]+)\s+\[●\s*P\d\]\s+\[(?P<kind>\w+)\]\s+-\s+"
    r"(?P<title>.+?)(?:\s+\(blocked by:[^)]*\))?\s*$",
    re.M,
)
_BD_CHILD_LINE = lazy_pattern(
    r"^\s*↳\s*(?P<glyph>[○◐●✓❄])\s+(?P<id>[\w.-]+):\s*(?P<title>.+?)(?:\s+●\s*P\d)?\s*$", re.M
)
_BD_CONFIRMED = lazy_pattern(
    r"✓\s+(?P<verb>Created issue|Updated issue|Closed|Reopened)[:\s]\s*(?P<id>[\w.-]+?)"
    r"(?::\s*|\s+—\s+|\s*$)(?P<rest>.*)$",
    re.M,
)
_GH_URL = lazy_pattern(
    r"https://github\.com/(?P<repo>[\w.-]+/[\w.-]+)/(?P<kind>issues|pull)/(?P<number>\d+)"
)
_GH_DONE = lazy_pattern(
    r"(?P<verb>Merged|Squashed and merged|Rebased and merged|Closed|Reopened) "
    r"(?P<kind>pull request|issue) (?:[\w.-]+/[\w.-]+)?#(?P<number>\d+)(?: \((?P<title>.+)\))?"
)


class WorkItem(BaseModel):
    """One tracker item as the session's commands last showed or left it."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    id: str  # "spotter-gqc.6", "#754", "owner/repo#12"
    tracker: Literal["bd", "gh issue", "gh pr"]
    title: str | None = None
    kind: str | None = None  # "epic", "task", "bug" when the tracker said
    status: WorkItemStatus
    turn: int  # when its state was last set or shown
    created_turn: int | None = None  # created in the session
    started_turn: int | None = None  # set in progress in the session (the latest time)
    closed_turn: int | None = None  # closed or merged in the session (the latest time)
    closed_reason: str | None = None
    description: str | None = None  # as `bd show` printed it


class ListedItem(BaseModel):
    """One line of a tracker listing."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    id: str
    title: str
    status: WorkItemStatus
    kind: str | None = None


class SeenInListing(ListedItem):
    """An item as the latest listing that showed it left it."""

    turn: int
    command: str


class TrackerListing(BaseModel):
    """The latest listing of a tracker's items the session printed (``bd ready``, ``bd list``, an epic's children)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    turn: int
    command: str
    items: list[ListedItem]


class TrackedItems(BaseModel):
    """The items the session drove or looked at, its latest listing, and every item a listing showed."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    items: dict[str, WorkItem] = Field(default_factory=dict)  # by "<tracker> <id>", in order
    listing: TrackerListing | None = None
    seen: dict[str, SeenInListing] = Field(default_factory=dict)  # by id


def _key(tracker: str, item_id: str) -> str:
    return f"{tracker} {item_id}"


def _option(args: list[str], *names: str) -> str | None:
    """The value of ``--name value`` / ``--name=value`` (the last one given)."""
    found = None
    for n, arg in enumerate(args):
        for name in names:
            if arg == name and n + 1 < len(args):
                found = args[n + 1]
            elif arg.startswith(name + "=") and name.startswith("--"):
                found = arg[len(name) + 1 :]
    return found


_BD_VALUE_OPTIONS = frozenset(
    {
        "--status",
        "-s",
        "--reason",
        "-r",
        "--title",
        "-t",
        "--type",
        "--priority",
        "-p",
        "--parent",
        "--description",
        "-d",
        "--design",
        "--acceptance",
        "--labels",
        "-l",
        "--assignee",
        "-a",
        "--notes",
        "--append-notes",
        "--deps",
        "--body-file",
        "--context",
        "--external-ref",
        "--estimate",
        "-e",
    }
)


def _positionals(args: list[str], value_options: frozenset[str]) -> list[str]:
    out: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in value_options:
            skip = True
        elif not arg.startswith("-"):
            out.append(arg)
    return out


class _Items:
    """The items being updated by one command, at its turn."""

    def __init__(self, stored: dict[str, WorkItem], turn: int) -> None:
        self.stored = stored
        self.turn = turn

    def get(self, tracker: str, item_id: str) -> WorkItem | None:
        return self.stored.get(_key(tracker, item_id))

    def by_number(self, tracker: str, number: str) -> list[str]:
        """The ids of the followed items of ``tracker`` numbered ``number``, in any repository (``#12``, ``o/r#12``)."""
        return [
            item.id
            for item in self.stored.values()
            if item.tracker == tracker and item.id.rsplit("#", 1)[-1] == number
        ]

    def put(
        self,
        tracker: Literal["bd", "gh issue", "gh pr"],
        item_id: str,
        *,
        track: bool = True,
        **changes: Any,
    ) -> None:
        """Set fields of an item; a new item is added only when ``track`` (the session acted on it or showed it)."""
        current = self.get(tracker, item_id)
        if current is None:
            if not track or changes.get("status") is None:
                return  # an item first met without a state (`bd update X --notes ...`) is not tracked
            current = WorkItem(
                id=item_id, tracker=tracker, status=changes["status"], turn=self.turn
            )
        values = {k: v for k, v in changes.items() if v is not None}
        # Validated again, as the saved JSON was: a value of the wrong kind is refused here.
        self.stored[_key(tracker, item_id)] = WorkItem.model_validate(
            {**current.model_dump(), **values, "turn": self.turn}
        )


# --- bd ----------------------------------------------------------------------------------------


def _bd_shown(output: str, items: _Items) -> None:
    """Items printed by ``bd show``: title, state, kind and description."""
    headers = list(_BD_HEADER.finditer(output))
    for n, header in enumerate(headers):
        end = headers[n + 1].start() if n + 1 < len(headers) else len(output)
        body = output[header.end() : end]
        items.put(
            "bd",
            header["id"],
            title=header["title"].strip(),
            status=_STATUS.get(header["status"].lower()),
            kind="epic" if header["epic"] else _bd_type(body),
            description=_bd_description(body),
        )
    if not headers:
        _bd_json(output, items)


def _bd_type(body: str) -> str | None:
    found = re.search(r"Type:\s*(\w+)", body)
    return found.group(1).lower() if found else None


def _bd_description(body: str) -> str | None:
    """The DESCRIPTION (and ACCEPTANCE CRITERIA) blocks of a ``bd show`` item."""
    kept: list[str] = []
    keep = False
    for line in body.splitlines():
        if _BD_SECTION.match(line.strip()):
            keep = line.strip() in ("DESCRIPTION", "ACCEPTANCE CRITERIA", "ACCEPTANCE")
            if keep and line.strip() != "DESCRIPTION":
                kept.append("Acceptance criteria:")
            continue
        if keep:
            kept.append(line)
    text = "\n".join(kept).strip()
    return text[:_MAX_DESCRIPTION] or None


def _bd_json(output: str, items: _Items) -> None:
    opening = re.search(r"^\[", output, re.M)
    if opening is None:
        return
    start = opening.start()
    try:
        shown = json.loads(output[start : output.rfind("]") + 1])
    except json.JSONDecodeError:
        return
    for entry in shown if isinstance(shown, list) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            continue
        description = (
            entry.get("description") if isinstance(entry.get("description"), str) else None
        )
        acceptance = entry.get("acceptance_criteria")
        if isinstance(acceptance, str) and acceptance.strip():
            description = f"{description or ''}\nAcceptance criteria:\n{acceptance}".strip()
        items.put(
            "bd",
            entry["id"],
            title=entry.get("title") if isinstance(entry.get("title"), str) else None,
            status=_STATUS.get(str(entry.get("status", "")).lower()),
            kind=entry.get("issue_type") if isinstance(entry.get("issue_type"), str) else None,
            description=description[:_MAX_DESCRIPTION] if description else None,
        )


def _bd_listed(output: str, items: _Items) -> None:
    """A listing refreshes the state of items already tracked, and adds none."""
    for match in _BD_LISTED.finditer(output):
        status = _GLYPH.get(match["glyph"])
        if status is not None:
            items.put("bd", match["id"], track=False, status=status)
    for match in _BD_READY.finditer(output):
        current = items.get("bd", match["id"])
        if current is not None and current.status != "in_progress":
            items.put("bd", match["id"], track=False, status="open")


def _bd_listing(output: str) -> list[ListedItem]:
    """Every item a ``bd`` listing printed, in order: ready work, a list, an epic's children."""
    found: list[tuple[int, ListedItem]] = []
    for match in _BD_READY_LINE.finditer(output):
        found.append(
            (
                match.start(),
                ListedItem(
                    id=match["id"], title=match["title"], status="open", kind=match["kind"].lower()
                ),
            )
        )
    for match in _BD_LIST_LINE.finditer(output):
        found.append(
            (
                match.start(),
                ListedItem(
                    id=match["id"],
                    title=match["title"],
                    status=_GLYPH.get(match["glyph"], "open"),
                    kind=match["kind"].lower(),
                ),
            )
        )
    for match in _BD_CHILD_LINE.finditer(output):
        found.append(
            (
                match.start(),
                ListedItem(
                    id=match["id"], title=match["title"], status=_GLYPH.get(match["glyph"], "open")
                ),
            )
        )
    return [item for _, item in sorted(found, key=lambda pair: pair[0])]


def _bd_command(args: list[str], output: str, succeeded: bool | None, items: _Items) -> None:
    verb = args[0] if args else ""
    rest = args[1:]
    confirmed = {(m["verb"], m["id"]): m["rest"].strip() for m in _BD_CONFIRMED.finditer(output)}
    if verb in ("create", "new", "q"):
        for (said, item_id), title in confirmed.items():
            if said == "Created issue":
                named = _option(rest, "--title") or next(
                    iter(_positionals(rest, _BD_VALUE_OPTIONS)), None
                )
                items.put(
                    "bd",
                    item_id,
                    status="open",
                    created_turn=items.turn,
                    title=title or named,
                    kind=_option(rest, "--type"),
                )
        return
    ids = _positionals(rest, _BD_VALUE_OPTIONS)
    if verb == "update":
        status = _STATUS.get((_option(rest, "--status", "-s") or "").lower())
        if "--claim" in rest:
            status = "in_progress"
        for item_id in ids:
            title = confirmed.get(("Updated issue", item_id))
            if ("Updated issue", item_id) not in confirmed and succeeded is not True:
                continue
            items.put(
                "bd",
                item_id,
                status=status,
                title=title or _option(rest, "--title"),
                started_turn=items.turn if status == "in_progress" else None,
            )
    elif verb in ("close", "done"):
        reason = _option(rest, "--reason", "-r")
        for item_id in ids:
            if ("Closed", item_id) not in confirmed and succeeded is not True:
                continue
            items.put("bd", item_id, status="closed", closed_turn=items.turn, closed_reason=reason)
    elif verb == "reopen":
        for item_id in ids:
            if ("Reopened", item_id) in confirmed or succeeded is True:
                items.put("bd", item_id, status="open")
    elif verb == "show":
        _bd_shown(output, items)
        _bd_listed(output, items)
    elif verb in ("list", "ready", "blocked", "search"):
        _bd_listed(output, items)


# --- gh ----------------------------------------------------------------------------------------


def _gh_id(number: str, repo: str | None) -> str:
    return f"{repo}#{number}" if repo else f"#{number}"


def _followed_id(items: _Items, tracker: str, number: str, repo: str | None) -> str:
    """The id of the item a command names by number: the one the session follows under that number.

    One created in the checkout's own repository is followed by its bare number (``#12``); a
    later ``gh pr merge 12 -R owner/repo`` names the same item, and ``gh pr edit 12`` names one
    followed as ``owner/repo#12``. Where the followed items do not say, the command's own spelling.
    """
    named = _gh_id(number, repo)
    followed = items.by_number(tracker, number)
    if named in followed:
        return named
    if repo is not None:
        return _gh_id(number, None) if _gh_id(number, None) in followed else named
    return followed[0] if len(followed) == 1 else named


def _gh_command(
    args: list[str],
    output: str,
    succeeded: bool | None,
    items: _Items,
    create: tuple[int, int] = (0, 1),
) -> None:
    """One ``gh`` step; ``create`` is (which, of how many) ``gh ... create`` steps the command holds."""
    if len(args) < 2 or args[0] not in ("issue", "pr"):
        return
    tracker: Literal["gh issue", "gh pr"] = "gh issue" if args[0] == "issue" else "gh pr"
    verb, rest = args[1], args[2:]
    repo = _option(rest, "--repo", "-R")
    numbers = [
        a.rsplit("/", 1)[-1].lstrip("#")
        for a in _positionals(rest, frozenset({"--repo", "-R", "--title", "-t", "--body", "-b"}))
    ]
    number = next((n for n in numbers if n.isdigit()), None)
    if verb == "create":
        # Several creates in one command print one URL each, in order: the Nth URL is the Nth
        # create's. When the URLs do not match the creates one for one (one failed), which title
        # goes with which number is unknown.
        which, of = create
        made_all = list(_GH_URL.finditer(output))
        paired = of == 1 or len(made_all) == of
        made = made_all[which] if which < len(made_all) else None
        if made is not None and succeeded is not False:
            items.put(
                tracker,
                _gh_id(made["number"], repo),
                status="open",
                created_turn=items.turn,
                title=_option(rest, "--title", "-t") if paired else None,
            )
        return
    if verb == "list":
        _gh_listed(tracker, output, items, repo)
        return
    # One command may close several ("gh pr close 44 …; gh pr close 43 …"): each step's own line.
    dones = list(_GH_DONE.finditer(output))
    done = next((d for d in dones if d["number"] == number), None)
    if done is None and number is None and dones:
        done = dones[0]  # the current branch's item: its number is only in the output
    if done is not None:
        number = done["number"]
    if number is None:
        return
    item_id = _followed_id(items, tracker, number, repo)
    title = done["title"] if done is not None else None
    if verb == "merge" and (done is not None or succeeded is True):
        items.put(tracker, item_id, status="merged", closed_turn=items.turn, title=title)
    elif verb == "close" and (done is not None or succeeded is True):
        items.put(
            tracker,
            item_id,
            status="closed",
            closed_turn=items.turn,
            title=title,
            closed_reason=_option(rest, "--comment", "-c"),
        )
    elif verb == "reopen" and (done is not None or succeeded is True):
        items.put(tracker, item_id, status="open", title=title)
    elif verb == "view":
        _gh_view(tracker, item_id, output, items)
    elif verb == "edit" and succeeded is True:
        # Retitled (`gh pr edit 12 --title …`): the item the session follows is named anew.
        items.put(tracker, item_id, title=_option(rest, "--title", "-t"))


_GH_LISTED_NUMBER = lazy_pattern(r"^#?(?P<number>\d+)$")
# A line of a list shaped by `-q`/`--template`: "PR #2 [MERGED] merged=2026-07-31 — Title".
_GH_TEMPLATED = lazy_pattern(
    r"^\W*(?:PR|Issue|issue|pr)?\s*#(?P<number>\d+)\b[^#\n]*?\b(?P<state>OPEN|CLOSED|MERGED|DRAFT)\b"
)


def _gh_listed(
    tracker: Literal["gh issue", "gh pr"], output: str, items: _Items, repo: str | None
) -> None:
    """``gh ... list``: the state it shows of each item the session already follows (``--state all`` shows merged
    and closed ones), from its tab-separated lines or its ``--json`` array; it adds no item of its own."""
    listed: list[tuple[str, str]] = []
    try:
        shown = json.loads(output)
    except json.JSONDecodeError:
        shown = None
    if isinstance(shown, list):
        for entry in shown:
            if isinstance(entry, dict) and isinstance(entry.get("number"), int):
                listed.append((str(entry["number"]), str(entry.get("state", ""))))
    else:
        for line in output.splitlines():
            fields = [field.strip() for field in line.split("\t")]
            found = _GH_LISTED_NUMBER.match(fields[0]) if len(fields) >= 3 else None
            states = [f for f in fields[1:] if f in ("OPEN", "CLOSED", "MERGED", "DRAFT")]
            if found is not None and states:
                listed.append((found["number"], states[0]))
            elif len(fields) < 3 and (templated := _GH_TEMPLATED.search(line)) is not None:
                listed.append((templated["number"], templated["state"]))
    for number, state in listed:
        status = _STATUS.get(state.lower())
        # An item created without `--repo` is followed by its bare number, listed with it or not.
        followed = [i for i in dict.fromkeys((_gh_id(number, repo), _gh_id(number, None)))]
        for item_id in followed:
            if status is not None and items.get(tracker, item_id) is not None:
                items.put(tracker, item_id, track=False, status=status)
                break


def _gh_view(
    tracker: Literal["gh issue", "gh pr"], item_id: str, output: str, items: _Items
) -> None:
    """``gh ... view`` refreshes an item the session acted on: its title and state, as JSON or as text."""
    title = state = None
    try:
        shown = json.loads(output)
    except json.JSONDecodeError:
        shown = _json_object_line(output)
    if isinstance(shown, dict):
        title = shown.get("title") if isinstance(shown.get("title"), str) else None
        state = str(shown.get("state", "")).lower() or None
    else:
        found_title = re.search(r"^title:\s*(.+)$", output, re.M)
        found_state = re.search(r"^state:\s*(\w+)", output, re.M)
        title = found_title.group(1).strip() if found_title else None
        state = found_state.group(1).lower() if found_state else None
    items.put(tracker, item_id, track=False, title=title, status=_STATUS.get(state or ""))


def _json_object_line(output: str) -> dict[str, object] | None:
    """The first line of ``output`` that is a whole JSON object with a ``state``, if any.

    Several commands run as one (a code cell, ``a; gh pr view 12 --json state``) print their
    outputs together: the view's JSON is then one line among the others.
    """
    for line in output.splitlines():
        line = line.strip()
        if not (line.startswith("{") and line.endswith("}") and '"state"' in line):
            continue
        try:
            shown = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(shown, dict):
            return shown
    return None


# --- the entry point ---------------------------------------------------------------------------


def _tracker_segments(command: str) -> Iterator[tuple[str, list[str]]]:
    for _, words in segments(command):
        program = words[0].rsplit("/", 1)[-1] if words else ""
        if program in ("bd", "gh"):
            yield program, words[1:]


def observe_tracker_command(
    tracked: TrackedItems, command: str, output: str, turn: int, succeeded: bool | None
) -> None:
    """Fold one shell command into the items, the latest listing and the items listings showed, in place.

    A command that failed changes nothing, except what its output confirms.
    """
    if ("bd" not in command and "gh" not in command) or not _HINT.search(" " + command):
        return  # most commands name neither tracker: no need to copy them for the search
    items = _Items(tracked.items, turn)
    segments_of = list(_tracker_segments(command))
    creates = [
        i
        for i, (program, args) in enumerate(segments_of)
        if program == "gh" and len(args) >= 2 and args[1] == "create"
    ]
    for at, (program, args) in enumerate(segments_of):
        if program == "bd":
            _bd_command(args, output, succeeded, items)
            listed = _bd_listing(output) if args and args[0] in ("ready", "list", "show") else []
            if listed:
                shown = " ".join(["bd", *args])
                tracked.listing = TrackerListing(turn=turn, command=shown, items=listed)
                for item in listed[:_MAX_LISTED]:
                    tracked.seen[item.id] = SeenInListing(
                        **item.model_dump(), turn=turn, command=shown
                    )
        else:
            which = creates.index(at) if at in creates else 0
            _gh_command(args, output, succeeded, items, (which, max(len(creates), 1)))
