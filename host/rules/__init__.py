"""Pure rules engines (stdlib only): notation, the event-sourced base, one module per game."""
