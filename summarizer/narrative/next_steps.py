"""Next steps for the offline narrative: only what the transcript states is left to do, in order.

A step is written only when the session's words state it: the items of the
user's numbered request not done yet, the user's unanswered message, the
change the agent last announced and has not made, what is left of the
current task (the sub-steps its definition of done and the agent's own plan
name that no change carried out, see :mod:`summarizer.sections.substeps`),
the tracker item the session set in progress with the finishing steps it
took for the items it closed before, the agent's open tasks, the files the
latest request names with no change since it, the plan the agent
stated last, the next open tracker item.  What the index knows is open but
no one stated as a step (checks owed, open errors) is under Test Status and
Errors, not here.  When the session stopped in an investigation, the steps
are its open question, the agent's latest conclusion and the checks it
announced since.  When the agent had started on the latest request and said
nothing since, that request is the step, with the calls it made on it.  When
nothing is stated, that is said, with whether the agent was waiting for the
user or stopped mid-work.
A plan sentence that the very next tool call carried out ("Let me check X:"
followed by the call that checked X) is what the agent was doing, shown
under Where It Stopped, not a step still to take.
"""

from __future__ import annotations

import re

from artifact_index.lazy_pattern import lazy_pattern
from summarizer.narrative.consistency import still_failing
from summarizer.narrative.wording import first_line, item_name
from summarizer.sections.progress import (
    item_progress,
    items_in_progress,
    open_in_epic,
    request_files_not_changed,
)
from summarizer.sections.search_matches import in_common_folder, place_path, place_progress
from summarizer.sections.substeps import SubStep, remaining_steps
from summarizer.sections.summary_facts import SessionFacts
from summarizer.sections.text import sentences
from summarizer.sections.thread import (
    GO_AHEAD,
    SESSION_COMMANDS,
    agent_turn,
    investigation,
    latest_request,
    planned_at,
    request_in_hand,
    thread_start,
)

__all__ = ["next_steps"]

# "The fix is to remove ..." states the change to make as plainly as "I'll remove ...".
_PLAN = lazy_pattern(
    r"^(next,?|then,?|now,?|finally,?)?\s*(I'll|I will|I'm going to|let me|let's|we should|we need to|"
    r"the next step|next step|next,|todo:|remaining:|the (?:fix|solution|remedy) (?:is|would be) to\b)",
    re.I,
)
_MIN_PLAN_WORDS = 5
# A sentence that leaves the choice to the user ("Let me know if you'd like ...", "If you want, I can ..."): the
# hand-over, whose next move is the user's, never a step the agent stated it would take.
_OFFER = lazy_pattern(
    r"^[*_\s]*(?:let me know|tell me|just say|say the word|happy to|want me to|shall I|should I|would you like)\b"
    r"|\bif you(?:'d| would)?\s+(?:like|want|prefer)\b",
    re.I,
)


def _offers(sentence: str) -> bool:
    return _OFFER.search(sentence.strip()) is not None


def _carried_out(facts: SessionFacts) -> bool:
    """Whether a tool call came after the agent's last message (so what it announced was done)."""
    last = facts.last_assistant
    return last is not None and any(call.turn >= last.turn for call in facts.activity)


def _stated_plan(facts: SessionFacts) -> list[str]:
    if facts.last_assistant is None or _carried_out(facts):
        return []
    listed = _announced_plan(facts.last_assistant.text)
    if listed is not None:
        return [first_line(listed, 600)]
    plan = [
        s.strip()
        for s in sentences(facts.last_assistant.text)
        if _PLAN.match(s.strip())
        and not _WAITS_FOR.search(s)  # waiting is the hand-over, said once
        and not _offers(s)  # so is an offer to the user
        and len(s.split()) >= _MIN_PLAN_WORDS
        and not s.strip().endswith(":")
    ]
    return [first_line(s, 250) for s in plan[:3]]


# A sentence that announces a change ("Now add the flash rendering", "**Item 3: Extract the helper**"):
# carried out only by a change, not by the searches and reads that prepare it.
_ANNOUNCED_CHANGE = lazy_pattern(
    r"^[#*\s]*(?:(?:item|step|task|part)\s*\d+\s*[:.)-]\s*)?(?:(?:now|next|then|first|finally),?\s+)?"
    r"(?:(?:let me|let's|I'll|I will|I'm going to|I need to|we need to)\s+)?(?:also\s+)?"
    r"(?:add|extract|update|fix|implement|create|write|remove|delete|refactor|move|rename|replace|change|modify|"
    r"wire|install|apply|introduce|convert|split|make)\b",
    re.I,
)


