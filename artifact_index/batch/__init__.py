"""Many transcripts in one run: found in directories, indexed in parallel, reported line by line.

``discovery`` expands the command line's paths (directories recursively)
into candidate transcripts; ``runner`` applies one per-file function to
each, across processes on this machine or on a Dask cluster, and hands the
results back in input order; ``capture`` runs a command with its output
kept apart per call; ``progress`` draws the bar on a terminal.
"""
