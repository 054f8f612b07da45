"""The sections of a summary that the index fills: facts, their rendering, and the templates."""