# A line that introduces the agent's own list of changes: "I need to:", "Next, I'll:", "The fix:".
_PLAN_INTRO = lazy_pattern(
    r"\b(?:I need to|I'll|I will|I'm going to|let me|let's|we need to|next steps?|the fix|plan|changes?)\b[^\n]*:\s*$",
    re.I,
)
_LIST_ITEM = lazy_pattern(r"^\s*(?:\d{1,2}[.)]|[-*•])\s+\S")


def _announced_plan(text: str) -> str | None:
    """The list of changes a message announces (its introducing line and every item), or None.

    Taken sentence by sentence, the items of "I need to: 1. Add colour variation 2. Add brightness
    variation 3. Slightly reduce the size" lost the ones not opening with a verb of change.
    """
    lines = text.splitlines()
    for at, line in enumerate(lines):
        if not _PLAN_INTRO.search(line):
            continue
        items = []
        for item in lines[at + 1 :]:
            if _LIST_ITEM.match(item):
                items.append(item.strip())
            elif item.strip() or items:
                break
        if len(items) >= 2:
            # The introducing sentence, not the ones before it on its line.
            return " ".join([sentences(line.strip())[-1], *items])
    return None


def _announced_change(facts: SessionFacts) -> list[str]:
    """What the agent's last message said it would change, when calls followed but none changed a file."""
    last = facts.last_assistant
    if last is None or not _carried_out(facts):
        return []  # no call followed: the stated plan says it
    if any(
        turn >= last.turn for f in [*facts.changed, *facts.reverted] for turn in f.changed_turns
    ):
        return []
    plan = _announced_plan(last.text)
    if plan is not None:
        # A list of changes the agent set out ("I need to: 1. ... 2. ... 3. ..."): one step, every item of it.
        return [
            f"Carry out the plan the agent last announced (turn {last.turn}); the calls since changed no file "
            f"yet: {first_line(plan, 600)}"
        ]
    announced = [
        s.strip().strip("*#").strip()
        for s in sentences(last.text)
        if _ANNOUNCED_CHANGE.match(s.strip()) and len(s.split()) >= 3
    ]
    return [
        f"Carry out what the agent last announced (turn {last.turn}); the calls since changed no file yet: "
        f"{first_line(s, 250)}{_failing_check(facts, last.turn, s)}"
        for s in announced[:2]
    ]


# A step about a failing check ("Let me fix the test."): which check, and what failed, says what "the test" is.
_ABOUT_A_CHECK = lazy_pattern(
    r"\b(?:fix|test|tests|fail\w*|error\w*|pass\w*|broken|lint|build)\b", re.I
)
_FAILING_SHOWN = 3


def _failing_check(facts: SessionFacts, turn: int, step: str) -> str:
    """The check still failing when the agent announced ``step`` at ``turn``, when the step is about one."""
    if not _ABOUT_A_CHECK.search(step):
        return ""
    runs = [run for run in still_failing(facts) if run.turn <= turn]
    if not runs:
        return ""
    run = max(runs, key=lambda r: r.turn)
    names = ", ".join(f"`{name}`" for name in run.failing[:_FAILING_SHOWN])
    more = (
        f" and {len(run.failing) - _FAILING_SHOWN} more"
        if len(run.failing) > _FAILING_SHOWN
        else ""
    )
    failing = f": {names}{more}" if names else ""
    return (
        f" (the check failing then: `{first_line(run.command, 80)}`, turn {run.turn}, {run.failed} "
        f"{'failed' if run.unit == 'tests' else 'package(s) failed'}{failing})"
    )


def _unanswered(facts: SessionFacts) -> list[str]:
    """The user's last message, when nothing the agent did came after it."""
    asked = [m for m in facts.user_messages if m.text.strip().lower() not in SESSION_COMMANDS]
    latest = asked[-1] if asked else None
    if latest is None:
        return []
    agent_turns = [call.turn for call in facts.activity]
    if facts.last_assistant is not None:
        agent_turns.append(facts.last_assistant.turn)
    if agent_turns and max(agent_turns) > latest.turn:
        return []
    # Its words beside the step: "answer the latest message" alone sent the reader looking for which one.
    return [
        f"Answer the user's latest message (turn {latest.turn}, whole under User Messages): "
        f'"{first_line(latest.text, 240)}"'
    ]


