"""What the conversation itself adds to the trail: the user's requests, compactions, and the decisions the assistant states."""

from __future__ import annotations

from functools import partial

from artifact_index.facts.decisions import KnownPaths, extract_decisions
from artifact_index.ingestion.events import AssistantMessage, CompactionBoundary, UserMessage
from artifact_index.trail.annotations import add_decision_node, link_decision_symbols
from artifact_index.trail.index import ArtifactIndex

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
        meta = self.index.meta
        if isinstance(event, CompactionBoundary):
            # ``seq``: the operations before the boundary are those numbered up to it.
            meta.setdefault("compactions", []).append(
                {
                    "turn": event.turn,
                    "trigger": event.trigger,
                    "pre_tokens": event.pre_tokens,
                    "seq": meta.get("op_count", 0),
                    "sidechain": event.sidechain,
                }
            )
        elif isinstance(event, UserMessage) and not event.synthetic:
            meta.setdefault("user_messages", []).append(
                {"turn": event.turn, "text": event.text, "channel": event.channel}
            )
        elif isinstance(event, AssistantMessage) and event.text.strip():
            meta["last_assistant"] = {"turn": event.turn, "text": event.text}
            for decision in extract_decisions(event.text, event.turn, self._known_paths()):
                meta["decision_count"] = meta.get("decision_count", 0) + 1
                node = add_decision_node(self.index.fed_graph, meta["decision_count"], decision)
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
