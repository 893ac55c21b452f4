"""CLI commands for allin (filled in by its engine's work)."""