def _item_steps(facts: SessionFacts) -> list[str]:
    """Finishing the work items in progress, with the finishing steps taken for the items closed before."""
    items = []
    for item in items_in_progress(facts):
        progress = item_progress(facts, item)
        text = f"Finish {item_name(item)}"
        if progress.remaining:
            peers = ", ".join(f"`{i.id}`" for i in progress.finished[-3:])
            text += f": still to do, as done for {peers}: {', '.join(progress.remaining)}"
        items.append(text + ".")
    return items


def _next_items(facts: SessionFacts) -> list[str]:
    """The open tracker items to take up next: those of the epic in hand the listings showed, and the open items
    the session looked at."""
    mine = items_in_progress(facts)
    if not mine and not any(i.closed_turn for i in facts.work_items):
        return []
    waiting = [(i.id, i.title) for i in facts.work_items if i.status == "open" and i.kind != "epic"]
    listed = open_in_epic(facts)
    source = ""
    if listed:
        latest = max(listed, key=lambda i: i.turn)
        source = f" (open in the last `{first_line(latest.command, 60)}`, turn {latest.turn})"
        waiting = [*((i.id, i.title) for i in listed), *waiting]
    if not waiting:
        return []
    named = ", ".join(
        f"`{id_}`" + (f" ({first_line(title, 80)})" if title else "") for id_, title in waiting[:3]
    )
    more = f" and {len(waiting) - 3} more" if len(waiting) > 3 else ""
    return [f"Then the next open tracker item(s){source}: {named}{more}."]


def _missing(step: SubStep) -> str:
    return (
        "no test file changed" if step.missing == "no test file" else f"{step.missing} not changed"
    )


def _left_of_task(facts: SessionFacts, said_last: bool) -> list[str]:
    """The sub-steps of the current task no change has carried out; those of the agent's last message only when
    the steps above do not quote it already.  The items of one plan ("I'll update: 1. ... 2. ...") make one step.
    """
    last = facts.last_assistant.turn if facts.last_assistant is not None else None
    groups: dict[tuple[str, int], list[SubStep]] = {}
    for step in remaining_steps(facts):
        if said_last and step.source.startswith("the agent's") and step.since == last:
            continue
        groups.setdefault((step.source, step.since), []).append(step)
    lines = []
    for (source, since), steps in groups.items():
        if len(steps) == 1:
            step = steps[0]
            also = "".join(f"; also {said}" for said in step.also)
            lines.append(
                f'Not done yet: "{first_line(step.text, 200)}" ({source}{also}); {_missing(step)} since '
                f"turn {since}."
            )
        else:
            items = "; ".join(f'"{first_line(step.text, 120)}" ({step.missing})' for step in steps)
            lines.append(
                f"Not done yet, of {source} (what each names is unchanged since): {items}."
            )
    return lines


def _investigating(facts: SessionFacts, shown: frozenset[str]) -> list[str]:
    """The open question, the agent's latest conclusion and the checks it announced since, in its words."""
    found = investigation(facts)
    if found is None:
        return []
    question = found.question
    request = (
        f"Answer the open request (turn {question.turn}, shown under User Messages): "
        f'"{first_line(question.text, 160)}"; {found.calls} calls since, no file changed'
    )
    if found.conclusion is None:
        return [f"{request}, no conclusion stated yet.{_places_to_see(facts, question.turn)}"]
    # Its first words beside the next steps; whole under Findings, when the summary has them.
    whole = " (whole under Findings)" if "findings" in shown else ""
    steps = [
        f"{request}.",
        f"Its latest conclusion (turn {found.conclusion.turn}), to confirm or correct: "
        f"{first_line(found.conclusion.text.replace('**', ''), 160 if whole else 360)}{whole}",
    ]
    if found.checks:
        checks = "; ".join(
            f"(turn {c.turn}) {first_line(c.text, 160).rstrip('.')}" for c in found.checks
        )
        steps.append(f"The checks it announced since, the last one where it stopped: {checks}.")
    return steps


_PLACES_SHOWN = 8


