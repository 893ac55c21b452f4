"""CLI commands for replay (filled in by its engine's work)."""
