"""CLI commands for fourcolor (filled in by its engine's work)."""