def _places_to_see(facts: SessionFacts, since: int) -> str:
    """What the latest search since ``since`` left to look at, and what was read since: where to pick up."""
    searches = [s for s in facts.searches if s.turn >= since]
    if not searches:
        return ""
    search = searches[-1]
    progress = place_progress(search, facts)
    if not progress.left:
        return f" Every file its search of turn {search.turn} matched in was looked at or changed since."
    folder, places = in_common_folder([*progress.left, *map(place_path, progress.seen)])
    left, seen = places[: len(progress.left)], places[len(progress.left) :]
    more = f" and {len(left) - _PLACES_SHOWN} more" if len(left) > _PLACES_SHOWN else ""
    text = (
        f" Of the places its search of turn {search.turn} matched"
        + (f", in `{folder}/`" if folder else "")
        + ", in files no call has looked at since: "
        + ", ".join(f"`{p}`" for p in left[:_PLACES_SHOWN])
        + more
    )
    if seen:
        text += "; looked at since: " + ", ".join(f"`{p}`" for p in seen[:_PLACES_SHOWN])
    return text + "."


# A last sentence that says what the agent does next ("Now let me run the tests.", "Next, I'll
# update the docs."), not one that hands over ("Let me know ...", "I'll wait for ...").
_ANNOUNCES = lazy_pattern(
    r"^(?:(?:now|next|then|ok(?:ay)?|great|good|first)[,!.]?\s+)*"
    r"(?:let me|let's|i'll|i will|i'm going to|i am going to)\s+(?!know\b|wait\b|stop\b|pause\b)\w",
    re.IGNORECASE,
)


def _announces(sentence: str) -> bool:
    return not sentence.rstrip().endswith("?") and _ANNOUNCES.match(sentence.strip()) is not None


def _waiting(facts: SessionFacts) -> bool:
    """Whether the agent had ended its turn and handed back to the user: its last message came after the
    latest request and after every call, and does not announce a next call."""
    last = facts.last_assistant
    if last is None:
        return False
    latest = latest_request(facts.user_messages)
    # A call of the same response as the message came after its text: the agent went on working.
    later_calls = [c for c in facts.activity if c.turn >= last.turn]
    # "Let me check X:" or "Now I'll run the tests." announces a call: the agent was working, not waiting.
    announcing = last.text.rstrip().endswith(":") or _announces(sentences(last.text.strip())[-1])
    return (latest is None or last.turn >= latest.turn) and not later_calls and not announcing


# "I'll wait for the verification workflow to finish.": the agent waits for work it started, not for the user.
_WAITS_FOR = re.compile(
    r"\b(?:I'll|I will|I'm going to|let me|let's|now)\s+wait(?:ing)?\s+(?:for|until|on)\s+\S.*",
    re.I,
)


def _waits_for(facts: SessionFacts) -> str | None:
    """The sentence of the agent's last message that says it waits for work it started, if one does."""
    last = facts.last_assistant
    if last is None:
        return None
    waits = [s.strip() for s in sentences(last.text) if _WAITS_FOR.search(s) and "?" not in s]
    return waits[-1] if waits else None


def _handed_over(facts: SessionFacts) -> str:
    """The hand-over the agent's last message made: the question it asked, what it said it waits for, else that
    it reported back."""
    last = facts.last_assistant
    assert last is not None
    latest = latest_request(facts.user_messages)
    waits = _waits_for(facts)
    if waits is not None:
        return (
            f"The agent's last message (turn {last.turn}) ended its turn to wait for work it had started, not "
            f'for the user: "{first_line(waits, 240)}"; when that result arrives, check it and go on with '
            "the latest request."
        )
    questions = [
        s.strip()
        for s in sentences(last.text)
        if (s.strip().endswith(("?", "？")) or _offers(s)) and len(s.split()) >= 3
    ]
    if questions:
        asks = "asks" if questions[-1].endswith(("?", "？")) else "leaves it to"
        return (
            f"The agent's last message (turn {last.turn}) {asks} the user: "
            f'"{first_line(questions[-1], 240)}"; the next move is theirs.'
        )
    running = [a for a in facts.background if a.finished_turn is None]
    if running:
        # Not a hand-over to the user: the agent waits for the work it left running.
        return (
            f"The agent's last message (turn {last.turn}) ended its turn while {len(running)} sub-agent(s) "
            "still ran in the background (under Where It Stopped): it was waiting for their results, then "
            "to go on with its task list."
        )
    about = f" on the latest request (turn {latest.turn})" if latest is not None else ""
    return (
        f"The agent's last message (turn {last.turn}) reported back{about} and ended its turn: it was "
        "waiting for the user; its words are under Where It Stopped."
    )


