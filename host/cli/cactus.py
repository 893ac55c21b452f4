"""CLI commands for cactus (filled in by its engine's work)."""
