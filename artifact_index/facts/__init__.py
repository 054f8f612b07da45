"""Facts beyond file state, extracted from tool calls and their outputs.

``symbols`` (tree-sitter definitions, with the grammars and the tags
queries), ``errors`` (diagnostics, test results, checkers and the error
ledger that follows each error to its resolution), ``decisions`` and
``tasks``.  Extractors here know nothing of the graph; the trail links them.
"""
