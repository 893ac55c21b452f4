"""CLI commands for rummikub (filled in by its engine's work)."""
