"""Command-line entry: launches the TUI or runs non-interactive commands."""
