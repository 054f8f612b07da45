"""Live sessions: transcripts followed as they grow, and the session store that spans them."""
