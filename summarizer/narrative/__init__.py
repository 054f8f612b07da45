"""The narrative sections (intent, decisions, state, next steps): the model, the writers, anchored merging."""
