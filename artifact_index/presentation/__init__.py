"""Presentation: tables and JSON for people and programs, and the command line."""