_CALLS_SINCE_SHOWN = 3


def _in_flight(facts: SessionFacts, *, request_named: bool = False) -> list[str]:
    """What the agent was doing when the context filled, in its words: its last message whole (it is the plan
    it was carrying out) and the calls made since, so the work goes on where it stopped rather than over.

    ``request_named``: a step before it names the open request, which is then not named again.
    """
    last = facts.last_assistant
    latest = latest_request(facts.user_messages)
    if last is None or _waiting(facts) or (latest is not None and last.turn < latest.turn):
        return []
    since = [c for c in facts.activity if c.turn >= last.turn]
    in_hand = request_in_hand(
        facts.user_messages, planned_at=planned_at(facts), agent_turn=agent_turn(facts)
    )
    words = (
        f'in its last words (turn {last.turn}): "{first_line(last.text.replace("**", ""), 400)}"'
    )
    if request_named or latest is None or in_hand is None:
        text = f"Where the work stood when the context filled. What the agent was doing, {words}"
    else:
        # The request is under Session Intent: named by its turn, never restated here as if it were a step. What
        # the agent was doing is in its words, with the calls since, so the work goes on rather than over.
        if in_hand is not latest:
            # The latest message was typed while the agent worked on an earlier request: that is the work in flight.
            work = (
                f"the request of turn {in_hand.turn} and the messages queued while it worked (to turn "
                f"{latest.turn}, under User Messages)"
            )
        else:
            work = f"the latest request (turn {latest.turn}, under Session Intent)"
        text = f"Where the work stood when the context filled, on {work}. What the agent was doing, {words}"
    if since:
        done = "; ".join(
            f"{c.tool} `{first_line(c.target, 80)}` (turn {c.turn}, {c.status})"
            for c in since[-_CALLS_SINCE_SHOWN:]
        )
        more = (
            f" ({len(since) - _CALLS_SINCE_SHOWN} earlier not shown)"
            if len(since) > _CALLS_SINCE_SHOWN
            else ""
        )
        text += (
            f"; calls made since{more}: {done}. Check what those calls left before repeating them."
        )
    else:
        text += "; no call made since."
    running = [a for a in facts.background if a.finished_turn is None]
    if running:
        # Work the agent handed to sub-agents goes on without it: redoing it would clash with their results.
        text += (
            f" {len(running)} sub-agent(s) it launched still ran in the background (under Where It Stopped): "
            "their results arrive as notices; do not redo their work."
        )
    return [text]


def _nothing_stated(facts: SessionFacts) -> list[str]:
    """No step is stated: say so, and whether the agent was waiting for the user or stopped mid-work."""
    latest = latest_request(facts.user_messages)
    if _waiting(facts):
        said = _handed_over(facts)
        if _waits_for(facts) is not None:
            return [said]  # the step is stated: check what it waits for
        return ["No next step stated: " + said[0].lower() + said[1:]]
    started = _started_on(facts)
    if started:
        return started
    if facts.activity:
        call = facts.activity[-1]
        during = f" during the latest request (turn {latest.turn})" if latest is not None else ""
        return [
            f"No next step stated: the work stopped{during} after {call.tool} "
            f"`{first_line(call.target, 100)}` (turn {call.turn}, {call.status}); see Where It Stopped."
        ]
    return []


def _started_on(facts: SessionFacts) -> list[str]:
    """The latest request as the step, with the calls the agent had made on it, when it worked on it without a
    word since: what was in flight at the cut is that request, and the calls say how far it got."""
    latest = latest_request(facts.user_messages)
    if latest is None:
        return []
    last = facts.last_assistant
    if last is not None and last.turn >= latest.turn:
        return []
    since = [c for c in facts.activity if c.turn >= latest.turn]
    if not since:
        return []
    calls = "; ".join(
        f"{c.tool} `{first_line(c.target, 80)}` (turn {c.turn}, {c.status})"
        for c in since[-_CALLS_SINCE_SHOWN:]
    )
    earlier = (
        f", the last {_CALLS_SINCE_SHOWN} of {len(since)}"
        if len(since) > _CALLS_SINCE_SHOWN
        else ""
    )
    return [
        f"Go on with the latest request (turn {latest.turn}): "
        f'"{first_line(latest.text, 240)}"; the agent had started on it and said nothing '
        f"since; its calls{earlier}: {calls}. Check what those calls left before repeating them."
    ]


