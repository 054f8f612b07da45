"""What the conversation itself adds to the trail: the user's requests, compactions, and the decisions the assistant states."""

from __future__ import annotations

from functools import partial

from artifact_index.facts.decisions import KnownPaths, extract_decisions
from artifact_index.ingestion.events import AssistantMessage, CompactionBoundary, UserMessage
from artifact_index.trail.annotations import add_decision_node, link_decision_symbols
from artifact_index.trail.index import ArtifactIndex
from artifact_index.trail.session_state import AssistantSaid, CompactionMark, UserSaid

__all__ = ["MessageRecorder"]


class MessageRecorder:
    """Records messages into an index, matching decisions against the files known so far."""

    def __init__(self, index: ArtifactIndex) -> None:
        self.index = index
        # The paths of the file nodes, for finding them in the assistant's words;
        # ``_paths_seen`` file nodes have been added to it so far.
        self._paths = KnownPaths()
        self._paths_seen = 0

    def record(self, event: UserMessage | AssistantMessage | CompactionBoundary) -> None:
        session = self.index.session
        if isinstance(event, CompactionBoundary):
            session.compactions.append(
                CompactionMark(
                    turn=event.turn,
                    trigger=event.trigger,
                    pre_tokens=event.pre_tokens,
                    seq=session.op_count,
                    sidechain=event.sidechain,
                )
            )
        elif isinstance(event, UserMessage) and not event.synthetic:
            session.user_messages.append(
                UserSaid(turn=event.turn, text=event.text, channel=event.channel)
            )
        elif isinstance(event, AssistantMessage) and event.text.strip():
            session.last_assistant = AssistantSaid(turn=event.turn, text=event.text)
            for decision in extract_decisions(event.text, event.turn, self._known_paths()):
                session.decision_count += 1
                node = add_decision_node(self.index.fed_graph, session.decision_count, decision)
                # The symbols it names are found among those known now, once they are.
                self.index.defer(
                    partial(link_decision_symbols, self.index.fed_graph, node, decision)
                )

    def _known_paths(self) -> KnownPaths:
        graph = self.index.fed_graph
        files = graph.count_of_kind("file")
        if files > self._paths_seen:
            self._paths.update(
                str(d["path"]) for _, d in graph.nodes_of_kind("file", since=self._paths_seen)
            )
            self._paths_seen = files
        return self._paths
