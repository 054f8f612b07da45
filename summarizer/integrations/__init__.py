"""Where agents compact: hooks and plugins for the agents that run them."""