def _task_steps(facts: SessionFacts) -> list[str]:
    """The agent's open tasks, when the list still stands: written since the latest request, or before a reply
    that went on with it ("proceed"); a list older than the thread it is in is said to be that old."""
    if not facts.open_tasks:
        return []
    written = max(t.turn for t in facts.tasks)
    latest = latest_request(facts.user_messages)
    if latest is not None and written < latest.turn and GO_AHEAD.match(latest.text) is None:
        # The user asked something new after the list and the agent did not rewrite it: its items are the old
        # plan (shown under Pending Tasks with its turn), not a step anyone stated for this request.
        return []
    since = thread_start(facts)
    old = (
        f" (the agent's task list of turn {written}, written before the latest request of turn {since}: "
        "it may be out of date)"
        if written < since
        else ""
    )
    items = []
    for task in facts.open_tasks:
        verb = "Continue" if task.status == "in_progress" else "Do"
        if task.done_evidence:
            items.append(
                f"Check whether this is already done ({task.done_evidence}): {task.content}{old}"
            )
        else:
            items.append(f"{verb}: {task.content}{old}")
        old = ""  # said once, on the first of the list
    return items


def _request_steps(facts: SessionFacts) -> list[str]:
    """The items of the user's numbered request not done or checked yet, by number and state."""
    open_items = [
        i
        for i in facts.request_items
        if i.status not in ("done", "checked", "edited, then moved on")
    ]
    if not open_items:
        return []
    by_state: dict[str, list[str]] = {}
    for item in open_items:
        by_state.setdefault(item.status, []).append(str(item.number))
    states = "; ".join(f"{state}: {', '.join(numbers)}" for state, numbers in by_state.items())
    return [
        f"Finish the items of the user's numbered request not done yet ({states}; each under Pending Tasks)."
    ]


def next_steps(facts: SessionFacts, shown: frozenset[str] = frozenset()) -> list[str]:
    """The next steps, in the order to take them, each computed from what the session did and said.

    ``shown``: the index sections the summary shows beside them, which they refer to rather than repeat.
    """
    items = _request_steps(facts)
    announced = _announced_change(facts)
    stated = _stated_plan(facts)
    # A plan the last message states (or a change it announced and no call has made) is the step; else where
    # the work in flight stood.
    flight = [] if stated or announced else _in_flight(facts)
    items += (
        _unanswered(facts) + announced + _left_of_task(facts, bool(announced or stated or flight))
    )
    items += _item_steps(facts)
    items += _task_steps(facts)
    named = request_files_not_changed(facts)
    if named is not None:
        turn, missing = named
        # A file the thread's searches matched in is named here by its name: its places are under Findings.
        searched = {place_path(place) for search in facts.searches for place in search.places}
        # Each is the path in backticks, then what the session did with it ("(never opened in the session)").
        paths = {m: m.split("`")[1] if m.count("`") >= 2 else m for m in missing}
        unsearched = [m for m in missing if paths[m] not in searched]
        matched = [paths[m] for m in missing if paths[m] in searched]
        names = [path.rsplit("/", 1)[-1] for path in matched]
        matched = names if len(set(names)) == len(names) else matched
        more = f" and {len(unsearched) - 6} more" if len(unsearched) > 6 else ""
        places = (
            (
                f"{'; and ' if unsearched else ''}where the searches matched: "
                + ", ".join(f"`{name}`" for name in matched)
            )
            if matched
            else ""
        )
        items.append(
            f"Files the latest request (turn {turn}) names, with no change since it: "
            + ", ".join(unsearched[:6])
            + more
            + places
            + "."
        )
    items += [f"The agent said it would: {s}" for s in stated]
    later = _next_items(facts)
    if not items and not later:
        investigating = _investigating(facts, shown)
        if investigating and flight:
            # The open request is named once, by the investigation: where the work stood follows it.
            flight = _in_flight(facts, request_named=True)
        items += investigating
    # After what is left that no change carried out: the work in flight, where to pick it up; the tracker's
    # next items only after it, since the work in hand comes first.
    items += flight + later
    if not items:
        return _nothing_stated(facts)
    # The agent had handed back to the user: that comes first, what the records leave open after it.
    if _waiting(facts) and not any(i.startswith("Answer the user's latest") for i in items):
        items.insert(0, _handed_over(facts))
    return items
