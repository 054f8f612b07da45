"""Helpers the tests share: fake APIs, session builders, harness readers."""
