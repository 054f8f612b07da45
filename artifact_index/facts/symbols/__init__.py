"""Symbols: the definitions (functions, classes, methods) each change touched, found with tree-sitter.

``grammars`` loads the tree-sitter languages, ``queries/`` holds one tags
query per language as package data, and ``definitions`` finds definitions
and compares them across a change.
"""
