"""The exact one-column solver: dice tables, sheet states, the turn and the solved tables."""
