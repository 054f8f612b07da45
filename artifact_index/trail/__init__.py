"""The file trail: events in, the file-state graph out.

``tracker`` feeds events one at a time into the ``index`` (a directed
multigraph of files, operations, symbols, errors and decisions, with the queries
over it); ``shell`` infers what shell commands and scripts did to files;
``contents`` reads file text out of read-tool outputs; ``submission`` works
out what a harness submission holds; ``paths`` normalizes file keys;
``annotations`` adds the fact nodes to the graph; ``refetch`` measures
re-reads.
"""
